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
    worker, measured) and ``task_cost`` (the parent's seconds per task, measured:
    its time with tasks in flight, less its waits and cuts, over the tasks sent).
    An iteration of expected work W seconds runs here when that is cheaper than
    dispatching it; else in tasks of the sizes ``task_sizes`` gives (up to 8
    workers 16 equal tasks each; more: a first wave that shrinks as the parent
    sends it, then guided tasks), cut
    into ``per_worker`` subtrees per worker at most and 8 per task at least.
    ``parent_nodes`` given: iterations whose predecessor had fewer nodes run
    here (the old fixed rule).
ahead
    The next iteration, started once this one has sent all its tasks (from
    ``AHEAD_FROM`` workers on), so its tasks fill the workers this one's tail leaves
    idle.  Its bound is a guess: the least f over the bound seen so far (exact for
    the sliding puzzles, whose f rise by 2).  It counts only if this iteration ends
    without a solution and with that next bound; otherwise it is dropped (its
    results ignored, its tasks stopped).  Once it holds a solution (not
    ``complete_last``), its tasks still running are owed nothing and are stopped
    too: each round has its own stop flag.  Its plan takes this iteration's nodes
    as the ones counted plus those expected of the rest, grown by the growth of the
    two iterations before (both counted).
poll
    Every ``POLL`` tasks sent the parent takes in the results already back
    (``wait_any(timeout=0)``), so a solution ends the iteration before the parent
    has sent a whole wave.
ask
    With nothing left to send and workers idle, the parent asks the oldest tasks
    that have run ``handback.ASK_AFTER`` for the subtrees they have not started (and
    the open part of the one they are in, where the space can split it), one
    task per idle worker (``handback.Tail``, on pools whose tasks can be asked, up to
    ``pending.WIDE`` workers, in iterations of ``ASK_WORK`` per worker or more); the
    rest comes back as a budget's leftover does, in a piece for each idle worker.
pull
    From ``PULL_FROM`` workers, on a pool whose workers share files, an iteration of
    ``PULL_WORK`` a worker or more is cut in the ranges ``guided_sizes`` gives (each a
    worker's share of what is left, shrinking), which go to a list the workers take
    them from, one task a worker (``threshold_pulls``): the parent sends 256 pulls where
    it sent 256 tasks and more, and none of the shrinking tail.  A range still runs on
    its budget; a pull whose range hands subtrees back ends, and the parent queues the
    leftover as tasks, which the workers take as their pulls end.  A pull lost with its
    worker gives its ranges back to the queue.

Example: ``threshold_search(space, workers=2).solution`` is an optimal solution.
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .arguments import THRESHOLD_METHODS, check_count, check_seconds, check_space, short_repr
from .executors import WAIT, Executor, check_pool, pool_for_run
from .frontier import (
    FEW,
    INFINITE,
    Bounded,
    CutSpace,
    Frontier,
    ListFrontier,
    Part,
    ThresholdSpace,
    guided_sizes,
    pack,
    task_sizes,
)
from .handback import tail_for
from .pull import Pulls
from .threshold_pulls import run_part_pulled
from .threshold_tasks import Iteration, Piece, Round, Tasks, cuts, rerun, run_part

__all__ = ["INFINITE", "Bounded", "CutSpace", "Frontier", "ListFrontier", "Part",
           "ThresholdReport", "ThresholdSpace", "iteration_table", "pack", "run_part",
           "task_sizes", "threshold_search"]

PER_WORKER = 64
PARENT_NODES: int | None = None  # None: the cost model decides (see ``plan``)
ORDERS = ("tree", "size")
# The parent's seconds per task (submit, pickle, collect) until measured: from
# LEARN_TASKS tasks on, its own time with tasks in flight (not its waits, not the
# cuts) over the tasks it sent, within TASK_COST_RANGE.  Measured, the cost came out
# at 25-65 us on 64 simulated workers, and the default instances ran at 0.39 against
# 0.26 with this one fixed (docs/results.md).
TASK_COST = 2e-4
TASK_COST_RANGE = (2e-5, 2e-3)
LEARN_TASKS = 8
RATE = 5e7  # nodes per second of one worker until measured
GROWTH = 6.0  # the node ratio of one iteration to the last until measured
# Tasks may be asked (``ask``) in iterations of this much expected work per worker or
# more (seconds): in smaller ones the extra tasks cost the parent more than the idle
# workers gain (Korf #4, #50 and #40 at 64 simulated workers: 0.25 with asks in
# every iteration, 0.28 without, 0.28 from 10 ms).
ASK_WORK = 0.01
POLL = 8  # tasks sent between two looks at the results that came back meanwhile
# From this many workers on the next iteration may start in the last one's tail (on 2
# real workers Korf #92 once took 5.2 s with it, not 4.1 s: docs/results.md).
AHEAD_FROM = FEW + 1
# From this many workers, on a pool whose workers share files, a big iteration is
# pulled (``threshold_pulls``): one task a worker, which takes the iteration's ranges
# from a list.  At 64 workers the queue does better (Korf #72 and #92 pulled: 0.53 and
# 0.64 against 0.75 and 0.72 queued, alternated: its asks split big subtrees there).
PULL_FROM = 129
# Iterations of this much expected work per worker or more (seconds) are pulled, in
# the ranges ``guided_sizes`` gives (Korf #72 and #92 at 256 workers: from 2 ms of
# work a worker, the iteration of some 2 ms took 20 ms, its 1,600 ranges' results
# the parent's; from 10 ms, 0.27-0.35 against 0.21-0.28 queued).
PULL_WORK = 1e-2
# An iteration is cut into subtrees of about this much expected work (seconds), within
# 8 a task and ``per_worker`` a worker.
SUBTREE_WORK = 1e-3


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
    asked: int = 0  # tasks asked for their rest (``handback``)
    split: int = 0  # subtrees an asked task handed back the open part of (``Part.rest``)
    pulls: int = 0  # pulls sent (``threshold_pulls``)
    pulled: int = 0  # ranges they ran
    task_cost: float = TASK_COST  # the parent's seconds per task, as measured (``plan``)

    @property
    def complete(self) -> bool:
        return self.stop_reason is None


def threshold_search(space: ThresholdSpace, *, workers: int | None = None,
                     backend: str | None = None,
                     executor: Executor | None = None, complete_last: bool = False,
                     per_worker: int = PER_WORKER, timeout: float | None = None,
                     parent_nodes: int | None = PARENT_NODES, order: str = "tree",
                     on_iteration: Callable[[dict[str, float]], None] | None = None,
                     max_nodes: int | None = None, stop: Callable[[], bool] | None = None
                     ) -> ThresholdReport:
    """Iterate bounds from ``f(root)`` until a solution (or none: bound infinite), or
    until ``timeout`` seconds, ``max_nodes`` nodes or ``stop()`` (``stop_reason``).

    Parameters
    ----------
    space
        A ``ThresholdSpace``: ``root()``, ``f(state)``, ``branch(state)``,
        ``is_solution(state)`` and ``search_below(state, bound, complete, stop)``
        (a ``CutSpace`` adds the fast hooks; see the module's glossary).
    workers, backend, executor
        The pool, as in ``count``: a positive integer or -1 (None: 1), a backend's
        name, or a pool you made (kept open for you; a ``workers`` other than its own
        or a ``backend`` other than its name is then a ValueError).
    complete_last
        Search the whole of the last iteration, not only up to its first solution
        (node counts then do not depend on the workers or the split).
    per_worker
        Subtrees per worker an iteration is cut into, at most (a positive integer).
    timeout
        Seconds for the whole search (None: no limit; 0 or less: no time left, the
        search stops at its first look, ``stop_reason`` ``"timeout"``).
    parent_nodes
        None: a cost model decides which iterations run in this process; an integer
        >= 0: those whose predecessor had fewer nodes.
    order
        ``"tree"`` (tasks in the sequential search's order) or ``"size"``.
    on_iteration
        Called after each iteration with its row (``bound``, ``nodes``, ``seconds``).
    max_nodes
        Stop after about this many nodes (a positive integer); None: no limit.
    stop
        Called now and then; True stops the search (``stop_reason`` ``"stopped"``).

    Returns
    -------
    ThresholdReport
        ``solution`` (None when there is none or the search stopped early),
        ``bound``, ``nodes``, ``iterations`` (a row each), ``task_seconds``,
        ``seconds``, ``stop_reason`` and ``complete``.

    Example: ``threshold_search(space, workers=2).solution`` is an optimal solution.
    """
    check_space(space, THRESHOLD_METHODS, "a threshold search space (ThresholdSpace)")
    check_pool(executor, backend, None)
    check_count("per_worker", per_worker, none=False)
    check_seconds("timeout", timeout, positive=False)
    check_count("parent_nodes", parent_nodes, low=0)
    check_count("max_nodes", max_nodes)
    if order not in ORDERS:
        raise ValueError(f"unknown task order {order!r}; expected one of {list(ORDERS)}")
    for name, value in (("on_iteration", on_iteration), ("stop", stop)):
        if value is not None and not callable(value):
            raise TypeError(f"{name} must be a function or None, got {short_repr(value)}")
    with pool_for_run(executor, workers, backend) as pool:  # refuses what executor ignores
        report = ThresholdReport(pool.workers, pool.name)
        search = _Search(space, pool, report, complete_last, timeout)
        search.per_worker, search.parent_nodes, search.order = per_worker, parent_nodes, order
        search.max_nodes, search.stop = max_nodes, stop
        try:
            search.run(on_iteration)
        finally:
            search.finish()
            report.seconds = time.perf_counter() - search.started
            report.task_cost = search.task_cost
    return report


class _Search:
    def __init__(self, space: ThresholdSpace, pool: Executor, report: ThresholdReport,
                 complete: bool, timeout: float | None) -> None:
        self.space, self.pool, self.report, self.complete = space, pool, report, complete
        self.started = time.perf_counter()
        self.deadline = None if timeout is None else self.started + timeout
        self.shipped: Any = None  # the space's handle, made at the first dispatch
        self.handle: tuple[Any, ...] = ()  # the handle, when it must travel on its own
        # future -> its round and the task's arguments (start, stop, budget, piece)
        self.inflight: dict[Any, tuple[Round, int, int, int | None, Piece | None]] = {}
        self.per_worker, self.parent_nodes, self.order = PER_WORKER, PARENT_NODES, "tree"
        self.max_nodes: int | None = None
        self.stop: Callable[[], bool] | None = None
        self.previous: tuple[Any, list[float]] | None = None  # last frontier, its sizes
        self.ahead: Round | None = None  # the next iteration, started in this one's tail
        self.history: list[int] = []  # nodes per iteration
        self.rate, self.task_cost = RATE, TASK_COST
        self.parent_seconds, self.sent = 0.0, 0  # its own time with tasks in flight; tasks
        self.cutting = 0.0  # seconds in cuts so far (not the tasks' cost)
        self.tail = tail_for(pool)  # tasks that may be asked for their rest
        self.pulling = 0  # pulls in flight, of every round
        self.lists: list[Pulls] = []  # the pulled rounds' lists (closed at the end)

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

    def _expected(self, history: list[int], estimated: bool = False) -> float:
        """The next iteration's nodes, from the growth of the last two of ``history``
        (``estimated``: the last is an estimate; the growth is of the two before it)."""
        if not history:
            return 0.0
        last, known = history[-1], history[:-1] if estimated else history
        growth = known[-1] / known[-2] if len(known) > 1 and known[-2] else 0
        return last * (growth if 1.5 <= growth <= 20 else GROWTH)

    def _plan(self, history: list[int], estimated: bool = False
              ) -> tuple[float, list[float]] | None:
        """The next iteration's expected nodes and task sizes (seconds), or None: run it
        here (after the iterations of ``history``; ``estimated``: see ``_expected``)."""
        workers = self.pool.workers
        expected = self._expected(history, estimated)
        work = expected / self.rate  # seconds of one worker
        if self.parent_nodes is not None:
            here = not history or history[-1] < self.parent_nodes
        else:  # here when cheaper than ~2 sqrt(work * task cost) + work / workers
            here = not history or work * (1 - 1 / workers) ** 2 < 4 * self.task_cost
        if workers == 1 or here:
            return None
        if self._pulls() and work / workers >= PULL_WORK:  # pulled (``_pulled``)
            return expected, guided_sizes(work, workers)
        return expected, task_sizes(work, workers, self.task_cost)

    def _pulls(self) -> bool:
        """Are this pool's wide iterations pulled (``threshold_pulls``)?"""
        return self.pool.pulls and self.pool.workers >= PULL_FROM

    def _iterate(self, bound: float) -> Iteration:
        ahead, self.ahead = self.ahead, None
        if ahead is not None and ahead.bound == bound:  # started in the last one's tail
            self._drive(ahead)
            return ahead.it
        if ahead is not None:
            ahead.dropped = True  # its bound was a wrong guess: its results are ignored
            self._stop_running(ahead)
        it = Iteration(self.complete)
        plan = self._plan(self.history)
        if plan is None:
            self._in_parent(bound, it)
            return it
        dispatched = self._start(bound, it, *plan, self.previous)
        if dispatched is not None:
            self._drive(dispatched)
        return it

    def _start(self, bound: float, it: Iteration, expected: float, sizes: list[float],
               previous: tuple[Any, list[float]] | None) -> Round | None:
        """Cut the iteration at ``bound`` and queue its tasks (None: nothing to send);
        ``previous``: the last iteration's frontier and its subtrees' sizes."""
        work, workers = sum(sizes), self.pool.workers
        target = max(8 * len(sizes), min(self.per_worker * workers, round(work / SUBTREE_WORK)))
        frontier = self._cut(bound, target, it, None if previous is None else previous[0])
        if frontier is None or it.done():
            return None
        if self.shipped is None:
            self.shipped = self.pool.ship(self.space)
            # Dask swaps a shipped handle for the space only as an argument of its own.
            self.handle = (self.shipped,) if self.pool.handle_as_argument else ()
        flag = self.pool.stop_flag()  # the round's own: it may end before the search
        context = pickle.dumps((None if self.handle else self.shipped, flag))
        weights = frontier.weights(*(previous or (None, [])))
        ranges = pack(weights, sizes)
        if self.order == "size":
            ranges.sort(key=lambda r: -sum(weights[r[0]:r[1]]))
        total = float(sum(weights)) or 1.0
        least = total * workers * self.task_cost / work if work > 0 else total
        dispatched = Round(bound, it, frontier, Tasks(weights, ranges, expected / total,
                                                      workers, least), flag, context)
        dispatched.askable = self.tail is not None and work / workers >= ASK_WORK
        if self._pulls() and len(ranges) > workers:
            self._pulled(dispatched)
        return dispatched

    def _pulled(self, source: Round) -> None:
        """Its ranges go to a list its workers pull from (``threshold_pulls``), each
        with its budget as the queue gives it now."""
        works = []
        while source.tasks:
            works.append(source.tasks.next()[:3])
        frontier = source.frontier
        source.pulls = Pulls(works, lambda work: (*work, frontier.part(work[0], work[1])))
        self.lists.append(source.pulls)
        self.sent += len(works)

    def _drive(self, now: Round) -> None:
        """Run the round ``now`` to its end (the next iteration may start in its tail)."""
        began, cut_before, waits = self.pool.now(), self.cutting, 0.0
        while now.left() and not now.it.done():
            wait = WAIT
            if self._fill(now) and self.tail is not None:  # nothing to send: ask
                self.report.asked += self.tail.ask(len(self.inflight), self._rerun)
                wait = self.tail.timeout(len(self.inflight), WAIT)
            before = self.pool.now()
            done = self.pool.wait_any(list(self.inflight), timeout=wait)
            waits += self.pool.now() - before
            self._gather(done)
            reason = None if now.it.done() else self._stop_reason(self.report.nodes
                                                                  + now.it.nodes)
            if reason:
                self.report.stop_reason = reason
                break
        # the parent's own time with tasks in flight: all but its waits and cuts
        self.parent_seconds += self.pool.now() - began - waits - (self.cutting - cut_before)
        self._learn(now.busy, now.it)
        self.previous = (now.frontier, now.sizes())
        if now.it.done() or self.report.stop_reason:
            self._stop_running()
        if now.pulls is not None and not now.pulls.numbers:
            now.pulls.close()

    def _fill(self, now: Round) -> bool:
        """Send tasks while workers would be free: this round's, then the next one's;
        every ``POLL`` tasks take in the results that came back meanwhile.  True when
        nothing is left to send."""
        room = self.pool.workers + max(2, self.pool.workers // 8)
        sent = 0
        self._send_pulls(now)
        while len(self.inflight) < room and not now.it.done():
            source = now if now.tasks else self._ahead_of(now)
            if source is not None and source is not now and not now.unclaimed():
                self._send_pulls(source)
            if source is None or not source.tasks or source.it.done():
                return True
            self._send(source, *source.tasks.next())
            sent += 1
            if sent % POLL == 0:
                self._gather(self.pool.wait_any(list(self.inflight), timeout=0))
        return False

    def _ahead_of(self, now: Round) -> Round | None:
        """The next iteration, started once ``now`` has sent all its tasks, at the bound
        its results so far point to (a guess: if the iteration ends lower, it is dropped)."""
        if now.spawned:
            return self.ahead
        now.spawned = True
        guess = now.it.next_bound
        if guess >= INFINITE or now.it.best is not None or self.pool.workers < AHEAD_FROM:
            return None
        history = [*self.history, round(now.estimate())]
        plan = self._plan(history, estimated=True)
        if plan is None:
            return None
        self.ahead = self._start(guess, Iteration(self.complete), *plan,
                                 (now.frontier, now.sizes()))
        return self.ahead

    def _send(self, source: Round, start: int, stop: int, budget: int | None,
              piece: Piece | None = None) -> None:
        ask = self.tail.stop(source.flag, 1) if self.tail is not None and source.askable else None
        roots = source.frontier if piece is None else piece.rest
        arguments = (source.context, start, roots.part(start, stop), source.bound,
                     self.complete, budget, ask, *self.handle)
        future = self.pool.submit(run_part, *arguments)
        self.inflight[future] = (source, start, stop, budget, piece)
        source.running += 1
        if ask is not None and self.tail is not None:  # its stop last (no handle: not Dask)
            self.tail.sent(future, arguments)
        self.sent += 1

    def _send_pulls(self, source: Round) -> None:
        """A pull for each worker without one while ``source`` has ranges no pull took
        (``Pulls.send``)."""
        pulls = source.pulls
        if pulls is None or source.it.done():
            return
        rest = (source.bound, self.complete, self.pool.pull_seconds)
        free = self.pool.workers - self.pulling
        for future in pulls.send(self.pool, run_part_pulled, (source.context,), rest, free):
            self.inflight[future] = (source, -1, -1, None, None)
            source.running += 1
            self.pulling += 1
            self.report.pulls += 1

    def _take_pulled(self, future: Any, source: Round) -> None:
        """A pull's result: each range it ran taken in as a task's; the ranges of a pull
        lost with its worker go back in the queue."""
        assert source.pulls is not None
        self.pulling -= 1
        try:
            ran = self.pool.result(future)
        except Exception as error:  # lost with its worker
            if not self.pool.lost_alone(error):
                raise
            lost = source.pulls.lost(future)
            source.tasks.queue.extendleft((start, stop, None) for start, stop, _ in
                                          reversed(lost))
            return
        source.pulls.numbers.pop(future, None)
        for index, result in ran:
            stop = source.pulls.returned(index)[1]
            self.report.pulled += 1
            if not source.dropped:
                source.busy += self._collect(source, result, stop)

    def _rerun(self, arguments: tuple[Any, ...], share: float,
               result: tuple[int, Part, float]) -> tuple[Any, ...] | None:
        """For a pool that ran a task before it was asked (the virtual one): the task
        as it would end, asked once ``share`` of its nodes were spent (``rerun``)."""
        return rerun(arguments, share, result, getattr(self.space, "splits_subtrees", False))

    def _gather(self, futures: Iterable[Any]) -> None:
        for future in futures:
            entry = self.inflight.pop(future, None)
            if entry is None:  # stopped with its round meanwhile
                continue
            source, start, stop, budget, piece = entry
            source.running -= 1
            if source.pulls is not None and future in source.pulls.numbers:
                self._take_pulled(future, source)
            else:
                self._take_task(future, source, start, stop, budget, piece)
            if source is self.ahead and source.it.done():  # the rest of it is owed nothing
                self._stop_running(source)

    def _take_task(self, future: Any, source: Round, start: int, stop: int,
                   budget: int | None, piece: Piece | None) -> None:
        """A task's result taken in; a task lost with its worker (Dask) is sent again."""
        idle = 0  # asked: the workers its rest is for
        if self.tail is not None and self.tail.back(future):
            idle = max(1, self.tail.idle(len(self.inflight)))
        try:
            result = self.pool.result(future)
        except Exception as error:  # lost with its worker (Dask): sent again
            if not self.pool.lost_alone(error):
                raise
            self._send(source, start, stop, budget, piece)
            return
        if not source.dropped:
            source.busy += self._collect(source, result, stop, idle, piece)

    def _cut(self, bound: float, target: int, it: Iteration, previous: Any
             ) -> Frontier | None:
        began = self.pool.now()
        if cuts(self.space):
            cutting: CutSpace = self.space  # type: ignore[assignment]
            frontier = cutting.cut(bound, target, previous)
        else:
            frontier = ListFrontier(self.space, bound, target)
        self.cutting += self.pool.now() - began
        it.nodes += frontier.nodes
        it.next_bound = min(it.next_bound, frontier.next_bound)
        if frontier.solution is not None:
            it.add((frontier.solution_before, 0), 0, INFINITE, frontier.solution)
        return frontier if len(frontier) else None

    def _in_parent(self, bound: float, it: Iteration) -> None:
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

    def _collect(self, source: Round, result: tuple[int, Part, float], stop: int,
                 idle: int = 0, piece: Piece | None = None) -> float:
        start, found, seconds = result
        self.report.task_seconds.append(seconds)
        if piece is None:
            source.taken[start:start + len(found.nodes)] = found.nodes
        else:  # roots handed back of one subtree: it took these nodes too
            source.taken[piece.index] += sum(found.nodes)
        solution = found.solution
        self.report.split += found.rest is not None
        # A solution ends the iteration unless it is completed: then the rest is owed.
        source.tasks.returned(start, stop, found.nodes, solution is not None
                              and not self.complete, idle, piece, found.rest)
        key: tuple[int, ...] = (0, 0)
        if solution is not None:
            at = start + solution[0]
            key = (at, 1) if piece is None else piece.solution_key(at)
        source.it.add(key, sum(found.nodes), found.next_bound,
                      None if solution is None else solution[1])
        return seconds

    def _learn(self, busy: float, it: Iteration) -> None:
        """The worker node rate, from this iteration's tasks; the parent's seconds per
        task, from all tasks so far."""
        if busy > 0 and it.nodes >= 100_000:
            self.rate = it.nodes / busy
        if self.sent >= LEARN_TASKS:
            self.task_cost = min(max(self.parent_seconds / self.sent, TASK_COST_RANGE[0]),
                                 TASK_COST_RANGE[1])

    def _stop_running(self, only: Round | None = None) -> None:
        """Stop the tasks in flight (``only``: those of that round)."""
        futures = [future for future, (source, *_) in self.inflight.items()
                   if only is None or source is only]
        for source in {self.inflight[future][0] for future in futures}:
            self.pool.raise_flag(source.flag)
        self.pool.cancel(futures)
        for future in futures:
            source = self.inflight.pop(future)[0]
            source.running -= 1
            if source.pulls is not None and source.pulls.numbers.pop(future, None):
                self.pulling -= 1
            if self.tail is not None:
                self.tail.back(future)

    def finish(self) -> None:
        self._stop_running()
        if self.tail is not None:
            self.tail.close()
        for pulls in self.lists:
            pulls.close()


def iteration_table(report: ThresholdReport) -> Iterable[str]:
    """One line per iteration (for people)."""
    for row in report.iterations:
        yield f"bound {row['bound']:g}: {int(row['nodes']):,} nodes, {row['seconds']:.3f} s"
