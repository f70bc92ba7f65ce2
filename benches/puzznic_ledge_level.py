#!/usr/bin/env python3
"""Prints a SIDE x SIDE Puzznic level for grounding measurements: one row
of tiles (KINDS kinds, no two alike side by side) on a ledge of wall
across row 5, above open space, so that every tile can reach most cells.

    python3 benches/puzznic_ledge_level.py 40 > ledge40.txt
    plan ground domains/puzznic/domain.pddl <(plan puzznic problem ledge40.txt)
"""
import random
import sys


def level(side, kinds, seed):
    rng = random.Random(seed)
    grid = [["#"] * (side + 2)] + [["#"] + ["."] * side + ["#"] for _ in range(side)]
    grid.append(["#"] * (side + 2))
    for col in range(2, side - 1):
        grid[5][col] = "#"
        choices = [k for k in kinds if k != grid[4][col - 1]]
        grid[4][col] = rng.choice(choices)
    return "\n".join("".join(row) for row in grid) + "\n"


if __name__ == "__main__":
    side = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    kinds = sys.argv[2] if len(sys.argv) > 2 else "abcdefgh"
    sys.stdout.write(level(side, kinds, seed=3))
