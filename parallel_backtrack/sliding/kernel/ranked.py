"""Compact pattern databases: one entry per placement, by k-permutation rank.

A sparse database (``pdb.py``) has ``N**k`` entries, most never used; for the
8 tiles of the 7-8 partition that would be 4 GB.  Here a placement of k tiles
on N cells is numbered by its rank among the ``N!/(N-k)!`` placements (518,918,400
for 8 tiles on 16 cells), and the breadth-first search runs over states
(rank, blank region) in a byte array, a layer per pass, the passes split over
threads (numba ``prange``).

Glossary
--------
rank
    Of the cells ``c0 .. c(k-1)`` of the pattern's tiles in pattern order: the
    mixed-radix number whose digit i is ``ci`` minus the cells of ``c0..c(i-1)``
    below it (``search.rank_cells``; the IDA* kernel ranks its sparse index the
    same way, ``search.rank_index``).
region
    The cells the blank reaches without moving a pattern tile.  A search state
    is (rank, region), the region named by its lowest cell, stored as the
    number of free cells below that cell: state ``rank * (N - k) + j``.
layer pass
    Every state at distance ``depth`` makes its children (a pattern tile slides
    into a cell of the region): those not seen yet get ``depth + 1``.  Writers
    of one pass only ever store ``depth + 1``, so threads need no locks.
chunk
    ``2**CHUNK_BITS`` states; a flag per chunk and parity says whether it holds
    states of the next layer, so a pass skips empty chunks.
select
    ``SELECT[used * 16 + j]``: the j-th cell not in the bit mask ``used``.

Example: ``build_ranked(4, (1, 2, 3, 4, 5, 6, 7), neighbors_table(4))`` gives
57,657,600 uint8 entries; ``table[rank]`` is the pattern's moves to home.
"""

from __future__ import annotations

from math import perm
from typing import Any

import numpy as np
from numba import njit, prange

from ... import _jit_cache  # noqa: F401  (registers the cache locators before any @njit)
from . import search as kernel

UNSEEN = 255
CHUNK_BITS = 14
SLICES = 256  # calls per layer: a long build still answers Ctrl-C within a second or so


@njit(cache=True, nogil=True)
def region_of(occupied, start, neighbors):
    """Bit mask of the cells the blank reaches from ``start`` without crossing tiles."""
    seen = np.int64(1) << start
    stack = np.empty(64, np.int64)
    stack[0] = start
    top = 1
    while top > 0:
        top -= 1
        cell = stack[top]
        for d in range(4):
            nb = neighbors[cell * 4 + d]
            if nb >= 0 and not (occupied >> nb) & 1 and not (seen >> nb) & 1:
                seen |= np.int64(1) << nb
                stack[top] = nb
                top += 1
    return seen


@njit(cache=True, nogil=True)
def lowest(mask):
    cell = 0
    while not (mask >> cell) & 1:
        cell += 1
    return cell


@njit(cache=True)
def select_table(size):
    """``SELECT[used * 16 + j]``: the j-th free cell of the mask ``used`` (size <= 16)."""
    table = np.zeros((1 << size) * 16, np.int8)
    for used in range(1 << size):
        j = 0
        for cell in range(size):
            if not (used >> cell) & 1:
                table[used * 16 + j] = cell
                j += 1
    return table


@njit(cache=True, nogil=True)
def unrank_cells(rank, k, size, select, cells):
    """The cells of the k tiles of placement ``rank``; returns their bit mask."""
    digits = np.empty(k, np.int64)
    for i in range(k - 1, -1, -1):
        digits[i] = rank % (size - i)
        rank //= size - i
    used = np.int64(0)
    for i in range(k):
        cells[i] = select[used * 16 + digits[i]]
        used |= np.int64(1) << cells[i]
    return used


@njit(cache=True, nogil=True)
def _expand(s, depth, dist, nxt, k, size, free, neighbors, select, cells):
    """Children of state ``s``: unseen ones get ``depth + 1``; returns how many."""
    rank, j = s // free, s % free
    occupied = unrank_cells(rank, k, size, select, cells)
    region = region_of(occupied, select[occupied * 16 + j], neighbors)
    found = 0
    for i in range(k):
        cell = cells[i]
        for d in range(4):
            to = neighbors[cell * 4 + d]
            if to < 0 or not (region >> to) & 1:
                continue
            cells[i] = to
            moved = occupied ^ (np.int64(1) << cell) ^ (np.int64(1) << to)
            low = lowest(region_of(moved, cell, neighbors))
            child = (kernel.rank_cells(cells, k, size) * free + low
                     - kernel.popcount(moved & ((np.int64(1) << low) - 1)))
            cells[i] = cell
            if dist[child] == UNSEEN:
                dist[child] = depth + 1
                nxt[child >> CHUNK_BITS] = 1
                found += 1
    return found


@njit(cache=True, parallel=True)
def layer_pass(dist, flags, depth, k, size, neighbors, select, first, last):
    """Expand the states at ``depth`` in chunks ``first`` .. ``last - 1``; returns the
    number of new states."""
    free = size - k
    cur, nxt = flags[depth & 1], flags[(depth + 1) & 1]
    total = 0
    for c in prange(first, last):
        if cur[c] == 0:
            continue
        cur[c] = 0
        cells = np.empty(k, np.int64)
        stop = min((c + 1) << CHUNK_BITS, dist.shape[0])
        for s in range(c << CHUNK_BITS, stop):
            if dist[s] == depth:
                total += _expand(s, depth, dist, nxt, k, size, free, neighbors, select,
                                 cells)
    return total


@njit(cache=True, parallel=True)
def fold(dist, free, table):
    """``table[rank]``: the least distance over the rank's blank regions."""
    for rank in prange(table.shape[0]):
        best = UNSEEN
        for j in range(free):
            best = min(best, dist[rank * free + j])
        table[rank] = best if best != UNSEEN else 0  # 0: no state (never for k < N - 1)


def build_ranked(n: int, pattern: tuple[int, ...], neighbors: np.ndarray,
                 bar: Any = None) -> np.ndarray:
    """The database of one pattern (blank-first goal), uint8 of length N!/(N-k)!."""
    size, k = n * n, len(pattern)
    free, placements = size - k, perm(size, k)
    select = select_table(size)
    dist = np.full(placements * free, UNSEEN, np.uint8)
    chunks = (dist.shape[0] >> CHUNK_BITS) + 1
    flags = np.zeros((2, chunks), np.uint8)
    cells = np.array(pattern, np.int64)
    occupied = int(sum(1 << t for t in pattern))
    low = int(lowest(region_of(np.int64(occupied), 0, neighbors)))
    start = (int(kernel.rank_cells(cells, k, size)) * free + low
             - int(kernel.popcount(np.int64(occupied & ((1 << low) - 1)))))
    dist[start] = 0
    flags[0, start >> CHUNK_BITS] = 1
    depth, count = 0, 1
    step = max(1, chunks // SLICES)
    while count:
        count = 0
        for first in range(0, chunks, step):  # back in Python between slices: Ctrl-C works
            count += int(layer_pass(dist, flags, depth, k, size, neighbors, select, first,
                                    min(first + step, chunks)))
        depth += 1
        if bar is not None:
            bar.update(count)
    table = np.empty(placements, np.uint8)
    fold(dist, free, table)
    return table
