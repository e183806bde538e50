"""The compiled Connect-Four search: Pascal Pons' algorithm in numba.

Negamax with alpha-beta on bitboards (see ``board``), an explicit stack (no
recursion in compiled code), moves ordered by the number of winning threats
they make (centre first among equals), never a move that lets the opponent win
at once, a transposition table, and the exact score by null-window probes.

Glossary
--------
non-losing moves
    The playable cells minus those under an opponent's winning cell; when the
    opponent threatens a win the move must block it (two threats: lost).
table
    See ``table`` (the entries) and ``scores`` (the codes and score limits).
ply
    Index into the stack: the root is ply 0.

The kernels release the GIL (``nogil``): a command line runs them in a thread and
stays responsive to Ctrl-C while a long search runs.  ``negamax`` is one loop of
about 80 lines: the explicit stack lives in its local arrays, and a helper per
branch of the loop would pass the whole stack around.

Example: ``solve(current, mask, plies, False, ...)`` (called by ``solver.Solver``).
"""

from __future__ import annotations

import numba
import numpy as np

from .... import _jit_cache  # noqa: F401  (registers the cache locators before any @njit)
from . import scores
from .table import load, store

U64 = np.uint64
ONE = U64(1)
ZERO = U64(0)
POLL = 1024  # nodes between a task's looks at its window
NO_WATCH = np.zeros(1, np.int64)  # a search without a chain: nothing to watch
NO_CHAIN = np.zeros(0, np.int64)

win_score = numba.njit(cache=True, nogil=True, inline="always")(scores.win_score)
loss_score = numba.njit(cache=True, nogil=True, inline="always")(scores.loss_score)
node_range = numba.njit(cache=True, nogil=True, inline="always")(scores.node_range)
encode_code = numba.njit(cache=True, nogil=True, inline="always")(scores.encode_code)
decode_code = numba.njit(cache=True, nogil=True, inline="always")(scores.decode_code)
table_limits = numba.njit(cache=True, nogil=True, inline="always")(scores.table_limits)


@numba.njit(cache=True, nogil=True, inline="always")
def popcount(x: np.uint64) -> int:
    count = 0
    while x:
        x &= x - ONE
        count += 1
    return count


@numba.njit(cache=True, nogil=True)
def winning_cells(stones: np.uint64, mask: np.uint64, height: int,
                  full: np.uint64) -> np.uint64:
    """The empty cells where ``stones`` would complete a four."""
    h1, h0, h2 = U64(height + 1), U64(height), U64(height + 2)
    r = (stones << ONE) & (stones << U64(2)) & (stones << U64(3))
    for shift in (h1, h0, h2):
        p = (stones << shift) & (stones << (U64(2) * shift))
        r |= p & (stones << (U64(3) * shift))
        r |= p & (stones >> shift)
        p = (stones >> shift) & (stones >> (U64(2) * shift))
        r |= p & (stones << shift)
        r |= p & (stones >> (U64(3) * shift))
    return r & (full ^ mask)


@numba.njit(cache=True, nogil=True)
def non_losing_moves(current: np.uint64, mask: np.uint64, height: int, bottom: np.uint64,
                     full: np.uint64) -> np.uint64:
    possible = (mask + bottom) & full
    threats = winning_cells(current ^ mask, mask, height, full)
    forced = possible & threats
    if forced:
        if forced & (forced - ONE):
            return ZERO
        possible = forced
    return possible & ~(threats >> ONE)


@numba.njit(cache=True, nogil=True)
def _ordered(current, mask, moves, height, full, order, col_masks, out_moves):
    """The moves in ``moves`` sorted by threats made (stable over centre-first)."""
    n = 0
    scores = np.empty(order.shape[0], np.int64)
    for col in order:
        move = moves & col_masks[col]
        if move:
            score = popcount(winning_cells(current | move, mask, height, full))
            pos = n
            while pos > 0 and scores[pos - 1] < score:
                scores[pos] = scores[pos - 1]
                out_moves[pos] = out_moves[pos - 1]
                pos -= 1
            scores[pos] = score
            out_moves[pos] = move
            n += 1
    return n


@numba.njit(cache=True, nogil=True)
def _enter(cur, msk, plies, a, b, cells, height, bottom, full, table, lo, span):
    """Checks at a node before its children: (done, value, moves, alpha, beta)."""
    possible = non_losing_moves(cur, msk, height, bottom, full)
    if possible == ZERO:
        return True, loss_score(cells, plies), possible, a, b
    if plies >= cells - 2:
        return True, 0, possible, a, b
    low, high = node_range(cells, plies)
    if a < low:
        a = low
        if a >= b:
            return True, a, possible, a, b
    code = load(table, cur + msk)
    if code != 0:
        lower, bound = decode_code(code, lo, span)
        if lower:
            if a < bound:
                a = bound
                if a >= b:
                    return True, a, possible, a, b
        elif bound < high:
            high = bound
    if b > high:
        b = high
        if a >= b:
            return True, b, possible, a, b
    return False, 0, possible, a, b


@numba.njit(cache=True, nogil=True)
def closed(watch, slots, signs, root_alpha, root_beta):
    """Whether the task's window, rebuilt from the shared bounds ``watch`` along its
    chain (``slots``, ``signs``: see ``games.ybw.chain_window``), has closed."""
    a, b = root_alpha, root_beta
    for i in range(slots.shape[0]):
        if signs[i] < 0:
            a, b = -b, -a
        if slots[i] >= 0 and watch[slots[i]] > a:
            a = watch[slots[i]]
    return a >= b


@numba.njit(cache=True, nogil=True)
def _rotate(moves, count, shift):
    """The first ``count`` moves rotated left by ``shift`` (a helper's move order)."""
    shift %= count
    if shift:
        first = moves[:count].copy()
        for i in range(count):
            moves[i] = first[(i + shift) % count]


@numba.njit(cache=True, nogil=True)
def negamax(current0, mask0, plies0, alpha0, beta0, width, height, bottom, full, order,
            col_masks, table, nodes, watch, slots, signs, root_alpha, root_beta, variant):
    """Negamax alpha-beta in window (alpha0, beta0), fail-soft at cuts, as Pons' solver;
    the player to move must not have a winning move (the caller checks).  ``nodes[0]``
    counts the nodes entered.  Every ``POLL`` nodes a task with a chain (``slots``
    not empty) checks its window in ``watch`` and stops when it closed: ``nodes[1]``
    is then 1 and nothing half-searched was stored.  ``variant``: a helper's move order,
    rotated by one at each ply ``p`` whose bit ``1 << p`` is set."""
    cells = width * height
    lo, span = table_limits(cells)
    depth = cells - plies0 + 2
    cur = np.empty(depth, np.uint64)
    msk = np.empty(depth, np.uint64)
    alpha = np.empty(depth, np.int64)
    beta = np.empty(depth, np.int64)
    count = np.zeros(depth, np.int64)
    index = np.zeros(depth, np.int64)
    moves = np.empty((depth, width), np.uint64)
    cur[0], msk[0], alpha[0], beta[0] = current0, mask0, alpha0, beta0
    ply, enter, value, ret = 0, True, 0, 0
    watched = slots.shape[0] > 0
    nodes[1] = 0
    while True:
        ready = False
        if enter:
            nodes[0] += 1
            if watched and nodes[0] % POLL == 0 and closed(watch, slots, signs,
                                                           root_alpha, root_beta):
                nodes[1] = 1
                return beta0
            done, ret, possible, a, b = _enter(cur[ply], msk[ply], plies0 + ply, alpha[ply],
                                               beta[ply], cells, height, bottom, full, table,
                                               lo, span)
            ready = done
            if not done:
                alpha[ply], beta[ply] = a, b
                count[ply] = _ordered(cur[ply], msk[ply], possible, height, full, order,
                                      col_masks, moves[ply])
                index[ply] = 0
                if ply < 63 and variant >> ply & 1 and count[ply] > 1:
                    _rotate(moves[ply], count[ply], 1)
        elif value >= beta[ply]:
            store(table, cur[ply] + msk[ply], encode_code(value, True, lo, span))
            ret, ready = value, True
        elif value > alpha[ply]:
            alpha[ply] = value
        if not ready:
            if index[ply] < count[ply]:
                move = moves[ply, index[ply]]
                index[ply] += 1
                cur[ply + 1] = cur[ply] ^ msk[ply]
                msk[ply + 1] = msk[ply] | move
                alpha[ply + 1] = -beta[ply]
                beta[ply + 1] = -alpha[ply]
                ply += 1
                enter = True
                continue
            store(table, cur[ply] + msk[ply], encode_code(alpha[ply], False, lo, span))
            ret = alpha[ply]
        if ply == 0:
            return ret
        ply -= 1
        value = -ret
        enter = False


@numba.njit(cache=True, nogil=True)
def can_win_next(current, mask, height, bottom, full):
    return winning_cells(current, mask, height, full) & (mask + bottom) & full != ZERO


@numba.njit(cache=True, nogil=True, inline="always")
def _half(x: int) -> int:
    """x / 2 rounded towards zero, as C's integer division."""
    return -((-x) // 2) if x < 0 else x // 2


@numba.njit(cache=True, nogil=True, inline="always")
def probe_point(low: int, high: int) -> int:
    """Pons' next null-window probe in [low, high): the middle, pulled towards 0 by
    halving the bound on its side (also called from Python by the parallel solve)."""
    med = low + (high - low) // 2
    if med <= 0 and _half(low) < med:
        med = _half(low)
    elif med >= 0 and _half(high) > med:
        med = _half(high)
    return med


@numba.njit(cache=True, nogil=True)
def solve(current, mask, plies, weak, width, height, bottom, full, order, col_masks, table,
          nodes):
    """The exact score (``weak``: only its sign) by null-window probes, as Pons' solve."""
    cells = width * height
    if can_win_next(current, mask, height, bottom, full):
        return win_score(cells, plies)
    low, high = loss_score(cells, plies), win_score(cells, plies)
    if weak:
        low, high = -1, 1
    watch, chain = np.zeros(1, np.int64), np.zeros(0, np.int64)  # nothing to watch
    while low < high:
        med = probe_point(low, high)
        r = negamax(current, mask, plies, med, med + 1, width, height, bottom, full, order,
                    col_masks, table, nodes, watch, chain, chain, 0, 0, 0)
        if r <= med:
            high = r
        else:
            low = r
    return low

