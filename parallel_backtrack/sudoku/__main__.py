"""The Sudoku CLI: ``python -m parallel_backtrack.sudoku FILE|-``.

Reads every puzzle in FILE (``-`` for stdin), solves (or with ``--count``
counts) each, prints each solution as a grid (one puzzle) or one line per
puzzle (several), then a summary.  ``--json`` prints JSON Lines instead, one
object per puzzle.

Exit status: 0 when every puzzle is solved, 1 when any is unsolvable or
invalid, 2 for usage errors (one line on stderr, never a traceback).

Glossary
--------
entry, result, status
    See ``batch``: one result per puzzle in the file, ``solved``,
    ``unsolvable`` or ``invalid``.
workers
    joblib's ``n_jobs``: -1 for every core; 0 and below -1 are refused.  One
    puzzle is split into subtrees across workers; a file of many puzzles is
    split across puzzles.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence

from parallel_backtrack._cli import (
    EXIT_INTERRUPTED,
    EXIT_NO,
    EXIT_OK,
    EXIT_USAGE,
    Parser,
    choice_type,
    positive_int,
    usage_error,
    workers_type,
)

from .batch import INVALID, SOLVED, Job, PuzzleResult, Summary, solve_entries, solve_entry
from .formats import PuzzleEntry, format_grid, parse_one, read_puzzles
from .orders import ORDERS
from .propagate import PROPAGATORS

PROG = "python -m parallel_backtrack.sudoku"


class UsageError(Exception):
    """A usage problem found after parsing: one line on stderr, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog=PROG, description="Solve or count Sudoku puzzles (4x4 to 36x36).")
    parser.add_argument("file", metavar="FILE|-", help="puzzle file, or - for stdin")
    parser.add_argument("--order", type=choice_type("order", ORDERS), default="fewest",
                        metavar="|".join(ORDERS),
                        help=f"square order: {' | '.join(ORDERS)} (default fewest)")
    parser.add_argument("--propagation", type=choice_type("propagation", PROPAGATORS),
                        default="units", metavar="|".join(PROPAGATORS),
                        help=f"{' | '.join(PROPAGATORS)} (default units)")
    parser.add_argument("--count", action="store_true", help="count the solutions")
    parser.add_argument("--limit", type=positive_int, metavar="K",
                        help="with --count: stop counting at K")
    parser.add_argument("--workers", type=workers_type, default=1, metavar="W",
                        help="processes (joblib n_jobs: -1 = all cores; default 1)")
    parser.add_argument("--json", action="store_true", help="JSON Lines, one object per puzzle")
    parser.add_argument("--stats", action="store_true", help="nodes and seconds per puzzle")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="progress bar on stderr (default: when stderr is a terminal)")
    return parser


def _read(path: str) -> list[PuzzleEntry]:
    try:
        entries = read_puzzles(path)
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise UsageError(f"cannot read {path!r}: {reason}") from None
    if not entries:
        raise UsageError(f"no puzzle in {path!r}")
    return entries


def _text_line(result: PuzzleResult, args: argparse.Namespace) -> str:
    if result.status == INVALID:
        text = f"invalid: {result.error}"
    else:
        text = result.solution if result.status == SOLVED else "unsolvable"
    if args.count:
        text += f"\tcount={result.count}"
    if args.stats:
        text += f"\tnodes={result.nodes}\tseconds={result.seconds:.4f}"
    return text


def _text_grid(result: PuzzleResult, args: argparse.Namespace) -> str:
    if result.status != SOLVED or result.solution is None:
        return _text_line(result, args)
    extra = _text_line(result, args).partition("\t")[2].replace("\t", "  ")
    return format_grid(parse_one(result.solution)) + (f"\n{extra}" if extra else "")


def run(args: argparse.Namespace) -> int:
    if args.limit is not None and not args.count:
        raise UsageError("--limit needs --count")
    entries = _read(args.file)
    job = Job(args.order, args.propagation, args.count, args.limit)
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    started = time.perf_counter()
    if len(entries) == 1:
        results = iter([solve_entry(0, entries[0], job, workers=args.workers)])
    else:
        results = solve_entries(entries, job, workers=args.workers, progress=progress)
    summary = Summary()
    for result in results:
        summary.add(result)
        if args.json:
            print(json.dumps(result.as_json(args.count)), flush=len(entries) > 1)
        elif len(entries) == 1:
            print(_text_grid(result, args))
        else:
            print(_text_line(result, args), flush=False)
    text = summary.text(time.perf_counter() - started, args.count)
    if not args.json:
        print(text)
    elif args.stats:
        print(text, file=sys.stderr)
    return EXIT_OK if summary.solved == summary.puzzles else EXIT_NO


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:  # usage errors and --help, already printed
        return stop.code if isinstance(stop.code, int) else EXIT_USAGE
    try:
        return run(args)
    except UsageError as error:
        return usage_error(PROG, str(error))
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_NO


if __name__ == "__main__":
    sys.exit(main())
