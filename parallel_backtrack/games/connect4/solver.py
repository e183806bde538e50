"""Pons' Connect-Four solver from Python: a table, the kernels' arguments, and the
score of a position or of each of its moves.

Glossary
--------
solver
    ``Solver(board, tt_mb)``: one board size and its own table, kept between
    positions (``reset`` empties it).
window
    ``Solver.window``: the compiled negamax in a given window, for a parallel
    task that may stop when its window closes (``watch``).
in a thread
    The kernels release the GIL: ``solve`` runs them in a daemon thread and
    waits in short slices, so a Ctrl-C reaches the command line at once.

Example: ``Solver(Board()).solve(Board().parse("4453"))`` gives ``(score, nodes)``.
"""

from __future__ import annotations

import numbers
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ... import _jit_cache
from ...engine.checks import WrongTypeError
from .board import Board, Position
from .kernel.scores import win_score
from .kernel.search import (
    NO_CHAIN,
    NO_WATCH,
    U64,
    _ordered,
    negamax,
    non_losing_moves,
    probe_point,
    solve,
)
from .kernel.table import load, store, table_size

DEFAULT_TT_MB = 64
COMPILE_WHAT = "the Connect-Four solver"
# Measured on 2 cores (docs/results.md): 4-5 s of CPU; 11-13 s wall at load 10.
COMPILE_SECONDS = "5-10 s"
Watch = tuple[np.ndarray, np.ndarray, np.ndarray, int, int]

def in_thread(fn: Any, *args: Any, deadline: float | None = None,
              at_deadline: Any = None) -> Any:
    """``fn(*args)`` in a daemon thread, the caller waiting in short slices: a Ctrl-C
    reaches the main thread at once (the kernel, which holds no GIL, is left to die
    with the process).  ``at_deadline()`` is called once when ``time.perf_counter()``
    passes ``deadline`` (it tells the kernel to stop; the wait goes on until it has)."""
    timer = None
    if deadline is not None and at_deadline is not None:
        timer = threading.Timer(max(0.0, deadline - time.perf_counter()), at_deadline)
        timer.daemon = True
        timer.start()
    try:
        return _waited(fn, *args)
    finally:
        if timer is not None:
            timer.cancel()


def _waited(fn: Any, *args: Any) -> Any:
    """``fn(*args)``: here in a thread other than the main one, else in a daemon thread
    the main one waits for in short slices (see ``in_thread``)."""
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
    order, col_masks, columns = _board_arrays(board)
    out = np.empty(board.width, np.uint64)
    count = _ordered(current, mask, possible, board.height, full, order, col_masks, out)
    return [columns[int(out[i])] for i in range(count)]


_ARRAYS: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, dict[int, int]]] = {}


def _board_arrays(board: Board) -> tuple[np.ndarray, np.ndarray, dict[int, int]]:
    """``board``'s move order and column masks as the kernel takes them, and each
    column's playable bits -> its column (built once per board size)."""
    key = (board.width, board.height)
    found = _ARRAYS.get(key)
    if found is None:
        masks = [board.column_mask(c) for c in range(board.width)]
        columns = {1 << (c * (board.height + 1) + row): c
                   for c in range(board.width) for row in range(board.height)}
        found = _ARRAYS[key] = (np.array(board.order, np.int64),
                                np.array(masks, np.uint64), columns)
    return found


def board_table_size(board: Board, megabytes: float) -> int:
    """The table size for ``board``'s keys (``(height + 1) * width`` bits)."""
    return table_size(megabytes, (board.height + 1) * board.width)


def check_megabytes(tt_mb: object) -> float:
    """A table's size in MB: a positive number (not a bool); else WrongTypeError (a
    TypeError) or ValueError."""
    message = f"the table needs a positive size in MB (tt_mb), got {tt_mb!r}"
    if isinstance(tt_mb, bool) or not isinstance(tt_mb, numbers.Real):
        raise WrongTypeError(message)
    if not float(tt_mb) > 0:  # NaN too
        raise ValueError(message)
    return float(tt_mb)


class Solver:
    """Pons' solver for one board size, with its own table (kept between positions)."""

    def __init__(self, board: Board, tt_mb: float = DEFAULT_TT_MB,
                 table: np.ndarray | None = None) -> None:
        """``table``: an entry array to use (a shared one) instead of a new one."""
        check_megabytes(tt_mb)
        self.board = board
        self.table = np.zeros(board_table_size(board, tt_mb), np.uint64) \
            if table is None else table
        self.order = np.array(board.order, np.int64)
        self.col_masks = np.array([board.column_mask(c) for c in range(board.width)],
                                  np.uint64)
        self.nodes = np.zeros(2, np.int64)  # nodes entered, stopped (see negamax)

    @staticmethod
    def warm() -> None:
        """Load the compiled kernels (from numba's cache) before anything is timed; a
        first compile is announced on stderr.  It calls every kernel the command line
        calls, with the argument types it calls them with (a solve, a watched window as
        the timed and parallel probes run, the parallel split's helpers), so the whole
        compile happens here, under the notice, once, before a pool starts."""
        kernels = [solve, negamax, probe_point, load, store]
        with _jit_cache.compile_notice(COMPILE_WHAT, kernels, COMPILE_SECONDS):
            small = Board(4, 4)
            solver, position = Solver(small, 0.001), small.parse("11223")
            solver.solve(position)
            watch = np.full(1, -1, np.int64)
            med = probe_point(-1, 1)
            solver.window(position, med, med + 1, (watch, np.zeros(1, np.int64),
                                                   np.ones(1, np.int64), med, med + 1))
            ordered_columns(small, position)
            key = U64(position.current + position.mask)
            store(solver.table, key, int(load(solver.table, key)))

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

    def analyze(self, position: Position, weak: bool = False,
                on_score: OnScore | None = None) -> dict[int, int]:
        """The score of every playable column (1-based) for the player to move;
        ``on_score(column, score)`` as each is found (``move_scores``)."""
        return move_scores(self.board, position, weak,
                           lambda after: self.solve(after, weak)[0], on_score)[0]


# on_score(column, score): one column's score, as soon as it is known.
OnScore = Callable[[int, int], None]


def move_scores(board: Board, position: Position, weak: bool,
                solved: Callable[[Position], int | None],
                on_score: OnScore | None = None) -> tuple[dict[int, int], bool]:
    """The score of each playable column (1-based), in order, and whether every one
    was scored: ``solved(after)`` gives the opponent's score after a move that does
    not win at once, or None to stop there (the columns before it are kept).
    ``on_score(column, score)`` hears each one as it comes, so a Ctrl-C in the middle
    loses none of those already scored."""
    scores: dict[int, int] = {}
    for col in range(board.width):
        if not board.can_play(position, col):
            continue
        after = board.play(position, col)
        if board.last_mover_won(after):
            score = 1 if weak else win_score(board.cells, position.moves)
        else:
            theirs = solved(after)
            if theirs is None:
                return scores, False
            score = -theirs
        scores[col + 1] = score
        if on_score is not None:
            on_score(col + 1, score)
    return scores, True
