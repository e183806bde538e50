"""The probe: the parent searches by itself before (and while) a pool starts.

A small tree finishes within a few budgets (``budgets``, the scheduler's
``PROBE_BUDGETS``) in the parent without paying
for a pool.  On a pool that starts slowly a larger one starts the pool and the
parent keeps searching, a round at a time, until every worker is warm (spawned,
kernels loaded); what the probe leaves is what the scheduler cuts.

Glossary
--------
round
    One bounded ``run_subtrees`` call in the parent, reported as a task of the
    worker ``parent`` under key ``(0, round)`` (before everything cut later).
start cost
    ``executor.start_cost``: the first round lasts at most that long (its
    ``budgets`` budgets permitting): a tree the parent finishes in that
    time does not start the workers.
warming
    While the workers boot the rounds last ``PROBE_ROUND_SECONDS``; once the pool
    is started (a warm-up task sent to each worker) they begin at
    ``WARMING_ROUND_SECONDS`` and double, so warm workers (a fork server's are up
    some 15 ms after the pool starts) wait at most about that long for work.

Example: ``Probe(space, executor, "count", 20_000, None, None, report, absorb,
stopped, budgets=8).run(roots)`` returns the roots still to search (empty: the parent
finished the tree alone).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .executors import Executor
from .report import SearchReport
from .split import Subtree, TaskResult, run_subtrees
from .worker import warm, warm_task

PROBE_ROUND_SECONDS = 0.05
WARMING_ROUND_SECONDS = 0.005


class Probe:
    """The parent's own search before the pool takes over."""

    def __init__(self, space: Any, executor: Executor, mode: str, budget: int | None,
                 seconds: float | None, keep: int | None, report: SearchReport,
                 absorb: Callable[[tuple[int, ...], TaskResult], None],
                 stopped: Callable[[], bool], *, budgets: int) -> None:
        self.space, self.executor, self.report = space, executor, report
        self.budgets = budgets  # of the first round (none: no probe)
        self.mode, self.budget, self.seconds, self.keep = mode, budget, seconds, keep
        self.absorb, self.stopped = absorb, stopped
        self.handle: Any = None  # the shipped space, once the pool was booted with it

    def round(self, roots: list[Subtree], budgets: int, limit: float,
              round_: int) -> list[Subtree]:
        """``budgets`` budgets (and ``limit`` seconds at most) of the search, run in this
        process; returns the rest."""
        nodes = None if self.budget is None else budgets * self.budget
        seconds = limit if self.seconds is None else min(limit, budgets * self.seconds)
        probe = run_subtrees(self.space, roots, self.mode, nodes, self.keep, seconds=seconds)
        self.report.record_task(probe.seconds, "parent", probe.nodes,
                                started_at=probe.started_at, subtree=f"0.{round_}")
        self.absorb((0, round_), probe)
        return list(probe.leftover)

    def run(self, roots: list[Subtree]) -> list[Subtree]:
        """Search in this process first; returns what is left to cut (not redone)."""
        if self.budgets <= 0:
            return roots
        started = time.perf_counter()
        warm(self.space)  # load the kernels first: that is not search time
        if self.executor.slow_start:  # a fork server forked from here has space and kernels
            self.handle = self.executor.ship(self.space)
            self.executor.boot(self.handle)
        self.report.setup_seconds += time.perf_counter() - started
        rest = self.round(roots, self.budgets, self.executor.start_cost, 0)
        if not rest or self.stopped() or not self.executor.slow_start:
            return rest
        return self._while_booting(rest)

    def _while_booting(self, rest: list[Subtree]) -> list[Subtree]:
        """Rounds until the warm-up tasks are done (the pool is started as soon as
        it can start without making the parent wait)."""
        warming: list[Any] = []
        round_, seconds = 1, PROBE_ROUND_SECONDS
        while rest and not self.stopped():
            if not warming and self.executor.booted():
                warming, seconds = self.start_pool(), WARMING_ROUND_SECONDS
            elif warming and all(future.done() for future in warming):
                break
            rest = self.round(rest, 1, seconds, round_)
            if warming:
                seconds = min(2 * seconds, PROBE_ROUND_SECONDS)
            round_ += 1
        self._check_warm(warming)
        return rest

    def start_pool(self) -> list[Any]:
        """Send each worker a warm-up (this is what starts a pool)."""
        return [self.executor.submit(warm_task, self.handle)
                for _ in range(self.executor.workers)]

    def _check_warm(self, warming: list[Any]) -> None:
        for future in warming:
            if not future.done() or future.cancelled():
                continue
            error = future.exception()
            if error is None:
                self.report.setup_seconds += self.executor.result(future)
            elif self.executor.is_crash(error):
                self.executor.restart()
                self.report.restarts += 1
                return
