"""Run the real scheduler on P virtual workers (``engine.VirtualExecutor``) and print
one JSON object: per P, the simulated wall clock, speedup and efficiency, as run and
again with the tasks replayed so the parent's caches stay warm (``..._warm``), the
parent's seconds per task, the tasks it sent (``sent``: a pull runs several pieces of
the cut, ``engine/pull.py``), where the workers' idle time went
(``VirtualExecutor.idle``: before the first task, between tasks, after the last, per
worker), the most subtree roots that waited in the parent and the process's peak RSS
so far.  The same curve goes to stderr as a Markdown table with an ``efficiency``
column.

Every task runs in this process, one after another, and is timed; the virtual
clock says when it would have ended on P workers fed by this one parent.  So the
simulation is the scheduler's own behaviour for P workers (the cut, packing,
splitting in the tail, leftovers), with real task durations and the parent's
real dispatch costs.  Speedup is the P = 1 clock over the P clock.

Example::

    python scripts/_virtual_run.py nqueens 17 --workers 1 16 64
    python scripts/_virtual_run.py nqueens 17 --workers 1 64 --dispatch 1e-4
    python scripts/_virtual_run.py nqueens 17 --workers 1 64 --dispatch 1e-4 --feed 0
    python scripts/_virtual_run.py nqueens 17 --workers 1 64 --dispatch 1e-3 --no-pulls
    python scripts/_virtual_run.py sudoku FILE --index 2 --remove 3 --workers 1 64
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]
os.environ.setdefault("PARALLEL_BACKTRACK_LEAN", "1")  # start up as the command lines do
from _args import Parser, input_file, run_script  # noqa: E402 - scripts/ is sys.path[0]


def build_space(args: argparse.Namespace):  # noqa: ANN201 - a Space of either kind
    if args.kind == "nqueens":
        from parallel_backtrack.nqueens import ImmutableQueenLocations
        from parallel_backtrack.nqueens.space import QueensSpace

        return QueensSpace(ImmutableQueenLocations(int(args.problem)))
    from _sudoku_run import puzzle_cells

    from parallel_backtrack.sudoku.search import space_for

    return space_for(puzzle_cells(args.problem, args.index, args.remove), "fewest")


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=("nqueens", "sudoku"))
    parser.add_argument("problem", help="N for nqueens, a puzzle file for sudoku")
    parser.add_argument("--index", type=int, default=0, help="sudoku: which puzzle of the file")
    parser.add_argument("--remove", type=int, default=0,
                        help="sudoku: blank the first REMOVE givens (more solutions)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 64],
                        help="virtual pool sizes (1 is always run: the base)")
    parser.add_argument("--budget", type=int, default=None,
                        help="nodes a task searches before it splits (default: the engine's)")
    parser.add_argument("--per-worker", type=int, default=None,
                        help="subtrees per worker in the first cut (default: the engine's)")
    parser.add_argument("--dispatch", type=float, default=0.0, metavar="SECONDS",
                        help="parent seconds a task beyond pickling, for a real pool's own "
                        "cost (scripts/bench_pool_cost.py measures it; default 0)")
    parser.add_argument("--feed", type=float, default=None, metavar="F",
                        help="tasks carry at least F x workers x the parent's measured cost "
                        "per task of work (engine.pending.FEED; 0: off, as before it "
                        "existed)")
    parser.add_argument("--no-pulls", dest="pulls", action="store_false",
                        help="keep the cut in the parent's queue at any P, as on Dask, "
                        "whose workers share no files (engine/pull.py)")
    args = parser.parse_args(argv)
    if args.kind == "nqueens" and not args.problem.isdigit():
        parser.error(f"nqueens takes a board size N, got {args.problem!r}")
    if args.kind == "sudoku":
        try:
            input_file(args.problem)
        except argparse.ArgumentTypeError as error:
            parser.error(str(error))
    from parallel_backtrack.engine import VirtualExecutor, count, pending

    if args.feed is not None:
        pending.FEED = args.feed

    space = build_space(args)
    count(space, executor=VirtualExecutor(1), budget=10**9)  # load the kernels first
    rows, serial, serial_warm = [], None, None
    for workers in sorted(set(args.workers) | {1}):
        replay: dict = {}
        executor = VirtualExecutor(workers, replay=replay, dispatch=args.dispatch,
                                   pulls=args.pulls)
        report = count(space, executor=executor, budget=args.budget,
                       per_worker=args.per_worker)
        # The same run again with every task it repeats replayed: the parent's time
        # measured with its caches warm (see VirtualExecutor's glossary).
        warm = VirtualExecutor(workers, replay=replay, dispatch=args.dispatch,
                               pulls=args.pulls)
        again = count(space, executor=warm, budget=args.budget, per_worker=args.per_worker)
        if again.count != report.count:
            raise SystemExit(f"the replayed run counted {again.count}, not {report.count}")
        serial = executor.clock if workers == 1 else serial
        serial_warm = warm.clock if workers == 1 else serial_warm
        speedup, speedup_warm = serial / executor.clock, serial_warm / warm.clock
        before, between, after = executor.idle()
        rows.append({"workers": workers, "clock_s": round(executor.clock, 5),
                     "work_s": round(executor.busy, 5), "parent_s": round(executor.parent, 5),
                     "tasks": report.tasks, "sent": executor.tasks, "count": report.count,
                     "speedup": round(speedup, 3), "efficiency": round(speedup / workers, 4),
                     "clock_warm_s": round(warm.clock, 5),
                     "parent_warm_s": round(warm.parent, 5), "replayed": warm.replayed,
                     "tasks_warm": again.tasks, "speedup_warm": round(speedup_warm, 3),
                     "efficiency_warm": round(speedup_warm / workers, 4),
                     "peak_pending": report.peak_pending,
                     "idle_before_ms": round(1e3 * before, 2),
                     "idle_between_ms": round(1e3 * between, 2),
                     "idle_after_ms": round(1e3 * after, 2),
                     "parent_per_task_us": round(1e6 * executor.parent / max(1, report.tasks), 1),
                     "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})
        print(f"  virtual P={workers}: {executor.clock:.3f} s, speedup {speedup:.2f}, "
              f"{report.tasks} tasks, parent {executor.parent:.3f} s; parent warm: "
              f"{warm.clock:.3f} s, speedup {speedup_warm:.2f}, parent {warm.parent:.3f} s, "
              f"{warm.replayed} of {again.tasks} tasks replayed", file=sys.stderr)
    print_table(rows)
    print(json.dumps({"rows": rows}))
    return 0


def print_table(rows: list[dict]) -> None:
    """The curve as a Markdown table on stderr (stdout stays one JSON object)."""
    print("| P | clock s | speedup | efficiency | tasks | sent | parent s | parent us/task "
          "| idle before / between / after ms | efficiency, parent warm "
          "| peak pending roots | parent max RSS MB |", file=sys.stderr)
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|", file=sys.stderr)
    for row in rows:
        idle = " / ".join(f"{row[k]:.1f}" for k in ("idle_before_ms", "idle_between_ms",
                                                      "idle_after_ms"))
        print(f"| {row['workers']} | {row['clock_s']:.4f} | {row['speedup']:.2f} | "
              f"{row['efficiency']:.2f} | {row['tasks']} | {row['sent']} | {row['parent_s']:.4f} | "
              f"{row['parent_per_task_us']:.0f} | {idle} | "
              f"{row['efficiency_warm']:.2f} | {row['peak_pending']} | {row['max_rss_mb']:.0f} |",
              file=sys.stderr)


if __name__ == "__main__":
    run_script(main)
