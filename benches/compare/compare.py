#!/usr/bin/env python3
"""Runs our `plan`, Fast Downward's lama-first and ferroplan on shared benchmark
tasks, validates every plan with `plan validate`, and prints a Markdown table.

Called by `benches/compare.sh`, which builds the three planners; run that.
Each planner runs as a whole process in its own process group, one task and
one planner at a time; times are wall clock (with the CPU time of the process
and its children in parentheses). With --runs N each planner runs N times per
task and the fastest wall time is kept; the plan and cost come from the first
run. Standard library only.
"""

import argparse
import csv
import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

# Fast Downward driver exit codes (driver/returncodes.py) worth a name.
FD_EXIT_CODES = {
    10: "unsolvable",
    11: "unsolvable",
    12: "unsolved-incomplete",
    20: "out-of-memory",
    22: "out-of-memory",
    21: "time-limit",
    23: "time-limit",
    30: "translate-error",
    31: "input-error",
    32: "search-error",
    33: "input-error",
    34: "unsupported",
    35: "driver-error",
    36: "input-error",
    37: "unsupported",
}
# Our exit codes (README "Exit statuses").
PLAN_EXIT_CODES = {
    2: "input-error",
    3: "unsupported",
    4: "unsolvable",
    5: "time-limit",
    6: "out-of-memory",
}


@dataclass
class Outcome:
    """One planner on one task: status, timing, validated cost."""

    status: str  # "solved" when a plan was produced and validated
    wall: float
    cpu: float
    cost: Optional[float] = None
    expanded: Optional[int] = None
    # The plan is valid but its `; cost = ` comment disagrees with the validator.
    claimed_cost_wrong: bool = False
    runs: int = 1  # how many runs the time is the fastest of

    @property
    def solved(self) -> bool:
        return self.status == "solved"


@dataclass
class Timing:
    """The runs of one planner on one task so far."""

    code: Optional[int]  # exit code of the kept (first) run; None on time-out
    wall: float  # fastest wall time
    cpu: float  # CPU time of that run
    runs: int
    total: float  # wall time of all runs


def run_timed(command, cwd, limit, memory_mib, stdout_path, stderr_path):
    """Runs `command`, killing its whole process group after `limit` seconds.

    Returns (exit code or None on time-out, wall seconds, CPU seconds)."""

    def limit_memory():
        if memory_mib > 0:
            size = memory_mib * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (size, size))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        start = time.perf_counter()
        process = subprocess.Popen(
            command,
            cwd=cwd,
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=limit_memory,
        )
        # A blocking wait, with a timer to kill the group at the limit:
        # `Popen.wait(timeout=...)` polls with doubling sleeps (1, 3, 7 ms
        # ...), which rounds millisecond runs up to the next poll.
        timed_out = threading.Event()

        def kill_group():
            timed_out.set()
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(limit, kill_group)
        timer.start()
        code = process.wait()
        wall = time.perf_counter() - start
        timer.cancel()
        if timed_out.is_set():
            code = None
        # Kill the group either way: Fast Downward's driver may leave a search
        # process behind, and a killed driver must not keep one running.
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return code, wall, cpu


def validate(plan_binary, domain, problem, plan_file):
    """Validated cost of `plan_file` by our validator, or None if invalid/absent.

    Comment lines are dropped first: a planner's `; cost = ` claim is checked
    separately (claimed_cost_wrong), so that a wrong comment does not hide a
    valid plan."""
    if not plan_file.exists() or plan_file.stat().st_size == 0:
        return None
    actions_only = plan_file.with_suffix(".actions")
    lines = plan_file.read_text(errors="replace").splitlines()
    actions_only.write_text("".join(
        line + "\n" for line in lines if not line.lstrip().startswith(";")))
    return validated_cost(plan_binary, domain, problem, actions_only)


def validated_cost(plan_binary, domain, problem, plan_file):
    """Runs `plan validate --json`: the plan's cost if valid, else None."""
    result = subprocess.run(
        [plan_binary, "validate", "--json", domain, problem, plan_file],
        capture_output=True,
        text=True,
        timeout=600,
    )
    try:
        report = json.loads(result.stdout)
        entry = report["plans"][0]
        return float(entry["cost"]) if entry["valid"] else None
    except (ValueError, KeyError, IndexError, TypeError):
        return None


class Planners:
    """Commands and result interpretation for the three planners."""

    def __init__(self, args):
        self.plan = args.plan
        self.fd_python = args.fd_python
        self.fd_driver = args.fd_driver
        self.ferroplan = args.ferroplan
        self.limit = args.time_limit
        self.memory = args.memory_limit
        self.runs = args.runs
        self.min_total = args.min_total

    def command(self, name, domain, problem, plan_file):
        if name == "ours":
            return [self.plan, "-q", "--json", "-o", plan_file,
                    "--time-limit", str(self.limit), domain, problem]
        if name == "lama-first":
            return [self.fd_python, self.fd_driver, "--alias", "lama-first",
                    "--plan-file", plan_file, domain, problem]
        if name == "ferroplan":
            return [self.ferroplan, domain, problem]
        raise ValueError(name)

    def hard_limit(self, name):
        # A little slack over our own --time-limit so that it reports itself.
        return self.limit + (2 if name == "ours" else 0)

    @staticmethod
    def kept_files(name, directory):
        """Where the kept run's plan, stdout and stderr go."""
        return (directory / f"{name}.plan", directory / f"{name}.out",
                directory / f"{name}.err")

    def run_first(self, name, domain, problem, directory):
        """The run whose outputs are kept: returns its Timing."""
        directory.mkdir(parents=True, exist_ok=True)
        plan_file, stdout, stderr = self.kept_files(name, directory)
        for stale in (plan_file, stdout, stderr):
            stale.unlink(missing_ok=True)
        command = self.command(name, domain, problem, plan_file)
        code, wall, cpu = run_timed(command, directory, self.hard_limit(name), self.memory,
                                    stdout, stderr)
        return Timing(code, wall, cpu, runs=1, total=wall)

    def wants_repeat(self, timing):
        """Extra runs: at least `runs` in all, and more (up to MAX_RUNS)
        while their total stays under `min_total` seconds, so that
        millisecond tasks get enough runs to see past scheduling noise."""
        return timing.code == 0 and timing.runs < MAX_RUNS and (
            timing.runs < self.runs or timing.total < self.min_total)

    def repeat(self, name, domain, problem, directory, timing):
        """One more run, its outputs thrown away; keeps the fastest time."""
        scratch = directory / "repeat"
        scratch.mkdir(parents=True, exist_ok=True)
        command = self.command(name, domain, problem, scratch / f"{name}.plan")
        _, wall, cpu = run_timed(command, scratch, self.hard_limit(name), self.memory,
                                 scratch / "out", scratch / "err")
        timing.runs += 1
        timing.total += wall
        if wall < timing.wall:
            timing.wall, timing.cpu = wall, cpu

    def judge(self, name, domain, problem, directory, timing):
        """The Outcome of the kept run, timed by the fastest run."""
        plan_file, stdout, _ = self.kept_files(name, directory)
        if name == "ferroplan" and timing.code == 0:
            plan_file.write_bytes(stdout.read_bytes())
        outcome = Outcome(self.status(name, timing.code), timing.wall, timing.cpu,
                          runs=timing.runs)
        if name == "ours":
            try:
                outcome.expanded = json.loads(stdout.read_text())["expanded"]
            except (ValueError, KeyError, TypeError):
                pass
        if outcome.solved:
            outcome.cost = validate(self.plan, domain, problem, plan_file)
            if outcome.cost is None:
                outcome.status = "invalid-plan"
            elif validated_cost(self.plan, domain, problem, plan_file) is None:
                outcome.claimed_cost_wrong = True
        return outcome

    def run_all(self, domain, problem, directory, label):
        """Every planner on one task. The repeats take turns, one run of
        each planner that wants more per round, so that the machine's
        speed drifting over seconds (as this VM's does) affects all
        planners alike instead of whichever ran during a slow spell."""
        timings = {}
        for name in PLANNERS:
            print(f"{label}: {name} ...", file=sys.stderr, end=" ", flush=True)
            timings[name] = self.run_first(name, domain, problem, directory)
            print(f"exit {timings[name].code} {timings[name].wall:.3f}s",
                  file=sys.stderr, flush=True)
        while True:
            wanting = [name for name in PLANNERS if self.wants_repeat(timings[name])]
            if not wanting:
                break
            for name in wanting:
                self.repeat(name, domain, problem, directory, timings[name])
        return {name: self.judge(name, domain, problem, directory, timings[name])
                for name in PLANNERS}

    def status(self, name, code):
        if code is None:
            return "time-limit"
        if code == 0:
            return "solved"
        if code < 0 or code == 137:
            return f"killed({-code if code < 0 else 9})"
        if name == "ours":
            return PLAN_EXIT_CODES.get(code, f"exit-{code}")
        if name == "lama-first":
            return FD_EXIT_CODES.get(code, f"exit-{code}")
        return "no-plan" if code == 1 else f"error-{code}"


PLANNERS = ("ours", "lama-first", "ferroplan")
# Cap on runs per planner and task (see --min-total).
MAX_RUNS = 50


def number(value):
    return f"{value:g}" if value is not None else "-"


def cell(outcome):
    if not outcome.solved:
        return f"{outcome.status} | -"
    mark = " †" if outcome.claimed_cost_wrong else ""
    return f"{outcome.wall:.3f} ({outcome.cpu:.3f}) | {number(outcome.cost)}{mark}"


def verdict(ours, references):
    solved_refs = [r for r in references if r.solved]
    if not solved_refs:
        return "solved, no reference did" if ours.solved else "nobody solved"
    if not ours.solved:
        return "**LOSS: unsolved**"
    fastest = min(r.wall for r in solved_refs)
    least_cpu = min(r.cpu for r in solved_refs)
    cheapest = min(r.cost for r in solved_refs)
    parts = []
    if ours.wall <= fastest:
        parts.append("faster")
    else:
        cpu_note = " (less CPU)" if ours.cpu <= least_cpu else ""
        parts.append(f"**slower ×{ours.wall / fastest:.2f}**{cpu_note}")
    if ours.cost <= cheapest + 1e-9:
        parts.append("no longer")
    else:
        parts.append(f"**longer +{number(ours.cost - cheapest)}**")
    return ", ".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, required=True)
    parser.add_argument("--plan", required=True)
    parser.add_argument("--fd-python", required=True)
    parser.add_argument("--fd-driver", required=True)
    parser.add_argument("--ferroplan", required=True)
    parser.add_argument("--work-dir", type=Path, required=True)
    parser.add_argument("--time-limit", type=float, default=60)
    parser.add_argument("--memory-limit", type=int, default=4096, help="MiB, 0 = none")
    parser.add_argument("--tasks-per-domain", type=int, default=5)
    parser.add_argument("--runs", type=int, default=1, help="runs per planner and task")
    parser.add_argument("--min-total", type=float, default=0.0,
                        help="repeat (up to 50 runs) until the runs add up to this many seconds")
    parser.add_argument("--extra", action="append", default=[],
                        help="DOMAIN_DIR/PROBLEM_FILE to run besides the first tasks")
    parser.add_argument("--revision", default="", help="source revision, for the footer")
    parser.add_argument("domains", nargs="+")
    args = parser.parse_args()

    with open(args.shared / "tasks.tsv", newline="") as listing:
        rows = [row for row in csv.DictReader(listing, delimiter="\t")]
    tasks = []
    for domain_name in args.domains:
        matching = [r for r in rows if r["domain"].split("/")[0] == domain_name]
        if not matching:
            sys.exit(f"no domain {domain_name!r} in {args.shared / 'tasks.tsv'}")
        tasks.extend(matching[: args.tasks_per_domain])
    for extra in args.extra:
        matching = [r for r in rows if r["problem"] == extra]
        if not matching:
            sys.exit(f"no task with problem {extra!r} in tasks.tsv")
        if matching[0] not in tasks:
            tasks.append(matching[0])

    planners = Planners(args)
    results_path = args.work_dir / "results.tsv"
    args.work_dir.mkdir(parents=True, exist_ok=True)
    table = [
        "| task | ours time (s) | ours cost | ours expanded | lama-first time (s) "
        "| lama-first cost | ferroplan time (s) | ferroplan cost | verdict |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    tally = {"faster": 0, "no longer": 0, "compared": 0, "unsolved by us": 0}
    # domain -> planner -> number of tasks solved with a valid plan; "missed"
    # counts tasks a reference solved and we did not.
    coverage = {}
    with open(results_path, "w") as results:
        results.write("task\tplanner\tstatus\twall_s\tcpu_s\tcost\texpanded\truns\n")
        for row in tasks:
            domain = args.shared / row["domain"]
            problem = args.shared / row["problem"]
            directory = args.work_dir / Path(row["problem"]).with_suffix("")
            outcomes = planners.run_all(domain, problem, directory, row["problem"])
            for name, outcome in outcomes.items():
                print(f"{row['problem']}: {name} {outcome.status} {outcome.wall:.3f}s "
                      f"cost {number(outcome.cost)} ({outcome.runs} runs)",
                      file=sys.stderr, flush=True)
                results.write(f"{row['problem']}\t{name}\t{outcome.status}\t{outcome.wall:.4f}\t"
                              f"{outcome.cpu:.4f}\t{number(outcome.cost)}\t"
                              f"{outcome.expanded if outcome.expanded is not None else '-'}\t"
                              f"{outcome.runs}\n")
                results.flush()
            ours = outcomes["ours"]
            references = [outcomes["lama-first"], outcomes["ferroplan"]]
            counts = coverage.setdefault(row["domain"].split("/")[0],
                                         dict.fromkeys(("tasks", "missed", *PLANNERS), 0))
            counts["tasks"] += 1
            counts["missed"] += (not ours.solved) and any(r.solved for r in references)
            for name, outcome in outcomes.items():
                counts[name] += outcome.solved
            text = verdict(ours, references)
            if any(r.solved for r in references):
                tally["compared"] += 1
                tally["faster"] += text.startswith("faster")
                tally["no longer"] += "no longer" in text
                tally["unsolved by us"] += not ours.solved
            expanded = ours.expanded if ours.solved and ours.expanded is not None else "-"
            table.append(f"| {row['problem']} | {cell(ours)} | {expanded} | "
                         f"{cell(outcomes['lama-first'])} | {cell(outcomes['ferroplan'])} | {text} |")
    print("\n".join(table))
    print()
    print(f"Tasks some reference solved: {tally['compared']}; ours faster than (or as fast as) "
          f"the faster reference on {tally['faster']}, plan no longer than the shorter "
          f"reference plan on {tally['no longer']}, unsolved by us on {tally['unsolved by us']}.")
    print(f"Times: wall clock seconds, whole process (CPU seconds of the process tree in "
          f"parentheses), fastest of {args.runs} run(s), or of as many as fit in "
          f"{args.min_total:g} s (at most {MAX_RUNS}) if more, the planners' repeats taking "
          f"turns; time limit {args.time_limit:g} s, "
          f"memory limit {args.memory_limit} MiB. Costs: validated by `plan validate` "
          f"(comment lines dropped; † = the planner's `; cost =` comment is wrong). "
          f"Raw results: {results_path}." + (f" Source: {args.revision}." if args.revision else ""))
    print()
    print("| domain | tasks | ours solved | lama-first solved | ferroplan solved "
          "| solved by a reference, not by us |")
    print("|---|---:|---:|---:|---:|---:|")
    for domain_name, counts in coverage.items():
        print(f"| {domain_name} | {counts['tasks']} | {counts['ours']} | {counts['lama-first']} "
              f"| {counts['ferroplan']} | {counts['missed']} |")
    totals = {key: sum(c[key] for c in coverage.values())
              for key in ("tasks", "missed", *PLANNERS)}
    print(f"| **total** | {totals['tasks']} | {totals['ours']} | {totals['lama-first']} "
          f"| {totals['ferroplan']} | {totals['missed']} |")


if __name__ == "__main__":
    main()
