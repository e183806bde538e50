"""N-Queens benchmark: whole-process counts against OEIS and a C bitboard counter.

For each board size the script runs ``python -m parallel_backtrack.nqueens --n N
--workers W --unique --json --no-progress`` as its own process (start-up, kernel
loading, pool start and exit included), checks the count against OEIS A000170 and
the unique count against A002562, and times Jeff Somers' C counter (mirror
symmetry only, explicit stack; compiled here with ``cc -O2`` into a temporary
directory) in the same run.  Repeats are interleaved, so a burst of load on the
shared machine hits every configuration alike; medians are reported.

Glossary
--------
wall s / cpu s
    Median wall time of the whole process, and its CPU time (user + system,
    the workers included: the children's rusage), which other load barely moves.
nodes/s
    Nodes the search visited per second of the engine's own run time.
C s, ratio
    The C counter's median wall time and our wall time divided by it (and the
    same for CPU time): below 1 we are faster.
symmetry
    ``d4``: the canonical tree (rotations and reflections); ``mirror``: half of
    row 0 doubled (``--mirror`` adds these rows, run through the API).

    python scripts/bench_nqueens.py                        # n = 12..17, workers 1 and 2
    python scripts/bench_nqueens.py --sizes 16 --workers 1 --repeats 5 --mirror

Prints a markdown table and writes ``results/bench_nqueens.{csv,json}``.
"""

from __future__ import annotations

import argparse
import csv
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

from _args import Parser, run_script

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
A000170 = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680,
           12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512, 17: 95815104,
           18: 666090624}
A002562 = {1: 1, 2: 0, 3: 0, 4: 1, 5: 2, 6: 1, 7: 6, 8: 12, 9: 46, 10: 92, 11: 341,
           12: 1787, 13: 9233, 14: 45752, 15: 285053, 16: 1846955, 17: 11977939,
           18: 83263591}
MIRROR_RUN = """
import gc, json, sys
from parallel_backtrack.nqueens import ImmutableQueenLocations
from parallel_backtrack.nqueens.space import count_report
n, workers = int(sys.argv[1]), int(sys.argv[2])
report = count_report(ImmutableQueenLocations(n), symmetry="mirror", workers=workers)
payload = report.as_dict()
payload.update(symmetry="mirror", kernel="fast", unique=None)
print(json.dumps(payload))
gc.freeze()
"""

# Jeff Somers' counter (2004), as published, trimmed of its I/O: one explicit stack,
# the lowest free bit first, half of row 0 (and for odd n the middle column with
# half of row 1), doubled at the end.
SOMERS_C = r"""
#include <stdio.h>
#include <stdlib.h>
#define MAX_BOARDSIZE 32
static unsigned long long g_numsolutions = 0;
static void Nqueen(int board_size) {
    int aQueenBitRes[MAX_BOARDSIZE], aQueenBitCol[MAX_BOARDSIZE];
    int aQueenBitPosDiag[MAX_BOARDSIZE], aQueenBitNegDiag[MAX_BOARDSIZE];
    int aStack[MAX_BOARDSIZE + 2];
    register int *pnStack;
    register int numrows = 0;
    register unsigned int lsb, bitfield;
    int i, odd = board_size & 1, board_minus = board_size - 1, mask = (1 << board_size) - 1;
    aStack[0] = -1;
    for (i = 0; i < (1 + odd); ++i) {
        bitfield = 0;
        if (0 == i) {
            int half = board_size >> 1;
            bitfield = (1 << half) - 1;
            pnStack = aStack + 1;
            aQueenBitRes[0] = 0;
            aQueenBitCol[0] = aQueenBitPosDiag[0] = aQueenBitNegDiag[0] = 0;
        } else {
            bitfield = 1 << (board_size >> 1);
            numrows = 1;
            aQueenBitRes[0] = bitfield;
            aQueenBitCol[0] = aQueenBitPosDiag[0] = aQueenBitNegDiag[0] = 0;
            aQueenBitCol[1] = bitfield;
            aQueenBitNegDiag[1] = (bitfield >> 1);
            aQueenBitPosDiag[1] = (bitfield << 1);
            pnStack = aStack + 1;
            *pnStack++ = 0;
            bitfield = (bitfield - 1) >> 1;
        }
        for (;;) {
            lsb = -((signed)bitfield) & bitfield;
            if (0 == bitfield) {
                bitfield = *--pnStack;
                if (pnStack == aStack) break;
                --numrows;
                continue;
            }
            bitfield &= ~lsb;
            aQueenBitRes[numrows] = lsb;
            if (numrows < board_minus) {
                int n = numrows++;
                aQueenBitCol[numrows] = aQueenBitCol[n] | lsb;
                aQueenBitNegDiag[numrows] = (aQueenBitNegDiag[n] | lsb) >> 1;
                aQueenBitPosDiag[numrows] = (aQueenBitPosDiag[n] | lsb) << 1;
                *pnStack++ = bitfield;
                bitfield = mask & ~(aQueenBitCol[numrows] | aQueenBitNegDiag[numrows]
                                    | aQueenBitPosDiag[numrows]);
                continue;
            } else {
                ++g_numsolutions;
                bitfield = *--pnStack;
                --numrows;
                continue;
            }
        }
    }
    g_numsolutions *= 2;
}
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 8;
    if (n < 2 || n > 31) { fprintf(stderr, "n must be 2..31\n"); return 2; }
    Nqueen(n);
    printf("%llu\n", g_numsolutions);
    return 0;
}
"""


def compile_somers(folder: Path) -> Path | None:
    """The C counter built with ``cc -O2``, or None (with a message) without a compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        print("no C compiler (cc, gcc or clang) found: skipping the C column", file=sys.stderr)
        return None
    source, binary = folder / "somers.c", folder / "somers"
    source.write_text(SOMERS_C)
    built = subprocess.run([compiler, "-O2", "-o", str(binary), str(source)],
                           capture_output=True, text=True)
    if built.returncode != 0:
        print(f"the C counter did not compile, skipping it:\n{built.stderr}", file=sys.stderr)
        return None
    return binary


def timed(argv: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the process and its children, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def ours(n: int, workers: int, symmetry: str) -> tuple[float, float, dict]:
    if symmetry == "mirror":
        argv = [sys.executable, "-c", MIRROR_RUN, str(n), str(workers)]
    else:
        argv = [sys.executable, "-m", "parallel_backtrack.nqueens", "--n", str(n),
                "--workers", str(workers), "--unique", "--json", "--no-progress"]
    wall, cpu, out = timed(argv)
    return wall, cpu, json.loads(out)


def c_run(binary: Path, n: int) -> tuple[float, float, int]:
    wall, cpu, out = timed([str(binary), str(n)])
    return wall, cpu, int(out.split()[0])


def measure(n: int, configs: list[tuple[int, str]], repeats: int,
            binary: Path | None) -> list[dict]:
    """One row per configuration (plus the C counter), repeats interleaved."""
    runs: dict[tuple[int, str], list] = {config: [] for config in configs}
    c_runs: list[tuple[float, float, int]] = []
    for repeat in range(repeats):
        for workers, symmetry in configs:
            runs[workers, symmetry].append(ours(n, workers, symmetry))
            wall = runs[workers, symmetry][-1][0]
            print(f"  n={n} {symmetry} workers={workers} #{repeat}: {wall:.2f} s", file=sys.stderr)
        if binary is not None:
            c_runs.append(c_run(binary, n))
            print(f"  n={n} C #{repeat}: {c_runs[-1][0]:.2f} s", file=sys.stderr)
    return [row(n, workers, symmetry, runs[workers, symmetry], c_runs)
            for workers, symmetry in configs]


def engine_rate(payload: dict) -> float:
    """Nodes per second of the engine's run (on one worker, loading the kernels excluded;
    with a pool ``setup_seconds`` adds up the workers' start-ups, which overlap the run)."""
    seconds = payload["seconds"]
    if payload["workers"] == 1:
        seconds -= payload.get("setup_seconds", 0.0)
    return payload["nodes"] / seconds if seconds > 0 else 0.0


def kernel_rates(n_fast: int, n_reference: int = 11) -> dict:
    """One worker's node rate, fast kernel against the immutable-state reference path."""
    rates = {}
    for kernel, n in (("fast", n_fast), ("reference", n_reference)):
        argv = [sys.executable, "-m", "parallel_backtrack.nqueens", "--n", str(n), "--workers",
                "1", "--kernel", kernel, "--json", "--no-progress"]
        rates[kernel] = {"n": n, "nodes_per_s": engine_rate(json.loads(timed(argv)[2]))}
    rates["ratio"] = rates["fast"]["nodes_per_s"] / rates["reference"]["nodes_per_s"]
    return rates


def row(n: int, workers: int, symmetry: str, runs: list, c_runs: list) -> dict:
    wall = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    payloads = [r[2] for r in runs]
    last = payloads[-1]
    rate = statistics.median(engine_rate(p) for p in payloads)
    result = {
        "n": n, "kernel": last["kernel"], "symmetry": symmetry, "workers": workers,
        "wall_s": round(wall, 3), "cpu_s": round(cpu, 3), "nodes": last["nodes"],
        "nodes_per_s": round(rate), "count": last["count"],
        "count_ok": agrees([p["count"] for p in payloads], A000170, n),
        "unique": last.get("unique"),
        "unique_ok": None if symmetry == "mirror" else
        agrees([p.get("unique") for p in payloads], A002562, n),
        "repeats": len(runs), "c_wall_s": None, "c_cpu_s": None, "ratio": None, "cpu_ratio": None,
    }
    if c_runs:
        c_wall = statistics.median(r[0] for r in c_runs)
        c_cpu = statistics.median(r[1] for r in c_runs)
        result.update(c_wall_s=round(c_wall, 3), c_cpu_s=round(c_cpu, 3),
                      c_ok=agrees([r[2] for r in c_runs], A000170, n),
                      ratio=round(wall / c_wall, 3), cpu_ratio=round(cpu / c_cpu, 3))
    return result


def agrees(counts: list, table: dict[int, int], n: int) -> bool | None:
    """Does every run's count match OEIS? None: the table stops short of ``n``."""
    return all(count == table[n] for count in counts) if n in table else None


def check(flag: bool | None) -> str:
    return "-" if flag is None else ("ok" if flag else "WRONG")


def print_table(rows: list[dict]) -> None:
    print("| n | kernel | symmetry | workers | wall s | cpu s | nodes/s | count | OEIS "
          "| unique | C s | ratio (wall) | ratio (cpu) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        c_text = "-" if r["c_wall_s"] is None else f"{r['c_wall_s']:.2f}"
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:.2f}"
        cpu_ratio = "-" if r["cpu_ratio"] is None else f"{r['cpu_ratio']:.2f}"
        unique = "-" if r["unique"] is None else f"{r['unique']:,} {check(r['unique_ok'])}"
        print(f"| {r['n']} | {r['kernel']} | {r['symmetry']} | {r['workers']} "
              f"| {r['wall_s']:.2f} | {r['cpu_s']:.2f} | {r['nodes_per_s'] / 1e6:.0f} M "
              f"| {r['count']:,} | {check(r['count_ok'])} | {unique} | {c_text} | {ratio} "
              f"| {cpu_ratio} |")


def write_results(rows: list[dict], meta: dict) -> None:
    RESULTS.mkdir(exist_ok=True)
    with open(RESULTS / "bench_nqueens.csv", "w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=sorted({k for r in rows for k in r}))
        writer.writeheader()
        writer.writerows(rows)
    (RESULTS / "bench_nqueens.json").write_text(json.dumps({**meta, "rows": rows}, indent=1))


def int_list(text: str) -> list[int]:
    try:
        values = [int(part) for part in text.replace(",", " ").split()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected integers like 12,13, got {text!r}") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"expected positive integers, got {text!r}")
    return values


def main() -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int_list, default=list(range(12, 18)),
                        help="board sizes, e.g. 12,13 (default 12..17)")
    parser.add_argument("--workers", type=int_list, default=[1, 2],
                        help="worker counts, e.g. 1,2 (default 1,2)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per cell (median)")
    parser.add_argument("--mirror", action="store_true",
                        help="add mirror-symmetry rows (one worker) for comparison")
    parser.add_argument("--no-c", action="store_true", help="skip the C counter")
    args = parser.parse_args()
    configs = [(w, "d4") for w in args.workers] + ([(1, "mirror")] if args.mirror else [])
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench-nqueens-") as folder:
        binary = None if args.no_c else compile_somers(Path(folder))
        rows = [r for n in args.sizes for r in measure(n, configs, args.repeats, binary)]
    rates = kernel_rates(max(args.sizes))
    meta = {"load_before": load_before, "load_after": os.getloadavg(),
            "cpus": os.cpu_count(), "repeats": args.repeats, "kernel_rates": rates}
    print(f"load average before {load_before[0]:.2f}, after {meta['load_after'][0]:.2f} "
          f"({meta['cpus']} cores); medians of {args.repeats}\n")
    print_table(rows)
    print(f"\nnode rate, one worker: fast kernel {rates['fast']['nodes_per_s'] / 1e6:.1f} M/s "
          f"(n = {rates['fast']['n']}), reference path "
          f"{rates['reference']['nodes_per_s'] / 1e3:.0f} k/s (n = {rates['reference']['n']}): "
          f"{rates['ratio']:.0f}x")
    write_results(rows, meta)
    bad = [r for r in rows if not r["count_ok"] or r["unique_ok"] is False]
    return 1 if bad else 0


if __name__ == "__main__":
    run_script(main)
