#!/usr/bin/env bash
# Grounds every task of the shared benchmark set with the release `plan`
# binary and prints one line per task: facts, operators, wall time and CPU
# time (user + system) of the whole process, exit status; then the median
# and maximum of both times. CPU time is the steadier figure on a busy
# machine.
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
wall_times=$(mktemp)
cpu_times=$(mktemp)
out=$(mktemp)
trap 'rm -f "$wall_times" "$cpu_times" "$out"' EXIT
failures=0
TIMEFORMAT='%R %U %S'
printf '%-55s %8s %9s %8s %8s %s\n' task facts operators wall_ms cpu_ms status
while IFS=$'\t' read -r kind domain problem; do
    [ "$kind" = kind ] && continue
    times=$( { time "$plan" ground --stats "$bench/$domain" "$bench/$problem" > "$out" 2>&1; echo "status $?" >> "$out"; } 2>&1 )
    status=$(sed -n 's/^status //p' "$out")
    read -r real user sys <<< "$times"
    wall=$(awk -v r="$real" 'BEGIN { printf "%d", r * 1000 }')
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 }')
    facts=$(sed -n 's/^facts: //p' "$out")
    ops=$(sed -n 's/^operators: //p' "$out")
    [ "$status" != 0 ] && failures=$((failures + 1))
    printf '%-55s %8s %9s %8s %8s %s\n' "$problem" "${facts:--}" "${ops:--}" "$wall" "$cpu" "$status"
    echo "$wall $problem" >> "$wall_times"
    echo "$cpu $problem" >> "$cpu_times"
done < "$bench/tasks.tsv"
summary() {
    local n median max slowest
    n=$(wc -l < "$1")
    median=$(sort -n "$1" | awk -v n="$n" 'NR == int((n + 1) / 2) { print $1 }')
    read -r max slowest < <(sort -n "$1" | tail -1)
    echo "$2: median ${median} ms, max ${max} ms ($slowest)"
}
echo "tasks: $(wc -l < "$wall_times"), failures: $failures"
summary "$wall_times" "wall"
summary "$cpu_times" "cpu"
