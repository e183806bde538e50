"""Threshold search (IDA*-style) on the executors: iterations with a rising bound.

Each iteration cuts the tree below the bound into many subtrees, runs them as
tasks and reduces: the minimum f that exceeded the bound (the next bound), and
the first solution found at the bound, which ends the search (it is optimal
when f never overestimates).  The rest of that iteration is cancelled, unless
``complete_last`` asks for the whole of it (node counts then do not depend on
the workers or the split).

Glossary
--------
ThresholdSpace
    What a problem provides: ``root()``, ``f(state)`` (g + h), ``branch(state)``
    (children in order), ``is_solution(state)`` and ``search_below(state,
    bound, complete, stop) -> Bounded``, the depth-first search of one subtree
    (usually a compiled kernel), asking ``stop(nodes generated so far in this
    call)`` now and then and returning early when it says so.
nodes
    Children generated: the root counts 1, each child made in the cut counts
    1, and every task adds what ``search_below`` generated below its subtree.
key
    A subtree's path of child indexes from the root.
order
    ``"tree"`` (default): subtrees run in the sequential search's order (by
    key), so the iteration that holds a solution reaches it after about the
    work a sequential search does.  ``"size"``: largest first by their size in
    the previous iteration (the size of their longest known ancestor); the
    solution of the last iteration is then met sooner or later than in
    sequence, by luck.  Either way they are packed into tasks of about equal
    expected size, in that order.
parent iterations
    An iteration whose predecessor had fewer than ``parent_nodes`` nodes runs
    in this process: small iterations are not worth a dispatch.  With one
    worker every iteration does.
stop reasons
    ``timeout`` (``timeout`` seconds passed), ``max-nodes`` (``max_nodes``
    generated, checked between chunks and tasks), ``stopped`` (``stop()`` said
    so); the report then holds the nodes so far and no solution.

Example: ``threshold_search(space, workers=2).solution`` is an optimal solution.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .executors import Executor, make_executor
from .worker import unship

INFINITE = float("inf")
PER_WORKER = 200
TASKS_PER_WORKER = 16
PARENT_NODES = 2_000_000
ORDERS = ("tree", "size")


@dataclass(frozen=True, slots=True)
class Bounded:
    """One subtree below one bound: nodes generated, the least f over it, a solution."""

    nodes: int
    next_bound: float
    solution: Any = None


class ThresholdSpace(Protocol):
    def root(self) -> Any: ...

    def f(self, state: Any) -> float: ...

    def branch(self, state: Any) -> Sequence[Any]: ...

    def is_solution(self, state: Any) -> bool: ...

    def search_below(self, state: Any, bound: float, complete: bool,
                     stop: Callable[[int], bool]) -> Bounded: ...


@dataclass
class ThresholdReport:
    """The search: solution, final bound, nodes, and what each iteration cost."""

    workers: int
    backend: str
    solution: Any = None
    bound: float = INFINITE
    nodes: int = 1
    iterations: list[dict[str, float]] = field(default_factory=list)
    task_seconds: list[float] = field(default_factory=list)
    seconds: float = 0.0
    stop_reason: str | None = None

    @property
    def complete(self) -> bool:
        return self.stop_reason is None


def run_subtrees(handle: Any, subtrees: list[tuple[tuple[int, ...], Any]], bound: float,
                 complete: bool, flag: Any) -> tuple[list[tuple[Any, int, float, Any]], float]:
    """A task: search each subtree below ``bound``; ([(key, nodes, next, solution)], s)."""
    started = time.perf_counter()
    space = unship(handle)

    def stop(nodes: int = 0) -> bool:
        return bool(flag.is_set())

    found = []
    for key, state in subtrees:
        if not complete and stop():
            break
        result = space.search_below(state, bound, complete, stop)
        found.append((key, result.nodes, result.next_bound, result.solution))
        if result.solution is not None and not complete:
            break
    return found, time.perf_counter() - started


class _Iteration:
    """The reduction of one iteration: nodes, next bound, the solution that wins."""

    def __init__(self, complete: bool) -> None:
        self.complete = complete
        self.nodes = 0
        self.next_bound = INFINITE
        self.best: tuple[tuple[int, ...], Any] | None = None
        self.sizes: dict[tuple[int, ...], int] = {}

    def add(self, key: tuple[int, ...], nodes: int, next_bound: float, solution: Any) -> None:
        self.nodes += nodes
        self.sizes[key] = self.sizes.get(key, 0) + nodes
        self.next_bound = min(self.next_bound, next_bound)
        if solution is not None and (self.best is None or key < self.best[0]):
            if self.best is None or self.complete:
                self.best = (key, solution)

    def done(self) -> bool:
        return self.best is not None and not self.complete


def _cut(space: ThresholdSpace, bound: float, target: int, it: _Iteration
         ) -> list[tuple[tuple[int, ...], Any]]:
    """Subtrees under ``bound``, breadth-first until there are ``target``; children
    made here count as nodes, solutions and exceeding f values are reduced at once."""
    frontier: list[tuple[tuple[int, ...], Any]] = [((), space.root())]
    while frontier and len(frontier) < target and not it.done():
        deeper = []
        for key, state in frontier:
            for index, child in enumerate(space.branch(state)):
                it.nodes += 1
                value = space.f(child)
                if value > bound:
                    it.next_bound = min(it.next_bound, value)
                elif space.is_solution(child):
                    it.add(key + (index,), 0, INFINITE, child)
                else:
                    deeper.append((key + (index,), child))
        if not deeper:
            return []
        frontier = deeper
    return frontier


def _estimate(key: tuple[int, ...], sizes: dict[tuple[int, ...], int]) -> int:
    for end in range(len(key), -1, -1):
        if key[:end] in sizes:
            return sizes[key[:end]]
    return 0


def _tasks(subtrees: list[tuple[tuple[int, ...], Any]], sizes: dict[tuple[int, ...], int],
           workers: int, order: str = "tree") -> list[list[tuple[tuple[int, ...], Any]]]:
    """Subtrees largest first (by the last iteration) or in key order, packed into
    tasks of about ``1 / (TASKS_PER_WORKER * workers)`` of the expected total each."""
    if order == "tree":
        ranked = sorted(subtrees, key=lambda item: item[0])
    else:
        ranked = sorted(subtrees, key=lambda item: (-_estimate(item[0], sizes), item[0]))
    total = sum(_estimate(key, sizes) for key, _ in ranked)
    share = max(1, total // (TASKS_PER_WORKER * workers))
    tasks: list[list[tuple[tuple[int, ...], Any]]] = []
    current: list[tuple[tuple[int, ...], Any]] = []
    weight = 0
    for item in ranked:
        current.append(item)
        weight += _estimate(item[0], sizes)
        if weight >= share:
            tasks.append(current)
            current, weight = [], 0
    return tasks + ([current] if current else [])


def threshold_search(space: ThresholdSpace, *, workers: int = 1, backend: str | None = None,
                     executor: Executor | None = None, complete_last: bool = False,
                     per_worker: int = PER_WORKER, timeout: float | None = None,
                     parent_nodes: int = PARENT_NODES, order: str = "tree",
                     on_iteration: Callable[[dict[str, float]], None] | None = None,
                     max_nodes: int | None = None, stop: Callable[[], bool] | None = None
                     ) -> ThresholdReport:
    """Iterate bounds from ``f(root)`` until a solution (or none: bound infinite), or
    until ``timeout`` seconds, ``max_nodes`` nodes or ``stop()`` (``stop_reason``).
    ``on_iteration(row)`` after each iteration (``bound``, ``nodes``, ``seconds``)."""
    if order not in ORDERS:
        raise ValueError(f"unknown task order {order!r}; expected one of {list(ORDERS)}")
    if max_nodes is not None and max_nodes < 1:
        raise ValueError(f"max_nodes must be a positive integer, got {max_nodes}")
    owns = executor is None
    pool = executor if executor is not None else make_executor(workers, backend)
    report = ThresholdReport(pool.workers, pool.name)
    search = _Search(space, pool, report, complete_last, per_worker, parent_nodes, timeout)
    search.order, search.max_nodes, search.stop = order, max_nodes, stop
    kill = False
    try:
        search.run(on_iteration)
    except BaseException:
        kill = True
        raise
    finally:
        search.finish()
        if owns:
            pool.close(kill=kill)
        else:
            pool.release()
        report.seconds = time.perf_counter() - search.started
    return report


class _Search:
    def __init__(self, space: ThresholdSpace, pool: Executor, report: ThresholdReport,
                 complete: bool, per_worker: int, parent_nodes: int,
                 timeout: float | None) -> None:
        self.space, self.pool, self.report = space, pool, report
        self.complete, self.per_worker, self.parent_nodes = complete, per_worker, parent_nodes
        self.started = time.perf_counter()
        self.deadline = None if timeout is None else self.started + timeout
        self.handle: Any = None
        self.flag: Any = None
        self.inflight: dict[Any, Any] = {}
        self.sizes: dict[tuple[int, ...], int] = {}
        self.last_nodes = 0
        self.order = "tree"
        self.max_nodes: int | None = None
        self.stop: Callable[[], bool] | None = None

    def _stop_reason(self, nodes: int) -> str | None:
        """Why to stop now, ``nodes`` generated so far in all, or None."""
        if self.max_nodes is not None and nodes >= self.max_nodes:
            return "max-nodes"
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            return "timeout"
        if self.stop is not None and self.stop():
            return "stopped"
        return None

    def run(self, on_iteration: Callable[[dict[str, float]], None] | None) -> None:
        root = self.space.root()
        bound = self.space.f(root)
        if self.space.is_solution(root):
            self.report.solution, self.report.bound = root, bound
            return
        while bound < INFINITE:
            self.report.stop_reason = self._stop_reason(self.report.nodes)
            if self.report.stop_reason:
                self.report.bound = bound
                return
            began = time.perf_counter()
            it = self._iterate(bound)
            self.report.nodes += it.nodes
            row = {"bound": bound, "nodes": it.nodes, "seconds": time.perf_counter() - began}
            self.report.iterations.append(row)
            if on_iteration is not None:
                on_iteration(row)
            if self.report.stop_reason:
                self.report.bound = bound
                return
            if it.best is not None:
                self.report.solution, self.report.bound = it.best[1], bound
                return
            self.sizes, self.last_nodes, bound = it.sizes, it.nodes, it.next_bound
        self.report.bound = INFINITE

    def _iterate(self, bound: float) -> _Iteration:
        it = _Iteration(self.complete)
        if self.pool.workers == 1 or self.last_nodes < self.parent_nodes:
            self._in_parent(bound, it)
            return it
        subtrees = _cut(self.space, bound, self.per_worker * self.pool.workers, it)
        if not it.done() and subtrees:
            self._dispatch(bound, _tasks(subtrees, self.sizes, self.pool.workers, self.order), it)
        return it

    def _in_parent(self, bound: float, it: _Iteration) -> None:
        reason: list[str | None] = [None]

        def stop(nodes: int = 0) -> bool:
            reason[0] = self._stop_reason(self.report.nodes + nodes)
            return reason[0] is not None

        result = self.space.search_below(self.space.root(), bound, self.complete, stop)
        it.add((), result.nodes, result.next_bound, result.solution)
        if reason[0] is not None and it.best is None:
            self.report.stop_reason = reason[0]

    def _dispatch(self, bound: float, tasks: list[list[Any]], it: _Iteration) -> None:
        if self.handle is None:
            self.handle = self.pool.ship(self.space)
        self.flag = self.pool.stop_flag()
        queue = list(reversed(tasks))
        while (queue or self.inflight) and not it.done():
            while queue and len(self.inflight) < 2 * self.pool.workers:
                future = self.pool.submit(run_subtrees, self.handle, queue.pop(), bound,
                                          self.complete, self.flag)
                self.inflight[future] = True
            for future in self.pool.wait_any(list(self.inflight), timeout=0.25):
                del self.inflight[future]
                self._collect(future.result(), it)
            reason = None if it.done() else self._stop_reason(self.report.nodes + it.nodes)
            if reason:
                self.report.stop_reason = reason
                break
        self._stop_running()

    def _collect(self, result: tuple[list[Any], float], it: _Iteration) -> None:
        found, seconds = result
        self.report.task_seconds.append(seconds)
        for key, nodes, next_bound, solution in found:
            it.add(key, nodes, next_bound, solution)

    def _stop_running(self) -> None:
        if self.inflight:
            self.pool.raise_flag(self.flag)
            self.pool.cancel(list(self.inflight))
            self.inflight.clear()

    def finish(self) -> None:
        if self.flag is not None and self.inflight:
            self._stop_running()


def iteration_table(report: ThresholdReport) -> Iterable[str]:
    """One line per iteration (for people)."""
    for row in report.iterations:
        yield f"bound {row['bound']:g}: {int(row['nodes']):,} nodes, {row['seconds']:.3f} s"
