#!/usr/bin/env bash
# Solves every shipped problem (except Puzznic, see puzznic_table.sh) with
# the default configuration and with --optimal, and prints a Markdown
# table: domain, problem, default time and cost, optimal time and cost.
#
#   benches/domains_table.sh [TIME_LIMIT_SECONDS=60] > domains.md
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-60}
cargo build --release --quiet --bin plan
plan=${CARGO_TARGET_DIR:-target}/release/plan

# Prints "time cost" of one run ("-" for the cost when no plan was found).
run() {
  local start end json cost
  start=$(date +%s.%N)
  json=$(timeout $((limit + 10)) "$plan" --json -q --time-limit "$limit" "$@" 2>/dev/null) || true
  end=$(date +%s.%N)
  cost=$(printf '%s' "$json" | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
    print(d["cost"] if d["status"] == "solved" else d["status"].replace(" ", "-"))
except Exception:
    print("error")')
  printf '%.2f %s' "$(echo "$end - $start" | bc)" "$cost"
}

echo "| domain | problem | default time (s) | default cost | --optimal time (s) | --optimal cost |"
echo "|---|---|---:|---:|---:|---:|"
for dir in domains/*/; do
  name=$(basename "$dir")
  [ "$name" = puzznic ] && continue
  for problem in problems/"$name"/*.pddl; do
    read -r dt dc <<<"$(run "$dir/domain.pddl" "$problem")"
    read -r ot oc <<<"$(run --optimal "$dir/domain.pddl" "$problem")"
    echo "| $name | $(basename "$problem" .pddl) | $dt | $dc | $ot | $oc |"
  done
done
