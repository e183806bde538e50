"""Sudoku on the parallel_backtrack engine: immutable puzzles, propagators, orders, files.

Quick use::

    from parallel_backtrack.sudoku import ImmutableSudokuPuzzle, count_solutions, solve
    givens = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    puzzle = ImmutableSudokuPuzzle(givens)   # propagation="units"
    print(solve(puzzle))                     # the first solution, as a grid
    count_solutions(puzzle, limit=2)         # 1: a proper puzzle

Propagators, orders, the compiled kernel and clause learning: docs/sudoku.md in the
repository; the command line ``python -m parallel_backtrack.sudoku FILE``: docs/cli.md.

Importing the package is cheap: each name below loads its module on first use (PEP 562),
so the command line on a file of 9x9 puzzles, which goes through the compiled kernel in
bulk, loads none of the immutable-puzzle search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes

if TYPE_CHECKING:
    from .candidates import CandidateSet
    from .formats import PuzzleEntry, format_grid, format_line, parse_puzzles, read_puzzles
    from .grid import Grid, Square, grid_for
    from .orders import FewestOptionsFirst, RowMajor, SquareOrder, order_named
    from .propagate import PROPAGATORS, propagator_named
    from .puzzle import ImmutableSudokuPuzzle, InvalidPuzzleError
    from .search import Outcome, count_solutions, is_unique, search, solutions, solve
    from .space import SudokuSpace, is_valid_solution

_HOMES = {
    "CandidateSet": "candidates",
    "PuzzleEntry": "formats", "format_grid": "formats", "format_line": "formats",
    "parse_puzzles": "formats", "read_puzzles": "formats",
    "Grid": "grid", "Square": "grid", "grid_for": "grid",
    "FewestOptionsFirst": "orders", "RowMajor": "orders", "SquareOrder": "orders",
    "order_named": "orders",
    "PROPAGATORS": "propagate", "propagator_named": "propagate",
    "ImmutableSudokuPuzzle": "puzzle", "InvalidPuzzleError": "puzzle",
    "Outcome": "search", "count_solutions": "search", "is_unique": "search",
    "search": "search", "solutions": "search", "solve": "search",
    "SudokuSpace": "space", "is_valid_solution": "space",
}

__all__ = [
    "PROPAGATORS",
    "CandidateSet",
    "FewestOptionsFirst",
    "Grid",
    "ImmutableSudokuPuzzle",
    "InvalidPuzzleError",
    "Outcome",
    "PuzzleEntry",
    "RowMajor",
    "Square",
    "SquareOrder",
    "SudokuSpace",
    "count_solutions",
    "format_grid",
    "format_line",
    "grid_for",
    "is_unique",
    "is_valid_solution",
    "order_named",
    "parse_puzzles",
    "propagator_named",
    "read_puzzles",
    "search",
    "solutions",
    "solve",
]
__getattr__, __dir__ = lazy_attributes(__name__, _HOMES, __all__)
