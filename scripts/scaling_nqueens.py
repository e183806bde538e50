"""Whole-process scaling of the N-Queens count: wall time, speedup, efficiency.

Each configuration runs as its own process, ``python -m parallel_backtrack.nqueens
--n N --workers W --json --stats --no-progress``, so pool start-up and kernel
loading are included; the wall time is measured around the subprocess and the
median of ``--repeats`` runs is reported.

Writes ``results/scaling_nqueens_n{N}.csv`` (one row per worker count: medians,
speedup, efficiency, tasks, nodes) and ``results/task_durations_nqueens_n{N}.csv``
(every task of every run).  For plots and the simulation see ``scaling.py``.

Example::

    python scripts/scaling_nqueens.py --n 15 --workers 1 2 --repeats 3
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _args import Parser, run_script
from _scaling import (  # noqa: E402 - scripts import their helpers by path
    RESULTS,
    load_average,
    run_json,
    summarize,
    task_rows,
    write_csv,
)


def measure(n: int, workers: list[int], repeats: int, extra: list[str]) -> dict:
    """{workers: [(wall, payload), ...]}, the repeats interleaved across worker counts
    so a burst of load on the shared machine hits every configuration alike."""
    runs: dict[int, list] = {w: [] for w in workers}
    for repeat in range(repeats):
        for count in workers:
            argv = ["-m", "parallel_backtrack.nqueens", "--n", str(n), "--workers", str(count),
                    "--json", "--stats", "--no-progress", *extra]
            wall, payload = run_json(argv)
            runs[count].append((wall, payload))
            print(f"  n={n} workers={count} repeat={repeat}: {wall:.3f} s "
                  f"({payload['tasks']} tasks)", file=sys.stderr)
    return runs


def print_table(rows: list[dict]) -> None:
    print("| workers | wall median (s) | speedup | efficiency | tasks | nodes |")
    print("|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        print(f"| {row['workers']} | {row['wall_median_s']:.3f} | {row['speedup']:.3f} | "
              f"{row['efficiency']:.3f} | {row['tasks']} | {row['nodes']:,} |")


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=15)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("extra", nargs="*", help="more CLI options, after --")
    args = parser.parse_args(argv)
    print(f"load average before: {load_average()}", file=sys.stderr)
    runs = measure(args.n, sorted(set(args.workers)), args.repeats, args.extra)
    rows = summarize(runs)
    for row in rows:
        row["load"] = load_average()
    print(f"load average after: {load_average()}", file=sys.stderr)
    table = write_csv(args.out / f"scaling_nqueens_n{args.n}.csv", rows)
    tasks = write_csv(args.out / f"task_durations_nqueens_n{args.n}.csv", task_rows(runs))
    print_table(rows)
    print(f"\nwrote {table} and {tasks}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run_script(main)
