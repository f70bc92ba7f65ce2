#!/usr/bin/env python3
"""Mutation fuzzing of the `plan` binary: no input may make it panic, die of
a signal or hang.

Takes the shared benchmarks' domains and problems, the shipped ones, the
shipped and Game Boy Puzznic levels and plans that `plan` finds, mutates
them (bytes deleted, swapped, duplicated; PDDL keywords, odd numbers and
stray characters inserted) and runs `plan check`, `plan ground --stats`
or `--dump`, `plan` (default and `--optimal`, 1 s and 512 MiB each),
`plan puzznic problem|solve` (on levels in the text format and drawn in
Tiled, as JSON maps) and `plan validate` on the results; it also runs `plan`, `plan puzznic solve`
and `plan generate` on small shipped inputs with odd flag values (0, -1,
1e300, nan, 2^64...). An input that makes `plan` exit with 101
(a panic), by a signal, or run past 30 s is kept in OUT_DIR and listed on
stdout; the exit status is 1 when there was one.

    cargo build --release
    python3 benches/fuzz_cli.py [--seconds 600] [--seed 1] [--jobs 2] [--out-dir /tmp/plan-fuzz]
"""
import argparse
import glob
import json
import multiprocessing
import os
import random
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(REPO, "..", "shared")
PLAN = os.path.join(os.environ.get("CARGO_TARGET_DIR") or os.path.join(REPO, "target"),
                    "release", "plan")
HANG = 30

PDDL_TOKENS = ["(", ")", "?x", "-", "and", "or", "not", "forall", "exists", "when", "imply",
               "=", "increase", "decrease", "assign", "(:requirements :adl)", "object",
               "either", "1e309", "-1", "0", "NaN", "(total-cost)", ":parameters",
               ":precondition", ":effect", "(:types a - b b - a)", "(:constants x)", '"',
               "; c\n", "\u00e9", "9999999999999999999999"]
LEVEL_CHARS = "#. 1234567890abcXYZ\t\u00e9?"
JSON_TOKENS = ["{", "}", "[", "]", ",", ":", '"', "0", "-1", "4294967296", "1e999", "null",
               '"width"', '"height"', '"data"', '"layers"', '"tilelayer"', '"walls"', '"tiles"',
               '"puzznic"', '"value"', '"orientation"', '"isometric"', "true", '"\\u0000"']
PLAN_TOKENS = ["(", ")", "\n", "; cost = 3\n", "0.5:", "[1]", "(move)", "(pick-up a)", "x",
               "  ", "(unstack b a)", "1e400"]
# Flag values at and past the edges: a --time-limit of 1e300 panicked
# converting the seconds before stop 33.
ODD_VALUES = ["0", "-0", "-1", "1", "2", "0.5", "1e-300", "1e300", "nan", "inf", "-inf",
              "18446744073709551616", "4294967296", "abc", "", "1_000", "0x10",
              # Units (stop 38): --time-limit and --memory-limit take them.
              "5ms", "1s", "0.01m", "1h", "1e300h", "nan s", "512M", "1.5G", "1e300G", "-1G",
              "1KiB", "G", "1 T"]
SEARCH_FLAGS = ["--time-limit", "--memory-limit", "--weight", "--threads", "--search",
                "--heuristic", "--anytime", "--novelty", "--no-symmetry", "--optimal",
                "--dead-end-traps"]
SOLVE_FLAGS = SEARCH_FLAGS + ["--max-operators", "--max-facts", "--json", "--validate"]
PUZZNIC_FLAGS = SEARCH_FLAGS + ["--simulator", "--max-states", "--real-time", "--json"]
VALUE_FLAGS = {"--time-limit", "--memory-limit", "--weight", "--threads", "--search",
               "--heuristic", "--max-operators", "--max-facts", "--max-states"}
NAMES = ["bfs", "astar", "wastar", "lazy-greedy", "eager-greedy", "blind", "hff", "lmcut", "pdb",
         "lama", "lmcount", "hmax", "goalcount", "hadd", "x"]
GENERATORS = {"blocksworld": ["--blocks"], "hanoi": ["--discs"],
              "sliding-tiles": ["--size", "--scramble"], "queens": ["--n"], "tsp": ["--cities"],
              "briefcase": ["--locations", "--items"]}


def mutate_text(rng, text, tokens):
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        if not chars:
            break
        i, kind = rng.randrange(len(chars)), rng.random()
        if kind < 0.3:
            del chars[i:i + rng.randint(1, 20)]
        elif kind < 0.6:
            chars[i:i] = list(" " + rng.choice(tokens) + " ")
        elif kind < 0.8:
            j = rng.randrange(len(chars))
            chars[i], chars[j] = chars[j], chars[i]
        else:
            j = rng.randrange(len(chars))
            chars[i:i] = chars[j:j + rng.randint(1, 40)]
    return "".join(chars)


def tiled_map(level_text):
    """A level in the text format as a Tiled JSON map (one CSV tile layer,
    its config embedded as the map's `puzznic` property), as `plan puzznic`
    reads it: id 1 a wall, 2 outside, 3 and up the tile kinds."""
    rows = [row for row in level_text.rstrip("\n").split("\n") if not row.startswith(";")]
    width = max(len(row) for row in rows)
    kinds = sorted({c for row in rows for c in row if c.isalnum()})
    ids = {"#": 1, ".": 0, " ": 2, **{k: 3 + i for i, k in enumerate(kinds)}}
    data = [ids.get(c, 0) for row in rows for c in row.ljust(width)]
    config = {"walls": [1], "outside": [2], "tiles": {str(3 + i): k for i, k in enumerate(kinds)}}
    return json.dumps({
        "orientation": "orthogonal", "width": width, "height": len(rows), "infinite": False,
        "layers": [{"type": "tilelayer", "width": width, "height": len(rows), "data": data}],
        "properties": [{"name": "puzznic", "type": "string", "value": json.dumps(config)}],
    })


def mutate_lines(rng, text):
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        if not lines:
            break
        i, kind = rng.randrange(len(lines)), rng.random()
        if kind < 0.3:
            del lines[i]
        elif kind < 0.5:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif kind < 0.7:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            at = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:at] + rng.choice(PLAN_TOKENS) + lines[i][at:]
    return "\n".join(lines)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def corpus():
    """(domain, problem) pairs, level files and (domain, problem, plan) triples."""
    pairs = []
    tasks = os.path.join(SHARED, "benchmarks", "tasks.tsv")
    if os.path.exists(tasks):
        with open(tasks) as f:
            for row in list(f)[1:]:
                _, domain, problem = row.rstrip("\n").split("\t")[:3]
                pairs.append((os.path.join(SHARED, "benchmarks", domain),
                              os.path.join(SHARED, "benchmarks", problem)))
    for domain in glob.glob(os.path.join(REPO, "domains", "*", "domain.pddl")):
        name = os.path.basename(os.path.dirname(domain))
        for problem in sorted(glob.glob(os.path.join(REPO, "problems", name, "*.pddl")))[:3]:
            pairs.append((domain, problem))
    levels = (glob.glob(os.path.join(SHARED, "puzznic", "gameboy", "0[0-4]*.txt"))
              + glob.glob(os.path.join(REPO, "problems", "puzznic", "*.txt")))
    plans = []
    for domain, problem in pairs[::20]:
        found = subprocess.run([PLAN, "-q", "--time-limit", "5", domain, problem],
                               capture_output=True, text=True)
        if found.returncode == 0:
            plans.append((domain, problem, found.stdout))
    return pairs, levels, plans


def odd_flags(rng, flags):
    """One to four of `flags`, each with an odd value where it takes one."""
    args = []
    for flag in rng.sample(flags, rng.randint(1, 4)):
        args.append(flag)
        if flag in VALUE_FLAGS:
            args.append(rng.choice(NAMES if flag in ("--search", "--heuristic") else ODD_VALUES))
    return args


def flag_commands(rng, scratch):
    """`plan`, `plan puzznic solve` and `plan generate` on small shipped
    inputs, with odd flag values."""
    domain = os.path.join(REPO, "domains", "blocksworld", "domain.pddl")
    problem = os.path.join(REPO, "problems", "blocksworld", "blocks-08-s1.pddl")
    level = os.path.join(REPO, "problems", "puzznic", "bridge.txt")
    generator = rng.choice(sorted(GENERATORS))
    generate = ["generate", generator, "-o", os.path.join(scratch, "generated.pddl")]
    for flag in GENERATORS[generator] + ["--seed"]:
        generate += [flag, rng.choice(ODD_VALUES)]
    return [["-q"] + odd_flags(rng, SOLVE_FLAGS) + [domain, problem],
            ["puzznic", "solve", "-q"] + odd_flags(rng, PUZZNIC_FLAGS) + [level],
            generate]


def fuzz(job):
    seed, seconds, out_dir, pairs, levels, plans = job
    rng = random.Random(seed)
    scratch = os.path.join(out_dir, f"scratch-{seed}")
    os.makedirs(scratch, exist_ok=True)
    runs, failures = 0, []
    end = time.time() + seconds
    while time.time() < end:
        kind = rng.random()
        if kind < 0.5 or not (levels or plans):
            domain, problem = rng.choice(pairs)
            texts = [read(domain), read(problem)]
            which = rng.randrange(2)
            texts[which] = mutate_text(rng, texts[which], PDDL_TOKENS)
            files = {"domain.pddl": texts[0], "problem.pddl": texts[1]}
            d, p = (os.path.join(scratch, n) for n in files)
            commands = [["check", d, p],
                        ["ground", "-q", "--time-limit", "1", "--memory-limit", "512",
                         rng.choice(["--stats", "--dump"]), d, p],
                        ["-q", "--time-limit", "1", "--memory-limit", "512", d, p],
                        ["-q", "--optimal", "--time-limit", "1", "--memory-limit", "512", d, p]]
        elif kind < 0.6:
            files = {}
            commands = flag_commands(rng, scratch)
        elif kind < 0.8 and levels:
            # A text level, or one drawn in Tiled (a JSON map).
            if rng.random() < 0.75:
                name, text = "level.txt", mutate_text(rng, read(rng.choice(levels)),
                                                      list(LEVEL_CHARS))
            else:
                name, text = "level.json", mutate_text(rng, tiled_map(read(rng.choice(levels))),
                                                       JSON_TOKENS)
            files = {name: text}
            level = os.path.join(scratch, name)
            commands = [["puzznic", "problem", level],
                        ["puzznic", "solve", "--time-limit", "1", level]
                        + rng.choice([[], ["--json"]])]
        else:
            domain, problem, plan = rng.choice(plans)
            files = {"plan.txt": mutate_lines(rng, plan), "task.txt": f"{domain}\n{problem}\n"}
            commands = [["validate", domain, problem, os.path.join(scratch, "plan.txt")]]
        for name, text in files.items():
            with open(os.path.join(scratch, name), "w") as f:
                f.write(text)
        for command in commands:
            runs += 1
            try:
                result = subprocess.run([PLAN] + command, capture_output=True, text=True,
                                        stdin=subprocess.DEVNULL,
                                        timeout=HANG)
                code, stderr = result.returncode, result.stderr
            except subprocess.TimeoutExpired:
                code, stderr = "hang", ""
            if code == "hang" or code == 101 or code < 0 or "panicked" in stderr:
                kept = os.path.join(out_dir, f"failure-{seed}-{len(failures) + 1}")
                os.makedirs(kept)
                for name, text in files.items():
                    with open(os.path.join(kept, name), "w") as f:
                        f.write(text)
                with open(os.path.join(kept, "command.txt"), "w") as f:
                    f.write(" ".join(["plan"] + command) + "\n")
                failures.append(f"{kept}: plan {command[0]} … exit {code}: {stderr[-300:]!r}")
                break
    return runs, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out-dir", default="/tmp/plan-fuzz")
    args = parser.parse_args()
    if not os.path.exists(PLAN):
        sys.exit(f"no {PLAN}: run `cargo build --release` first")
    os.makedirs(args.out_dir, exist_ok=True)
    pairs, levels, plans = corpus()
    jobs = [(args.seed + i, args.seconds, args.out_dir, pairs, levels, plans)
            for i in range(args.jobs)]
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(fuzz, jobs)
    runs = sum(r for r, _ in results)
    failures = [f for _, fs in results for f in fs]
    print(f"{runs} runs of plan on mutated inputs ({len(pairs)} tasks, {len(levels)} levels, "
          f"{len(plans)} plans), {len(failures)} failures")
    for failure in failures:
        print(failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
