"""``python -m parallel_backtrack.sliding pdb build|list|remove``: the database cache.

Glossary
--------
build NAME
    Build (or find) a pattern database ahead of time, so no later solve waits for
    it: ``pdb-663`` takes under a minute, ``pdb-78`` about 15 minutes and 4.7 GB.
    ``--size`` picks the board width where a name has several (``pdb-exact``:
    2 or 3; default 3); the others are 4x4.
list
    Every cached database: name, board, size on disk, whether it is complete, and
    the cache folder; ``--json`` one object per database.
remove NAME... | --all
    Delete those databases' files (a build then starts again when one is needed).

Exit codes as the other CLIs: 0 done, 1 nothing to remove, 2 usage (a name or
``--size`` the database is not for: ``pdb build pdb-exact --size 9``).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
import time
from typing import TextIO

from .. import _cli
from .pdbfiles import PDB_SIZES, cache_dir, cached, paths, remove

PROG = f"{_cli.prog('sliding')} pdb"


def build_parser() -> _cli.Parser:
    parser = _cli.Parser(prog=PROG, description="Build, list or remove the cached pattern "
                         "databases of the sliding-puzzle heuristics.",
                         epilog=f"examples:\n  {PROG} build pdb-663\n  {PROG} list\n"
                         f"  {PROG} remove pdb-78\n  {PROG} remove --all",
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", metavar="build|list|remove",
                                     required=True, parser_class=_cli.Parser)
    build = commands.add_parser(
        "build", help="build a database now (or find it cached)",
        description=_wrapped("Build a pattern database now, so no later solve waits for it (or say "
        "where it is cached already). pdb-exact: 2x2 or 3x3 (--size 2 or 3, default 3), "
        "under 2 seconds; pdb-555: seconds; pdb-663: under a minute; pdb-78: about 15 "
        "minutes and 4.7 GB of memory (577 MB on disk); the last three are 4x4."),
        epilog=f"examples:\n  {PROG} build pdb-663\n  {PROG} build pdb-exact --size 2",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    build.add_argument("name", type=_cli.choice_type("database", PDB_SIZES),
                       metavar="|".join(PDB_SIZES),
                       help="the database: the heuristic name --heuristic takes")
    build.add_argument("--size", type=_size, default=None, metavar="N",
                       help="board width: pdb-exact 2 or 3 (default 3); the others 4 only")
    build.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                       help="a progress bar on stderr (default: only on a terminal)")
    listing = commands.add_parser(
        "list", help="the cached databases and their sizes",
        description=_wrapped("List the cached pattern databases: name, board, size on disk, and "
        "whether each is complete; the cache folder first."))
    listing.add_argument("--json", action="store_true", help="one JSON object per database")
    drop = commands.add_parser(
        "remove", help="delete cached databases",
        description=_wrapped("Delete cached pattern databases' files (a solve that needs one "
        "builds it again). Give database names, or --all; exit 1 when none of them is cached."),
        epilog=f"examples:\n  {PROG} remove pdb-78\n  {PROG} remove --all",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    drop.add_argument("names", nargs="*", metavar="NAME",
                      type=_cli.choice_type("database", PDB_SIZES),
                      help="a database to delete: " + ", ".join(PDB_SIZES))
    drop.add_argument("--all", action="store_true", help="every cached database")
    return parser


def _wrapped(text: str) -> str:
    """A description for a raw formatter (kept for the examples below it), wrapped."""
    return textwrap.fill(text, 79)


def _size(text: str) -> int:
    """``--size``: an integer; which widths a database takes is ``_build``'s check."""
    return _cli.integer(text, "--size as an integer")


def _build(args: argparse.Namespace, out: TextIO) -> int:
    n = args.size or (3 if args.name == "pdb-exact" else 4)
    if n not in PDB_SIZES[args.name]:
        sizes = " or ".join(str(k) for k in PDB_SIZES[args.name])
        return _cli.usage_error(f"{PROG} build", f"{args.name} is for --size {sizes}, got {n}")
    from .pdb import database, load_cached
    from .tables import neighbors_table

    if load_cached(n, args.name) is not None:
        print(f"{args.name} ({n}x{n}): already cached in {paths(n, args.name)[0]}", file=out)
        return _cli.EXIT_OK
    started = time.perf_counter()
    table = database(n, args.name, neighbors_table(n), args.progress)
    print(f"{args.name} ({n}x{n}): built in {time.perf_counter() - started:.1f} s, "
          f"{table.nbytes / 1e6:.1f} MB in {paths(n, args.name)[0]}", file=out)
    return _cli.EXIT_OK


def _list(args: argparse.Namespace, out: TextIO) -> int:
    found = cached()
    if args.json:
        for entry in found:
            _cli.print_json({"name": entry.name, "n": entry.n, "bytes": entry.bytes,
                             "complete": entry.complete,
                             "files": [str(p) for p in entry.files]}, out)
        return _cli.EXIT_OK
    print(f"cache: {cache_dir()}", file=out)
    if not found:
        print("no pattern databases cached", file=out)
    for entry in found:
        state = "" if entry.complete else "  (incomplete: rebuilt when needed)"
        print(f"{entry.name:<10} {entry.n}x{entry.n}  {entry.bytes / 1e6:9.1f} MB{state}",
              file=out)
    return _cli.EXIT_OK


def _remove(args: argparse.Namespace, out: TextIO) -> int:
    if bool(args.names) == bool(args.all):
        return _cli.usage_error(f"{PROG} remove",
                                "remove takes database names or --all (one of them)")
    gone = remove(None if args.all else list(args.names))
    if not gone:
        what = "no database" if args.all else " ".join(args.names) + ": not cached"
        print(f"{PROG}: error: {what} in {cache_dir()}", file=sys.stderr)
        return _cli.EXIT_NO
    for entry in gone:
        print(f"removed {entry.name} ({entry.n}x{entry.n}, {entry.bytes / 1e6:.1f} MB)",
              file=out)
    return _cli.EXIT_OK


def main(argv: list[str], out: TextIO) -> int:
    """Run ``pdb ...``; returns the exit status (never raises)."""
    args = build_parser().parse_or_status(argv)
    if isinstance(args, int):
        return args
    run = {"build": _build, "list": _list, "remove": _remove}[args.command]
    try:
        return run(args, out)
    except (BrokenPipeError, KeyboardInterrupt, MemoryError) as error:
        return _cli.failure(PROG, error)
    except OSError as error:
        print(f"{PROG}: error: {' '.join(str(error).split())}", file=sys.stderr)
        return _cli.EXIT_NO
    except Exception as error:  # noqa: BLE001 - one line, never a traceback
        return _cli.failure(PROG, error)
