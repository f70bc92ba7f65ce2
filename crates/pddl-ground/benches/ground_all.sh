#!/usr/bin/env bash
# Grounds every task of the shared benchmark set with the release `plan`
# binary and prints one line per task (facts, operators, wall time of the
# whole process), then the median and maximum time.
#
# Usage: crates/pddl-ground/benches/ground_all.sh [PLAN_BINARY] [BENCHMARK_DIR]
# Build first: cargo build --release --bin plan
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
plan="${1:-${CARGO_TARGET_DIR:-$root/target}/release/plan}"
bench="${2:-$root/../shared/benchmarks}"
if [ ! -x "$plan" ]; then
    echo "no plan binary at $plan (cargo build --release --bin plan)" >&2
    exit 2
fi
if [ ! -f "$bench/tasks.tsv" ]; then
    echo "no benchmarks at $bench" >&2
    exit 2
fi
times=$(mktemp)
failures=0
printf '%-60s %9s %9s %10s %s\n' task facts operators ms status
while IFS=$'\t' read -r kind domain problem; do
    [ "$kind" = kind ] && continue
    start=$(date +%s%N)
    out=$("$plan" ground --stats "$bench/$domain" "$bench/$problem" 2>&1)
    status=$?
    end=$(date +%s%N)
    ms=$(( (end - start) / 1000000 ))
    facts=$(printf '%s\n' "$out" | sed -n 's/^facts: //p')
    ops=$(printf '%s\n' "$out" | sed -n 's/^operators: //p')
    [ "$status" -ne 0 ] && failures=$((failures + 1))
    printf '%-60s %9s %9s %10s %s\n' "$problem" "${facts:--}" "${ops:--}" "$ms" "$status"
    echo "$ms $problem" >> "$times"
done < "$bench/tasks.tsv"
n=$(wc -l < "$times")
median=$(sort -n "$times" | awk -v n="$n" 'NR == int((n + 1) / 2) { print $1 }')
read -r max slowest < <(sort -n "$times" | tail -1)
echo "tasks: $n  failures: $failures  median: ${median} ms  max: ${max} ms ($slowest)"
rm -f "$times"
