"""A/B of whole-process runs between source trees: which commit scales better?

On a shared, noisy machine two commits can only be compared in one go: every repeat
runs each tree on 1 and on 2 workers, back to back, so a slow spell hits all alike.
Each tree is a checkout of this repository (``git worktree add ../before <commit>``);
its runs import the package from that tree (``PYTHONPATH``), so its first run also
compiles that tree's kernels into numba's cache: warm each tree once before timing.

Example::

    python scripts/ab_trees.py q17 --repeats 8 ../before .

prints a table and writes ``results/ab_<problem>.csv`` and ``.json``.  Problems: ``q17``
(N-Queens n = 17), ``s9`` (the 9x9 count: 17-clue #2 minus 3 givens) and ``s16`` (the
16x16 count: Gecode #0 minus 6 givens).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _args import Parser, run_script
from _data import data_folder  # noqa: E402
from _scaling import RESULTS, run_json, write_csv, write_json  # noqa: E402

DATA = data_folder() / "sudoku"  # PARALLEL_BACKTRACK_DATA, else tests/data (scripts/_data.py)
SUDOKU = {"s9": ("tdoku_puzzles2_17_clue.txt", 2, 3), "s16": ("gecode_16x16.txt", 0, 6)}


def command(problem: str, tree: Path, workers: int) -> list[str]:
    """The arguments to ``python`` for one whole-process run of ``tree``'s code."""
    if problem == "q17":
        return ["-m", "parallel_backtrack.nqueens", "--n", "17", "--workers", str(workers),
                "--no-progress", "--json"]
    name, index, remove = SUDOKU[problem]
    return [str(tree / "scripts" / "_sudoku_run.py"), str(DATA / name), "--index", str(index),
            "--remove", str(remove), "--workers", str(workers)]


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("problem", choices=("q17", *SUDOKU))
    parser.add_argument("trees", nargs="+", type=Path, help="checkouts to compare")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    if args.problem in SUDOKU and not DATA.is_dir():
        parser.error(f"the puzzle data is not at {DATA}")
    for tree in args.trees:
        if not (tree / "parallel_backtrack").is_dir():
            parser.error(f"{tree} is not a checkout of this repository")
    rows = []
    for repeat in range(args.repeats):
        for tree in args.trees:
            for workers in (1, 2):
                wall, report = run_json(command(args.problem, tree.resolve(), workers),
                                        root=tree.resolve())
                rows.append({"repeat": repeat, "tree": str(tree), "workers": workers,
                             "wall_s": round(wall, 4), "tasks": report["tasks"],
                             "count": report["count"]})
                print(f"  {tree} workers={workers} repeat={repeat}: {wall:.2f} s, "
                      f"{report['tasks']} tasks", file=sys.stderr)
    print("| tree | 1 worker s | 2 workers s | ratio of medians | median of per-repeat ratios |")
    print("|---|---:|---:|---:|---:|")
    summary = []
    for tree in args.trees:
        one = [r["wall_s"] for r in rows if r["tree"] == str(tree) and r["workers"] == 1]
        two = [r["wall_s"] for r in rows if r["tree"] == str(tree) and r["workers"] == 2]
        paired = statistics.median(a / b for a, b in zip(one, two))
        line = {"tree": str(tree), "one_s": statistics.median(one),
                "two_s": statistics.median(two),
                "ratio": statistics.median(one) / statistics.median(two), "paired": paired}
        summary.append(line)
        print(f"| {tree} | {line['one_s']:.2f} | {line['two_s']:.2f} | {line['ratio']:.3f} | "
              f"{paired:.3f} |")
    write_csv(RESULTS / f"ab_{args.problem}.csv", rows)
    write_json(RESULTS / f"ab_{args.problem}.json", {"rows": rows, "summary": summary})
    return 0


if __name__ == "__main__":
    run_script(main)
