"""Depth-first search over candidate masks, compiled with numba.

One routine serves solving (a limit of 1), counting (with or without a limit)
and budgeted runs that hand back their open frontier.  The search visits the
same states in the same order as the engine's generic search over
``ImmutableSudokuPuzzle``: a node is a state taken off the stack (the root
included), so every guess makes one node, and dead ends count too.

Glossary
--------
tables
    ``(units, peers, square_units, full)`` for one box size (``kernel_tables``).
workspace
    Preallocated arrays, reused across puzzles so the hot loop never allocates:
    ``stack[d]`` the masks at depth ``d`` (``stack[0]`` is the root),
    ``squares[d]`` the square branched on at depth ``d``, ``untried[d]`` its
    values not yet tried (a mask), a propagation ``queue`` and the ``dirty``
    flags of the units to scan for hidden singles, and the ``scratch`` rows of
    the ``locked`` and ``matching`` rules.
depth
    How many guesses lie between the root and ``stack[d]``; at most the number
    of unfilled squares of the root.
order codes
    ``ROW_MAJOR`` (0): the first unfilled square.  ``FEWEST`` (1): an unfilled
    square with the fewest candidates (zero counts), ties by row-major order.
stopped depth
    ``-1`` when a root's subtree was finished; otherwise the deepest level
    whose untried values are still open when a budget or limit stopped the run.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import (
    U64_ONE,
    U64_ZERO,
    has_many,
    hot_njit,
    is_single,
    low_bit,
    low_bit_index,
    popcount,
)
from .matching import SCRATCH_COLUMNS, SCRATCH_ROWS
from .propagate import NONE, lazy_candidates, propagate, propagate_root

ROW_MAJOR, FEWEST = 0, 1
ORDER_CODES = {"row-major": ROW_MAJOR, "fewest": FEWEST}
SOLVED = -1
UNWATCHED = 1 << 62  # a ticket no slot reaches
# A search watched by the engine (``watch``) looks at its slot every this many nodes.
WATCH_EVERY = 1024


@hot_njit
def _select_lazy(stack, row, order, peers, full):  # type: ignore[no-untyped-def]
    """Pick a square under ``NONE`` propagation; candidates are computed here."""
    best = SOLVED
    best_cands = U64_ZERO
    best_count = 65
    for square in range(stack.shape[1]):
        if is_single(stack[row, square]):
            continue
        cands = lazy_candidates(stack, row, square, peers, full)
        if order == ROW_MAJOR:
            return square, cands
        count = popcount(cands)
        if count < best_count:
            best, best_cands, best_count = square, cands, count
            if count == 0:
                break
    return best, best_cands


@hot_njit
def select_square(stack, row, order, propagation, peers, full):  # type: ignore[no-untyped-def]
    """The square to branch on and its candidates; ``SOLVED`` when all are filled.

    After propagation no square is empty, so two candidates is the fewest an
    unfilled square can have and ends the fewest-first scan early.
    """
    if propagation == NONE:
        return _select_lazy(stack, row, order, peers, full)
    best = SOLVED
    best_count = 65
    for square in range(stack.shape[1]):
        cands = stack[row, square]
        if not has_many(cands):
            continue
        if order == ROW_MAJOR:
            return square, cands
        count = popcount(cands)
        if count < best_count:
            best, best_count = square, count
            if count == 2:
                break
    if best == SOLVED:
        return SOLVED, U64_ZERO
    return best, stack[row, best]


@hot_njit
def make_child(stack, squares, queue, dirty, scratch, depth, value, propagation,
               units, peers, square_units, full):  # type: ignore[no-untyped-def]
    """``stack[depth + 1]`` := the state after guessing ``value``; False if dead."""
    for k in range(stack.shape[1]):
        stack[depth + 1, k] = stack[depth, k]
    square = squares[depth]
    stack[depth + 1, square] = value
    queue[0] = square
    return propagate(stack, depth + 1, queue, 1, propagation, units, peers, square_units, full,
                     dirty, False, scratch)


@hot_njit
def _keep(solutions, kept, stack, row):  # type: ignore[no-untyped-def]
    if kept < solutions.shape[0]:
        for k in range(stack.shape[1]):
            solutions[kept, k] = stack[row, k]
    return kept + 1


@njit(cache=True)
def explore_root(work, propagation, order, tables, count, nodes, limit, budget, solutions, kept,
                 watch, slot, ticket):  # type: ignore[no-untyped-def]
    """Depth-first search below the root in ``stack[0]`` (propagated here).

    ``limit`` and ``budget`` are ignored when 0.  The search also stops, as on its
    budget, once ``watch[slot] >= ticket``, looked at every ``WATCH_EVERY`` nodes (the
    engine's ask: another process raises the slot).  Returns
    ``(count, nodes, kept, stopped_depth)`` with the running totals.
    """
    stack, squares, untried, queue, dirty, scratch = work
    units, peers, square_units, full = tables
    return _descend(stack, squares, untried, queue, dirty, scratch, units, peers, square_units,
                    full, propagation, order, count, nodes, limit, budget, solutions, kept,
                    watch, slot, ticket)


@hot_njit
def _descend(stack, squares, untried, queue, dirty, scratch, units, peers, square_units, full,
             propagation, order, count, nodes, limit, budget, solutions, kept, watch, slot,
             ticket):  # type: ignore[no-untyped-def]
    """The body of ``explore_root``, with every array unpacked.

    Unpacking the tuples here, once, keeps numba's reference counting out of
    the loop: unpacking inside it cost a third of the run time.
    """
    nodes += 1
    if not propagate_root(stack, 0, queue, propagation, units, peers, square_units, full, dirty,
                          scratch):
        return count, nodes, kept, SOLVED
    square, cands = select_square(stack, 0, order, propagation, peers, full)
    if square == SOLVED:
        return count + 1, nodes, _keep(solutions, kept, stack, 0), SOLVED
    squares[0] = square
    untried[0] = cands
    depth = 0
    while depth >= 0:
        if (budget > 0 and nodes >= budget) or (limit > 0 and count >= limit):
            return count, nodes, kept, depth
        if nodes % WATCH_EVERY == 0 and watch[slot] >= ticket:
            return count, nodes, kept, depth
        pending = untried[depth]
        if pending == U64_ZERO:
            depth -= 1
            continue
        value = low_bit(pending)
        untried[depth] = pending ^ value
        nodes += 1
        if not make_child(stack, squares, queue, dirty, scratch, depth, value, propagation,
                          units, peers, square_units, full):
            continue
        square, cands = select_square(stack, depth + 1, order, propagation, peers, full)
        if square == SOLVED:
            count += 1
            kept = _keep(solutions, kept, stack, depth + 1)
            continue
        depth += 1
        squares[depth] = square
        untried[depth] = cands
    return count, nodes, kept, SOLVED


@njit(cache=True)
def frontier_rows(work, propagation, tables, depth):  # type: ignore[no-untyped-def]
    """The children still on the stack, deepest level first, values ascending.

    These are the states the engine's ``explore`` would leave on its stack.  A
    child that is already dead comes back as a row of zeros (every square
    empty), which any search treats as a dead end of one node.
    """
    stack, squares, untried, queue, dirty, scratch = work
    units, peers, square_units, full = tables
    total = 0
    for level in range(depth + 1):
        total += popcount(untried[level])
    rows = np.zeros((total, stack.shape[1]), dtype=np.uint64)
    row = 0
    for level in range(depth, -1, -1):
        pending = untried[level]
        while pending != U64_ZERO:
            value = low_bit(pending)
            pending ^= value
            if make_child(stack, squares, queue, dirty, scratch, level, value, propagation,
                          units, peers, square_units, full):
                rows[row, :] = stack[level + 1]
            row += 1
        untried[level] = U64_ZERO
    return rows


@hot_njit
def givens_to_masks(givens, index, stack, full):  # type: ignore[no-untyped-def]
    """``stack[0]`` := puzzle ``index``'s givens as masks (full for a blank)."""
    for square in range(givens.shape[1]):
        given = givens[index, square]
        if given == 0:
            stack[0, square] = full
        else:
            stack[0, square] = U64_ONE << np.uint64(given - 1)


@hot_njit
def masks_to_values(solutions, values, index):  # type: ignore[no-untyped-def]
    """``values[index]`` := the first solution's values (0 where not single)."""
    for square in range(solutions.shape[1]):
        cands = solutions[0, square]
        values[index, square] = low_bit_index(cands) + 1 if is_single(cands) else 0


@hot_njit
def _unfilled(roots, index):  # type: ignore[no-untyped-def]
    count = 0
    for square in range(roots.shape[1]):
        if not is_single(roots[index, square]):
            count += 1
    return count


@njit(cache=True)
def _workspace(levels, squares, units):  # type: ignore[no-untyped-def]
    return (
        np.empty((levels, squares), dtype=np.uint64),
        np.empty(levels, dtype=np.uint16),
        np.empty(levels, dtype=np.uint64),
        np.empty(squares, dtype=np.uint16),
        np.zeros(units, dtype=np.bool_),
        np.zeros((SCRATCH_ROWS, SCRATCH_COLUMNS), dtype=np.uint64),
    )


@njit(cache=True, nogil=True)
def explore_roots(roots, propagation, order, tables, limit, budget, keep, each, watch, slot,
                  ticket):  # type: ignore[no-untyped-def]
    """Search below each root in turn, as the engine's ``explore`` does.

    Returns ``(count, nodes, solutions, leftover, firsts)``: up to ``keep``
    solutions as mask rows, and, when the budget or limit stopped the run, the
    open frontier (``frontier_rows``) followed by the roots not yet started;
    ``firsts[0]`` is how many roots were started (the last of them the one whose
    frontier leads ``leftover``).  ``watch[slot] >= ticket`` stops it too, as the
    budget does (see ``explore_root``), once it has searched a node.

    With ``each``, every root is searched on a ``budget`` of its own instead and
    ``leftover`` holds each root's frontier in turn, root ``i``'s being
    ``leftover[firsts[i]:firsts[i + 1]]``: on a budget of one node, each root's
    children, which is how the parent cuts a tree a level at a time in one call.
    (One entry point for both: every compiled entry loads on its own, some
    0.07 s per process, and a parent's load is serial time.)
    """
    n_roots, n_squares = roots.shape
    levels = 1
    for i in range(n_roots):
        levels = max(levels, _unfilled(roots, i) + 1)
    work = _workspace(levels, n_squares, tables[0].shape[0])
    solutions = np.empty((keep, n_squares), dtype=np.uint64)
    firsts = np.zeros(n_roots + 1, dtype=np.int64)
    if each:
        return _each_root(roots, work, propagation, order, tables, budget, solutions, firsts,
                          watch)
    count = nodes = kept = 0
    for i in range(n_roots):
        if ((budget > 0 and nodes >= budget) or (limit > 0 and count >= limit)
                or (nodes > 0 and watch[slot] >= ticket)):
            return count, nodes, solutions[: min(kept, keep)], roots[i:].copy(), firsts
        firsts[0] = i + 1
        work[0][0, :] = roots[i]
        count, nodes, kept, depth = explore_root(
            work, propagation, order, tables, count, nodes, limit, budget, solutions, kept,
            watch, slot, ticket
        )
        if depth != SOLVED:
            leftover = np.concatenate((frontier_rows(work, propagation, tables, depth),
                                       roots[i + 1:]))
            return count, nodes, solutions[: min(kept, keep)], leftover, firsts
    return count, nodes, solutions[: min(kept, keep)], roots[:0].copy(), firsts


@njit(cache=True)
def _each_root(roots, work, propagation, order, tables, budget, solutions, firsts, watch):  # type: ignore[no-untyped-def]
    """``explore_roots`` with ``each``: every root on its own ``budget`` (unwatched)."""
    n_roots, n_squares = roots.shape
    parts = [roots[:0]]
    count = nodes = 0
    for i in range(n_roots):
        work[0][0, :] = roots[i]
        count, spent, _, depth = explore_root(work, propagation, order, tables, count, 0, 0,
                                              budget, solutions[:0], 0, watch, 0, UNWATCHED)
        nodes += spent
        firsts[i + 1] = firsts[i]
        if depth != SOLVED:
            rows = frontier_rows(work, propagation, tables, depth)
            parts.append(rows)
            firsts[i + 1] += rows.shape[0]
    leftover = np.empty((firsts[n_roots], n_squares), dtype=np.uint64)
    row = 0
    for part in parts:
        leftover[row:row + part.shape[0], :] = part
        row += part.shape[0]
    return count, nodes, solutions[:0], leftover, firsts


UNFINISHED = -1


@njit(cache=True, nogil=True)
def search_many(givens, propagation, order, tables, limit, budget, stop,
                values, counts, nodes):  # type: ignore[no-untyped-def]
    """Solve (``limit`` 1) or count every puzzle of a batch, in one compiled loop.

    ``givens`` is ``uint8 [puzzles, squares]``; fills ``values`` with the first
    solution of each puzzle (zeros when there is none), ``counts`` and ``nodes``.
    A puzzle that needs more than ``budget`` nodes (0: no budget) is left
    ``UNFINISHED``; once ``stop[0]`` is set the puzzles not started yet are too.
    It holds no Python object, so it runs without the GIL and threads can share
    one batch.
    """
    n_squares = givens.shape[1]
    work = _workspace(n_squares + 1, n_squares, tables[0].shape[0])
    first = np.empty((1, n_squares), dtype=np.uint64)
    watch = np.zeros(1, dtype=np.int64)  # nobody asks a batch: ``stop`` ends it
    for i in range(givens.shape[0]):
        values[i, :] = 0
        if stop[0]:
            counts[i], nodes[i] = UNFINISHED, 0
            continue
        givens_to_masks(givens, i, work[0], tables[3])
        found, visited, kept, depth = explore_root(
            work, propagation, order, tables, 0, 0, limit, budget, first, 0, watch, 0, UNWATCHED
        )
        nodes[i] = visited
        counts[i] = UNFINISHED if depth != SOLVED and (limit == 0 or found < limit) else found
        if kept > 0 and counts[i] != UNFINISHED:
            masks_to_values(first, values, i)
