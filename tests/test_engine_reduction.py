"""Reductions: each mode's fold of task results, and a new mode without a scheduler change."""

from __future__ import annotations

import pytest

from parallel_backtrack.engine import sequential_solutions
from parallel_backtrack.engine.examples import NoAdjacentOnes, SubsetSum
from parallel_backtrack.engine.executors import Executor, ThreadExecutor
from parallel_backtrack.engine.reduction import REDUCTIONS, Count, First, Reduction, Stream
from parallel_backtrack.engine.report import SearchReport
from parallel_backtrack.engine.scheduler import Run
from parallel_backtrack.engine.split import TaskResult


def result(count=0, solutions=(), found_at=None):
    return TaskResult(count, 10, tuple(solutions), (), 0.01, "w", found_at)


def test_the_modes_are_registered_by_name():
    assert REDUCTIONS == {"count": Count, "first": First, "all": Stream}


def test_count_adds_weighted_counts_and_stops_at_a_limit():
    report = SearchReport("count", 1, "serial")
    count = Count(report, limit=10, wall_started=0.0)
    count.found((0,), ("a", "b"), 3)
    count.absorb((1,), result(count=2))
    assert report.count == 8 and not count.done()
    count.absorb((2,), result(count=5))
    assert count.done()
    count.finish()
    assert report.count == 10


def test_first_keeps_the_first_solution_and_when_it_came():
    report = SearchReport("first", 1, "serial")
    first = First(report, limit=None, wall_started=100.0)
    first.absorb((1,), result())
    assert not first.done() and report.solution_seconds is None
    first.absorb((2,), result(solutions=["x"], found_at=101.5))
    first.absorb((0,), result(solutions=["y"], found_at=102.0))
    assert first.done() and report.solution == "x" and report.count == 1
    assert report.solution_seconds == pytest.approx(1.5)


def test_a_stream_releases_only_what_no_open_work_precedes():
    report = SearchReport("all", 1, "serial")
    stream = Stream(report, limit=3, wall_started=0.0)
    stream.absorb((2, 0), result(solutions=["c", "d"]))
    stream.found((1, 0), ("b",), 1)
    assert list(stream.release(lambda: (1, 5))) == ["b"]  # (2, 0) waits for (1, 5)
    assert list(stream.release(lambda: None)) == ["c", "d"]
    assert stream.done()  # three released: the limit
    stream.finish()
    assert report.count == 3


class Last(Reduction):
    """A mode the scheduler never heard of: the last solution in the tree's order."""

    mode, name, ordered = "all", "last", True  # keys compare in tree order

    def __init__(self, report, limit, wall_started):
        super().__init__(report, limit, wall_started)
        self.best = None

    def found(self, key, solutions, weight):
        for offset, state in enumerate(solutions):
            if self.best is None or (key, offset) > self.best[0]:
                self.best = ((key, offset), state)

    def absorb(self, key, result):
        self.found(key, result.solutions, 1)

    def finish(self):
        self.report.solution = None if self.best is None else self.best[1]
        self.report.count = int(self.best is not None)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("space", [NoAdjacentOnes(14), SubsetSum(tuple(range(1, 14)), 20)])
@pytest.mark.parametrize("pool", ["serial", "threads"])
def test_a_new_reduction_plugs_into_the_scheduler(space, pool):
    executor = Executor(1) if pool == "serial" else ThreadExecutor(2)
    run = Run(space, Last, executor, owns=True, budget=50, budget_seconds=None,
              per_worker=None, limit=None, timeout=None, progress=False)
    assert list(run.stream()) == []  # nothing streams: it only reduces
    assert run.report.mode == "last" and run.report.complete
    assert run.report.solution == sequential_solutions(space)[-1]
