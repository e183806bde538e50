"""What the propagators' optional observer costs the search when it is absent.

Replays the propagation calls of the reference search (every child of every node
``next_puzzles`` builds, to the first solution) of each puzzle of a file, and times
them through ``sudoku/propagate.py`` as it is and through an earlier copy of that
file (``--before``: a ``propagate.py`` without the observer, e.g. from
``git show <commit>:parallel_backtrack/sudoku/propagate.py``), alternating the two
``--repeats`` times in one process (each goes first every other time).  Prints the
median CPU seconds of each and their ratio, and the time with an observer that hears
every removal (as the page's trace does).

    git show 71e5b14:parallel_backtrack/sudoku/propagate.py > /tmp/propagate_before.py
    python scripts/bench_observer.py data/norvig_top95.txt --before /tmp/propagate_before.py

Glossary: *call* one ``(masks, [square], grid, before)`` propagation of a child.
"""

from __future__ import annotations

import statistics
import time
import types
from pathlib import Path
from typing import Any

from _args import Parser, input_file, name_list, run_script

from parallel_backtrack.sudoku import propagate
from parallel_backtrack.sudoku.files import read_puzzles
from parallel_backtrack.sudoku.orders import order_named
from parallel_backtrack.sudoku.puzzle import ImmutableSudokuPuzzle


def load_before(path: Path) -> types.ModuleType:
    """The earlier ``propagate.py``, its relative imports resolved in today's package."""
    module = types.ModuleType("propagate_before")
    module.__package__ = "parallel_backtrack.sudoku"
    exec(compile(path.read_text(), str(path), "exec"), module.__dict__)  # noqa: S102
    return module


def calls(cells: tuple[int, ...], name: str, limit: int) -> list[tuple[Any, ...]]:
    """The child propagations of the reference search (fewest first), up to ``limit``."""
    order, found = order_named("fewest"), []
    stack = [ImmutableSudokuPuzzle(cells, name)]
    while stack and len(found) < limit:
        puzzle = stack.pop()
        if puzzle.is_dead() or puzzle.is_solved():
            continue
        square = order.select_next_unfilled_square(puzzle)
        for bit in reversed([1 << v for v in range(puzzle.grid.size)
                             if puzzle.candidate_mask(square) >> v & 1]):
            found.append((puzzle.masks, square, bit, puzzle.grid))
        stack.extend(reversed(puzzle.next_puzzles(square)))
    return found


def run(propagator: Any, work: list[tuple[Any, ...]], observer: Any = None) -> float:
    started = time.process_time()
    for masks, square, bit, grid in work:
        copy = list(masks)
        copy[square] = bit
        if observer is None:
            propagator(copy, [square], grid, masks)
        else:
            propagator(copy, [square], grid, masks, observer)
    return time.process_time() - started


def main() -> None:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=input_file, help="a file of 9x9 puzzles")
    parser.add_argument("--before", type=input_file, required=True,
                        help="propagate.py as it was before the observer (e.g. from git show)")
    parser.add_argument("--propagations", type=name_list(*propagate.PROPAGATORS),
                        default="units,matching", help="comma-separated (units,matching)")
    parser.add_argument("--repeats", type=int, default=9, help="timed runs of each (9)")
    parser.add_argument("--limit", type=int, default=2000, help="calls per puzzle at most")
    args = parser.parse_args()
    before = load_before(args.before)
    entries = [e for e in read_puzzles(open(args.file, "rb")) if e.cells is not None]
    print("| propagation | calls | before s | now s | now / before | with observer s |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in args.propagations:
        work = [c for e in entries for c in calls(e.cells, name, args.limit)]  # type: ignore[arg-type]
        old, new, heard = [], [], []
        for repeat in range(args.repeats):  # ABBA: neither goes first every time
            pair = [(old, before.PROPAGATORS[name]), (new, propagate.PROPAGATORS[name])]
            for times, propagator in pair if repeat % 2 else pair[::-1]:
                times.append(run(propagator, work))
            heard.append(run(propagate.PROPAGATORS[name], work, lambda s, v, r: None))
        a, b, c = (statistics.median(x) for x in (old, new, heard))
        print(f"| {name} | {len(work):,} | {a:.3f} | {b:.3f} | {b / a:.3f} | {c:.3f} |")


if __name__ == "__main__":
    run_script(main)
