"""``python -m parallel_backtrack.sliding FILE...``: solve sliding-tile puzzles optimally.

Check every file (readable, text, holding a puzzle), then read them as the search
goes (``batch``: a bounded window of puzzles held), solve each puzzle (a batch spreads
over the workers; a single puzzle with IDA* splits each iteration over them), print
one line or one JSON object per puzzle in input order, a bad line's ``invalid`` one
included.  Exit codes as
the other CLIs (``_cli``): 0 all solved, 1 some puzzle unsolvable or invalid, 2
usage (also a file with no puzzles, or a heuristic no puzzle can use), 3 stopped by
``--timeout`` or ``--max-nodes``, 4 internal error, 130 Ctrl-C.
``... sliding pdb build|list|remove`` manages the cached pattern databases
(``pdb_command``).

Glossary
--------
puzzle label
    ``FILE:LINE``, the line where the puzzle starts.
engine options
    ``--workers``, ``--backend`` (``dask`` too), ``--scheduler-address``,
    ``--timeout``, ``--progress``, ``--json`` and ``--per-worker`` come from
    ``_cli.add_engine_options``, as in every command line, less ``--budget``,
    ``--budget-seconds`` and ``--stats``, which IDA* has no use for.
show
    ``--show moves`` prints the blank's moves (``U D L R``); ``--show boards``
    prints every board of the solution path.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from collections.abc import Iterator
from itertools import chain
from math import isqrt
from typing import Any, TextIO

from .. import _cli
from .._output import write_whole
from ..viz.options import html_target
from .heuristics import NAMES

PROG = _cli.prog("sliding")
ALGORITHMS = ("ida", "astar")
HEURISTIC_CHOICES = NAMES
GOAL_CHOICES = ("blank-last", "blank-first")
FORMAT_CHOICES = ("auto", "cs61b", "rows", "korf")


def build_parser() -> _cli.Parser:
    parser = _cli.Parser(
        prog=PROG,
        description="Solve sliding-tile puzzles (8-puzzle, 15-puzzle, n x n up to 10x10) "
        "optimally: IDA* in a compiled kernel with Manhattan, linear-conflict or pattern-"
        "database heuristics, or A*. Several puzzles in a file are one batch over the "
        "workers; one puzzle with IDA* splits each iteration's tree over them.",
        epilog="examples (files from the repository's tests/data):\n"
        "  %(prog)s tests/data/search/cs61b_puzzles/puzzle20.txt --show moves\n"
        "  %(prog)s tests/data/search/korf100.txt --goal blank-first --heuristic pdb "
        "--workers 2\n"
        "  echo '1 2 3 4 5 6 0 7 8' | %(prog)s - --algorithm astar --json\n"
        "  %(prog)s pdb list     (also: pdb build NAME, pdb remove NAME|--all)",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="puzzle files (CS61B/algs4 boards, one-line rows, Korf rows); "
                        "- reads stdin; a first word 'pdb' is the database command (a "
                        "file called pdb: ./pdb)")
    parser.add_argument("--format", type=_cli.choice_type("format", FORMAT_CHOICES),
                        default="auto", metavar="|".join(FORMAT_CHOICES),
                        help="input format (default: auto, from the first data line)")
    parser.add_argument("--algorithm", type=_cli.choice_type("algorithm", ALGORITHMS),
                        default="ida", metavar="ida|astar",
                        help="ida: compiled IDA* (default); astar: A* in Python, for "
                        "8-puzzles and easy 15-puzzles (see --max-nodes)")
    parser.add_argument("--heuristic", type=_cli.choice_type("heuristic", HEURISTIC_CHOICES),
                        default="auto", metavar="|".join(HEURISTIC_CHOICES[:5]),
                        help="auto (default): IDA* pdb on 3x3 (exact) and 4x4 (6-6-3 with "
                        "reflection; built once, about a minute, then cached), linear "
                        "elsewhere; A* a 4x4 database only if already cached, else "
                        "linear; also pdb-555, pdb-663, pdb-exact, and pdb-78 (4x4: "
                        "Korf & Felner's 7-8 partition, about 23x fewer nodes than 6-6-3; "
                        "577 MB on disk, built once in about 15 minutes on 2 cores using "
                        "4.7 GB of memory)")
    parser.add_argument("--goal", type=_cli.choice_type("goal", GOAL_CHOICES),
                        default="blank-last", metavar="blank-last|blank-first",
                        help="the solved board: 1 2 .. 0 (default; CS61B) or 0 1 2 .. (Korf)")
    _run_options(parser)
    _output_options(parser)
    return parser


def _run_options(parser: argparse.ArgumentParser) -> None:
    _cli.add_engine_options(parser, default_workers=1, budgets=False, stats=False,
                            per_worker=True, helps={
        "--per-worker": "IDA*: subtrees per worker in each iteration's cut (default: "
        "the engine's plan)",
        "--json": "one JSON object per puzzle (JSON Lines)",
        "--workers": "worker processes; -1 = all cores (default: 1). A batch spreads its "
        "puzzles over them (easy ones many to a task); one puzzle with IDA* splits "
        "each iteration"})
    group = parser.add_argument_group("search")
    group.add_argument("--max-nodes", type=_cli.positive_int, default=None, metavar="N",
                       help="give a puzzle up after N nodes (A*: enqueued; IDA*: generated) "
                       "instead of filling memory or running on; exit 3")
    group.add_argument("--complete-last-iteration", action="store_true",
                       help="IDA*: finish the last iteration too, so node counts are the "
                       "same for any number of workers")


def _output_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("show")
    group.add_argument("--show", nargs="?", const="moves", default=None,
                       type=_cli.choice_type("show", ("moves", "boards")),
                       metavar="moves|boards",
                       help="print the solution: the blank's moves (U D L R) or every board")
    group.add_argument("--html", type=html_target, default=None, metavar="FILE",
                       help="also write a self-contained HTML page that plays the first "
                       "solved puzzle's solution, move by move, to FILE")
    _cli.add_verify_option(parser)


class UsageError(Exception):
    """A file that holds no puzzles, or a heuristic no puzzle can use: exit 2, one line."""


def _check_files(args: argparse.Namespace) -> dict[str, Iterator[Any]]:
    """Check every file before any search: one that cannot be read or holds no puzzles
    is a usage error (the first one found).  A regular file is read again when its
    turn comes (``_items``); stdin, a pipe (``<(command)``) or a device can be read
    once only: its reader is kept, and the same name again finds it empty."""
    from .readers import PuzzleFormatError, open_source

    kept: dict[str, Iterator[Any]] = {}
    for source in args.files:
        try:
            if source in kept:
                raise PuzzleFormatError(f"{source}: no puzzles (empty, or only comments)")
            found = open_source(source, args.format)
        except PuzzleFormatError as error:
            raise UsageError(" ".join(str(error).split())) from None
        except (OSError, ValueError) as error:  # ValueError: a NUL in the path
            raise UsageError(_cli.cannot_read(source, error)) from None
        if source == "-" or not os.path.isfile(source):
            kept[source] = found
        else:
            found.close()  # the file closes
    return kept


def _items(args: argparse.Namespace, kept: dict[str, Iterator[Any]],
           misfits: list[str]) -> Iterator[Any]:
    """A ``Job`` for every puzzle to solve and an ``invalid`` outcome for every bad line
    (unreadable, or a board the heuristic is not for), in the files' order, read as
    they are taken.  ``misfits`` gets the first reason a board's size does not fit the
    heuristic (``run``: a heuristic no puzzle can use is a usage error).  The pattern
    databases of a size are made ready (``_prepare``) before its first job."""
    from .heuristics import resolve
    from .jobs import Job, invalid
    from .readers import Failure, open_source

    fits: dict[int, str | None] = {}
    for source in args.files:
        found = kept.pop(source) if source in kept else open_source(source, args.format)
        for item in found:
            if isinstance(item, Failure):
                yield invalid(source, item.line, item.message)
                continue
            n = isqrt(len(item.tiles))
            if n not in fits:
                try:
                    resolve(args.heuristic, n, args.algorithm)
                    fits[n] = None
                except ValueError as error:
                    fits[n] = str(error)
                if fits[n] is None:
                    _prepare(n, args)
            if fits[n] is not None:
                misfits[:] = misfits or [str(fits[n])]
                yield invalid(source, item.line, f"line {item.line}: {fits[n]}")
                continue
            yield Job(source, item.line, item.tiles, item.expected, args.goal,
                      args.algorithm, args.heuristic, args.max_nodes,
                      args.complete_last_iteration, progress=_progress(args),
                      per_worker=args.per_worker)


def _first_job(items: Iterator[Any], misfits: list[str], most: int) -> Iterator[Any]:
    """``items``, once the first job is found among the first ``most`` (or the input
    has ended): a heuristic that no puzzle at all can use is a usage error, raised
    before any answer is printed."""
    from .jobs import Job

    held = []
    for item in items:
        held.append(item)
        if isinstance(item, Job) or len(held) >= most:
            break
    else:
        if misfits:
            raise UsageError(misfits[0])
    return chain(held, items)


def _progress(args: argparse.Namespace) -> bool:
    return bool(args.progress or (args.progress is None and sys.stderr.isatty()))


def _print(outcome: dict[str, Any], args: argparse.Namespace, out: TextIO) -> None:
    """One puzzle's answer, written whole (``_output``: a Ctrl-C waits for it)."""
    if args.json:
        _cli.print_json(outcome, out)
        return
    text = io.StringIO()
    _print_text(outcome, args, text)
    write_whole(out, text.getvalue())


def _print_text(outcome: dict[str, Any], args: argparse.Namespace, out: TextIO) -> None:
    label = f"{outcome['source']}:{outcome['line']}"
    if outcome["status"] == "invalid":
        said = outcome["error"].removeprefix(f"line {outcome['line']}: ")
        print(f"{label}  invalid: {said}", file=out)
        return
    if outcome["status"] != "solved":
        extra = f" after {outcome['nodes']:,} nodes" if outcome.get("nodes") else ""
        print(f"{label}  {outcome['status']}{extra}", file=out)
        return
    print(f"{label}  {outcome['moves']} moves  {outcome['nodes']:,} nodes  "
          f"{outcome['seconds']:.3f} s", file=out)
    if args.show == "moves":
        print(" ".join(outcome["solution"]) or "(already solved)", file=out)
    elif args.show == "boards":
        _print_boards(outcome, out)


def _print_boards(outcome: dict[str, Any], out: TextIO) -> None:
    from .board import Board

    board = Board(outcome["tiles"], outcome["goal"])
    print(board, file=out)
    for move in outcome["solution"]:
        board = board.move(move)
        print(f"\n{move}\n{board}", file=out)


def _verify(outcome: dict[str, Any]) -> None:
    from .jobs import replays

    if outcome["status"] == "solved" and not replays(tuple(outcome["tiles"]), outcome["goal"],
                                                     outcome["solution"]):
        raise RuntimeError(f"--verify: the solution for {outcome['source']}:"
                           f"{outcome['line']} does not reach the goal")


def run(args: argparse.Namespace, out: TextIO) -> int:
    from ..engine import resolve_workers
    from .batch import Batch, look_ahead
    from .jobs import Job, marked, stopped

    options = _cli.engine_options(args)
    problem = (_cli.too_many_workers(args.workers)
               if options["backend"] not in ("serial", "dask") else None)
    if problem:
        return _cli.usage_error(PROG, problem)
    misfits: list[str] = []
    workers = resolve_workers(args.workers)
    kept = _check_files(args)
    # Set before the first job: building its pattern databases counts against it.
    deadline = None if args.timeout is None else time.perf_counter() + args.timeout
    items = _first_job(_items(args, kept, misfits), misfits, look_ahead(workers))
    statuses = set()
    page_of: dict[str, Any] | None = None
    pool = {"backend": options["backend"], "address": options.get("address")}
    batch = Batch(items, workers, pool, deadline)
    try:
        for item, outcome in batch:
            if isinstance(item, Job):
                outcome["tiles"] = list(item.tiles)
            else:
                print(f"{PROG}: error: {item['source']}: {item['error']}", file=sys.stderr)
            if args.verify:
                _verify(outcome)
            _print(marked(outcome), args, out)
            statuses.add(outcome["status"])
            if page_of is None and outcome["status"] == "solved":
                page_of = outcome
    except (KeyboardInterrupt, SystemError) as error:
        waiting = batch.waiting  # the puzzle searched when the Ctrl-C came, if any
        if not _cli.interrupted(error) or not isinstance(waiting, Job):
            raise
        _print(marked(stopped(waiting, "interrupted")), args, out)
        raise KeyboardInterrupt from None
    if args.html:
        _write_page(args.html, page_of)
    if statuses & {"timeout", "max-nodes"}:
        return _cli.EXIT_TIMEOUT
    return _cli.EXIT_NO if statuses & {"invalid", "unsolvable"} else _cli.EXIT_OK


def _write_page(path: str, outcome: dict[str, Any] | None) -> None:
    """The page of one solution: every board from the start to the goal and, for IDA*,
    the nodes of each iteration."""
    from ..viz.sliding_page import write_sliding_page
    from .board import Board

    if outcome is None:
        print(f"{PROG}: no page written to {path}: no puzzle was solved", file=sys.stderr)
        return
    boards = [Board(outcome["tiles"], outcome["goal"])]
    for move in outcome["solution"]:
        boards.append(boards[-1].move(move))
    source = "standard input" if outcome["source"] == "-" else outcome["source"]
    moves = f"{outcome['moves']:,} move{'' if outcome['moves'] == 1 else 's'}"
    side = boards[0].size()
    size = write_sliding_page(path, [board.tiles for board in boards], side,
                              iterations=outcome.get("iterations"),
                              title=f"{side * side - 1}-puzzle, {source} line "
                              f"{outcome['line']}: {moves}")
    print(f"wrote {path} ({size / 1000:,.0f} KB): {moves} of {source} line "
          f"{outcome['line']}", file=sys.stderr)


def _prepare(n: int, args: argparse.Namespace) -> None:
    """Build or map the pattern databases of n x n boards once, here, before any worker
    needs them (the first job of that size).  A*'s ``auto`` takes a database only if it
    is cached: it builds none."""
    from .heuristics import resolve, tables_for

    name = resolve(args.heuristic, n, args.algorithm)
    if name.startswith("pdb"):
        tables_for(n, name, args.progress)


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    """Run the CLI; returns the exit status (never raises)."""
    out = out or sys.stdout
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["pdb"]:
        from .pdb_command import main as pdb_main

        return pdb_main(argv[1:], out)
    args = build_parser().parse_or_status(argv)
    if isinstance(args, int):
        return args
    try:
        return run(args, out)
    except (BrokenPipeError, KeyboardInterrupt, MemoryError) as error:
        return _cli.failure(PROG, error)
    except UsageError as error:
        return _cli.usage_error(PROG, str(error))
    except RuntimeError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return _cli.EXIT_ERROR
    except (ValueError, OSError) as error:
        return _cli.usage_error(PROG, " ".join(str(error).split()))
    except Exception as error:  # noqa: BLE001 - one line, never a traceback
        return _cli.failure(PROG, error)


if __name__ == "__main__":
    _cli.run_process(main)
