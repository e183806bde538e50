"""A virtual pool: how the scheduler would do on P workers, found on one core.

Each task runs at once, in this process, and is timed; a virtual clock says
when it would have ended on the first of P workers to be free.  The parent's
own time (cutting, splitting, dispatching, collecting, and pickling each task
and result as a real pool would) moves the clock as it passes.  The scheduler
cannot tell the difference, so what is simulated is its real behaviour for P
workers (the cut, splitting when the queue runs low, packing, leftovers) with
real task durations: a faithful "what would 64 cores do", on a laptop.

Glossary
--------
clock
    Virtual seconds since its first run began: the parent's time outside
    tasks, plus its waits for the virtual workers.
makespan
    The clock when the last task ends (read ``clock`` after the run).
busy
    The sum of the task durations: the work.  ``busy / (workers * clock)`` is
    the simulated efficiency.
boot
    Seconds before the virtual workers take their first task (a real pool's
    start-up; 0 by default).
dispatch
    Extra parent seconds per task for what pickling does not cover (a real
    pool's queues and pipes).
timer
    What measures a task and the parent: by default this thread's CPU time
    (``time.thread_time``).  A virtual worker and the parent each stand for a core
    of their own, and on a shared host the wall clock also counts the moments this
    process waited for a core: a task descheduled for 50 ms would look like a
    straggler, and the same run would give another curve an hour later.  Pass
    ``timer=time.perf_counter`` for the wall clock.
stop
    ``cancel(futures)``: every cancel of the engine comes with a signal the task
    reads (the stop flag, or a window closed in the shared bounds), so a task still
    running in virtual time ends ``stop_after`` seconds after the cancel (its next
    look: 256 nodes of the Python alpha-beta take some 0.3 ms, 1,024 of the
    compiled Connect-Four some 0.1 ms), one not started yet ends as it starts, and
    the tasks queued behind it on its worker move up.  ``stopped`` adds up the
    seconds of work this took off; the task's own result (of the whole subtree) is
    what the caller gets, if it looks.  ``stop_after=None``: a cancelled task runs
    whole and holds its worker (for comparison; it overstates the work of searches
    that drop tasks, such as alpha-beta's brothers after a cut).
renew
    ``renew(future, fn, *args)``: a task in flight would now run as ``fn(*args)``,
    because a bound it reads rose after it was sent (alpha-beta's window).  A real
    task narrows its window at its next look and goes on with fewer nodes; here it ran
    before the raise.  The new call runs too, and the task ends at the sooner of its
    old end and (the raise, plus ``stop_after``, plus the new call's seconds), with
    that call's result; one not started yet takes the new call's seconds.  This
    bounds the real end from above when a narrower window never visits more nodes
    (plain alpha-beta without a table).  ``renewed`` adds up the seconds it took off;
    ``renew=False`` keeps the tasks as sent.
ask
    ``hand_back(future, rerun)``: the scheduler asked a tail task for its rest (it
    raised the task's slot: ``engine.handback``), which a real task sees at its next
    look.  Here it ran whole before the ask; ``rerun(share, result)`` gives the call
    that ends where the asked task would, the share of it run by now rounded up to its
    next look, and that call runs and stands in, result and seconds, when it ends
    sooner.  ``handed`` counts them.  It returns True for any task running, as a real
    pool does: an ask that reaches a task about to end anyway is spent all the same.
wait
    ``wait_any(futures, timeout)`` moves the clock to the first of them to end, or on
    by ``timeout`` when none ends sooner (and returns none, as a real pool does);
    ``now()`` reads the clock.
idle
    ``idle()``: per worker, on average, the seconds it waited before its first
    task (the cut and the first wave's dispatch), between tasks (the parent was
    late) and after its last one (the tail), which with the work add up to the
    clock: where a curve's efficiency goes.
replay
    A dict shared by several runs, keyed by what a task searches (its roots, mode
    and budgets): a task met before is not run again, its recorded result and
    seconds stand in.  A second run with the same dict runs no task between two of
    the parent's steps, and its parent costs a third to a half of what it costs as
    run: a lower bound, not a parent on a core of its own, which measured with the
    tasks in a process on the other core costs what it costs as run (docs/results.md,
    "A count's parent on a core of its own").  ``replayed`` counts the hits.
pull
    ``run_pulled`` (``pull.py``), ``run_part_pulled`` (``threshold_pulls.py``): a task
    that takes pieces of a count's cut, or of a threshold iteration's, one after
    another.  Its end depends on the other pulls, so a pull is not run as it is sent:
    the pulls sent run their pieces in the order of the virtual clock
    (``virtual_pulls``), each piece going to the pull free first, as the workers'
    claims share them out, timed with its claim, up to the parent's clock or the first
    time a pull ends after it; the parent has its turn there.  A pull runs until the
    list is empty or a piece leaves a rest (``pull_seconds`` is infinite): a real one
    also hands its results back every second and is sent again, a task a worker a
    second more.

Example: ``count(space, executor=VirtualExecutor(64))`` gives the exact count;
then ``executor.clock`` is the simulated wall time on 64 workers.
"""

from __future__ import annotations

import concurrent.futures as cf
import heapq
import math
import pickle
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

import cloudpickle  # type: ignore[import-untyped]

from .arguments import check_count
from .executors import Executor
from .pull import Puller
from .split import TaskResult
from .virtual_pulls import KINDS as PULL_KINDS
from .virtual_pulls import PullRuns
from .worker import StopFlag, run_pickled, task_key

# Seconds a running task goes on after it is cancelled: until its next look at the
# stop flag or its window (see ``stop`` in the glossary).
STOP_AFTER = 0.0005


class _Future(cf.Future):
    """A virtual task's future, whose result a renewed run may replace."""

    def replace_result(self, result: Any) -> None:
        with self._condition:
            self._result = result


class VirtualExecutor(Executor):
    """``workers`` simulated workers; tasks run here, one after another."""

    name = "virtual"
    runs_inline = False  # it stands for a pool of ``workers``: probe, cut and pickle
    renews = True  # tasks run before the raises they would have seen: ``renew``
    hands_back = True  # and before the asks they would have seen: ``hand_back``
    # Bounds in a mapped file, sent by its path, as a pool on one machine has them (a
    # task runs at its submit and reads them then; ``renew`` times later raises).
    maps_bounds = True
    pulls = True
    pull_seconds = math.inf  # a pull runs to its list's end (see ``pull``)

    def __init__(self, workers: int, *, boot: float = 0.0, dispatch: float = 0.0,
                 replay: dict[bytes, tuple[bytes, float]] | None = None,
                 timer: Callable[[], float] = time.thread_time,
                 stop_after: float | None = STOP_AFTER, renew: bool = True,
                 pulls: bool = True) -> None:
        check_count("workers", workers, none=False)
        super().__init__(workers)
        self.dispatch = dispatch
        self.start_cost = boot  # the parent searches alone while the virtual pool boots
        self.clock = 0.0
        self.busy = 0.0
        self.tasks = 0
        self.first_submit: float | None = None  # the clock at the first task
        self.parent = 0.0  # the parent's own seconds (outside waits and tasks)
        self._free = [(boot, index) for index in range(workers)]  # (free at, worker)
        self._spans: dict[int, list[float]] = {}  # worker -> [first start, last end]
        self._ends: dict[cf.Future, float] = {}
        # Per worker, its tasks not ended when it was last sent one: [future, sent,
        # start, seconds], in the order they run there (``cancel`` times them again).
        self._queues: dict[int, list[list[Any]]] = {}
        self.stop_after = stop_after
        self.stopped = 0.0
        self.renews = renew
        self.pulls = pulls  # False: a pool whose workers share no files (Dask)
        self.renewed = 0.0
        self.handed = 0
        self.timer = timer
        self._mark = timer()
        self.replay = replay
        self.replayed = 0
        self._pulls = PullRuns()  # pulls sent and not ended
        self._listed: dict[str, float] = {}  # a pulled cut's list -> the clock it was written

    def _tick(self) -> None:
        """Move the clock by the parent's time since the last mark."""
        now = self.timer()
        self.clock += now - self._mark
        self.parent += now - self._mark
        self._mark = now

    def submit(self, fn: Callable[..., Any], *args: Any) -> cf.Future:
        sent = cloudpickle.dumps((fn, args))  # the parent's side of sending a task
        if fn in PULL_KINDS:
            return self._pull(PULL_KINDS[fn], *args)
        self._run_pulls()  # a pull may end before the first worker in ``_free`` is free
        while not self._free:  # every worker holds a pull: the first to end takes it
            self._run_pulls()
        self.clock += self.dispatch
        self._tick()
        if self.first_submit is None:
            self.first_submit = self.clock
        free_at, worker = heapq.heappop(self._free)
        start = max(self.clock, free_at)
        future = _Future()
        key = self._replay_key(fn, args)
        known = None if key is None else self.replay.get(key)  # type: ignore[union-attr]
        if known is not None:
            data, seconds = known
            self.replayed += 1
        else:
            data, seconds = self._run(sent, future)
            if key is not None and data is not None:
                self.replay[key] = (data, seconds)  # type: ignore[index]
        self._mark = self.timer()  # the task's time is the worker's, not the parent's
        if data is not None:
            result = pickle.loads(data)  # the parent receives it (its time from here on)
            if isinstance(result, TaskResult):  # a real worker labels its own results
                paused = self.timer()
                result = replace(result, worker=f"virtual{worker}")
                self._mark += self.timer() - paused
            future.set_result(result)
        self._place(future, worker, self.clock, start, start + seconds)
        self.busy += seconds
        self.tasks += 1
        return future

    def _pull(self, kind: Callable[[bytes], Puller], arguments: bytes) -> cf.Future:
        """Send a pull: it takes a worker now, and runs with the others (``pull``)."""
        self.clock += self.dispatch
        self._tick()
        if self.first_submit is None:
            self.first_submit = self.clock
        while not self._free:  # every worker holds a pull: the first to end takes it
            self._run_pulls()
        free_at, worker = heapq.heappop(self._free)
        future = _Future()
        self._pulls.send(future, worker, max(self.clock, free_at), self.clock, kind, arguments)
        self.tasks += 1
        self._mark = self.timer()
        return future

    def listed(self, path: str) -> None:
        """A pulled cut's list is written now: no piece is claimed from it sooner."""
        self._tick()
        self._listed[path] = self.clock

    def _run_pulls(self, extend: bool = True) -> None:
        """Run the pulls sent up to the parent's clock, or (``extend``) the first one's
        end after it (``virtual_pulls``); those that ended free their workers, their
        results received as a real pull's."""
        if not self._pulls:
            return
        self._tick()
        ended, busy = self._pulls.advance(self.timer, self._listed, self.clock, extend)
        self.busy += busy
        self._mark = self.timer()  # the pieces' time is the workers', not the parent's
        for done in ended:
            run = done.run
            run.future.set_result(pickle.loads(done.data))  # the parent receives it
            self._place(run.future, run.worker, run.sent, run.start, done.end)

    def _place(self, future: Any, worker: int, sent: float, start: float, end: float
               ) -> None:
        """A task of ``worker`` sent at ``sent`` runs from ``start`` to ``end``: its
        queue there (for ``cancel``), the worker free again at ``end``, its span."""
        queue = self._queues.setdefault(worker, [])
        queue[:] = [task for task in queue if self._ends[task[0]] > self.clock]
        queue.append([future, sent, start, end - start])
        heapq.heappush(self._free, (end, worker))
        span = self._spans.setdefault(worker, [start, end])
        span[1] = end
        self._ends[future] = end

    def _run(self, sent: bytes, future: cf.Future | None) -> tuple[bytes | None, float]:
        """The worker's side: receive, run, send the result back; its seconds.  An
        error goes to ``future`` (None: dropped)."""
        began = self.timer()
        try:
            fn, args = pickle.loads(sent)
            data = cloudpickle.dumps(fn(*args))
        except Exception as error:  # noqa: BLE001 - handed to the caller via the future
            if future is not None:
                future.set_exception(error)
            data = None
        return data, self.timer() - began

    def renew(self, future: Any, fn: Callable[..., Any], *args: Any) -> None:
        """A task in flight would now run as ``fn(*args)`` (see ``renew`` in the
        glossary): run that too, and keep whichever ends first in virtual time."""
        if not self.renews:
            return
        self._run_pulls()
        self._tick()
        found = self._running(future)
        if found is not None:
            worker, task = found
            data, seconds = self._run(cloudpickle.dumps((fn, args)), None)
            look = STOP_AFTER if self.stop_after is None else self.stop_after
            start, before = task[2], task[3]
            after = seconds if start >= self.clock else self.clock - start + look + seconds
            if data is not None and after < before:
                self.renewed += before - after
                self._stand_in(worker, task, data, after)
        self._mark = self.timer()

    def hand_back(self, future: Any, rerun: Callable[[float, Any], tuple[Any, ...] | None]
                  ) -> bool:
        """A task still running was asked for its rest (see ``ask`` in the glossary):
        run the call ``rerun`` gives for the share of it run by now, and keep it when it
        ends sooner."""
        self._run_pulls()
        self._tick()
        found = self._running(future)
        running = found is not None and found[1][2] < self.clock  # started: searching
        if found is not None and running:
            worker, task = found
            call = rerun((self.clock - task[2]) / task[3], future.result())
            if call is not None:
                data, seconds = self._run(cloudpickle.dumps((call[0], call[1:])), None)
                if data is not None and seconds < task[3]:
                    self._stand_in(worker, task, data, seconds)
                    self.handed += 1
        self._mark = self.timer()
        # As a real pool's: the ask reached a running task, whether or not its rest is
        # worth handing back (the parent cannot tell).
        return running

    def now(self) -> float:
        """The virtual clock, moved by the parent's time so far."""
        self._run_pulls()
        self._tick()
        return self.clock

    def _running(self, future: Any) -> tuple[int, list[Any]] | None:
        """The worker and queue entry of ``future`` while it has not ended in virtual
        time and has a result (else None)."""
        if self._ends.get(future, 0.0) <= self.clock or future.exception() is not None:
            return None
        for worker, queue in self._queues.items():
            for task in queue:
                if task[0] is future:
                    return worker, task
        return None

    def _stand_in(self, worker: int, task: list[Any], data: bytes, seconds: float) -> None:
        """``data`` (a pickled result) and ``seconds`` stand in for the task's own; the
        tasks behind it on its worker move up."""
        result = pickle.loads(data)
        if isinstance(result, TaskResult):  # a real worker labels its own results
            result = replace(result, worker=f"virtual{worker}")
        task[0].replace_result(result)
        self.busy -= task[3] - seconds
        task[3] = seconds
        self._retime(worker, set(), self.clock)
        heapq.heapify(self._free)

    def _replay_key(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> bytes | None:
        """What a search task searches, without the run's own handle and stop flag."""
        if self.replay is None or fn is not run_pickled:
            return None
        return task_key(args[0])

    def wait_any(self, futures: Iterable[Any], timeout: float | None = None) -> set[Any]:
        self._run_pulls()
        self._tick()
        futures = list(futures)
        if not futures:
            return set()
        if timeout != 0:  # 0: a look at those ended by now; the clock stays
            # (A pull still running ends after the first pull's end, run by now.)
            first = min(self._ends.get(f, math.inf) for f in futures)
            if timeout is not None:  # none ended within it: back with none, as a pool
                first = min(first, self.clock + timeout)
            self.clock = max(self.clock, first)
        done = {f for f in futures if self._ends.get(f, math.inf) <= self.clock}
        # Finding them is the simulation's own work: a real pool's queue hands over
        # the finished futures at a cost that does not grow with those in flight.
        self._mark = self.timer()
        return done

    def stop_flag(self) -> StopFlag:
        """Called as a run begins: the clock starts with the first run."""
        if self.tasks == 0 and self.clock == 0.0:
            self._mark = self.timer()
        return super().stop_flag()

    def ship(self, obj: Any) -> Any:
        return self.ship_to_file(obj)  # as a process pool would: tasks carry a handle

    def cancel(self, futures: Iterable[Any]) -> None:
        """Tasks already ran here; in virtual time a cancelled task still running ends
        ``stop_after`` seconds from now, one not started ends as it starts, and the
        tasks behind it on its worker start sooner (see ``stop`` in the glossary)."""
        futures = list(futures)
        self._run_pulls(extend=False)  # what ran before the cancel; the rest is dropped
        self._drop_pulls(set(futures))
        stop_after = self.stop_after
        if stop_after is None:
            return
        self._tick()
        now = self.clock
        gone = {f for f in futures if self._ends.get(f, now) > now}
        workers = [worker for worker, queue in self._queues.items()
                   if any(task[0] in gone for task in queue)]
        for worker in workers:
            self._retime(worker, gone, now + stop_after)
        if workers:
            heapq.heapify(self._free)
        self._mark = self.timer()

    def _drop_pulls(self, futures: set[Any]) -> None:
        """Pulls cancelled before they ended stop at their next look (``stop_after``):
        their workers are free then, with the pieces they ran.  A piece they ran ahead
        of the parent's clock (up to the first pull's end) is cut there, as a task's is
        (``stopped``)."""
        look = self.stop_after or 0.0
        for run in self._pulls.drop(futures):
            end = max(run.start, self.clock) + look
            for start, seconds in run.spans:
                cut = seconds - min(seconds, max(0.0, end - start))
                self.busy -= cut
                self.stopped += cut
            run.future.set_result(run.result())
            heapq.heappush(self._free, (end, run.worker))
            self._ends[run.future] = end

    def _retime(self, worker: int, gone: set[Any], stops: float) -> None:
        """Time the queue of ``worker`` again after a cancel of the futures ``gone``:
        those running end by ``stops``, those not started take no time."""
        now = self.clock
        end = None
        for task in self._queues[worker]:
            future, sent, start, seconds = task
            if end is not None:
                start = task[2] = max(sent, end)
            if future in gone:
                kept = 0.0 if start >= now else min(seconds, stops - start)
                self.busy -= seconds - kept
                self.stopped += seconds - kept
                seconds = task[3] = kept
            end = self._ends[future] = start + seconds
        assert end is not None
        self._free = [(free, w) if w != worker else (end, w) for free, w in self._free]
        self._spans[worker][1] = end

    def idle(self) -> tuple[float, float, float]:
        """Seconds a worker waited, on average: before its first task, between tasks,
        after its last one (a worker that got no task waited the whole clock)."""
        before = after = 0.0
        for worker in range(self.workers):
            first, last = self._spans.get(worker, (self.clock, self.clock))
            before += first
            after += max(0.0, self.clock - last)
        between = self.workers * self.clock - self.busy - before - after
        return before / self.workers, between / self.workers, after / self.workers

    def efficiency(self) -> float:
        """The work over what ``workers`` workers had in the clock's time."""
        return self.busy / (self.workers * self.clock) if self.clock > 0 else 1.0
