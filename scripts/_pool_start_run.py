"""One run for ``pool_start.py``: count N-Queens on two workers and print, as JSON,
the seconds from ``launched`` (the parent's clock when it started this process) to
the pool's start, to the first worker result and to the end.  Backend ``loky`` starts
its workers as the command lines do (from a fork server); ``loky-spawn`` with loky's
own fresh interpreters."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("PARALLEL_BACKTRACK_LEAN", "1")  # start up as the command lines do
from _args import Parser  # noqa: E402 - scripts/ is sys.path[0]

from parallel_backtrack.engine import BACKENDS  # noqa: E402

CHOICES = (*BACKENDS, "loky-spawn")  # loky-spawn: loky's own fresh interpreters


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", type=int, help="the N-Queens board size")
    parser.add_argument("backend", choices=CHOICES)
    parser.add_argument("launched", type=float, help="the parent's time.time() at launch")
    args = parser.parse_args(argv)
    n, backend, launched = args.n, args.backend, args.launched
    os.environ["PARALLEL_BACKTRACK_FORKSERVER"] = "0" if backend == "loky-spawn" else "1"
    backend = "loky" if backend == "loky-spawn" else backend
    from parallel_backtrack.engine import probe, scheduler
    from parallel_backtrack.nqueens import ImmutableQueenLocations
    from parallel_backtrack.nqueens.space import count_report

    marks: dict[str, float] = {}
    collect, start_pool = scheduler.Run._collect, probe.Probe.start_pool

    def timed_start(run, *args):  # noqa: ANN001, ANN202 - wraps a method
        marks.setdefault("pool", time.time())
        return start_pool(run, *args)

    def timed_collect(run, *args):  # noqa: ANN001, ANN202
        marks.setdefault("first", time.time())
        return collect(run, *args)

    probe.Probe.start_pool, scheduler.Run._collect = timed_start, timed_collect
    count_report(ImmutableQueenLocations(n), workers=2, backend=backend)
    done = time.time()
    if "pool" not in marks or "first" not in marks:
        parser.error(f"n = {n} was counted without a pool of workers: take a larger n")
    print(json.dumps({"pool_s": marks["pool"] - launched, "first_s": marks["first"] - launched,
                      "start_to_first_s": marks["first"] - marks["pool"],
                      "done_s": done - launched}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
