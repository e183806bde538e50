"""How promptly ``solve`` stops: time from the first solution to the return, and the
CPU the workers still burn afterwards.

Glossary
--------
stop latency
    ``report.seconds - report.solution_seconds``: from the moment a worker found
    the solution (its wall clock) to ``solve`` returning in the parent.
CPU after
    User + system CPU seconds each loky worker spends in the ``window`` seconds
    after ``solve`` returned (0 when every task saw the stop flag).
no probe
    The parent's probe usually finds the first solution of an easy tree itself;
    with ``probe=False`` the workers must find it, which is what is measured.

Example: ``measure_cancel(space, workers=2, runs=5)`` returns one row per run.
"""

from __future__ import annotations

import time
from typing import Any

import psutil

from parallel_backtrack.engine import make_executor, scheduler, solve


def _cpu(pids: list[int]) -> list[float]:
    return [sum(psutil.Process(pid).cpu_times()[:2]) for pid in pids]


def measure_cancel(space: Any, workers: int = 2, runs: int = 5, window: float = 0.5,
                   probe: bool = False, budget: int | None = None) -> list[dict[str, Any]]:
    """Solve ``runs`` times on one warm loky pool; latency and CPU after each."""
    saved = scheduler.PROBE_BUDGETS
    scheduler.PROBE_BUDGETS = saved if probe else 0
    executor = make_executor(workers, "loky")
    rows = []
    try:
        for run in range(runs):
            started = time.perf_counter()
            report = solve(space, executor=executor, budget=budget)
            returned = time.perf_counter() - started
            pids = executor.pids()
            before = _cpu(pids)
            time.sleep(window)
            after = _cpu(pids)
            found = report.solution_seconds
            rows.append({
                "run": run, "returned_s": round(returned, 4),
                "found_s": None if found is None else round(found, 4),
                "latency_s": None if found is None else round(report.seconds - found, 4),
                "cpu_after_s": round(max(b - a for a, b in zip(before, after)), 4),
                "tasks": report.tasks, "pids": " ".join(map(str, pids)),
            })
    finally:
        scheduler.PROBE_BUDGETS = saved
        executor.close()
    return rows
