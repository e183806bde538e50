"""What one ``wait_any`` costs the parent, against how many tasks are in flight.

The scheduler keeps two tasks per worker in flight and asks for the finished ones
after every dispatch round: at 64 workers, 128 futures and a result about every
0.2 ms.  ``concurrent.futures.wait`` hangs a waiter on every future and takes it
off again on each call; the local pools' ``wait_any`` takes finished futures from
one queue they report to.  This measures the CPU time of one call in the calling
thread when nothing has finished yet and one future finishes 0.5 ms later (the
blocking path a busy parent takes most), for both.

Glossary
--------
in flight
    Futures the call is asked about; all but one never finish during the call.
cpu us
    Median CPU microseconds of the calling thread per call (``time.thread_time``).

Writes ``results/wait_any.csv`` and ``.json``.  Example::

    python scripts/wait_any.py --in-flight 4 16 64 128 256 --calls 300
"""

from __future__ import annotations

import concurrent.futures as cf
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]

from _args import Parser, run_script  # noqa: E402 - scripts/ is sys.path[0]
from _scaling import RESULTS, write_csv, write_json  # noqa: E402

from parallel_backtrack.engine.executors import ThreadExecutor  # noqa: E402

DELAY = 0.0005  # seconds until the one future of a call finishes


def one_call_cpu(executor: ThreadExecutor, asked: dict, gate: threading.Event,
                 queue_way: bool) -> float:
    """CPU seconds of one call that waits for the future ``gate`` releases."""
    finishing = executor.submit(gate.wait, 30)
    asked[finishing] = None
    time.sleep(0.002)  # let the pool thread block on the gate first
    timer = threading.Timer(DELAY, gate.set)
    timer.start()
    started = time.thread_time()
    if queue_way:
        done = executor.wait_any(asked, timeout=5)
    else:
        done, _ = cf.wait(list(asked), timeout=5, return_when=cf.FIRST_COMPLETED)
    spent = time.thread_time() - started
    timer.join()
    if finishing not in done:
        raise RuntimeError("the finishing future was not reported")
    del asked[finishing]
    gate.clear()
    return spent


def measure(in_flight: int, calls: int) -> list[dict]:
    never = threading.Event()
    executor = ThreadExecutor(in_flight + 1)
    try:
        asked = {executor.submit(never.wait, 60): None for _ in range(in_flight - 1)}
        gate = threading.Event()
        rows = []
        for queue_way, name in ((False, "concurrent.futures.wait"), (True, "pool wait_any")):
            spent = [one_call_cpu(executor, asked, gate, queue_way) for _ in range(calls)]
            rows.append({"in_flight": in_flight, "method": name,
                         "cpu_us_median": round(1e6 * statistics.median(spent), 1)})
        return rows
    finally:
        never.set()
        executor.close(kill=True)


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--in-flight", type=int, nargs="+", default=[4, 16, 64, 128, 256])
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args(argv)
    if min(args.in_flight) < 1 or args.calls < 1:
        parser.error("--in-flight and --calls take positive numbers")
    rows = [row for count in args.in_flight for row in measure(count, args.calls)]
    print("| in flight | concurrent.futures.wait (us CPU) | pool wait_any (us CPU) |")
    print("|---:|---:|---:|")
    for count in args.in_flight:
        cpu = {r["method"]: r["cpu_us_median"] for r in rows if r["in_flight"] == count}
        print(f"| {count} | {cpu['concurrent.futures.wait']} | {cpu['pool wait_any']} |")
    write_csv(RESULTS / "wait_any.csv", rows)
    write_json(RESULTS / "wait_any.json", rows)
    return 0


if __name__ == "__main__":
    run_script(main)
