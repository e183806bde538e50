"""The Sudoku CLI: ``python -m parallel_backtrack.sudoku FILE|-``.

Reads every puzzle in FILE (``-`` for stdin), solves (or with ``--count``
counts) each, prints each solution as a grid (one puzzle) or one line per
puzzle (several), then a summary.  ``--json`` prints JSON Lines instead, one
object per puzzle.

Exit status: 0 when every puzzle is solved, 1 when any is unsolvable or
invalid, 2 for usage errors (one line on stderr, never a traceback), 3 when
``--timeout`` stopped the run, 4 when an answer is not trustworthy (a solution
failed ``--verify``, worker processes kept dying), 130 after Ctrl-C, 141 when
stdout was closed early (``| head``).  A stopped run prints what it has: the
puzzles done, the one in progress marked ``stopped`` (its count a lower bound),
and a summary saying how many were not searched.

Glossary
--------
entry, result, status
    See ``runner`` and ``results``: one result per puzzle in the file, ``solved``,
    ``unsolvable``, ``invalid`` (with its line number and the reason),
    ``stopped`` (``--timeout`` or Ctrl-C: ``count>=N`` is a lower bound) or
    ``failed`` (no trustworthy answer).  File-wide problems (missing, a
    directory, empty, binary, not UTF-8) are usage errors; see ``formats``
    for the limits on lines and sizes.
workers
    joblib's ``n_jobs``: -1 for every core; 0 and below -1 are refused.  One
    puzzle is split into subtrees across workers; a file of many puzzles is
    split across puzzles.
solver
    ``backtrack`` (the default: the kernels above, any option), ``cdcl``
    (clause learning, ``cdcl``: solve only, one core, one puzzle at a time;
    ``nodes`` are its decisions) or ``auto`` (``cdcl`` for 25x25 and 36x36
    puzzles when solving, ``backtrack`` otherwise).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, BinaryIO

from parallel_backtrack import _cli
from parallel_backtrack._cli import (
    EXIT_ERROR,
    EXIT_NO,
    EXIT_OK,
    Parser,
    choice_type,
    positive_int,
    usage_error,
)
from parallel_backtrack._jit_paths import is_compiled
from parallel_backtrack._output import held_signals
from parallel_backtrack.engine.report import PoolLostError
from parallel_backtrack.viz.options import add_html_options
from parallel_backtrack.viz.page import PageError

from .cli_input import (
    KERNEL_DIR,
    SMALL_FILE_LINES,
    UsageError,
    display_name,
    open_input,
    read_bulk,
    read_entries,
    read_input,
)
from .formats import PuzzleEntry
from .orders import ORDERS
from .output import print_block, print_result
from .propagate import PROPAGATORS
from .results import PuzzleResult, ResultBlock, Summary
from .runner import Job, batch_results, solve_entries, solve_entry, solve_entry_reported
from .space import KERNELS

if TYPE_CHECKING:
    from ..engine import SearchReport
    from .batch_io import FileSlices
    from .kernel.read import Batch

PROG = _cli.prog("sudoku")
SOLVERS = ("backtrack", "cdcl", "auto")
CDCL_SMALLEST_BOX = 5  # --solver auto: below this, backtracking is quick on any puzzle
# One puzzle, one worker: seconds on the Python path before the kernel takes over.  With
# the kernel compiled, about what loading numba and the kernel costs, so no puzzle takes
# much more than twice its best time (most 9x9 puzzles need a few ms there).  Not yet
# compiled, a compile takes 20-60 s, so the Python path gets a few seconds first (every
# puzzle of the hardest 9x9 sets needs under 0.2 s there); so do the puzzles of a file of
# up to SMALL_FILE_LINES lines, which the kernel would read and solve in bulk if compiled.
PYTHON_SECONDS, PYTHON_SECONDS_UNCOMPILED = 0.3, 3.0
# The compiled functions a first run of one puzzle would load.
ONE_PUZZLE_KERNEL = ("search.explore_roots",)
# The --help examples' puzzles: one easy (no compile needed), one with 847 solutions.
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
MANY = "...4......5..8.2.6.....3...2...4....3......1...5.3.8.25...6.3.8..6....95..8......"


def build_parser() -> Parser:
    parser = Parser(
        prog=PROG, description="Solve or count Sudoku puzzles (4x4 to 36x36).",
        epilog="examples (files from the repository's tests/data):\n"
        f"  echo '{EASY}' | %(prog)s -\n"
        f"  echo '{MANY}' | %(prog)s - --count --limit 2\n"
        "  %(prog)s tests/data/sudoku/norvig_top95.txt --workers -1 --json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", metavar="FILE|-", help="puzzle file, or - for stdin")
    parser.add_argument("--order", type=choice_type("order", ORDERS), default=None,
                        metavar="|".join(ORDERS),
                        help=f"square order: {' | '.join(ORDERS)} (default fewest)")
    parser.add_argument("--propagation", type=choice_type("propagation", PROPAGATORS),
                        default=None, metavar="|".join(PROPAGATORS),
                        help=f"{' | '.join(PROPAGATORS)} (default units; with neither "
                        "option, a file of 9x9 puzzles goes through the 9x9 band kernel)")
    parser.add_argument("--kernel", type=choice_type("kernel", KERNELS), default="fast",
                        metavar="|".join(KERNELS),
                        help="fast: the compiled kernel (default; files of many puzzles are "
                        "read and solved in bulk); reference: the immutable-puzzle search")
    parser.add_argument("--count", action="store_true", help="count the solutions")
    parser.add_argument("--limit", type=positive_int, metavar="K",
                        help="with --count: stop counting at K (2 asks: is it unique?; default: "
                        "count them all)")
    _cli.add_engine_options(parser, 1, helps={
        "--workers": "workers (-1 = all cores; default 1): one puzzle is split across "
                     "processes by the engine (--backend, --budget...); a file of many "
                     "puzzles is solved in bulk on a pool of threads (--kernel fast, no "
                     "--timeout), else dealt out by puzzle to joblib processes; with "
                     "--scheduler-address each puzzle in turn is split across the cluster",
        "--json": "JSON Lines, one object per puzzle",
        "--stats": "nodes and seconds per puzzle",
    }, short_workers=False)
    _cli.add_checkpoint_options(parser)
    parser.add_argument("--solver", type=choice_type("solver", SOLVERS), default="backtrack",
                        metavar="|".join(SOLVERS),
                        help="backtrack (default) | cdcl: clause learning, solve only, for "
                        "hard big puzzles | auto: cdcl for box 5 and up when solving")
    _cli.add_verify_option(parser)
    add_html_options(parser)
    return parser


def _check(args: argparse.Namespace) -> None:
    engine_problem = _cli.check_engine_options(args)
    if engine_problem:
        raise UsageError(engine_problem)
    if args.limit is not None and not args.count:
        raise UsageError("--limit needs --count")
    if args.checkpoint is not None and (not args.count or args.limit is not None):
        raise UsageError("--checkpoint applies to counting every solution (--count, "
                         "without --limit)")
    if args.solver == "cdcl" and args.count:
        raise UsageError("--solver cdcl only solves; it cannot --count "
                         "(use --solver backtrack to count)")
    if args.solver == "cdcl" and args.workers != 1:
        raise UsageError(f"--solver cdcl runs on one core; got --workers {args.workers}")
    if args.solver != "backtrack" and args.scheduler_address is not None:
        raise UsageError(f"--solver {args.solver} runs here, on one core; it does not go "
                         "with --scheduler-address")
    if args.scheduler_address is None and args.backend != "serial":
        problem = _cli.too_many_workers(
            args.workers, "; for more, join a cluster with --scheduler-address")
        if problem:
            raise UsageError(problem)


def _python_until(args: argparse.Namespace, puzzles: int) -> float | None:
    """Until when (``time.perf_counter()``) one worker searches on the Python path before the
    kernel takes over: one puzzle, or a few when the kernel is not compiled yet (see
    ``PYTHON_SECONDS``); with several workers, one puzzle before the kernel's first
    compile (``runner._python_first``); None for the kernel at once."""
    if args.kernel != "fast" or not 1 <= puzzles <= SMALL_FILE_LINES:
        return None
    if args.workers != 1:
        if puzzles != 1 or args.scheduler_address is not None or is_compiled(
                KERNEL_DIR, *ONE_PUZZLE_KERNEL):
            return None
        return time.perf_counter() + PYTHON_SECONDS_UNCOMPILED
    if not is_compiled(KERNEL_DIR, *ONE_PUZZLE_KERNEL):
        return time.perf_counter() + PYTHON_SECONDS_UNCOMPILED
    return time.perf_counter() + PYTHON_SECONDS if puzzles == 1 else None


def _job(args: argparse.Namespace, puzzles: int = 0, checkpoint: Any = None) -> Job:
    """The job; the time limit starts now (it is for searching, not reading)."""
    deadline = None if args.timeout is None else time.perf_counter() + args.timeout
    options = {key: value for key, value in _cli.engine_options(args).items()
               if key not in ("workers", "timeout", "progress") and value is not None}
    return Job(args.order, args.propagation, args.count, args.limit, deadline, args.verify,
               args.kernel, _python_until(args, puzzles), tuple(sorted(options.items())),
               checkpoint)


def _checkpoint(args: argparse.Namespace, entries: list[PuzzleEntry], total: int | None
                ) -> Any:
    """The count's ``Checkpoint`` (None without ``--checkpoint``), keyed by the puzzle and
    the options that shape its tree, and checked now: a file of another search is a
    usage error before any search.  It counts one puzzle."""
    if args.checkpoint is None:
        return None
    if total != 1:
        raise UsageError(f"--checkpoint counts one puzzle; {display_name(args.file)} holds {total}")
    from ..engine.checkpoint import Checkpoint, CheckpointError

    cells = entries[0].cells
    if cells is None:  # unreadable: reported as invalid, nothing to count
        return None
    checkpoint = Checkpoint(args.checkpoint, f"sudoku cells={','.join(map(str, cells))} "
                            f"order={args.order} propagation={args.propagation} "
                            f"kernel={args.kernel}", args.checkpoint_every)
    try:
        saved = checkpoint.load()
    except CheckpointError as error:
        raise UsageError(str(error)) from None
    if saved is not None:
        print(f"{PROG}: going on from checkpoint {args.checkpoint} ({saved.count:,} "
              "solutions counted)", file=sys.stderr)
    return checkpoint


def _uses_cdcl(entry: PuzzleEntry, args: argparse.Namespace) -> bool:
    if args.solver == "auto":
        return not args.count and (entry.box or 0) >= CDCL_SMALLEST_BOX
    return args.solver == "cdcl"


def _cdcl_results(entries: list[PuzzleEntry], job: Job,
                  args: argparse.Namespace) -> Iterator[PuzzleResult]:
    """One result per entry, each by clause learning or (``auto``) by backtracking,
    up to the first ``stopped`` one."""
    from .cdcl import solve_entry_cdcl

    for index, entry in enumerate(entries):
        if _uses_cdcl(entry, args):
            result = solve_entry_cdcl(index, entry, deadline=job.deadline, verify=job.verify)
        else:
            result = solve_entry(index, entry, job, workers=args.workers)
        yield result
        if result.stop_reason is not None:
            return


def _results(entries: list[PuzzleEntry], job: Job, args: argparse.Namespace,
             reports: list[SearchReport]) -> Iterator[PuzzleResult]:
    """Every entry's result; ``reports`` receives the engine's reports of a lone
    puzzle's parallel runs."""
    if args.solver != "backtrack":
        return _cdcl_results(entries, job, args)
    if len(entries) == 1 or args.scheduler_address is not None:
        return _each_split(entries, job, args, reports)
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    return solve_entries(entries, job, workers=args.workers, progress=progress)


def _each_split(entries: list[PuzzleEntry], job: Job, args: argparse.Namespace,
                reports: list[SearchReport]) -> Iterator[PuzzleResult]:
    """Each puzzle in turn, its tree split across ``--workers`` (across the cluster's
    workers with ``--scheduler-address``), up to the first ``stopped`` one."""
    workers = max(2, args.workers) if args.scheduler_address is not None else args.workers
    for index, entry in enumerate(entries):
        if args.html:  # the page draws the run's reports
            result, found = solve_entry_reported(index, entry, job, workers=workers)
            reports.extend(found)
        else:
            result = solve_entry(index, entry, job, workers=workers)
        yield result
        if result.stop_reason is not None:
            return


def _finish(summary: Summary, stop: str | None, total: int | None, seconds: float,
            args: argparse.Namespace) -> int:
    """The summary line (stdout, or stderr with --json --stats) and the exit status
    (``total`` None: the rest of the file was not counted)."""
    text = summary.text(seconds, args.count)
    if stop is not None:
        rest = ("the rest of the file not counted" if total is None else
                f"{total - summary.puzzles} of {total} puzzles not searched")
        notice = f"partial ({stop}): {summary.stopped} stopped, {rest}"
        text += f"; {notice}"
        if args.json:
            print(f"{PROG}: {notice}", file=sys.stderr)
    if not args.json:
        print(text)
    elif args.stats:
        print(text, file=sys.stderr)
    if summary.failed:
        return EXIT_ERROR
    if stop is not None:
        return _cli.stop_code(stop)
    return EXIT_OK if summary.solved == summary.puzzles else EXIT_NO


def run(args: argparse.Namespace) -> int:
    bands = args.order is None and args.propagation is None  # neither given: band kernel
    args.order, args.propagation = args.order or "fewest", args.propagation or "units"
    _check(args)
    stream = open_input(args.file)
    try:
        return _run(args, stream, bands)
    finally:
        if args.file != "-":
            stream.close()


def _run(args: argparse.Namespace, stream: BinaryIO, bands: bool) -> int:
    raw, streamed = read_input(stream, args)
    batch = None if streamed is not None else read_bulk(raw, args)
    bulk = streamed is not None or batch is not None
    entries = [] if bulk else read_entries(raw, args.file)
    total: int | None = len(batch.givens) + len(batch.errors) if batch else len(entries)
    if streamed is not None:  # counted when needed: a usage error, or a stopped run
        total = streamed[1].total() if args.checkpoint is not None else None
    checkpoint = _checkpoint(args, entries, total)
    trace = None
    if args.html:  # a puzzle the page cannot show is a usage error before any search
        from .page import html_trace

        trace = html_trace(args, None if bulk else entries)
    started, summary, stop = time.perf_counter(), Summary(), None
    results: Iterator[PuzzleResult | ResultBlock] = iter(())
    reports: list[SearchReport] = []
    try:
        if not bulk:
            results = _results(entries, _job(args, len(entries), checkpoint), args, reports)
        else:
            batches: Iterable[Batch] = streamed[0] if streamed is not None else [
                batch] if batch is not None else []
            results = batch_results(batches, _job(args), workers=args.workers, bands=bands)
        for result in results:
            with held_signals():  # printed and counted together, or neither
                if isinstance(result, ResultBlock):
                    summary.add_block(result)
                    print_block(result, args)
                    continue
                summary.add(result)
                stop = stop or result.stop_reason
                print_result(result, args, alone=total == 1)
    except (KeyboardInterrupt, SystemError) as error:  # between puzzles, or waiting
        if not _cli.interrupted(error):
            raise
        stop = "interrupted"
    except PoolLostError:  # no result comes back; say what the checkpoint holds
        _cli.checkpoint_note(PROG, checkpoint, None)
        raise
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # stops the workers still running
    seconds = time.perf_counter() - started
    if stop is not None:
        _cli.checkpoint_note(PROG, checkpoint, None)
        if streamed is not None:
            total = _rest_counted(streamed[1])
    if trace is not None:
        from .page import write_html

        print(write_html(args, trace, reports), file=sys.stderr)
    return _finish(summary, stop, total, seconds, args)


def _rest_counted(slices: FileSlices) -> int | None:
    """The file's puzzles and bad lines, those not read yet counted now; None if a second
    Ctrl-C stops the count."""
    try:
        return slices.total()
    except KeyboardInterrupt:
        return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (never raises)."""
    parser = build_parser()
    args = parser.parse_or_status(argv)
    if isinstance(args, int):
        return args
    problem = _cli.companion_problem(args, _cli.given_options(parser, argv))
    if problem:
        return usage_error(PROG, problem)
    try:
        return run(args)
    except (UsageError, PageError) as error:
        return usage_error(PROG, str(error))
    except (Exception, KeyboardInterrupt) as error:  # noqa: BLE001 - one line, no traceback
        return _cli.failure(PROG, error)


if __name__ == "__main__":
    _cli.run_process(main)
