"""Test helper: a search's simulated 2-worker clock against real 2-worker runs of it,
with what a loaded host took from the real runs measured and set apart.

``measure(search, pairs, budget)`` runs ``python tests/fidelity_runs.py SEARCH PAIRS
BUDGET`` (a fresh interpreter with a loky pool of its own: no thread, pool or heap
left by earlier tests in the parent) and reads what it prints, one JSON object a line.

Glossary
--------
pair
    A simulated run (``VirtualExecutor(2)``), then a real run of the same search on a
    warm 2-worker loky pool, timed from called to returned (``wall``).  ``pairs`` of
    them, or fewer (at least 2) once they took ``budget`` seconds: a loaded host.
run, delay
    Per process of the real run (each worker, the parent), over all its threads, from
    ``/proc/PID/task/TID/schedstat``: the seconds it ran on a core, and the seconds it
    was ready to run but waited for one (the kernel's run-queue delay).  On 2 cores of
    their own the workers wait only while their parent runs; on a loaded host
    ``delay`` is what the other processes took.
sleep
    A worker's wall time neither running nor ready: its waits for a task (the
    parent's cut, a round trip) and the tail after its last task.  The load stretches
    these too, through the delays of the processes the worker waits for.
upper
    ``wall`` less the workers' mean ``delay``, but for what their parent may have
    caused (its ``run``, spread over the 2 workers).  What the load stretched and
    ``upper`` keeps (the sleeps; time the host took from the whole machine, steal)
    only makes it longer: the run on 2 cores of its own would take no longer.
lower
    The larger of ``(run of the workers + run of the parent) / 2`` (no 2 cores do the
    run's work in less) and the workers' mean ``run`` plus what of their ``sleep`` no
    delay of the run's other processes accounts for.  On an idle host ``lower`` and
    ``upper`` meet at ``wall``; under load they part by about the workers' sleeps and
    half the parent's run, a few percent of the clock here.
least
    The load only adds: it makes CPU time longer (caches, a busy sibling core; for the
    Python alpha-beta up to a fifth, for the compiled counter a few percent) and the
    waits longer.  Of a few pairs, the least ``lower``, ``upper``, simulated clock and
    work of each side is the nearest to a run on a quiet host.

Without ``/proc/PID/task/TID/schedstat`` (not Linux) ``delay`` reads 0 and ``run`` is
psutil's CPU time: ``upper`` is then the wall time, right on an idle host only.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
CORES = 2
QUEENS = 16  # counted: about 1.2 s of kernel time on one core
QUEENS_COUNT = 14_772_512  # OEIS A000170
TREE = (8, 10, 1)  # the random tree's branching, depth and seed: some 10 s of alpha-beta
SPLIT = 4
LEAST_PAIRS = 2


@dataclass(frozen=True)
class Pair:
    """One simulated run and the real run after it (seconds)."""

    clock: float  # simulated
    busy: float  # simulated work (the tasks' seconds)
    stopped: float  # simulated work that dropped tasks did not do (``VirtualExecutor``)
    wall: float
    run: tuple[float, ...]  # per worker
    delay: tuple[float, ...]  # per worker
    parent_run: float
    parent_delay: float
    steal: float  # the whole machine's, over the real run (all cores)

    @property
    def work(self) -> float:
        """The real workers' CPU seconds."""
        return sum(self.run)

    @property
    def sleep(self) -> tuple[float, ...]:
        return tuple(max(0.0, self.wall - r - d) for r, d in zip(self.run, self.delay))

    @property
    def upper(self) -> float:
        return self.wall - max(0.0, sum(self.delay) - self.parent_run) / len(self.delay)

    @property
    def lower(self) -> float:
        kept = []
        for index, (run, sleep) in enumerate(zip(self.run, self.sleep)):
            others = self.parent_delay + sum(self.delay) - self.delay[index]
            kept.append(run + max(0.0, sleep - others))
        return max((self.work + self.parent_run) / CORES, statistics.fmean(kept))

    def describe(self) -> str:
        def listed(values: tuple[float, ...]) -> str:
            return "/".join(f"{value:.2f}" for value in values)
        stopped = f" (stopped {self.stopped:.2f})" if self.stopped else ""
        return (f"simulated {self.clock:.3f} s, work {self.busy:.2f}{stopped}; real "
                f"{self.wall:.3f} s, on cores of its own {self.lower:.3f}-{self.upper:.3f} "
                f"s (workers run {listed(self.run)}, delay {listed(self.delay)}, sleep "
                f"{listed(self.sleep)}; parent run {self.parent_run:.2f}, delay "
                f"{self.parent_delay:.2f}; steal {self.steal:.2f})")


@dataclass(frozen=True)
class Measured:
    """What ``measure`` found: the pairs, and each scaled simulation's clock."""

    pairs: list[Pair]
    scaled: dict[float, float]

    @property
    def clock(self) -> float:
        return min(pair.clock for pair in self.pairs)

    def ratios(self, clock: float | None = None) -> tuple[float, float]:
        """The least ``lower`` and ``upper`` over the least simulated clock (or over
        ``clock``): a real run on cores of its own took from ``low`` to ``high`` times
        the simulated clock."""
        clock = self.clock if clock is None else clock
        return (min(pair.lower for pair in self.pairs) / clock,
                min(pair.upper for pair in self.pairs) / clock)

    def work(self) -> float:
        """The least simulated work over the least real work."""
        return min(pair.busy for pair in self.pairs) / min(pair.work for pair in self.pairs)

    def describe(self) -> str:
        low, high = self.ratios()
        return (f"real over simulated clock {low:.3f} to {high:.3f}, work "
                f"{self.work():.3f}; " + "; ".join(pair.describe() for pair in self.pairs))


TOLERANCE = 0.15  # the simulated clock's allowed distance from a real run's


def meets(low: float, high: float) -> bool:
    """Some real clock from ``low`` to ``high`` times the simulated one is within
    ``TOLERANCE`` of it."""
    return low <= 1 + TOLERANCE and high >= 1 - TOLERANCE


def measure(search: str, pairs: int, budget: float, scales: tuple[float, ...] = ()
            ) -> Measured:
    """``pairs`` pairs of ``search`` (a key of ``SEARCHES``), or as many as ``budget``
    seconds allow (at least 2), then one simulated run whose timer runs ``scale`` times
    as fast for each of ``scales`` (every task and the parent charged that much: an
    error put in on purpose), in a fresh interpreter."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    done = subprocess.run(
        [sys.executable, str(Path(__file__)), search, str(pairs), str(budget),
         *map(str, scales)],
        capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    found: list[Pair] = []
    scaled: dict[float, float] = {}
    for line in done.stdout.splitlines():
        row = json.loads(line)
        if "scale" in row:
            scaled[row["scale"]] = row["clock"]
        else:
            row["run"], row["delay"] = tuple(row["run"]), tuple(row["delay"])
            found.append(Pair(**row))
    assert LEAST_PAIRS <= len(found) <= pairs and len(scaled) == len(scales), done.stdout
    return Measured(found, scaled)


# -- in the fresh interpreter ------------------------------------------------------

def _thread_times(pid: int) -> dict[int, tuple[float, float]]:
    """Per thread of ``pid``: (run, delay) seconds so far."""
    times = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        tids = []
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as file:
                run, delay, _ = file.read().split()
        except (OSError, ValueError):  # ended meanwhile
            continue
        times[int(tid)] = (int(run) * 1e-9, int(delay) * 1e-9)
    if not times:  # no schedstat: the process's CPU time, no delays
        cpu = psutil.Process(pid).cpu_times()
        times[pid] = (cpu.user + cpu.system, 0.0)
    return times


def _between(before: dict[int, tuple[float, float]], after: dict[int, tuple[float, float]]
             ) -> tuple[float, float]:
    """A process's run and delay seconds from ``before`` to ``after`` (a thread
    started meanwhile counts from 0; one ended meanwhile is lost)."""
    run = delay = 0.0
    for tid, (r, d) in after.items():
        r0, d0 = before.get(tid, (0.0, 0.0))
        run, delay = run + r - r0, delay + d - d0
    return run, delay


def _steal() -> float:
    try:
        with open("/proc/stat") as file:
            fields = file.readline().split()
        return int(fields[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


Search = tuple[Callable[[Any], Any], Callable[[Any], None]]  # (run, warm)


def _queens(pulled: bool) -> Search:
    """16-queens counted; ``pulled``: the workers pull the cut (``engine.pull``)."""
    from parallel_backtrack.engine import count, scheduler
    from parallel_backtrack.nqueens import ImmutableQueenLocations
    from parallel_backtrack.nqueens.space import QueensSpace

    if pulled:
        scheduler.PULL_FROM = 2  # from 2 workers on
    space = QueensSpace(ImmutableQueenLocations(QUEENS))

    def run(executor: Any) -> Any:
        report = count(space, executor=executor)
        assert report.count == QUEENS_COUNT and report.complete
        assert (report.pulls > 0) == pulled
        return report

    def warm(executor: Any) -> None:
        count(space, executor=executor, budget=10**9)
    return run, warm


def _alphabeta() -> Search:
    """Alpha-beta on ``TREE`` with speculative brothers (often dropped after a cut)."""
    from parallel_backtrack.engine.virtual import VirtualExecutor
    from parallel_backtrack.games.randomtree import RandomTree
    from parallel_backtrack.games.ybw import parallel_alphabeta

    game = RandomTree(*TREE)
    values = set()

    def run(executor: Any) -> Any:
        found = parallel_alphabeta(game, executor=executor, split_depth=SPLIT,
                                   speculative=True)
        values.add(found.value)
        assert len(values) == 1  # every run, simulated or real, finds the same value
        if isinstance(executor, VirtualExecutor):
            assert executor.stopped > 0  # dropped tasks were cut short
        return found

    def warm(executor: Any) -> None:
        small = RandomTree(TREE[0], TREE[1] - 3, TREE[2])
        parallel_alphabeta(small, executor=executor, split_depth=SPLIT)
    return run, warm


def _scaled(scale: float) -> Callable[[], float]:
    """This thread's CPU time, ``scale`` times as fast."""
    return lambda: scale * time.thread_time()


SEARCHES: dict[str, Callable[[], Search]] = {
    "queens": lambda: _queens(False), "queens-pulled": lambda: _queens(True),
    "alphabeta": _alphabeta}


def main(argv: list[str]) -> None:
    from parallel_backtrack.engine.executors import make_executor
    from parallel_backtrack.engine.virtual import VirtualExecutor

    search, pairs, budget = argv[0], int(argv[1]), float(argv[2])
    scales = [float(scale) for scale in argv[3:]]
    run, warm = SEARCHES[search]()
    warm(VirtualExecutor(1))  # compiled kernels loaded here first
    pool = make_executor(2, "loky")
    try:
        warm(pool)
        run(pool)  # the workers started and warm
        workers, parent = pool.pids(), os.getpid()  # type: ignore[attr-defined]
        assert len(workers) == 2
        began = time.perf_counter()
        for done in range(pairs):
            if done >= LEAST_PAIRS and time.perf_counter() - began > budget:
                break  # a loaded host: fewer pairs
            virtual = VirtualExecutor(2)
            run(virtual)
            before = {pid: _thread_times(pid) for pid in (*workers, parent)}
            steal, started = _steal(), time.perf_counter()
            run(pool)
            wall, steal = time.perf_counter() - started, _steal() - steal
            times = {pid: _between(before[pid], _thread_times(pid))
                     for pid in (*workers, parent)}
            print(json.dumps({
                "clock": virtual.clock, "busy": virtual.busy, "stopped": virtual.stopped,
                "wall": wall, "run": [times[pid][0] for pid in workers],
                "delay": [times[pid][1] for pid in workers],
                "parent_run": times[parent][0], "parent_delay": times[parent][1],
                "steal": steal}), flush=True)
        for scale in scales:
            virtual = VirtualExecutor(2, timer=_scaled(scale))
            run(virtual)
            print(json.dumps({"scale": scale, "clock": virtual.clock}), flush=True)
    finally:
        pool.close()


if __name__ == "__main__":
    main(sys.argv[1:])
