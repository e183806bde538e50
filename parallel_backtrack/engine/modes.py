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
    cluster); ``budget`` / ``budget_seconds`` bound each task; ``per_worker``
    sets the initial split; ``timeout`` the whole run; ``progress`` the bar.
owned executor
    One these functions made is closed at the end of the run; one passed in
    as ``executor=`` is only released (its workers stay for the caller).

Example: ``count(NoAdjacentOnes(10), workers=2).count == 144``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .checkpoint import Checkpoint
from .executors import Executor, make_executor
from .report import SearchReport
from .scheduler import Run
from .space import Space


def _run(space: Space[Any], mode: str, workers: int, backend: str | None,
         executor: Executor | None, address: str | None, **options: Any) -> Run:
    owns = executor is None
    if executor is None:
        extra = {} if address is None else {"address": address}
        executor = make_executor(workers, backend, **extra)
    return Run(space, mode, executor, owns=owns, **options)


def count(space: Space[Any], *, workers: int = 1, backend: str | None = None,
          limit: int | None = None, budget: int | None = None,
          budget_seconds: float | None = None, per_worker: int | None = None,
          timeout: float | None = None, progress: bool | None = False,
          executor: Executor | None = None, address: str | None = None,
          checkpoint: Checkpoint | str | None = None) -> SearchReport:
    """Count the solutions (``min(total, limit)`` with a limit): exact for any split.
    ``checkpoint`` (a file path, or a ``Checkpoint``): go on from it if it exists, and
    write it now and then; a complete count removes it (``checkpoint.py``)."""
    if isinstance(checkpoint, str):
        checkpoint = Checkpoint(checkpoint)
    run = _run(space, "count", workers, backend, executor, address, budget=budget,
               budget_seconds=budget_seconds, per_worker=per_worker, limit=limit,
               timeout=timeout, progress=progress, checkpoint=checkpoint)
    for _ in run.stream():
        pass
    return run.report


def solve(space: Space[Any], *, workers: int = 1, backend: str | None = None,
          budget: int | None = None, budget_seconds: float | None = None,
          per_worker: int | None = None, timeout: float | None = None,
          progress: bool | None = False, executor: Executor | None = None,
          address: str | None = None) -> SearchReport:
    """The first solution any worker finds (``report.solution``, None if there is none).

    Pending work is cancelled at once and running tasks see the stop flag and end
    within milliseconds (at most one budget); the pool stays warm for the next call.
    """
    run = _run(space, "first", workers, backend, executor, address, budget=budget,
               budget_seconds=budget_seconds, per_worker=per_worker, limit=None,
               timeout=timeout, progress=progress)
    for _ in run.stream():
        pass
    return run.report


class SolutionStream:
    """Solutions in sequential depth-first order; ``report`` is final once exhausted."""

    def __init__(self, run: Run) -> None:
        self.report = run.report
        self._states = run.stream()

    def __iter__(self) -> Iterator[Any]:
        return self._states

    def __next__(self) -> Any:
        return next(self._states)

    def close(self) -> None:
        self._states.close()


def solutions(space: Space[Any], *, limit: int | None = None, workers: int = 1,
              backend: str | None = None, budget: int | None = None,
              budget_seconds: float | None = None, per_worker: int | None = None,
              timeout: float | None = None, progress: bool | None = False,
              executor: Executor | None = None, address: str | None = None) -> SolutionStream:
    """A stream of the first ``limit`` solutions (all when None), in sequential order."""
    run = _run(space, "all", workers, backend, executor, address, budget=budget,
               budget_seconds=budget_seconds, per_worker=per_worker, limit=limit,
               timeout=timeout, progress=progress)
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
                value = future.result()
                if value is not None and (winner[0] < 0 or index < winner[0]):
                    winner = (index, value)
    finally:
        # Killing ends the rest; cancelling first trips loky 3.7 (InvalidStateError).
        executor.close(kill=bool(futures))
    return winner
