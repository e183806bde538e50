"""The local-search comparison table: every method over a range of n, many seeded runs.

Each run is ``find_one(n, method, seed=run, max_steps=cap)`` on one worker; its answer
goes through the independent checker.  A run that reaches its step cap counts as a
failure.  The caps keep the slow methods bounded (a hill-climbing step looks at all
n(n-1) moves; a genetic generation breeds the whole population) and are printed with
the table.  Steps and times are over the solved runs; times are this process's CPU
time, so other load on the machine barely moves them.  Each process runs every
method once before timing it, so numba's cache load is not counted.

Glossary
--------
spec
    ``METHOD`` or ``METHOD:param=value+param=value``, e.g. ``hill-climbing:sideways=0``
    (plain steepest ascent: no sideways moves, restarts only).
success
    Solved runs / runs, within the cap.

    python scripts/local_search_table.py                        # the table in docs/results.md
    python scripts/local_search_table.py --runs 10 --sizes 8,64 --methods genetic

Prints a markdown table; writes ``OUT/local_search_table.csv`` and ``.png``.
"""

from __future__ import annotations

import argparse
import ast
import csv
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from _args import Parser, int_list, run_script
from joblib import Parallel, delayed

from parallel_backtrack.nqueens.local.options import PARAMETERS
from parallel_backtrack.nqueens.local.search import find_one, is_queens_solution

DEFAULT_SPECS = ["min-conflicts", "hill-climbing", "hill-climbing:sideways=0", "annealing",
                 "genetic", "constructive"]
DEFAULT_SIZES = [8, 16, 32, 64, 128, 1000]
_WARM: set[str] = set()  # methods whose kernels this process has loaded


@dataclass
class Row:
    method: str
    n: int
    runs: int
    solved: int
    success: float
    median_steps: float | None
    p90_steps: float | None
    median_restarts: float | None
    median_cpu_ms: float | None
    cap: int


def step_cap(method: str, n: int) -> int:
    """Steps per run: about two CPU seconds at most for the expensive methods."""
    if method == "hill-climbing":
        return min(20_000, max(200, 2 * 10**9 // n**2))
    if method == "genetic":
        return min(20_000, max(500, 5 * 10**6 // n))
    return {"min-conflicts": 10**6, "annealing": 10**7, "constructive": 0}[method]


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``annealing:temperature=2+cooling=0.999`` -> ("annealing", {...})."""
    method, _, rest = spec.partition(":")
    params = {}
    for item in filter(None, rest.split("+")):
        key, _, value = item.partition("=")
        params[key.strip().replace("-", "_")] = ast.literal_eval(value.strip())
    return method, params


def warm(method: str) -> None:
    """Load the method's compiled kernels in this process, before anything is timed."""
    if method not in _WARM:
        find_one(8, method, seed=0)
        if method == "min-conflicts":
            find_one(8, method, seed=0, variant="swaps")
        _WARM.add(method)


def run_one(spec: str, n: int, seed: int) -> tuple[bool, int, int, float]:
    """(solved, steps, restarts, CPU seconds) of one seeded run."""
    method, params = parse_spec(spec)
    warm(method)
    started = time.process_time()
    result = find_one(n, method, seed=seed, max_steps=step_cap(method, n), **params)
    cpu = time.process_time() - started
    if result.solved and not is_queens_solution(result.columns):
        raise RuntimeError(f"{spec} returned an invalid {n}-queens placement (seed {seed})")
    return result.solved, result.steps, result.restarts, cpu


def summarise(spec: str, n: int, outcomes: list[tuple[bool, int, int, float]]) -> Row:
    solved = [o for o in outcomes if o[0]]

    def median(index: int, scale: float = 1.0) -> float | None:
        return statistics.median(o[index] for o in solved) * scale if solved else None

    p90 = float(np.percentile([o[1] for o in solved], 90)) if solved else None
    return Row(spec, n, len(outcomes), len(solved), len(solved) / len(outcomes), median(1),
               p90, median(2), median(3, 1000.0), step_cap(parse_spec(spec)[0], n))


def measure(specs: list[str], sizes: list[int], runs: int, jobs: int) -> list[Row]:
    cases = [(spec, n) for spec in specs for n in sizes]
    outcomes = Parallel(n_jobs=jobs)(
        delayed(run_one)(spec, n, seed) for spec, n in cases for seed in range(runs))
    return [summarise(spec, n, outcomes[k * runs:(k + 1) * runs])
            for k, (spec, n) in enumerate(cases)]


def cell(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def markdown(rows: list[Row]) -> str:
    lines = ["| method | n | success | median steps | p90 steps | median restarts "
             "| median CPU ms | step cap |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r.method} | {r.n} | {100 * r.success:.0f}% | {cell(r.median_steps)} "
                     f"| {cell(r.p90_steps)} | {cell(r.median_restarts)} "
                     f"| {cell(r.median_cpu_ms, 2)} | {r.cap:,} |")
    return "\n".join(lines)


def write_csv(rows: list[Row], path: Path) -> None:
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(asdict(rows[0])))
        writer.writeheader()
        writer.writerows(asdict(r) for r in rows)


def plot(rows: list[Row], path: Path) -> bool:
    """Success rate and median steps against n, one line per method."""
    try:
        import matplotlib
    except ImportError:
        print("matplotlib is missing (pip install '.[plot]'): no plot", file=sys.stderr)
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6))
    for k, spec in enumerate(dict.fromkeys(r.method for r in rows)):
        mine = [r for r in rows if r.method == spec]
        # Distinct markers and dashes: several methods share the 100% line.
        style = {"marker": "os^vDx*"[k % 7], "linestyle": ("-", "--", ":")[k % 3], "label": spec}
        left.plot([r.n for r in mine], [100 * r.success for r in mine], **style)
        steps = [(r.n, r.median_steps) for r in mine if r.median_steps]
        right.plot([s[0] for s in steps], [s[1] for s in steps], **style)
    left.set_ylabel("success within the cap (%)")
    right.set_ylabel("median steps (solved runs)")
    right.set_yscale("log")
    for axis in (left, right):
        axis.set_xscale("log", base=2)
        axis.set_xlabel("n")
        axis.grid(alpha=0.3)
    left.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return True


def specs(text: str) -> list[str]:
    """``--methods``: comma-separated specs, each of a known method with readable values."""
    found = [spec for spec in text.split(",") if spec]
    for spec in found:
        try:
            method, params = parse_spec(spec)
        except (ValueError, SyntaxError):
            raise argparse.ArgumentTypeError(f"cannot read the values of {spec!r}") from None
        if method not in PARAMETERS:
            raise argparse.ArgumentTypeError(
                f"unknown method {method!r}; expected one of {sorted(PARAMETERS)}")
        unknown = sorted(set(params) - set(PARAMETERS[method]))
        if unknown:
            raise argparse.ArgumentTypeError(
                f"{method} takes no {unknown}; it takes {sorted(PARAMETERS[method])}")
    return found


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50, help="seeded runs per cell (default 50)")
    parser.add_argument("--sizes", type=int_list, default=",".join(map(str, DEFAULT_SIZES)),
                        help="comma-separated board sizes")
    parser.add_argument("--methods", type=specs, default=",".join(DEFAULT_SPECS),
                        help="comma-separated specs, e.g. hill-climbing:sideways=0 or "
                        "annealing:temperature=2+cooling=0.999")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes running the runs (CPU times stay per run)")
    parser.add_argument("--out", type=Path, default=Path("results"), help="output folder")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    rows = measure(args.methods, args.sizes, args.runs, args.jobs)
    print(markdown(rows))
    print(f"\n{args.runs} runs per cell, {time.perf_counter() - started:.0f} s wall in all")
    args.out.mkdir(parents=True, exist_ok=True)
    write_csv(rows, args.out / "local_search_table.csv")
    if plot(rows, args.out / "local_search_table.png"):
        print(f"wrote {args.out / 'local_search_table.csv'} and .png")
    return 0


if __name__ == "__main__":
    run_script(main)
