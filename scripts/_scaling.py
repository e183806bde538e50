"""Shared pieces of the scaling scripts: timed whole-process runs, CSV, simulation.

Never imported by the package.

Glossary
--------
run
    One whole process (``python -m ... --json --stats``), pool start included;
    ``wall`` is measured around the subprocess, the JSON payload comes back.
speedup / efficiency
    ``T1 / TW`` from the medians of the wall times, and ``speedup / W``.
overhead
    The share of worker time that was not task time:
    ``1 - sum(task seconds) / (W * wall)`` (idle, dispatch, pool start, probe).
simulation
    The measured task durations, list-scheduled (earliest-free worker first, in
    completion order) onto P virtual workers by one parent that spends the
    measured dispatch overhead on every task.  With ``parents`` a task also
    waits for the task whose leftover it continues (the chains the budget makes).

Example: ``simulate([1.0] * 8, overhead=0.0, workers=4)`` is ``2.0``.
"""

from __future__ import annotations

import compileall
import csv
import heapq
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
IMAGES = ROOT / "docs" / "img"


def load_average() -> str:
    """``uptime``'s three load averages: the machine is shared, timings are noisy."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


_COMPILED: set[Path] = set()


def byte_compiled(root: Path) -> None:
    """Compile ``root``'s package to bytecode once, as ``pip install`` does: a checkout
    run with ``PYTHONDONTWRITEBYTECODE=1`` (set on these machines) would compile every
    module of it again in every process, some 55 ms of serial start a run."""
    if root not in _COMPILED:
        compileall.compile_dir(str(root / "parallel_backtrack"), quiet=1)
        _COMPILED.add(root)


def run_json(argv: Sequence[str], timeout: float = 3600,
             root: Path = ROOT) -> tuple[float, dict[str, Any]]:
    """Run ``python argv...`` as a subprocess, importing the package from ``root`` (a
    checkout: this one by default, byte-compiled first); (wall seconds, its last JSON
    line)."""
    wall, lines = run_json_lines(argv, timeout, root)
    return wall, lines[-1]


def run_json_lines(argv: Sequence[str], timeout: float = 3600,
                   root: Path = ROOT) -> tuple[float, list[dict[str, Any]]]:
    """``run_json``, with every JSON line it printed (at least one)."""
    byte_compiled(root)
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    started = time.perf_counter()
    done = subprocess.run([sys.executable, *argv], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=root)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.strip()}")
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"{' '.join(argv)} printed no JSON: {done.stdout[-300:]!r}")
    return wall, [json.loads(line) for line in lines]


def overhead_share(payload: dict[str, Any], wall: float) -> float:
    workers = max(1, int(payload["workers"]))
    busy = sum(payload.get("task_seconds", []))
    return max(0.0, 1.0 - busy / (workers * wall))


def summarize(runs: dict[int, list[tuple[float, dict[str, Any]]]]) -> list[dict[str, Any]]:
    """One row per worker count: medians, speedup and efficiency against W = min."""
    base_workers = min(runs)
    base = statistics.median(wall for wall, _ in runs[base_workers]) * base_workers
    rows = []
    for workers in sorted(runs):
        walls = [wall for wall, _ in runs[workers]]
        payloads = [payload for _, payload in runs[workers]]
        median = statistics.median(walls)
        speedup = base / median
        rows.append({
            "workers": workers, "repeats": len(walls), "wall_median_s": round(median, 4),
            "wall_min_s": round(min(walls), 4), "wall_max_s": round(max(walls), 4),
            "speedup": round(speedup, 4), "efficiency": round(speedup / workers, 4),
            "tasks": int(statistics.median(p["tasks"] for p in payloads)),
            "nodes": payloads[0]["nodes"], "count": payloads[0]["count"],
            "engine_s": round(statistics.median(p["seconds"] for p in payloads), 4),
            "overhead": round(statistics.median(
                overhead_share(p, w) for w, p in runs[workers]), 4),
        })
    return rows


def write_csv(path: Path, rows: Sequence[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def write_json(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True))
    return path


def task_rows(runs: dict[int, list[tuple[float, dict[str, Any]]]]) -> list[dict[str, Any]]:
    """Every task of every run: workers, repeat, index, seconds, nodes, parent, worker."""
    rows = []
    for workers in sorted(runs):
        for repeat, (_, payload) in enumerate(runs[workers]):
            table = zip(payload.get("task_seconds", []), payload.get("task_nodes", []),
                        payload.get("task_parents", []), payload.get("task_workers", []))
            for index, (seconds, nodes, parent, worker) in enumerate(table):
                rows.append({"workers": workers, "repeat": repeat, "task": index,
                             "seconds": seconds, "nodes": nodes, "parent": parent,
                             "worker": worker})
    return rows


def simulate(durations: Sequence[float], overhead: float, workers: int,
             parents: Sequence[int] | None = None) -> float:
    """Makespan of list-scheduling ``durations`` on ``workers`` fed by one parent."""
    free = [0.0] * workers  # a heap of the times the workers become free
    finish = [0.0] * len(durations)
    parent_clock = 0.0  # the parent's own time: ``overhead`` per task, one after another
    for index, seconds in enumerate(durations):
        ready = finish[parents[index]] if parents and parents[index] >= 0 else 0.0
        earliest = heapq.heappop(free)
        parent_clock += overhead
        start = max(earliest, parent_clock, ready)
        finish[index] = start + seconds
        heapq.heappush(free, finish[index])
    return max(free) if durations else 0.0


def predicted_speedups(durations: Sequence[float], overhead: float, serial: float,
                       workers: Sequence[int], parents: Sequence[int] | None = None,
                       boot: float = 0.0) -> list[dict[str, float]]:
    """Predicted speedup and efficiency for each P, against one worker running the same
    tasks in-process (no pool, no dispatch): ``(serial + work) / (serial + boot +
    makespan)``, the boot paid only when there is a pool (P > 1).  With ``serial`` and
    ``boot`` zero this is the scheduling alone: ``work / makespan``."""
    work = sum(durations)
    rows = []
    for count in workers:
        makespan = simulate(durations, overhead, count, parents)
        speedup = (serial + work) / (serial + (boot if count > 1 else 0.0) + makespan)
        rows.append({"workers": count, "makespan_s": round(makespan, 4),
                     "speedup": round(speedup, 3), "efficiency": round(speedup / count, 4)})
    return rows
