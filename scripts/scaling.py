"""Scaling experiments: measured speedup, task durations, granularity, simulated speedup.

Subcommands
-----------
nqueens   ``--n 17 --workers 1 2 --repeats 3``: whole-process runs of the N-Queens
          CLI (``--json --stats``), then a granularity sweep and the simulation.
sudoku    ``FILE --count --remove 2``: the same for counting one Sudoku's
          solutions (a 17-clue puzzle with givens blanked has many).
cancel    ``--n 20 --sudoku FILE``: how long ``solve`` takes to return after a
          worker found the first solution, and the CPU workers burn afterwards.
memory    ``--n 18 --workers 2 --seconds 60``: peak RSS of the parent and of each
          worker while a count runs for a fixed time window (``--timeout``), or
          of any command given after ``--``.

Glossary
--------
granularity sweep
    ``--per-worker`` (subtrees per worker in the first cut) from 1 to 1000 at
    the largest worker count: wall time and the overhead share of worker time.
simulation
    The task durations of one extra run on the most workers, cut as a run on
    ``--simulate-for`` (64) workers would be cut, list-scheduled onto 1..1024
    virtual workers with the measured parent overhead per task (see
    ``_scaling.simulate``): the scheduling alone, dashed beside the measured
    points, and the whole process (first probe and worker boot added), dotted.
virtual pool
    The more faithful prediction: the real scheduler run on ``--virtual`` P
    simulated workers (``engine.VirtualExecutor``, via ``_virtual_run.py``), so
    its own decisions for P workers (cut, packing, tail splitting, leftovers)
    are what is simulated, with real task and parent times; dash-dotted.

Writes CSV/JSON under ``results/`` (git-ignored) and PNGs under ``docs/img/``.

Example::

    python scripts/scaling.py nqueens --n 17 --workers 1 2 --repeats 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]

from _args import Parser, input_file, run_script  # noqa: E402 - scripts/ is sys.path[0]
from _memory import measure_memory  # noqa: E402 - scripts import their helpers by path
from _scaling import (  # noqa: E402
    IMAGES,
    RESULTS,
    load_average,
    overhead_share,
    predicted_speedups,
    run_json,
    summarize,
    task_rows,
    write_csv,
    write_json,
)

from parallel_backtrack.engine.scheduler import DEFAULT_PER_WORKER  # noqa: E402

SIMULATED = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
VIRTUAL = [1, 2, 4, 16, 64, 256]
SWEEP = [1, 3, 10, 30, 100, 300, 1000]


def nqueens_argv(args: argparse.Namespace, workers: int, per_worker: int | None,
                 n: int | None = None) -> list[str]:
    argv = ["-m", "parallel_backtrack.nqueens", "--n", str(n or args.n), "--workers",
            str(workers), "--json", "--stats", "--no-progress"]
    if args.budget:
        argv += ["--budget", str(args.budget)]
    if args.backend and workers > 1:
        argv += ["--backend", args.backend]
    return argv + (["--per-worker", str(per_worker)] if per_worker else [])


def sudoku_argv(args: argparse.Namespace, workers: int, per_worker: int | None,
                n: int | None = None) -> list[str]:
    argv = [str(Path(__file__).with_name("_sudoku_run.py")), str(args.file), "--index",
            str(args.index), "--remove", str(args.remove), "--workers", str(workers)]
    if args.budget:
        argv += ["--budget", str(args.budget)]
    if args.backend and workers > 1:
        argv += ["--backend", args.backend]
    return argv + (["--per-worker", str(per_worker)] if per_worker else [])


def measure(args: argparse.Namespace, build: Any) -> dict[int, list]:
    """Repeats interleaved across worker counts, so load bursts hit all alike."""
    runs: dict[int, list] = {w: [] for w in sorted(set(args.workers))}
    for repeat in range(args.repeats):
        for workers in runs:
            wall, payload = run_json(build(args, workers, args.per_worker))
            runs[workers].append((wall, payload))
            print(f"  workers={workers} repeat={repeat}: {wall:.3f} s, {payload['tasks']} "
                  f"tasks, load {load_average()}", file=sys.stderr)
    return runs


def median_run(runs: list[tuple[float, dict]]) -> tuple[float, dict]:
    ordered = sorted(runs, key=lambda run: run[0])
    return ordered[len(ordered) // 2]


def simulation_inputs(payload: dict) -> tuple[list[float], list[int], float, float, float]:
    """Task durations and parents (re-indexed), the parent's overhead per task, the serial
    part (the first probe, before any pool exists) and the time a worker takes to boot.

    The parent's later probe rounds ran while the pool booted; here they are ordinary
    budget-sized tasks, and the boot is paid in full on top: a slight pessimism."""
    table = list(zip(payload["task_seconds"], payload["task_workers"], payload["task_parents"]))
    kept = list(range(1, len(table))) if table and table[0][1] == "parent" else list(
        range(len(table)))
    position = {index: rank for rank, index in enumerate(kept)}
    durations = [table[i][0] for i in kept]
    parents = [position.get(table[i][2], -1) for i in kept]
    tasks = max(1, sum(1 for i in kept if table[i][1] != "parent"))
    overhead = (payload["dispatch_seconds"] + payload["collect_seconds"]) / tasks
    serial = table[0][0] if len(kept) < len(table) else 0.0
    boot = payload.get("setup_seconds", 0.0) / max(1, payload["workers"])
    return durations, parents, overhead, serial, boot


def simulate_all(payload: dict) -> dict[str, Any]:
    """Three predictions from one run's tasks: the scheduling alone (the tasks list-
    scheduled with the parent's overhead), the same keeping each leftover after the task
    that handed it back, and the whole process (plus the first probe and worker boot)."""
    durations, parents, overhead, serial, boot = simulation_inputs(payload)
    return {
        "overhead_per_task_s": overhead, "serial_s": serial, "boot_s": boot,
        "tasks": len(durations), "work_s": sum(durations),
        "scheduling": predicted_speedups(durations, overhead, 0.0, SIMULATED),
        "chained": predicted_speedups(durations, overhead, 0.0, SIMULATED, parents),
        "whole_process": predicted_speedups(durations, overhead, serial, SIMULATED,
                                            boot=boot),
    }


def simulation_run(args: argparse.Namespace, build: Any) -> tuple[float, dict]:
    """One run cut the way a run on ``--simulate-for`` workers would be cut (the same
    subtrees in all), on the largest measured worker count: the simulation's input."""
    workers = max(args.workers)
    per_worker = max(1, (args.per_worker or DEFAULT_PER_WORKER) * args.simulate_for // workers)
    budget = args.budget
    args.budget = args.simulate_budget or budget
    try:
        wall, payload = run_json(build(args, workers, per_worker))
    finally:
        args.budget = budget
    print(f"  simulation input: {workers} workers, --per-worker {per_worker}: {wall:.3f} s, "
          f"{payload['tasks']} tasks", file=sys.stderr)
    return wall, payload


def sweep(args: argparse.Namespace, build: Any) -> list[dict[str, Any]]:
    workers, rows = max(args.workers), []
    for per_worker in args.sweep:
        wall, payload = run_json(build(args, workers, per_worker, args.sweep_n))
        rows.append({"per_worker": per_worker, "workers": workers, "wall_s": round(wall, 4),
                     "overhead": round(overhead_share(payload, wall), 4),
                     "tasks": payload["tasks"], "frontier": payload["frontier"]})
        print(f"  per_worker={per_worker}: {wall:.3f} s, {payload['tasks']} tasks",
              file=sys.stderr)
    return rows


def plot(name: str, title: str, rows: list, simulated: dict, sweep_rows: list,
         durations: list[float]) -> list[Path]:
    try:
        import _plots
    except ImportError as error:
        print(f"no plots ({error}): pip install 'parallel_backtrack[plot]'", file=sys.stderr)
        return []
    return [
        _plots.speedup_plot(rows, simulated["scheduling"], simulated["whole_process"],
                            IMAGES / f"{name}_speedup.png", title,
                            virtual=simulated.get("virtual")),
        _plots.histogram_plot(durations, IMAGES / f"{name}_tasks.png",
                              f"{title}: task durations ({len(durations)} tasks)"),
    ] + ([_plots.granularity_plot(sweep_rows, IMAGES / f"{name}_granularity.png",
                                  f"{title}: granularity")] if sweep_rows else [])


def virtual_rows(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The real scheduler on ``--virtual`` simulated workers (``_virtual_run.py``)."""
    if not args.virtual:
        return []
    script = str(Path(__file__).with_name("_virtual_run.py"))
    problem = (["nqueens", str(args.n)] if args.problem == "nqueens" else
               ["sudoku", str(args.file), "--index", str(args.index), "--remove",
                str(args.remove)])
    argv = [script, *problem, "--workers", *map(str, args.virtual)]
    if args.budget:
        argv += ["--budget", str(args.budget)]
    if args.per_worker:
        argv += ["--per-worker", str(args.per_worker)]
    return run_json(argv)[1]["rows"]


def experiment(args: argparse.Namespace, name: str, title: str, build: Any) -> int:
    print(f"{title}: load average before {load_average()}", file=sys.stderr)
    runs = measure(args, build)
    rows = summarize(runs)
    _, payload = median_run(runs[max(runs)])
    durations = simulation_inputs(payload)[0]
    simulated = simulate_all(simulation_run(args, build)[1])
    simulated["virtual"] = virtual_rows(args)
    sweep_rows = sweep(args, build) if args.sweep else []
    load = load_average()
    write_csv(RESULTS / f"scaling_{name}.csv", rows)
    write_csv(RESULTS / f"task_durations_{name}.csv", task_rows(runs))
    write_json(RESULTS / f"scaling_{name}.json", {"measured": rows, "simulated": simulated,
                                                  "sweep": sweep_rows, "load_after": load})
    if sweep_rows:
        write_csv(RESULTS / f"granularity_{name}.csv", sweep_rows)
    images = [] if args.no_plots else plot(name, title, rows, simulated, sweep_rows, durations)
    report(rows, simulated, sweep_rows, load, images)
    return 0


def report(rows: list, simulated: dict, sweep_rows: list, load: str, images: list) -> None:
    print("| workers | wall median (s) | speedup | efficiency | tasks | overhead |")
    print("|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['workers']} | {r['wall_median_s']:.3f} | {r['speedup']:.3f} | "
              f"{r['efficiency']:.3f} | {r['tasks']} | {100 * r['overhead']:.1f}% |")
    print(f"\nsimulated from {simulated['tasks']} tasks, {simulated['work_s']:.2f} s of work, "
          f"{1e3 * simulated['overhead_per_task_s']:.3f} ms parent overhead per task, "
          f"{simulated['serial_s']:.3f} s first probe, {simulated['boot_s']:.3f} s worker boot:")
    print("| P | scheduling: speedup | efficiency | with leftover chains | whole process: "
          "speedup | efficiency |")
    print("|---:|---:|---:|---:|---:|---:|")
    for free, chained, whole in zip(simulated["scheduling"], simulated["chained"],
                                    simulated["whole_process"]):
        print(f"| {free['workers']} | {free['speedup']:.2f} | {free['efficiency']:.3f} | "
              f"{chained['efficiency']:.3f} | {whole['speedup']:.2f} | "
              f"{whole['efficiency']:.3f} |")
    if simulated.get("virtual"):
        print("\nthe real scheduler on P virtual workers (one core, real task times; then "
              "the tasks replayed, the parent's caches warm):")
        print("| P | simulated wall (s) | speedup | efficiency | tasks | parent (s) | "
              "warm: efficiency | parent (s) |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for v in simulated["virtual"]:
            print(f"| {v['workers']} | {v['clock_s']:.3f} | {v['speedup']:.2f} | "
                  f"{v['efficiency']:.3f} | {v['tasks']} | {v['parent_s']:.3f} | "
                  f"{v['efficiency_warm']:.3f} | {v['parent_warm_s']:.3f} |")
    if sweep_rows:
        print("\n| per worker | wall (s) | overhead | tasks |\n|---:|---:|---:|---:|")
        for r in sweep_rows:
            print(f"| {r['per_worker']} | {r['wall_s']:.3f} | {100 * r['overhead']:.1f}% | "
                  f"{r['tasks']} |")
    print(f"\nload average after: {load}; plots: {', '.join(map(str, images)) or 'none'}")


def memory(args: argparse.Namespace) -> int:
    command = args.command or ["-m", "parallel_backtrack.nqueens", "--n", str(args.n),
                               "--workers", str(args.workers), "--timeout", str(args.seconds),
                               "--json", "--no-progress"]
    # Our own count stops at --timeout; any other command is stopped at --seconds.
    limit = args.seconds + 120 if not args.command else args.seconds
    rows, out = measure_memory(command, args.interval, limit)
    name = (f"memory_nqueens_n{args.n}_w{args.workers}" if not args.command
            else "memory_command")
    write_csv(RESULTS / f"{name}.csv", rows)
    payload = _last_json(out)
    if "peak_pending" in payload:
        print(f"count {payload.get('count'):,} (complete: {payload.get('complete')}), "
              f"{payload.get('nodes', 0):,} nodes, {payload.get('tasks')} tasks, peak pending "
              f"{payload.get('peak_pending')} subtree roots, {payload.get('seconds', 0):.1f} s")
    print("| process | peak RSS (MB) | peak USS (MB) | samples |\n|---|---:|---:|---:|")
    for row in rows:
        print(f"| {row['role']} pid {row['pid']} | {row['peak_rss_mb']:.1f} | "
              f"{row['peak_uss_mb']:.1f} | {row['samples']} |")
    return 0


def _last_json(out: str) -> dict[str, Any]:
    import json

    lines = [line for line in out.splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else {}


def cancel(args: argparse.Namespace) -> int:
    """Stop latency of ``solve`` on warm loky workers (the probe off: workers search)."""
    from _cancel import measure_cancel

    from parallel_backtrack.nqueens.board import ImmutableQueenLocations
    from parallel_backtrack.nqueens.space import QueensSpace

    spaces = {f"N-Queens n = {args.n} (reference)":
              QueensSpace(ImmutableQueenLocations(args.n), kernel="reference")}
    if args.sudoku:
        from _sudoku_run import puzzle_cells

        from parallel_backtrack.sudoku.search import space_for

        cells = puzzle_cells(str(args.sudoku), args.index, args.remove)
        spaces[f"Sudoku {args.sudoku.stem} #{args.index} minus {args.remove}"] = space_for(cells)
    print("| space | runs | found after (s, median) | stop latency (s, median / max) | "
          "worker CPU after return (s, max) | same pool |")
    print("|---|---:|---:|---:|---:|---|")
    for name, space in spaces.items():
        rows = measure_cancel(space, args.workers, args.runs)
        write_csv(RESULTS / f"cancel_{name.split()[0].lower()}.csv", rows)
        latency = [r["latency_s"] for r in rows if r["latency_s"] is not None]
        found = [r["found_s"] for r in rows if r["found_s"] is not None]
        print(f"| {name} | {len(rows)} | {statistics.median(found):.3f} | "
              f"{statistics.median(latency):.3f} / {max(latency):.3f} | "
              f"{max(r['cpu_after_s'] for r in rows):.3f} | "
              f"{len({r['pids'] for r in rows}) == 1} |")
    print(f"\nload average: {load_average()}")
    return 0


def parser() -> argparse.ArgumentParser:
    top = Parser(description=__doc__.split("\n\n")[0])
    sub = top.add_subparsers(dest="problem", required=True)
    queens = sub.add_parser("nqueens", help="N-Queens count")
    queens.add_argument("--n", type=int, default=17)
    sudoku = sub.add_parser("sudoku", help="count one Sudoku's solutions")
    sudoku.add_argument("file", type=input_file)
    sudoku.add_argument("--count", action="store_true", help="count (the only mode measured)")
    sudoku.add_argument("--index", type=int, default=0)
    sudoku.add_argument("--remove", type=int, default=2, help="givens to blank (default 2)")
    for each in (queens, sudoku):
        each.add_argument("--workers", type=int, nargs="+", default=[1, 2])
        each.add_argument("--repeats", type=int, default=3)
        each.add_argument("--budget", type=int, default=None)
        each.add_argument("--backend", default=None,
                          help="the backend of the runs on several workers")
        each.add_argument("--per-worker", type=int, default=None)
        each.add_argument("--sweep", type=int, nargs="*", default=SWEEP,
                          help="--per-worker values of the granularity sweep (none: skip)")
        each.add_argument("--sweep-n", type=int, default=None,
                          help="N-Queens: a smaller n for the sweep")
        each.add_argument("--simulate-for", type=int, default=64, metavar="P",
                          help="cut the simulation's input run as for P workers (default 64)")
        each.add_argument("--simulate-budget", type=int, default=None, metavar="NODES",
                          help="the node budget of the simulation's input run "
                          "(default: --budget)")
        each.add_argument("--virtual", type=int, nargs="*", default=VIRTUAL, metavar="P",
                          help="also run the real scheduler on these numbers of virtual "
                          "workers (none: skip; default %(default)s)")
        each.add_argument("--no-plots", action="store_true")
    stop = sub.add_parser("cancel", help="how promptly solve stops")
    stop.add_argument("--n", type=int, default=20, help="N-Queens size (reference kernel)")
    stop.add_argument("--sudoku", type=input_file, default=None, help="a Sudoku file as well")
    stop.add_argument("--index", type=int, default=0)
    stop.add_argument("--remove", type=int, default=2)
    stop.add_argument("--workers", type=int, default=2)
    stop.add_argument("--runs", type=int, default=5)
    mem = sub.add_parser("memory", help="peak RSS of parent and workers")
    mem.add_argument("--n", type=int, default=18)
    mem.add_argument("--workers", type=int, default=2)
    mem.add_argument("--seconds", type=float, default=60.0)
    mem.add_argument("--interval", type=float, default=0.5)
    mem.add_argument("command", nargs="*", help="after --: python arguments to measure instead")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.problem == "memory":
        return memory(args)
    if args.problem == "cancel":
        return cancel(args)
    if args.problem == "nqueens":
        tag = "".join(f"_{part}" for part in (args.backend, args.budget and f"b{args.budget}")
                      if part)
        return experiment(args, f"nqueens_n{args.n}{tag}", f"N-Queens n = {args.n}",
                          nqueens_argv)
    tag = "".join(f"_{part}" for part in (args.backend, args.budget and f"b{args.budget}")
                  if part)
    return experiment(args, f"sudoku_{args.file.stem}_{args.index}_minus{args.remove}{tag}",
                      f"Sudoku {args.file.stem} #{args.index} minus {args.remove} givens",
                      sudoku_argv)


if __name__ == "__main__":
    run_script(main)
