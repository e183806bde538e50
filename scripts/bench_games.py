"""Benchmarks of the games package: prints tables, writes JSON.

1. Connect-Four "middle, medium" positions (Pascal Pons' Test_L2_R2, with his
   published scores): mean time per position of the numba solver and of
   scripts/c4_solver.c (the same algorithm, compiled here with cc -O2),
   interleaved in rounds; Pons reports 52 ms for his C++ solver.
2. Parallel alpha-beta (Young Brothers Wait) at 1 and 2 workers on a random
   tree and on a Connect-Four position: sequential and parallel interleaved,
   medians, with the load average.
3. 6 x 6 from the empty board (second player wins) at 1 and 2 workers.
4. The memory of a process holding the default 64 MB table.

usage: PYTHONPATH=. python scripts/bench_games.py [--quick] [--json OUT]
       (OUT: results/bench_games.json by default)
       PYTHONPATH=. python scripts/bench_games.py --pons   (every line of Pons' four
       sets against the published scores: positions, mismatches, mean ms and nodes)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from parallel_backtrack._cli import kill_worker_pools
from parallel_backtrack.engine import make_executor
from parallel_backtrack.engine.virtual import STOP_AFTER
from parallel_backtrack.games.connect4.board import Board
from parallel_backtrack.games.connect4.parallel import parallel_solve
from parallel_backtrack.games.connect4.solver import Solver

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _args import Parser, int_list, run_script
from _machine import machine  # noqa: E402

from parallel_backtrack.games.chain import search_task
from parallel_backtrack.games.randomtree import RandomTree
from parallel_backtrack.games.search import alphabeta
from parallel_backtrack.games.ybw import YoungBrothersWait, parallel_alphabeta

ROOT = Path(__file__).resolve().parents[1]
PONS = ROOT / "tests" / "data" / "search" / "connect4"
PONS_SETS = ["Test_L3_R1.txt", "Test_L2_R1.txt", "Test_L2_R2.txt", "Test_L1_R1.txt"]
POSITIONS = PONS / "Test_L2_R2.txt"
C_SOURCE = ROOT / "scripts" / "c4_solver.c"
PONS_MS = 52.0


def read_positions(limit: int | None) -> list[tuple[str, int]]:
    rows = [line.split() for line in POSITIONS.read_text().splitlines() if line.strip()]
    return [(m, int(s)) for m, s in rows][:limit]


def big_tree(branching: int, depth: int, seed: int = 1) -> str:
    """One line of the alpha-beta text format: a uniform tree, names ``Root``,
    ``Node1``, ..., leaf values -999..999 from ``random.Random(seed)``."""
    rng = random.Random(seed)
    nodes, edges, level, count = [], [], ["Root"], 1
    for ply in range(depth):
        kind = "MAX" if ply % 2 == 0 else "MIN"
        nodes += [f"({name},{kind})" for name in level]
        below = []
        for name in level:
            for _ in range(branching):
                if ply == depth - 1:
                    edges.append(f"({name},{rng.randint(-999, 999)})")
                else:
                    child = f"Node{count}"
                    count += 1
                    edges.append(f"({name},{child})")
                    below.append(child)
        level = below
    return "{" + ",".join(nodes) + "} {" + ",".join(edges) + "}\n"


def check_pons() -> list[dict]:
    """Every position of Pons' four sets, solved sequentially (the table kept between
    positions, as a batch run keeps it) and compared with the published score."""
    board, solver, rows = Board(), Solver(Board(), 64), []
    Solver.warm()
    for name in PONS_SETS:
        lines = [line.split() for line in (PONS / name).read_text().splitlines() if line]
        start, nodes, wrong = time.perf_counter(), 0, 0
        for moves, score in lines:
            found, count = solver.solve(board.parse(moves))
            nodes += count
            wrong += found != int(score)
        seconds = time.perf_counter() - start
        rows.append({"set": name, "positions": len(lines), "mismatches": wrong,
                     "mean_ms": seconds / len(lines) * 1e3, "mean_nodes": nodes / len(lines)})
    return rows


def compile_c(folder: str) -> str:
    binary = os.path.join(folder, "c4_solver")
    subprocess.run(["cc", "-O2", "-o", binary, str(C_SOURCE)], check=True)
    return binary


def run_c(binary: str, moves: list[str]) -> list[tuple[int, int, float]]:
    done = subprocess.run([binary, "7", "6", "64"], input="\n".join(moves) + "\n",
                          capture_output=True, text=True, check=True)
    return [(int(s), int(n), float(us) / 1e6) for s, n, us in
            (line.split() for line in done.stdout.splitlines())]


def run_numba(solver: Solver, board: Board, moves: list[str]) -> list[tuple[int, int, float]]:
    rows = []
    for text in moves:
        position = board.parse(text)
        solver.reset()
        start = time.perf_counter()
        score, nodes = solver.solve(position)
        rows.append((score, nodes, time.perf_counter() - start))
    return rows


def bench_connect4(positions: list[tuple[str, int]], rounds: int) -> dict:
    board, solver = Board(), Solver(Board(), 64)
    Solver.warm()
    moves = [m for m, _ in positions]
    c_means, py_means, mismatches = [], [], 0
    with tempfile.TemporaryDirectory() as folder:
        binary = compile_c(folder)
        for _ in range(rounds):  # interleaved: C, numba, C, numba ...
            c_rows = run_c(binary, moves)
            py_rows = run_numba(solver, board, moves)
            c_means.append(statistics.mean(r[2] for r in c_rows))
            py_means.append(statistics.mean(r[2] for r in py_rows))
            mismatches += sum(c[0] != p[0] or c[1] != p[1] or c[0] != e
                              for c, p, (_, e) in zip(c_rows, py_rows, positions))
    c_ms, py_ms = statistics.median(c_means) * 1e3, statistics.median(py_means) * 1e3
    return {"positions": len(moves), "rounds": rounds, "numba_ms": py_ms, "c_ms": c_ms,
            "ratio": py_ms / c_ms, "pons_cpp_ms": PONS_MS,
            "mean_nodes": statistics.mean(r[1] for r in py_rows),
            "mismatches": mismatches}


def bench_random(branching: int, depth: int, seed: int, rounds: int, split: int) -> dict:
    game = RandomTree(branching, depth, seed)
    executor = make_executor(2)
    parallel_alphabeta(RandomTree(3, 4, 0), executor=executor)  # start the pool
    seq, par, nodes = [], [], {}
    try:
        for _ in range(rounds):
            start = time.perf_counter()
            plain = alphabeta(game, game.initial)
            seq.append(time.perf_counter() - start)
            found = parallel_alphabeta(game, executor=executor, split_depth=split)
            par.append(found.seconds)
            assert found.value == plain.value, "parallel and sequential values differ"
            nodes = {"sequential": plain.nodes, "parallel": found.nodes, "tasks": found.tasks}
    finally:
        executor.close()
    return {"tree": f"b={branching} d={depth} seed={seed}", "split_depth": split,
            "seq_s": statistics.median(seq), "par_s": statistics.median(par),
            "speedup": statistics.median(s / p for s, p in zip(seq, par)),
            "overhead": nodes["parallel"] / nodes["sequential"], **nodes,
            "load": os.getloadavg()}


_ONE = ("import time\nfrom parallel_backtrack.games import RandomTree, alphabeta\n"
        "g = RandomTree({b}, {d}, {s})\nt = time.perf_counter()\nalphabeta(g, g.initial)\n"
        "print(time.perf_counter() - t)\n")


def ceiling(branching: int, depth: int, seed: int) -> dict:
    """What 2 processes can get from this machine now: one sequential search alone,
    then two copies at once.  ``2 * alone / together`` is the speedup two perfectly
    parallel workers could reach at this moment (2.0 on an idle 2-core machine)."""
    code = _ONE.format(b=branching, d=depth, s=seed)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def start() -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                                text=True, env=env)

    alone = float(start().communicate()[0])
    pair = [start(), start()]
    together = max(float(p.communicate()[0]) for p in pair)
    return {"alone_s": alone, "together_s": together, "ceiling": 2 * alone / together,
            "load": os.getloadavg()}


def _timed_task(*args):
    start = time.time()
    value, nodes, pv = search_task(*args)
    return value, nodes, [("span", start, time.time())]


def concurrency(branching: int, depth: int, seed: int, split: int) -> dict:
    """How many tasks ran at once, over the run (2 workers): a figure the machine's
    load does not inflate the way it inflates seconds."""
    game, spans = RandomTree(branching, depth, seed), []
    executor = make_executor(2)
    parallel_alphabeta(RandomTree(3, 4, 0), executor=executor)
    run = YoungBrothersWait(game, executor, split_depth=split, runner=_timed_task)
    deliver = run._deliver

    def keep(node, action, value, pv):
        if pv and isinstance(pv[-1], tuple) and pv[-1][0] == "span":
            spans.append(pv[-1][1:])
            pv = pv[:-1]
        deliver(node, action, value, pv)

    run._deliver = keep
    start = time.time()
    try:
        run.run(game.initial)
    finally:
        executor.close()
    wall = time.time() - start
    events = sorted([(s, 1) for s, _ in spans] + [(e, -1) for _, e in spans])
    level, last, share = 0, start, {0: 0.0, 1: 0.0, 2: 0.0}
    for moment, step in events:
        share[min(level, 2)] += moment - last
        level, last = level + step, moment
    share[0] += start + wall - last
    return {"tree": f"b={branching} d={depth} seed={seed}", "wall_s": wall,
            "fraction_2_running": share[2] / wall, "fraction_1_running": share[1] / wall,
            "mean_running": sum(e - s for s, e in spans) / wall}


def _stop_after(text: str) -> float | None:
    """``--stop-after``: seconds, or ``whole`` (None)."""
    if text == "whole":
        return None
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds >= 0:
        raise argparse.ArgumentTypeError(f"expected seconds >= 0 or 'whole', got {text!r}")
    return seconds


def _ints(count: int, names: str) -> Callable[[str], list[int]]:
    """A ``type=`` for exactly ``count`` comma-separated integers, ``names`` in its message."""

    def read(text: str) -> list[int]:
        values = int_list(text)
        if len(values) != count:
            raise argparse.ArgumentTypeError(f"expected {names}, got {text!r}")
        return values

    return read


def _write_tree(text: str) -> tuple[int, int, str]:
    """``--write-tree B,D,OUT``."""
    parts = text.split(",", 2)
    if len(parts) == 3 and parts[2] and all(p.strip().isdigit() for p in parts[:2]):
        return int(parts[0]), int(parts[1]), parts[2]
    raise argparse.ArgumentTypeError(f"expected B,D,OUT, got {text!r}")


def _simulate_c4(text: str) -> tuple[str, int, int | None]:
    """``--simulate-c4 MOVES,SPLIT[,PROBES]``."""
    moves, *numbers = text.split(",")
    try:
        values = [int(n) for n in numbers]
    except ValueError:
        values = []
    if len(values) not in (1, 2):
        raise argparse.ArgumentTypeError(f"expected MOVES,SPLIT[,PROBES], got {text!r}")
    return moves, values[0], values[1] if len(values) == 2 else None


def _curve_point(workers: int, base: float, executor: Any) -> dict:
    """One row of a simulated curve: efficiency is the speedup over the one-worker
    clock divided by P; busy is the tasks' seconds over P x clock (a task still running
    when the value is known counts until it would stop, so it can pass 1); stopped, the
    seconds of work dropped tasks did not do (``VirtualExecutor.stopped``); renewed,
    those tasks whose window narrowed as they ran did not do (``renewed``)."""
    speedup = base / executor.clock
    return {"workers": workers, "clock_s": executor.clock, "speedup": speedup,
            "efficiency": speedup / workers, "busy": executor.efficiency(),
            "work_s": executor.busy, "stopped_s": executor.stopped,
            "renewed_s": executor.renewed}


def simulate(branching: int, depth: int, seed: int, split: int,
             workers: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64),
             virtual: dict[str, Any] | None = None) -> list[dict]:
    """Young Brothers Wait on P virtual workers (engine/virtual.py): every task runs
    here and is timed; a virtual clock says when it would end on P workers.  A task
    runs at submit with the bounds known then; one whose window narrowed while it ran
    is run again with it, and ends at the sooner of the two (``VirtualExecutor.renew``:
    an upper bound of a real task, which narrows its window at its next look); one
    dropped after a cut stops in virtual time as a real one does at its next look
    (``VirtualExecutor.cancel``).  ``virtual``: the pool's options (``stop_after``,
    ``renew``, ``dispatch``)."""
    from parallel_backtrack.engine import VirtualExecutor

    game, rows, base = RandomTree(branching, depth, seed), [], None
    for count in workers:
        executor = VirtualExecutor(count, **(virtual or {}))
        found = parallel_alphabeta(game, executor=executor, split_depth=split)
        base = base or executor.clock
        rows.append({**_curve_point(count, base, executor),
                     "nodes": found.nodes, "tasks": found.tasks})
    return rows


def simulate_c4(moves: str, split: int,
                workers: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64),
                probes: int | None = None,
                virtual: dict[str, Any] | None = None) -> list[dict]:
    """The same on Connect-Four: each probe's tasks run here on one table (as the
    workers' shared table), timed; the virtual clock gives P workers' time."""
    from parallel_backtrack.engine import VirtualExecutor

    board, rows, base = Board(), [], None
    Solver.warm()
    parallel_solve(board, board.parse("11223"), executor=VirtualExecutor(1), tt_mb=64)
    for count in workers:
        executor = VirtualExecutor(count, **(virtual or {}))
        found = parallel_solve(board, board.parse(moves), executor=executor, tt_mb=64,
                               split_depth=split, helpers=False,  # no twins when simulated
                               probes=probes)
        base = base or executor.clock
        rows.append({**_curve_point(count, base, executor),
                     "nodes": found.nodes, "tasks": found.tasks, "probes": found.probes,
                     "score": found.score})
    return rows


def bench_c4_parallel(moves: str, rounds: int, width: int = 7, height: int = 6,
                      split: int = 4, weak: bool = False,
                      helpers: tuple[bool, ...] = (True,)) -> list[dict]:
    """Sequential and 2-worker solves alternate, one 2-worker solve per ``helpers``
    setting each round (helper twins on or off); one row per setting."""
    board = Board(width, height)
    position = board.parse(moves)
    executor = make_executor(2)
    parallel_solve(board, board.parse("11223"), executor=executor, tt_mb=64)  # warm
    seq: list[float] = []
    par: dict[bool, list[float]] = {h: [] for h in helpers}
    result: dict[bool, dict] = {}
    try:
        for _ in range(rounds):
            solver = Solver(board, 64)
            start = time.perf_counter()
            score, nodes = solver.solve(position, weak)
            seq.append(time.perf_counter() - start)
            for setting in helpers:
                found = parallel_solve(board, position, executor=executor, tt_mb=64,
                                       split_depth=split, weak=weak, helpers=setting)
                par[setting].append(found.seconds)
                assert found.score == score, "parallel and sequential scores differ"
                result[setting] = {"score": score, "seq_nodes": nodes,
                                   "par_nodes": found.nodes, "tasks": found.tasks,
                                   "twins": found.twins}
    finally:
        executor.close()
    return [{"position": moves or "(empty)", "board": f"{width}x{height}", "weak": weak,
             "helpers": setting, "seq_s": statistics.median(seq),
             "par_s": statistics.median(par[setting]),
             "speedup": statistics.median(s / p for s, p in zip(seq, par[setting])),
             "speedups": [s / p for s, p in zip(seq, par[setting])],
             "overhead": result[setting]["par_nodes"] / result[setting]["seq_nodes"],
             **result[setting], "load": os.getloadavg()} for setting in helpers]


def memory_mb() -> float:
    import psutil

    solver = Solver(Board(), 64)
    solver.table[:] = 1  # touch every page, as a long run does
    return psutil.Process().memory_info().rss / 2**20


def main() -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write-tree", type=_write_tree, default=None, metavar="B,D,OUT",
                        help="only: write a uniform tree (branching B, depth D) to OUT")
    parser.add_argument("--pons", action="store_true",
                        help="only: every line of Pons' four sets against his scores")
    parser.add_argument("--quick", action="store_true", help="fewer positions and rounds")
    parser.add_argument("--skip-66", action="store_true", help="skip 6x6 from empty")
    parser.add_argument("--c4-position", default="4453222", help="the parallel C4 position")
    parser.add_argument("--tree", type=_ints(3, "B,D,SEED"), default="8,9,1",
                        help="random tree b,d,seed")
    parser.add_argument("--skip-tree", action="store_true",
                        help="skip the random tree, the ceiling and the concurrency figures")
    parser.add_argument("--json", type=Path, default=ROOT / "results" / "bench_games.json",
                        help="JSON output file (default: results/bench_games.json)")
    parser.add_argument("--simulate", type=_ints(4, "B,D,SEED,SPLIT"), default=None,
                        metavar="B,D,SEED,SPLIT",
                        help="only the simulated curve to 64 workers on this random tree")
    parser.add_argument("--simulate-c4", type=_simulate_c4, default=None,
                        metavar="MOVES,SPLIT[,PROBES]",
                        help="only the simulated curve to 64 workers on this position "
                             "(PROBES: null-window probes at once; default by workers)")
    parser.add_argument("--workers", type=int_list, default="1,2,4,8,16,32,64",
                        metavar="P,P,...",
                        help="the simulated pool sizes (the first is the base)")
    parser.add_argument("--stop-after", default=STOP_AFTER, type=_stop_after,
                        metavar="SECONDS|whole",
                        help="simulated: seconds a dropped task runs on after it is "
                             f"cancelled (default {STOP_AFTER}); 'whole': it runs to its end")
    parser.add_argument("--no-renew", action="store_true",
                        help="simulated: a task whose window narrowed while it ran "
                             "keeps the time it took with the window it was sent with")
    parser.add_argument("--dispatch", type=float, default=0.0, metavar="SECONDS",
                        help="simulated: parent seconds a task beyond pickling, for a real "
                             "pool's own cost (scripts/bench_pool_cost.py; default 0)")
    args = parser.parse_args()
    args.json.parent.mkdir(parents=True, exist_ok=True)
    if args.write_tree:
        b, d, target = args.write_tree
        Path(target).write_text(big_tree(b, d))
        return 0
    if args.pons:
        checked = check_pons()
        print("| set | positions | mismatches | mean ms | mean nodes |\n|---|---|---|---|---|")
        for row in checked:
            print(f"| {row['set']} | {row['positions']} | {row['mismatches']} | "
                  f"{row['mean_ms']:.2f} | {row['mean_nodes']:,.0f} |")
        Path(args.json).write_text(json.dumps({"machine": machine(), "pons": checked},
                                              indent=1))
        return 1 if any(row["mismatches"] for row in checked) else 0
    if args.simulate or args.simulate_c4:
        sizes = tuple(args.workers)
        virtual = {"stop_after": args.stop_after, "renew": not args.no_renew,
                   "dispatch": args.dispatch}
        if args.simulate_c4:
            moves, split, probes = args.simulate_c4
            rows = simulate_c4(moves, split, sizes, probes, virtual)
            title = f"Connect-Four {moves}, split depth {split}"
            if probes is not None:
                title += f", {probes} probes at once"
        else:
            b, d, s, split = args.simulate
            rows = simulate(b, d, s, split, sizes, virtual)
            title = f"random tree b={b} d={d} seed={s}, split depth {split}"
        print(f"simulated Young Brothers Wait, {title}\n"
              "| workers | virtual s | speedup | efficiency | busy | work s | stopped s "
              "| renewed s | nodes | tasks |\n|---|---|---|---|---|---|---|---|---|---|")
        for row in rows:
            print(f"| {row['workers']} | {row['clock_s']:.2f} | {row['speedup']:.2f} | "
                  f"{row['efficiency']:.2f} | {row['busy']:.2f} | {row['work_s']:.2f} | "
                  f"{row['stopped_s']:.2f} | {row['renewed_s']:.2f} | {row['nodes']:,} | "
                  f"{row['tasks']} |")
        Path(args.json).write_text(json.dumps({"machine": machine(), "simulated": rows},
                                              indent=1))
        return 0
    rounds = 1 if args.quick else 3
    out = {"machine": machine()}
    print(f"machine: {out['machine']}")
    positions = read_positions(30 if args.quick else None)
    c4 = out["connect4_middle_medium"] = bench_connect4(positions, rounds)
    print(f"\n| solver | mean ms / position ({c4['positions']} positions) |\n|---|---|\n"
          f"| numba (this package) | {c4['numba_ms']:.2f} |\n| C, same algorithm (cc -O2) | "
          f"{c4['c_ms']:.2f} |\n| ratio numba / C | {c4['ratio']:.2f} |\n| Pons' C++ "
          f"(published) | {PONS_MS:.0f} |\nmean nodes {c4['mean_nodes']:,.0f}; scores or "
          f"node counts that differ from C or the file: {c4['mismatches']}")
    b, d, s = args.tree
    rows = [] if args.skip_tree else [bench_random(b, d, s, rounds, 3)]
    rows += bench_c4_parallel(args.c4_position, rounds, helpers=(False, True))
    if not args.skip_66:
        rows += bench_c4_parallel("", 1, 6, 6, split=4, weak=True)
    out["parallel"] = rows
    print("\n| search | sequential s | 2 workers s | speedup | node overhead | load |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        name = row.get("tree") or (f"connect4 {row['board']} {row['position']}, helper "
                                    f"twins {'on' if row['helpers'] else 'off'}")
        print(f"| {name} | {row['seq_s']:.2f} | {row['par_s']:.2f} | {row['speedup']:.2f} | "
              f"{row['overhead']:.3f} | {row['load'][0]:.2f} |")
    if args.skip_tree:
        Path(args.json).write_text(json.dumps(out, indent=1, sort_keys=True))
        print(f"wrote {args.json}")
        kill_worker_pools()
        return 0
    top = out["ceiling"] = ceiling(b, d - 1, s)
    print(f"\ntwo copies of the sequential search at once (b={b} d={d - 1}): alone "
          f"{top['alone_s']:.2f} s, together {top['together_s']:.2f} s: the machine "
          f"offers 2 processes a speedup of at most {top['ceiling']:.2f} now")
    busy = out["concurrency"] = concurrency(b, d, s, 3)
    print(f"\ntasks running at once, {busy['tree']}, 2 workers: mean "
          f"{busy['mean_running']:.2f}; both busy {100 * busy['fraction_2_running']:.0f}% "
          f"of the run, one {100 * busy['fraction_1_running']:.0f}%")
    out["memory_mb_64mb_table"] = memory_mb()
    print(f"\nprocess RSS with the default 64 MB table touched: "
          f"{out['memory_mb_64mb_table']:.0f} MB")
    Path(args.json).write_text(json.dumps(out, indent=1, sort_keys=True))
    print(f"wrote {args.json}")
    kill_worker_pools()
    return 0


if __name__ == "__main__":
    run_script(main)
