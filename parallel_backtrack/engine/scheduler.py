"""The scheduler: cut the tree, keep workers fed with subtrees, reduce what comes back.

Glossary
--------
work
    ``Work(key, roots)``: subtrees waiting to be run as one task.  ``key`` is a
    tuple giving the work's place in the sequential depth-first order: a task
    for key ``K`` reports its solutions under ``K + (0,)`` and hands back its
    unexplored rest as work ``K + (1,)`` (and roots it never started as
    ``K + (2,)``); splitting ``K`` gives ``K + (0,)``,
    ``K + (1,)``, ...  Tuples compare the way the tree is ordered, so a stream
    can release solutions in exactly the sequential order.
budget
    What one task may spend before it hands back its rest: ``budget`` nodes
    and/or ``budget_seconds`` of time.  It bounds every task, so the tail stays
    balanced and a stop is prompt.  Tasks get the whole node budget only while
    the work pending holds ``FULL_AHEAD`` budget per worker (by the measured
    nodes per subtree), half of it otherwise, and a ``TAIL_SHRINK``-th in the
    tail: long tasks while much is left cost the parent fewer dispatches, short
    ones at the end keep workers even.
pending / in flight
    Work waiting in the parent / submitted and not yet collected (at most
    ``2 * workers``).  Above ``MAX_PENDING`` waiting roots nothing is split,
    which bounds the parent's memory.
cut
    The first frontier: ``per_worker`` subtrees per worker, at most ``MAX_CUT``
    (with many workers one parent's dispatching is the limit, and the budget,
    packing and leftovers balance the work anyway).
packing
    Guided self-scheduling: a task takes ``1 / (GUIDED * workers)`` of the roots
    pending from the cut, so early tasks take many small subtrees and the last
    ones few; each dispatch costs the parent some 50 us, so fewer, fuller tasks
    let one parent feed more workers.  The budget still bounds a task: roots it
    never started come back as they were (``untouched``).  Only unordered modes
    pack (``count``, ``first``).
tail
    Fewer items pending than workers.  The next item is split if it is likely
    big (a leftover, once; a subtree of the cut when the moving average of
    nodes per subtree fills a good share of a budget): a leftover stack, deepest
    first, gives up its shallowest root; other work is halved; a single root
    is branched one level.  Tasks then get a ``TAIL_SHRINK``-th of the budget,
    so the last ones end close together.
reduce
    ``count``: add the weighted counts (a finish accumulator's sum);
    ``first``: the first solution to arrive wins, the stop flag is raised and
    pending work is cancelled; ``all``: solutions released in order, up to
    ``limit``.
crash
    A worker process died.  The pool is restarted and only the work in flight
    is run again; after ``MAX_CRASHES`` crashes in a row (or of one subtree)
    the run stops with ``WorkerCrashError``.

Example: ``Run(space, "count", make_executor(2), owns=True, ...)`` (what
``count(space, workers=2)`` builds) cuts the tree into about 100 subtrees, runs
them on two loky processes and fills a report whose ``count`` equals
``sequential_count(space).count``.
"""

from __future__ import annotations

import heapq
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from . import hooks
from .executors import Executor
from .progress import progress_bar
from .report import SearchInterrupted, SearchReport, WorkerCrashError
from .space import Space
from .split import Subtree, TaskResult, expand, run_subtrees
from .worker import pickled, run_pickled, run_task, warm, warm_task

DEFAULT_BUDGET = 20_000
DEFAULT_PER_WORKER = 50
# The parent tries this many budgets itself (for at most the executor's
# ``start_cost``, its kernels loaded first) before
# it starts a pool: a tree that small is not worth one.  While the workers boot it
# goes on in rounds of PROBE_ROUND_SECONDS; once the pool is started the rounds
# begin at WARMING_ROUND_SECONDS and double, so warm workers (a fork server's are up
# some 15 ms after the pool starts) wait at most about that long for their work.
PROBE_BUDGETS = 8
PROBE_ROUND_SECONDS = 0.05
WARMING_ROUND_SECONDS = 0.005
# The first cut makes at most this many subtrees: with many workers the parent's
# dispatching is the limit, and budgets, packing and leftovers keep them balanced.
MAX_CUT = 1024
# Subtree roots waiting in the parent; beyond this the scheduler stops splitting.
MAX_PENDING = 20_000
# In the tail a subtree of the cut is split when subtrees average this share of a
# budget (1 / SPLIT_SHARE) or more.
SPLIT_SHARE = 2
# Tasks get the whole budget while the subtrees pending hold about this many budgets
# per worker (by the measured nodes per subtree), half of it otherwise, and in the
# tail (fewer items pending than workers) a TAIL_SHRINK-th of it.  One, not four:
# on 2 workers that is a quarter fewer tasks and a 2% shorter run (n = 17, the 9x9
# count), and at 64 workers there is rarely even one budget per worker pending.
FULL_AHEAD = 1
TAIL_SHRINK = 8
# Packing takes 1 / (GUIDED * workers) of the pending roots.
GUIDED = 2
# The weight of the latest task in the moving average of nodes per cut subtree.
AVERAGE_WEIGHT = 0.1
# Work split this many times is not split again (its own leftovers may be).
MAX_LEVELS = 1
MAX_CRASHES = 3


@dataclass(frozen=True, slots=True)
class Work:
    key: tuple[int, ...]
    roots: tuple[Subtree, ...]
    parent: int = -1  # the task whose leftover this is (-1: cut by the parent)
    crashes: int = 0  # crashes this work was in flight for
    level: int = 0  # levels its roots were branched below a cut or leftover root


def _check_positive(name: str, value: int | float | None) -> None:
    if value is not None and (isinstance(value, bool) or not value > 0):
        raise ValueError(f"{name} must be a positive number, got {value!r}")


def _submit(executor: Executor, arguments: tuple[Any, ...]) -> Any:
    """Submit one search task in the form ``executor`` takes best."""
    if executor.runs_inline:  # nothing travels: the arguments as they are
        return executor.submit(run_task, *arguments)
    if executor.handle_as_argument:  # the shipped space's handle where Dask sees it
        handle, roots, *rest = arguments
        return executor.submit(run_task, handle, pickled(roots), *rest)
    return executor.submit(run_pickled, pickled(arguments))  # one bytes object: cheapest


class Run:
    """One search: the loop that keeps workers fed and reduces their results."""

    def __init__(self, space: Space[Any], mode: str, executor: Executor, *, owns: bool,
                 budget: int | None, budget_seconds: float | None, per_worker: int | None,
                 limit: int | None, timeout: float | None, progress: bool | None) -> None:
        for name, value in (("budget", budget), ("budget_seconds", budget_seconds),
                            ("per_worker", per_worker), ("timeout", timeout)):
            _check_positive(name, value)
        if limit is not None and (isinstance(limit, bool) or limit < 0):
            raise ValueError(f"limit must be a non-negative integer or None, got {limit!r}")
        self.space, self.mode, self.executor, self.owns = space, mode, executor, owns
        # A time budget alone means no node limit; otherwise the space's own default.
        self.budget = budget or (None if budget_seconds else
                                 hooks.of(space).node_budget or DEFAULT_BUDGET)
        self.seconds = budget_seconds
        self.per_worker = per_worker or DEFAULT_PER_WORKER
        self.limit, self.timeout = limit, timeout
        self.keep = limit if mode == "all" else None
        self.report = SearchReport(mode, executor.workers, executor.name, budget=self.budget,
                                   budget_seconds=budget_seconds)
        self.pending: deque[Work] = deque()
        self.pending_roots = 0
        self.inflight: dict[Any, Work] = {}
        self.ready: list[tuple[tuple[int, ...], int, tuple[Any, ...]]] = []
        self.released = self.crashes = 0
        # Nodes per subtree of the cut, a moving average of the latest (None: none yet).
        self.per_root: float | None = None
        self.handle: Any = None
        self.flag = executor.stop_flag()
        self.bar = progress_bar(progress)
        self.wall_started = time.time()
        self.started = time.perf_counter()

    # -- the pending queue ---------------------------------------------------
    def _push(self, work: Work, front: bool = True) -> None:
        (self.pending.appendleft if front else self.pending.append)(work)
        self.pending_roots += len(work.roots)
        self.report.peak_pending = max(self.report.peak_pending, self.pending_roots)

    def _pop(self) -> Work:
        work = self.pending.popleft()
        self.pending_roots -= len(work.roots)
        return work

    # -- cutting -------------------------------------------------------------
    def _roots(self) -> list[Subtree]:
        symmetric = hooks.of(self.space).count_roots() if self.mode == "count" else None
        return [(self.space.root(), 1)] if symmetric is None else list(symmetric)

    def _probe_round(self, roots: list[Subtree], budgets: int, limit: float,
                     round_: int) -> list[Subtree]:
        """``budgets`` budgets (and ``limit`` seconds at most) of the search, run in this
        process; returns the rest."""
        nodes = None if self.budget is None else budgets * self.budget
        seconds = limit if self.seconds is None else min(limit, budgets * self.seconds)
        probe = run_subtrees(self.space, roots, self.mode, nodes, self.keep, seconds=seconds)
        self.report.record_task(probe.seconds, "parent", probe.nodes)
        self._absorb((0, round_), probe)
        return list(probe.leftover)

    def _probe(self, roots: list[Subtree]) -> list[Subtree]:
        """Search in this process first: a small tree finishes within ``PROBE_BUDGETS``
        budgets without paying for a pool.  On a process pool a larger one starts the
        pool and the parent keeps searching, one budget at a time, until every worker
        is warm (spawned, kernels loaded).  Returns what is left to cut (not redone)."""
        if PROBE_BUDGETS <= 0:
            return roots
        started = time.perf_counter()
        start_cost = self.executor.start_cost
        warm(self.space)  # load the kernels first: that is not search time
        if self.executor.slow_start:  # a fork server forked from here has space and kernels
            self.handle = self.executor.ship(self.space)
            self.executor.boot(self.handle)
        self.report.setup_seconds += time.perf_counter() - started
        rest = self._probe_round(roots, PROBE_BUDGETS, start_cost, 0)
        if not rest or self._done() or self._out_of_time() or not self.executor.slow_start:
            return rest
        warming: list[Any] = []
        round_, seconds = 1, PROBE_ROUND_SECONDS
        while rest and not self._done() and not self._out_of_time():
            if not warming and self.executor.booted():
                warming, seconds = self._start_pool(), WARMING_ROUND_SECONDS
            elif warming and all(future.done() for future in warming):
                break
            rest = self._probe_round(rest, 1, seconds, round_)
            if warming:
                seconds = min(2 * seconds, PROBE_ROUND_SECONDS)
            round_ += 1
        self._check_warm(warming)
        return rest

    def _start_pool(self) -> list[Any]:
        """Send each worker a warm-up (this is what starts a pool)."""
        return [self.executor.submit(warm_task, self.handle)
                for _ in range(self.executor.workers)]

    def _check_warm(self, warming: list[Any]) -> None:
        for future in warming:
            if not future.done() or future.cancelled():
                continue
            error = future.exception()
            if error is None:
                self.report.setup_seconds += future.result()
            elif self.executor.is_crash(error):
                self.executor.restart()
                self.report.restarts += 1
                return

    def _cut(self) -> None:
        """Cut the tree into about ``per_worker`` subtrees per worker."""
        roots, prefix = self._roots(), ()
        inline = self.executor.runs_inline
        if not inline:
            roots, prefix = self._probe(roots), (1,)
            if self._done() or self.report.stop_reason:
                return
        target = 1 if inline else min(self.per_worker * self.executor.workers, MAX_CUT, MAX_PENDING)
        frontier = expand(self.space, roots, target)
        self.report.nodes += frontier.nodes
        self.report.split_depth = frontier.depth
        for work in self._items(prefix, frontier.items, -1, 0):
            self._push(work, front=False)
        self.report.frontier = len(self.pending)

    def _items(self, prefix: tuple[int, ...], items: Sequence[tuple[bool, Any, int]],
               parent: int, crashes: int, level: int = 0) -> list[Work]:
        """Work for the subtrees of a frontier; its solutions are reduced at once."""
        works = []
        for index, (leaf, state, weight) in enumerate(items):
            if leaf:
                self._found(prefix + (index,), (state,), weight)
            else:
                works.append(Work(prefix + (index,), ((state, weight),), parent, crashes,
                                  level))
        return works

    def _worth_splitting(self, work: Work) -> bool:
        """Is ``work`` likely big enough to share out?  Before anything is measured,
        yes.  A leftover is (a budget ran out above it) until it has been split
        ``MAX_LEVELS`` times; a subtree of the cut is when the subtrees measured so
        far average a good share of a budget.  Splitting tiny work would only cost
        the parent dispatches."""
        if self.budget is None or self.per_root is None:
            return True
        if work.parent >= 0:
            return work.level < MAX_LEVELS
        return len(work.roots) * self.per_root >= self.budget / SPLIT_SHARE

    def _split(self, work: Work) -> list[Work]:
        """Two pieces of a work item, or its single root branched one level (in order).
        Roots of the cut are halved.  A leftover stack is ordered deepest first, and a
        subtree's size grows about geometrically with its height, so its last
        (shallowest) root goes alone: that is where the work is."""
        if len(work.roots) >= 2:
            stack = work.parent >= 0
            cut = len(work.roots) - 1 if stack else len(work.roots) // 2
            # The deep rest of a stack is small: it is not split again.
            return [replace(work, key=work.key + (0,), roots=work.roots[:cut],
                            level=MAX_LEVELS if stack else work.level + 1),
                    replace(work, key=work.key + (1,), roots=work.roots[cut:],
                            level=work.level + 1)]
        frontier = expand(self.space, work.roots, 2)
        self.report.nodes += frontier.nodes
        return self._items(work.key, frontier.items, work.parent, work.crashes, work.level + 1)

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

    def _absorb(self, key: tuple[int, ...], result: TaskResult) -> None:
        self.report.nodes += result.nodes
        if self.mode == "count":
            self.report.count += result.count
            return
        if result.solutions and self.report.solution_seconds is None:
            found_at = result.found_at or time.time()
            self.report.solution_seconds = max(0.0, found_at - self.wall_started)
        self._found(key, result.solutions, 1)

    def _collect(self, future: Any) -> None:
        work = self.inflight.pop(future, None)
        if work is None:  # given up in a crash recovery earlier in this round
            return
        started = time.perf_counter()
        try:
            result: TaskResult = future.result()
        except Exception as error:
            if not self.executor.is_crash(error):
                raise
            self._recover(work, error)
            return
        self.crashes = 0
        if work.parent == -1:
            self._measure(len(work.roots) - result.untouched, result.nodes)
        self.report.record_task(result.seconds, result.worker, result.nodes, work.parent)
        self.report.setup_seconds += result.setup_seconds
        self._absorb(work.key + (0,), result)
        # The rest of the subtree the budget stopped in (a leftover, likely big), then
        # the given roots never started (still the work they were: packable).
        begun = len(result.leftover) - result.untouched
        if result.untouched:
            self._push(replace(work, key=work.key + (2,), roots=result.leftover[begun:]))
        if begun:
            self._push(Work(work.key + (1,), result.leftover[:begun], self.report.tasks - 1))
        self.report.collect_seconds += time.perf_counter() - started

    def _measure(self, roots: int, nodes: int) -> None:
        """Fold one task's nodes per subtree of the cut into the moving average: the
        cut's subtrees shrink from left to right, and dispatch follows that order."""
        if roots > 0:
            sample = nodes / roots
            old = self.per_root
            self.per_root = sample if old is None else old + AVERAGE_WEIGHT * (sample - old)

    def _recover(self, work: Work, error: BaseException) -> None:
        """A worker died: restart the pool and queue again the work that was in flight
        (results that had already arrived are kept)."""
        lost = [work]
        for future, other in list(self.inflight.items()):
            if not self.executor.crash_loses_all:
                break
            if not (future.done() and not future.cancelled() and future.exception() is None):
                del self.inflight[future]
                lost.append(other)
        lost = [replace(w, crashes=w.crashes + 1) for w in lost]
        self.crashes += 1
        worst = max(w.crashes for w in lost)
        if max(self.crashes, worst) >= MAX_CRASHES:
            self.report.complete, self.report.stop_reason = False, "crashed"
            raise WorkerCrashError(
                f"worker processes died {MAX_CRASHES} times in a row (last: "
                f"{type(error).__name__}: {error}); stopping instead of retrying. A subtree "
                "may need more memory than a worker has: try fewer workers or a smaller "
                "budget", self.report) from error
        for other in sorted(lost, key=lambda w: w.key, reverse=True):
            self._push(other)
        self.executor.restart()
        self.report.restarts += 1

    def _releasable(self) -> Iterator[Any]:
        """Solutions whose place in the order no outstanding work can precede."""
        if not self.ready:
            return
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
    def _next_work(self) -> Work | None:
        """The next work to submit; split first when the queue runs low."""
        while self.pending:
            work = self._pop()
            if (len(self.pending) >= self.executor.workers or self.pending_roots >= MAX_PENDING
                    or not self._worth_splitting(work)):
                return self._pack(work)
            pieces = self._split(work)
            for piece in reversed(pieces[1:]):
                self._push(piece)
            if pieces:
                return pieces[0]
        return None

    def _pack(self, work: Work) -> Work:
        """Add the next subtrees of the cut to ``work``: guided self-scheduling, a share
        ``1 / (GUIDED * workers)`` of the roots pending, so early tasks take many and
        the last ones few.  The budget still bounds the task: roots it never starts
        come back as they were (``untouched``) and are packed again."""
        if self.mode == "all" or self.budget is None or work.parent != -1:
            return work
        share = self.pending_roots // (GUIDED * self.executor.workers)
        roots = list(work.roots)
        while (len(roots) < share and self.pending and self.pending[0].parent == -1
               and self.pending[0].crashes == work.crashes):
            roots.extend(self._pop().roots)
        return work if len(roots) == len(work.roots) else replace(work, roots=tuple(roots))

    def _fill(self) -> None:
        if self.handle is None:
            self.handle = self.executor.ship(self.space)
        while len(self.inflight) < 2 * self.executor.workers:
            work = self._next_work()
            if work is None:
                return
            started = time.perf_counter()
            arguments = (self.handle, work.roots, self.mode, self._budget_now(), self.keep,
                         self.seconds, self.flag)
            future = _submit(self.executor, arguments)
            if not self.executor.runs_inline:  # inline, "submitting" is the task
                self.report.dispatch_seconds += time.perf_counter() - started
            self.inflight[future] = work

    def _budget_now(self) -> int | None:
        """The node budget of the next task: a ``TAIL_SHRINK``-th of it once fewer
        items than workers are pending, so the last tasks end close together; all of
        it while the subtrees pending hold ``FULL_AHEAD`` budget per worker (by
        the measured nodes per subtree: fewer, longer tasks, fewer dispatches); half
        of it otherwise."""
        workers = self.executor.workers
        if self.budget is None:
            return None
        if len(self.pending) < workers:
            return max(1, self.budget // TAIL_SHRINK)
        if (self.per_root is not None
                and self.pending_roots * self.per_root >= FULL_AHEAD * workers * self.budget):
            return self.budget
        return max(1, self.budget // 2)

    def _tick(self) -> None:
        if self.bar is not None:
            self.bar.update(self.report.tasks, len(self.pending) + len(self.inflight),
                            self.report.nodes, self.report.count or self.released)

    def _out_of_time(self) -> bool:
        if self.timeout is None or time.perf_counter() - self.started < self.timeout:
            return False
        self.report.complete, self.report.stop_reason = False, "timeout"
        return True

    def stream(self) -> Iterator[Any]:
        """Run to the end, yielding solutions in order (only in mode ``all``)."""
        started = self.started = time.perf_counter()
        try:
            self._cut()
            yield from self._releasable()
            while (self.pending or self.inflight) and not self._done():
                if self._out_of_time():
                    break
                self._fill()
                for future in self.executor.wait_any(self.inflight, timeout=0.25):
                    self._collect(future)
                self._tick()
                yield from self._releasable()
        except GeneratorExit:
            self._finish(started, kill=False, reason="closed")
            raise
        except BaseException as stop:
            # A Ctrl-C inside a compiled kernel comes out of numba as a SystemError.
            if isinstance(stop, KeyboardInterrupt) or isinstance(stop.__cause__,
                                                                 KeyboardInterrupt):
                self._finish(started, kill=True, reason="interrupted")
                raise SearchInterrupted(self.report) from stop
            self._finish(started, kill=True, reason="error")
            raise
        self._finish(started, kill=False, reason=self.report.stop_reason)

    def _finish(self, started: float, kill: bool, reason: str | None) -> None:
        # Work left, or stopped by Ctrl-C or an error (perhaps before the cut, in the
        # parent's probe, with nothing queued yet): the answer is partial.
        if (self.pending or self.inflight or kill) and not self._done():
            self.report.complete = False
            self.report.stop_reason = self.report.stop_reason or reason
        if self.inflight:
            # Running tasks see the flag and return within milliseconds; the warm
            # workers stay for the next call.
            self.executor.raise_flag(self.flag)
            if not (kill and self.owns):  # killing ends them all; loky 3.7 trips over
                self.executor.cancel(list(self.inflight))  # futures cancelled just before
        if self.owns:
            self.executor.close(kill=kill)
        else:
            self.executor.release()
        self.report.seconds = time.perf_counter() - started
        if self.mode == "all":
            self.report.count = self.released
        if self.mode == "count" and self.limit is not None:
            self.report.count = min(self.report.count, self.limit)
        if self.bar is not None:
            self._tick()
            self.bar.close()
