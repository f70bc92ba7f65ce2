#!/usr/bin/env bash
# Whole-process time of two `plan` builds on the tasks of the reference
# comparison (benches/compare/tasks.sh, taken as benches/compare.sh takes
# them; COMPARE_TASKS and COMPARE_EXTRA apply), the builds alternated
# (A B A B) so that a drift of the machine hits both; per task the best of
# the two runs of each build,
# each run the mean of `perf stat -r RUNS`. Also says where the two plans
# differ. Prints one line per task and the totals.
#
#   benches/ab_time.sh BUILD_A BUILD_B [RUNS=5]
#
# e.g. `git stash; cargo build --release; cp target/release/plan /tmp/a;
# git stash pop; cargo build --release; benches/ab_time.sh /tmp/a
# target/release/plan`. Needs `perf` and ../shared.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,14p' "$0" >&2; exit 2; }
command -v perf >/dev/null || { echo "perf is not installed" >&2; exit 1; }
a=$(realpath "$1") b=$(realpath "$2") runs=${3:-5}
shared=../shared/benchmarks
[ -f "$shared/tasks.tsv" ] || { echo "../shared/benchmarks is absent" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. benches/compare/tasks.sh
{
  for d in "${compare_domains[@]}"; do
    grep -P "\t$d/" "$shared/tasks.tsv" | head -"${COMPARE_TASKS:-5}"
  done
  for extra in $compare_extra; do grep -P "\t\Q$extra\E$" "$shared/tasks.tsv"; done
} | sort -u -k3,3 > "$out/tasks"
time_of() { # build plan-file domain problem -> seconds
  perf stat -r "$runs" "$1" -q -o "$2" "$3" "$4" 2>&1 >/dev/null |
    awk '/seconds time elapsed/ {print $1}'
}
printf '%-45s %10s %10s %6s\n' task "A (ms)" "B (ms)" B/A
while IFS=$'\t' read -r _ domain problem; do
  d=$shared/$domain p=$shared/$problem
  a1=$(time_of "$a" "$out/a.plan" "$d" "$p"); b1=$(time_of "$b" "$out/b.plan" "$d" "$p")
  a2=$(time_of "$a" "$out/a.plan" "$d" "$p"); b2=$(time_of "$b" "$out/b.plan" "$d" "$p")
  same=$(cmp -s "$out/a.plan" "$out/b.plan" && echo "" || echo "  plans differ")
  echo "$problem $a1 $a2 $b1 $b2 $same"
done < "$out/tasks" | awk '
  function min(x, y) { return x < y ? x : y }
  { ta = min($2, $3); tb = min($4, $5); sa += ta; sb += tb
    printf "%-45s %10.2f %10.2f %6.2f%s%s\n", $1, ta * 1000, tb * 1000, tb / ta, ($6 ? "  " : ""), ($6 ? $6 " " $7 : "") }
  END { printf "%-45s %10.1f %10.1f %6.2f\n", "total (" NR " tasks)", sa * 1000, sb * 1000, sb / sa }'
