"""The 9x9 kernels per core against tdoku in the same run, and the whole-process figures.

Per core (this process pinned to one CPU, ``--cpu``; tdoku's own benchmark program
``run_benchmark`` runs on the same CPU, on the same puzzles, written to a temp file):
puzzles/s of ``solve_batch`` (first solution) and ``count_batch(limit=2)``
(uniqueness) for the band kernel (``bands``, the 9x9 default) and the general
kernel (``units``, the default before it), and of tdoku (``-t --tdoku-seconds``),
best and median of ``--repeats`` windows of ``--tdoku-seconds`` (ours: the batch
again until the window is full).  Each repeat times our kernels and then tdoku, so
a change of load on a shared machine meets both sides of a ratio; the ratio
column is the median over the repeats of ours over tdoku in the same repeat (in
brackets: best over best).  Every answer goes through an independent checker.

Sets: ``hard`` is forum-hardest-1106 (the 375 of tests/data) in eight copies, each
puzzle relabelled (a seeded random digit permutation) and transposed: 3,000;
``hard-published`` the same 375 as published, eight times; ``17-clue`` all
49,158 when ``PARALLEL_BACKTRACK_DATA`` holds the optional full set, else the
3,000 of tests/data.  ``orientation`` is the median rate on ``hard`` over the median
rate on ``hard-published``.

``--process`` adds the whole-process rows (this machine's cores, not pinned; the
package byte-compiled first, as an install is):
the command line on ``hard`` against the in-process time, ``--json`` on 17-clue,
the first run from an empty numba cache (``NUMBA_CACHE_DIR`` a fresh temp dir),
2 workers against 1, and the peak RSS of the 17-clue run.

    python scripts/bench_sudoku_tdoku.py --tdoku /path/to/tdoku/build/run_benchmark
    python scripts/bench_sudoku_tdoku.py --tdoku ... --process --repeats 5

No tdoku source is kept or built here: build it from its own repository elsewhere
(``cmake -DOPT=O3 -DARCH=native && make run_benchmark``) and pass the binary.
Writes ``results/bench_sudoku_tdoku.json`` and prints markdown tables.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _args import Parser, input_file, name_list, run_script  # noqa: E402 - scripts/ is sys.path[0]
from _data import data_folder  # noqa: E402 - scripts/ is sys.path[0]

from parallel_backtrack.sudoku.batch import (  # noqa: E402
    BATCH_PROPAGATIONS,
    count_batch,
    solve_batch,
)
from parallel_backtrack.sudoku.batch_io import read_batch  # noqa: E402
from parallel_backtrack.sudoku.kernel.propagate import PROPAGATION_CODES  # noqa: E402

SETS = ("hard", "hard-published", "17-clue")

DATA = data_folder() / "sudoku"  # PARALLEL_BACKTRACK_DATA, else tests/data
HARD_FILE = "tdoku_puzzles6_forum_hardest_1106.txt"
CLUE_FILE = ("tdoku_puzzles2_17_clue.txt" if (DATA / "tdoku_puzzles2_17_clue.txt").exists()
             else "tdoku_puzzles2_17_clue_head3000.txt")  # the full set is optional
COPIES, SEED = 8, 25


def valid_9x9(givens: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Independent checker: every row, column and box holds 1..9 once, givens kept."""
    grids = values.reshape(-1, 9, 9)
    boxes = grids.reshape(-1, 3, 3, 3, 3).transpose(0, 1, 3, 2, 4).reshape(-1, 9, 9)
    want = np.arange(1, 10)
    ok = [(np.sort(units, axis=2) == want).all(axis=(1, 2))
          for units in (grids, grids.transpose(0, 2, 1), boxes)]
    return ok[0] & ok[1] & ok[2] & ((givens == 0) | (givens == values)).all(axis=1)


def relabelled_transposed(givens: np.ndarray, copies: int, seed: int) -> np.ndarray:
    """``copies`` of every puzzle, each relabelled by its own random digit permutation
    and transposed."""
    rng = np.random.default_rng(seed)
    parts = []
    for _ in range(copies):
        labels = np.zeros((len(givens), 10), dtype=np.int64)
        for row in labels:
            row[1:] = rng.permutation(9) + 1
        moved = np.take_along_axis(labels, givens.astype(np.int64), axis=1)
        parts.append(moved.reshape(-1, 9, 9).transpose(0, 2, 1).reshape(-1, 81))
    return np.ascontiguousarray(np.vstack(parts), dtype=np.uint8)


def data_sets() -> dict[str, np.ndarray]:
    hard = np.asarray(read_batch(DATA / HARD_FILE).givens)
    return {
        "hard": relabelled_transposed(hard, COPIES, SEED),
        "hard-published": np.ascontiguousarray(np.tile(hard, (COPIES, 1))),
        "17-clue": np.asarray(read_batch(DATA / CLUE_FILE).givens),
    }


def timed(run: Callable[[], object], repeats: int) -> tuple[list[float], object]:
    seconds, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        result = run()
        seconds.append(time.perf_counter() - started)
    return seconds, result


def ours(givens: np.ndarray, propagation: str, mode: str,
         seconds: float) -> tuple[float, object]:
    """Puzzles/s of one timed window: the whole batch again until ``seconds`` have
    passed (at least once), and the last result."""
    def run() -> object:
        if mode == "solve":
            return solve_batch(givens, propagation=propagation)
        return count_batch(givens, propagation=propagation, limit=2)

    passes, started = 0, time.perf_counter()
    while True:
        result = run()
        passes += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return passes * len(givens) / elapsed, result


def check(givens: np.ndarray, result: object) -> float:
    """Every answer through the independent checker; the mean nodes per puzzle."""
    assert valid_9x9(givens, result.values).all(), "a wrong answer"  # type: ignore[attr-defined]
    assert (result.counts == 1).all(), "every puzzle here has one solution"  # type: ignore[attr-defined]
    return float(result.nodes.mean())  # type: ignore[attr-defined]


def summary(rates: list[float]) -> dict[str, float]:
    return {"best": max(rates), "median": statistics.median(rates), "rates": rates}  # type: ignore[dict-item]


def write_tdoku_file(givens: np.ndarray, folder: Path, name: str) -> Path:
    path = folder / f"{name}.txt"
    text = "\n".join("".join(str(v) if v else "." for v in row) for row in givens)
    path.write_text(text + "\n")
    return path


def tdoku(binary: str | Path, path: Path, puzzles: int, mode: str,
          seconds: int) -> tuple[float, float]:
    """One run of tdoku's own benchmark program on the file as given (``-r0``: no
    permutation): puzzles/s and guesses per puzzle."""
    command = [binary, "-s", "tdoku", "-r0", "-c1", "-w1", f"-t{seconds}", f"-n{puzzles}",
               *(["-f"] if mode == "solve" else []), str(path)]
    out = subprocess.run(command, capture_output=True, text=True, check=True,
                         timeout=300).stdout
    fields = [line for line in out.splitlines() if ",tdoku," in line][-1].split(",")
    return float(fields[-4]), float(fields[-1])


def per_core(args: argparse.Namespace, sets: dict[str, np.ndarray]) -> list[dict[str, object]]:
    """Each repeat times every kernel and then tdoku, one window of ``--tdoku-seconds``
    each, so a change of load on the shared machine meets both sides of a ratio."""
    rows: list[dict[str, object]] = []
    kernels = args.kernels
    with tempfile.TemporaryDirectory() as folder:
        for name, givens in sets.items():
            path = write_tdoku_file(givens, Path(folder), name)
            for mode in args.modes:
                row: dict[str, object] = {"set": name, "mode": mode, "puzzles": len(givens)}
                nodes = {}
                for propagation in kernels:  # compile or load, warm the caches, check
                    nodes[propagation] = check(givens, ours(givens, propagation, mode, 0)[1])
                rates: dict[str, list[float]] = {k: [] for k in [*kernels, "tdoku"]}
                guesses = 0.0
                for _ in range(args.repeats):
                    for propagation in kernels:
                        rate, result = ours(givens, propagation, mode, args.tdoku_seconds)
                        check(givens, result)
                        rates[propagation].append(rate)
                    if args.tdoku:
                        rate, guesses = tdoku(args.tdoku, path, len(givens), mode,
                                              args.tdoku_seconds)
                        rates["tdoku"].append(rate)
                for propagation in kernels:
                    row[propagation] = {**summary(rates[propagation]),
                                        "nodes": nodes[propagation]}
                    if args.tdoku:
                        row[propagation]["ratio"] = statistics.median(  # type: ignore[index]
                            a / b for a, b in zip(rates[propagation], rates["tdoku"]))
                if args.tdoku:
                    row["tdoku"] = {**summary(rates["tdoku"]), "guesses": guesses}
                rows.append(row)
                print(json.dumps(row), file=sys.stderr)
    return rows


def cli_seconds(arguments: list[str], env: dict[str, str] | None = None) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one command-line run (that child's own peak:
    ``os.wait4``, not the largest child so far that ``RUSAGE_CHILDREN`` reports)."""
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "parallel_backtrack.sudoku", *arguments],
                             stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise subprocess.CalledProcessError(child.returncode, child.args)
    return seconds, usage.ru_maxrss


def whole_process(args: argparse.Namespace, sets: dict[str, np.ndarray]) -> dict[str, float]:
    """The ``--process`` rows; the package's bytecode compiled first (``compileall``, as
    ``pip install`` does), so no run compiles the sources it imports."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "parallel_backtrack")],
                   check=True, timeout=300)
    found: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        hard = write_tdoku_file(sets["hard"], Path(folder), "hard")
        clue = DATA / CLUE_FILE
        for label, givens, file in (("hard", sets["hard"], hard),
                                    ("17-clue", sets["17-clue"], clue)):
            solve_batch(givens)
            inside, _ = timed(lambda g=givens: solve_batch(g), args.repeats)
            cli = [cli_seconds([str(file)])[0] for _ in range(args.repeats)]
            found[f"{label} in process s"] = statistics.median(inside)
            found[f"{label} command line s"] = statistics.median(cli)
        runs = [cli_seconds([str(clue), "--json"]) for _ in range(args.repeats)]
        found["17-clue --json s"] = statistics.median(run[0] for run in runs)
        found["17-clue --json peak RSS MB"] = max(run[1] for run in runs) / 1024
        found["17-clue peak RSS MB"] = cli_seconds([str(clue)])[1] / 1024
        for workers in (1, 2):
            seconds, _ = timed(lambda w=workers: solve_batch(sets["hard"], workers=w),
                               args.repeats)
            found[f"hard {workers} worker(s) s"] = statistics.median(seconds)
            found[f"hard command line {workers} worker(s) s"] = statistics.median(
                [cli_seconds([str(hard), "--workers", str(workers)])[0]
                 for _ in range(args.repeats)])
        colds = []
        for _ in range(args.cold_repeats):
            with tempfile.TemporaryDirectory() as cache:
                env = {**os.environ, "NUMBA_CACHE_DIR": cache}
                colds.append(cli_seconds([str(DATA / HARD_FILE)], env)[0])
        found["first hard file, empty cache s"] = statistics.median(colds)
    return found


def table(rows: list[dict[str, object]], kernels: list[str]) -> str:
    head = "| set | mode | puzzles | " + " | ".join(f"{k} /s (nodes)" for k in kernels)
    head += " | tdoku /s (guesses) | " + " | ".join(f"{k} / tdoku, median (best)" for k in kernels)
    head += " |"
    lines = [head, "|" + "---|" * (4 + 2 * len(kernels))]
    for row in rows:
        theirs = row.get("tdoku")
        cells = [str(row["set"]), str(row["mode"]), f"{row['puzzles']:,}"]
        for k in kernels:
            mine = row[k]
            assert isinstance(mine, dict)
            cells.append(f"{mine['best']:,.0f} / {mine['median']:,.0f} ({mine['nodes']:.1f})")
        if isinstance(theirs, dict):
            cells.append(f"{theirs['best']:,.0f} / {theirs['median']:,.0f} "
                         f"({theirs['guesses']:.1f})")
            cells += [f"{row[k]['ratio']:.2f}x ({row[k]['best'] / theirs['best']:.2f}x)"  # type: ignore[index]
                      for k in kernels]
        else:
            cells += ["-"] * (1 + len(kernels))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tdoku", type=input_file,
                        help="path of tdoku's run_benchmark (built elsewhere; without it "
                        "the rows have our kernels only)")
    parser.add_argument("--cpu", type=int, default=1, help="the CPU of the per-core rows")
    parser.add_argument("--repeats", type=int, default=3, help="timed windows per cell (3)")
    parser.add_argument("--tdoku-seconds", type=int, default=2,
                        help="seconds of one timed window (2)")
    parser.add_argument("--kernels", type=name_list(*BATCH_PROPAGATIONS, *PROPAGATION_CODES),
                        default="bands,units", help="comma-separated propagations of "
                        "solve_batch/count_batch to time (bands,units)")
    parser.add_argument("--modes", type=name_list("solve", "count"), default="solve,count",
                        help="solve (first solution) and/or count (uniqueness)")
    parser.add_argument("--sets", type=name_list(*SETS), default=",".join(SETS),
                        help="comma-separated, of " + ", ".join(SETS))
    parser.add_argument("--process", action="store_true", help="add the whole-process rows")
    parser.add_argument("--cold-repeats", type=int, default=1,
                        help="--process: first runs from an empty numba cache (1)")
    args = parser.parse_args()
    sets = {name: givens for name, givens in data_sets().items()
            if name in args.sets}
    every_cpu = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {args.cpu})
    rows = per_core(args, sets)
    os.sched_setaffinity(0, every_cpu)
    kernels = args.kernels
    print(table(rows, kernels))
    rates = {(r["set"], r["mode"]): r for r in rows}
    for mode in args.modes:
        if ("hard", mode) in rates and ("hard-published", mode) in rates:
            for k in [*kernels, *(["tdoku"] if args.tdoku else [])]:
                moved = rates["hard", mode][k]["median"]  # type: ignore[index]
                plain = rates["hard-published", mode][k]["median"]  # type: ignore[index]
                print(f"orientation {mode} {k}: transformed / published = {moved / plain:.2f}")
    process = whole_process(args, data_sets()) if args.process else {}
    for key, value in process.items():
        print(f"{key}: {value:.3f}")
    out = ROOT / "results" / "bench_sudoku_tdoku.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"machine": platform.processor() or platform.machine(),
                               "load": os.getloadavg(), "rows": rows, "process": process},
                              indent=1))


if __name__ == "__main__":
    run_script(main)
