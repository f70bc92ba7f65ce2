#!/usr/bin/env bash
# Measured comparison with two reference planners on the shared benchmarks:
# our release `plan` (default configuration), Fast Downward's lama-first
# alias (PyPI package up-fast-downward) and ferroplan 0.30.0 (crates.io
# library, solved through a tiny runner built from benches/compare/
# ferroplan_runner.rs). Each planner runs as a whole process on the first
# tasks of each chosen domain (plus visitall problem20); every plan is checked
# and costed by `plan validate`. Prints a Markdown table on stdout.
#
#   benches/compare.sh [TIME_LIMIT_SECONDS=60] [DOMAIN...] > compare.md
#
# Environment (all optional):
#   COMPARE_CACHE   where the reference planners are installed and the runs
#                   are kept (default ${XDG_CACHE_HOME:-~/.cache}/plan-compare)
#   FD_VENV         Python venv holding up-fast-downward (default
#                   $COMPARE_CACHE/venv-fd; created and filled when missing)
#   COMPARE_TASKS   tasks per domain, first in tasks.tsv order (default 5)
#   COMPARE_RUNS    runs per planner and task, fastest kept (default 1); the
#                   planners' repeats take turns, one run of each per round
#   COMPARE_MIN_TOTAL  more runs (up to 50) while they add up to less than
#                   this many seconds, for millisecond tasks (default 0.5)
#   COMPARE_MEMORY  memory limit per process in MiB, 0 = none (default 4096)
#   COMPARE_RUNS_DIR  where plans and logs go (default $COMPARE_CACHE/runs)
#   COMPARE_EXTRA   space-separated extra problems (tasks.tsv `problem`
#                   column) (default visitall-sat11-strips/problem20.pddl)
#
# Neither reference planner is a dependency of the project: both are
# installed into COMPARE_CACHE by this script only.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
limit=${1:-60}
shift $(( $# > 0 ? 1 : 0 ))
# The default domains and extra problems (see that file).
. benches/compare/tasks.sh
if [ $# -gt 0 ]; then domains=("$@"); else domains=("${compare_domains[@]}"); fi

shared=$repo/../shared/benchmarks
[ -f "$shared/tasks.tsv" ] || { echo "../shared/benchmarks is absent" >&2; exit 1; }
cache=${COMPARE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/plan-compare}
mkdir -p "$cache"

# Ours: the release binary.
cargo build --release --quiet --bin plan
plan=$(realpath "${CARGO_TARGET_DIR:-target}/release/plan")

# Fast Downward from PyPI, in its own venv.
. benches/compare/fast_downward.sh

# ferroplan: a scratch crate around benches/compare/ferroplan_runner.rs, with
# its own target dir, outside the workspace.
runner=$cache/ferroplan-runner
mkdir -p "$runner/src"
cat > "$runner/Cargo.toml.new" <<'EOF'
[package]
name = "ferroplan-runner"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
ferroplan = "=0.30.0"

# Not a member of any enclosing workspace.
[workspace]
EOF
cmp -s "$runner/Cargo.toml.new" "$runner/Cargo.toml" || mv "$runner/Cargo.toml.new" "$runner/Cargo.toml"
rm -f "$runner/Cargo.toml.new"
cmp -s benches/compare/ferroplan_runner.rs "$runner/src/main.rs" ||
  cp benches/compare/ferroplan_runner.rs "$runner/src/main.rs"
(cd "$runner" && CARGO_TARGET_DIR="$runner/target" cargo build --release --quiet)
ferroplan=$runner/target/release/ferroplan-runner

revision=$(git describe --always --dirty 2>/dev/null || echo unknown)
extras=()
for extra in $compare_extra; do extras+=(--extra "$extra"); done
echo "load before the run: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
python3 benches/compare/compare.py --shared "$shared" --plan "$plan" \
  --fd-python "$fd_python" --fd-driver "$fd_driver" --ferroplan "$ferroplan" \
  --work-dir "${COMPARE_RUNS_DIR:-$cache/runs}" --revision "$revision" --time-limit "$limit" \
  --memory-limit "${COMPARE_MEMORY:-4096}" --tasks-per-domain "${COMPARE_TASKS:-5}" \
  --runs "${COMPARE_RUNS:-1}" --min-total "${COMPARE_MIN_TOTAL:-0.5}" "${extras[@]}" "${domains[@]}"
echo "load after the run: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
