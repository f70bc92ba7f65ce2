#!/usr/bin/env python3
"""Plans of two `plan` builds on a sample of the shared benchmarks.

Runs BUILD_A and BUILD_B (the default configuration, `--threads 1 -q
--json`, the same time limit) on every STEP-th task of
../shared/benchmarks/tasks.tsv from OFFSET on, two tasks at a time (both
builds on one task one after the other, so that a drift of the machine hits
both), and prints the tasks whose status or plan cost differ, the tasks
taking a quarter more time or more with either build (above 0.05 s), and a
summary: tasks solved, plans cheaper and costlier with B, and the total wall
time of the tasks both solved. Wall times of runs side by side on two cores
are noisy; count on differences of a quarter or more only.

    benches/ab_plans.py BUILD_A BUILD_B [--limit 10] [--step 2] [--offset 0]

e.g. `git stash; cargo build --release; cp target/release/plan /tmp/a;
git stash pop; cargo build --release; benches/ab_plans.py /tmp/a
target/release/plan`.
"""
import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared",
                      "benchmarks")


def run(binary, limit, domain, problem):
    """(status, cost, expanded, wall seconds) of one run."""
    started = time.time()
    try:
        out = subprocess.run(
            [binary, "-q", "--json", "--threads", "1", "--time-limit", str(limit),
             os.path.join(SHARED, domain), os.path.join(SHARED, problem)],
            capture_output=True, text=True, timeout=limit + 30).stdout
        report = json.loads(out) if out.lstrip().startswith("{") else {}
    except (subprocess.TimeoutExpired, json.JSONDecodeError):
        report = {}
    return (report.get("status", "failed"), report.get("cost"), report.get("expanded"),
            time.time() - started)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_a")
    parser.add_argument("build_b")
    parser.add_argument("--limit", type=float, default=10)
    parser.add_argument("--step", type=int, default=2)
    parser.add_argument("--offset", type=int, default=0)
    args = parser.parse_args()
    listing = os.path.join(SHARED, "tasks.tsv")
    if not os.path.exists(listing):
        sys.exit("../shared/benchmarks is absent")
    with open(listing) as f:
        tasks = [line.rstrip("\n").split("\t") for line in f][1:]
    tasks = tasks[args.offset::args.step]

    def both(task):
        _, domain, problem = task
        return problem, [run(b, args.limit, domain, problem)
                         for b in (args.build_a, args.build_b)]

    solved = [0, 0]
    cheaper = costlier = 0
    total = [0.0, 0.0]
    with ThreadPoolExecutor(2) as pool:
        for problem, (a, b) in pool.map(both, tasks):
            ok_a, ok_b = a[0] == "solved", b[0] == "solved"
            solved[0] += ok_a
            solved[1] += ok_b
            if ok_a != ok_b:
                print(f"{problem}: {a[0]} -> {b[0]}")
            if not (ok_a and ok_b):
                continue
            total[0] += a[3]
            total[1] += b[3]
            if a[1] != b[1]:
                cheaper += b[1] < a[1]
                costlier += b[1] > a[1]
            slow = max(a[3], b[3]) > 0.05 and max(a[3], b[3]) > 1.25 * min(a[3], b[3])
            if a[1] != b[1] or slow:
                print(f"{problem}: cost {a[1]} -> {b[1]}, expanded {a[2]} -> {b[2]}, "
                      f"{a[3]:.2f} -> {b[3]:.2f} s")
    print(f"{len(tasks)} tasks: solved {solved[0]} -> {solved[1]}; with B {cheaper} plans "
          f"cheaper, {costlier} costlier; {total[0]:.1f} -> {total[1]:.1f} s where both solved")


if __name__ == "__main__":
    main()
