"""Whole-process start-up and small-job times of the command lines, and the whole-process
Sudoku rate against a Norvig-style solver.

Each case is a fresh ``python -m parallel_backtrack...`` process, run ``--repeats``
times, interleaved with the same case on every ``--tree`` given (another checkout, for
before/after figures in one run); the table shows medians.  Every tree's bytecode is
compiled first (``compileall``, as ``pip install`` does), so the figures are those of
an installed package, not of a checkout that compiles its sources on every start.

"one hard 9x9, cold cache" is the first answer for the 9x9 puzzle of the hardest sets
that needs the most nodes, in a process whose numba cache is empty (a fresh
``NUMBA_CACHE_DIR`` per run): what a new user's first run costs.  It runs
``--cold-repeats`` times per tree (a tree that compiles takes 20-60 s each).

The rate rows time the whole process on a puzzle file (interpreter, imports, kernel
loading, reading, solving, printing) and divide its puzzles/s by the Norvig-style
solver's rate, measured in process on a sample of the same file
(``scripts/bench_sudoku.py``'s ``NorvigSolver``); the "2 threads" row is the same
command with ``--workers 2`` (two cores against the Norvig-style solver's one).

Writes ``results/bench_startup.json``; prints a markdown table.

    python scripts/bench_startup.py                      # this tree, 11 repeats
    python scripts/bench_startup.py --tree /tmp/old      # and another checkout, interleaved
    python scripts/bench_startup.py --repeats 5 --no-rates --cold-repeats 1

Glossary: *bare* ``python -c pass`` (the interpreter alone); *x Norvig* whole-process
puzzles/s over the Norvig-style solver's in-process puzzles/s.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
from _args import Parser, run_script  # noqa: E402 - scripts/ is sys.path[0]
from _data import data_folder  # noqa: E402 - scripts/ is sys.path[0]

DATA = data_folder() / "sudoku"  # PARALLEL_BACKTRACK_DATA, else tests/data (scripts/_data.py)
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
# 3,000 hard puzzles: magictour's top 1465, the forum's hardest, then the serg benchmark.
HARD_FILES = ("tdoku_puzzles3_magictour_top1465.txt", "tdoku_puzzles6_forum_hardest_1106.txt",
              "tdoku_puzzles7_serg_benchmark.txt")
HARD_COUNT = 3000
SEVENTEEN_FILE = "tdoku_puzzles2_17_clue.txt"
# tdoku_puzzles6_forum_hardest_1106.txt, line 358: 2,383 nodes (units, fewest-first), the
# most of any 9x9 puzzle in the forum's hardest, magictour's top 1465 and plb_hard20.
HARD = "..3......4...8..36..8...1...4..6..73...9..........2.....4.7..686...2....7..6..5.."


# The ``parallel-backtrack`` console script pip installed beside this interpreter.
SCRIPT = Path(sys.executable).with_name("parallel-backtrack")


def cases(easy: Path, trees: list[Path]) -> dict[str, list[str]]:
    """Each case's interpreter arguments; the ``parallel-backtrack`` rows only where the
    script is installed and every tree has the one command (``parallel_backtrack/__main__.py``)."""
    sudoku, nqueens = ["-m", "parallel_backtrack.sudoku"], ["-m", "parallel_backtrack.nqueens"]
    table = {
        "bare python": ["-c", "pass"],
        "sudoku --help": [*sudoku, "--help"],
        "sudoku usage error": [*sudoku, "--order", "fewset", str(easy)],
        "sudoku one easy 9x9": [*sudoku, str(easy)],
        "nqueens --help": [*nqueens, "--help"],
        "nqueens usage error": [*nqueens, "--n", "x"],
        "nqueens --n 8": [*nqueens, "--n", "8"],
    }
    if SCRIPT.is_file() and all((t / "parallel_backtrack" / "__main__.py").is_file()
                                for t in trees):
        table["parallel-backtrack --help"] = [str(SCRIPT), "--help"]
        table["parallel-backtrack nqueens --n 8"] = [str(SCRIPT), "nqueens", "--n", "8"]
    else:
        print(f"(no parallel-backtrack rows: {SCRIPT} is not installed, or a tree has no "
              "parallel_backtrack/__main__.py)", file=sys.stderr)
    return table


def compile_bytecode(tree: Path) -> None:
    """Write the tree's ``.pyc`` files, as an install does (even where the environment
    says ``PYTHONDONTWRITEBYTECODE``: later runs only read them)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "parallel_backtrack")],
                   env=env, stdout=subprocess.DEVNULL, check=True)


def run_once(tree: Path, argv: list[str], env: dict[str, str] | None = None) -> float:
    env = dict(os.environ if env is None else env, PYTHONPATH=str(tree))
    started = time.perf_counter()
    subprocess.run([sys.executable, *argv], env=env, cwd=tempfile.gettempdir(),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def cold_runs(trees: list[Path], repeats: int) -> list[float]:
    """Median seconds of one hard 9x9 puzzle per tree, each run on an empty numba cache."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as hard:
        hard.write(HARD + "\n")
    walls: list[list[float]] = [[] for _ in trees]
    for _ in range(repeats):
        for index, tree in enumerate(trees):
            with tempfile.TemporaryDirectory() as empty:
                env = dict(os.environ, NUMBA_CACHE_DIR=empty)
                walls[index].append(run_once(tree, ["-m", "parallel_backtrack.sudoku",
                                                    hard.name], env))
    Path(hard.name).unlink()
    return [statistics.median(w) for w in walls]


def medians(trees: list[Path], table: dict[str, list[str]], repeats: int) -> dict[str, list[float]]:
    times: dict[tuple[str, int], list[float]] = {}
    for _ in range(repeats):
        for label, argv in table.items():
            for index, tree in enumerate(trees):
                times.setdefault((label, index), []).append(run_once(tree, argv))
    return {label: [statistics.median(times[label, i]) for i in range(len(trees))]
            for label in table}


def norvig_rate(lines: list[str], seconds: float) -> float:
    """Puzzles/s of the Norvig-style solver on a spread-out sample of ``lines``."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_sudoku import NorvigSolver  # noqa: PLC0415 - a sibling script, on demand

    solver, done, started = NorvigSolver(3), 0, time.perf_counter()
    step = max(1, len(lines) // 500)
    for line in lines[::step]:
        if not solver.solve([0 if ch in "._0" else int(ch) for ch in line]):
            raise RuntimeError(f"the Norvig-style solver failed on {line}")
        done += 1
        if time.perf_counter() - started > seconds:
            break
    return done / (time.perf_counter() - started)


def puzzle_lines(names: tuple[str, ...], count: int | None) -> list[str]:
    lines = [line.split()[0][:81] for name in names
             for line in (DATA / name).read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    return lines[:count] if count else lines


def rates(trees: list[Path], repeats: int, seconds: float) -> list[dict[str, object]]:
    rows = []
    for label, names, count in (("3,000 hard", HARD_FILES, HARD_COUNT),
                                ("17-clue", (SEVENTEEN_FILE,), None)):
        missing = [name for name in names if not (DATA / name).is_file()]
        if missing:  # the full 17-clue set is optional (PARALLEL_BACKTRACK_DATA)
            print(f"skipping {label}: {DATA / missing[0]} not found", file=sys.stderr)
            continue
        lines = puzzle_lines(names, count)
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as out:
            out.write("\n".join(lines) + "\n")
        norvig = norvig_rate(lines, seconds)
        argv = ["-m", "parallel_backtrack.sudoku", out.name]
        table = {label: argv}
        if count:
            table[f"{label}, 2 threads"] = [*argv, "--workers", "2"]
        for row, walls in medians(trees, table, repeats).items():
            rows.append({"file": row, "puzzles": len(lines), "norvig_per_s": norvig,
                         "wall_s": walls, "x_norvig": [len(lines) / w / norvig for w in walls]})
        Path(out.name).unlink()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, action="append", default=[],
                        help="another checkout to time alongside this one (repeatable)")
    parser.add_argument("--repeats", type=int, default=11,
                        help="whole processes per case and tree (11; the rates: half)")
    parser.add_argument("--seconds", type=float, default=8.0,
                        help="time for the Norvig-style solver per file")
    parser.add_argument("--no-rates", action="store_true", help="skip the whole-file rates")
    parser.add_argument("--cold-repeats", type=int, default=3,
                        help="runs of the cold-cache case per tree (0: skip it)")
    parser.add_argument("--out", type=Path, default=ROOT / "results",
                        help="folder of bench_startup.json (results/)")
    args = parser.parse_args(argv)
    for tree in args.tree:
        if not (tree / "parallel_backtrack").is_dir():
            parser.error(f"--tree: {tree} is not a checkout of this repository")
    trees = [ROOT, *args.tree]
    for tree in trees:
        compile_bytecode(tree)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as easy:
        easy.write(EASY + "\n")
    load = os.getloadavg()[0]
    found = medians(trees, cases(Path(easy.name), trees), args.repeats)
    Path(easy.name).unlink()
    if args.cold_repeats > 0:
        found["one hard 9x9, cold cache"] = cold_runs(trees, args.cold_repeats)
    names = " | ".join(str(t) for t in trees)
    print(f"medians of {args.repeats} whole processes (cold cache: {args.cold_repeats}), "
          f"load {load:.2f} (1 min) before\n")
    print(f"| case | {names} |\n|---|" + "---|" * len(trees))
    for label, walls in found.items():
        print(f"| {label} | " + " | ".join(f"{w * 1000:.0f} ms" for w in walls) + " |")
    rows = [] if args.no_rates or not DATA.exists() else rates(trees, max(1, args.repeats // 2),
                                                               args.seconds)
    if rows:
        print(f"\n| file | puzzles | Norvig/s | {names} (wall s, x Norvig) |\n|---|---|---|"
              + "---|" * len(trees))
        for row in rows:
            cells = " | ".join(f"{w:.2f} s, {x:.0f}x" for w, x in
                               zip(row["wall_s"], row["x_norvig"]))  # type: ignore[call-overload]
            print(f"| {row['file']} | {row['puzzles']} | {row['norvig_per_s']:.0f} | {cells} |")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "bench_startup.json").write_text(json.dumps(
        {"trees": [str(t) for t in trees], "repeats": args.repeats, "load": load,
         "cases": found, "rates": rows}, indent=1))
    return 0


if __name__ == "__main__":
    run_script(main)
