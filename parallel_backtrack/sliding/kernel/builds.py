"""Sparse pattern-database builds: the breadth-first search over pattern placements.

Glossary
--------
pattern
    A set of tiles (blank-first frame); its database holds, for every placement
    of those tiles, the fewest moves *of pattern tiles* that bring them home.
index
    ``sum(cell_of(pattern[i]) * N**i)``: sparse (some entries never used) but
    updated by one multiply-add when a tile moves.
region
    The cells the blank reaches without moving a pattern tile; a BFS state is
    (index, lowest cell of the blank's region), searched layer by layer.
exact
    ``exact_bfs``: every state of a 2x2 or 3x3 board (181,440 on 3x3) by the
    rank of the whole permutation.

Example: ``build_pattern(4, (13, 14, 15), neighbors_table(4))`` is a uint8 array of
16**3 entries, 0 at the pattern's home placement.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ... import _jit_cache  # noqa: F401  (registers the cache locators before any @njit)
from . import search as kernel
from .ranked import lowest, region_of

UNSEEN = 255


@njit(cache=True, nogil=True)
def expand_layer(layer, count, depth, table, seen, k, size, neighbors, powers):
    """The next BFS layer of (index, region cell) states; fills ``table`` and ``seen``."""
    out = np.empty(max(16, 2 * count), np.int64)
    found = 0
    pos = np.empty(k, np.int64)
    for s in range(count):
        index, blank = layer[s] // size, layer[s] % size
        occupied = np.int64(0)
        for i in range(k):
            pos[i] = (index // powers[i]) % size
            occupied |= np.int64(1) << pos[i]
        region = region_of(occupied, blank, neighbors)
        for i in range(k):
            cell = pos[i]
            for d in range(4):
                to = neighbors[cell * 4 + d]
                if to < 0 or not (region >> to) & 1:
                    continue
                child = index + (to - cell) * powers[i]
                moved = (occupied & ~(np.int64(1) << cell)) | (np.int64(1) << to)
                key = child * size + lowest(region_of(moved, cell, neighbors))
                if seen[key >> 3] & (1 << (key & 7)):
                    continue
                seen[key >> 3] |= 1 << (key & 7)
                if table[child] == UNSEEN:
                    table[child] = depth + 1
                if found == out.shape[0]:
                    out = np.concatenate((out, np.empty(found, np.int64)))
                out[found] = key
                found += 1
    return out, found


@njit(cache=True, nogil=True)
def _unrank(rank, size, out):
    free = np.arange(size)
    left = size
    for i in range(size):
        f = 1
        for j in range(2, left):
            f *= j
        pick = rank // f
        rank %= f
        out[i] = free[pick]
        free[pick: left - 1] = free[pick + 1: left]
        left -= 1


@njit(cache=True, nogil=True)
def exact_bfs(size, neighbors, total):
    """Distances of every state from the blank-first goal, by permutation rank."""
    dist = np.full(total, UNSEEN, np.uint8)
    queue = np.empty(total, np.int64)
    tiles = np.arange(size).astype(np.int8)
    queue[0] = kernel.exact_rank(tiles)
    dist[queue[0]] = 0
    head, tail = 0, 1
    while head < tail:
        _unrank(queue[head], size, tiles)
        head += 1
        here = dist[kernel.exact_rank(tiles)]
        blank = 0
        while tiles[blank] != 0:
            blank += 1
        for d in range(4):
            nb = neighbors[blank * 4 + d]
            if nb < 0:
                continue
            tiles[blank], tiles[nb] = tiles[nb], 0
            rank = kernel.exact_rank(tiles)
            if dist[rank] == UNSEEN:
                dist[rank] = here + 1
                queue[tail] = rank
                tail += 1
            tiles[nb], tiles[blank] = tiles[blank], 0
    return dist


def build_pattern(n: int, pattern: tuple[int, ...], neighbors: np.ndarray,
                  bar: Any = None) -> np.ndarray:
    """The database of one pattern (blank-first goal): uint8 of length N**k."""
    size, k = n * n, len(pattern)
    powers = np.array([size**i for i in range(k)], np.int64)
    table = np.full(size**k, UNSEEN, np.uint8)
    seen = np.zeros(size**k * size // 8 + 1, np.uint8)
    index = int(sum(t * size**i for i, t in enumerate(pattern)))
    table[index] = 0
    occupied = sum(1 << t for t in pattern)
    key = index * size + int(lowest(region_of(np.int64(occupied), 0, neighbors)))
    seen[key >> 3] |= 1 << (key & 7)
    layer, count, depth = np.array([key], np.int64), 1, 0
    while count:
        layer, count = expand_layer(layer, count, depth, table, seen, k, size, neighbors,
                                    powers)
        depth += 1
        if bar is not None:
            bar.update(count)
    table[table == UNSEEN] = 0  # placements no state has (two tiles on one cell)
    return table
