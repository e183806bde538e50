"""``pending.feed``: once the parent's cost per task is measured, tasks carry at least
workers times that much work, so one parent keeps a pool busy that costs it
milliseconds a task.  Counts are checked against the sequential search."""

from __future__ import annotations

import pytest

from parallel_backtrack.engine import VirtualExecutor, count, pending, sequential_count
from parallel_backtrack.engine.examples import SubsetSum
from parallel_backtrack.engine.report import SearchReport
from parallel_backtrack.nqueens import ImmutableQueenLocations
from parallel_backtrack.nqueens.space import QueensSpace

WORKERS = 8


def _queue(budget: int = 100, fixed: bool = True) -> pending.Pending:
    return pending.Pending(WORKERS, budget, True, SearchReport("count", WORKERS, "virtual"),
                           max_roots=10**6, fixed=fixed)


def _measured(queue: pending.Pending, task_cost: float) -> None:
    """Ten subtrees took 10 ms and 1,000 nodes: 1 ms and 100 nodes a subtree (or a unit
    of expected size), 100,000 nodes a second."""
    queue.measure(10, 1000, 0.01, 10.0)
    queue.task_cost = task_cost


def _first_task(queue: pending.Pending, sized: bool) -> pending.Work:
    queue.push_cut([pending.Work((i,), ((i, 1),), sizes=(1.0,) if sized else ())
                    for i in range(40 * WORKERS)])
    while len(queue) > 40:  # the late part of the cut: guided packing takes 2 or 3
        queue.pop()
    task = queue.next_work(lambda work: [work])
    assert task is not None
    return task


@pytest.mark.parametrize("sized", [False, True])
def test_nothing_changes_until_the_cost_is_measured(sized):
    assert len(_first_task(_queue(), sized).roots) == 40 // (pending.GUIDED * WORKERS)


@pytest.mark.parametrize("sized", [False, True])
def test_a_task_packs_workers_times_the_parents_cost_per_task(sized):
    queue = _queue()
    _measured(queue, task_cost=1e-3)  # 8 workers x 1 ms: 8 ms, 8 subtrees of 1 ms
    assert len(_first_task(queue, sized).roots) == pending.FEED * WORKERS


@pytest.mark.parametrize("sized", [False, True])
def test_a_task_packs_no_more_than_a_share_of_the_cut(sized):
    queue = _queue()
    _measured(queue, task_cost=1.0)  # 8 s a task: far more than the cut holds
    assert len(_first_task(queue, sized).roots) == 40 // pending.FEED_CAP


def test_the_budget_rises_to_feed_the_workers_unless_the_caller_fixed_it():
    grows, fixed = _queue(fixed=False), _queue(fixed=True)
    for queue in (grows, fixed):
        queue.push_cut([pending.Work((i,), ((i, 1),)) for i in range(2 * WORKERS)])
        assert queue.budget_now() == 50  # nothing measured: no sure sign of plenty
        _measured(queue, task_cost=1e-3)  # 8 ms at 100,000 nodes a second: 800 nodes
    assert grows.budget_now() == 800 * pending.FEED
    assert fixed.budget_now() == 100  # the caller's budget bounds every task
    for queue in (grows, fixed):
        while not queue.in_tail():
            queue.pop()
    # the tail's budget would be an eighth (12): no less than what feeds the workers
    assert grows.budget_now() == 800 * pending.FEED and fixed.budget_now() == 100


@pytest.mark.timeout(120)
@pytest.mark.usefixtures("queued")  # the parent's queue, as on Dask: no pulls
def test_a_pool_that_costs_a_millisecond_a_task_gets_fewer_longer_tasks(monkeypatch):
    space = QueensSpace(ImmutableQueenLocations(15))
    # The kernel loaded and the parent's cut warm: the cut stops at 3 ms, and a cold
    # one makes a third of the subtrees.
    count(space, executor=VirtualExecutor(64))
    runs = {}
    for feed in (0, pending.FEED):
        monkeypatch.setattr(pending, "FEED", feed)
        executor = VirtualExecutor(64, dispatch=1e-3)
        runs[feed] = (count(space, executor=executor), executor.clock)
    (plain, plain_clock), (fed, fed_clock) = runs[0], runs[feed]
    assert plain.count == fed.count == 2_279_184  # 15 queens (OEIS A000170)
    assert fed.tasks < plain.tasks / 2
    assert fed_clock < plain_clock / 2


@pytest.mark.timeout(120)
@pytest.mark.usefixtures("queued")  # a dear pool stands for Dask's: the parent's queue
def test_a_budget_the_caller_gives_bounds_every_task_however_dear_the_pool():
    space = SubsetSum(tuple(range(1, 19)), 45)
    report = count(space, executor=VirtualExecutor(64, dispatch=1e-2), budget=300)
    assert report.count == sequential_count(space).count
    assert max(n for n, w in zip(report.task_nodes, report.task_workers)
               if w != "parent") <= 300


def test_the_report_gives_what_a_task_cost_the_parent():
    space = SubsetSum(tuple(range(1, 16)), 40)
    dear = count(space, executor=VirtualExecutor(8, dispatch=1e-3), budget=200)
    assert dear.tasks > 16 and dear.as_dict()["task_cost"] == round(dear.task_cost, 7)
    assert 1e-3 <= dear.task_cost < 1e-3 + 0.05  # the pool's own cost, and some Python
    assert count(space, workers=1).task_cost == 0.0  # no pool: nothing sent
