"""What a Dask cluster costs parallel alpha-beta and IDA* in work, against loky.

On loky the tasks of a run share this machine's files: the stop flag, the window
bounds, Connect-Four's table.  On Dask none of these is a file the workers see; this
script measures what that costs, the same searches on both pools, 2 workers each:

- nodes: what the search reports (tasks whose answers were used, plus the parent's);
- worker CPU: the CPU seconds the worker processes spent during the run, which also
  counts work whose answer was thrown away (a task that ran on after its window
  closed or after the solution was found);
- seconds: the run's wall time.

"dask snapshot" is Dask as it was without ``engine/dask_bounds.py`` (a task keeps the
window and stop flag it was submitted with); "dask pushed" carries raises to running
tasks.  It starts its own cluster (``dask scheduler`` and ``dask worker --nworkers 2
--nthreads 1`` on 127.0.0.1) and stops it at the end.  Runs are interleaved (loky,
Dask, loky, ...) and each figure is the median of ``--runs``.

Usage: ``python scripts/bench_dask_bounds.py --runs 3 --c4 445322 --korf 6``
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil
from _args import Parser, run_script

from parallel_backtrack.engine import make_executor
from parallel_backtrack.engine.dask_executor import DaskExecutor
from parallel_backtrack.engine.executors import Executor
from parallel_backtrack.games.connect4.board import Board as C4Board
from parallel_backtrack.games.connect4.parallel import parallel_solve
from parallel_backtrack.sliding.board import Board
from parallel_backtrack.sliding.ida import solve

LABELS = ("loky", "dask snapshot", "dask pushed")
KORF = Path(__file__).resolve().parents[1] / "tests" / "data" / "search" / "korf100.txt"


def korf_tiles(number: int) -> tuple[int, ...]:
    for line in KORF.read_text().splitlines():
        words = line.split()
        if words and not line.startswith("#") and int(words[0]) == number:
            return tuple(int(w) for w in words[1:17])
    raise SystemExit(f"no Korf instance #{number}")


def start_cluster(folder: Path) -> tuple[str, list[subprocess.Popen[bytes]]]:
    dask = shutil.which("dask", path=str(Path(sys.executable).parent)) or "dask"
    log = folder / "scheduler.log"
    with open(log, "wb") as out:
        scheduler = subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port",
                                      "0", "--dashboard-address", "127.0.0.1:0"],
                                     stdout=out, stderr=subprocess.STDOUT,
                                     start_new_session=True)
    for _ in range(600):
        found = re.search(r"Scheduler at:\s+(tcp://\S+)", log.read_text())
        if found:
            break
        time.sleep(0.1)
    else:
        raise SystemExit("the scheduler did not start")
    with open(folder / "workers.log", "wb") as out:
        workers = subprocess.Popen([dask, "worker", found.group(1), "--nworkers", "2",
                                    "--nthreads", "1", "--no-dashboard",
                                    "--local-directory", str(folder)],
                                   stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    return found.group(1), [scheduler, workers]


def stop_cluster(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in reversed(processes):
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def snapshots(pool: DaskExecutor, on: bool) -> DaskExecutor:
    """``pool`` without (``on``) or with the pushed bounds and stop flags.  One executor
    for both: two Dask clients in one process can hang each other's waits."""
    for name in ("remote_bounds", "stop_flag", "raise_flag"):
        pool.__dict__.pop(name, None)
    if on:
        pool.remote_bounds = None  # type: ignore[assignment]
        pool.stop_flag = lambda: Executor.stop_flag(pool)  # type: ignore[method-assign]
        pool.raise_flag = lambda flag: None  # type: ignore[method-assign]
    return pool


def worker_pids(pool: Any) -> list[int]:
    if pool.name == "dask":
        return sorted(pool.client.run(os.getpid).values())
    return pool.pids()


def cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            times = psutil.Process(pid).cpu_times()
            total += times.user + times.system
        except psutil.NoSuchProcess:
            pass
    return total


def measured(pool: Any, run: Any) -> tuple[int, float, float, Any]:
    """(nodes, worker CPU seconds, wall seconds, answer) of one run on ``pool``."""
    before_pids = worker_pids(pool)
    before = cpu_seconds(before_pids)
    started = time.perf_counter()
    nodes, answer = run(pool)
    seconds = time.perf_counter() - started
    time.sleep(0.5)  # tasks that run on after the answer: their CPU counts too
    return nodes, cpu_seconds(before_pids) - before, seconds, answer


def c4_run(moves: str) -> Any:
    board = C4Board()
    position = board.parse(moves)

    def run(pool: Any) -> tuple[int, int]:
        found = parallel_solve(board, position, workers=pool.workers, executor=pool)
        return found.nodes, found.score
    return run


def ida_run(number: int) -> Any:
    board = Board(korf_tiles(number), "blank-first")

    def run(pool: Any) -> tuple[int, int]:
        found = solve(board, "manhattan", workers=pool.workers, executor=pool)
        return found.nodes, len(found.moves or "")
    return run


def main() -> None:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per search and pool (3)")
    parser.add_argument("--c4", default="445322", help="Connect-Four moves ('' to skip)")
    parser.add_argument("--korf", type=int, default=6, help="Korf instance (0 to skip)")
    args = parser.parse_args()
    if args.c4:
        try:
            C4Board().parse(args.c4)
        except ValueError as error:
            parser.error(f"argument --c4: {error}")
    if not 0 <= args.korf <= 100:
        parser.error(f"argument --korf: Korf's instances are numbered 1-100 (0: skip), "
                     f"got {args.korf}")
    cases = ([("connect4 " + args.c4, c4_run(args.c4))] if args.c4 else []) + \
        ([(f"IDA* Korf #{args.korf}", ida_run(args.korf))] if args.korf else [])
    folder = Path(tempfile.mkdtemp(prefix="pb-bench-dask-"))
    address, processes = start_cluster(folder)
    loky = dask = None
    try:
        loky = make_executor(2, "loky")
        dask = DaskExecutor(1, address=address)
        dask.client.wait_for_workers(2, timeout=60)
        dask.workers = 2
        pools = {"loky": lambda: loky, "dask snapshot": lambda: snapshots(dask, True),
                 "dask pushed": lambda: snapshots(dask, False)}
        rows: dict[tuple[str, str], list[tuple[int, float, float, Any]]] = {}
        for _, run in cases:  # warm the pools (kernels loaded, tables built)
            for pool in pools.values():
                measured(pool(), run)
        for _ in range(args.runs):
            for name, run in cases:
                for label, pool in pools.items():
                    rows.setdefault((name, label), []).append(measured(pool(), run))
        report(rows, cases)
    finally:
        for executor in (loky, dask):
            if executor is not None:
                executor.close()
        stop_cluster(processes)
        shutil.rmtree(folder, ignore_errors=True)


def report(rows: dict[tuple[str, str], list[tuple[int, float, float, Any]]],
           cases: list[tuple[str, Any]]) -> None:
    print(f"load {os.getloadavg()[0]:.2f}")
    print("| search | pool | nodes | worker CPU s | wall s | answer |")
    print("| --- | --- | ---: | ---: | ---: | --- |")
    for name, _ in cases:
        medians = {}
        for label in LABELS:
            runs = rows[name, label]
            medians[label] = [statistics.median(r[i] for r in runs) for i in range(3)]
            answers = sorted({str(r[3]) for r in runs})
            nodes, cpu, wall = medians[label]
            print(f"| {name} | {label} | {nodes:,.0f} | {cpu:.2f} | {wall:.2f} | "
                  f"{', '.join(answers)} |")
        for label in LABELS[1:]:
            ratio = [d / lo if lo else float("nan") for d, lo in zip(medians[label],
                                                                     medians["loky"])]
            print(f"| {name} | {label} / loky | {ratio[0]:.2f}x | {ratio[1]:.2f}x | "
                  f"{ratio[2]:.2f}x | |")


if __name__ == "__main__":
    run_script(main)
