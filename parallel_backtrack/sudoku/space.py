"""A puzzle and a square order as an engine Space, and an independent solution checker.

Glossary
--------
state
    An ``ImmutableSudokuPuzzle``.  The root is the puzzle with its givens
    propagated.
node
    One state the engine visits: the root, and every puzzle made by
    ``create_next`` while branching, dead ends included.  So a puzzle solved
    by propagation alone takes 1 node, and the node count measures how much
    search (not propagation) a strategy needed.
branch(state)
    The order picks an open square; each of its candidates, smallest first,
    gives one child.  A dead puzzle, or one whose chosen square has no
    candidates, has no children.
solution
    A puzzle with every square filled and no contradiction.

``is_valid_solution(givens, cells)`` checks a finished grid with plain
arithmetic on rows, columns and boxes, sharing no code with the puzzle class,
so every answer the search returns can be checked against it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .orders import SquareOrder
from .puzzle import ImmutableSudokuPuzzle


@dataclass(frozen=True, slots=True)
class SudokuSpace:
    """The search tree of one puzzle under one square order."""

    puzzle: ImmutableSudokuPuzzle
    order: SquareOrder
    # Nodes per engine task: a Python-path node costs 30-100 us, so about 50 ms.
    node_budget: ClassVar[int] = 1_000

    def root(self) -> ImmutableSudokuPuzzle:
        return self.puzzle

    def branch(self, state: ImmutableSudokuPuzzle) -> list[ImmutableSudokuPuzzle]:
        if state.is_dead():
            return []
        square = self.order.select_next_unfilled_square(state)
        if square is None:
            return []
        return state.next_puzzles(square)

    def is_solution(self, state: ImmutableSudokuPuzzle) -> bool:
        return state.is_solved()


def _as_cells(grid: str | Sequence[int | None]) -> list[int] | None:
    """Cells from a line of symbols or a flat sequence; None when unreadable."""
    if isinstance(grid, str):
        cells = []
        for ch in grid.strip():
            if ch in ".0_":
                cells.append(0)
            elif ch.isascii() and ch.isdigit():
                cells.append(int(ch))
            elif ch.isascii() and ch.isalpha():
                cells.append(ord(ch.upper()) - ord("A") + 10)
            else:
                return None
        return cells
    try:
        return [int(v or 0) for v in grid]
    except (TypeError, ValueError):
        return None


def _units(n: int, b: int) -> list[list[int]]:
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    boxes = [
        [(br + i // b) * n + bc + i % b for i in range(n)]
        for br in range(0, n, b)
        for bc in range(0, n, b)
    ]
    return rows + cols + boxes


def is_valid_solution(
    givens: str | Sequence[int | None], solution: str | Sequence[int | None]
) -> bool:
    """True when ``solution`` is a complete, valid grid that keeps every given.

    Both are one line of symbols (``"4173698..."``, ``.`` for blanks, ``A``.. for
    10 and up) or a flat row-major sequence of ints (0 or None for blanks).
    """
    start, cells = _as_cells(givens), _as_cells(solution)
    if start is None or cells is None or len(start) != len(cells):
        return False
    n = math.isqrt(len(cells))
    b = math.isqrt(n)
    if b < 2 or b * b != n or n * n != len(cells):
        return False
    if any(g and g != v for g, v in zip(start, cells, strict=True)):
        return False
    values = set(range(1, n + 1))
    return all({cells[s] for s in unit} == values for unit in _units(n, b))
