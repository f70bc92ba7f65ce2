#!/usr/bin/env bash
# Coverage of the default configuration on the numeric benchmark domains
# (../shared/benchmarks/*-numeric-automatic), one task at a time, with a
# CPU-time limit (so that figures do not depend on the machine's load).
# Every plan found is re-checked with `plan validate`.
#
#   crates/pddl-search/benches/numeric_coverage.sh [PLAN_BINARY] [CPU_SECONDS=30] > out.md
#
# DOMAINS=REGEX restricts the tasks (e.g. DOMAINS=settlers). The wall-clock
# limit is six times the CPU limit, so that the CPU limit decides even on a
# loaded machine. The process is limited to 4 GiB of address space and
# asked to stop at 3 GiB; "killed" means it hit the CPU or address-space
# limit without reporting.
# PLAN_BINARY defaults to the release `plan` of $CARGO_TARGET_DIR (build it
# first: `cargo build --release --bin plan`). Extra arguments after the two
# go to `plan`.
set -uo pipefail
cd "$(dirname "$0")/../../.."
plan=${1:-${CARGO_TARGET_DIR:-target}/release/plan}
limit=${2:-30}
shift $(( $# > 2 ? 2 : $# ))
shared=../shared/benchmarks
[ -f "$shared/tasks.tsv" ] || { echo "../shared/benchmarks is absent" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| task | status | CPU (s) | cost | expanded | valid |"
echo "|---|---|---:|---:|---:|---|"
declare -A solved total
while IFS=$'\t' read -r kind domain problem; do
  [ "$kind" = numeric ] || continue
  [[ "$problem" =~ ${DOMAINS:-.} ]] || continue
  d=${problem%%/*}
  total[$d]=$(( ${total[$d]:-0} + 1 ))
  solved[$d]=${solved[$d]:-0}
  rm -f "$tmp/plan" "$tmp/cpu"
  json=$( (ulimit -t "$limit"; ulimit -v 4194304; /usr/bin/time -f '%U %S' -o "$tmp/cpu" \
    "$plan" --json -q -o "$tmp/plan" --time-limit $((limit * 6)) --memory-limit 3072 "$@" \
    "$shared/$domain" "$shared/$problem" < /dev/null) 2>/dev/null) || true
  secs=$(tail -n 1 "$tmp/cpu" 2>/dev/null | awk '{printf "%.2f", $1 + $2}')
  row=$(printf '%s' "$json" | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
    print(d["status"].replace(" ", "-"), d["cost"] if d["cost"] is not None else "-", d["expanded"])
except Exception:
    print("killed - -")')
  read -r status cost expanded <<<"$row"
  valid=-
  if [ "$status" = solved ]; then
    # The plan file's cost comment counts steps; the validator checks it
    # against the metric, so leave it out.
    grep -v "^;" "$tmp/plan" > "$tmp/steps"
    if "$plan" validate "$shared/$domain" "$shared/$problem" "$tmp/steps" < /dev/null >/dev/null 2>&1; then
      valid=yes; solved[$d]=$(( ${solved[$d]} + 1 ))
    else
      valid=NO
    fi
  fi
  printf '| %s | %s | %s | %s | %s | %s |\n' "$problem" "$status" "$secs" "$cost" "$expanded" "$valid"
done < "$shared/tasks.tsv"
echo
echo "| domain | solved (valid plans) |"
echo "|---|---:|"
for d in "${!total[@]}"; do echo "| $d | ${solved[$d]}/${total[$d]} |"; done | sort
