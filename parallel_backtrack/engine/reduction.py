"""Reductions: how a run of each mode folds what its tasks find, and when it is done.

The scheduler is the same for every mode: it cuts, feeds workers and collects
results.  What differs is kept in one small object per run, a ``Reduction``: a
finish accumulator's sum for ``count``, the first hit for ``first``, an ordered
stream for ``all``.  A new mode (a minimum over a threshold, a shared bound) is a
new subclass registered in ``REDUCTIONS``; the scheduler does not change.

Glossary
--------
mode
    The name a run is started with (``count``, ``first``, ``all``): a key of
    ``REDUCTIONS``.  A reduction's ``mode`` is also what each task is told to do
    (``split.run_subtrees``' ``mode``); its ``name``, if set, labels the report.
key
    A place in the sequential depth-first order (a tuple; see ``scheduler.py``):
    solutions found under smaller keys come first.
found
    Solutions the parent met itself while cutting or splitting, with their weight.
absorb
    Fold one task's ``TaskResult`` (the parent's own probe rounds included).
release
    Solutions that may be handed to the caller now: for an ordered mode, those
    no outstanding work can precede (``first_open`` is the smallest key still
    pending or in flight, None when nothing is).
ordered
    Results must come out in the tree's order: work is never packed.
symmetric
    The run may start from the space's weighted ``count_roots``.

Adding a mode
-------------
Subclass ``Reduction``: set ``mode`` to the task mode whose results it folds
(``all`` hands back every solution, ``count`` counts, ``first`` stops at one), a
``name``, and override ``found`` / ``absorb`` / ``done`` (and ``release`` /
``finish`` if it streams or fixes the report up).  Pass the class as a run's mode
(``Run(space, MyReduction, executor, ...)``) or register it in ``REDUCTIONS``.
A mode whose tasks must do something new (search below a threshold, share a
bound) also needs that mode in ``split.run_subtrees`` and, for a kernel, a hook
declared on ``FastSpace``; the scheduler stays as it is.

Example: ``Count(report, limit=None)`` adds each task's weighted count to
``report.count``; ``Count.done()`` turns true only with a limit, once it is reached.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Iterator
from typing import Any

from .report import SearchReport
from .split import TaskResult

Key = tuple[int, ...]


class Reduction:
    """One run's fold of results: the parent's side of a mode (the base folds nothing)."""

    mode = ""  # what each task runs: a mode of ``split.run_subtrees``
    name = ""  # the report's mode ("": ``mode``)
    ordered = False
    symmetric = False

    def __init__(self, report: SearchReport, limit: int | None, wall_started: float) -> None:
        self.report = report
        self.limit = limit
        self.wall_started = wall_started  # time.time() at the start, for solution_seconds

    @property
    def keep(self) -> int | None:
        """How many solutions a task keeps and sends back (None: all it finds)."""
        return None

    def found(self, key: Key, solutions: tuple[Any, ...], weight: int) -> None:
        """Solutions met in the parent (while cutting or splitting)."""

    def absorb(self, key: Key, result: TaskResult) -> None:
        """Fold one task's result (its nodes are counted by the scheduler)."""

    def done(self) -> bool:
        """Nothing more is needed: the scheduler stops feeding and cancels the rest."""
        return False

    def release(self, first_open: Callable[[], Key | None]) -> Iterator[Any]:
        """What may be yielded to the caller now (nothing, unless the mode streams)."""
        return iter(())

    def progress(self) -> int:
        """Solutions so far, for the progress bar."""
        return self.report.count

    def finish(self) -> None:
        """Final touches to the report when the run ends."""

    def _clock(self, result: TaskResult) -> None:
        """The seconds until a worker found the first solution, once."""
        if result.solutions and self.report.solution_seconds is None:
            found_at = result.found_at or time.time()
            self.report.solution_seconds = max(0.0, found_at - self.wall_started)


class Count(Reduction):
    """The number of solutions: weighted counts add up (``min(total, limit)``)."""

    mode = "count"
    symmetric = True

    def found(self, key: Key, solutions: tuple[Any, ...], weight: int) -> None:
        self.report.count += weight * len(solutions)

    def absorb(self, key: Key, result: TaskResult) -> None:
        self.report.count += result.count

    def done(self) -> bool:
        return self.limit is not None and self.report.count >= self.limit

    def finish(self) -> None:
        if self.limit is not None:
            self.report.count = min(self.report.count, self.limit)


class First(Reduction):
    """The first solution to arrive wins."""

    mode = "first"

    def found(self, key: Key, solutions: tuple[Any, ...], weight: int) -> None:
        if solutions and self.report.solution is None:
            self.report.solution = solutions[0]
            self.report.count = 1

    def absorb(self, key: Key, result: TaskResult) -> None:
        self._clock(result)
        self.found(key, result.solutions, 1)

    def done(self) -> bool:
        return self.report.solution is not None


class Stream(Reduction):
    """Solutions released in the sequential depth-first order, up to ``limit``."""

    mode = "all"
    ordered = True

    def __init__(self, report: SearchReport, limit: int | None, wall_started: float) -> None:
        super().__init__(report, limit, wall_started)
        self.ready: list[tuple[Key, int, tuple[Any, ...]]] = []  # a heap by key
        self.released = 0

    @property
    def keep(self) -> int | None:
        return self.limit

    def found(self, key: Key, solutions: tuple[Any, ...], weight: int) -> None:
        if solutions:
            heapq.heappush(self.ready, (key, len(self.ready), solutions))

    def absorb(self, key: Key, result: TaskResult) -> None:
        self._clock(result)
        self.found(key, result.solutions, 1)

    def done(self) -> bool:
        return self.limit is not None and self.released >= self.limit

    def release(self, first_open: Callable[[], Key | None]) -> Iterator[Any]:
        if not self.ready:
            return
        first = first_open()
        while self.ready and (first is None or self.ready[0][0] < first):
            _, _, solutions = heapq.heappop(self.ready)
            for state in solutions:
                if self.limit is not None and self.released >= self.limit:
                    return
                self.released += 1
                yield state

    def progress(self) -> int:
        return self.report.count or self.released

    def finish(self) -> None:
        self.report.count = self.released


REDUCTIONS: dict[str, type[Reduction]] = {kind.mode: kind for kind in (Count, First, Stream)}
