"""Sliding-puzzle benchmark: Korf's 100 with 6-6-3, the 80-move positions, the node
rate against a C IDA*, the 2-worker speedup, A* on the CS61B files, memory.

Sections (``--only a,b``):

korf
    All 100 of Korf's instances (blank-first goal), IDA* with ``--heuristic``
    (pdb-663 or pdb-78, with reflection), one puzzle per task over ``--workers``
    processes: the wall time of the batch, every instance's nodes and length
    (checked against the file), and the mean nodes next to Korf & Felner's
    (617,555 for 6-6-3, 36,710 for 7-8).
korfnodes
    The node counts of Korf's 100 with ``--heuristic`` three ways (stopping at
    the first solution; the last iteration completed; without the reflection)
    and the root's h with and without reflection.
hard80
    The 17 positions that need 80 moves, ``--heuristic``, one after the other;
    time each (``--hard80-positions 1,2`` for some).
rate
    Manhattan IDA* on one core: our kernel and ``scripts/sliding_ida.c`` (the same
    shape, compiled here with ``cc -O2``) on the same instances, interleaved,
    ``--repeats`` times; the median ratio of node rates.
speedup
    Manhattan IDA* on ``--speedup-instances`` (default: the 10 hardest of Korf's
    100 under ``--speedup-max-nodes``), sequential and parallel on 2 workers,
    interleaved; the load average is recorded (the machine may be shared).
astar
    A* with its default heuristic (``--astar-heuristic``, default ``auto``; the
    6-6-3 database is built first if absent, outside the timing) on all 141
    CS61B files, one worker, every path replayed: the total time, the peak
    resident memory of the process and the five slowest files.
simulate
    The same parallel IDA* on ``engine.VirtualExecutor`` (tasks run here and are
    timed; a virtual clock schedules them on P workers) for ``--simulate-workers``
    (default P = 1, 2, 4, 8, 16, 32, 64, 256), Manhattan on ``--simulate-instances``:
    simulated speedup, efficiency, tasks, the parent's seconds, nodes.
memory
    Peak RSS / USS of the command line and each worker solving 20 Korf instances
    with 6-6-3 on 2 workers.

    python scripts/bench_sliding.py                 # everything
    python scripts/bench_sliding.py --only rate,speedup --repeats 3

Prints a table per section and adds its sections to ``results/bench_sliding.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _args import Parser, int_list, name_list, run_script  # noqa: E402 - scripts/ is sys.path[0]
from _data import data_folder  # noqa: E402
from _machine import machine  # noqa: E402

from parallel_backtrack.sliding import Board  # noqa: E402
from parallel_backtrack.sliding.batch import run_batch  # noqa: E402
from parallel_backtrack.sliding.heuristics import tables_for  # noqa: E402
from parallel_backtrack.sliding.ida import solve, solve_parallel  # noqa: E402
from parallel_backtrack.sliding.jobs import Job, replays, solve_job  # noqa: E402

DATA = data_folder() / "search"  # PARALLEL_BACKTRACK_DATA, else tests/data
RESULTS = ROOT / "results"
KORF_FELNER = {"pdb-663": 617_555, "pdb-78": 36_710}  # mean nodes, Korf's 100


def korf_rows() -> list[list[int]]:
    return [[int(w) for w in line.split()] for line in (DATA / "korf100.txt").read_text()
            .splitlines() if line and not line.startswith("#")]


def korf_section(workers: int, heuristic: str) -> dict[str, Any]:
    tables_for(4, heuristic)
    rows = korf_rows()
    jobs = [Job("korf", r[0], tuple(r[1:17]), r[17], "blank-first", "ida", heuristic)
            for r in rows]
    started = time.perf_counter()
    outcomes = list(run_batch(jobs, workers, None, None))
    wall = time.perf_counter() - started
    for job, o in zip(jobs, outcomes):
        assert o["moves"] == job.expected and replays(job.tiles, "blank-first", o["solution"])
    nodes = [o["nodes"] for o in outcomes]
    print(f"\nKorf 100, {heuristic} + reflection, {workers} workers: {wall:.2f} s wall, all "
          f"optimal; mean nodes {statistics.mean(nodes):,.0f} (Korf & Felner: "
          f"{KORF_FELNER.get(heuristic, 0):,}); load {os.getloadavg()[0]:.2f}")
    return {"workers": workers, "heuristic": heuristic, "wall_s": wall,
            "mean_nodes": statistics.mean(nodes), "load1": os.getloadavg()[0],
            "per_instance": [{"id": j.line, "moves": o["moves"], "nodes": o["nodes"],
                              "seconds": o["seconds"]} for j, o in zip(jobs, outcomes)]}


def _counts(tiles: tuple[int, ...], heuristic: str) -> dict[str, int]:
    """One instance's node counts three ways, and its root h with and without reflection."""
    from dataclasses import replace

    from parallel_backtrack.sliding import heuristics
    from parallel_backtrack.sliding.space import Pass

    board = Board(tiles, "blank-first")
    first = solve(board, heuristic)
    complete = solve(board, heuristic, complete_last=True)
    tables = tables_for(4, heuristic)
    plain = replace(tables, reflect=False)
    heuristics._CACHE[(4, heuristic + "/plain")] = plain  # the same tables, no reflection
    without = solve(board, heuristic + "/plain")
    return {"moves": len(first.moves or ""), "nodes": first.nodes,
            "nodes_complete_last": complete.nodes, "nodes_no_reflection": without.nodes,
            "h0": Pass(tables, tiles).h0, "h0_plain": Pass(plain, tiles).h0}


def korfnodes_section(workers: int, heuristic: str) -> dict[str, Any]:
    from parallel_backtrack.engine import make_executor

    tables_for(4, heuristic)
    rows = korf_rows()
    pool = make_executor(workers, "loky")
    try:
        found = [f.result() for f in [pool.submit(_counts, tuple(r[1:17]), heuristic)
                                      for r in rows]]
    finally:
        pool.close()
    for row, counts in zip(rows, found):
        assert counts["moves"] == row[17]
    mean = {key: statistics.mean(c[key] for c in found) for key in found[0]}
    print(f"\nKorf 100, {heuristic}, mean per instance: nodes generated {mean['nodes']:,.0f}, "
          f"with the last iteration completed {mean['nodes_complete_last']:,.0f}; without "
          f"the reflection {mean['nodes_no_reflection']:,.0f} "
          f"(Korf & Felner: {KORF_FELNER.get(heuristic, 0):,}); root h {mean['h0']:.3f} with "
          f"reflection, {mean['h0_plain']:.3f} without")
    return {"heuristic": heuristic, "mean": mean,
            "per_instance": [{"id": r[0], **c} for r, c in zip(rows, found)]}


def hard80_section(heuristic: str, positions: list[int] | None) -> dict[str, Any]:
    tables_for(4, heuristic)
    rows = []
    print(f"\n{heuristic}, load {os.getloadavg()[0]:.2f}\n"
          "| position | moves | nodes | s |\n|---|---|---|---|")
    for index, line in enumerate(l for l in (DATA / "15puzzle_80moves.txt").read_text()
                                 .splitlines() if l and not l.startswith("#")):
        if positions and index + 1 not in positions:
            continue
        tiles = tuple(int(w) for w in line.split()[:16])
        result = solve(Board(tiles), heuristic)
        assert len(result.moves or "") == 80 and replays(tiles, "blank-last", result.moves or "")
        rows.append({"position": index + 1, "nodes": result.nodes, "seconds": result.seconds})
        print(f"| {index + 1} | 80 | {result.nodes:,} | {result.seconds:.2f} |", flush=True)
    total = sum(r["seconds"] for r in rows)
    print(f"total {total:.1f} s, mean {total / len(rows):.1f} s per position")
    return {"heuristic": heuristic, "rows": rows, "load_after": os.getloadavg()[0]}


def _c_binary() -> str:
    if shutil.which("cc") is None:
        raise SystemExit("the rate section needs a C compiler (cc)")
    out = Path(tempfile.mkdtemp()) / "sliding_ida"
    subprocess.run(["cc", "-O2", "-o", str(out), str(Path(__file__).with_name("sliding_ida.c"))],
                   check=True)
    return str(out)


def rate_section(ids: list[int], repeats: int) -> dict[str, Any]:
    binary, rows = _c_binary(), {r[0]: r for r in korf_rows()}
    solve(Board(tuple(rows[12][1:17]), "blank-first"), "manhattan")  # load the kernel
    ratios, table = [], []
    for _ in range(repeats):
        for number in ids:
            tiles = tuple(rows[number][1:17])
            ours = solve(Board(tiles, "blank-first"), "manhattan")
            done = subprocess.run([binary], input=" ".join(map(str, tiles)), text=True,
                                  capture_output=True, check=True)
            length, c_nodes, c_seconds = done.stdout.split()
            assert int(c_nodes) == ours.nodes == rows[number][20]
            ratio = (ours.nodes / ours.seconds) / (int(c_nodes) / float(c_seconds))
            ratios.append(ratio)
            table.append({"id": number, "nodes": ours.nodes, "ours_s": ours.seconds,
                          "c_s": float(c_seconds), "ratio": ratio})
    median = statistics.median(ratios)
    ours = statistics.median(r["nodes"] / r["ours_s"] for r in table) / 1e6
    theirs = statistics.median(r["nodes"] / r["c_s"] for r in table) / 1e6
    print(f"\nManhattan node rate, numba / C (same nodes, {len(ratios)} interleaved runs): "
          f"median {median:.2f}x (ours {ours:.1f} M/s, C {theirs:.1f} M/s)")
    return {"median_ratio": median, "runs": table}


def _parallel_row(number: int, one: Any, board: Board, pool: Any, warm: Board,
                  complete: bool, order: str) -> dict[str, Any]:
    """One timed 2-worker run of Korf #number against its sequential run ``one``."""
    # loky retires workers idle for 300 s: wake them (untimed) after a long run
    solve_parallel(warm, "manhattan", executor=pool, parent_nodes=0)
    load = os.getloadavg()[0]
    two = solve_parallel(board, "manhattan", executor=pool, complete_last=complete, order=order)
    assert not complete or one.nodes == two.nodes
    print(f"Korf #{number}, order {order}: {one.seconds:.1f} s -> {two.seconds:.1f} s = "
          f"{one.seconds / two.seconds:.2f}x ({one.nodes:,} / {two.nodes:,} nodes, "
          f"load {load:.2f})", flush=True)
    return {"id": number, "order": order, "seq_s": one.seconds, "par_s": two.seconds,
            "load1": load, "seq_nodes": one.nodes, "par_nodes": two.nodes,
            "moves": two.moves or ""}


def speedup_section(ids: list[int], repeats: int, complete: bool = False,
                    orders: tuple[str, ...] = ("tree",)) -> dict[str, Any]:
    from parallel_backtrack.engine import make_executor

    rows = {r[0]: r for r in korf_rows()}
    pool = make_executor(2, "loky")
    table: list[dict[str, Any]] = []
    warm = Board(tuple(rows[12][1:17]), "blank-first")  # start the workers, load the kernel
    solve_parallel(warm, "manhattan", executor=pool, parent_nodes=0)
    try:
        for _ in range(repeats):
            for number in ids:
                board = Board(tuple(rows[number][1:17]), "blank-first")
                one = solve(board, "manhattan", complete_last=complete)
                for order in orders:
                    table.append(_parallel_row(number, one, board, pool, warm, complete, order))
                    assert len(table[-1]["moves"]) == len(one.moves or "") == rows[number][17]
    finally:
        pool.close()
    what = " (last iteration completed: same nodes)" if complete else ""
    summary: dict[str, Any] = {"complete_last": complete, "runs": table}
    for order in orders:
        runs = [r for r in table if r["order"] == order]
        total_seq, total_par = sum(r["seq_s"] for r in runs), sum(r["par_s"] for r in runs)
        median = statistics.median(r["seq_s"] / r["par_s"] for r in runs)
        print(f"\n2-worker speedup{what}, task order {order}, Manhattan, Korf {ids}: total "
              f"{total_seq:.1f} s -> {total_par:.1f} s = {total_seq / total_par:.2f}x (median "
              f"per instance {median:.2f}x; load average {os.getloadavg()})")
        summary[order] = {"speedup_total": total_seq / total_par, "median": median}
    return summary


def astar_section(heuristic: str = "auto") -> dict[str, Any]:
    files = sorted((DATA / "cs61b_puzzles").glob("puzzle*.txt"))
    if heuristic == "auto":
        tables_for(4, "pdb-663")  # the target assumes the 6-6-3 database is cached
    rows = []
    started = time.perf_counter()
    for path in files:
        tiles = tuple(int(w) for w in path.read_text().split()[1:])
        outcome = solve_job(Job(path.name, 1, tiles, None, "blank-last", "astar", heuristic))
        expected = int(path.stem.split("-")[-1].removeprefix("puzzle"))
        assert outcome["moves"] == expected and replays(tiles, "blank-last",
                                                        outcome["solution"]), path
        rows.append({"file": path.name, "n": outcome["n"], "moves": expected,
                     "heuristic": outcome["heuristic"], "seconds": outcome["seconds"],
                     "nodes": outcome["nodes"]})
    total = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\nA* (--heuristic {heuristic}) on {len(files)} CS61B files, one worker: "
          f"{total:.2f} s, peak RSS {peak:.0f} MB, load {os.getloadavg()[0]:.1f}")
    print("| file | n | moves | heuristic | enqueued | s |\n|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: -r["seconds"])[:5]:
        print(f"| {r['file']} | {r['n']} | {r['moves']} | {r['heuristic']} | "
              f"{r['nodes']:,} | {r['seconds']:.2f} |")
    return {"heuristic": heuristic, "total_s": total, "peak_rss_mb": peak, "rows": rows}


def simulate_section(ids: list[int], workers_list: list[int],
                     dispatch: float = 0.0) -> dict[str, Any]:
    """The real scheduler on ``VirtualExecutor(P)``; P = 1 is the sequential search (one
    process, no pool, timed by the virtual clock's timer: this thread's CPU time), so the
    speedup counts everything the parent does.  ``dispatch``: the parent's seconds a task
    beyond pickling (a real pool's own cost, ``scripts/bench_pool_cost.py``)."""
    from parallel_backtrack.engine import VirtualExecutor

    rows = {r[0]: r for r in korf_rows()}
    boards = {number: Board(tuple(rows[number][1:17]), "blank-first") for number in ids}
    warm = Board(tuple(rows[12][1:17]), "blank-first")  # load the kernels, the cut's too
    solve(warm, "manhattan", workers=2, executor=VirtualExecutor(2), parent_nodes=0)
    table = []
    print(f"\nKorf {ids}, Manhattan, load {os.getloadavg()[0]:.2f}\n"
          "| P | simulated s | speedup | efficiency | tasks | parent s | nodes |\n"
          "|---|---|---|---|---|---|---|")
    base = None
    for workers in workers_list:
        clock = parent = 0.0
        tasks = nodes = 0
        for number in ids:
            pool = VirtualExecutor(workers, dispatch=dispatch)
            began = time.thread_time()  # the virtual clock's timer: CPU time, not the wall
            result = solve(boards[number], "manhattan", workers=workers,
                           executor=pool if workers > 1 else None)
            assert len(result.moves or "") == rows[number][17]
            clock += pool.clock if workers > 1 else time.thread_time() - began
            parent += pool.parent if workers > 1 else 0.0
            tasks += pool.tasks
            nodes += result.nodes
        base = base or clock
        table.append({"workers": workers, "clock_s": clock, "speedup": base / clock,
                      "efficiency": base / clock / workers, "tasks": tasks,
                      "parent_s": parent, "nodes": nodes})
        print(f"| {workers} | {clock:.3f} | {base / clock:.2f} | {base / clock / workers:.2f} "
              f"| {tasks:,} | {parent:.3f} | {nodes:,} |", flush=True)
    return {"instances": ids, "rows": table, "load1": os.getloadavg()[0]}


def memory_section() -> dict[str, Any]:
    from _memory import measure_memory

    lines = [" ".join(map(str, r[1:18])) for r in korf_rows()[:20]]
    path = Path(tempfile.mkdtemp()) / "korf20.txt"
    path.write_text("\n".join(lines) + "\n")
    argv = ["-m", "parallel_backtrack.sliding", str(path), "--goal", "blank-first",
            "--heuristic", "pdb", "--workers", "2", "--format", "rows"]
    found, _ = measure_memory(argv, 0.2, 300)
    print("\n| process | peak RSS MB | peak USS MB |\n|---|---|---|")
    for row in found:
        print(f"| {row['role']} | {row.get('rss_mb', row.get('peak_rss_mb', 0)):.0f} | "
              f"{row.get('uss_mb', row.get('peak_uss_mb', 0)):.0f} |")
    return {"processes": found}


SECTIONS = ("korf", "korfnodes", "hard80", "rate", "speedup", "astar", "simulate", "memory")


def korf_ids(text: str) -> list[int]:
    """``--*-instances``: comma-separated numbers of Korf's 100 instances (1-100)."""
    ids = int_list(text)
    if not all(1 <= i <= 100 for i in ids):
        raise argparse.ArgumentTypeError(f"Korf's instances are numbered 1-100, got {text!r}")
    return ids


def main() -> None:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", type=name_list(*SECTIONS),
                        default="korf,hard80,rate,speedup,astar,simulate,memory",
                        help="comma-separated sections to run, of " + ", ".join(SECTIONS)
                        + " (default: all but korfnodes)")
    parser.add_argument("--workers", type=int, default=2,
                        help="real workers of the korf and korfnodes sections (default 2)")
    parser.add_argument("--heuristic", default="pdb-663", choices=("pdb-663", "pdb-78"),
                        help="pattern databases of the korf, korfnodes and hard80 sections")
    parser.add_argument("--hard80-positions", type=int_list, default=None,
                        help="comma-separated positions (1-17) of hard80 (default: all)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs of the rate and speedup sections (default 3)")
    parser.add_argument("--rate-instances", type=korf_ids, default="13,16,2,5,6",
                        help="Korf instances of the rate section (default 13,16,2,5,6)")
    parser.add_argument("--speedup-instances", type=korf_ids, default=None,
                        help="Korf instances of the speedup section (default: the 10 "
                        "largest under --speedup-max-nodes)")
    parser.add_argument("--speedup-complete", action="store_true",
                        help="speedup with the last iteration completed (equal node counts)")
    parser.add_argument("--simulate-instances", type=korf_ids, default="4,50,40",
                        help="Korf instances of the simulate section (default 4,50,40)")
    parser.add_argument("--simulate-workers", type=int_list, default="1,2,4,8,16,32,64,256",
                        help="virtual pool sizes of the simulate section")
    parser.add_argument("--simulate-dispatch", type=float, default=0.0, metavar="SECONDS",
                        help="simulate: parent seconds a task beyond pickling, for a real "
                        "pool's own cost (scripts/bench_pool_cost.py; default 0)")
    parser.add_argument("--speedup-orders", type=name_list("tree", "size"), default="tree",
                        help="task orders to time, comma-separated: tree (the sequential "
                        "order, default), size (largest first)")
    parser.add_argument("--speedup-max-nodes", type=int, default=300_000_000,
                        help="speedup: the default instances have at most this many nodes")
    parser.add_argument("--astar-heuristic", default="auto",
                        help="A*'s heuristic (default: auto, its default, with 6-6-3 cached)")
    args = parser.parse_args()
    wanted = args.only
    results: dict[str, Any] = {"machine": machine(), "command": " ".join(sys.argv)}
    suffix = "" if args.heuristic == "pdb-663" else "_" + args.heuristic.replace("-", "")
    if "korf" in wanted:
        results["korf" + suffix] = korf_section(args.workers, args.heuristic)
    if "korfnodes" in wanted:
        results["korfnodes" + suffix] = korfnodes_section(args.workers, args.heuristic)
    if "hard80" in wanted:
        results["hard80" + suffix] = hard80_section(args.heuristic, args.hard80_positions)
    if "rate" in wanted:
        results["rate"] = rate_section(args.rate_instances, args.repeats)
    if "speedup" in wanted:
        ids = (args.speedup_instances if args.speedup_instances
               else [r[0] for r in sorted((r for r in korf_rows()
                                           if r[20] <= args.speedup_max_nodes),
                                          key=lambda r: -r[20])[:10]])
        key = "speedup_complete" if args.speedup_complete else "speedup"
        results[key] = speedup_section(ids, args.repeats, args.speedup_complete,
                                       tuple(args.speedup_orders))
    if "astar" in wanted:
        key = "astar" if args.astar_heuristic == "auto" else f"astar_{args.astar_heuristic}"
        results[key] = astar_section(args.astar_heuristic)
    if "simulate" in wanted:
        results["simulate"] = simulate_section(args.simulate_instances, args.simulate_workers,
                                               args.simulate_dispatch)
    if "memory" in wanted:
        results["memory"] = memory_section()
    results["machine"]["load_after"] = os.getloadavg()
    RESULTS.mkdir(exist_ok=True)
    target = RESULTS / "bench_sliding.json"
    # Sections run separately add up: each keeps its own machine line and command.
    merged = json.loads(target.read_text()) if target.exists() else {}
    for name, section in results.items():
        if isinstance(section, dict) and name not in ("machine",):
            section.setdefault("machine", results["machine"])
            section.setdefault("command", results["command"])
        merged[name] = section
    target.write_text(json.dumps(merged, indent=1))
    print(f"\nmachine: {results['machine']}\nwrote {RESULTS / 'bench_sliding.json'}")


if __name__ == "__main__":
    run_script(main)
