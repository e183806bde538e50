"""A/B of whole-process runs between source trees: which commit scales better?  Each
repeat runs every tree on 1 and on 2 workers, back to back, after one untimed warm-up
run of each; prints the medians and writes results/ab_<problem>.csv and .json.

On a shared, noisy machine two commits can only be compared in one go: interleaved, a
slow spell hits all alike.  Each tree is a checkout of this repository (``git worktree
add ../before <commit>``); its runs import the package from that tree (``PYTHONPATH``),
so its warm-up run compiles that tree's kernels into numba's cache.

Example::

    python scripts/ab_trees.py q17 --repeats 8 ../before .

prints a table (per tree: the medians on 1 and 2 workers, the ratio of the medians and
the median of the per-repeat ratios) and writes ``results/ab_<problem>.csv`` (a row a
run) and ``.json`` (the rows and the table).  Problems: ``q17`` (N-Queens n = 17),
``s9`` (the 9x9 count: 17-clue #2 minus 3 givens) and ``s16`` (the 16x16 count: Gecode
#0 minus 6 givens); the Sudoku sets are read from PARALLEL_BACKTRACK_DATA (else
tests/data, which holds the 16x16 set only: ``scripts/_data.py``).  ``b8`` and ``b15``
are batch files for the sliding command (Manhattan IDA*, ``--json``): 5,000 random
solvable 8-puzzles, and 2,000 15-puzzles a random walk of 30-45 moves from the goal,
both made from a fixed seed into ``results/``; every answer is replayed move by move,
and a run's count is the puzzles' total moves.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's package
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _args import Parser, run_script  # noqa: E402 - scripts/ is sys.path[0]
from _data import data_folder  # noqa: E402
from _scaling import RESULTS, run_json, run_json_lines, write_csv, write_json  # noqa: E402

from parallel_backtrack.sliding.board import Board  # noqa: E402
from parallel_backtrack.sliding.jobs import replays  # noqa: E402

DATA = data_folder() / "sudoku"  # PARALLEL_BACKTRACK_DATA, else tests/data (scripts/_data.py)
SUDOKU = {"s9": ("tdoku_puzzles2_17_clue.txt", 2, 3), "s16": ("gecode_16x16.txt", 0, 6)}
BATCHES = {"b8": (3, 5000), "b15": (4, 2000)}  # board side, puzzles
PROBLEMS = {"q17": "N-Queens n = 17", "s9": "the 9x9 count (17-clue #2 minus 3 givens)",
            "s16": "the 16x16 count (Gecode #0 minus 6 givens)",
            "b8": "5,000 random 8-puzzles, one sliding batch",
            "b15": "2,000 15-puzzles 30-45 random moves from the goal, one sliding batch"}


def batch_file(problem: str) -> Path:
    """``results/ab_<problem>.txt``: the batch's puzzles, one a line, made from seed 1."""
    side, count = BATCHES[problem]
    rng, lines = random.Random(1), []
    while len(lines) < count:
        tiles = list(range(1, side * side)) + [0]
        if side == 3:
            rng.shuffle(tiles)
            if not Board(tuple(tiles), "blank-last").is_solvable():
                continue
        else:
            _walk(tiles, side, rng.randint(30, 45), rng)
        lines.append(" ".join(map(str, tiles)))
    path = RESULTS / f"ab_{problem}.txt"
    RESULTS.mkdir(exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    return path


def _walk(tiles: list[int], side: int, moves: int, rng: random.Random) -> None:
    """Slide the blank ``moves`` times at random, never straight back."""
    blank, last = tiles.index(0), -1
    for _ in range(moves):
        row, col = divmod(blank, side)
        steps = [r * side + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1),
                                           (row, col + 1))
                 if 0 <= r < side and 0 <= c < side and r * side + c != last]
        target = rng.choice(steps)
        tiles[blank], tiles[target] = tiles[target], 0
        last, blank = blank, target


def command(problem: str, tree: Path, workers: int) -> list[str]:
    """The arguments to ``python`` for one whole-process run of ``tree``'s code."""
    if problem in BATCHES:
        return ["-m", "parallel_backtrack.sliding", str(RESULTS / f"ab_{problem}.txt"),
                "--heuristic", "manhattan", "--json", "--no-verify", "--workers",
                str(workers)]
    if problem == "q17":
        return ["-m", "parallel_backtrack.nqueens", "--n", "17", "--workers", str(workers),
                "--no-progress", "--json"]
    name, index, remove = SUDOKU[problem]
    return [str(tree / "scripts" / "_sudoku_run.py"), str(DATA / name), "--index", str(index),
            "--remove", str(remove), "--workers", str(workers)]


def parse(argv: list[str] | None) -> argparse.Namespace:
    """The command line, checked: a bad one is a usage error (one line, exit 2)."""
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("problem", choices=tuple(PROBLEMS), help="what each run counts: "
                        + "; ".join(f"{key} {what}" for key, what in PROBLEMS.items()))
    parser.add_argument("trees", nargs="+", type=Path,
                        help="checkouts of this repository to compare (git worktree add "
                             "../before COMMIT), each named once")
    parser.add_argument("--repeats", type=int, default=3,
                        help="interleaved rounds, each running every tree on 1 and on 2 "
                             "workers (default 3)")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1, got {args.repeats}")
    if args.problem in SUDOKU and not (DATA / SUDOKU[args.problem][0]).is_file():
        parser.error(f"the puzzle set {SUDOKU[args.problem][0]} is not in {DATA} "
                     "(set PARALLEL_BACKTRACK_DATA)")
    needs = ("scripts/_sudoku_run.py" if args.problem in SUDOKU
             else "parallel_backtrack/sliding/__main__.py" if args.problem in BATCHES
             else "parallel_backtrack/nqueens/__main__.py")
    for tree in args.trees:
        if not (tree / "parallel_backtrack").is_dir() or not (tree / needs).is_file():
            parser.error(f"{tree} is not a checkout of this repository (no {needs})")
    if len({tree.resolve() for tree in args.trees}) < len(args.trees):
        parser.error(f"a tree is named twice: {' '.join(map(str, args.trees))}")
    return args


def run(problem: str, tree: Path, workers: int) -> tuple[float, dict[str, Any]]:
    """One whole-process run of ``tree``'s code: (wall seconds, its JSON report); a run
    that fails ends the script with one line (exit 1)."""
    try:
        if problem in BATCHES:
            return batch_report(problem, *run_json_lines(command(problem, tree.resolve(),
                                                                 workers), root=tree.resolve()))
        return run_json(command(problem, tree.resolve(), workers), root=tree.resolve())
    except RuntimeError as error:
        last = str(error).strip().splitlines()[-1]
        raise SystemExit(f"ab_trees.py: error: {tree} on {workers} workers: {last}") from None


def batch_report(problem: str, wall: float, outcomes: list[dict[str, Any]]
                 ) -> tuple[float, dict[str, Any]]:
    """(wall, a report of ``count``: the total moves, ``tasks``: the puzzles) of a
    sliding batch's JSON lines, every answer replayed; RuntimeError if one is not."""
    count = BATCHES[problem][1]
    if len(outcomes) != count:
        raise RuntimeError(f"{len(outcomes)} answers for {count} puzzles")
    for outcome in outcomes:
        if outcome["status"] != "solved" or not replays(tuple(outcome["tiles"]),
                                                        "blank-last", outcome["solution"]):
            raise RuntimeError(f"line {outcome['line']}: not solved: {outcome}")
    return wall, {"count": sum(outcome["moves"] for outcome in outcomes), "tasks": count}


def timed_rows(problem: str, trees: list[Path], repeats: int) -> list[dict[str, Any]]:
    """A row a timed run, the trees and worker counts interleaved within each repeat."""
    for tree in trees:  # untimed: numba compiles this tree's kernels, the page cache
        run(problem, tree, 1)
    rows = []
    for repeat in range(repeats):
        for tree in trees:
            for workers in (1, 2):
                wall, report = run(problem, tree, workers)
                rows.append({"repeat": repeat, "tree": str(tree), "workers": workers,
                             "wall_s": round(wall, 4), "tasks": report["tasks"],
                             "count": report["count"]})
                print(f"  {tree} workers={workers} repeat={repeat}: {wall:.2f} s, "
                      f"{report['tasks']} tasks", file=sys.stderr)
    return rows


def summarize(trees: list[Path], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per tree: the medians on 1 and 2 workers, their ratio and the median of the
    per-repeat ratios; printed as a table."""
    print("| tree | 1 worker s | 2 workers s | ratio of medians | median of per-repeat ratios |")
    print("|---|---:|---:|---:|---:|")
    summary = []
    for tree in trees:
        one = [r["wall_s"] for r in rows if r["tree"] == str(tree) and r["workers"] == 1]
        two = [r["wall_s"] for r in rows if r["tree"] == str(tree) and r["workers"] == 2]
        paired = statistics.median(a / b for a, b in zip(one, two))
        line = {"tree": str(tree), "one_s": statistics.median(one),
                "two_s": statistics.median(two),
                "ratio": statistics.median(one) / statistics.median(two), "paired": paired}
        summary.append(line)
        print(f"| {tree} | {line['one_s']:.2f} | {line['two_s']:.2f} | {line['ratio']:.3f} | "
              f"{paired:.3f} |")
    return summary


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.problem in BATCHES:
        batch_file(args.problem)
    rows = timed_rows(args.problem, args.trees, args.repeats)
    counts = sorted({row["count"] for row in rows})
    if len(counts) > 1:
        print(f"ab_trees.py: error: the trees count differently: {counts}", file=sys.stderr)
        return 1
    summary = summarize(args.trees, rows)
    write_csv(RESULTS / f"ab_{args.problem}.csv", rows)
    write_json(RESULTS / f"ab_{args.problem}.json", {"rows": rows, "summary": summary})
    return 0

if __name__ == "__main__":
    run_script(main)
