"""The scheduler: cut the tree, ship subtrees to workers, reduce what comes back.

Glossary
--------
work
    ``Work(key, roots)``: subtrees waiting to be run as one task.  ``key`` is a
    tuple giving the work's place in the sequential depth-first order: a task
    for key ``K`` reports its solutions under ``K + (0,)`` and hands back its
    unexplored rest as work ``K + (1,)``; splitting ``K`` in two gives
    ``K + (0,)`` and ``K + (1,)``.  Tuples compare the way the tree is ordered,
    so a stream can release solutions in exactly the sequential order.
reduce
    ``count``: add the weighted counts (a finish accumulator's sum);
    ``first``: the first solution to arrive wins and the rest is cancelled;
    ``all``: solutions released in order, up to ``limit``.
in flight
    Submitted tasks not yet collected: at most ``2 * workers``, so a stop
    cancels little and no running task outlives one node budget.

Example: ``count(space, workers=2)`` cuts the tree into about 100 subtrees,
runs them on two loky processes and returns a report whose ``count`` equals
``sequential_count(space).count``.
"""

from __future__ import annotations

import heapq
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .executors import Executor, make_executor, unship
from .report import SearchReport
from .space import Space
from .split import Subtree, TaskResult, expand, run_subtrees

DEFAULT_BUDGET = 20_000
DEFAULT_PER_WORKER = 50
# The parent tries this many budgets itself before starting to cut and ship.
PROBE_BUDGETS = 8


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a search; ``report`` holds the partial result."""

    def __init__(self, report: SearchReport) -> None:
        super().__init__("search interrupted")
        self.report = report


@dataclass(frozen=True, slots=True)
class Work:
    key: tuple[int, ...]
    roots: tuple[Subtree, ...]


def _task(handle: Any, roots: Sequence[Subtree], mode: str, budget: int, keep: int | None):
    return run_subtrees(unship(handle), roots, mode, budget, keep)


def _check_positive(name: str, value: int | float | None) -> None:
    if value is not None and (isinstance(value, bool) or not value > 0):
        raise ValueError(f"{name} must be a positive number, got {value!r}")


class _Run:
    """One search: the loop that keeps workers fed and reduces their results."""

    def __init__(self, space: Space[Any], mode: str, executor: Executor, *, budget: int | None,
                 per_worker: int | None, limit: int | None, timeout: float | None,
                 progress: bool | None) -> None:
        for name, value in (("budget", budget), ("per_worker", per_worker),
                            ("timeout", timeout)):
            _check_positive(name, value)
        if limit is not None and (isinstance(limit, bool) or limit < 0):
            raise ValueError(f"limit must be a non-negative integer or None, got {limit!r}")
        self.space, self.mode, self.executor = space, mode, executor
        self.budget = budget or getattr(space, "node_budget", DEFAULT_BUDGET)
        self.per_worker = per_worker or DEFAULT_PER_WORKER
        self.limit, self.timeout = limit, timeout
        self.report = SearchReport(mode, executor.workers, executor.name)
        self.pending: deque[Work] = deque()
        self.inflight: dict[Any, Work] = {}
        self.ready: list[tuple[tuple[int, ...], int, tuple[Any, ...]]] = []
        self.released = 0
        self.bar = _progress_bar(progress)

    # -- cutting -------------------------------------------------------------
    def _roots(self) -> list[Subtree]:
        symmetric = getattr(self.space, "count_roots", None)
        if self.mode == "count" and symmetric is not None:
            return list(symmetric())
        return [(self.space.root(), 1)]

    def _probe(self, roots: list[Subtree]) -> list[Subtree]:
        """Run the first few budgets in this process: a small tree finishes here
        without paying for a pool.  Returns what is left to cut (kept, not redone)."""
        keep = self.limit if self.mode == "all" else None
        probe = run_subtrees(self.space, roots, self.mode, PROBE_BUDGETS * self.budget, keep)
        self.report.record_task(probe.seconds, "parent", probe.nodes)
        self.report.nodes += probe.nodes
        if self.mode == "count":
            self.report.count += probe.count
        else:
            self._found((0,), probe.solutions, 1)
        return list(probe.leftover)

    def _cut(self) -> None:
        """Cut the tree into about ``per_worker`` subtrees per worker."""
        roots, prefix = self._roots(), ()
        if self.executor.name != "serial":
            roots, prefix = self._probe(roots), (1,)
            if self._done():
                return
        target = 1 if self.executor.name == "serial" else self.per_worker * self.executor.workers
        frontier = expand(self.space, roots, target)
        self.report.nodes += frontier.nodes
        self.report.split_depth = frontier.depth
        for index, (leaf, state, weight) in enumerate(frontier.items):
            key = prefix + (index,)
            if leaf:
                self._found(key, (state,), weight)
            else:
                self.pending.append(Work(key, ((state, weight),)))
        self.report.frontier = len(self.pending)

    # -- reducing ------------------------------------------------------------
    def _found(self, key: tuple[int, ...], solutions: tuple[Any, ...], weight: int) -> None:
        if not solutions:
            return
        if self.mode == "count":
            self.report.count += weight * len(solutions)
        elif self.mode == "first":
            if self.report.solution is None:
                self.report.solution = solutions[0]
                self.report.count = 1
        else:
            heapq.heappush(self.ready, (key, len(self.ready), solutions))

    def _collect(self, future: Any) -> None:
        work = self.inflight.pop(future)
        result: TaskResult = future.result()
        self.report.record_task(result.seconds, result.worker, result.nodes)
        self.report.nodes += result.nodes
        if self.mode == "count":
            self.report.count += result.count
        else:
            self._found(work.key + (0,), result.solutions, 1)
        if result.leftover:
            self.pending.appendleft(Work(work.key + (1,), result.leftover))

    def _releasable(self) -> Iterator[Any]:
        """Solutions whose place in the order no outstanding work can precede."""
        outstanding = [w.key for w in self.pending] + [w.key for w in self.inflight.values()]
        first_open = min(outstanding) if outstanding else None
        while self.ready and (first_open is None or self.ready[0][0] < first_open):
            _, _, solutions = heapq.heappop(self.ready)
            for state in solutions:
                if self.limit is not None and self.released >= self.limit:
                    return
                self.released += 1
                yield state

    def _done(self) -> bool:
        if self.mode == "first":
            return self.report.solution is not None
        if self.limit is None:
            return False
        reached = self.report.count if self.mode == "count" else self.released
        return reached >= self.limit

    # -- dispatching ---------------------------------------------------------
    def _fill(self) -> None:
        workers = self.executor.workers
        while self.pending and len(self.inflight) < 2 * workers:
            work = self.pending.popleft()
            if len(self.pending) < workers and len(work.roots) >= 2:
                half = len(work.roots) // 2
                self.pending.appendleft(Work(work.key + (1,), work.roots[half:]))
                work = Work(work.key + (0,), work.roots[:half])
            keep = self.limit if self.mode == "all" else None
            started = time.perf_counter()
            future = self.executor.submit(_task, self.handle, work.roots, self.mode,
                                          self.budget, keep)
            self.report.dispatch_seconds += time.perf_counter() - started
            self.inflight[future] = work

    def _tick(self) -> None:
        if self.bar is None:
            return
        self.bar.update(self.report.tasks - self.bar.n)
        self.bar.set_postfix(pending=len(self.pending) + len(self.inflight),
                             nodes=self.report.nodes, solutions=self.report.count or
                             self.released, refresh=False)

    def _out_of_time(self, started: float) -> bool:
        if self.timeout is None or time.perf_counter() - started < self.timeout:
            return False
        self.report.complete, self.report.stop_reason = False, "timeout"
        return True

    def stream(self) -> Iterator[Any]:
        """Run to the end, yielding solutions in order (only in mode ``all``)."""
        started = time.perf_counter()
        try:
            self._cut()
            self.handle = self.executor.ship(self.space)
            yield from self._releasable()
            while (self.pending or self.inflight) and not self._done():
                if self._out_of_time(started):
                    break
                self._fill()
                for future in self.executor.wait_any(list(self.inflight), timeout=0.25):
                    self._collect(future)
                self._tick()
                yield from self._releasable()
        except GeneratorExit:
            self._finish(started, kill=False, reason="closed")
            raise
        except KeyboardInterrupt as stop:
            self._finish(started, kill=True, reason="interrupted")
            raise SearchInterrupted(self.report) from stop
        except BaseException:
            self._finish(started, kill=True, reason="error")
            raise
        self._finish(started, kill=False, reason=self.report.stop_reason)

    def _finish(self, started: float, kill: bool, reason: str | None) -> None:
        if self.pending or self.inflight:
            if not self._done():
                self.report.complete = False
                self.report.stop_reason = reason
        self.executor.cancel(list(self.inflight))
        self.executor.close(kill=kill)
        self.report.seconds = time.perf_counter() - started
        if self.mode == "all":
            self.report.count = self.released
        if self.mode == "count" and self.limit is not None:
            self.report.count = min(self.report.count, self.limit)
        if self.bar is not None:
            self._tick()
            self.bar.close()


def _progress_bar(progress: bool | None) -> Any:
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return None
    from tqdm import tqdm

    return tqdm(desc="search", unit="task", file=sys.stderr, mininterval=0.5, leave=False)


def _run(space: Space[Any], mode: str, workers: int, backend: str | None,
         executor: Executor | None, address: str | None, **options: Any) -> _Run:
    if executor is None:
        extra = {} if address is None else {"address": address}
        executor = make_executor(workers, backend, **extra)
    return _Run(space, mode, executor, **options)


def count(space: Space[Any], *, workers: int = 1, backend: str | None = None,
          limit: int | None = None, budget: int | None = None, per_worker: int | None = None,
          timeout: float | None = None, progress: bool | None = False,
          executor: Executor | None = None, address: str | None = None) -> SearchReport:
    """Count the solutions (``min(total, limit)`` with a limit): exact for any split."""
    run = _run(space, "count", workers, backend, executor, address, budget=budget,
               per_worker=per_worker, limit=limit, timeout=timeout, progress=progress)
    for _ in run.stream():
        pass
    return run.report


def solve(space: Space[Any], *, workers: int = 1, backend: str | None = None,
          budget: int | None = None, per_worker: int | None = None,
          timeout: float | None = None, progress: bool | None = False,
          executor: Executor | None = None, address: str | None = None) -> SearchReport:
    """The first solution any worker finds (``report.solution``, None if there is none).

    Pending work is cancelled at once; running tasks end within one budget.
    """
    run = _run(space, "first", workers, backend, executor, address, budget=budget,
               per_worker=per_worker, limit=None, timeout=timeout, progress=progress)
    for _ in run.stream():
        pass
    return run.report


class SolutionStream:
    """Solutions in sequential depth-first order; ``report`` is final once exhausted."""

    def __init__(self, run: _Run) -> None:
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
              per_worker: int | None = None, timeout: float | None = None,
              progress: bool | None = False, executor: Executor | None = None,
              address: str | None = None) -> SolutionStream:
    """A stream of the first ``limit`` solutions (all when None), in sequential order."""
    run = _run(space, "all", workers, backend, executor, address, budget=budget,
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
                value = future.result()
                if value is not None and (winner[0] < 0 or index < winner[0]):
                    winner = (index, value)
    finally:
        executor.cancel(list(futures))
        executor.close(kill=bool(futures))
    return winner
