"""The independent N-Queens checker: every reported solution goes through it.

Glossary
--------
cols
    One column per row, rows 0..n-1 (a full placement), as a sequence or a
    numpy integer array.

A placement solves N-Queens when the columns are a permutation of 0..n-1 and
all ``row + col`` and all ``row - col`` are distinct.  O(n) with numpy, and
shares no code with any search.

Example: ``is_queens_solution([1, 3, 0, 2])`` is True.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

_CHECK_CHUNK = 1 << 16


def is_queens_solution(cols: Sequence[int] | np.ndarray) -> bool:
    """True when ``cols`` is a permutation of 0..n-1 with all r+c and all r-c distinct.

    Independent of every search here; O(n) with numpy counts.  Anything that is not
    a non-empty 1-d sequence of integers is simply not a solution.
    """
    import numpy as np  # here, so that importing the package does not load numpy

    try:
        arr = np.asarray(cols)
    except (TypeError, ValueError):
        return False
    if arr.ndim != 1 or arr.size == 0 or arr.dtype.kind not in "iu":
        return False
    n = arr.size
    if arr.min() < 0 or arr.max() >= n:
        return False
    seen_col = np.zeros(n, dtype=np.bool_)
    seen_sum = np.zeros(2 * n - 1, dtype=np.bool_)
    seen_diff = np.zeros(2 * n - 1, dtype=np.bool_)
    # In chunks, so n = 10^7 needs a byte per line and no 80 MB temporaries.
    for start in range(0, n, _CHECK_CHUNK):
        part = arr[start:start + _CHECK_CHUNK].astype(np.int64)
        rows = np.arange(start, start + part.size, dtype=np.int64)
        seen_col[part] = True
        seen_sum[rows + part] = True
        seen_diff[rows - part + (n - 1)] = True
    # n values mark n distinct slots exactly when no two of them are equal.
    return all(np.count_nonzero(seen) == n for seen in (seen_col, seen_sum, seen_diff))
