"""Depth-first search of the 9x9 band kernel, and the batch entry point.

Glossary
--------
stack
    ``int64 [levels, WORDS]``: ``stack[depth]`` is the state at ``depth``
    guesses (``band.py``); 82 levels always suffice.
node
    A state taken off the stack (the root included): every guess makes one,
    dead ends too, as in ``kernel/search.py``.
limit, budget
    Stop counting at ``limit`` solutions (0: count all); leave a puzzle
    ``UNFINISHED`` (-1) after ``budget`` nodes (0: no budget).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .band import (
    ALL27,
    DEAD,
    NO_REFCOUNTS,
    SOLVED,
    WORDS,
    bit_count,
    choose_cell,
    digits_of,
    hot_njit,
    inline_njit,
    load_givens,
    low_index,
    place,
    propagate,
)

UNFINISHED = -1
LEVELS = 82


@inline_njit
def _copy_state(s, source, target):  # type: ignore[no-untyped-def]
    for w in range(WORDS):
        s[target, w] = s[source, w]


@inline_njit
def _is_solved(s, k):  # type: ignore[no-untyped-def]
    return (s[k, SOLVED] & s[k, SOLVED + 1] & s[k, SOLVED + 2]) == ALL27


@hot_njit
def _store_values(s, k, values, index):  # type: ignore[no-untyped-def]
    """``values[index]`` := the solved state ``s[k]`` as digits 1..9."""
    for d in range(9):
        for b in range(3):
            w = s[k, 3 * d + b]
            while w:
                values[index, 27 * b + low_index(w)] = d + 1
                w &= w - 1


@inline_njit
def _next_digit(s, k, pending):  # type: ignore[no-untyped-def]
    """The digit of ``pending`` (a 9-bit set) with the most places left in ``s[k]``,
    the smaller on a tie: an order that relabelling the digits does not change (and
    on the hardest sets the one that finds a first solution soonest)."""
    best, most = -1, -1
    while pending:
        d = low_index(pending)
        places = bit_count(s[k, 3 * d]) + bit_count(s[k, 3 * d + 1]) + bit_count(s[k, 3 * d + 2])
        if places > most:
            best, most = d, places
        pending &= pending - 1
    return best


@hot_njit
def search_one(givens, index, s, cells, untried, limit, budget, values):  # type: ignore[no-untyped-def]
    """Solve or count puzzle ``index``: ``(count, nodes, finished)``; the first
    solution goes to ``values[index]``."""
    nodes, root = 1, np.int64(0)  # (an int64, not the literal 0: one compile per callee)
    dirty = load_givens(givens, index, s)
    if dirty == DEAD or not propagate(s, root, dirty):
        return 0, nodes, True
    if _is_solved(s, root):
        _store_values(s, root, values, index)
        return 1, nodes, True
    cells[0] = choose_cell(s, root)
    untried[0] = digits_of(s, root, cells[0])
    count, depth = 0, root
    while depth >= 0:
        if (limit > 0 and count >= limit) or (budget > 0 and nodes >= budget):
            return count, nodes, limit > 0 and count >= limit
        pending = untried[depth]
        if pending == 0:
            depth -= 1
            continue
        d = _next_digit(s, depth, pending)
        rest = pending & ~(1 << d)
        untried[depth] = rest
        nodes += 1
        child = depth  # the last digit of a cell: the state at depth is not needed again
        if rest:
            child = depth + 1
            _copy_state(s, depth, child)
        cell = cells[depth]
        dirty = place(s, child, d, cell // 27, cell % 27, 0)
        if dirty == DEAD or not propagate(s, child, dirty):
            continue
        if _is_solved(s, child):
            if count == 0:
                _store_values(s, child, values, index)
            count += 1
            continue
        depth = child
        cells[depth] = choose_cell(s, depth)
        untried[depth] = digits_of(s, depth, cells[depth])
    return count, nodes, True


def scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The working arrays of one ``search_many9`` call (one per thread): the stack
    of states, and per level the cell guessed on and the digits left to try."""
    return (np.empty((LEVELS, WORDS), dtype=np.int64), np.zeros(LEVELS, dtype=np.int64),
            np.zeros(LEVELS, dtype=np.int64))


@njit(cache=True, nogil=True, **NO_REFCOUNTS)  # type: ignore[call-overload]
def search_many9(givens, limit, budget, stop, values, counts, nodes, s, cells, untried):  # type: ignore[no-untyped-def]
    """Solve (``limit`` 1) or count every 9x9 puzzle of ``givens`` (``uint8
    [puzzles, 81]``); the same contract as ``kernel.search.search_many``, with the
    ``scratch()`` arrays last (allocated by the caller: nothing here needs numba's
    runtime, and nothing compiles for it)."""
    for i in range(givens.shape[0]):
        values[i, :] = 0
        if stop[0]:
            counts[i], nodes[i] = UNFINISHED, 0
            continue
        found, visited, finished = search_one(givens, i, s, cells, untried, limit, budget,
                                              values)
        nodes[i] = visited
        counts[i] = found if finished else UNFINISHED
        if not finished:
            values[i, :] = 0
