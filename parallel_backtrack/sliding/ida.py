"""IDA* on a board: the one driver, sequential or over workers (``engine.threshold``).

Glossary
--------
bound
    The f = g + h limit of one iteration; the next one is the smallest f that
    exceeded it.  The first goal met within a bound is optimal.
nodes
    Korf's count: every child generated over all iterations, plus 1 for the
    root (once).  A child whose f exceeds the bound counts; the final
    iteration stops at the first goal unless ``complete_last``.
complete_last
    Run the final iteration to its end too: the count is then the same for
    any number of workers and any split of the tree, which is what parallel
    runs are compared on.
move order
    The blank tries UP, LEFT, RIGHT, DOWN in the blank-first frame; a
    blank-last board is turned half a turn into that frame, so on the board
    itself the order is DOWN, RIGHT, LEFT, UP.  Moves come back in the board's
    own frame.
workers
    1 (the default of ``solve``): every iteration runs here, in the compiled
    pass.  More: each iteration worth a dispatch is cut into subtrees run on a
    pool (``solve_parallel``'s default is 2).
on_iteration
    ``on_iteration(bound, nodes so far)`` after each iteration.

Example: ``solve(Board((1, 2, 3, 4, 5, 6, 7, 0, 8))).moves == "R"``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._jit_cache import compile_notice
from ..engine.threshold import threshold_search
from .board import Board, UnsolvableError, board_moves, to_frame
from .heuristics import tables_for
from .kernel import search as kernel
from .space import CHUNK, Pass, SlidingSpace

__all__ = ["CHUNK", "IdaResult", "Pass", "solve", "solve_parallel"]


@dataclass(frozen=True, slots=True)
class IdaResult:
    """One IDA* search: ``moves`` (of the blank, ``U L R D``) when ``complete``."""

    moves: str | None
    nodes: int
    iterations: int
    bound: int
    seconds: float
    stop_reason: str | None = None
    tasks: int = 0  # sent to a pool (0: searched here)
    task_cost: float = 0.0  # the parent's measured seconds a task, when it sent any

    @property
    def complete(self) -> bool:
        return self.stop_reason is None

COMPILE_WHAT = "the sliding-puzzle IDA* kernel"
COMPILE_SECONDS = "5-30 s"


def solve(board: Board, heuristic: str = "manhattan", *, workers: int = 1,
          backend: str | None = None, executor: Any = None, complete_last: bool = False,
          max_nodes: int | None = None, deadline: float | None = None,
          timeout: float | None = None, stop: Callable[[], bool] | None = None,
          chunk: int = CHUNK, on_iteration: Callable[[int, int], None] | None = None,
          **tuning: Any) -> IdaResult:
    """Optimal moves for ``board`` by IDA*; stops early (``stop_reason``) at
    ``deadline`` (a ``time.perf_counter`` value) or after ``timeout`` seconds,
    ``max_nodes`` or ``stop()``.  ``tuning``: ``per_worker``, ``parent_nodes``,
    ``order`` of ``engine.threshold_search``."""
    if not board.is_solvable():
        raise UnsolvableError("unsolvable: the tile parity differs from the goal's")
    started = time.perf_counter()
    tables_for(board.size(), heuristic)  # build or map the tables before any pool starts
    if deadline is not None:
        left = deadline - started
        timeout = left if timeout is None else min(timeout, left)
    space = SlidingSpace(to_frame(board), board.size(), heuristic, chunk)
    nodes_so_far = [1]

    def report_row(row: dict[str, float]) -> None:
        nodes_so_far[0] += int(row["nodes"])
        if on_iteration is not None:
            on_iteration(int(row["bound"]), nodes_so_far[0])

    # The one kernel these tables run (the other may never be compiled on this machine).
    used = kernel.search_tile if space.tables.kind == kernel.PER_TILE else kernel.search
    with compile_notice(COMPILE_WHAT, [used], COMPILE_SECONDS):
        report = threshold_search(space, workers=workers, backend=backend,
                                  executor=executor, complete_last=complete_last,
                                  timeout=timeout, max_nodes=max_nodes, stop=stop,
                                  on_iteration=report_row, **tuning)
    seconds = time.perf_counter() - started
    bound = int(min(report.bound, kernel.NO_BOUND))
    tasks = len(report.task_seconds)
    cost = report.task_cost if tasks else 0.0
    if report.solution is None:
        return IdaResult(None, report.nodes, len(report.iterations), bound, seconds,
                         report.stop_reason or "no solution", tasks, cost)
    return IdaResult(board_moves(board, list(report.solution.moves)), report.nodes,
                     len(report.iterations), bound, seconds, None, tasks, cost)


def solve_parallel(board: Board, heuristic: str = "manhattan", *, workers: int = 2,
                   **options: Any) -> IdaResult:
    """``solve`` over ``workers`` processes (2 by default); the same options."""
    return solve(board, heuristic, workers=workers, **options)
