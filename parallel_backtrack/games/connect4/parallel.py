"""Connect-Four on the parallel alpha-beta: the first plies of each null-window probe
are split (Young Brothers Wait), the subtrees below run Pons' compiled negamax.

Glossary
--------
SplitGame
    The split plies' view of Connect-Four: a position is terminal when the game
    is over or the player to move wins at once (scored as Pons scores it), so
    every task starts where the compiled negamax may start.
shared table
    On a pool whose workers share this machine's files (``shares_files``), one
    transposition table for the whole run: a file (in ``/dev/shm`` where there is
    one) every worker maps, entries written without locks (one 64-bit word each,
    see ``kernel.table``: a stale or overwritten entry costs work, never a wrong
    score).  What one worker learnt the other finds, as in the sequential search.
worker solver
    Elsewhere (a Dask cluster) each worker keeps its own ``Solver`` per board and
    table size, for every probe of a run.
probe
    One null-window search ``(med, med + 1)``, as in Pons' ``solve``; the
    parallel solve runs the same sequence of probes as the sequential one.
ParallelSolver
    One pool and one table for several solves (a context manager): ``analyze``
    after ``solve`` scores each move on the table the solve filled.

Example: ``parallel_solve(Board(), Board().parse("4453"), workers=2)`` gives the
score the sequential ``Solver.solve`` gives.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...engine import tempfiles
from ...engine.arguments import check_count
from ...engine.checks import check_int
from ...engine.executors import (
    Executor,
    check_pool,
    default_workers,
    pool_arguments,
    pool_for_run,
)
from ...engine.window import SharedBounds
from ..chain import Chain, chain_window
from ..probes import ProbeTally, ProbeTimeout, auto_at_once, probe_range
from ..ybw import YoungBrothersWait
from .board import Board, Connect4Game, Position
from .kernel.scores import (
    decode_code,
    encode_code,
    loss_score,
    node_range,
    table_limits,
    win_score,
)
from .kernel.search import U64, can_win_next, probe_point
from .kernel.table import ENTRY_BYTES, load, store
from .limited import analyze_until
from .solver import OnScore, Solver, Watch, board_table_size, check_megabytes, ordered_columns

# From this many workers on, a task that searched over 1/(HEAVY_SHARE * workers) of a
# probe's mean nodes is split one ply deeper in the later probes (``ybw``'s heavy states).
HEAVY_WORKERS = 8
HEAVY_SHARE = 2
# From this many workers on, every probe is split ``DEEPER`` plies deeper than
# ``split_depth`` and a final one (``games.probes``: it runs alone) ``FINAL_DEEPER`` more:
# on 64 simulated workers a probe split 4 plies deep waited for single tasks of a second
# (docs/results.md).
DEEPER_WORKERS = 32
DEEPER, FINAL_DEEPER = 1, 1
# ... while a task costs the parent at most DEEPER_COST seconds (``ProbeTally.task_cost``,
# the pool's own cost included): on a cluster (a millisecond or more a task) the probes
# split at ``split_depth`` gain more (docs/results.md).
DEEPER_COST = 5e-4
SPECULATE = True  # and idle workers take younger brothers early (``ybw.speculate``)
_SOLVERS: dict[tuple[int, int, float], Solver] = {}
_RUNS: dict[tuple[int, int, float], str] = {}  # the run each worker table belongs to
_SHARED: dict[str, Solver] = {}  # in a worker: the shared table's path -> its solver
_WATCHED: dict[str, np.ndarray] = {}  # in a worker: bounds files mapped, the latest two


class SplitGame(Connect4Game):
    """Connect-Four whose terminal states include "the player to move wins now"."""

    def __init__(self, board: Board, tt_mb: float) -> None:
        super().__init__(board)
        self.tt_mb = tt_mb
        self.run = uuid.uuid4().hex  # a worker's table starts empty for each run
        self.table_path: str | None = None  # the shared table's file, if any
        self._actions: tuple[Position, list[int]] | None = None

    def wins_now(self, state: Position) -> bool:
        board = self.board
        return bool(can_win_next(U64(state.current), U64(state.mask), board.height,
                                 U64(board.bottom), U64(board.full)))

    def actions(self, state: Position) -> list[int]:
        """The compiled negamax's moves in its order: the split plies are the top of
        the sequential search's tree, and their tasks its subtrees (the last state's
        kept: the parent asks ``is_terminal`` and then ``actions`` of each)."""
        if self._actions is None or self._actions[0] != state:
            self._actions = (state, ordered_columns(self.board, state))
        return list(self._actions[1])

    def is_terminal(self, state: Position) -> bool:
        return super().is_terminal(state) or self.wins_now(state) or not self.actions(state)

    def utility(self, state: Position, player: int) -> int:
        if super().is_terminal(state):
            return super().utility(state, player)
        if self.wins_now(state):
            value = win_score(self.board.cells, state.moves)
        else:  # every move lets the opponent win at once
            value = loss_score(self.board.cells, state.moves)
        return value if player == state.moves % 2 else -value

    def value_bounds(self, state: Position) -> tuple[int, int]:
        """The bounds the compiled negamax applies on entering ``state`` (a state that
        is not terminal here): the moves left, and the shared table's entry."""
        low, high = node_range(self.board.cells, state.moves)
        code = load(worker_solver(self).table, U64(state.current + state.mask))
        if code:
            lower, bound = decode_code(int(code), *table_limits(self.board.cells))
            low, high = (max(low, bound), high) if lower else (low, min(high, bound))
        return low, high

    def record(self, state: Position, value: int, alpha: int, beta: int) -> None:
        """A split node's proved value into the table, as the compiled negamax stores
        it (a lower bound at a cut-off, else an upper bound): later probes find it."""
        code = encode_code(value, value >= beta, *table_limits(self.board.cells))
        store(worker_solver(self).table, U64(state.current + state.mask), code)


def worker_solver(game: SplitGame) -> Solver:
    """The solver whose table this process uses for ``game``'s run (in the parent
    too: the shared table, or the parent's own when tasks run here)."""
    if game.table_path is not None:
        return _shared_solver(game, game.table_path)
    key = (game.board.width, game.board.height, game.tt_mb)
    solver = _SOLVERS.get(key)
    if solver is None:
        solver = _SOLVERS[key] = Solver(game.board, game.tt_mb)
    if _RUNS.get(key) != game.run:
        solver.reset()
        _RUNS[key] = game.run
    return solver


def _shared_solver(game: SplitGame, path: str) -> Solver:
    solver = _SHARED.get(path)
    if solver is None:
        _SHARED.clear()  # an earlier run's table: unmapped when its solver goes
        size = board_table_size(game.board, game.tt_mb)
        table = np.memmap(path, dtype=np.uint64, mode="r+", shape=(size,))
        solver = _SHARED[path] = Solver(game.board, game.tt_mb, table=table)
    return solver


def make_shared_table(board: Board, tt_mb: float) -> str:
    """A zeroed file holding one table (sparse: pages appear as they are written)."""
    folder = "/dev/shm" if os.path.isdir("/dev/shm") else None
    handle, path = tempfiles.make("c4table", ".bin", folder)
    os.ftruncate(handle, board_table_size(board, tt_mb) * ENTRY_BYTES)
    os.close(handle)
    return path


def _watch(bounds: SharedBounds, chain: Chain, root_window: tuple[int, int]) -> Watch:
    """What the compiled negamax polls: the bounds file mapped here (shared bounds;
    else the values as sent) and the task's chain."""
    values = None
    if bounds.path is not None:
        values = _WATCHED.get(bounds.path)
        if values is None:
            try:
                values = np.memmap(bounds.path, dtype=np.int64, mode="r+",
                                   shape=(bounds.slots,))
            except (OSError, ValueError):  # the run is over: its file went
                values = None
            else:
                if len(_WATCHED) >= 2:
                    _WATCHED.pop(next(iter(_WATCHED)))
                _WATCHED[bounds.path] = values
    if values is None:
        values = np.array(bounds.values, np.int64)
    slots = np.array([slot for slot, _ in chain], np.int64)
    signs = np.array([sign for _, sign in chain], np.int64)
    return values, slots, signs, root_window[0], root_window[1]


def c4_task(game: SplitGame, state: Position, chain: Chain, root_window: tuple[int, int],
            bounds: SharedBounds, variant: int = 0) -> tuple[int, int, list[Any]]:
    """Pons' negamax below one split-ply position, in the window the bounds give; it
    stops when that window closes.  ``variant``: a helper's move order (the twin's
    1: the task's first ply rotated by one, which measured better than rotating the
    second ply or both)."""
    alpha, beta = chain_window(chain, root_window, bounds)
    if alpha >= beta:
        return beta, 0, []
    value, nodes, _stopped = worker_solver(game).window(
        state, alpha, beta, _watch(bounds, chain, root_window), variant)
    return value, nodes, []


@dataclass
class ParallelSolve:
    score: int
    nodes: int
    tasks: int
    probes: int
    seconds: float
    workers: int
    # The top of the range of scores left, ``score`` its bottom: the score itself,
    # unless a deadline passed first.
    high: int
    twins: int = 0
    task_cost: float = 0.0  # the parent's own seconds a task sent (``ProbeTally.task_cost``)

    @property
    def low(self) -> int:
        """The bottom of the range of scores left: ``score``."""
        return self.score

    @property
    def complete(self) -> bool:
        """The range is one score."""
        return self.score == self.high


class ParallelSolver:
    """One pool and one table for several parallel solves (see the module doc)."""

    def __init__(self, board: Board, *, workers: int | None = None,
                 backend: str | None = None, split_depth: int = 4, tt_mb: float = 64,
                 helpers: bool = True, probes: int | None = None,
                 executor: Executor | None = None, **pool_options: Any) -> None:
        """``workers`` (None: 2), ``backend`` and ``pool_options`` make the pool, unless
        ``executor`` is given: then a ``workers`` other than its own, a ``backend``
        other than its name or a pool option is a ValueError.  Every argument is
        checked here, before a pool is made (TypeError / ValueError)."""
        check_pool(executor, backend, None)
        pool = pool_arguments(executor, default_workers(workers, executor, 2), backend,
                              **pool_options)
        check_int("split_depth", split_depth, low=1)
        check_megabytes(tt_mb)
        check_count("probes", probes)
        self.board, self.split_depth, self.helpers = board, split_depth, helpers
        self.probes = probes  # null-window probes at once (None: by the pool's size)
        self.game = SplitGame(board, tt_mb)
        self._pool = pool
        self._stack = ExitStack()

    def __enter__(self) -> ParallelSolver:
        self.executor = self._stack.enter_context(pool_for_run(**self._pool))
        if self.executor.shares_files:  # tasks see this machine's files: one table
            path = self.game.table_path = make_shared_table(self.board, self.game.tt_mb)
            self._stack.callback(_drop_table, path)
        self.handle = self.executor.ship(self.game)
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stack.__exit__(*exc)

    def solve(self, position: Position, weak: bool = False, deadline: float | None = None,
              on_probe: Callable[[int, int], None] | None = None) -> ParallelSolve:
        """The exact (or ``weak``) score with every probe split over the workers;
        past ``deadline`` (``time.perf_counter()``) the probes stop, and the result is
        the range of scores left (``complete`` False, ``score`` its low end).
        ``on_probe(low, high)``: the range after each probe answered."""
        start, game = time.perf_counter(), self.game
        if game.is_terminal(position):
            value = game.utility(position, position.moves % 2)
            return ParallelSolve(value, 1, 0, 0, time.perf_counter() - start, 1, value)
        low = loss_score(self.board.cells, position.moves)
        high = win_score(self.board.cells, position.moves)
        tally = ProbeTally()
        try:
            low = high = self._probes(position, (-1, 1) if weak else (low, high), tally,
                                      deadline, on_probe)
        except ProbeTimeout as left:
            low, high = left.low, left.high
        if weak:
            low, high = (low > 0) - (low < 0), (high > 0) - (high < 0)
        return ParallelSolve(low, tally.nodes, tally.tasks, tally.probes,
                             time.perf_counter() - start, self.executor.workers, high,
                             tally.twins, tally.task_cost(least=1) or 0.0)

    def analyze(self, position: Position, weak: bool = False) -> dict[int, int]:
        """The score of every move, searched here on the table the solves filled
        (the shared table; on a cluster, this process's own)."""
        return worker_solver(self.game).analyze(position, weak)

    def analyze_until(self, position: Position, weak: bool, deadline: float | None,
                      on_score: OnScore | None = None) -> tuple[dict[int, int], bool]:
        """``analyze`` until ``deadline``: the columns solved by then, and whether all
        were (``limited.analyze_until``; ``on_score(column, score)`` as each is found)."""
        return analyze_until(worker_solver(self.game), position, weak, deadline, on_score)

    def _probes(self, position: Position, limits: tuple[int, int], tally: ProbeTally,
                deadline: float | None = None,
                on_probe: Callable[[int, int], None] | None = None) -> int:
        """Pons' null-window probes, each split over the workers, ``probes`` at once
        (``games.probes``: the eldest is the sequential solve's), counted in ``tally``."""

        def start(med: int, final: bool) -> YoungBrothersWait:
            cost = tally.task_cost()
            cheap = cost is None or cost <= DEEPER_COST
            deeper = DEEPER + FINAL_DEEPER * final if workers >= DEEPER_WORKERS and cheap else 0
            search = YoungBrothersWait(self.game, self.executor,
                                       split_depth=self.split_depth + deeper, runner=c4_task,
                                       shipped=self.handle, fail_soft=True,
                                       helpers=self.helpers and at_once == 1)
            if workers >= HEAVY_WORKERS:  # a big task of an earlier probe: split deeper
                search.speculative = SPECULATE
                search.heavy = heavy
                mean = tally.nodes // tally.probes if tally.probes else 1 << 62
                search.heavy_nodes = mean // (HEAVY_SHARE * workers)
            search.start(position, med, med + 1)
            return search

        workers, heavy = self.executor.workers, set[Position]()
        at_once = self.probes or auto_at_once(workers)
        return probe_range(start, self.executor, limits, probe_point, at_once, tally,
                           deadline, on_probe)


def _drop_table(path: str) -> None:
    _SHARED.pop(path, None)  # this process's map of it goes too
    os.remove(path)


def parallel_solve(board: Board, position: Position, *, workers: int | None = None,
                   backend: str | None = None, split_depth: int = 4, tt_mb: float = 64,
                   weak: bool = False, executor: Executor | None = None,
                   helpers: bool = True, probes: int | None = None) -> ParallelSolve:
    """The exact (or ``weak``) score with every probe split over the workers;
    ``helpers``: idle workers search twins of running tasks (``ybw``); ``probes``:
    null-window probes at once (``games.probes``; None: by the pool's size).  The
    pool is ``executor`` or one made of ``workers`` (None: 2) and ``backend``, not
    both (``ParallelSolver``)."""
    solver = ParallelSolver(board, workers=workers, backend=backend,
                            split_depth=split_depth, tt_mb=tt_mb, helpers=helpers,
                            probes=probes, executor=executor)
    game = solver.game
    if game.is_terminal(position):  # no pool for a position decided at once
        value = game.utility(position, position.moves % 2)
        return ParallelSolve(value, 1, 0, 0, 0.0, 1, value)
    with solver:
        return solver.solve(position, weak)
