#!/usr/bin/env python3
"""Merges runs of benches/puzznic_table.sh (the default, --optimal with
ONLY_OPTIMAL=1 and, optionally, the default with PLAN_ARGS=--real-time)
into the README's per-level Markdown table.

    benches/puzznic_readme_table.py DEFAULT.tsv OPTIMAL.tsv [REAL_TIME.tsv] > table.md
"""
import sys


def read(path):
    """Rows by level: (reference, moves, seconds, expanded, status, at
    least), the last `-` where the run proved no bound (or in files written
    before the column was added)."""
    rows = {}
    with open(path) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if line.startswith(("#", "level")) or len(fields) not in (6, 7):
                continue
            rows[fields[0]] = (fields[1:] + ["-"])[:6]
    return rows


def outcome(row):
    """Moves, or why there are none (with the moves proven necessary)."""
    moves, status, at_least = row[1], row[4], row[5]
    if moves != "-":
        return moves
    why = {"4": "unsolvable", "5": "time limit", "6": "memory limit"}.get(status, "error")
    return why if at_least == "-" else f"{why}, ≥ {at_least}"


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    default, optimal = read(sys.argv[1]), read(sys.argv[2])
    real_time = read(sys.argv[3]) if len(sys.argv) == 4 else None
    header = ("| level | MOVES | default moves | default time (s) | default expanded "
              "| --optimal moves | --optimal time (s) |")
    rule = "|---|---|---:|---:|---:|---:|---:|"
    if real_time is not None:
        header += " --real-time moves | --real-time time (s) |"
        rule += "---:|---:|"
    print(header)
    print(rule)
    for level in sorted(default):
        row = default[level]
        cells = [row[0], outcome(row), row[2], row[3]]
        opt = optimal.get(level)
        cells += [outcome(opt), opt[2]] if opt else ["not run", ""]
        if real_time is not None:
            fast = real_time.get(level)
            cells += [outcome(fast), fast[2]] if fast else ["not run", ""]
        print(f"| {level} | " + " | ".join(cells) + " |")


main()
