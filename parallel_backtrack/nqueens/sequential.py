"""The lab's warm-up: a plain recursive N-Queens counter on one mutable array.

Glossary
--------
queens[row]
    The column of the queen in ``row`` for rows already placed; entries at and
    after the current row are scratch space, overwritten as the search moves.

Example: ``lab_count(8)`` returns 92.  Its search shares nothing with the engine, which
makes it an independent check of the engine's counts.  (``engine.sequential_count``
is another thing: the engine's one-worker search of any Space.)
"""

from __future__ import annotations

from ..engine.checks import check_int


def _safe(queens: list[int], row: int, col: int) -> bool:
    """No queen in an earlier row shares the column or a diagonal with (row, col)."""
    for other_row in range(row):
        other_col = queens[other_row]
        if other_col == col or abs(other_col - col) == row - other_row:
            return False
    return True


def _count_from(queens: list[int], row: int) -> int:
    n = len(queens)
    if row == n:
        return 1
    total = 0
    for col in range(n):
        if _safe(queens, row, col):
            queens[row] = col
            total += _count_from(queens, row + 1)
    return total


def lab_count(n: int) -> int:
    """The number of ways to place n non-attacking queens on an n x n board."""
    size = check_int("board size", n, low=1)
    return _count_from([0] * size, 0)
