"""Benchmark the compiled Sudoku kernel against the reference path and a Norvig-style solver.

For each data set: puzzles/s of the kernel (bulk read + solve, one process, the
median of ``--repeats`` runs, compilation excluded) with 1 worker and with 2
(threads, and loky processes with a warm pool), nodes
per puzzle, and the ratios to the reference path (``ImmutableSudokuPuzzle``
through the engine) and to a Norvig-style solver timed in the same run on a
sample spread over the file.  ``cold s`` is the wall time of a fresh Python
process that imports, reads and solves the whole file (interpreter, numba and
cache loading included).  Then it makes near-minimal 25x25 puzzles from solved
grids and times them, and tries Gecode's 25x25 instances (``gecode_25x25.txt``
from the shared data, else the copy in ``tests/data``) with each propagator of
``--gecode-propagations`` (fewest first, one worker, ``--gecode-budget`` nodes
at most per instance; ``--gecode-instances`` picks some by Gecode index).
``--gecode-solvers backtrack,cdcl`` adds the clause-learning solver (``sudoku/cdcl/``:
whole solve on one core, CNF build included, at most ``--gecode-seconds`` each);
``--cdcl-rates`` also times it on the data sets (a sample, like the slow solvers).

Writes ``results/bench_sudoku.csv`` and ``.json``; prints a markdown table.

    python scripts/bench_sudoku.py                  # everything (a few minutes)
    python scripts/bench_sudoku.py --quick          # small sets, 1 repeat
    python scripts/bench_sudoku.py --sets 17-clue --repeats 9
    python scripts/bench_sudoku.py --sets '' --generated 0 --gecode-budget 1000000 \
        --gecode-propagations matching --gecode-instances 20,89,90   # Gecode 25x25 only
    python scripts/bench_sudoku.py --sets '' --generated 0 --gecode-solvers cdcl  # all 18, CDCL

Glossary: *rate* puzzles per second; *nodes* states visited, the root included
(the 9x9 rows run the default band kernel, whose nodes are its own; elsewhere the
general kernel's, equal to the reference path's by design); *sample* every k-th
puzzle of a file, as many as fit in ``--seconds`` per slow solver.
"""

from __future__ import annotations

import csv
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _args import Parser, name_list, run_script  # noqa: E402 - scripts/ is sys.path[0]
from _data import data_folder  # noqa: E402 - scripts/ is sys.path[0]

from parallel_backtrack.sudoku.batch import count_batch, solve_batch  # noqa: E402
from parallel_backtrack.sudoku.batch_io import read_batch  # noqa: E402
from parallel_backtrack.sudoku.cdcl import solve_cdcl  # noqa: E402
from parallel_backtrack.sudoku.cdcl import warm_up as warm_up_cdcl  # noqa: E402
from parallel_backtrack.sudoku.kernel.propagate import PROPAGATION_CODES  # noqa: E402
from parallel_backtrack.sudoku.masks import (  # noqa: E402
    count_masks,
    explore_masks,
    masks_from_cells,
    solve_masks,
)
from parallel_backtrack.sudoku.space import is_valid_solution  # noqa: E402
from parallel_backtrack.sudoku.warm import warm_up  # noqa: E402

DATA = data_folder() / "sudoku"  # PARALLEL_BACKTRACK_DATA, else tests/data (scripts/_data.py)
SETS = {  # label (a name --sets takes: no spaces or commas): (file, mode)
    "17-clue": ("tdoku_puzzles2_17_clue.txt", "solve"),
    "forum-hardest-1106": ("tdoku_puzzles6_forum_hardest_1106.txt", "solve"),
    "top1465": ("tdoku_puzzles3_magictour_top1465.txt", "solve"),
    "top95": ("norvig_top95.txt", "solve"),
    "gecode-16x16": ("gecode_16x16.txt", "solve"),
    "tdoku-test": ("tdoku_test_puzzles.txt", "count"),
}
QUICK = ("forum-hardest-1106", "top95", "gecode-16x16", "tdoku-test")
GECODE_25 = "gecode_25x25.txt"


class NorvigSolver:
    """Norvig's solver (peers, hidden singles, fewest options first), any box size."""

    SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ#"

    def __init__(self, box: int) -> None:
        n = box * box
        self.digits = self.SYMBOLS[:n]
        self.squares = range(n * n)
        rows = [[r * n + c for c in range(n)] for r in range(n)]
        cols = [[r * n + c for r in range(n)] for c in range(n)]
        boxes = [[(br + i // box) * n + bc + i % box for i in range(n)]
                 for br in range(0, n, box) for bc in range(0, n, box)]
        unitlist = rows + cols + boxes
        self.units = {s: [u for u in unitlist if s in u] for s in self.squares}
        self.peers = {s: set(sum(self.units[s], [])) - {s} for s in self.squares}

    def solve(self, cells: list[int]) -> dict[int, str] | bool:
        return self.search(self.parse_grid(cells))

    def parse_grid(self, cells: list[int]) -> dict[int, str] | bool:
        values = {s: self.digits for s in self.squares}
        for s, d in enumerate(cells):
            if d and not self.assign(values, s, self.digits[d - 1]):
                return False
        return values

    def assign(self, values: dict[int, str], s: int, d: str) -> dict[int, str] | bool:
        other = values[s].replace(d, "")
        if all(self.eliminate(values, s, d2) for d2 in other):
            return values
        return False

    def eliminate(self, values: dict[int, str], s: int, d: str) -> dict[int, str] | bool:
        if d not in values[s]:
            return values
        values[s] = values[s].replace(d, "")
        if not values[s]:
            return False
        if len(values[s]) == 1:
            d2 = values[s]
            if not all(self.eliminate(values, s2, d2) for s2 in self.peers[s]):
                return False
        for u in self.units[s]:
            places = [s2 for s2 in u if d in values[s2]]
            if not places:
                return False
            if len(places) == 1 and not self.assign(values, places[0], d):
                return False
        return values

    def search(self, values: dict[int, str] | bool) -> dict[int, str] | bool:
        if values is False:
            return False
        assert isinstance(values, dict)
        if all(len(values[s]) == 1 for s in self.squares):
            return values
        _, s = min((len(values[s]), s) for s in self.squares if len(values[s]) > 1)
        for d in values[s]:
            found = self.search(self.assign(values.copy(), s, d))
            if found:
                return found
        return False


@dataclass
class Row:
    """One line of the table."""

    data_set: str
    mode: str
    puzzles: int
    workers: int
    backend: str
    rate: float
    nodes_per_puzzle: float
    reference_rate: float | None = None
    norvig_rate: float | None = None
    cdcl_rate: float | None = None
    speedup_vs_1_worker: float | None = None
    cold_seconds: float | None = None
    checked: str = ""
    seconds: list[float] = field(default_factory=list)

    def ratio(self, other: float | None) -> str:
        return f"{self.rate / other:,.0f}x" if other else "n/a"


def _expected_counts(path: Path) -> list[int] | None:
    lines = [line for line in path.read_text().split() if ":" in line]
    return [int(line.split(":")[1]) for line in lines] or None


def time_kernel(path: Path, mode: str, workers: int, backend: str,
                repeats: int) -> tuple[list[float], object]:
    """Wall seconds of read + solve (or count) of the whole file, per repeat."""
    seconds, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        batch = read_batch(path)
        if mode == "count":
            result = count_batch(batch.givens, workers=workers, backend=backend)
        else:
            result = solve_batch(batch.givens, workers=workers, backend=backend)
        seconds.append(time.perf_counter() - started)
    return seconds, result


def _sample(count: int, budget: int) -> list[int]:
    step = max(1, count // budget)
    return list(range(0, count, step))


def time_slow_solver(solve, givens: np.ndarray, seconds: float) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    """Puzzles/s of a slow solver on a sample spread over the file, within ``seconds``."""
    done, started = 0, time.perf_counter()
    for index in _sample(len(givens), 400):
        solve([int(v) for v in givens[index]])
        done += 1
        if time.perf_counter() - started > seconds and done >= 3:
            break
    return done / (time.perf_counter() - started), done


def reference_solver(mode: str):  # type: ignore[no-untyped-def]
    from parallel_backtrack.sudoku.search import search

    def solve(cells: list[int]) -> object:
        return search(cells, "fewest", count=(mode == "count"), kernel="reference")

    return solve


def cold_process_seconds(path: Path, mode: str, workers: int, backend: str) -> float:
    """A fresh interpreter: import, read and solve the file (startup included)."""
    call = "count_batch" if mode == "count" else "solve_batch"
    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from parallel_backtrack.sudoku.batch_io import read_batch\n"
        f"from parallel_backtrack.sudoku.batch import {call}\n"
        f"{call}(read_batch({str(path)!r}).givens, workers={workers}, backend={backend!r})\n"
    )
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - started


def bench_set(label: str, repeats: int, seconds: float, cold: bool,
              cdcl: bool = False) -> list[Row]:
    name, mode = SETS[label]
    path = DATA / name
    if not path.is_file():
        print(f"skipping {label}: {path} not found", file=sys.stderr)
        return []
    batch = read_batch(path)
    box = batch.box
    ref_rate, _ = time_slow_solver(reference_solver(mode), batch.givens, seconds)
    norvig = NorvigSolver(box)
    norvig_rate = None if mode == "count" else time_slow_solver(norvig.solve, batch.givens,
                                                                seconds)[0]
    cdcl_rate = None if mode == "count" or not cdcl else time_slow_solver(
        solve_cdcl, batch.givens, seconds)[0]
    rows = []
    for workers, backend in ((1, "threads"), (2, "threads"), (2, "loky")):
        times, result = time_kernel(path, mode, workers, backend, repeats)
        expected = _expected_counts(path) if mode == "count" else None
        checked = (
            "counts exact" if expected and list(result.counts) == expected
            else "all solved" if bool(result.solved.all()) else "NOT ALL SOLVED"
        )
        median = statistics.median(times)
        rows.append(Row(
            label, mode, len(batch.givens), workers, backend, len(batch.givens) / median,
            float(result.nodes.mean()), ref_rate, norvig_rate, cdcl_rate,
            cold_seconds=cold_process_seconds(path, mode, workers, backend) if cold else None,
            checked=checked, seconds=[round(t, 4) for t in times],
        ))
    for row in rows[1:]:
        row.speedup_vs_1_worker = row.rate / rows[0].rate
    return rows


def solved_grid(box: int, seed: int) -> list[int]:
    """A shuffled solved grid (rows and columns permuted within bands, digits relabelled)."""
    rng, n = random.Random(seed), box * box

    def shuffled_lines() -> list[int]:
        return [band * box + line for band in rng.sample(range(box), box)
                for line in rng.sample(range(box), box)]

    rows, cols, digits = shuffled_lines(), shuffled_lines(), rng.sample(range(1, n + 1), n)
    return [digits[(box * (r % box) + r // box + c) % n] for r in rows for c in cols]


def near_minimal(box: int, seed: int, check_budget: int) -> tuple[list[int], bool]:
    """Blank squares in random order while the solution provably stays unique.

    A uniqueness check that needs more than ``check_budget`` nodes keeps its
    clue; the flag says whether every check finished (then the puzzle is minimal).
    """
    cells, rng, minimal = solved_grid(box, seed), random.Random(seed), True
    for square in rng.sample(range(len(cells)), len(cells)):
        kept, cells[square] = cells[square], 0
        run = explore_masks(box, masks_from_cells(box, cells), limit=2, budget=check_budget)
        if len(run.leftover) or run.count != 1:
            cells[square] = kept
            minimal = minimal and not len(run.leftover)
    return cells, minimal


def bench_generated(box: int, puzzles: int, check_budget: int) -> list[dict[str, object]]:
    found = []
    for seed in range(1, puzzles + 1):
        started = time.perf_counter()
        cells, minimal = near_minimal(box, seed, check_budget)
        made = time.perf_counter() - started
        started = time.perf_counter()
        values, nodes = solve_masks(box, masks_from_cells(box, cells))
        solve_seconds = time.perf_counter() - started
        started = time.perf_counter()
        count, count_nodes = count_masks(box, masks_from_cells(box, cells), limit=2)
        found.append({
            "seed": seed, "givens": sum(1 for v in cells if v), "minimal": minimal,
            "make_s": round(made, 2), "solve_s": round(solve_seconds, 4), "solve_nodes": nodes,
            "unique_s": round(time.perf_counter() - started, 4), "unique_nodes": count_nodes,
            "solved": values is not None and count == 1,
            "puzzle": "".join(NorvigSolver.SYMBOLS[v - 1] if v else "." for v in cells),
        })
        print(f"  {box * box}x{box * box} seed {seed}: {found[-1]['givens']} givens,"
              f" solved in {solve_seconds:.3f} s ({nodes} nodes)", file=sys.stderr)
    return found


def gecode_25_path() -> Path | None:
    for path in (DATA / GECODE_25, ROOT / "tests" / "data" / GECODE_25):
        if path.is_file():
            return path
    return None


def gecode_25_lines(instances: set[str] | None = None) -> list[str]:
    """The Gecode 25x25 lines; ``instances``: Gecode indices ("18", "89"), None for all."""
    path = gecode_25_path()
    if path is None:
        print(f"skipping Gecode 25x25: {GECODE_25} not found", file=sys.stderr)
        return []
    lines = [line for line in path.read_text().splitlines() if line and not line.startswith("#")]
    if instances is not None:
        known = {line.rpartition(" ")[2] for line in lines}
        if instances - known:
            raise SystemExit(f"unknown Gecode instance(s) {sorted(instances - known)};"
                             f" expected some of {sorted(known, key=int)}")
        lines = [line for line in lines if line.rpartition(" ")[2] in instances]
    return lines


def bench_gecode_25(propagations: list[str], budget: int,
                    instances: set[str] | None = None) -> list[dict[str, object]]:
    """Seconds and nodes per Gecode 25x25 instance, each solved or stopped at ``budget``."""
    lines = gecode_25_lines(instances)
    found = []
    for propagation in propagations:
        for line in lines:
            puzzle, _, note = line.partition("\t")
            cells = [0 if ch == "." else NorvigSolver.SYMBOLS.index(ch) + 1 for ch in puzzle]
            started = time.perf_counter()
            run = explore_masks(5, masks_from_cells(5, cells), "fewest", propagation,
                                mode="first", budget=budget)
            seconds = time.perf_counter() - started
            values = [int(m).bit_length() for m in run.solutions[0]] if run.count else None
            found.append({
                "instance": note.strip() or puzzle[:10], "givens": sum(1 for v in cells if v),
                "propagation": propagation, "nodes": run.nodes, "seconds": round(seconds, 3),
                "solved": bool(values) and is_valid_solution(cells, values),
            })
            print(f"  {found[-1]}", file=sys.stderr)
    return found


def bench_gecode_25_cdcl(seconds: float,
                         instances: set[str] | None = None) -> list[dict[str, object]]:
    """Whole-solve seconds (CNF build included), conflicts and decisions per Gecode 25x25
    instance with the clause-learning solver, each stopped after ``seconds``."""
    found = []
    for line in gecode_25_lines(instances):
        puzzle, _, note = line.partition("\t")
        cells = [0 if ch == "." else NorvigSolver.SYMBOLS.index(ch) + 1 for ch in puzzle]
        result = solve_cdcl(cells, timeout=seconds)
        found.append({
            "instance": note.strip() or puzzle[:10], "givens": sum(1 for v in cells if v),
            "solved": result.cells is not None and is_valid_solution(cells, result.cells),
            "status": result.status, "seconds": round(result.seconds, 3),
            "conflicts": result.conflicts, "decisions": result.decisions,
            "propagations": result.propagations,
        })
        print(f"  {found[-1]}", file=sys.stderr)
    return found


def cdcl_markdown(found: list[dict[str, object]], seconds: float) -> str:
    lines = ["| instance | givens | solver | solved | seconds | conflicts | decisions |",
             "|---|---:|---|---|---:|---:|---:|"]
    for g in found:
        solved = "yes" if g["solved"] else f"no ({g['status']}, {seconds:g} s limit)"
        lines.append(f"| {g['instance']} | {g['givens']} | cdcl | {solved} | {g['seconds']} |"
                     f" {g['conflicts']:,} | {g['decisions']:,} |")
    return "\n".join(lines)


def gecode_markdown(found: list[dict[str, object]], budget: int) -> str:
    lines = ["| instance | givens | order / propagation | solved | nodes | seconds |",
             "|---|---:|---|---|---:|---:|"]
    for g in found:
        solved = "yes" if g["solved"] else f"no ({budget:,}-node budget)"
        lines.append(f"| {g['instance']} | {g['givens']} | fewest / {g['propagation']} |"
                     f" {solved} | {g['nodes']:,} | {g['seconds']} |")
    return "\n".join(lines)


def markdown(rows: list[Row]) -> str:
    lines = [
        "| data set | puzzles | workers | puzzles/s | nodes/puzzle | x 1 worker | reference/s"
        " | x reference | Norvig/s | x Norvig | cdcl/s | x cdcl | cold s | check |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.data_set}{' (count all)' if r.mode == 'count' else ''} | {r.puzzles:,} |"
            f" {r.workers}"
            f"{f' ({r.backend})' if r.workers > 1 else ''} | {r.rate:,.0f} |"
            f" {r.nodes_per_puzzle:,.1f} |"
            f" {f'{r.speedup_vs_1_worker:.2f}x' if r.speedup_vs_1_worker else ''} |"
            f" {r.reference_rate:,.1f} | {r.ratio(r.reference_rate)} |"
            f" {f'{r.norvig_rate:,.1f}' if r.norvig_rate else 'n/a'} | {r.ratio(r.norvig_rate)} |"
            f" {f'{r.cdcl_rate:,.1f}' if r.cdcl_rate else 'n/a'} | {r.ratio(r.cdcl_rate)} |"
            f" {f'{r.cold_seconds:.2f}' if r.cold_seconds else ''} | {r.checked} |"
        )
    return "\n".join(lines)


def generated_markdown(found: list[dict[str, object]]) -> str:
    lines = ["| size | seed | givens | minimal | solve s | solve nodes | unique s | unique nodes |",
             "|---|---:|---:|---|---:|---:|---:|---:|"]
    for g in found:
        lines.append(f"| 25x25 | {g['seed']} | {g['givens']} | {g['minimal']} | {g['solve_s']} |"
                     f" {g['solve_nodes']:,} | {g['unique_s']} | {g['unique_nodes']:,} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=name_list(*SETS), default=",".join(SETS),
                        help="comma-separated data sets, some of " + ",".join(SETS)
                        + " (tdoku-test counts every solution; the others solve)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per cell (5)")
    parser.add_argument("--seconds", type=float, default=8.0,
                        help="time for each slow solver (reference, Norvig) per data set")
    parser.add_argument("--quick", action="store_true", help="small sets, 1 repeat, no cold runs")
    parser.add_argument("--no-cold", action="store_true", help="skip the fresh-process runs")
    parser.add_argument("--generated", type=int, default=3, help="25x25 puzzles to make")
    parser.add_argument("--check-budget", type=int, default=200_000,
                        help="nodes per uniqueness check while making 25x25 puzzles")
    parser.add_argument("--gecode-budget", type=int, default=200_000,
                        help="nodes per Gecode 25x25 instance (0: skip them)")
    parser.add_argument("--gecode-propagations", type=name_list(*PROPAGATION_CODES),
                        default="units,matching",
                        help="comma-separated propagators to try on the Gecode 25x25 set")
    parser.add_argument("--gecode-instances", default="",
                        help="comma-separated Gecode indices to run (default: all 18)")
    parser.add_argument("--gecode-solvers", type=name_list("backtrack", "cdcl"),
                        default="backtrack",
                        help="comma-separated: backtrack (the kernel with each of"
                        " --gecode-propagations) and/or cdcl (clause learning)")
    parser.add_argument("--gecode-seconds", type=float, default=60.0,
                        help="time limit per Gecode 25x25 instance for cdcl")
    parser.add_argument("--cdcl-rates", action="store_true",
                        help="also time the cdcl solver on a sample of each data set")
    parser.add_argument("--out", type=Path, default=ROOT / "results",
                        help="folder of bench_sudoku.csv and .json (results/)")
    args = parser.parse_args(argv)
    labels = QUICK if args.quick else tuple(args.sets)
    solvers = args.gecode_solvers
    repeats = 1 if args.quick else args.repeats
    warm_up((3, 4, 5))
    warm_up_cdcl()
    if labels:  # only the data sets use the 2-worker pool
        solve_batch(np.zeros((4, 81), np.uint8), workers=2, backend="loky")  # start it
    rows = [row for label in labels
            for row in bench_set(label, repeats, args.seconds, not (args.quick or args.no_cold),
                                 args.cdcl_rates)]
    found = bench_generated(5, args.generated, args.check_budget) if args.generated else []
    instances = {i.strip() for i in args.gecode_instances.split(",") if i.strip()} or None
    gecode = (bench_gecode_25(args.gecode_propagations,
                              args.gecode_budget, instances)
              if args.gecode_budget and "backtrack" in solvers else [])
    cdcl = bench_gecode_25_cdcl(args.gecode_seconds, instances) if "cdcl" in solvers else []
    tables = [markdown(rows) if rows else "", generated_markdown(found) if found else "",
              gecode_markdown(gecode, args.gecode_budget) if gecode else "",
              cdcl_markdown(cdcl, args.gecode_seconds) if cdcl else ""]
    print("\n\n".join(table for table in tables if table))
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / "bench_sudoku.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(asdict(rows[0])) if rows else ["none"])
        writer.writeheader()
        writer.writerows(asdict(r) for r in rows)
    machine = {"python": platform.python_version(), "machine": platform.machine(),
               "processor": platform.processor(), "cpus": __import__("os").cpu_count()}
    (args.out / "bench_sudoku.json").write_text(json.dumps(
        {"machine": machine, "rows": [asdict(r) for r in rows], "generated_25x25": found,
         "gecode_25x25": gecode, "gecode_25x25_cdcl": cdcl},
        indent=2))
    return 0


if __name__ == "__main__":
    run_script(main)
