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
    pool (``solve_parallel``'s default is 2), or on an ``executor`` given instead.
on_iteration
    ``on_iteration(bound, nodes so far)`` after each iteration.

Example: ``solve(Board((1, 2, 3, 4, 5, 6, 7, 0, 8))).moves == "R"``.
"""

from __future__ import annotations

import inspect
import math
import numbers
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._jit_cache import compile_notice
from ..engine.backends import backend_names
from ..engine.checks import check_int, check_name, check_workers
from ..engine.executors import check_pool, default_workers, pool_arguments
from ..engine.threshold import ORDERS, PARENT_NODES, PER_WORKER, threshold_search
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
    # (bound, nodes) of each iteration, in order; the nodes add up to ``nodes`` - 1 (the
    # root is counted once, before the first iteration).
    per_iteration: tuple[tuple[int, int], ...] = ()

    @property
    def complete(self) -> bool:
        return self.stop_reason is None

COMPILE_WHAT = "the sliding-puzzle IDA* kernel"
COMPILE_SECONDS = "5-30 s"


def solve(board: Board, heuristic: str = "manhattan", *, workers: int | None = None,
          backend: str | None = None, executor: Any = None, complete_last: bool = False,
          max_nodes: int | None = None, deadline: float | None = None,
          timeout: float | None = None, stop: Callable[[], bool] | None = None,
          chunk: int = CHUNK, on_iteration: Callable[[int, int], None] | None = None,
          per_worker: int = PER_WORKER, parent_nodes: int | None = PARENT_NODES,
          order: str = "tree") -> IdaResult:
    """Optimal moves for ``board`` by IDA*, here or over workers.

    Parameters
    ----------
    board
        A ``Board`` (``Board((8, 1, 3, 4, 0, 2, 7, 6, 5))``); its ``goal`` says which
        solved board is meant.  An unsolvable one raises ``UnsolvableError``.
    heuristic
        Its name: ``hamming``, ``manhattan`` (the default), ``linear``, ``pdb``,
        ``pdb-exact``, ``pdb-555``, ``pdb-663``, ``pdb-78`` or ``auto`` (a database
        is built, or read from the cache, before the search).
    workers, backend, executor
        1 (None, the default, is 1): every iteration runs here.  More (or -1, every
        core): on a pool of the engine's ``backend`` (``loky`` by default).  Or a pool
        you made as ``executor`` (its workers count then): a ``workers`` other than
        its own or a ``backend`` other than its name is a ValueError.
    complete_last
        Run the final iteration to its end, so ``nodes`` does not depend on the
        workers.
    max_nodes, timeout, deadline, stop
        Stop early, with ``stop_reason`` ``max-nodes``, ``timeout`` or ``stopped``:
        after about ``max_nodes`` nodes (a positive int), after ``timeout`` seconds
        (a positive number), at ``deadline`` (a ``time.perf_counter()`` value: the
        monotonic clock, not ``time.time()``), or once ``stop()`` returns true.
    chunk
        Nodes the compiled pass runs between two looks at the limits (a positive
        int; ``CHUNK`` by default).
    on_iteration
        ``on_iteration(bound, nodes so far)``, called after each iteration.
    per_worker, parent_nodes, order
        ``engine.threshold_search``'s tuning: subtrees a worker at most (a positive
        int), the node count under which an iteration runs here (an int >= 0; None:
        the cost model decides) and the task order (``tree`` or ``size``).

    Returns
    -------
    IdaResult
        ``moves`` (the blank's ``U L R D``, None when stopped early), ``nodes``,
        ``iterations``, the last ``bound``, ``seconds``, ``stop_reason`` (None when
        ``complete``), ``per_iteration`` (each iteration's bound and nodes) and, on a
        pool, ``tasks`` and ``task_cost``.

    A bad argument raises TypeError or ValueError before any work.
    """
    if not isinstance(board, Board):
        raise TypeError(f"board must be a Board, e.g. Board((8, 1, 3, 4, 0, 2, 7, 6, 5)), "
                        f"got {type(board).__name__} {board!r}")
    _check_options(heuristic, workers, backend, executor, max_nodes, deadline, timeout, stop,
                   chunk, on_iteration, per_worker, parent_nodes, order)
    pool = pool_arguments(executor, workers, backend)  # what executor ignores: refused
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
        report = threshold_search(space, **pool, complete_last=complete_last,
                                  timeout=timeout, max_nodes=max_nodes, stop=stop,
                                  on_iteration=report_row, per_worker=per_worker,
                                  parent_nodes=parent_nodes, order=order)
    seconds = time.perf_counter() - started
    bound = int(min(report.bound, kernel.NO_BOUND))
    tasks = len(report.task_seconds)
    cost = report.task_cost if tasks else 0.0
    rows = tuple((int(row["bound"]), int(row["nodes"])) for row in report.iterations)
    if report.solution is None:
        return IdaResult(None, report.nodes, len(report.iterations), bound, seconds,
                         report.stop_reason or "no solution", tasks, cost, rows)
    return IdaResult(board_moves(board, list(report.solution.moves)), report.nodes,
                     len(report.iterations), bound, seconds, None, tasks, cost, rows)


def solve_parallel(board: Board, heuristic: str = "manhattan", *,
                   workers: int | None = None, **options: Any) -> IdaResult:
    """``solve`` over ``workers`` processes (None: 2, or the ``executor``'s when one is
    given): the same parameters (any keyword of ``solve``) and the same ``IdaResult``."""
    unknown = sorted(set(options) - _OPTIONS)
    if unknown:
        raise TypeError(f"solve_parallel() got an unexpected keyword argument {unknown[0]!r}; "
                        f"expected some of {sorted(_OPTIONS)}")
    workers = default_workers(workers, options.get("executor"), 2)
    return solve(board, heuristic, workers=workers, **options)


def _check_options(heuristic: object, workers: object, backend: object, executor: object,
                   max_nodes: object, deadline: object, timeout: object, stop: object,
                   chunk: object, on_iteration: object, per_worker: object,
                   parent_nodes: object, order: object) -> None:
    """TypeError or ValueError for the first bad argument of ``solve``, saying what
    arrived and what is accepted."""
    if not isinstance(heuristic, str):
        raise TypeError(f"heuristic must be a name (str), got {heuristic!r}")
    if workers is not None:
        check_workers(workers)
    check_pool(executor, backend, None)
    if backend is not None and backend != getattr(executor, "name", None):  # its own: agrees
        check_name("backend", backend, backend_names())  # type: ignore[arg-type]
    if max_nodes is not None:
        check_int("max_nodes", max_nodes, low=1)
    _check_seconds("timeout", timeout, positive=True)
    _check_seconds("deadline", deadline, positive=False)
    check_int("chunk", chunk, low=1)
    check_int("per_worker", per_worker, low=1)
    if parent_nodes is not None:
        check_int("parent_nodes", parent_nodes, low=0)
    check_name("task order", order, ORDERS)  # type: ignore[arg-type]
    for name, function in (("stop", stop), ("on_iteration", on_iteration)):
        if function is not None and not callable(function):
            raise TypeError(f"{name} must be a function or None, got {function!r}")


def _check_seconds(kind: str, value: object, *, positive: bool) -> None:
    """A number of seconds (positive, if asked) that is finite, or None."""
    if value is None:
        return
    wanted = "a positive number" if positive else "a number"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{kind} must be {wanted} of seconds or None, got {value!r}")
    if not math.isfinite(value) or (positive and value <= 0):
        raise ValueError(f"{kind} must be {wanted} of seconds or None, got {value!r}")


_OPTIONS = frozenset(inspect.signature(solve).parameters) - {"board", "heuristic"}
