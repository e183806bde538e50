"""``parallel-backtrack FAMILY [OPTIONS]``: every command line behind one command.

``parallel-backtrack nqueens --n 14`` runs ``python -m parallel_backtrack.nqueens --n
14``, and so for ``sudoku``, ``sliding`` and ``games``: the same options, output and
exit codes (docs/cli.md), with ``parallel-backtrack nqueens`` as the name in usage
lines and errors.  ``python -m parallel_backtrack FAMILY ...`` does the same without
the script.  Only the family asked for is imported.

Glossary
--------
family
    A problem package with a command line: ``nqueens``, ``sudoku``, ``sliding``,
    ``games``.
launcher
    What the messages call this command (``_cli.LAUNCHER``): ``parallel-backtrack``,
    or ``python -m parallel_backtrack`` when started that way.

Example: ``parallel-backtrack sudoku puzzles.txt --workers 2``.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence

from . import __version__
from ._lean import SCRIPT

EXIT_OK, EXIT_USAGE = 0, 2  # as ``_cli``'s, which only a family's run imports
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

FAMILIES = {
    "nqueens": "count N-Queens solutions, or find one on a huge board by local search",
    "sudoku": "solve or count Sudoku puzzles, 4x4 to 36x36 (a file, or - for stdin)",
    "sliding": "solve sliding-tile puzzles optimally (A*, parallel IDA*, pattern databases)",
    "games": "game trees: alpha-beta files, Nim, tic-tac-toe, Connect-Four, random trees",
}


def launcher(argv0: str) -> str:
    """``parallel-backtrack`` when started as the script, else ``python -m
    parallel_backtrack``."""
    return SCRIPT if os.path.basename(argv0) == SCRIPT else "python -m parallel_backtrack"


def usage(name: str) -> str:
    lines = [f"usage: {name} FAMILY [OPTIONS]   ({name} FAMILY --help for its options)",
             "", "Exact tree search on all your cores, and on a Dask cluster.", "",
             "families:"]
    lines += [f"  {family:<9} {text}" for family, text in FAMILIES.items()]
    lines += ["", "options:", "  -h, --help  show this help and exit",
              "  --version   show the version and exit", "",
              f"examples:\n  {name} nqueens --n 14 --workers 2\n"
              f"  echo '{EASY}' | {name} sudoku -\n"
              f"  echo '8 1 3 4 0 2 7 6 5' | {name} sliding - --show moves\n"
              f"  {name} games connect4 4453222", "",
              "Every option, output format and exit code: docs/cli.md."]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, argv0: str | None = None) -> int:
    """Run the family named first in ``argv`` (default ``sys.argv``) on the rest; its
    exit status.  Help, the version and a missing or unknown family are answered here
    (a usage error: one line on stderr, exit 2), without loading the command lines."""
    args = list(sys.argv[1:] if argv is None else argv)
    name = launcher(sys.argv[0] if argv0 is None else argv0)
    if args and args[0] in ("-h", "--help"):
        print(usage(name))
        return EXIT_OK
    if args and args[0] == "--version":
        print(f"{name} {__version__}")
        return EXIT_OK
    problem = family_problem(args, name)
    if problem:
        print(f"{name}: error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    from . import _cli

    _cli.LAUNCHER = name  # before the family's module names itself (its ``PROG``)
    module = importlib.import_module(f"parallel_backtrack.{args[0]}.__main__")
    sys.argv = [f"{name} {args[0]}", *args[1:]]
    return int(getattr(module, "process", module.main)())


def family_problem(args: list[str], name: str) -> str | None:
    """What is wrong with the family ``args`` start with, if anything."""
    if not args:
        return f"a family is required: {', '.join(FAMILIES)} (see {name} --help)"
    if args[0].startswith("-"):
        return (f"unknown option {args[0]!r}: a family comes first "
                f"({', '.join(FAMILIES)}), its options after it")
    if args[0] not in FAMILIES:
        from .engine.checks import did_you_mean

        return did_you_mean("family", args[0], FAMILIES)
    return None


def script() -> None:
    """The ``parallel-backtrack`` console script (and ``python -m parallel_backtrack``):
    a family's run goes through ``_cli.run_process``, as its own ``python -m`` does."""
    if sys.argv[1:] and sys.argv[1] in FAMILIES:
        from . import _cli

        _cli.run_process(main)
    sys.exit(main())


if __name__ == "__main__":
    script()
