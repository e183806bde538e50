"""Constant tables of the 9x9 band kernel, built once in Python (numba freezes them).

Glossary
--------
band word
    27 bits: one digit's candidates in one band (three rows of the grid), bit
    ``9 * r + c`` for row ``r`` of the band (0..2) and column ``c`` (0..8).
minirow
    Three cells of one row inside one box; ``r, j`` is row ``r`` of the band,
    box ``j`` of the band.  A band's nine minirows make a 3x3 matrix.
placement matrix
    In a band, a digit lies in each row once and in each box once, so the
    minirows that hold it form a permutation matrix of the 3x3 (row x box)
    matrix.  Likewise in a stack (three boxes side by side vertically) the
    (band x column) matrix of the digit's places.  ``KEEP9[signature]`` is the
    union of the permutation matrices inside ``signature`` (0: none fits).
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

ALL27 = (1 << 27) - 1


def _keep9() -> np.ndarray:
    """For each 9-bit 3x3 matrix (bit ``3 * r + j``), the union of the permutation
    matrices it contains."""
    perms = [sum(1 << (3 * r + p[r]) for r in range(3)) for p in permutations(range(3))]
    table = np.zeros(512, dtype=np.int64)
    for signature in range(512):
        for perm in perms:
            if perm & signature == perm:
                table[signature] |= perm
    return table


def _minirows3() -> np.ndarray:
    """For a 9-bit row, the 3-bit set of boxes where it has a bit."""
    return np.array([sum(1 << j for j in range(3) if (x >> (3 * j)) & 7) for x in range(512)],
                    dtype=np.int64)


def _band_keep() -> np.ndarray:
    """Minirow signature (bit ``3 * r + j``) to the 27-bit cells of the minirows kept."""
    keep = _keep9()
    table = np.zeros(512, dtype=np.int64)
    for signature in range(512):
        table[signature] = sum(7 << (9 * (k // 3) + 3 * (k % 3)) for k in range(9)
                               if (keep[signature] >> k) & 1)
    return table


def _peers() -> np.ndarray:
    """``[cell, band]``: a cell's peers (not itself) as a band word of each band."""
    table = np.zeros((81, 3), dtype=np.int64)
    for cell in range(81):
        row, col = divmod(cell, 9)
        for other in range(81):
            r2, c2 = divmod(other, 9)
            same_box = row // 3 == r2 // 3 and col // 3 == c2 // 3
            if other != cell and (row == r2 or col == c2 or same_box):
                table[cell, r2 // 3] |= 1 << (9 * (r2 % 3) + c2)
    return table


def _row_single() -> np.ndarray:
    """1 where a 9-bit row holds exactly one bit."""
    return np.array([1 if x and not x & (x - 1) else 0 for x in range(512)], dtype=np.int64)


KEEP9 = _keep9()
MINIROWS3 = _minirows3()
BAND_KEEP = _band_keep()
PEERS = _peers()
ROW_SINGLE = _row_single()
