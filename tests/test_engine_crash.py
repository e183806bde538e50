"""Crashed workers: the pool restarts, the lost subtrees run again, counts stay exact."""

import os
import signal
import threading
import time
from dataclasses import dataclass

import pytest

from parallel_backtrack.engine import (
    WorkerCrashError,
    count,
    make_executor,
    scheduler,
    sequential_count,
)
from parallel_backtrack.engine.examples import NoAdjacentOnes

psutil = pytest.importorskip("psutil")


@pytest.fixture(autouse=True)
def no_probe(monkeypatch):
    # Otherwise the parent searches these small trees itself while the pool starts.
    monkeypatch.setattr(scheduler, "PROBE_BUDGETS", 0)


# Every test here kills workers: each gets pools of its own.
pytestmark = pytest.mark.usefixtures("own_pools")


def loky_workers() -> list[int]:
    """This process's loky worker processes (not its resource trackers)."""
    return [child.pid for child in psutil.Process().children(recursive=True)
            if any("popen_loky" in part for part in child.cmdline())]


def poisoned(state, victim) -> bool:
    # Deep nodes below ``victim``: only workers get there (the parent branches a few
    # levels at most when it splits work).
    return len(state) >= len(victim) + 4 and state[: len(victim)] == victim


@dataclass(frozen=True, slots=True)
class DiesOnce(NoAdjacentOnes):
    """Kills the first worker that reaches a deep node below ``victim``, once (a
    marker file remembers)."""

    victim: tuple[int, ...] = ()
    marker: str = ""
    parent: int = 0

    def branch(self, state):
        if (poisoned(state, self.victim) and os.getpid() != self.parent
                and not os.path.exists(self.marker)):
            open(self.marker, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
        return NoAdjacentOnes.branch(self, state)


@dataclass(frozen=True, slots=True)
class AlwaysDies(NoAdjacentOnes):
    """Kills every worker that reaches a deep node below ``victim``."""

    victim: tuple[int, ...] = ()
    parent: int = 0

    def branch(self, state):
        if poisoned(state, self.victim) and os.getpid() != self.parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return NoAdjacentOnes.branch(self, state)


@pytest.mark.timeout(180)
def test_a_worker_killed_mid_count_changes_nothing():
    space = NoAdjacentOnes(27)
    expected = sequential_count(space).count
    executor = make_executor(2, "loky")
    executor.submit(abs, -1).result()
    # This pool's own workers: joblib's loky pool (the Sudoku batches') may be up too.
    pids = executor.pids()
    assert len(pids) == 2
    start = sum(psutil.Process(pid).cpu_times().user for pid in pids)
    killed: list[int] = []

    def kill_one():
        # Strike once the workers have done some of the count: mid-run, whatever the load.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            used = sum(psutil.Process(pid).cpu_times().user for pid in pids) - start
            if used > 0.3:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])
                return
            time.sleep(0.02)

    killer = threading.Thread(target=kill_one)
    killer.start()
    report = count(space, workers=2, backend="loky", budget=5_000)
    killer.join()
    assert killed and report.restarts >= 1
    assert report.count == expected and report.complete
    assert killed[0] not in loky_workers()


@pytest.mark.timeout(180)
@pytest.mark.parametrize("backend", ["loky", "fork"])
def test_a_task_sent_to_a_pool_a_worker_died_in_comes_back_as_a_crash(backend):
    # The race the scheduler can lose: a worker dies, and the next task is submitted
    # before the crash of the one in flight has been collected.
    from parallel_backtrack.engine import make_executor

    executor = make_executor(2, backend)
    executor.submit(abs, -1).result()
    os.kill(executor.pids()[0], signal.SIGKILL)
    deadline = time.monotonic() + 60
    while True:  # until the pool has noticed the death
        assert time.monotonic() < deadline, "the pool never noticed its dead worker"
        future = executor.submit(abs, -1)  # must not raise
        error = future.exception(timeout=60)
        if error is not None:
            break
        time.sleep(0.05)
    assert executor.is_crash(error)
    # The pool is broken now; another task sent to it must not raise in the sender.
    late = executor.submit(abs, -1)
    assert executor.is_crash(late.exception(timeout=60))
    executor.restart()
    assert executor.submit(abs, -2).result(timeout=60) == 2
    executor.close()


@pytest.mark.timeout(180)
@pytest.mark.parametrize("backend", ["loky", "fork"])
def test_only_the_subtrees_in_flight_run_again(tmp_path, backend):
    space = DiesOnce(18, victim=(0, 1, 0, 1, 0, 1, 0, 1), marker=str(tmp_path / "died"),
                     parent=os.getpid())
    report = count(space, workers=2, backend=backend, budget=300, per_worker=5)
    assert report.count == sequential_count(NoAdjacentOnes(18)).count
    assert report.restarts == 1 and report.complete
    # Re-running only what was in flight: the tasks' nodes exceed the tree's by little.
    assert report.nodes == sequential_count(NoAdjacentOnes(18)).nodes


@pytest.mark.timeout(180)
@pytest.mark.parametrize("backend", ["loky", "fork"])
def test_three_crashes_in_a_row_stop_with_a_clear_error(backend):
    space = AlwaysDies(16, victim=(0, 1, 0, 1, 0, 1, 0), parent=os.getpid())
    with pytest.raises(WorkerCrashError, match="died 3 times in a row") as stop:
        count(space, workers=2, backend=backend, budget=200, per_worker=5)
    assert stop.value.report.restarts >= 2 and not stop.value.report.complete
    assert isinstance(stop.value, RuntimeError)
    # The next run gets a healthy pool again.
    assert count(NoAdjacentOnes(14), workers=2, backend=backend, budget=50).count == 987


def test_the_several_tasks_one_dead_worker_held_count_as_one_crash():
    from lossy_pool import LosesSome

    space = NoAdjacentOnes(16)
    whole = sequential_count(space)
    # Tasks 2-4 go with one worker, sent before any loss was seen: one crash, not three.
    pool = LosesSome(2, lambda n: n in (2, 3, 4))
    try:
        report = count(space, executor=pool, budget=200, per_worker=5)
    finally:
        pool.close()
    assert pool.lost == 3 and report.restarts == 3
    assert (report.count, report.complete) == (whole.count, True)


def test_tasks_lost_one_after_another_still_stop_with_a_clear_error():
    from lossy_pool import LosesSome

    pool = LosesSome(2, lambda n: n >= 2)  # every task sent again is lost again
    try:
        with pytest.raises(WorkerCrashError, match="died 3 times in a row") as stop:
            count(NoAdjacentOnes(16), executor=pool, budget=200, per_worker=5)
    finally:
        pool.close()
    assert not stop.value.report.complete
