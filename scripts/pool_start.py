"""How long a pool takes to start and send back its first result (Foundation target:
under 1.5 s), per backend, for an N-Queens count big enough to need the workers.

Each run is a fresh process (``_pool_start_run.py``) that marks three moments:
when the scheduler starts the pool, when the first worker result arrives, and
when the count is done, all from the moment the process was launched.

Example::

    python scripts/pool_start.py --n 16 --backends loky loky-spawn fork --repeats 5

``loky`` starts its workers as the command lines do, from a fork server that has
the kernels loaded; ``loky-spawn`` is loky's own start (a fresh interpreter each).
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
from _scaling import RESULTS, ROOT, byte_compiled, load_average, write_csv  # noqa: E402

from parallel_backtrack.engine import BACKENDS  # noqa: E402

RUNNER = Path(__file__).with_name("_pool_start_run.py")
KEYS = ("pool_s", "first_s", "start_to_first_s", "done_s")


def one_run(n: int, backend: str) -> dict[str, float]:
    launched = time.time()
    done = subprocess.run([sys.executable, str(RUNNER), str(n), backend, repr(launched)],
                          capture_output=True, text=True, cwd=ROOT)
    if done.returncode:
        lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
        raise SystemExit(f"{RUNNER.name} {n} {backend}: {lines[-1]}")
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=16, help="the N-Queens board size (16)")
    parser.add_argument("--backends", nargs="+", default=["loky", "loky-spawn", "fork"],
                        choices=(*BACKENDS, "loky-spawn"), help="loky starts its workers "
                        "from a fork server, as the command lines; loky-spawn as fresh "
                        "interpreters")
    parser.add_argument("--repeats", type=int, default=5, help="runs per backend (5)")
    args = parser.parse_args(argv)
    byte_compiled(ROOT)  # as an installed package has it: see _scaling
    runs: dict[str, list[dict[str, float]]] = {b: [] for b in args.backends}
    for _ in range(args.repeats):  # interleaved, so load bursts hit every backend alike
        for backend in args.backends:
            runs[backend].append(one_run(args.n, backend))
    rows = [{"backend": b, "n": args.n, "runs": len(r),
             **{k: round(statistics.median(x[k] for x in r), 3) for k in KEYS}}
            for b, r in runs.items()]
    print(f"n = {args.n}, 2 workers, medians of {args.repeats}, load {load_average()}")
    print("| backend | pool started (s) | first worker result (s) | pool start to first "
          "result (s) | done (s) |\n|---|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['backend']} | {r['pool_s']:.2f} | {r['first_s']:.2f} | "
              f"{r['start_to_first_s']:.2f} | {r['done_s']:.2f} |")
    print(f"written: {write_csv(RESULTS / 'pool_start.csv', rows)}")
    return 0


if __name__ == "__main__":
    run_script(main)
