"""A batch of puzzles in bounded memory: read as they are needed, answered in input order.

Glossary
--------
item
    What the reader gives, in input order: a ``jobs.Job`` to solve, or an outcome
    already known (a bad line's ``invalid``), which waits only for its turn.
batch
    ``Batch``: the outcome of every item, in input order, each as soon as it and
    those before it are known.  On one worker the puzzles are solved here one after
    another; a batch of a single puzzle (the input ends before a second one, within
    the window) searches it with IDA* over the workers; else
    the puzzles spread over a pool in runs (``chunk``).
chunk
    ``Chunks``: the length of the next task's run of consecutive puzzles: one at
    first, then as many as the puzzles back so far say fill ``CHUNK_SECONDS`` (at
    most ``MAX_CHUNK``), and no more than a share of the puzzles left, two tasks
    per worker, so the last ones still spread over every worker.
look-ahead
    The puzzles read but not yet sent, kept at ``2 * workers * MAX_CHUNK`` while
    the input lasts.  A share of the puzzles left is then a share of the look-ahead:
    while the input goes on it is never below ``MAX_CHUNK``, so it cuts no run, just
    as a share of the (larger) real rest would not; once the input has ended, the
    look-ahead is the rest.  So the runs are the ones a batch that knew the whole
    input would send, without holding it.
window
    At most ``window`` items read and not yet printed (by default three times the
    look-ahead: the look-ahead, the runs in flight, and the answers waiting for an
    earlier one).  When a slow puzzle holds the window full, no more is read; the
    runs already read still go out.  Memory follows the window, not the input.
waiting
    ``Batch.waiting``: the item whose outcome comes next, while the batch looks for
    it (None while the caller holds an outcome): what a Ctrl-C reports as
    ``interrupted``.

Example: ``[outcome for _, outcome in Batch(jobs, workers=2)]``.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

from .jobs import Job, executor_for, solve_job, solve_jobs, stopped

CHUNK_SECONDS = 0.05  # a batch task's aim: a pool's round trip (about 1 ms) small beside it
MAX_CHUNK = 256  # puzzles a task at most
WINDOWS_PER_LOOK_AHEAD = 3  # window = look-ahead, runs in flight, answers waiting


class Chunks:
    """How many puzzles the next batch task takes (see ``chunk`` in the glossary)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.solved = 0  # puzzles back
        self.seconds = 0.0  # their search time

    def learn(self, outcomes: list[dict[str, Any]]) -> None:
        self.solved += len(outcomes)
        self.seconds += sum(outcome["seconds"] for outcome in outcomes)

    def size(self, left: int) -> int:
        """The next run's length, ``left`` puzzles not yet sent: 1 until some are back."""
        if not self.solved:
            return 1
        each = self.seconds / self.solved
        fill = MAX_CHUNK if each * MAX_CHUNK <= CHUNK_SECONDS else int(CHUNK_SECONDS / each)
        share = -(-left // (2 * self.workers))  # the rest still spread over the workers
        return max(1, min(fill, share))


def look_ahead(workers: int) -> int:
    """Puzzles read ahead of those sent (see the glossary)."""
    return 2 * workers * MAX_CHUNK


class Batch:
    """The outcomes of ``items`` (``Job``s and outcomes known already), in input order:
    iterate for ``(item, outcome)`` pairs.  ``pool``: the backend and a Dask
    scheduler's address (``jobs._executor``); ``deadline``: ``time.perf_counter``'s
    end of the batch; ``window``: items held at most (see the glossary)."""

    def __init__(self, items: Iterable[Any], workers: int,
                 pool: dict[str, Any] | None = None, deadline: float | None = None,
                 window: int | None = None) -> None:
        self.items = iter(items)
        self.workers, self.pool, self.deadline = workers, pool or {}, deadline
        self.ahead = look_ahead(workers)
        self.window = window or WINDOWS_PER_LOOK_AHEAD * self.ahead
        self.waiting: Any = None
        self.held: dict[int, Any] = {}  # index -> item, read and not yet given out
        self.read = 0  # items read
        self.ended = False  # the input has ended

    def _next(self) -> bool:
        """Read one more item into ``held``; False when the input has ended."""
        if not self.ended:
            item = next(self.items, _END)
            if item is _END:
                self.ended = True
            else:
                self.held[self.read] = item
                self.read += 1
        return not self.ended

    def __iter__(self) -> Iterator[tuple[Any, dict[str, Any]]]:
        if self.workers == 1 and not self.pool.get("address"):
            yield from self._here(self.workers)
            return
        jobs = 0  # a batch of one puzzle splits its search over the workers instead
        while jobs < 2 and len(self.held) < self.window and self._next():
            jobs += isinstance(self.held[self.read - 1], Job)
        if jobs < 2 and self.ended:
            yield from self._here(self.workers)
        else:
            yield from self._spread()

    def _here(self, workers: int) -> Iterator[tuple[Any, dict[str, Any]]]:
        """One item after another, solved here (IDA* over ``workers`` for a job)."""
        at = 0
        while at < self.read or self._next():
            # Read a window at a time: a line read between every two searches made
            # easy puzzles some 10% slower (5,000 8-puzzles, one worker).
            while at == self.read - 1 and len(self.held) < self.window and self._next():
                pass
            item = self.held.pop(at)
            at += 1
            self.waiting = item
            if isinstance(item, Job):
                outcome = (_late(item) if _past(self.deadline) else
                           solve_job(_left(item, self.deadline), workers, self.pool))
            else:
                outcome = item
            self.waiting = None
            yield item, outcome

    def _spread(self) -> Iterator[tuple[Any, dict[str, Any]]]:
        pool = executor_for(self.workers, self.pool)
        kill = True
        try:
            yield from _Runs(self, pool).outcomes()
            kill = _past(self.deadline)  # tasks still running past the deadline: end them
        finally:
            pool.close(kill=kill)


class _Runs:
    """A batch's runs of puzzles on a pool (see ``look-ahead`` and ``window``)."""

    def __init__(self, batch: Batch, pool: Any) -> None:
        self.batch, self.pool = batch, pool
        self.chunks = Chunks(pool.workers)
        self.unsent: deque[int] = deque()  # indexes of the jobs read and not yet sent
        self.seen = 0  # items of ``batch.held`` sorted into ``unsent`` or ``done``
        self.done: dict[int, dict[str, Any]] = {}
        self.futures: dict[Any, list[int]] = {}  # a task -> its puzzles' indexes

    def _fill(self, emitted: int) -> None:
        """Read until the look-ahead is full, the window is, or the input has ended."""
        batch = self.batch
        while True:
            while self.seen < batch.read:
                item = batch.held[self.seen]
                if isinstance(item, Job):
                    self.unsent.append(self.seen)
                else:
                    self.done[self.seen] = item
                self.seen += 1
            if (len(self.unsent) >= batch.ahead or batch.read - emitted >= batch.window
                    or not batch._next()):
                return

    def _send(self, emitted: int) -> None:
        batch, held = self.batch, self.batch.held
        self._fill(emitted)
        while self.unsent and len(self.futures) < 2 * self.pool.workers:
            if _past(batch.deadline):
                first = self.unsent.popleft()
                self.done[first] = _late(held[first])
                continue
            size = min(self.chunks.size(len(self.unsent)), len(self.unsent))
            run = [self.unsent.popleft() for _ in range(size)]
            # Consecutive items, bad lines among them left out: a run's outcomes in order.
            jobs = tuple(_left(held[index], batch.deadline) for index in run)
            self.futures[self.pool.submit(solve_jobs, jobs)] = run
            self._fill(emitted)

    def outcomes(self) -> Iterator[tuple[Any, dict[str, Any]]]:
        batch, emitted = self.batch, 0
        while True:
            self._send(emitted)
            if emitted == batch.read and batch.ended:
                return
            batch.waiting = batch.held.get(emitted)
            for future in (self.pool.wait_any(list(self.futures), timeout=0.25)
                           if self.futures else ()):
                run, outcomes = self.futures.pop(future), self.pool.result(future)
                self.chunks.learn(outcomes)
                self.done.update(zip(run, outcomes))
            while emitted in self.done:
                batch.waiting = None
                yield batch.held.pop(emitted), self.done.pop(emitted)
                emitted += 1
                batch.waiting = batch.held.get(emitted)


_END = object()


def run_batch(items: Iterable[Any], workers: int, pool: dict[str, Any] | None,
              deadline: float | None, window: int | None = None
              ) -> Iterator[dict[str, Any]]:
    """``Batch``'s outcomes alone, in input order."""
    for _, outcome in Batch(items, workers, pool, deadline, window):
        yield outcome


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() >= deadline


def _late(job: Job) -> dict[str, Any]:
    """The outcome of a puzzle the deadline passed before it started."""
    return stopped(job, "timeout")


def _left(job: Job, deadline: float | None) -> Job:
    if deadline is None:
        return job
    return replace(job, ends_at=time.time() + deadline - time.perf_counter())
