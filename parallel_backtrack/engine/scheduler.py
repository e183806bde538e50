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
    balanced and a stop is prompt (how much of it a task gets: ``pending.py``).
pending / in flight
    Work waiting in the parent (``pending.Pending``, with the packing and
    splitting policies) / submitted and not yet collected (at most
    ``2 * workers``).
probe
    Before the cut the parent searches by itself, and goes on while a slow pool
    starts (``probe.py``).
cut
    The first frontier: ``per_worker`` subtrees per worker, at most ``MAX_CUT``
    (with many workers one parent's dispatching is the limit, and the budget,
    packing and leftovers balance the work anyway).
tail
    Fewer items pending than workers.  Likely big work is split (``pending.py``
    decides): a leftover stack, deepest first, gives up its shallowest root;
    other work is halved; a single root is branched one level.
reduce
    A ``reduction.Reduction`` per run, by mode: ``count`` adds the weighted
    counts (a finish accumulator's sum); ``first``: the first solution to arrive
    wins, the stop flag is raised and pending work is cancelled; ``all``:
    solutions released in order, up to ``limit``.
pull
    Above ``PULL_FROM`` workers a count's cut goes to a file its workers take pieces
    from (``pull.py``): the parent sends one task a worker, not one a piece, and adds
    up each pull's pieces as one task.
crash
    A worker process died.  The pool is restarted and only the work in flight
    is run again; after ``MAX_CRASHES`` crashes in a row (or of one subtree)
    the run stops with ``WorkerCrashError``.

Example: ``Run(space, "count", make_executor(2), owns=True, ...)`` (what
``count(space, workers=2)`` builds) cuts the tree into about 100 subtrees, runs
them on two loky processes and fills a report whose ``count`` equals
``sequential_count(space).count``."""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Generator, Iterator, Sequence
from dataclasses import replace
from typing import Any, cast

from . import checkpoint as checkpoints
from . import heap, hooks, pending
from .arguments import check_budgets
from .checkpoint import Checkpoint, Saved
from .executors import LEARN_TASKS, WAIT, Executor, OwnTime
from .handback import CHUNKS, LOOK_EVERY, Ask, tail_for
from .pending import Pending, Work
from .probe import Probe
from .progress import progress_bar
from .pull import Pulled, Pulls, run_pulled
from .reduction import REDUCTIONS, Reduction
from .report import SearchInterrupted, SearchReport, WorkerCrashError
from .space import Space
from .split import Frontier, Subtree, TaskResult, expand
from .worker import StopFlag, pickled, run_pickled, run_task, unseal

DEFAULT_BUDGET = 20_000
DEFAULT_PER_WORKER = 50
# The parent searches this many budgets itself before it starts a pool (``probe.py``):
# a tree that small is not worth one.  0: no probe.
PROBE_BUDGETS = 8
# Subtree roots waiting in the parent; beyond this the scheduler stops splitting.
MAX_PENDING = 20_000
# The first cut makes at most this many subtrees: with many workers the parent's
# dispatching is the limit, and budgets, packing and leftovers keep them balanced.
MAX_CUT = 1024
# The cut stops after this many seconds of the parent's time, once it holds
# CUT_LEAST subtrees per worker (in the middle of a level if need be): every worker
# waits for it.  N-Queens cuts 1,024 subtrees in 3 ms; a 9x9 Sudoku count 256 in 3 ms
# and 1,024 in 12 ms; a 16x16 Sudoku needs 0.1 s for 1,024, and runs better from
# 256 and leftovers (with fewer, its tasks are fewer roots' leftovers: more tasks).
CUT_SECONDS = 0.003
# A count whose tasks are asked inside the kernel (``count_many``) cuts for a third of
# that: asks share out the big subtrees while the rest waits, and every worker waits
# for the cut (the 9x9 count at 64 workers: first task at 2.5 ms instead of 3.8).
CUT_SECONDS_ASKED = 0.001
CUT_LEAST = 4
MAX_CRASHES = 3
# From this many workers a count's cut goes in a file its workers take pieces from
# (``pull.py``), on a pool that shares files: the parent sends a task per worker, not
# one per piece, and its dispatching no longer bounds how many workers it keeps busy
# (n = 17 at 256 simulated workers: 0.70-0.77 efficiency against 0.37-0.50).  Above
# ``pending.WIDE``, where that dispatching is the limit: at 64 workers the Sudoku
# counts, whose few big subtrees the parent's queue splits and asks back, fell from
# 0.80-0.86 to 0.62-0.79 with pulls (n = 17 rose from 0.90 to 0.92-0.94).
PULL_FROM = pending.WIDE + 1
# From PULL_MANY_FROM workers a cut of PULL_PIECES pieces a worker or more is pulled
# too: many small pieces, which the parent would send one by one (n = 17 at 64
# workers: 1,030 pieces, 0.92-0.94 pulled against 0.89-0.90), not a few big ones.
PULL_MANY_FROM = 32
PULL_PIECES = 8
# In flight, a pull stands for the pieces it takes (``Pulls``), not for one work.
_PULL = Work((-1,), ())


def _call(executor: Executor, arguments: tuple[Any, ...]) -> tuple[Any, ...]:
    """One search task as ``(fn, *args)``, in the form ``executor`` takes best."""
    if executor.runs_inline:  # nothing travels: the arguments as they are
        return (run_task, *arguments)
    if executor.handle_as_argument:  # the shipped space's handle where Dask sees it
        handle, roots, *rest = arguments
        return (run_task, handle, pickled(roots), *rest)
    return (run_pickled, pickled(arguments))  # one bytes object: cheapest


def _submit(executor: Executor, arguments: tuple[Any, ...]) -> Any:
    """Submit one search task in the form ``executor`` takes best."""
    return executor.submit(*_call(executor, arguments))


class Run:
    """One search: the loop that keeps workers fed and hands results to the reduction."""

    def __init__(self, space: Space[Any], mode: str | type[Reduction], executor: Executor, *,
                 owns: bool,
                 budget: int | None, budget_seconds: float | None, per_worker: int | None,
                 limit: int | None, timeout: float | None, progress: bool | None,
                 checkpoint: Checkpoint | None = None) -> None:
        check_budgets(budget=budget, budget_seconds=budget_seconds, per_worker=per_worker,
                      timeout=timeout, limit=limit)
        kind = REDUCTIONS[mode] if isinstance(mode, str) else mode
        if checkpoint is not None and kind.mode != "count":
            raise ValueError(f"checkpoints are for counts, not for mode {kind.mode!r}")
        self.space, self.mode, self.executor, self.owns = space, kind.mode, executor, owns
        self.checkpoint = checkpoint
        if checkpoint is not None:
            checkpoint.bind(space)
        self.counted_before = 0.0  # seconds of the checkpoint's earlier runs
        # A time budget alone means no node limit; otherwise the space's own default.
        self.budget = budget or (None if budget_seconds else
                                 hooks.of(space).node_budget or DEFAULT_BUDGET)
        self.seconds = budget_seconds
        self.per_worker = per_worker or DEFAULT_PER_WORKER
        self.timeout = timeout
        self.report = SearchReport(kind.name or kind.mode, executor.workers, executor.name,
                                   budget=self.budget, budget_seconds=budget_seconds)
        self.wall_started = time.time()
        self.reduction: Reduction = kind(self.report, limit, self.wall_started)
        self.keep = self.reduction.keep
        self.pending = Pending(executor.workers, self.budget, not self.reduction.ordered,
                               self.report, max_roots=MAX_PENDING, fixed=budget is not None)
        self.inflight: dict[Any, Work] = {}  # a pull's future -> ``_PULL``
        self.pulls: Pulls | None = None  # the cut, when its workers pull it
        self.tail = tail_for(executor)  # tail tasks that may be asked for their rest
        # Its tasks' hook looks at the ask inside the kernel (``count_many``).
        self.watched = self.mode == "count" and hooks.offers(space, "count_many")
        self.crashes = 0
        # The parent's own seconds in the loop (not its waits; from ``stream``'s loop
        # on) and the tasks it sent: the cost per task that ``pending.feed`` packs against.
        self.own: OwnTime
        self.sent = 0
        # The tasks in flight when a crash last counted: on a pool that loses only the
        # tasks of a dead worker (Dask), those are lost with it, not crashes of their own.
        self.lost_with: set[Any] = set()
        self.handle: Any = None
        self.flag = executor.stop_flag()
        self.bar = progress_bar(progress)
        self.started = time.perf_counter()

    # -- cutting -------------------------------------------------------------
    def _roots(self) -> list[Subtree]:
        symmetric = hooks.of(self.space).count_roots() if self.reduction.symmetric else None
        return [(self.space.root(), 1)] if symmetric is None else list(symmetric)

    def _probe(self, roots: list[Subtree]) -> list[Subtree]:
        """The parent's own search first (``probe.py``); returns what is left to cut."""
        probe = Probe(self.space, self.executor, self.mode, self.budget, self.seconds,
                      self.keep, self.report, self._absorb,
                      lambda: self._done() or self._out_of_time() or self._asked_to_stop(),
                      budgets=PROBE_BUDGETS)
        rest = probe.run(roots)
        self.handle = probe.handle
        return rest

    def _cut(self) -> None:
        """Cut the tree into about ``per_worker`` subtrees per worker."""
        roots = self._roots()
        prefix: tuple[int, ...] = ()
        inline = self.executor.runs_inline
        if not inline:
            roots, prefix = self._probe(roots), (1,)
            if self._done() or self.report.stop_reason:
                if self.checkpoint is not None:  # what the probe left is the state's work
                    self.pending.push_cut(self._items(prefix, [(False, state, weight)
                                                               for state, weight in roots],
                                                      -1, 0))
                return
        target = 1 if inline else min(self.per_worker * self.executor.workers, MAX_CUT,
                                      MAX_PENDING)
        asked = self.watched and self.tail is not None
        frontier = expand(self.space, roots, target,
                          seconds=CUT_SECONDS_ASKED if asked else CUT_SECONDS,
                          least=min(target, CUT_LEAST * self.executor.workers))
        self.report.nodes += frontier.nodes
        self.report.split_depth = frontier.depth
        works = self._items(prefix, frontier.items, -1, 0, sizes=self._size_hints(frontier))
        self._queue_cut(works)

    def _queue_cut(self, works: list[Work]) -> None:
        """The cut's work (or a checkpoint's) waits in the parent, or, on a pool that
        shares files, goes in a list the workers pull from: from ``PULL_FROM`` workers,
        or from ``PULL_MANY_FROM`` when it has ``PULL_PIECES`` pieces a worker."""
        workers = self.executor.workers
        if (self.mode == "count" and self.executor.pulls and works
                and (workers >= PULL_FROM or (workers >= PULL_MANY_FROM
                                              and len(works) >= PULL_PIECES * workers))):
            self.pulls = Pulls(pending.biggest_first(works))
            self.report.frontier = len(works)
        else:
            self.pending.push_cut(works)
            self.report.frontier = len(self.pending)

    def _size_hints(self, frontier: Frontier) -> Sequence[float] | None:
        """The space's expected sizes of the cut's subtrees, when the order is free and
        tasks go to a pool (run in line, a cut is one subtree: nothing to order)."""
        if (not self.pending.packs or self.pending.budget is None
                or self.executor.runs_inline):
            return None
        states = [state for leaf, state, _ in frontier.items if not leaf]
        hints = hooks.of(self.space).size_hints(states)
        if hints is None:
            return None
        if len(hints) != len(states):
            raise ValueError(f"size_hints gave {len(hints)} sizes for {len(states)} states")
        bad = next((h for h in hints if not 0 <= h < math.inf), None)
        if bad is not None:
            raise ValueError(f"size_hints gave {bad!r}: sizes must be finite and >= 0")
        return hints

    def _items(self, prefix: tuple[int, ...], items: Sequence[tuple[bool, Any, int]],
               parent: int, crashes: int, level: int = 0,
               sizes: Sequence[float] | None = None) -> list[Work]:
        """Work for the subtrees of a frontier (with their expected ``sizes``, one per
        subtree, if known); its solutions are reduced at once."""
        works: list[Work] = []
        hints = None if sizes is None else iter(sizes)
        for index, (leaf, state, weight) in enumerate(items):
            if leaf:
                self.reduction.found(prefix + (index,), (state,), weight)
            else:
                size = () if hints is None else (float(next(hints)),)
                works.append(Work(prefix + (index,), ((state, weight),), parent, crashes,
                                  level, size))
        return works

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
                            level=pending.MAX_LEVELS if stack else work.level + 1,
                            sizes=work.sizes[:cut]),
                    replace(work, key=work.key + (1,), roots=work.roots[cut:],
                            level=work.level + 1, sizes=work.sizes[cut:])]
        frontier = expand(self.space, unseal(work.roots), 2)
        self.report.nodes += frontier.nodes
        return self._items(work.key, frontier.items, work.parent, work.crashes, work.level + 1)

    def _resume(self, saved: Saved) -> None:
        """Go on from a checkpoint: its count and nodes, its work queued as a cut's."""
        self.report.count, self.report.nodes = saved.count, saved.nodes
        self.report.resumed_from, self.report.resumed_nodes = saved.count, saved.nodes
        self.counted_before = saved.seconds
        self._queue_cut(saved.works)

    def _save(self) -> None:
        """Write the checkpoint: what is counted, and the work waiting or in flight."""
        assert self.checkpoint is not None
        pulled = [] if self.pulls is None else self.pulls.waiting()
        self.checkpoint.save(self.report.count, self.report.nodes,
                             [*self.pending, *(work for work in self.inflight.values()
                                               if work is not _PULL), *pulled],
                             self.counted_before + time.perf_counter() - self.started)

    def _end_checkpoint(self) -> None:
        """A complete count removes its checkpoint; one stopped early writes it."""
        if self.checkpoint is None:
            return
        if self._unfinished():
            self._save()
        else:
            self.checkpoint.remove()

    # -- collecting ----------------------------------------------------------
    def _absorb(self, key: tuple[int, ...], result: TaskResult) -> None:
        self.report.nodes += result.nodes
        self.reduction.absorb(key, result)

    def _collect(self, future: Any) -> None:
        if self.tail is not None:
            self.tail.back(future)
        work = self.inflight.pop(future, None)
        if work is None:  # given up in a crash recovery earlier in this round
            return
        started = time.perf_counter()
        try:
            result: TaskResult = self.executor.result(future)
        except Exception as error:
            if not self.executor.is_crash(error):
                raise
            self._recover(work, error, future)
            return
        self.crashes = 0
        if work is _PULL:
            self._take_pulled(future, cast(Pulled, result))
        else:
            self._take(work, result)
        self.report.collect_seconds += time.perf_counter() - started

    def _take_pulled(self, future: Any, pulled: Pulled) -> None:
        """A pull's result: its pieces' count as one task's, and their rests queued."""
        assert self.pulls is not None
        self.pulls.numbers.pop(future, None)
        works = [self.pulls.returned(index) for index in pulled.indices]
        total = pulled.total
        begun = sum(len(work.roots) for work in works) - sum(u for _, _, u in pulled.rests)
        self.pending.measure(begun, total.nodes, total.seconds,
                             sum(sum(work.sizes) for work in works))
        self.report.record_task(total.seconds, total.worker, total.nodes, -1,
                                total.started_at, f"pull of {len(works)}")
        self.report.setup_seconds += total.setup_seconds
        self.report.pulled += len(works)
        self._absorb((-1, len(works)), total)  # a count: the key orders nothing
        for index, leftover, untouched in pulled.rests:
            self._queue_rest(self.pulls.works[index], leftover, untouched)

    def _take(self, work: Work, result: TaskResult) -> None:
        """One task's result: its count, and its rest queued."""
        if work.parent == -1:
            begun = len(work.roots) - result.untouched
            self.pending.measure(begun, result.nodes, result.seconds, sum(work.sizes[:begun]))
        self.report.record_task(result.seconds, result.worker, result.nodes, work.parent,
                                result.started_at, ".".join(map(str, work.key)))
        self.report.setup_seconds += result.setup_seconds
        self._absorb(work.key + (0,), result)
        self._queue_rest(work, result.leftover, result.untouched)

    def _queue_rest(self, work: Work, leftover: tuple[Subtree, ...], untouched: int) -> None:
        """The rest of the subtree the budget stopped in (a leftover, likely big), then
        the given roots never started (still the work they were: packable)."""
        begun = len(leftover) - untouched
        if untouched:
            self.pending.push(replace(work, key=work.key + (2,), roots=leftover[begun:],
                                      sizes=work.sizes[len(work.sizes) - untouched:]))
        if begun:
            self.pending.push(Work(work.key + (1,), leftover[:begun], self.report.tasks - 1))

    def _recover(self, work: Work, error: BaseException, future: Any) -> None:
        """A worker died under ``future``'s task: restart the pool and queue again the
        work that was in flight (results that had already arrived are kept).  On a pool
        that loses only a dead worker's tasks, one in flight when the last crash was
        counted went with that crash (a worker holds several tasks)."""
        lost = self._lost(future, work)
        if self.executor.crash_loses_all:  # the pool broke: its tasks in flight with it
            for running, other in list(self.inflight.items()):
                if not (running.done() and not running.cancelled()
                        and running.exception() is None):
                    del self.inflight[running]
                    lost.extend(self._lost(running, other))
        lost = [replace(w, crashes=w.crashes + 1) for w in lost]
        if self.executor.crash_loses_all or future not in self.lost_with:
            self.crashes += 1
            self.lost_with = set(self.inflight)
        worst = max((w.crashes for w in lost), default=0)
        if max(self.crashes, worst) >= MAX_CRASHES:
            self.report.complete, self.report.stop_reason = False, "crashed"
            raise WorkerCrashError(
                f"worker processes died {MAX_CRASHES} times in a row (last: "
                f"{type(error).__name__}: {error}); stopping instead of retrying. A subtree "
                "may need more memory than a worker has: try fewer workers or a smaller "
                "budget", self.report) from error
        for other in sorted(lost, key=lambda w: w.key, reverse=True):
            self.pending.push(other)
        self.executor.restart()
        self.report.restarts += 1

    def _lost(self, future: Any, work: Work) -> list[Work]:
        """The work lost with the task of ``future``: a pull's, the pieces it took."""
        if work is not _PULL:
            return [work]
        assert self.pulls is not None
        return self.pulls.lost(future)

    def _first_open(self) -> tuple[int, ...] | None:
        """The smallest key of the work still pending or in flight (None: none is)."""
        outstanding = [w.key for w in self.pending] + [w.key for w in self.inflight.values()]
        return min(outstanding) if outstanding else None

    def _releasable(self) -> Iterator[Any]:
        """Solutions whose place in the order no outstanding work can precede."""
        return self.reduction.release(self._first_open)

    def _done(self) -> bool:
        return self.reduction.done()

    def _unclaimed(self) -> int:
        """Pieces of a pulled cut that no pull has taken yet."""
        return 0 if self.pulls is None else self.pulls.unclaimed()

    def _left(self) -> bool:
        """Work waits, runs, or waits in a pulled cut."""
        return bool(self.pending or self.inflight or self._unclaimed())

    def _unfinished(self) -> bool:
        """Work is left, and the reduction still wants it."""
        return self._left() and not self._done()

    # -- dispatching ---------------------------------------------------------
    def _fill(self) -> None:
        if self.handle is None:
            self.handle = self.executor.ship(self.space)
        self._fill_pending()
        if self.pulls is not None:  # after the rests pending: they hold the big work
            self._send_pulls(self.pulls)

    def _fill_pending(self) -> None:
        while len(self.inflight) < 2 * self.executor.workers:
            work = self.pending.next_work(self._split)
            if work is None:
                return
            started = time.perf_counter()
            budget = self.pending.budget_now()
            stop: StopFlag | Ask = self.flag
            if self.tail is not None and budget is not None and self.pending.in_tail():
                stop = self.tail.stop(self.flag, min(budget, LOOK_EVERY) if self.watched
                                      else max(1, budget // CHUNKS))
            arguments = (self.handle, work.roots, self.mode, budget, self.keep,
                         self.seconds, stop)
            future = _submit(self.executor, arguments)
            self.sent += 1
            if not self.executor.runs_inline:  # inline, "submitting" is the task
                self.report.dispatch_seconds += time.perf_counter() - started
            self.inflight[future] = work
            if isinstance(stop, Ask) and self.tail is not None:
                self.tail.sent(future, arguments)

    def _send_pulls(self, pulls: Pulls) -> None:
        """A pull for each worker without one while pieces are left to take, each run
        with the whole budget (the workers share the pieces out themselves)."""
        rest = (self.mode, self.budget, self.keep, self.seconds, self.flag,
                self.executor.pull_seconds)
        free = self.executor.workers - len(pulls.numbers)
        for future in pulls.send(self.executor, run_pulled, (self.handle,), rest, free):
            self.inflight[future] = _PULL
            self.sent += 1
            self.report.pulls += 1

    def _ask_back(self) -> None:
        """Nothing pending and workers idle: ask the oldest tail tasks still running for
        their rest, one per idle worker not already waiting for an asked one, once they
        have run ``ASK_AFTER`` (``handback``)."""
        if self.tail is not None and not self.pending and not self._unclaimed():
            self.report.asked += self.tail.ask(len(self.inflight), self._rerun)

    def _wait(self) -> float:
        """How long to wait for a task to end: ``WAIT``, or until the oldest tail task
        may be asked, when workers idle with nothing pending and it is still young."""
        if self.tail is None or self.pending or self._unclaimed():
            return WAIT
        return self.tail.timeout(len(self.inflight), WAIT)

    def _rerun(self, arguments: tuple[Any, ...], share: float,
               result: TaskResult) -> tuple[Any, ...] | None:
        """For a pool that ran a task before it was asked (the virtual one): the task
        as it would end, asked once ``share`` of it had run (at the end of that call of
        ``step`` nodes), or None when that is its end anyway."""
        step = arguments[-1].step  # its stop's
        nodes = -(-int(share * result.nodes) // step) * step
        if nodes >= result.nodes or nodes <= 0:
            return None
        return _call(self.executor, (*arguments[:3], nodes, *arguments[4:]))

    def _learn(self) -> None:
        """What tasks cost the parent so far (``feed``, once ``LEARN_TASKS`` have gone
        out)."""
        seconds = self.own.update()
        if self.sent and not self.executor.runs_inline:
            self.report.task_cost = seconds / self.sent
            if self.sent >= LEARN_TASKS:
                self.pending.task_cost = self.report.task_cost

    def _tick(self) -> None:
        if self.bar is not None:
            self.bar.update(self.report.tasks, len(self.pending) + len(self.inflight),
                            self.report.nodes, self.reduction.progress())

    def _asked_to_stop(self) -> bool:
        """A checkpointed count asked to stop (``checkpoint.ask_stop``)."""
        if self.checkpoint is None or not checkpoints.stop_asked():
            return False
        self.report.complete, self.report.stop_reason = False, "terminated"
        return True

    def _out_of_time(self) -> bool:
        if self.timeout is None or time.perf_counter() - self.started < self.timeout:
            return False
        self.report.complete, self.report.stop_reason = False, "timeout"
        return True

    def stream(self) -> Generator[Any, None, None]:
        """Run to the end, yielding solutions in order (only in mode ``all``)."""
        started = self.started = time.perf_counter()
        # The heap stays frozen while the run goes on (``heap``), but not between the
        # solutions of a stream, where the caller's code runs.
        frozen = contextlib.nullcontext() if self.mode == "all" else heap.frozen()
        with (contextlib.nullcontext() if self.checkpoint is None else checkpoints.running()), \
                frozen:
            yield from self._stream(started)

    def _stream(self, started: float) -> Generator[Any, None, None]:
        try:
            saved = None if self.checkpoint is None else self.checkpoint.load()
            if saved is None:
                self._cut()
            else:
                self._resume(saved)
            yield from self._releasable()
            self.own = OwnTime(self.executor)
            while self._left() and not self._done():
                if self._out_of_time() or self._asked_to_stop():
                    break
                if self.checkpoint is not None and self.checkpoint.due():
                    self._save()
                self.own.resume()
                self._fill()
                self._ask_back()
                for future in self.own.wait_any(self.inflight, timeout=self._wait()):
                    self._collect(future)
                self._tick()
                self._learn()
                yield from self._releasable()
            self._end_checkpoint()
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
        if self._unfinished() or (kill and not self._done()):
            self.report.complete = False
            self.report.stop_reason = self.report.stop_reason or reason
        if self.inflight:
            # Running tasks see the flag and return within milliseconds; the warm
            # workers stay for the next call.
            self.executor.raise_flag(self.flag)
            if not (kill and self.owns):  # killing ends them all; loky 3.7 trips over
                self.executor.cancel(list(self.inflight))  # futures cancelled just before
        if self.tail is not None:
            self.tail.close()
        if self.pulls is not None:
            self.pulls.close()
        if self.owns:
            self.executor.close(kill=kill)
        else:
            self.executor.release()
        self.report.seconds = time.perf_counter() - started
        self.reduction.finish()
        if self.bar is not None:
            self._tick()
            self.bar.close()
