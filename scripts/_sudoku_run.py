"""Count one Sudoku's solutions through the engine and print the report as JSON.

The scaling script runs this as a whole process, like the N-Queens CLI with
``--json --stats``: the Sudoku CLI solves first and then counts, and does not
print per-task timings, so the scaling runs call the engine directly on the
puzzle's Space (``parallel_backtrack.sudoku.search.space_for``).

Glossary
--------
remove
    Blank the first ``--remove`` givens (in reading order) of the puzzle, to
    turn a unique 17-clue puzzle into one with many solutions.

Example::

    python scripts/_sudoku_run.py tests/data/many.txt --workers 2
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("PARALLEL_BACKTRACK_LEAN", "1")  # start up as the command lines do
os.environ.setdefault("PARALLEL_BACKTRACK_FORKSERVER", "1")  # workers from a warm fork server
from _args import Parser, input_file  # noqa: E402 - scripts/ is sys.path[0]


def puzzle_cells(path: str | Path, index: int, remove: int) -> list[int]:
    """The ``index``-th puzzle line of ``path`` (comments skipped) with its first
    ``remove`` givens blanked.  Only that line is parsed: reading all 49,158
    puzzles of the 17-clue file would add half a second to every run."""
    from parallel_backtrack.sudoku.formats import parse_one

    with open(path, encoding="utf-8") as stream:
        lines = (line.strip() for line in stream)
        puzzles = (line for line in lines if line and not line.startswith("#"))
        line = next((text for number, text in enumerate(puzzles) if number == index), None)
    if line is None:
        raise SystemExit(f"{str(path)!r} has no puzzle number {index}")
    cells = list(parse_one(line.split(":")[0].split("\t")[0]))
    givens = [i for i, value in enumerate(cells) if value]
    for square in givens[:remove]:
        cells[square] = 0
    return cells


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=input_file, help="a file of puzzles, one a line")
    parser.add_argument("--index", type=int, default=0, help="which puzzle of the file")
    parser.add_argument("--remove", type=int, default=0, help="givens to blank")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--per-worker", type=int, default=None,
                        help="subtrees per worker in the first cut (default: the engine's)")
    parser.add_argument("--budget", type=int, default=None,
                        help="nodes a task searches before it splits (default: the engine's)")
    parser.add_argument("--order", default="fewest", help="the square order (fewest)")
    parser.add_argument("--backend", default=None, help="the pool (default: the engine's)")
    args = parser.parse_args(argv)
    try:
        from parallel_backtrack.engine import count
        from parallel_backtrack.sudoku.search import space_for
    except ImportError as error:
        print(f"the Sudoku engine API is not ready: {error}", file=sys.stderr)
        return 2
    space = space_for(puzzle_cells(args.file, args.index, args.remove), args.order)
    report = count(space, workers=args.workers, backend=args.backend,
                   per_worker=args.per_worker, budget=args.budget)
    payload = report.as_dict()
    payload.update(report.task_table())
    payload.update(file=str(args.file), index=args.index, remove=args.remove)
    print(json.dumps(payload, sort_keys=True))
    return 0


if __name__ == "__main__":
    from parallel_backtrack._cli import run_process

    run_process(main)  # and end as the command lines do (pools killed, a quick exit)
