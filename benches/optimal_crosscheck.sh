#!/usr/bin/env bash
# Optimal costs checked against Fast Downward: on the first tasks of every
# non-numeric shared domain, `plan --optimal` (A* with LM-cut) and Fast
# Downward's A* with LM-cut (with h_max where its LM-cut rejects the task:
# conditional effects, axioms) each get the time limit; where both prove an
# optimum, the costs must agree. Prints one line per task, then a summary;
# exits 1 on any disagreement.
#
#   benches/optimal_crosscheck.sh [TIME_LIMIT_SECONDS=30] [TASKS_PER_DOMAIN=4]
#
# Environment: COMPARE_CACHE and FD_VENV as for benches/compare.sh (Fast
# Downward is installed there, never a dependency of the project).
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-30}
per_domain=${2:-4}
shared=$(pwd)/../shared/benchmarks
[ -f "$shared/tasks.tsv" ] || { echo "../shared/benchmarks is absent" >&2; exit 1; }
cache=${COMPARE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/plan-compare}
mkdir -p "$cache"
. benches/compare/fast_downward.sh
cargo build --release --quiet --bin plan
plan=$(realpath "${CARGO_TARGET_DIR:-target}/release/plan")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Fast Downward's cost of the optimal plan it found, or why there is none.
fd_cost() {
  local search=$1 domain=$2 problem=$3 out
  out=$(cd "$scratch" && timeout $((limit + 10)) "$fd_python" "$fd_driver" \
    --overall-time-limit "${limit}s" "$domain" "$problem" --search "$search" 2>&1) || true
  if grep -q "Plan cost:" <<<"$out"; then
    grep -oP "Plan cost: \K[0-9.]+" <<<"$out" | tail -1
  elif grep -qi "does not support\|not supported" <<<"$out"; then
    echo unsupported
  else
    echo none
  fi
}

agree=0 disagree=0 only_ours=0 only_fd=0 neither=0
while IFS=$'\t' read -r _ domain problem; do
  d=$shared/$domain p=$shared/$problem
  # (`plan` exits with a status other than 0 where it stops at the limit.)
  ours=$({ timeout $((limit + 10)) "$plan" -q --json --optimal --time-limit "$limit" "$d" "$p" 2>/dev/null || true; } |
    python3 -c 'import json, sys; r = json.load(sys.stdin); print(r["cost"] if r.get("optimal") else "none")' 2>/dev/null || true)
  ours=${ours:-none}
  fd=$(fd_cost "astar(lmcut())" "$d" "$p") search=lmcut
  if [ "$fd" = unsupported ]; then
    fd=$(fd_cost "astar(hmax())" "$d" "$p") search=hmax
  fi
  verdict=
  if [ "$ours" != none ] && [ "$fd" != none ] && [ "$fd" != unsupported ]; then
    if python3 -c "import sys; sys.exit(float('$ours') != float('$fd'))"; then
      verdict=agree; agree=$((agree + 1))
    else
      verdict=DISAGREE; disagree=$((disagree + 1))
    fi
  elif [ "$ours" != none ]; then verdict="ours only"; only_ours=$((only_ours + 1))
  elif [ "$fd" != none ] && [ "$fd" != unsupported ]; then verdict="fast downward only"; only_fd=$((only_fd + 1))
  else verdict=neither; neither=$((neither + 1))
  fi
  echo "$problem: ours $ours, fast downward ($search) $fd: $verdict"
done < <(awk -F'\t' -v n="$per_domain" \
  'NR > 1 && $1 != "numeric" { split($3, a, "/"); if (++seen[a[1]] <= n) print }' "$shared/tasks.tsv")
echo "agree $agree, disagree $disagree, optimal by ours only $only_ours, by fast downward only $only_fd, by neither $neither (${limit} s each)"
[ "$disagree" -eq 0 ]
