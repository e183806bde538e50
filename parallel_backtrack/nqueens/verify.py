"""The independent N-Queens checker: every reported solution goes through it.

Glossary
--------
columns
    One column per row, rows 0..n-1 (a full placement).

A placement solves N-Queens when the columns are a permutation of 0..n-1 and
all ``row + col`` and all ``row - col`` are distinct.  O(n), no search code.

Example: ``is_queens_solution([1, 3, 0, 2])`` is True.
"""

from __future__ import annotations

from collections.abc import Sequence


def is_queens_solution(columns: Sequence[int]) -> bool:
    n = len(columns)
    if n == 0:
        return False
    if sorted(int(c) for c in columns) != list(range(n)):
        return False
    return (len({r + int(c) for r, c in enumerate(columns)}) == n
            and len({r - int(c) for r, c in enumerate(columns)}) == n)
