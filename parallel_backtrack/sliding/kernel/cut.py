"""The compiled cut: the subtrees below a bound at one depth, for the parallel IDA*.

The parent of a parallel IDA* iteration cuts the tree at ``depth`` into subtrees and
hands them to workers.  Here that cut runs depth-first in numba, with the IDA*
pass's rules (``search.py``): the same move order, no move straight back, every
child generated counts once, a child whose f exceeds the bound counts and gives the
next bound, a goal within the bound is not expanded.  Nodes above the cut depth are
counted here; the workers count what is below each subtree root, so the two add up
to the sequential count.

Glossary
--------
frontier
    The nodes at ``depth`` with f <= bound, in the sequential search's order:
    ``out_tiles[i]`` (blank-first frame), ``out_codes[i]`` (the path from the
    root, one base-4 digit per move, first move most significant: codes rise in
    search order) and ``out_last[i]`` (the last move).
result
    ``(count, nodes, next_bound, goal_depth, goal_before)``: the frontier size
    (it may exceed the arrays' length: then only the first ones are written),
    nodes generated, the least f over the bound, the depth of the first goal met
    above the cut (-1: none; its moves in ``goal_path``) and how many frontier
    nodes precede it in search order.

Example: ``cut(tiles, 4, 50, 6, *tables.kernel_args()[:9], neighbors, aux, out_tiles,
out_codes, out_last, goal_path)`` lists the frontier at depth 6.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ... import _jit_cache  # noqa: F401  (registers the cache locators before any @njit)
from .search import MAX_DEPTH, NO_BOUND, _is_goal, initial_h


@njit(cache=True, nogil=True)
def cut(tiles, n, bound, depth_limit, kind, cost, tables, offsets, group, stride, rtile,
        rcell, reflect, neighbors, aux0, out_tiles, out_codes, out_last, goal_path):
    """The frontier at ``depth_limit`` below ``bound`` from ``tiles`` (restored on
    return); see the module glossary for what it returns."""
    size = n * n
    blanks = np.zeros(depth_limit + 1, np.int64)
    dirs = np.zeros(depth_limit + 1, np.int64)
    path = np.zeros(depth_limit + 1, np.int64)
    codes = np.zeros(depth_limit + 1, np.int64)
    blank = 0
    while tiles[blank] != 0:
        blank += 1
    blanks[0] = blank
    depth, nodes, count = 0, 0, 0
    next_bound = NO_BOUND
    goal_depth, goal_before = -1, 0
    cap = out_codes.shape[0]
    while depth >= 0:
        d = dirs[depth]
        if d == 4:
            if depth > 0:
                a, b = blanks[depth - 1], blanks[depth]
                tiles[b] = tiles[a]
                tiles[a] = 0
            depth -= 1
            continue
        dirs[depth] = d + 1
        prev = path[depth - 1] if depth > 0 else -1
        a = blanks[depth]
        b = neighbors[a * 4 + d]
        if b < 0 or d == 3 - prev:
            continue
        nodes += 1
        t = tiles[b]
        tiles[a] = t
        tiles[b] = 0
        h = initial_h(tiles, n, kind, cost, tables, offsets, group, stride, rtile, rcell,
                      reflect, aux0)
        f = depth + 1 + h
        path[depth] = d
        codes[depth + 1] = codes[depth] * 4 + d
        if f > bound or depth + 1 >= MAX_DEPTH:
            next_bound = min(next_bound, f)
        elif h == 0 and _is_goal(tiles):
            if goal_depth < 0:
                goal_depth, goal_before = depth + 1, count
                goal_path[: depth + 1] = path[: depth + 1]
        elif depth + 1 == depth_limit:
            if count < cap:
                out_tiles[count, :size] = tiles[:size]
                out_codes[count] = codes[depth + 1]
                out_last[count] = d
            count += 1
        else:
            depth += 1
            blanks[depth], dirs[depth] = b, 0
            continue
        tiles[b] = t
        tiles[a] = 0
    return count, nodes, next_bound, goal_depth, goal_before
