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
import sys
import time
from collections.abc import Sequence

from parallel_backtrack.engine import UnknownNameError, resolve_workers

from .batch import INVALID, SOLVED, Job, PuzzleResult, Summary, solve_entries, solve_entry
from .formats import PuzzleEntry, format_grid, parse_one, read_puzzles
from .orders import ORDERS, order_named
from .propagate import PROPAGATORS, check_propagation

PROG = "python -m parallel_backtrack.sudoku"


class UsageError(Exception):
    """A usage problem the CLI reports in one line with exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def _name(check, kind: str):  # type: ignore[no-untyped-def]
    def parse(text: str) -> str:
        try:
            check(text)
        except UnknownNameError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        return text

    parse.__name__ = kind
    return parse


def _workers(text: str) -> int:
    try:
        return resolve_workers(int(text))
    except ValueError as error:
        raise argparse.ArgumentTypeError(
            f"--workers takes a positive integer or -1 (all cores), got {text!r}"
        ) from error


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"--limit takes a positive integer, got {text!r}")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Solve or count Sudoku puzzles (4x4 to 36x36).")
    parser.add_argument("file", metavar="FILE|-", help="puzzle file, or - for stdin")
    parser.add_argument("--order", type=_name(order_named, "order"), default="fewest",
                        help=f"square order: {' | '.join(ORDERS)} (default fewest)")
    parser.add_argument("--propagation", type=_name(check_propagation, "propagation"),
                        default="units", help=f"{' | '.join(PROPAGATORS)} (default units)")
    parser.add_argument("--count", action="store_true", help="count the solutions")
    parser.add_argument("--limit", type=_positive, metavar="K",
                        help="with --count: stop counting at K")
    parser.add_argument("--workers", type=_workers, default=1, metavar="W",
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
    return 0 if summary.solved == summary.puzzles else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status."""
    try:
        return run(build_parser().parse_args(argv))
    except UsageError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 1


if __name__ == "__main__":
    sys.exit(main())
