"""``python -m parallel_backtrack.games``: game-tree search from the command line.

Subcommands: ``alphabeta`` (the assignment's text format), ``nim``, ``tictactoe``,
``connect4`` and ``random`` (parallel alpha-beta on a seeded random tree).
``main`` returns the exit status: 0 done, 1 some input was bad (a tree, a
``--file`` line, an expected score that did not match), 2 usage error (options,
MOVES, a file that cannot be read, is binary or holds nothing), 3 ``--timeout``,
4 internal error (anything a subcommand did not foresee, a fault inside a solver
included), 130 Ctrl-C (what is known printed); each error with one line on stderr.

Glossary
--------
subcommand module
    Each ``cli_*.py`` (and ``connect4/cli.py``) adds its parser (``add_parser``)
    and a ``run(args, out, prog)``; only the one asked for imports its solver
    (numba stays unloaded for ``--help``, usage errors and the pure-Python games).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn, TextIO

from .. import _cli
from ..viz.page import PageError
from . import cli_alphabeta, cli_games, cli_random
from .connect4 import cli as cli_connect4

PROG = _cli.prog("games")


class GamesParser(_cli.Parser):
    """The top parser: an unknown option is reported by the subcommand it follows (its
    name in the message, a "did you mean" among its options), and an unknown option
    where the COMMAND should be is named, not just the missing COMMAND."""

    commands: dict[str, _cli.Parser]
    _argv: list[str]

    def parse_args(self, args: Any = None,  # type: ignore[override]
                   namespace: Any = None) -> argparse.Namespace:
        self._argv = list(sys.argv[1:] if args is None else args)
        parsed, extras = self.parse_known_args(self._argv, namespace)
        if extras:
            command = getattr(parsed, "command", None) or ""
            ahead = self._argv[:self._argv.index(command)] if command in self._argv else []
            found = None if set(extras) & set(ahead) else self.commands.get(command)
            (found or self).error("unrecognized arguments: " + " ".join(extras))
        return parsed

    def error(self, message: str) -> NoReturn:
        if message.startswith("the following arguments are required: COMMAND"):
            unknown = [a for a in getattr(self, "_argv", []) if a.startswith("-")]
            names = ", ".join(self.commands)
            message = (f"unrecognized arguments: {unknown[0]} (expected a COMMAND first: "
                       f"{names})" if unknown else f"{message} (one of {names})")
        super().error(message)


def build_parser() -> _cli.Parser:
    parser = GamesParser(
        prog=PROG,
        description="Two-player game search: alpha-beta over game trees written as text "
        "(one per line), Nim, tic-tac-toe, an exact Connect-Four solver and parallel "
        "alpha-beta.",
        epilog="examples (files from the repository's tests/data):\n"
        "  %(prog)s alphabeta tests/data/search/alphabeta/set2_remedios_alphabeta.txt\n"
        "  %(prog)s nim --sticks 100000\n"
        "  %(prog)s connect4 4453222\n  %(prog)s random --branching 6 --depth 8 --workers 2",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_cli.Parser)
    commands.required = True
    cli_alphabeta.add_parser(commands)
    cli_games.add_parsers(commands)
    cli_random.add_parser(commands)
    cli_connect4.add_parser(commands)
    parser.commands = commands.choices
    return parser


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    """Run the CLI; returns the exit status (usage errors included: never raises)."""
    out = out or sys.stdout
    args = build_parser().parse_or_status(argv)
    if isinstance(args, int):
        return args
    prog = f"{PROG} {args.command}"
    try:
        return int(args.run(args, out, prog))
    except PageError as error:  # --html asked for a page that cannot be made: usage
        return _cli.usage_error(prog, str(error))
    except KeyboardInterrupt as error:  # before any search (joining a cluster): one line
        return _cli.failure(prog, error)
    except Exception as error:  # noqa: BLE001 - one line, never a traceback
        return _cli.failure(prog, error)


if __name__ == "__main__":
    _cli.run_process(main)
