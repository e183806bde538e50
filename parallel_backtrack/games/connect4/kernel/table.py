"""The Connect-Four transposition table: one uint64 array, one entry a word.

Glossary
--------
entry
    ``(key mod 2^56) << 8 | code`` (0: empty) for the position key ``current +
    mask``; slot ``key % size``, always replace.  One 64-bit word per entry:
    workers sharing a table never see a key with another key's value, a torn or
    stale entry can only cost work.  ``code``: see ``scores``.
size
    An odd prime; with the 56 stored key bits it identifies a key of up to 64
    bits when ``size >= 2^(bits - 56)`` (``table_size`` makes sure).

``store`` and ``load`` are the only code that packs or unpacks an entry: the
compiled search inlines them, the parallel solve calls them from Python.

Example: ``store(t, key, 9)`` then ``load(t, key) == 9``.
"""

from __future__ import annotations

import numba
import numpy as np

from .... import _jit_cache  # noqa: F401  (registers the cache locators before any @njit)

U64 = np.uint64
KEY_BITS = 56
KEY_MASK = U64((1 << KEY_BITS) - 1)
EIGHT = U64(8)
LOW_BYTE = U64(0xFF)
ENTRY_BYTES = 8  # one uint64: 56 key bits and the code's byte


@numba.njit(cache=True, nogil=True, inline="always")
def store(table: np.ndarray, key: np.uint64, code: int) -> None:
    """Write ``code`` for ``key`` (always replace)."""
    table[key % U64(table.shape[0])] = (key & KEY_MASK) << EIGHT | U64(code)


@numba.njit(cache=True, nogil=True, inline="always")
def load(table: np.ndarray, key: np.uint64) -> int:
    """The code stored for ``key``; 0 when the slot is empty or holds another key."""
    entry = table[key % U64(table.shape[0])]
    if entry >> EIGHT != key & KEY_MASK:
        return 0
    return int(entry & LOW_BYTE)


def _prime(size: int) -> bool:
    return all(size % d for d in range(3, int(size**0.5) + 1, 2))


def table_size(megabytes: float, key_bits: int = KEY_BITS) -> int:
    """The largest odd prime number of entries ``megabytes`` hold (fewer slots shared
    by keys that differ in a multiple of the size), at least ``2^(key_bits - 56)`` so
    that the slot and the 56 stored bits tell every key apart."""
    size = max(3, int(megabytes * 2**20) // ENTRY_BYTES) | 1
    while not _prime(size):
        size -= 2
    floor = 1 << max(0, key_bits - KEY_BITS)
    if size < floor:
        size = floor | 1
        while not _prime(size):
            size += 2
    return size
