"""Compiled bitboard subtree counter for the first-available-row order.

The shape of Jeff Somers' counter: one explicit stack of per-depth masks, the
lowest free bit tried first, no recursion; compiled with numba (``cache=True``)
and counted in 64-bit integers.  It adds what the engine needs: a node budget,
after which the unexplored rest of the stack comes back as leftover subtrees.

Glossary
--------
depth k
    The k-th empty row below the root, ``rows[k]`` (rows with a queen already
    are passed over; all rows above the root's first empty row are full).
cols, ld, rd
    Attacked columns in the current row: by column, along "\\" diagonals
    (shifted left one per row) and "/" diagonals (shifted right one per row),
    from the queens above.  ``fixed[k]`` adds the attacks of queens that the
    root placed in rows below.
avail[k]
    Columns still to try at depth k; ``path[k]`` the column bit chosen there.
node
    A placement, plus the root: exactly the states the generic search visits.

Example: ``count_subtree(ImmutableQueenLocations(8), budget=10**9)`` gives
``(92, 2057, [])``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ... import _jit_cache  # noqa: F401  (registers the cache locators before any @njit)
from ..board import MAX_KERNEL_SIZE, ImmutableQueenLocations, bits


@njit(cache=True, nogil=True)
def _run(n, start_cols, start_ld, start_rd, gaps, fixed, budget, avail, path, cols, ld, rd):
    """Count below the start state; returns (count, nodes, depth reached).

    ``depth >= 0`` on return means the budget ran out with work left in
    ``avail[0..depth]`` (the arrays hold the open stack).
    """
    full = (np.int64(1) << n) - 1
    levels = gaps.shape[0]
    count = np.int64(0)
    nodes = np.int64(0)
    k = 0
    cols[0] = start_cols
    ld[0] = start_ld
    rd[0] = start_rd
    avail[0] = full & ~(start_cols | start_ld | start_rd | fixed[0])
    while k >= 0:
        free = avail[k]
        if free == 0:
            k -= 1
            continue
        if nodes >= budget:
            return count, nodes, k
        bit = free & -free
        avail[k] = free ^ bit
        nodes += 1
        if k == levels - 1:
            count += 1
            continue
        path[k] = bit
        gap = gaps[k]
        c = cols[k] | bit
        left = ((ld[k] | bit) << gap) & full
        right = (rd[k] | bit) >> gap
        k += 1
        cols[k] = c
        ld[k] = left
        rd[k] = right
        avail[k] = full & ~(c | left | right | fixed[k])
    return count, nodes, -1


def _start_masks(board: ImmutableQueenLocations, rows: list[int]) -> tuple[int, int, int, list]:
    """Relative masks for the first empty row, plus the attacks of queens below it."""
    n, first = board.board_size, rows[0]
    cols = ld = rd = 0
    for row, col in enumerate(board.queens[:first]):
        ld |= (1 << (col + first - row)) if col + first - row < n else 0
        rd |= (1 << (col - first + row)) if col - first + row >= 0 else 0
    cols = board.cols
    below = [(row, col) for row, col in enumerate(board.queens) if row > first and col >= 0]
    fixed = []
    for row in rows:
        mask = 0
        for qrow, qcol in below:
            for c in (qcol + (row - qrow), qcol - (row - qrow)):
                if 0 <= c < n:
                    mask |= 1 << c
        fixed.append(mask)
    return cols, ld, rd, fixed


def count_subtree(board: ImmutableQueenLocations, budget: int) -> tuple[int, int, list]:
    """(solutions, nodes, leftover boards) below ``board``, first-available-row order.

    ``nodes`` counts the board itself; ``leftover`` lists, in search order, the
    boards still to explore when the budget ran out (empty when finished).
    """
    n = board.board_size
    if n > MAX_KERNEL_SIZE:
        raise ValueError(f"the compiled kernel handles boards up to {MAX_KERNEL_SIZE}, got {n}")
    rows = [row for row in range(n) if not board.filled >> row & 1]
    if not rows:
        return 1, 1, []
    cols, ld, rd, fixed = _start_masks(board, rows)
    gaps = np.array([b - a for a, b in zip(rows, rows[1:])] + [0], dtype=np.int64)
    stack = [np.zeros(len(rows), dtype=np.int64) for _ in range(5)]
    avail, path, cstack, lstack, rstack = stack
    count, nodes, depth = _run(n, cols, ld, rd, gaps, np.array(fixed, dtype=np.int64),
                               max(0, budget - 1), avail, path, cstack, lstack, rstack)
    leftover = _open_stack(board, rows, int(depth), avail, path)
    return int(count), int(nodes) + 1, leftover


def _open_stack(board: ImmutableQueenLocations, rows: list[int], depth: int,
                avail: np.ndarray, path: np.ndarray) -> list[ImmutableQueenLocations]:
    """The unexplored boards on the stack, deepest level first (search order)."""
    if depth < 0:
        return []
    prefixes = [board]
    for k in range(depth):
        prefixes.append(prefixes[-1].place(rows[k], int(path[k]).bit_length() - 1))
    leftover: list[ImmutableQueenLocations] = []
    for k in range(depth, -1, -1):
        leftover.extend(prefixes[k].place(rows[k], col) for col in bits(int(avail[k])))
    return leftover
