"""Compiled counters for the canonical tree and for rotation-symmetric solutions.

``count_canonical`` walks the canonical tree of ``nqueens/symmetry.py`` below one of its
boards exactly as the generic search does (same children, same nodes) and adds
each kept leaf's orbit size: 8, 4 or 2.  Like ``subtree.py`` it keeps an explicit
stack, tries the lowest free bit first, stops at a node budget and hands back its
open stack.  ``count_rotation_symmetric`` counts the solutions a quarter or half
turn maps onto themselves, for Burnside's count of classes.

Glossary
--------
first, depth k
    ``first`` is the root's first empty row; depth k fills row ``first + k``
    (canonical boards fill rows from the top, so no row is skipped).
stack[k]
    One row per depth: ``avail`` (columns still to try), ``cols``, ``ld``,
    ``rd`` (attacked columns by column, "\\" and "/" diagonal, as in
    ``subtree.py``) and the columns ``closed`` in the row below.  One base
    address for everything the loop touches keeps its values in registers.
closed[row]
    Columns the canonical tree shuts in ``row`` (the complement of
    ``symmetry.allowed_mask``); ``closed[m]`` also serves the bottom-row check:
    a board whose empty bottom row has no square left is a dead end.
queen_bits[row]
    The bit of the queen's column in each row, rebuilt at a leaf for its test
    (the bit chosen at depth k is ``stack[k + 1].cols ^ stack[k].cols``).
tie
    A second border queen as central as the top one: in the bottom row's
    columns ``top`` or ``m - top`` (``tie_bottom``) or in a side column of rows
    ``top`` or ``m - top``.  Only then can another image start like the leaf;
    without a tie the leaf is its own canonical form with an orbit of 8.
image g
    ``1..7``: rot90, rot180, rot270, mirror, flip, transpose, antitranspose;
    ``_image_at(g, x, ...)`` is the column of the image's queen in row x.
node
    As in the generic canonical tree: each placement (the root included) and
    each image below a kept leaf.

Example: ``count_canonical(ImmutableQueenLocations(8), 10**9)`` gives ``(92, 463, [])``;
every one of the 12 classes has a border queen in a centre column, so the
whole count sits below ``from_columns([3] + [-1] * 7)``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from ... import _jit_cache  # noqa: F401  (registers the cache locators before any @njit)
from ...engine.checks import check_int
from ..board import MAX_KERNEL_SIZE, ImmutableQueenLocations, bits
from ..symmetry import allowed_mask, bottom_row_shut, is_canonical, orbit, top_columns

_DEBRUIJN = 0x022FDD63CC95386D
# _BIT_INDEX[(bit * _DEBRUIJN mod 2**64) >> 58] is the index of a one-bit ``bit``.
_BIT_INDEX = np.zeros(64, dtype=np.int64)
for _index in range(64):
    _BIT_INDEX[(((1 << _index) * _DEBRUIJN) % (1 << 64)) >> 58] = _index


@njit(cache=True, nogil=True)
def _bit_index(bit, table):
    return table[(np.uint64(bit) * np.uint64(_DEBRUIJN)) >> np.uint64(58)]


@njit(cache=True, nogil=True)
def _image_at(g, x, m, cols, rows):
    if g == 1:
        return m - rows[x]
    if g == 2:
        return m - cols[m - x]
    if g == 3:
        return rows[m - x]
    if g == 4:
        return m - cols[x]
    if g == 5:
        return cols[m - x]
    if g == 6:
        return rows[x]
    return m - rows[m - x]


@njit(cache=True, nogil=True)
def _leaf_class(queen_bits, n, table, cols, rows):
    """0 if an image of the full board sorts first, else the orbit size."""
    m = n - 1
    for row in range(n):
        col = _bit_index(queen_bits[row], table)
        cols[row] = col
        rows[col] = row
    top = min(cols[0], m - cols[0])
    same = 1
    for g in range(1, 8):
        head = _image_at(g, 0, m, cols, rows)
        if min(head, m - head) != top:
            continue  # a less central top queen sorts later
        sign = 0
        for x in range(n):
            value = _image_at(g, x, m, cols, rows)
            if value != cols[x]:
                sign = 1 if value > cols[x] else -1
                break
        if sign < 0:
            return 0
        if sign == 0:
            same += 1
    return 8 // same


@njit(cache=True, nogil=True)
def _run(n, first, start, closed, tie_bottom, tie_rows, budget, queen_bits, scratch):
    """Count below the start state: (weighted count, nodes, depth left open or -1, stack).

    ``stack[k]`` holds avail, cols, ld, rd and ``closed`` of the row below, one
    row per depth: a single base address keeps the loop's values in registers.
    """
    full = (np.int64(1) << n) - 1
    side = np.int64(1) | (np.int64(1) << (n - 1))
    one, last, base = np.uint64(1), np.uint64(n - 1 - first), np.uint64(first)
    shut_bottom = closed[n - 1]
    stack = np.zeros((n - first, 8), dtype=np.int64)
    for k in range(n - first - 1):
        stack[k, 4] = closed[first + k + 1]
    stack[0, 1], stack[0, 2], stack[0, 3] = start[0], start[1], start[2]
    stack[0, 0] = full & ~(start[0] | start[1] | start[2] | closed[first])
    count = nodes = np.int64(0)
    open_depth = np.int64(-1)
    k = np.uint64(0)
    while True:
        free = stack[k, 0]
        if free == 0:
            if k == 0:
                break
            k -= one
            continue
        if nodes >= budget:
            open_depth = np.int64(k)
            break
        bit = free & -free
        stack[k, 0] = free ^ bit
        nodes += 1
        if k == last:
            for j in range(k):
                queen_bits[base + j] = stack[j + one, 1] ^ stack[j, 1]
            queen_bits[base + k] = bit
            tie = (bit & tie_bottom) | ((queen_bits[tie_rows[0]] | queen_bits[tie_rows[1]]) & side)
            weight = _leaf_class(queen_bits, n, _BIT_INDEX, scratch[0], scratch[1]) if tie else 8
            count += weight
            nodes += weight
            continue
        c = stack[k, 1] | bit
        left = ((stack[k, 2] | bit) << 1) & full
        right = (stack[k, 3] | bit) >> 1
        below = full & ~(c | left | right | stack[k, 4])
        gap = np.int64(last - k - one)  # rows from the next one down to the bottom
        if below == 0 or full & ~(c | (left << gap) | (right >> gap) | shut_bottom) == 0:
            continue  # a dead end (the next row or the bottom row is shut): no children
        k += one
        stack[k, 0], stack[k, 1], stack[k, 2], stack[k, 3] = below, c, left, right
    return count, nodes, open_depth, stack


def count_canonical(board: ImmutableQueenLocations, budget: int) -> tuple[int, int, list]:
    """(orbit-weighted count, nodes, leftover boards) below a canonical-tree board.

    ``board`` is empty or has rows 0..r filled, with row 0 in ``top_columns``;
    ``nodes`` counts the board itself, as the generic search does.
    """
    n = board.board_size
    if n > MAX_KERNEL_SIZE:
        raise ValueError(f"the compiled kernel handles boards up to {MAX_KERNEL_SIZE}, got {n}")
    if board.filled == 0:
        return _count_from_empty(board, budget)
    first = _check_canonical_prefix(board)
    if first == n:
        weight = len(orbit(board.queens)) if is_canonical(board.queens) else 0
        return weight, 1 + weight, []
    if bottom_row_shut(board):
        return 0, 1, []
    top = board.queens[0]
    queen_bits = np.zeros(n, dtype=np.int64)
    queen_bits[:first] = [1 << col for col in board.queens[:first]]
    count, nodes, depth, stack = _run(n, first, _start_masks(board, first), _closed(n, top),
                                      *_ties(n, top), max(0, budget - 1), queen_bits,
                                      np.zeros((2, n), dtype=np.int64))
    return int(count), int(nodes) + 1, _open_stack(board, first, int(depth), stack)


def _count_from_empty(board: ImmutableQueenLocations, budget: int) -> tuple[int, int, list]:
    """The empty board: itself, then its children in order while the budget lasts."""
    count, nodes = 0, 1
    leftover: list[ImmutableQueenLocations] = []
    for col in top_columns(board.board_size):
        child = board.place(0, col)
        if nodes >= budget or leftover:
            leftover.append(child)
            continue
        got, visited, rest = count_canonical(child, budget - nodes)
        count, nodes, leftover = count + got, nodes + visited, rest
    return count, nodes, leftover


def _check_canonical_prefix(board: ImmutableQueenLocations) -> int:
    """The number of filled rows, after checking the board is in the canonical tree."""
    first = board.filled.bit_length()
    if board.filled != (1 << first) - 1:
        raise ValueError(f"canonical boards fill rows from the top, got queens {board.queens}")
    if board.queens[0] not in top_columns(board.board_size):
        raise ValueError(f"row 0's queen must be in one of {top_columns(board.board_size)} "
                         f"on a canonical board, got column {board.queens[0]}")
    return first


def _start_masks(board: ImmutableQueenLocations, first: int) -> np.ndarray:
    """cols, ld, rd as seen from row ``first``."""
    ld = rd = 0
    for row, col in enumerate(board.queens[:first]):
        ld |= 1 << (col + first - row)
        rd |= (1 << (col - first + row)) if col - first + row >= 0 else 0
    full = (1 << board.board_size) - 1
    return np.array([board.cols, ld & full, rd], dtype=np.int64)


@lru_cache(maxsize=256)
def _closed(n: int, top: int) -> np.ndarray:
    """``closed`` for one top column (cached: every call below that root needs it)."""
    full = (1 << n) - 1
    closed = np.array([0] + [full & ~allowed_mask(n, top, row) for row in range(1, n)],
                      dtype=np.int64)
    closed.flags.writeable = False
    return closed


@lru_cache(maxsize=256)
def _ties(n: int, top: int) -> tuple[int, np.ndarray]:
    m = n - 1
    rows = np.array([top, m - top], dtype=np.uint64)
    rows.flags.writeable = False
    return (1 << top) | (1 << (m - top)), rows


def _open_stack(board: ImmutableQueenLocations, first: int, depth: int,
                stack: np.ndarray) -> list[ImmutableQueenLocations]:
    """The unexplored boards on the stack, deepest level first (search order)."""
    if depth < 0:
        return []
    prefixes = [board]
    for k in range(depth):
        col = int(stack[k + 1, 1] ^ stack[k, 1]).bit_length() - 1
        prefixes.append(prefixes[-1].place(first + k, col))
    leftover: list[ImmutableQueenLocations] = []
    for k in range(depth, -1, -1):
        leftover.extend(prefixes[k].place(first + k, col) for col in bits(int(stack[k, 0])))
    return leftover


# -- rotation-symmetric solutions -----------------------------------------------
@njit(cache=True, nogil=True)
def _rotation_symmetric(n, turns):
    """Solutions that ``turns`` quarter turns (1 or 2) map onto themselves.

    Each step fills the first empty row and, with it, the whole orbit of that
    square under the turn, so every board reached is symmetric.
    """
    m, full = n - 1, (np.int64(1) << n) - 1
    masks = np.zeros((4, n + 1), dtype=np.int64)  # rows, cols, "\\" and "/" diagonals
    row_at = np.zeros(n + 1, dtype=np.int64)
    next_col = np.zeros(n + 1, dtype=np.int64)
    count, depth = 0, 0
    while depth >= 0:
        filled = masks[0, depth]
        if filled == full or next_col[depth] == n:
            if filled == full:
                count += 1
            depth -= 1
            continue
        r, c = row_at[depth], next_col[depth]
        next_col[depth] = c + 1
        rows, cols, diag, anti = masks[0, depth], masks[1, depth], masks[2, depth], masks[3, depth]
        rr, cc, ok = r, c, True
        while ok:
            ok = not ((rows >> rr) & 1 or (cols >> cc) & 1 or (diag >> (rr - cc + m)) & 1
                      or (anti >> (rr + cc)) & 1)
            rows, cols = rows | (np.int64(1) << rr), cols | (np.int64(1) << cc)
            diag, anti = diag | (np.int64(1) << (rr - cc + m)), anti | (np.int64(1) << (rr + cc))
            for _ in range(turns):
                rr, cc = cc, m - rr
            if rr == r and cc == c:
                break
        if ok:
            depth += 1
            masks[0, depth], masks[1, depth], masks[2, depth], masks[3, depth] = (rows, cols,
                                                                                 diag, anti)
            row_at[depth] = _bit_index(~rows & (rows + 1), _BIT_INDEX)
            next_col[depth] = 0
    return count


def count_rotation_symmetric(n: int, turns: int) -> int:
    """How many n-queens solutions a quarter turn (``turns=1``) or a half turn
    (``turns=2``) maps onto themselves (OEIS A033148 and A032522)."""
    if turns not in (1, 2):
        raise ValueError(f"turns must be 1 (quarter turn) or 2 (half turn), got {turns!r}")
    check_int("board size", n, low=1, high=MAX_KERNEL_SIZE)
    return int(_rotation_symmetric(n, turns))
