"""The compiled Connect-Four solver: Pascal Pons' algorithm in numba.

Negamax with alpha-beta on bitboards (see ``c4board``), an explicit stack (no
recursion in compiled code), moves ordered by the number of winning threats
they make (centre first among equals), never a move that lets the opponent win
at once, a transposition table, and the exact score by null-window probes.

Glossary
--------
non-losing moves
    The playable cells minus those under an opponent's winning cell; when the
    opponent threatens a win the move must block it (two threats: lost).
table
    One uint64 array, an entry ``(key mod 2^56) << 8 | value`` (0: empty) for the
    position key ``current + mask``; slot ``key % size``, always replace.  One
    64-bit word per entry: workers sharing a table (``c4parallel``) never see a
    key with another key's value, a torn or stale entry can only cost work.  The
    size (an odd prime) and the 56 key bits identify a key of up to 64 bits
    when ``size >= 2^(bits - 56)`` (``table_size`` makes sure).  A value ``v``
    up to ``span`` is an upper bound ``v + lo - 1``, above it a lower bound
    ``v - span + lo - 1``; ``lo``/``hi`` are the board's score limits.
ply
    Index into the stack: the root is ply 0.

The kernels release the GIL (``nogil``): a command line runs them in a thread and
stays responsive to Ctrl-C while a long search runs.

Example: ``solve_position(Board(), Board().parse("4453"))`` gives ``(score, nodes)``.
"""

from __future__ import annotations

import threading
from typing import Any

import numba
import numpy as np

from .. import _jit_cache  # noqa: F401  (registers the cache locators before any @njit)
from .c4board import Board, Position

U64 = np.uint64
ONE = U64(1)
ZERO = U64(0)
KEY_BITS = 56
KEY_MASK = U64((1 << KEY_BITS) - 1)
EIGHT = U64(8)
LOW_BYTE = U64(0xFF)
POLL = 1024  # nodes between a task's looks at its window
NO_WATCH = np.zeros(1, np.int64)  # a search without a chain: nothing to watch
NO_CHAIN = np.zeros(0, np.int64)


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
        return True, -((cells - plies) // 2), possible, a, b
    if plies >= cells - 2:
        return True, 0, possible, a, b
    low = -((cells - 2 - plies) // 2)
    if a < low:
        a = low
        if a >= b:
            return True, a, possible, a, b
    high = (cells - 1 - plies) // 2
    key = cur + msk
    entry = table[key % U64(table.shape[0])]
    if entry >> EIGHT == key & KEY_MASK and entry & LOW_BYTE != ZERO:
        v = np.int64(entry & LOW_BYTE)
        if v > span:
            bound = v - span + lo - 1
            if a < bound:
                a = bound
                if a >= b:
                    return True, a, possible, a, b
        elif v + lo - 1 < high:
            high = v + lo - 1
    if b > high:
        b = high
        if a >= b:
            return True, b, possible, a, b
    return False, 0, possible, a, b


@numba.njit(cache=True, nogil=True)
def closed(watch, slots, signs, root_alpha, root_beta):
    """Whether the task's window, rebuilt from the shared bounds ``watch`` along its
    chain (``slots``, ``signs``: see ``parallel.chain_window``), has closed."""
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
    lo, hi = -(cells // 2) - 1, (cells + 1) // 2 + 1
    span = hi - lo + 1
    depth = cells - plies0 + 2
    cur = np.empty(depth, np.uint64)
    msk = np.empty(depth, np.uint64)
    alpha = np.empty(depth, np.int64)
    beta = np.empty(depth, np.int64)
    count = np.zeros(depth, np.int64)
    index = np.zeros(depth, np.int64)
    moves = np.empty((depth, width), np.uint64)
    size = U64(table.shape[0])
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
            key = cur[ply] + msk[ply]
            table[key % size] = (key & KEY_MASK) << EIGHT | U64(value - lo + 1 + span)
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
            key = cur[ply] + msk[ply]
            table[key % size] = (key & KEY_MASK) << EIGHT | U64(alpha[ply] - lo + 1)
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
        return (cells + 1 - plies) // 2
    low, high = -((cells - plies) // 2), (cells + 1 - plies) // 2
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


DEFAULT_TT_MB = 64
Watch = tuple[np.ndarray, np.ndarray, np.ndarray, int, int]

ENTRY_BYTES = 8  # one uint64: 56 key bits and the value's byte


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


def in_thread(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` in a daemon thread, the caller waiting in short slices: a Ctrl-C
    reaches the main thread at once (the kernel, which holds no GIL, is left to die
    with the process)."""
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)
    box: list[Any] = []

    def target() -> None:
        try:
            box.append((True, fn(*args)))
        except BaseException as error:  # noqa: BLE001 - re-raised in the caller
            box.append((False, error))

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.05)
    ok, value = box[0]
    if not ok:
        raise value
    return value


def ordered_columns(board: Board, position: Position) -> list[int]:
    """The columns the compiled negamax tries at ``position``, in its order: the
    non-losing moves by threats made, centre first among equals (empty: lost)."""
    bottom, full = U64(board.bottom), U64(board.full)
    current, mask = U64(position.current), U64(position.mask)
    possible = non_losing_moves(current, mask, board.height, bottom, full)
    col_masks = np.array([board.column_mask(c) for c in range(board.width)], np.uint64)
    out = np.empty(board.width, np.uint64)
    count = _ordered(current, mask, possible, board.height, full,
                     np.array(board.order, np.int64), col_masks, out)
    return [next(c for c in range(board.width) if int(out[i]) & board.column_mask(c))
            for i in range(count)]


def board_table_size(board: Board, megabytes: float) -> int:
    """The table size for ``board``'s keys (``(height + 1) * width`` bits)."""
    return table_size(megabytes, (board.height + 1) * board.width)


class Solver:
    """Pons' solver for one board size, with its own table (kept between positions)."""

    def __init__(self, board: Board, tt_mb: float = DEFAULT_TT_MB,
                 table: np.ndarray | None = None) -> None:
        """``table``: an entry array to use (a shared one) instead of a new one."""
        if not tt_mb > 0:
            raise ValueError(f"the table needs a positive size in MB, got {tt_mb}")
        self.board = board
        self.table = np.zeros(board_table_size(board, tt_mb), np.uint64) \
            if table is None else table
        self.order = np.array(board.order, np.int64)
        self.col_masks = np.array([board.column_mask(c) for c in range(board.width)],
                                  np.uint64)
        self.nodes = np.zeros(2, np.int64)  # nodes entered, stopped (see negamax)

    @staticmethod
    def warm() -> None:
        """Load the compiled kernels (from numba's cache) before anything is timed."""
        small = Board(4, 4)
        Solver(small, 0.001).solve(small.parse("11223"))

    def reset(self) -> None:
        self.table[:] = 0

    def _args(self) -> tuple:
        b = self.board
        return (b.width, b.height, U64(b.bottom), U64(b.full), self.order, self.col_masks,
                self.table, self.nodes)

    def solve(self, position: Position, weak: bool = False) -> tuple[int, int]:
        """(score, nodes) for the player to move; ``weak``: the score's sign only."""
        return in_thread(self._solve, position, weak)

    def _solve(self, position: Position, weak: bool = False) -> tuple[int, int]:
        if position.moves >= self.board.cells:
            return 0, 0
        self.nodes[0] = 0
        score = solve(U64(position.current), U64(position.mask), position.moves, weak,
                      *self._args())
        if weak:
            score = (score > 0) - (score < 0)
        return int(score), int(self.nodes[0])

    def window(self, position: Position, alpha: int, beta: int,
               watch: Watch | None = None, variant: int = 0) -> tuple[int, int, bool]:
        """(negamax value in the window, nodes, stopped): Pons' negamax (no immediate
        win).  ``watch``: (bounds array, chain slots, chain signs, root window) for a
        task that stops when its window closes; ``variant``: see ``negamax``."""
        self.nodes[0] = 0
        watch = watch or (NO_WATCH, NO_CHAIN, NO_CHAIN, 0, 0)
        args = (U64(position.current), U64(position.mask), position.moves, alpha, beta,
                *self._args(), *watch, variant)
        value = negamax(*args)
        return int(value), int(self.nodes[0]), bool(self.nodes[1])

    def analyze(self, position: Position, weak: bool = False) -> dict[int, int]:
        """The score of every playable column (1-based) for the player to move."""
        board, scores = self.board, {}
        for col in range(board.width):
            if not board.can_play(position, col):
                continue
            after = board.play(position, col)
            if board.last_mover_won(after):
                won = (board.cells + 1 - position.moves) // 2
                scores[col + 1] = 1 if weak else won
            else:
                scores[col + 1] = -self.solve(after, weak)[0]
        return scores
