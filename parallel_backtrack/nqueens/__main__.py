"""``python -m parallel_backtrack.nqueens``: count N-Queens solutions in parallel.

Parse, build the space, run the engine, print; ``main`` returns the exit code
(see ``_cli``: 0, 2 usage, 3 ``--timeout``, 4 no trustworthy answer, 130 Ctrl-C).

Glossary
--------
partial
    A count stopped by ``--timeout`` or Ctrl-C: printed with ``(partial: ...;
    a lower bound)``, or ``"complete": false`` and ``stop_reason`` in JSON.
verify
    ``--verify`` checks a complete count against OEIS A000170 (n <= 27, every
    count anyone knows) and each ``--show`` board with ``is_queens_solution``
    (``--find-one`` answers are always checked by ``local.search``).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from typing import Any, TextIO

from .. import _cli, engine
from ..engine import PoolLostError, SearchInterrupted, SearchReport, WorkerCrashError
from ..viz.options import add_html_options
from .board import MAX_KERNEL_SIZE, ImmutableQueenLocations
from .orders import ORDERS, order_named
from .space import KERNELS, QueensSpace
from .unused import unused_option
from .verify import is_queens_solution

PROG = _cli.prog("nqueens")
MAX_COUNT_SIZE = MAX_KERNEL_SIZE
MAX_METRICS_SIZE = 13
# Boards up to this size are counted in Python (the same canonical tree, the same
# nodes): that takes milliseconds, less than loading numba and the compiled kernel.
SMALL_BOARD = 10
# OEIS A000170: the number of solutions for n = 1..27 (n = 27 took a year of FPGAs).
KNOWN_COUNTS = (
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
    95815104, 666090624, 4968057848, 39029188884, 314666222712, 2691008701644,
    24233937684440, 227514171973736, 2207893435808352, 22317699616364044, 234907967154122528,
)
# --find-one: bytes per queen for a worker's arrays, and for the answer in the parent
# (columns as int64 plus the checker's arrays; with --json a Python list of ints too).
FIND_ONE_BYTES, FIND_ONE_JSON_BYTES = 24, 72


class VerifyError(RuntimeError):
    """An answer failed the independent check of ``--verify`` (exit status 4)."""


def board_size(text: str) -> int:
    try:
        n = _cli.integer(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"n must be an integer, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"n must be at least 1, got {n}")
    return n


def build_parser() -> _cli.Parser:
    parser = _cli.Parser(
        prog=PROG,
        description="Count the ways to place N non-attacking queens on an N x N board, "
        "exactly, on all your cores. The tree is cut into subtrees that worker processes "
        "count with a compiled bitboard kernel; the counts are summed.",
        epilog="examples:\n  %(prog)s --n 14 --workers 8\n  %(prog)s --n 8 --show 2\n"
        "  %(prog)s --n 12 --kernel reference --json\n"
        "  %(prog)s --n 1000000 --find-one --seed 1",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--n", type=board_size, default=8, metavar="N",
                        help=f"board size, 1..{MAX_COUNT_SIZE} for counting (default: 8)")
    parser.add_argument("--kernel", type=_cli.choice_type("kernel", KERNELS), default="fast",
                        metavar="|".join(KERNELS),
                        help="fast: compiled bitboard kernel below the split (default; boards "
                        f"up to {SMALL_BOARD} are counted in Python, which is quicker than "
                        "loading it); reference: the immutable-state search all the way down")
    parser.add_argument("--order", type=_cli.choice_type("order", ORDERS),
                        default="first-available", metavar="|".join(ORDERS),
                        help="row search order (default: first-available, which the fast kernel "
                        "needs)")
    parser.add_argument("--show", type=_cli.positive_int, default=None, metavar="K",
                        help="draw up to K solutions (the first K in search order; default: none)")
    parser.add_argument("--unique", action="store_true",
                        help="also report the essentially different solutions (up to rotation "
                        "and reflection, OEIS A002562)")
    # Counting wants every core; --find-one is one seeded search unless asked to race W.
    _cli.add_engine_options(parser, None, helps={
        "--workers": "worker processes; -1 = all cores (default: -1 to count, 1 for boards "
                     f"up to {SMALL_BOARD} and with --find-one)"})
    _cli.add_checkpoint_options(parser)
    _cli.add_verify_option(parser)
    _cli.add_metrics_option(parser)
    add_html_options(parser)
    _add_local_search(parser)
    return parser


def _add_local_search(parser: argparse.ArgumentParser) -> None:
    try:
        from .local.cli import add_local_arguments
    except ImportError:
        return
    add_local_arguments(parser)


def _check(args: argparse.Namespace) -> str | None:
    """A usage problem the parser cannot see, or None."""
    if args.html:
        from .page import queens_html_problem

        return queens_html_problem(args) or _check_run(args)
    return _check_run(args)


def _check_run(args: argparse.Namespace) -> str | None:
    engine_problem = _cli.check_engine_options(args)
    if engine_problem:
        return engine_problem
    if args.scheduler_address is None and args.backend != "serial":
        problem = _cli.too_many_workers(
            args.workers, "; for more, join a cluster with --scheduler-address")
        if problem:
            return problem
    if args.checkpoint is not None and (getattr(args, "find_one", False) or args.metrics):
        return "--checkpoint applies to counting"
    if getattr(args, "find_one", False):
        return _find_one_memory(args)
    if args.n > MAX_COUNT_SIZE:
        return (f"n = {args.n} is too large to count: the kernel's diagonal masks hold "
                f"n <= {MAX_COUNT_SIZE} (and counts beyond n = 27 are unknown to anyone); "
                "use --find-one for one solution on a huge board")
    return None


def _unused(args: argparse.Namespace, given: set[str]) -> str | None:
    """An option given to a run that does not use it (``unused``), or None."""
    try:
        from .local.cli import METHOD_OPTIONS
    except ImportError:  # no local search here (see ``_add_local_search``): no such options
        return unused_option(args, given, {})
    return unused_option(args, given, METHOD_OPTIONS)


def _physical_memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def _find_one_memory(args: argparse.Namespace) -> str | None:
    """Too large a board for this machine's memory, or None."""
    from ..engine import resolve_workers

    memory = _physical_memory()
    per_queen = (FIND_ONE_BYTES * resolve_workers(args.workers)
                 + (FIND_ONE_JSON_BYTES if args.json else FIND_ONE_BYTES))
    if memory is None or args.n * per_queen <= memory:
        return None
    return (f"n = {args.n:,} is too large for --find-one here: about {per_queen} bytes per "
            f"queen ({FIND_ONE_BYTES} per worker, more for the answer) is "
            f"{args.n * per_queen / 2**30:,.1f} GiB, and this machine has "
            f"{memory / 2**30:,.1f} GiB; at most n = {memory // per_queen:,}")


def _verify_count(n: int, report: SearchReport) -> None:
    if not report.complete or n > len(KNOWN_COUNTS):
        return
    known = KNOWN_COUNTS[n - 1]
    if report.count != known:
        raise VerifyError(f"--verify: the count for n = {n} is {report.count:,}, but OEIS "
                          f"A000170 says {known:,}")


def _first_solutions(n: int, k: int) -> list[list[int]]:
    """The first k solutions in search order, each checked independently."""
    space = QueensSpace(ImmutableQueenLocations(n), kernel="reference")
    found = [list(board.queens) for board in engine.solutions(space, limit=k)]
    bad = [cols for cols in found if not is_queens_solution(cols)]
    if bad:
        raise VerifyError(f"solution {found.index(bad[0]) + 1} of n = {n}, {bad[0]}, is not "
                          "a solution (is_queens_solution)")
    return found


def _payload(args: argparse.Namespace, report: SearchReport) -> dict[str, Any]:
    payload = report.as_dict()
    payload.update(n=args.n, kernel=args.kernel, order=args.order)
    if args.stats:
        payload.update(report.task_table())
    return payload


def _print_human(args: argparse.Namespace, report: SearchReport, out: TextIO) -> None:
    partial = "" if report.complete else f" (partial: {report.stop_reason}; a lower bound)"
    print(f"{args.n}-queens: {report.count:,} solutions{partial}", file=out)
    nodes = report.nodes - report.resumed_nodes  # this run's
    rate = nodes / report.seconds if report.seconds > 0 else 0.0
    resumed = ("" if report.resumed_from is None
               else f", resumed from a checkpoint at {report.resumed_from:,} solutions")
    print(f"  {report.seconds:.3f} s, {report.workers} worker(s) ({report.backend}), "
          f"kernel {args.kernel}, {report.tasks} tasks, {report.nodes:,} nodes "
          f"({rate / 1e6:.1f} M nodes/s){resumed}", file=out)


def _show(args: argparse.Namespace, payload: dict[str, Any], out: TextIO) -> None:
    boards = _first_solutions(args.n, args.show)
    payload["solutions"] = boards
    if args.json:
        return
    for index, cols in enumerate(boards, 1):
        print(f"\nsolution {index}: {cols}", file=out)
        print("\n".join(" ".join("Q" if c == col else "." for c in range(args.n))
                        for col in cols), file=out)


def _print_unique(unique: int | None, out: TextIO) -> None:
    text = "unknown (the count is partial)" if unique is None else f"{unique:,}"
    print(f"  unique: {text} essentially different (up to rotation and reflection)", file=out)


def count_space(args: argparse.Namespace) -> QueensSpace:
    """The space to count: a small board under the fast kernel walks the same canonical
    tree in Python (``args.kernel`` then says ``reference``, what ran)."""
    board = ImmutableQueenLocations(args.n)
    if args.kernel == "fast" and args.order == "first-available" and args.n <= SMALL_BOARD:
        args.kernel = "reference"
        return QueensSpace(board, order_named(args.order), "reference", symmetry="d4")
    return QueensSpace(board, order_named(args.order), args.kernel)


def count_command(args: argparse.Namespace, out: TextIO) -> int:
    space = count_space(args)
    crashed = None
    options = _cli.engine_options(args)
    checkpoint = None
    if args.checkpoint is not None:
        from ..engine.checkpoint import Checkpoint

        checkpoint = options["checkpoint"] = Checkpoint(
            args.checkpoint, f"nqueens n={args.n} order={args.order} kernel={args.kernel} "
            f"symmetry={space.symmetry}", args.checkpoint_every)
    try:
        report = engine.count(space, **options)
    except SearchInterrupted as stop:
        report = stop.report
    except WorkerCrashError as crash:
        report, crashed = crash.report, crash
    except PoolLostError:  # no report comes back; say what the checkpoint holds
        _cli.checkpoint_note(PROG, checkpoint, None)
        raise
    if args.verify:
        _verify_count(args.n, report)
    _print_count(args, space, report, out)
    _cli.checkpoint_note(PROG, checkpoint, report)
    if args.html:
        from .page import queens_html

        print(queens_html(args, report), file=sys.stderr)
    if crashed is not None:
        return _cli.failure(PROG, crashed)
    return _cli.exit_code(report)


def _print_count(args: argparse.Namespace, space: QueensSpace, report: SearchReport,
                 out: TextIO) -> None:
    payload = _payload(args, report)
    payload["symmetry"] = space.symmetry
    if args.unique:
        from .burnside import unique_from_total  # the compiled rotation counts

        payload["unique"] = unique_from_total(args.n, report.count) if report.complete else None
    if args.show and report.complete:
        _show(args, payload, out)
    if args.json:
        _cli.print_json(payload, out)
    else:
        _print_human(args, report, out)
        if args.unique:
            _print_unique(payload["unique"], out)
        if args.stats:
            _cli.print_stats(report, out)


def metrics_command(args: argparse.Namespace, out: TextIO) -> int:
    """The lab's abstract metrics of the whole tree (no symmetry, one task per child);
    with ``--json`` ``{"n", "order", "metrics", "complete", "stop_reason"}``, ``metrics``
    None when Ctrl-C stopped the walk."""
    if args.n > MAX_METRICS_SIZE:
        return _cli.usage_error(PROG, f"--metrics walks every node in Python: n <= "
                                f"{MAX_METRICS_SIZE} (n = 13 already has 4.7 million nodes)")
    space = QueensSpace(ImmutableQueenLocations(args.n), order_named(args.order), "reference")
    about = {"n": args.n, "order": args.order}
    try:
        return _cli.metrics_command(space, out, args.json,
                                    {**about, "complete": True, "stop_reason": None})
    except KeyboardInterrupt:  # the walk keeps nothing worth printing: say it stopped
        if args.json:
            _cli.print_json({**about, "metrics": None, "complete": False,
                             "stop_reason": "interrupted"}, out)
        raise  # main says "interrupted" and exits 130


def run(args: argparse.Namespace, out: TextIO) -> int:
    problem = _check(args)
    if problem:
        return _cli.usage_error(PROG, problem)
    if getattr(args, "find_one", False):
        from .local.cli import run_find_one

        return run_find_one(args, out=out)
    if args.metrics:
        return metrics_command(args, out)
    return count_command(args, out)


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    """Run the CLI; returns the exit status (usage errors included: never raises)."""
    out = out or sys.stdout
    parser = build_parser()
    args = parser.parse_or_status(argv)
    if isinstance(args, int):
        return args
    problem = _unused(args, _cli.given_options(parser, argv))
    if problem:
        return _cli.usage_error(PROG, problem)
    if args.workers is None:  # one worker for --find-one and for boards counted in no time
        args.workers = 1 if getattr(args, "find_one", False) or args.n <= SMALL_BOARD else -1
    try:
        return run(args, out)
    except VerifyError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return _cli.EXIT_ERROR
    except (BrokenPipeError, KeyboardInterrupt, MemoryError, WorkerCrashError) as error:
        return _cli.failure(PROG, error)
    except (ValueError, OSError) as error:
        return _cli.usage_error(PROG, str(error))
    except Exception as error:  # noqa: BLE001 - one line, never a traceback
        return _cli.failure(PROG, error)


def process() -> int:
    # A one-shot process: what the imports and the kernels allocate lives until exit, so
    # freeze it out of the collector's sight (saves about 0.3 s of CPU per run).
    gc.freeze()
    code = main()
    gc.freeze()
    return code


if __name__ == "__main__":
    _cli.run_process(process)
