"""The compiled IDA* iteration: one depth-first pass below a bound, resumable.

Everything here works in the *blank-first* frame (goal ``0 1 .. N-1``, tile t
belongs on cell t); ``heuristics.to_frame`` turns a blank-last board around into it.

Glossary
--------
N, n
    Cells and width (N = n * n, n <= 10).
move d
    The blank's direction, tried in the fixed order 0 = UP, 1 = LEFT,
    2 = RIGHT, 3 = DOWN; the reverse of d is ``3 - d`` and is never tried right
    after d (no move back to the parent).
neighbors[cell * 4 + d]
    The cell the blank reaches from ``cell`` by move d, or -1 off the board.
nodes
    Children generated: each child made counts once, also one whose f exceeds
    the bound (Korf's rule; the driver adds 1 for the root, once per search).
kind
    The heuristic: ``PER_TILE`` (a table ``cost[t * N + cell]``, Manhattan or
    Hamming, updated by the one tile that moved), ``LINEAR`` (Manhattan plus
    linear conflicts, the two changed lines recomputed), ``PATTERN`` (additive
    disjoint pattern databases, indices updated incrementally, optionally the
    max with the main-diagonal reflection) and ``EXACT`` (a full table ranked
    by the whole permutation: 2x2 and 3x3).  ``RANKED`` is PATTERN with compact
    tables: a group's sparse index (its tiles' cells as base-N digits) is turned
    into its k-permutation rank at each lookup (``rank_index``); ``cost[g]``
    then holds group g's tile count.
aux[depth]
    Per-depth heuristic state: LINEAR keeps the Manhattan sum and the conflict
    cost of every row then column; PATTERN keeps each group's index, the
    reflected indices, then each group's table value and its reflected value
    (a move reads two table entries, the moved tile's group and its mirror's).
reg
    The registers of a paused search: depth, nodes so far, next bound, the
    depth of the first goal found (-1: none).  Nodes expanded (children within
    the bound, entered) are not counted: the counter cost the Manhattan loop 9%
    of its node rate.
status
    ``DONE`` (the pass ended), ``FOUND`` (goal, stopping at the first) or
    ``PAUSED`` (the node budget of this call ran out; call again to go on).

Example: ``ida.solve(Board(...), "manhattan")`` calls ``search`` once per bound.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ... import _jit_cache  # noqa: F401  (registers the cache locators before any @njit)

PER_TILE, LINEAR, PATTERN, EXACT, RANKED = 0, 1, 2, 3, 4
DONE, FOUND, PAUSED = 0, 1, 2
DEPTH, NODES, NEXT, GOAL = 0, 1, 2, 3
MAX_DEPTH = 400
NO_BOUND = 1 << 40


@njit(cache=True, nogil=True)
def line_conflicts(tiles, n, line, is_row):
    """2 x (tiles to take out of this line so the rest of its goal-line tiles are in
    order): the linear-conflict cost of one row or column (by longest increasing run)."""
    seq = np.empty(n, np.int64)
    k = 0
    for i in range(n):
        cell = line * n + i if is_row else i * n + line
        t = tiles[cell]
        if t != 0 and (t // n == line if is_row else t % n == line):
            seq[k] = t % n if is_row else t // n
            k += 1
    if k < 2:
        return 0
    best = np.ones(k, np.int64)
    longest = 1
    for i in range(k):
        for j in range(i):
            if seq[j] < seq[i] and best[j] + 1 > best[i]:
                best[i] = best[j] + 1
        longest = max(longest, best[i])
    return 2 * (k - longest)


@njit(cache=True, nogil=True)
def exact_rank(tiles):
    """The lexicographic rank of the permutation ``tiles`` (index of the EXACT table)."""
    size = tiles.shape[0]
    rank = 0
    for i in range(size):
        smaller = 0
        for j in range(i + 1, size):
            if tiles[j] < tiles[i]:
                smaller += 1
        rank = rank * (size - i) + smaller
    return rank


@njit(cache=True, nogil=True)
def popcount(x):
    """Set bits of a mask below 2**32 (SWAR; LLVM turns it into one instruction)."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@njit(cache=True, nogil=True)
def rank_cells(cells, k, size):
    """The rank of k distinct cells among the N!/(N-k)! placements (first most
    significant; digit i = ``cells[i]`` minus the earlier cells below it)."""
    used = np.int64(0)
    rank = np.int64(0)
    for i in range(k):
        cell = np.int64(cells[i])
        rank = rank * (size - i) + cell - popcount(used & ((np.int64(1) << cell) - 1))
        used |= np.int64(1) << cell
    return rank


@njit(cache=True, nogil=True)
def rank_index(index, k, size):
    """``rank_cells`` of the cells packed in a sparse index (digit i = tile i's cell)."""
    used = np.int64(0)
    rank = np.int64(0)
    for i in range(k):
        if size == 16:
            cell = (index >> (4 * i)) & 15
        else:
            cell = index % size
            index //= size
        rank = rank * (size - i) + cell - popcount(used & ((np.int64(1) << cell) - 1))
        used |= np.int64(1) << cell
    return rank


@njit(cache=True, nogil=True)
def _entry(tables, offsets, g, index, kind, cost, size):
    """The table value of group g at sparse ``index`` (ranked first for RANKED)."""
    if kind == RANKED:
        return tables[offsets[g] + rank_index(index, cost[g], size)]
    return tables[offsets[g] + index]


@njit(cache=True, nogil=True)
def _pattern_h(row, groups):
    """max(plain sum, mirrored sum) of the per-group values kept in ``row``."""
    plain = 0
    mirror = 0
    for g in range(groups):
        plain += row[2 * groups + g]
        mirror += row[3 * groups + g]
    return max(plain, mirror)


@njit(cache=True, nogil=True)
def initial_h(tiles, n, kind, cost, tables, offsets, group, stride, rtile, rcell, reflect, aux0):
    """The root's heuristic value, filling ``aux0`` (its per-depth state)."""
    size = n * n
    if kind == EXACT:
        return np.int64(tables[exact_rank(tiles)])
    if kind == PATTERN or kind == RANKED:
        groups = offsets.shape[0]
        aux0[: 2 * groups] = 0
        for cell in range(size):
            t = tiles[cell]
            if t != 0:
                aux0[group[t]] += cell * stride[t]
                rt = rtile[t]
                aux0[groups + group[rt]] += rcell[cell] * stride[rt]
        if not reflect:
            aux0[groups: 2 * groups] = aux0[:groups]
        for g in range(groups):
            aux0[2 * groups + g] = _entry(tables, offsets, g, aux0[g], kind, cost, size)
            aux0[3 * groups + g] = _entry(tables, offsets, g, aux0[groups + g], kind, cost,
                                          size)
        return np.int64(_pattern_h(aux0, groups))
    md = 0
    for cell in range(size):
        if tiles[cell] != 0:
            md += cost[tiles[cell] * size + cell]
    if kind == PER_TILE:
        return np.int64(md)
    aux0[0] = md
    total = md
    for line in range(n):
        aux0[2 + line] = line_conflicts(tiles, n, line, True)
        aux0[2 + n + line] = line_conflicts(tiles, n, line, False)
        total += aux0[2 + line] + aux0[2 + n + line]
    return np.int64(total)


@njit(cache=True, nogil=True)
def _linear_h(tiles, n, cost, row, t, b, a, d):
    """Manhattan plus linear conflicts after tile ``t`` slid from ``b`` to ``a`` (tiles
    already moved): only the two lines the tile left and entered change."""
    size = n * n
    row[0] += cost[t * size + a] - cost[t * size + b]
    if d == 1 or d == 2:  # the tile slid along its row: its old and new column change
        first, second, base, is_row = b % n, a % n, 2 + n, False
    else:
        first, second, base, is_row = b // n, a // n, 2, True
    row[base + first] = line_conflicts(tiles, n, first, is_row)
    row[base + second] = line_conflicts(tiles, n, second, is_row)
    total = row[0]
    for i in range(2 * n):
        total += row[2 + i]
    return total


@njit(cache=True, nogil=True)
def search(tiles, n, g0, bound, first_move, kind, cost, tables, offsets, group, stride,
           rtile, rcell, reflect, neighbors, blanks, dirs, path, hs, aux, reg, budget,
           stop_at_goal, best):
    """Go on with the depth-first pass below ``bound`` from the state in the arrays
    (``reg[DEPTH] = 0`` with ``blanks[0]``, ``hs[0]``, ``aux[0]`` set starts one) for
    at most about ``budget`` nodes.  ``best`` receives the moves of the first goal."""
    depth = reg[DEPTH]
    size = n * n
    groups = offsets.shape[0]
    nodes = np.int64(0)
    next_bound = reg[NEXT]
    while depth >= 0:
        if nodes >= budget:
            reg[DEPTH], reg[NODES], reg[NEXT] = depth, reg[NODES] + nodes, next_bound
            return PAUSED
        d = dirs[depth]
        if d == 4:
            if depth > 0:  # undo the move into this depth
                a, b = blanks[depth - 1], blanks[depth]
                tiles[b] = tiles[a]
                tiles[a] = 0
            depth -= 1
            continue
        dirs[depth] = d + 1
        prev = path[depth - 1] if depth > 0 else first_move
        a = blanks[depth]
        b = neighbors[a * 4 + d]
        if b < 0 or d == 3 - prev:
            continue
        nodes += 1
        t = tiles[b]
        if kind == PER_TILE:  # the common case, kept inline, tiles moved only if kept
            h = hs[depth] + cost[t * size + a] - cost[t * size + b]
            f = g0 + depth + 1 + h
            if f > bound or depth + 1 >= MAX_DEPTH:
                if f < next_bound:
                    next_bound = f
                continue
            tiles[a] = t
            tiles[b] = 0
        elif kind == PATTERN or kind == RANKED:  # inline: a call with many arrays costs
            row = aux[depth + 1]
            row[:] = aux[depth]
            g = group[t]
            row[g] += (a - b) * stride[t]
            row[2 * groups + g] = _entry(tables, offsets, g, row[g], kind, cost, size)
            if reflect:
                rt = rtile[t]
                rg = group[rt]
                row[groups + rg] += (rcell[a] - rcell[b]) * stride[rt]
                row[3 * groups + rg] = _entry(tables, offsets, rg, row[groups + rg], kind,
                                              cost, size)
            else:
                row[groups + g] = row[g]
                row[3 * groups + g] = row[2 * groups + g]
            h = _pattern_h(row, groups)
            f = g0 + depth + 1 + h
            if f > bound or depth + 1 >= MAX_DEPTH:
                if f < next_bound:
                    next_bound = f
                continue
            tiles[a] = t
            tiles[b] = 0
        else:
            tiles[a] = t
            tiles[b] = 0
            if kind == EXACT:
                h = np.int64(tables[exact_rank(tiles)])
            else:
                row = aux[depth + 1]
                row[:] = aux[depth]
                h = _linear_h(tiles, n, cost, row, t, b, a, d)
            f = g0 + depth + 1 + h
            if f > bound or depth + 1 >= MAX_DEPTH:
                if f < next_bound:
                    next_bound = f
                tiles[b] = t
                tiles[a] = 0
                continue
        path[depth] = d
        depth += 1
        blanks[depth], hs[depth], dirs[depth] = b, h, 0
        if h == 0 and _is_goal(tiles):
            if reg[GOAL] < 0:
                reg[GOAL] = depth
                best[:depth] = path[:depth]
            dirs[depth] = 4
            if stop_at_goal:
                reg[DEPTH], reg[NODES], reg[NEXT] = depth, reg[NODES] + nodes, next_bound
                return FOUND
    reg[DEPTH], reg[NODES], reg[NEXT] = -1, reg[NODES] + nodes, next_bound
    return DONE


@njit(cache=True, nogil=True)
def search_tile(tiles, n, g0, bound, first_move, cost, neighbors, blanks, dirs, path, hs,
                reg, budget, stop_at_goal, best):
    """``search`` for the PER_TILE heuristics alone: the lean loop (the pattern and
    linear-conflict branches in the same loop cost Manhattan a third of its rate)."""
    depth = reg[DEPTH]
    size = n * n
    nodes = np.int64(0)
    next_bound = reg[NEXT]
    limit = bound - g0  # a child with depth + 1 + h above this is pruned
    while depth >= 0:
        if nodes >= budget:
            reg[DEPTH], reg[NODES], reg[NEXT] = depth, reg[NODES] + nodes, next_bound
            return PAUSED
        d = dirs[depth]
        if d == 4:
            if depth > 0:
                a, b = blanks[depth - 1], blanks[depth]
                tiles[b] = tiles[a]
                tiles[a] = 0
            depth -= 1
            continue
        dirs[depth] = d + 1
        prev = path[depth - 1] if depth > 0 else first_move
        a = blanks[depth]
        b = neighbors[a * 4 + d]
        if b < 0 or d == 3 - prev:
            continue
        nodes += 1
        t = tiles[b]
        h = hs[depth] + cost[t * size + a] - cost[t * size + b]
        if depth + 1 + h > limit or depth + 1 >= MAX_DEPTH:
            if g0 + depth + 1 + h < next_bound:
                next_bound = g0 + depth + 1 + h
            continue
        tiles[a] = t
        tiles[b] = 0
        path[depth] = d
        depth += 1
        blanks[depth], hs[depth], dirs[depth] = b, h, 0
        if h == 0 and _is_goal(tiles):
            if reg[GOAL] < 0:
                reg[GOAL] = depth
                best[:depth] = path[:depth]
            dirs[depth] = 4
            if stop_at_goal:
                reg[DEPTH], reg[NODES], reg[NEXT] = depth, reg[NODES] + nodes, next_bound
                return FOUND
    reg[DEPTH], reg[NODES], reg[NEXT] = -1, reg[NODES] + nodes, next_bound
    return DONE


@njit(cache=True, nogil=True)
def _is_goal(tiles):
    for cell in range(tiles.shape[0]):
        if tiles[cell] != cell:
            return False
    return True
