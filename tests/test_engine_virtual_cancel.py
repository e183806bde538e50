"""A cancelled task on the virtual pool stops in virtual time as a real one stops at
its next look at the stop flag or its window, and frees its worker for the tasks
queued behind it.  Time here is a fake clock the tasks move: every figure is exact."""

from __future__ import annotations

import pytest

from parallel_backtrack.engine.virtual import VirtualExecutor

NOW = [0.0]


def spend(seconds: float) -> float:
    """A task that takes ``seconds`` of the fake clock."""
    NOW[0] += seconds
    return seconds


def _pool(workers: int, stop_after: float = 0.5) -> VirtualExecutor:
    NOW[0] = 0.0
    return VirtualExecutor(workers, timer=lambda: NOW[0], stop_after=stop_after)


def _later(seconds: float) -> None:
    """The parent works ``seconds`` (its own time moves the clock)."""
    NOW[0] += seconds


def test_a_running_task_cancelled_stops_after_its_next_look_and_frees_its_worker():
    pool = _pool(2)
    first, second = pool.submit(spend, 10.0), pool.submit(spend, 10.0)
    behind = pool.submit(spend, 4.0)  # queued on the first worker, behind ``first``
    _later(2.0)
    pool.cancel([first])
    assert pool.stopped == pytest.approx(10.0 - 2.5)
    assert pool.busy == pytest.approx(2.5 + 10.0 + 4.0)
    assert pool.wait_any([behind, second]) == {behind}
    assert pool.clock == pytest.approx(2.5 + 4.0)  # it started as ``first`` stopped
    assert pool.wait_any([second]) == {second} and pool.clock == pytest.approx(10.0)
    before, between, after = pool.idle()
    assert before + between + after + pool.busy / 2 == pytest.approx(pool.clock)


def test_a_task_cancelled_before_it_starts_takes_no_time():
    pool = _pool(1)
    running, queued, last = (pool.submit(spend, s) for s in (3.0, 5.0, 1.0))
    _later(1.0)
    pool.cancel([queued])
    assert pool.busy == pytest.approx(3.0 + 1.0) and pool.stopped == pytest.approx(5.0)
    assert pool.wait_any([last]) == {last} and pool.clock == pytest.approx(4.0)
    assert running.result() == 3.0  # the results are still there, if anyone looks


def test_cancelling_a_task_that_already_ended_changes_nothing():
    pool = _pool(2)
    short, long = pool.submit(spend, 1.0), pool.submit(spend, 6.0)
    assert pool.wait_any([short, long]) == {short}
    _later(0.5)
    pool.cancel([short])
    assert pool.stopped == 0.0 and pool.busy == pytest.approx(7.0)
    assert pool.wait_any([long]) == {long} and pool.clock == pytest.approx(6.0)


def test_a_task_about_to_end_ends_as_it_would_have():
    pool = _pool(1, stop_after=2.0)
    task = pool.submit(spend, 3.0)
    _later(2.0)
    pool.cancel([task])  # it would look again at 4.0: it ends first, at 3.0
    assert pool.stopped == 0.0
    assert pool.wait_any([task]) == {task} and pool.clock == pytest.approx(3.0)


def test_a_freed_worker_takes_the_next_task_at_once():
    pool = _pool(2)
    busy, other = pool.submit(spend, 8.0), pool.submit(spend, 9.0)
    _later(1.0)
    pool.cancel([busy])
    late = pool.submit(spend, 2.0)  # the first free worker is the one ``busy`` left
    assert pool.wait_any([late, other]) == {late}
    assert pool.clock == pytest.approx(1.5 + 2.0)


def test_without_stop_after_a_cancelled_task_runs_whole():
    pool = _pool(1)
    pool.stop_after = None
    running, queued = pool.submit(spend, 4.0), pool.submit(spend, 2.0)
    _later(1.0)
    pool.cancel([running, queued])
    assert pool.stopped == 0.0 and pool.busy == pytest.approx(6.0)
    assert pool.wait_any([queued]) == {queued} and pool.clock == pytest.approx(6.0)
