"""The classic strategy table: every square order x propagator over the Sudoku data sets.

For each set, order and propagator the script searches every puzzle for its
first solution on one worker (the immutable Python path), checks each answer
with the independent checker, and reports how many were solved and the mean
and max nodes and CPU times (this process's CPU time, so other load on the
machine barely moves them; building the puzzle, i.e. propagating the givens,
is included).  A puzzle gets at most ``--cap`` seconds of wall time; one that
runs out counts as not solved (its nodes and time so far still count, so the
means are lower bounds there).  ``none`` + ``row-major`` (plain backtracking)
only runs on the easy sets: elsewhere single puzzles take minutes.

    python scripts/sudoku_strategies.py                 # the table in docs/results.md
    python scripts/sudoku_strategies.py --sets top95 --cap 5 --sample 20

Prints a markdown table and writes ``results/sudoku_strategies.{csv,json}``.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from parallel_backtrack.engine.space import explore
from parallel_backtrack.sudoku import (
    PROPAGATORS,
    ImmutableSudokuPuzzle,
    SudokuSpace,
    is_valid_solution,
    order_named,
    read_puzzles,
)
from parallel_backtrack.sudoku.orders import ORDERS

ROOT = Path(__file__).resolve().parents[1]
from _args import Parser, run_script  # noqa: E402 - scripts/ is sys.path[0]
from _data import data_folder  # noqa: E402 - scripts/ is sys.path[0]

DATA = data_folder() / "sudoku"  # PARALLEL_BACKTRACK_DATA, else tests/data (scripts/_data.py)
SETS = {
    "easy50": "norvig_easy50.txt",
    "top95": "norvig_top95.txt",
    "hardest11": "norvig_hardest11.txt",
    "plb_hard20": "plb_hard20.txt",
    "forum_hardest_1106": "tdoku_puzzles6_forum_hardest_1106.txt",
    "magictour_top1465": "tdoku_puzzles3_magictour_top1465.txt",
    "gecode_16x16": "gecode_16x16.txt",
}
DEFAULT_SETS = ["easy50", "top95", "hardest11"]
EASY_SETS = {"easy50"}
CHUNK = 2_000


@dataclass
class Row:
    set: str
    order: str
    propagation: str
    puzzles: int
    solved: int
    timed_out: int
    mean_nodes: float
    max_nodes: int
    mean_cpu_ms: float
    max_cpu_ms: float


def run_one(puzzle: ImmutableSudokuPuzzle, order: str, cap: float) -> tuple[str, int, float]:
    """('solved' | 'none' | 'timeout', nodes, seconds) for one capped first-solution search."""
    space = SudokuSpace(puzzle, order_named(order))
    started, nodes, roots = time.perf_counter(), 0, [puzzle]
    while roots:
        found = explore(space, roots, budget=CHUNK, stop_after=1, keep=True)
        nodes, roots = nodes + found.nodes, list(found.leftover)
        if found.solutions:
            solution = found.solutions[0]
            if not is_valid_solution(puzzle.cells, solution.cells):
                raise SystemExit(f"checker rejected a solution for {puzzle.line()}")
            return "solved", nodes, time.perf_counter() - started
        if time.perf_counter() - started > cap:
            return "timeout", nodes, time.perf_counter() - started
    return "none", nodes, time.perf_counter() - started


def run_combo(name: str, cells: list, order: str, propagation: str, cap: float) -> Row:
    outcomes = []
    for givens in cells:
        started = time.process_time()  # building the puzzle propagates the givens: count it
        puzzle = ImmutableSudokuPuzzle(givens, propagation)
        status, nodes, _ = run_one(puzzle, order, cap)
        outcomes.append((status, nodes, time.process_time() - started))
    nodes = [n for _, n, _ in outcomes]
    millis = [s * 1000 for _, _, s in outcomes]
    return Row(
        name, order, propagation, len(outcomes),
        sum(s == "solved" for s, _, _ in outcomes),
        sum(s == "timeout" for s, _, _ in outcomes),
        statistics.fmean(nodes), max(nodes), statistics.fmean(millis), max(millis),
    )


def load(name: str, sample: int | None, seed: int) -> list:
    path = DATA / SETS[name]
    if not path.is_file():
        raise SystemExit(f"data set {name!r} not found at {path}")
    cells = [entry.cells for entry in read_puzzles(path) if entry.cells is not None]
    if sample is not None and sample < len(cells):
        cells = random.Random(seed).sample(cells, sample)
    return cells


def markdown(rows: list[Row]) -> str:
    lines = [
        "| set | order | propagation | solved | mean nodes | max nodes | mean CPU ms"
        " | max CPU ms |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        solved = f"{r.solved}/{r.puzzles}" + (f" ({r.timed_out} capped)" if r.timed_out else "")
        lines.append(
            f"| {r.set} | {r.order} | {r.propagation} | {solved} | {r.mean_nodes:,.1f} |"
            f" {r.max_nodes:,} | {r.mean_cpu_ms:,.2f} | {r.max_cpu_ms:,.1f} |"
        )
    return "\n".join(lines)


def write(rows: list[Row], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "sudoku_strategies.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(asdict(rows[0])))
        writer.writeheader()
        writer.writerows(asdict(r) for r in rows)
    (out / "sudoku_strategies.json").write_text(json.dumps([asdict(r) for r in rows], indent=1))


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="+", choices=sorted(SETS), default=DEFAULT_SETS)
    parser.add_argument("--orders", nargs="+", choices=sorted(ORDERS), default=sorted(ORDERS))
    parser.add_argument("--propagations", nargs="+", choices=list(PROPAGATORS),
                        default=list(PROPAGATORS))
    parser.add_argument("--cap", type=float, default=2.0, help="seconds per puzzle (default 2)")
    parser.add_argument("--sample", type=int, help="puzzles per set, sampled (default all)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", type=Path, default=ROOT / "results")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    rows = []
    for name in args.sets:
        cells = load(name, args.sample, args.seed)
        for order in args.orders:
            for propagation in args.propagations:
                if propagation == "none" and order == "row-major" and name not in EASY_SETS:
                    continue
                row = run_combo(name, cells, order, propagation, args.cap)
                print(f"{name} {order} {propagation}: {row.solved}/{row.puzzles}",
                      file=sys.stderr, flush=True)
                rows.append(row)
    print(markdown(rows))
    write(rows, args.out)
    return 0


if __name__ == "__main__":
    run_script(main)
