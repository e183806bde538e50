"""Sudoku on the parallel_backtrack engine: immutable puzzles, propagators, orders, files.

Quick use::

    from parallel_backtrack.sudoku import ImmutableSudokuPuzzle, count_solutions, solve
    givens = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    puzzle = ImmutableSudokuPuzzle(givens)   # propagation="units"
    print(solve(puzzle))                     # the first solution, as a grid
    count_solutions(puzzle, limit=2)         # 1: a proper puzzle

Propagators, orders, the compiled kernel and clause learning: docs/sudoku.md in the
repository; the command line ``python -m parallel_backtrack.sudoku FILE``: docs/cli.md.
"""

from .candidates import CandidateSet
from .files import read_puzzles
from .formats import PuzzleEntry, format_grid, format_line, parse_puzzles
from .grid import Grid, Square, grid_for
from .orders import FewestOptionsFirst, RowMajor, SquareOrder, order_named
from .propagate import PROPAGATORS, propagator_named
from .puzzle import ImmutableSudokuPuzzle, InvalidPuzzleError
from .search import Outcome, count_solutions, is_unique, search, solutions, solve
from .space import SudokuSpace, is_valid_solution

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
