"""Cancellation: solve stops at the first solution, workers stop burning CPU, pools stay warm."""

import time
from dataclasses import dataclass

import pytest

from parallel_backtrack.engine import count, explore, make_executor, scheduler, solve
from parallel_backtrack.engine.examples import NoAdjacentOnes

psutil = pytest.importorskip("psutil")


@dataclass(frozen=True, slots=True)
class Needles:
    """A complete binary tree of bit tuples.  A leaf is a solution when its bit 6 is 1
    and its remaining bits, read as a number, are ``every - 1`` modulo ``every``: half
    of the subtrees are deserts, the other half hold many solutions, far apart."""

    depth: int
    every: int

    def root(self) -> tuple[int, ...]:
        return ()

    def branch(self, state):
        if len(state) < self.depth:
            yield state + (0,)
            yield state + (1,)

    def is_solution(self, state) -> bool:
        if len(state) != self.depth or state[6] != 1:
            return False
        value = 0
        for bit in state[7:]:
            value = 2 * value + bit
        return value % self.every == self.every - 1


def cpu_seconds(pids):
    return [sum(psutil.Process(pid).cpu_times()[:2]) for pid in pids]


def task_seconds(space, budget: int) -> float:
    """How long a task of ``budget`` generic nodes runs here and now (a tenth of it
    measured in this process, scaled)."""
    started = time.perf_counter()
    explore(space, [space.root()], budget=budget // 10)
    return 10 * (time.perf_counter() - started)


def spin_for(seconds: float) -> float:
    """Busy-wait ``seconds`` of wall time; the CPU seconds this process got."""
    started, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - started < seconds:
        pass
    return time.process_time() - cpu


@pytest.fixture
def no_probe(monkeypatch):
    # The parent's probe would find the first solution itself; make the pool search.
    monkeypatch.setattr(scheduler, "PROBE_BUDGETS", 0)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("backend", ["loky", "fork"])
def test_solve_returns_promptly_and_no_worker_keeps_burning_cpu(no_probe, backend):
    executor = make_executor(2, backend)
    space = Needles(22, 2**12)
    # Tasks of 2 million generic nodes would run for seconds without the stop flag.
    report = solve(space, executor=executor, budget=2_000_000)
    assert report.solution is not None and space.is_solution(report.solution)
    # Stopped at the flag: far sooner than a task could run out its budget on this
    # machine now (measured: 0.01-0.03 s against seconds).
    assert report.seconds - report.solution_seconds < task_seconds(space, 2_000_000) / 4
    pids = executor.pids()
    before = cpu_seconds(pids)
    spun = spin_for(0.5)  # the CPU a busy process gets meanwhile, whatever the load
    burnt = [after - start for start, after in zip(before, cpu_seconds(pids))]
    assert max(burnt) < spun / 4, (burnt, spun)
    # The same warm workers serve the next call.
    assert solve(space, executor=executor, budget=2_000_000).solution is not None
    assert executor.pids() == pids


@pytest.mark.timeout(120)
def test_count_after_a_cancelled_solve_is_exact(no_probe):
    executor = make_executor(2, "loky")
    assert solve(Needles(20, 2**10), executor=executor, budget=10**6).solution is not None
    assert count(NoAdjacentOnes(16), executor=executor, budget=200).count == 2584


@pytest.mark.timeout(120)
def test_threads_see_the_stop_flag_too(no_probe):
    started = time.perf_counter()
    report = solve(Needles(22, 2**12), workers=2, backend="threads", budget=10**7)
    assert report.solution is not None
    # Closing the thread pool waits for its threads: they must have stopped at the flag.
    assert time.perf_counter() - started < 30
    assert report.seconds - report.solution_seconds < task_seconds(Needles(22, 2**12),
                                                                   2_000_000) / 4
