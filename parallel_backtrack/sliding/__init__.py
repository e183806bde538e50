"""Sliding-tile puzzles: ``Board``, A* in CS61B's shape, compiled IDA*, pattern databases.

``python -m parallel_backtrack.sliding FILE...`` solves puzzle files; see docs/sliding.md.
Importing this package loads no compiled code: the kernels load on first use.
"""

from .astar import NodeLimitError, Solver, UnsolvableError
from .board import GOALS, Board, InvalidBoardError, WorldState, is_solvable
from .readers import PuzzleFormatError, read_boards

__all__ = [
    "GOALS",
    "Board",
    "InvalidBoardError",
    "NodeLimitError",
    "PuzzleFormatError",
    "Solver",
    "UnsolvableError",
    "WorldState",
    "is_solvable",
    "read_boards",
]
