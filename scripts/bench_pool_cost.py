"""What a pool costs its parent process per task, against what the virtual pool charges.

Tasks that do nothing (a 300-byte argument back), ``--in-flight`` at a time on 2
workers, through the engine's own executors (``make_executor``): the parent process's
CPU time per task, all its threads counted (the submit, the pool's feeder and result
threads, pickling, pipes, futures), and the wall time per task.  The virtual pool
runs the same tasks and charges its parent only the pickling and its own bookkeeping
(``VirtualExecutor.parent``); the difference is what ``VirtualExecutor(P,
dispatch=...)`` and ``scripts/_virtual_run.py --dispatch`` add per task.

Glossary
--------
parent cpu us
    Median over ``--rounds`` of the parent process's user + system CPU microseconds
    per task (``resource.getrusage``: every thread of the process).
charged us
    The virtual pool: its parent's seconds per task as it charges them.

Writes ``results/bench_pool_cost.csv`` and ``.json``.  Examples (the second against
a running cluster: ``dask scheduler``, ``dask worker ADDRESS --nworkers 2``)::

    python scripts/bench_pool_cost.py --tasks 3000 --rounds 3
    python scripts/bench_pool_cost.py --backends dask --scheduler-address tcp://127.0.0.1:8786
"""

from __future__ import annotations

import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]

from _args import Parser, run_script  # noqa: E402 - scripts/ is sys.path[0]
from _machine import machine  # noqa: E402
from _scaling import RESULTS, write_csv, write_json  # noqa: E402

from parallel_backtrack.engine import BACKENDS  # noqa: E402

PAYLOAD = b"x" * 300


def echo(value: Any) -> Any:
    """The task: nothing but its argument back."""
    return value


def parent_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def one_round(executor: Any, tasks: int, in_flight: int) -> tuple[float, float]:
    """(parent CPU s, wall s) per task for ``tasks`` tasks, ``in_flight`` at a time."""
    started_cpu, started = parent_cpu(), time.perf_counter()
    running: set[Any] = set()
    sent = finished = 0
    while finished < tasks:
        while len(running) < in_flight and sent < tasks:
            running.add(executor.submit(echo, (sent, PAYLOAD)))
            sent += 1
        done = executor.wait_any(running)
        for future in done:
            future.result()
        running -= done
        finished += len(done)
    return (parent_cpu() - started_cpu) / tasks, (time.perf_counter() - started) / tasks


def measure(backend: str, tasks: int, rounds: int, in_flight: int,
            address: str | None = None) -> dict[str, Any]:
    from parallel_backtrack.engine import VirtualExecutor, make_executor

    options = {"address": address} if backend == "dask" and address else {}
    executor = (VirtualExecutor(2) if backend == "virtual"
                else make_executor(2, backend, **options))
    try:
        one_round(executor, 200, in_flight)  # start the workers, warm the paths
        charged_before = (executor.parent, executor.tasks) if backend == "virtual" else None
        cpu, wall = zip(*(one_round(executor, tasks, in_flight) for _ in range(rounds)))
        row: dict[str, Any] = {"backend": backend, "tasks": tasks, "rounds": rounds,
                               "parent_cpu_us": round(1e6 * statistics.median(cpu), 1),
                               "wall_us": round(1e6 * statistics.median(wall), 1),
                               "charged_us": None}
        if charged_before is not None:
            seconds = executor.parent - charged_before[0]
            row["charged_us"] = round(1e6 * seconds / (executor.tasks - charged_before[1]), 1)
        return row
    finally:
        if hasattr(executor, "close"):
            executor.close()


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=3000, help="tasks per round (3000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per pool (3)")
    parser.add_argument("--in-flight", type=int, default=4,
                        help="tasks in flight at a time (4: two per worker, as the engine)")
    parser.add_argument("--backends", nargs="+", default=["loky", "fork", "virtual"],
                        choices=(*BACKENDS, "virtual"),
                        help="pools to measure (virtual: what engine.VirtualExecutor charges)")
    parser.add_argument("--scheduler-address", default=None, metavar="ADDRESS",
                        help="the dask backend on this running cluster (default: a private "
                        "LocalCluster, its scheduler in this process)")
    parser.add_argument("--json", type=Path, default=RESULTS / "bench_pool_cost.json",
                        help="the JSON file (default results/bench_pool_cost.json; the CSV "
                        "beside it)")
    args = parser.parse_args(argv)
    rows = [measure(backend, args.tasks, args.rounds, args.in_flight, args.scheduler_address)
            for backend in args.backends]
    print("| pool | parent CPU us a task | wall us a task | charged us a task |\n"
          "|---|---|---|---|")
    for row in rows:
        charged = "" if row["charged_us"] is None else f"{row['charged_us']:.0f}"
        print(f"| {row['backend']} | {row['parent_cpu_us']:.0f} | {row['wall_us']:.0f} | "
              f"{charged} |")
    write_csv(args.json.with_suffix(".csv"), rows)
    write_json(args.json, {"machine": machine(), "rows": rows})
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    run_script(main)
