#!/usr/bin/env bash
# Solves every task of ../shared/benchmarks with the default configuration
# and prints a Markdown table: task, status, time, plan cost, expansions.
#
#   benches/coverage.sh [TIME_LIMIT_SECONDS=60] [MEMORY_LIMIT_MIB=4096] > coverage.md
#
# Extra arguments after the two limits go to `plan` (e.g. --optimal).
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-60}
memory=${2:-4096}
shift $(( $# > 2 ? 2 : $# ))
shared=../shared/benchmarks
[ -f "$shared/tasks.tsv" ] || { echo "../shared/benchmarks is absent" >&2; exit 1; }
cargo build --release --quiet --bin plan
plan=${CARGO_TARGET_DIR:-target}/release/plan
echo "| task | kind | status | time (s) | cost | expanded |"
echo "|---|---|---|---:|---:|---:|"
solved=0; total=0
while IFS=$'\t' read -r kind domain problem; do
  [ "$kind" = kind ] && continue
  total=$((total + 1))
  start=$(date +%s.%N)
  json=$(timeout $((limit + 10)) "$plan" --json -q --time-limit "$limit" --memory-limit "$memory" "$@" \
    "$shared/$domain" "$shared/$problem" 2>/dev/null) || true
  end=$(date +%s.%N)
  row=$(printf '%s' "$json" | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
    print(d["status"].replace(" ", "-"), d["cost"] if d["cost"] is not None else "-", d["expanded"])
except Exception:
    print("error - -")')
  read -r status cost expanded <<<"$row"
  [ "$status" = solved ] && solved=$((solved + 1))
  printf '| %s | %s | %s | %.2f | %s | %s |\n' "$problem" "$kind" "$status" "$(echo "$end - $start" | bc)" "$cost" "$expanded"
done < "$shared/tasks.tsv"
echo
echo "Solved $solved of $total tasks (time limit ${limit}s, memory limit ${memory} MiB)."
