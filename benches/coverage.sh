#!/usr/bin/env bash
# Solves every task of ../shared/benchmarks with the default configuration
# and prints Markdown tables: solved per domain, then per task: status,
# time, plan cost, expansions. Every plan is checked by `plan validate`; a
# rejected one is reported as `invalid-plan`, not solved.
#
#   JOBS=2 benches/coverage.sh [TIME_LIMIT_SECONDS=60] [MEMORY_LIMIT_MIB=4096] > coverage.md
#
# Extra arguments after the two limits go to `plan` (e.g. --optimal).
# JOBS (default 1) tasks run side by side; times are wall clock per task.
# TASKS (default ../shared/benchmarks/tasks.tsv) may name a subset in the
# same format.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared/benchmarks
plan=${CARGO_TARGET_DIR:-target}/release/plan

# One task (called through xargs below): prints "INDEX<TAB>row".
# The extra `plan` flags arrive in PLAN_FLAGS, one per line.
if [ "${1:-}" = --one ]; then
  limit=$2 memory=$3 index=$4 kind=$5 domain=$6 problem=$7
  flags=()
  [ -n "${PLAN_FLAGS:-}" ] && mapfile -t flags <<<"$PLAN_FLAGS"
  plan_file=$(mktemp)
  start=$(date +%s.%N)
  json=$(timeout $((limit + 10)) "$plan" --json -q --time-limit "$limit" --memory-limit "$memory" \
    -o "$plan_file" "${flags[@]}" "$shared/$domain" "$shared/$problem" 2>/dev/null) || true
  end=$(date +%s.%N)
  row=$(printf '%s' "$json" | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
    print(d["status"].replace(" ", "-"), d["cost"] if d["cost"] is not None else "-", d["expanded"])
except Exception:
    print("error - -")')
  read -r status cost expanded <<<"$row"
  # A plan counts only if the independent validator accepts it.
  if [ "$status" = solved ] &&
    ! "$plan" validate "$shared/$domain" "$shared/$problem" "$plan_file" >/dev/null 2>&1; then
    status=invalid-plan
  fi
  rm -f "$plan_file"
  printf '%s\t| %s | %s | %s | %.2f | %s | %s |\n' "$index" "$problem" "$kind" "$status" \
    "$(echo "$end - $start" | bc)" "$cost" "$expanded"
  exit 0
fi

limit=${1:-60}
memory=${2:-4096}
shift $(( $# > 2 ? 2 : $# ))
tasks=${TASKS:-$shared/tasks.tsv}
[ -f "$tasks" ] || { echo "no task list $tasks (is ../shared/benchmarks absent?)" >&2; exit 1; }
cargo build --release --quiet --bin plan
PLAN_FLAGS=$(printf '%s\n' "$@")
export PLAN_FLAGS
rows=$(awk -F'\t' 'NR > 1 && NF >= 3 { print NR - 1 "\t" $1 "\t" $2 "\t" $3 }' "$tasks" | tr '\t\n' '\0\0' |
  xargs -0 -n 4 -P "${JOBS:-1}" "$0" --one "$limit" "$memory" | sort -n | cut -f2-)
# Per domain: solved count and median time of the solved tasks.
printf '%s\n' "$rows" | python3 -c '
import statistics, sys
domains = {}
for line in sys.stdin:
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) < 6:
        continue
    d = domains.setdefault(cells[0].split("/")[0], [0, []])
    d[0] += 1
    if cells[2] == "solved":
        d[1].append(float(cells[3]))
print("| domain | solved | median time of solved (s) | max time of solved (s) |")
print("|---|---:|---:|---:|")
for name, (total, times) in domains.items():
    median = f"{statistics.median(times):.2f}" if times else "-"
    top = f"{max(times):.2f}" if times else "-"
    print(f"| {name} | {len(times)}/{total} | {median} | {top} |")
'
solved=$(printf '%s\n' "$rows" | grep -c '| solved |' || true)
total=$(printf '%s\n' "$rows" | grep -c '^|' || true)
echo
echo "Solved $solved of $total tasks (time limit ${limit}s, memory limit ${memory} MiB, ${JOBS:-1} at a time)."
echo
echo "| task | kind | status | time (s) | cost | expanded |"
echo "|---|---|---|---:|---:|---:|"
printf '%s\n' "$rows"
