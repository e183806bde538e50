"""Connect-Four on the parallel alpha-beta: the first plies of each null-window probe
are split (Young Brothers Wait), the subtrees below run Pons' compiled negamax.

Glossary
--------
SplitGame
    The split plies' view of Connect-Four: a position is terminal when the game
    is over or the player to move wins at once (scored as Pons scores it), so
    every task starts where the compiled negamax may start.
worker solver
    Each worker process keeps one ``Solver`` (its transposition table) per board
    and table size, for every probe and position of a run.
probe
    One null-window search ``(med, med + 1)``, as in Pons' ``solve``; the
    parallel solve runs the same sequence of probes as the sequential one.

Example: ``parallel_solve(Board(), Board().parse("4453"), workers=2)`` gives the
score the sequential ``Solver.solve`` gives.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Any

from ..engine import make_executor
from ..engine.window import SharedBounds
from ..engine.worker import unship
from .c4board import Board, Connect4Game, Position
from .c4kernel import Solver, half
from .parallel import Chain, YoungBrothersWait, chain_window

_SOLVERS: dict[tuple[int, int, float], Solver] = {}
_RUNS: dict[tuple[int, int, float], str] = {}  # the run each worker table belongs to


class SplitGame(Connect4Game):
    """Connect-Four whose terminal states include "the player to move wins now"."""

    def __init__(self, board: Board, tt_mb: float) -> None:
        super().__init__(board)
        self.tt_mb = tt_mb
        self.run = uuid.uuid4().hex  # a worker's table starts empty for each run

    def wins_now(self, state: Position) -> bool:
        return any(self.board.can_play(state, c)
                   and self.board.last_mover_won(self.board.play(state, c))
                   for c in range(self.board.width))

    def is_terminal(self, state: Position) -> bool:
        return super().is_terminal(state) or self.wins_now(state)

    def utility(self, state: Position, player: int) -> int:
        if super().is_terminal(state):
            return super().utility(state, player)
        won = (self.board.cells + 1 - state.moves) // 2  # the player to move wins now
        return won if player == state.moves % 2 else -won


def worker_solver(game: SplitGame) -> Solver:
    key = (game.board.width, game.board.height, game.tt_mb)
    solver = _SOLVERS.get(key)
    if solver is None:
        solver = _SOLVERS[key] = Solver(game.board, game.tt_mb)
    if _RUNS.get(key) != game.run:
        solver.reset()
        _RUNS[key] = game.run
    return solver


def c4_task(handle: Any, state: Position, chain: Chain, root_window: tuple[int, int],
            bounds: SharedBounds) -> tuple[int, int, list[Any]]:
    """Pons' negamax below one split-ply position, in the window the bounds give."""
    game = unship(handle)
    alpha, beta = chain_window(chain, root_window, bounds)
    if alpha >= beta:
        return beta, 0, []
    value, nodes = worker_solver(game).window(state, alpha, beta)
    return value, nodes, []


@dataclass
class ParallelSolve:
    score: int
    nodes: int
    tasks: int
    probes: int
    seconds: float
    workers: int


def parallel_solve(board: Board, position: Position, *, workers: int = 2,
                   backend: str | None = None, split_depth: int = 2, tt_mb: float = 64,
                   weak: bool = False, executor: Any = None) -> ParallelSolve:
    """The exact (or ``weak``) score with every probe split over the workers."""
    start = time.perf_counter()
    game = SplitGame(board, tt_mb)
    if game.is_terminal(position):
        value = game.utility(position, position.moves % 2)
        return ParallelSolve(value, 1, 0, 0, time.perf_counter() - start, 1)
    owned = executor is None
    executor = executor or make_executor(workers, backend)
    handle = executor.ship(game)
    low = -((board.cells - position.moves) // 2)
    high = (board.cells + 1 - position.moves) // 2
    if weak:
        low, high = -1, 1
    counts = [0, 0, 0]  # nodes, tasks, probes
    try:
        low = _probes(game, executor, handle, position, low, high, split_depth, counts)
    except BaseException:
        executor.close(kill=True) if owned else executor.release()
        raise
    executor.close() if owned else executor.release()
    score = (low > 0) - (low < 0) if weak else low
    return ParallelSolve(score, counts[0], counts[1], counts[2], time.perf_counter() - start,
                         executor.workers)


def _probes(game: SplitGame, executor: Any, handle: Any, position: Position, low: int,
            high: int, split_depth: int, counts: list[int]) -> int:
    """Pons' null-window probe sequence, each probe split over the workers."""
    while low < high:
        med = low + (high - low) // 2
        if med <= 0 and half(low) < med:
            med = half(low)
        elif med >= 0 and half(high) > med:
            med = half(high)
        search = YoungBrothersWait(game, executor, split_depth=split_depth,
                                   runner=c4_task, shipped=handle)
        found = search.run(position, med, med + 1)
        counts[0] += found.nodes
        counts[1] += found.tasks
        counts[2] += 1
        if found.value <= med:
            high = found.value
        else:
            low = found.value
    return low
