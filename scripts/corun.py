"""What this machine gives two processes at once: the ceiling of any 2-worker speedup.

Runs a one-worker command alone, then two copies of it at the same time, in
interleaved rounds, and reports the medians: how much slower each copy runs when
both cores are busy, and so the best a 2-worker run of that kernel can reach here
(``2 * alone / pair``), before any scheduling or start-up cost.  On shared or
virtual machines two busy cores rarely give twice the work of one.

Example::

    python scripts/corun.py --repeats 5 nqueens
    python scripts/corun.py --repeats 5 sudoku

``nqueens`` counts n = 16 on one worker; ``sudoku`` counts the 17-clue #2 minus 3
givens (9,579,828 solutions) on one worker; the times are whole processes.
Writes ``results/corun_<name>.csv`` and ``.json``.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent)]

from _args import Parser, run_script  # noqa: E402 - scripts/ is sys.path[0]
from _data import data_folder  # noqa: E402 - scripts/ is sys.path[0]
from _scaling import RESULTS, ROOT, byte_compiled, load_average, write_csv  # noqa: E402

DATA = data_folder() / "sudoku"  # PARALLEL_BACKTRACK_DATA, else tests/data (scripts/_data.py)

COMMANDS = {
    "nqueens": ["-m", "parallel_backtrack.nqueens", "--n", "16", "--workers", "1"],
    "sudoku": [str(Path(__file__).with_name("_sudoku_run.py")),
               str(DATA / "tdoku_puzzles2_17_clue.txt"), "--index", "2", "--remove", "3",
               "--workers", "1"],
}


def timed(copies: int, arguments: list[str]) -> list[float]:
    """Start ``copies`` processes at once; each one's wall seconds."""
    started = time.perf_counter()
    running = [subprocess.Popen([sys.executable, *arguments], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
               for _ in range(copies)]
    seconds = []
    for process in running:
        _, error = process.communicate()
        if process.returncode != 0:
            raise SystemExit(f"the command failed: {error.decode(errors='replace').strip()}")
        seconds.append(time.perf_counter() - started)
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", choices=sorted(COMMANDS), help="which one-worker run")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved rounds")
    args = parser.parse_args(argv)
    byte_compiled(ROOT)  # as an installed package has it: see _scaling
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    arguments = COMMANDS[args.name]
    if args.name == "sudoku" and not (DATA / "tdoku_puzzles2_17_clue.txt").is_file():
        parser.error(f"puzzle data not found in {DATA}")
    timed(1, arguments)  # numba's cache, the page cache
    alone, pair = [], []
    before = load_average()
    for round_ in range(args.repeats):
        alone.extend(timed(1, arguments))
        pair.extend(timed(2, arguments))
        print(f"  round {round_}: alone {alone[-1]:.2f} s, pair {pair[-2]:.2f} / "
              f"{pair[-1]:.2f} s", file=sys.stderr)
    row = {"name": args.name, "repeats": args.repeats,
           "alone_median_s": round(statistics.median(alone), 3),
           "pair_median_s": round(statistics.median(pair), 3)}
    row["slowdown"] = round(row["pair_median_s"] / row["alone_median_s"], 3)
    row["ceiling_2_workers"] = round(2 / row["slowdown"], 3)
    row["load_before"], row["load_after"] = before, load_average()
    print("| run | alone s | each of a pair s | slowdown | 2-worker ceiling |")
    print("|---|---:|---:|---:|---:|")
    print(f"| {args.name} | {row['alone_median_s']:.2f} | {row['pair_median_s']:.2f} |"
          f" {row['slowdown']:.3f} | {row['ceiling_2_workers']:.2f} |")
    RESULTS.mkdir(exist_ok=True)
    write_csv(RESULTS / f"corun_{args.name}.csv", [row])
    (RESULTS / f"corun_{args.name}.json").write_text(json.dumps(
        {**row, "alone_s": alone, "pair_s": pair}, indent=1))
    return 0


if __name__ == "__main__":
    run_script(main)
