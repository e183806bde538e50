"""Command-line pieces shared by every problem's CLI.

Glossary
--------
usage error
    Anything wrong with what the user typed or pointed at: one line on stderr,
    exit status 2, never a traceback.
exit codes
    0 done, 1 the answer is "no" for some input (unsolvable, invalid puzzle),
    2 usage error, 3 stopped by ``--timeout`` (partial result printed),
    130 interrupted by Ctrl-C (partial result printed).

Example: ``workers_type("0")`` raises ``ArgumentTypeError("workers must be a
positive integer or -1 (all cores), got 0")``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from typing import Any, NoReturn, TextIO

from .engine import BACKENDS, SearchReport, did_you_mean, resolve_workers

EXIT_OK, EXIT_NO, EXIT_USAGE, EXIT_TIMEOUT, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
# The metrics walk visits every node in Python (a few hundred thousand per second).
METRICS_MAX_NODES = 10_000_000


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def usage_error(prog: str, message: str) -> int:
    print(f"{prog}: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def workers_type(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"workers must be an integer, got {text!r}") from None
    try:
        resolve_workers(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return value


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return value


def choice_type(kind: str, choices: Iterable[str]) -> Callable[[str], str]:
    """An argparse type that accepts one of ``choices`` and suggests near misses."""
    names = tuple(choices)

    def parse(text: str) -> str:
        if text not in names:
            raise argparse.ArgumentTypeError(did_you_mean(kind, text, names))
        return text

    parse.__name__ = kind
    return parse


def add_engine_options(parser: argparse.ArgumentParser, default_workers: int = -1) -> None:
    """--workers, --backend, --scheduler-address, --timeout, --budget, --budget-seconds,
    --per-worker, --json, --stats, --progress."""
    group = parser.add_argument_group("parallel run")
    group.add_argument("--workers", "-w", type=workers_type, default=default_workers,
                       metavar="W", help="worker processes; -1 = all cores "
                       f"(default: {default_workers})")
    group.add_argument("--backend", type=choice_type("backend", BACKENDS), default=None,
                       metavar="|".join(BACKENDS),
                       help="where tasks run (default: serial for 1 worker, else loky)")
    group.add_argument("--scheduler-address", default=None, metavar="tcp://HOST:PORT",
                       help="with --backend dask: join this running Dask scheduler")
    group.add_argument("--timeout", type=positive_float, default=None, metavar="SECONDS",
                       help="stop at this wall-clock limit, print the partial result, exit 3")
    group.add_argument("--budget", type=positive_int, default=None, metavar="NODES",
                       help="nodes per task before it hands back its unexplored rest")
    group.add_argument("--budget-seconds", type=positive_float, default=None, metavar="S",
                       help="seconds per task before it hands back its unexplored rest "
                       "(alone: no node limit; with --budget: whichever comes first)")
    group.add_argument("--per-worker", type=positive_int, default=None, metavar="K",
                       help="subtrees per worker in the initial split (default 50)")
    out = parser.add_argument_group("output")
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument("--stats", action="store_true",
                     help="print a per-worker table: tasks, busy/idle seconds, node share")
    out.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help="progress bar on stderr (default: only when stderr is a terminal)")


def engine_options(args: argparse.Namespace) -> dict[str, Any]:
    """The engine keywords the shared options stand for."""
    options: dict[str, Any] = {
        "workers": args.workers, "backend": args.backend, "timeout": args.timeout,
        "budget": args.budget, "budget_seconds": args.budget_seconds,
        "per_worker": args.per_worker, "progress": args.progress,
    }
    if args.scheduler_address is not None:
        options["backend"] = "dask"
        options["address"] = args.scheduler_address
    return options


def print_stats(report: SearchReport, out: TextIO) -> None:
    """The per-worker table, then where the parent's own time went."""
    print(f"{'worker':<24} {'tasks':>6} {'busy s':>9} {'idle s':>9} {'nodes %':>8}", file=out)
    for stats in report.worker_stats():
        print(f"{stats.worker:<24} {stats.tasks:>6} {stats.busy_seconds:>9.3f} "
              f"{stats.idle_seconds:>9.3f} {100 * stats.node_share:>7.1f}%", file=out)
    print(f"frontier {report.frontier} subtrees (depth {report.split_depth}), "
          f"peak pending {report.peak_pending}, parent dispatch "
          f"{report.dispatch_seconds + report.collect_seconds:.3f} s, worker setup "
          f"{report.setup_seconds:.3f} s, pool restarts {report.restarts}", file=out)


def add_metrics_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--metrics", action="store_true",
                        help="instead of counting in parallel, walk the tree once and print "
                        "the lab's abstract metrics: tasks, work, span, parallelism")


def metrics_command(space: Any, out: TextIO, as_json: bool, extra: dict[str, Any],
                    max_nodes: int = METRICS_MAX_NODES) -> int:
    """Print ``engine.metrics(space)``: one JSON object, or a few lines for people."""
    from .engine import metrics

    found = metrics(space, max_nodes=max_nodes)
    if as_json:
        print_json({**extra, "metrics": found.as_dict()}, out)
        return EXIT_OK
    print(f"tasks spawned  {found.tasks:,}  (one per valid child)", file=out)
    print(f"work (T1)      {found.work:,} nodes", file=out)
    print(f"span (T_inf)   {found.span:,} nodes  (critical path)", file=out)
    print(f"parallelism    {found.parallelism:,.2f}  (work / span: no schedule beats "
          "min(workers, parallelism) speedup)", file=out)
    print(f"solutions      {found.solutions:,}", file=out)
    return EXIT_OK


def print_json(payload: dict[str, Any], out: TextIO) -> None:
    print(json.dumps(payload, sort_keys=True), file=out)


def exit_code(report: SearchReport) -> int:
    if report.stop_reason == "timeout":
        return EXIT_TIMEOUT
    if report.stop_reason == "interrupted":
        return EXIT_INTERRUPTED
    return EXIT_OK
