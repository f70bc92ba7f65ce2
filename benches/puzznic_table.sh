#!/bin/sh
# Regenerates the Puzznic table: for each Game Boy level, the player moves
# found, the time and the expanded states, next to the MOVES reference.
#
#   benches/puzznic_table.sh [--optimal] [TIME_LIMIT_SECONDS] > table.tsv
#
# Needs the release build (`cargo build --release`) and ../shared/puzznic.
set -eu
cd "$(dirname "$0")/.."
OPTIMAL=""
if [ "${1:-}" = "--optimal" ]; then OPTIMAL="--optimal"; shift; fi
LIMIT="${1:-60}"
PLAN="${CARGO_TARGET_DIR:-target}/release/plan"
LEVELS=../shared/puzznic/gameboy
[ -x "$PLAN" ] || { echo "build first: cargo build --release" >&2; exit 2; }
printf 'level\treference\tmoves\tseconds\texpanded\tstatus\n'
for level in "$LEVELS"/[0-9]*.txt; do
    name=$(basename "$level" .txt)
    reference=$(awk -v n="$name" '$1 == n { print $2 " " $3 }' "$LEVELS/MOVES")
    start=$(date +%s.%N)
    status=0
    out=$("$PLAN" puzznic solve $OPTIMAL --time-limit "$LIMIT" "$level" 2>&1) || status=$?
    end=$(date +%s.%N)
    summary=$(printf '%s\n' "$out" | grep -E '^; (solved|unsolvable|time limit|memory limit|interrupted)' | head -n 1)
    moves=$(printf '%s\n' "$summary" | sed -n 's/^; solved: \([0-9]*\) player moves.*/\1/p')
    expanded=$(printf '%s\n' "$summary" | sed -n 's/.* \([0-9]*\) expanded states.*/\1/p')
    seconds=$(echo "$end - $start" | bc)
    printf '%s\t%s\t%s\t%.2f\t%s\t%s\n' "$name" "$reference" "${moves:--}" "$seconds" "${expanded:--}" "$status"
done
