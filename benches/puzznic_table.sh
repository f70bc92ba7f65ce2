#!/bin/sh
# Regenerates the Puzznic table: for each Game Boy level, the player moves
# found, the time and the expanded states, next to the MOVES reference.
#
#   benches/puzznic_table.sh [--optimal] [TIME_LIMIT_SECONDS [LEVEL...]] > table.tsv
#
# LEVEL is a level number such as 017 (default: all 128 levels). The last
# column is the lower bound a stopped --optimal run proved (`-` if none). With
# --optimal, `ONLY_OPTIMAL=1` keeps the levels whose MOVES entry is
# `optimal N`. The last lines (starting with `#`) summarise the run.
#
# PLAN_ARGS adds options to every `plan puzznic solve`, e.g.
# PLAN_ARGS="--search wastar --weight 2".
#
# benches/puzznic_readme_table.py merges a default and an --optimal run into
# the README's table.
#
# Needs the release build (`cargo build --release`; set PLAN=path to use
# another binary) and ../shared/puzznic.
set -eu
cd "$(dirname "$0")/.."
OPTIMAL=""
if [ "${1:-}" = "--optimal" ]; then OPTIMAL="--optimal"; shift; fi
LIMIT="${1:-60}"
[ $# -gt 0 ] && shift
PLAN="${PLAN:-${CARGO_TARGET_DIR:-target}/release/plan}"
LEVELS=../shared/puzznic/gameboy
[ -x "$PLAN" ] || { echo "build first: cargo build --release" >&2; exit 2; }
printf 'level\treference\tmoves\tseconds\texpanded\tstatus\tat_least\n'
if [ $# -gt 0 ]; then
    files=$(for n in "$@"; do echo "$LEVELS/$n.txt"; done)
else
    files=$(ls "$LEVELS"/[0-9]*.txt)
fi
solved=0; matched=0; total=0; disagree=""
for level in $files; do
    name=$(basename "$level" .txt)
    reference=$(awk -v n="$name" '$1 == n { print $2 " " $3 }' "$LEVELS/MOVES")
    if [ "${ONLY_OPTIMAL:-0}" = 1 ] && [ "${reference%% *}" != optimal ]; then continue; fi
    start=$(date +%s.%N)
    status=0
    out=$("$PLAN" puzznic solve $OPTIMAL ${PLAN_ARGS:-} --time-limit "$LIMIT" "$level" 2>&1) || status=$?
    end=$(date +%s.%N)
    summary=$(printf '%s\n' "$out" | grep -E '^; (solved|unsolvable|time limit|memory limit|interrupted)' | head -n 1)
    moves=$(printf '%s\n' "$summary" | sed -n 's/^; solved: \([0-9]*\) player move.*/\1/p')
    expanded=$(printf '%s\n' "$summary" | sed -n 's/.* \([0-9]*\) expanded states.*/\1/p')
    # A stopped --optimal run states the moves it proved necessary.
    bound=$(printf '%s\n' "$summary" | sed -n 's/.*: at least \([0-9]*\) moves$/\1/p')
    seconds=$(echo "$end - $start" | bc)
    printf '%s\t%s\t%s\t%.2f\t%s\t%s\t%s\n' "$name" "$reference" "${moves:--}" "$seconds" "${expanded:--}" "$status" "${bound:--}"
    total=$((total + 1))
    if [ -n "$moves" ]; then
        solved=$((solved + 1))
        [ "$reference" = "optimal $moves" ] && matched=$((matched + 1))
    fi
    # MOVES's figures are proven: no plan has fewer moves than either kind
    # says, and no bound we prove passes an optimum.
    known=${reference#* }
    if [ -n "$moves" ] && [ "$moves" -lt "$known" ]; then disagree="$disagree $name"; fi
    case "$reference" in
        optimal*) if [ -n "$bound" ] && [ "$bound" -gt "$known" ]; then disagree="$disagree $name"; fi ;;
    esac
done
printf '# %s of %s levels solved within %s s%s\n' "$solved" "$total" "$LIMIT" "${OPTIMAL:+ (--optimal)}"
printf '# %s solved with exactly the MOVES optimum\n' "$matched"
printf '# disagreeing with MOVES:%s\n' "${disagree:- none}"
