"""The search modes as functions: ``count``, ``solve``, ``solutions``, and ``first_hit``.

Each builds an executor (unless given one), runs the scheduler in one mode and
returns its ``SearchReport`` (or a stream carrying it).

Glossary
--------
mode
    ``count``: the number of solutions (a sum); ``solve``: the first solution
    any worker finds (the rest is cancelled); ``solutions``: a stream in the
    sequential depth-first order.
options
    ``workers`` and ``backend`` choose the executor (``address`` joins a Dask
    cluster; none of them with ``executor=``); ``budget`` / ``budget_seconds``
    bound each task; ``per_worker`` sets the initial split; ``timeout`` the whole
    run; ``progress`` the bar.
owned executor
    One these functions made is closed at the end of the run; one passed in
    as ``executor=`` is only released (its workers stay for the caller).

Example: ``count(NoAdjacentOnes(10), workers=2).count == 144``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .arguments import check_budgets, check_space
from .checkpoint import Checkpoint, checkpoint_for
from .executors import Executor, check_borrowed, check_pool, default_workers, make_executor
from .report import SearchReport
from .scheduler import Run
from .space import Space


def _run(space: Space[Any], mode: str, *, workers: int | None, backend: str | None,
         executor: Executor | None, address: str | None, budget: int | None,
         budget_seconds: float | None, per_worker: int | None, limit: int | None,
         timeout: float | None, progress: bool | None,
         checkpoint: Checkpoint | str | None = None) -> Run:
    """Every argument checked (before any pool starts or any work), then the run."""
    check_space(space)
    check_budgets(budget=budget, budget_seconds=budget_seconds, per_worker=per_worker,
                  timeout=timeout, limit=limit)
    backend = check_pool(executor, backend, address)
    check_borrowed(executor, workers, backend)
    saved = checkpoint_for(checkpoint)
    owns = executor is None
    if executor is None:
        extra = {} if address is None else {"address": address}
        executor = make_executor(default_workers(workers, None), backend, **extra)
    return Run(space, mode, executor, owns=owns, budget=budget,
               budget_seconds=budget_seconds, per_worker=per_worker, limit=limit,
               timeout=timeout, progress=progress, checkpoint=saved)


def count(space: Space[Any], *, workers: int | None = None, backend: str | None = None,
          limit: int | None = None, budget: int | None = None,
          budget_seconds: float | None = None, per_worker: int | None = None,
          timeout: float | None = None, progress: bool | None = False,
          executor: Executor | None = None, address: str | None = None,
          checkpoint: Checkpoint | str | None = None) -> SearchReport:
    """Count the solutions of ``space``: exact whatever the workers, split or backend.

    Parameters
    ----------
    space
        The search tree: an object with ``root()``, ``branch(state)`` and
        ``is_solution(state)`` (``engine.Space``; fast hooks optional).
    workers
        Worker processes or threads: a positive integer, or -1 for every core;
        None: 1 (or the ``executor``'s).
    backend
        ``"loky"``, ``"fork"``, ``"threads"``, ``"serial"`` or ``"dask"``
        (``backend_names()``); None: ``"serial"`` for one worker, else ``"loky"``
        (``"dask"`` when ``address`` is given).
    limit
        Stop once this many solutions are counted (an integer >= 0); the count is
        then ``min(total, limit)``.  None: count them all.
    budget
        Nodes one task visits before it hands back its rest (a positive integer);
        None: the space's ``node_budget`` or 20,000.
    budget_seconds
        Seconds one task runs before it hands back its rest; None: no time budget.
    per_worker
        Subtrees per worker in the first cut (a positive integer); None: 50.
    timeout
        Seconds for the whole run; when they run out the count is partial
        (``complete`` False, ``stop_reason`` ``"timeout"``).  None: no limit.
    progress
        A progress bar on stderr: True, False, or None (only when stderr is a
        terminal).
    executor
        A pool you made (``make_executor``, ``VirtualExecutor``), kept open for you
        after the run.  It is the pool: a ``workers`` other than its own or a
        ``backend`` other than its name is a ValueError (leave them None).
    address
        A Dask scheduler's address (``"tcp://host:8786"``) to run the tasks on;
        implies ``backend="dask"``.  Not with ``executor``.
    checkpoint
        A file path or a ``Checkpoint``: go on from it if it holds this search's
        checkpoint, write it now and then (and at a timeout), remove it once the
        count is complete.  Its folder must exist and be writable.

    Returns
    -------
    SearchReport
        ``count`` (a lower bound when ``complete`` is False), ``nodes``, ``tasks``,
        ``seconds``, ``complete``, ``stop_reason``, the cut (``frontier``,
        ``split_depth``), per-task figures (``task_seconds``, ``task_nodes``, ...)
        and ``worker_stats()``.

    Raises
    ------
    ValueError, TypeError
        A bad argument, before any work: TypeError (``WrongTypeError``, also a
        ValueError) for one of the wrong type, ValueError for one out of range or
        for ``workers`` / ``backend`` that ``executor`` would ignore
        (``CheckpointError``, a ValueError, for a checkpoint that cannot be written
        or resumed).
    SearchInterrupted
        Ctrl-C; its ``report`` holds the partial count.
    WorkerCrashError
        Worker processes kept dying; its ``report`` holds what was counted.

    Example
    -------
    >>> from parallel_backtrack.engine.examples import NoAdjacentOnes
    >>> count(NoAdjacentOnes(10), workers=2, backend="threads").count
    144
    """
    run = _run(space, "count", workers=workers, backend=backend, executor=executor,
               address=address, budget=budget, budget_seconds=budget_seconds,
               per_worker=per_worker, limit=limit, timeout=timeout, progress=progress,
               checkpoint=checkpoint)
    for _ in run.stream():
        pass
    return run.report


def solve(space: Space[Any], *, workers: int | None = None, backend: str | None = None,
          budget: int | None = None, budget_seconds: float | None = None,
          per_worker: int | None = None, timeout: float | None = None,
          progress: bool | None = False, executor: Executor | None = None,
          address: str | None = None) -> SearchReport:
    """The first solution any worker finds; the rest of the search is cancelled.

    Pending work is cancelled at once and running tasks see the stop flag and end
    within milliseconds (at most one budget); the pool stays warm for the next call.
    Which solution comes first depends on the workers' timing (``solutions(space,
    limit=1)`` gives the sequential search's first).

    Parameters
    ----------
    space, workers, backend, executor, address
        As in ``count``: the search tree and the pool (``workers``: a positive
        integer or -1; ``backend`` by name; a pool you made as ``executor``; a Dask
        scheduler's ``address``).
    budget, budget_seconds, per_worker, timeout, progress
        As in ``count``: one task's budgets (nodes, seconds), the subtrees per
        worker of the first cut, the seconds for the whole run, the progress bar.

    Returns
    -------
    SearchReport
        ``solution`` (None when there is none, or when ``timeout`` ran out first:
        ``complete`` False), ``solution_seconds`` (when it was found), ``nodes``,
        ``tasks``, ``seconds`` and the other figures ``count`` reports.

    Example
    -------
    >>> from parallel_backtrack.engine.examples import NoAdjacentOnes
    >>> space = NoAdjacentOnes(10)
    >>> space.is_solution(solve(space, workers=2, backend="threads").solution)
    True
    """
    run = _run(space, "first", workers=workers, backend=backend, executor=executor,
               address=address, budget=budget, budget_seconds=budget_seconds,
               per_worker=per_worker, limit=None, timeout=timeout, progress=progress)
    for _ in run.stream():
        pass
    return run.report


class SolutionStream:
    """Solutions in sequential depth-first order (what ``solutions`` returns).

    Iterate it for the solutions; ``report`` (a ``SearchReport``) is final once the
    stream is exhausted; ``close()`` stops it early.
    """

    def __init__(self, run: Run) -> None:
        self.report = run.report
        self._states = run.stream()
        self._reduction = run.reduction

    def __iter__(self) -> Iterator[Any]:
        return self._states

    def __next__(self) -> Any:
        return next(self._states)

    def close(self) -> None:
        self._states.close()

    def __repr__(self) -> str:
        report, reduction = self.report, self._reduction
        released = getattr(reduction, "released", report.count)
        return (f"SolutionStream(limit={reduction.limit!r}, released={released}, "
                f"workers={report.workers}, backend={report.backend!r})")


def solutions(space: Space[Any], *, limit: int | None = None,
              workers: int | None = None,
              backend: str | None = None, budget: int | None = None,
              budget_seconds: float | None = None, per_worker: int | None = None,
              timeout: float | None = None, progress: bool | None = False,
              executor: Executor | None = None, address: str | None = None) -> SolutionStream:
    """A stream of the first ``limit`` solutions, in the sequential search's order.

    On any number of workers the stream gives exactly the solutions a sequential
    depth-first search meets first, in that order; it starts searching at the first
    ``next()``.  Arguments are checked at the call.

    Parameters
    ----------
    limit
        How many solutions (an integer >= 0); None: all of them.
    space, workers, backend, executor, address
        As in ``count``: the search tree and the pool.
    budget, budget_seconds, per_worker, timeout, progress
        As in ``count``.  A ``timeout`` ends the stream early (``report.complete``
        False).

    Returns
    -------
    SolutionStream
        An iterator of solution states; its ``report`` (a ``SearchReport``: ``count``
        is the solutions released) is final once the stream is exhausted.

    Example
    -------
    >>> from parallel_backtrack.engine.examples import NoAdjacentOnes
    >>> list(solutions(NoAdjacentOnes(3), limit=2, workers=2, backend="threads"))
    [(0, 0, 0), (0, 0, 1)]
    """
    run = _run(space, "all", workers=workers, backend=backend, executor=executor,
               address=address, budget=budget, budget_seconds=budget_seconds,
               per_worker=per_worker, limit=limit, timeout=timeout, progress=progress)
    return SolutionStream(run)


def first_hit(fn: Callable[..., Any], arguments: Sequence[tuple[Any, ...]], *,
              workers: int = 1, backend: str | None = None) -> tuple[int, Any]:
    """Run ``fn(*args)`` for each tuple; (index, result) of the first non-None result.

    A portfolio: the remaining calls are cancelled and, on a process pool, the
    workers still running are stopped.  ``(-1, None)`` when every call gave None.
    """
    executor = make_executor(workers, backend)
    futures = {executor.submit(fn, *args): index for index, args in enumerate(arguments)}
    winner: tuple[int, Any] = (-1, None)
    try:
        while futures and winner[0] < 0:
            for future in executor.wait_any(list(futures)):
                index = futures.pop(future)
                value = executor.result(future)
                if value is not None and (winner[0] < 0 or index < winner[0]):
                    winner = (index, value)
    finally:
        # Killing ends the rest; cancelling first trips loky 3.7 (InvalidStateError).
        executor.close(kill=bool(futures))
    return winner
