"""Threshold search (IDA*-style) on the executors: iterations with a rising bound.

Each iteration either runs in this process (small ones) or is cut into subtrees at
one depth, packed in search order into tasks of about equal expected size, and run
on the pool.  The reduction is the minimum f that exceeded the bound (the next
bound) and the first solution found at the bound, which ends the search (optimal
when f never overestimates); the rest of that iteration is cancelled unless
``complete_last`` asks for the whole of it (node counts then do not depend on the
workers or the split).

Glossary
--------
ThresholdSpace
    What a problem provides: ``root()``, ``f(state)`` (g + h), ``branch(state)``
    (children in order), ``is_solution(state)`` and ``search_below(state,
    bound, complete, stop) -> Bounded``, the depth-first search of one subtree
    (usually a compiled kernel), asking ``stop(nodes generated so far in this
    call)`` now and then and returning early when it says so.
CutSpace
    A ThresholdSpace with the fast hooks: ``cut(bound, target, previous) ->
    Frontier`` (usually compiled) and ``search_part(part, bound, complete, stop)
    -> Part``.  Any other space gets ``ListFrontier``, a breadth-first cut in
    Python, and ``search_budgeted``.
Frontier
    The subtrees of one iteration at one depth, in search order: ``len()``, the
    nodes generated above them, the least f over the bound met there, a solution
    met there (``solution_before``: how many subtrees precede it), ``part(i, j)``
    (the picklable payload of subtrees i..j-1) and ``weights(previous, sizes)``:
    each subtree's expected size from the previous iteration's frontier and the
    nodes each of its subtrees took.
nodes
    Children generated: the root counts 1, the cut counts what it makes, every
    task adds what its subtrees generated below their roots.
order
    ``"tree"`` (default): tasks run in the sequential search's order, so the
    iteration that holds a solution reaches it after about the work a sequential
    search does.  ``"size"``: largest expected first (the solution of the last
    iteration is then met sooner or later than in sequence, by luck).
plan
    How an iteration runs, from a cost model: ``rate`` (nodes per second of one
    worker, measured) and ``task_cost`` (the parent's seconds per task).
    An iteration of expected work W seconds runs here when that is cheaper than
    dispatching it; else in tasks of the sizes ``task_sizes`` gives (up to 8
    workers 16 equal tasks each; more: a first wave that shrinks as the parent
    sends it, then guided tasks), cut
    into ``per_worker`` subtrees per worker at most and 8 per task at least.
    ``parent_nodes`` given: iterations whose predecessor had fewer nodes run
    here (the old fixed rule).

Example: ``threshold_search(space, workers=2).solution`` is an optimal solution.
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .executors import Executor, pool_for_run
from .frontier import (
    INFINITE,
    Bounded,
    CutSpace,
    Frontier,
    ListFrontier,
    Part,
    ThresholdSpace,
    pack,
    task_sizes,
)
from .threshold_tasks import BudgetSpace, Tasks, search_budgeted
from .worker import unship

__all__ = ["INFINITE", "Bounded", "CutSpace", "Frontier", "ListFrontier", "Part",
           "ThresholdReport", "ThresholdSpace", "iteration_table", "pack", "run_part",
           "task_sizes", "threshold_search"]

PER_WORKER = 64
PARENT_NODES: int | None = None  # None: the cost model decides (see ``plan``)
ORDERS = ("tree", "size")
TASK_COST = 2e-4  # the parent's seconds per task (submit, pickle, collect)
RATE = 5e7  # nodes per second of one worker until measured
GROWTH = 6.0  # the node ratio of one iteration to the last until measured


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


def run_part(context: bytes, start: int, part: Any, bound: float, complete: bool,
             budget: int | None = None, handle: Any = None) -> tuple[int, Part, float]:
    """A task: search the subtrees of ``part``; (their first index, Part, seconds).
    ``context``: the pickled (space handle, stop flag) of the search, made once.
    ``budget``: start no subtree once that many nodes are spent (``threshold_tasks``).
    ``handle``: the shipped space, when the pool sends it apart from the context (Dask)."""
    began = time.perf_counter()
    packed, flag = pickle.loads(context)
    space = unship(packed if handle is None else handle)

    def stop(nodes: int = 0) -> bool:
        return bool(flag.is_set())

    if isinstance(space, CutSpace):
        budgeted: BudgetSpace = space  # type: ignore[assignment]
        found = budgeted.search_part(part, bound, complete, stop, budget)
    else:
        found = search_budgeted(space, part, bound, complete, stop, budget)
    return start, found, time.perf_counter() - began


class _Iteration:
    """The reduction of one iteration: nodes, next bound, the solution that wins."""

    def __init__(self, complete: bool) -> None:
        self.complete = complete
        self.nodes = 0
        self.next_bound = INFINITE
        self.best: tuple[tuple[int, int], Any] | None = None

    def add(self, key: tuple[int, int], nodes: int, next_bound: float, solution: Any) -> None:
        self.nodes += nodes
        self.next_bound = min(self.next_bound, next_bound)
        if solution is not None and (self.best is None or (self.complete
                                                            and key < self.best[0])):
            self.best = (key, solution)

    def done(self) -> bool:
        return self.best is not None and not self.complete


def threshold_search(space: ThresholdSpace, *, workers: int = 1, backend: str | None = None,
                     executor: Executor | None = None, complete_last: bool = False,
                     per_worker: int = PER_WORKER, timeout: float | None = None,
                     parent_nodes: int | None = PARENT_NODES, order: str = "tree",
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
    with pool_for_run(executor, workers, backend) as pool:
        report = ThresholdReport(pool.workers, pool.name)
        search = _Search(space, pool, report, complete_last, timeout)
        search.per_worker, search.parent_nodes, search.order = per_worker, parent_nodes, order
        search.max_nodes, search.stop = max_nodes, stop
        try:
            search.run(on_iteration)
        finally:
            search.finish()
            report.seconds = time.perf_counter() - search.started
    return report


class _Search:
    def __init__(self, space: ThresholdSpace, pool: Executor, report: ThresholdReport,
                 complete: bool, timeout: float | None) -> None:
        self.space, self.pool, self.report, self.complete = space, pool, report, complete
        self.started = time.perf_counter()
        self.deadline = None if timeout is None else self.started + timeout
        self.context = b""  # the pickled (space handle, stop flag), made at the first dispatch
        self.handle: tuple[Any, ...] = ()  # the handle, when it must travel on its own
        self.flag: Any = None
        self.inflight: dict[Any, Any] = {}
        self.per_worker, self.parent_nodes, self.order = PER_WORKER, PARENT_NODES, "tree"
        self.max_nodes: int | None = None
        self.stop: Callable[[], bool] | None = None
        self.previous: tuple[Any, list[int]] | None = None  # last frontier, its sizes
        self.history: list[int] = []  # nodes per iteration
        self.rate, self.task_cost = RATE, TASK_COST

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
            self.history.append(it.nodes)
            if on_iteration is not None:
                on_iteration(row)
            if self.report.stop_reason:
                self.report.bound = bound
                return
            if it.best is not None:
                self.report.solution, self.report.bound = it.best[1], bound
                return
            bound = it.next_bound
        self.report.bound = INFINITE

    def _expected(self) -> float:
        """The next iteration's nodes, from the growth of the last two."""
        if not self.history:
            return 0.0
        last = self.history[-1]
        growth = last / self.history[-2] if len(self.history) > 1 and self.history[-2] else 0
        return last * (growth if 1.5 <= growth <= 20 else GROWTH)

    def _iterate(self, bound: float) -> _Iteration:
        it = _Iteration(self.complete)
        workers = self.pool.workers
        work = self._expected() / self.rate  # seconds of one worker
        if self.parent_nodes is not None:
            here = not self.history or self.history[-1] < self.parent_nodes
        else:  # here when cheaper than ~2 sqrt(work * task cost) + work / workers
            here = not self.history or work * (1 - 1 / workers) ** 2 < 4 * self.task_cost
        if workers == 1 or here:
            self._in_parent(bound, it)
            return it
        sizes = task_sizes(work, workers, self.task_cost)
        target = max(8 * len(sizes), min(self.per_worker * workers, round(work / 1e-3)))
        frontier = self._cut(bound, target, it)
        if frontier is not None and not it.done():
            self._dispatch(bound, frontier, sizes, it)
        return it

    def _cut(self, bound: float, target: int, it: _Iteration) -> Frontier | None:
        previous = None if self.previous is None else self.previous[0]
        if isinstance(self.space, CutSpace):
            frontier = self.space.cut(bound, target, previous)
        else:
            frontier = ListFrontier(self.space, bound, target)
        it.nodes += frontier.nodes
        it.next_bound = min(it.next_bound, frontier.next_bound)
        if frontier.solution is not None:
            it.add((frontier.solution_before, 0), 0, INFINITE, frontier.solution)
        return frontier if len(frontier) else None

    def _in_parent(self, bound: float, it: _Iteration) -> None:
        reason: list[str | None] = [None]

        def stop(nodes: int = 0) -> bool:
            reason[0] = self._stop_reason(self.report.nodes + nodes)
            return reason[0] is not None

        began = time.perf_counter()
        result = self.space.search_below(self.space.root(), bound, self.complete, stop)
        seconds = time.perf_counter() - began
        if result.nodes >= 100_000 and seconds > 0:
            self.rate = result.nodes / seconds
        it.add((0, 0), result.nodes, result.next_bound, result.solution)
        if reason[0] is not None and it.best is None:
            self.report.stop_reason = reason[0]

    def _dispatch(self, bound: float, frontier: Frontier, sizes: list[float],
                  it: _Iteration) -> None:
        if not self.context:
            self.flag = self.pool.stop_flag()
            handle = self.pool.ship(self.space)
            # Dask swaps a shipped handle for the space only as an argument of its own.
            self.handle = (handle,) if self.pool.handle_as_argument else ()
            self.context = pickle.dumps((None if self.handle else handle, self.flag))
        taken = [0] * len(frontier)
        weights = frontier.weights(*(self.previous or (None, [])))
        ranges = pack(weights, sizes)
        if self.order == "size":
            ranges.sort(key=lambda r: -sum(weights[r[0]:r[1]]))
        work, workers = sum(sizes), self.pool.workers
        total = float(sum(weights)) or 1.0
        least = total * workers * self.task_cost / work if work > 0 else total
        tasks = Tasks(weights, ranges, self._expected() / total, workers, least)
        busy = 0.0
        while (tasks or self.inflight) and not it.done():
            while tasks and len(self.inflight) < workers + max(2, workers // 8):
                start, stop, budget = tasks.next()
                future = self.pool.submit(run_part, self.context, start,
                                          frontier.part(start, stop), bound, self.complete,
                                          budget, *self.handle)
                self.inflight[future] = stop
            for future in self.pool.wait_any(list(self.inflight), timeout=0.25):
                stop = self.inflight.pop(future)
                busy += self._collect(future.result(), stop, taken, tasks, it)
            reason = None if it.done() else self._stop_reason(self.report.nodes + it.nodes)
            if reason:
                self.report.stop_reason = reason
                break
        self._learn(busy, it)
        self.previous = (frontier, taken)
        self._stop_running()

    def _collect(self, result: tuple[int, Part, float], stop: int, sizes: list[int],
                 tasks: Tasks, it: _Iteration) -> float:
        start, found, seconds = result
        self.report.task_seconds.append(seconds)
        sizes[start:start + len(found.nodes)] = found.nodes
        solution = found.solution
        # A solution ends the iteration unless it is completed: then the rest is owed.
        tasks.returned(start, stop, found.nodes, solution is not None and not self.complete)
        key = (start + solution[0], 1) if solution is not None else (0, 0)
        it.add(key, sum(found.nodes), found.next_bound,
               None if solution is None else solution[1])
        return seconds

    def _learn(self, busy: float, it: _Iteration) -> None:
        """The worker node rate, from this iteration's tasks."""
        if busy > 0 and it.nodes >= 100_000:
            self.rate = it.nodes / busy

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
