"""Command-line pieces the scripts share: a usage error is one line on stderr, exit 2.

Glossary
--------
usage error
    A bad option, a bad value or an input that is not there: one line
    ``SCRIPT: error: WHY`` on stderr, exit status 2, never a traceback, as the
    package's command lines (``parallel_backtrack._cli``).  ``Parser`` does it for
    what argparse checks (and adds "did you mean"), the ``type=`` helpers here for
    values, and ``run_script`` for a file or program found missing only while the
    script runs.  This module imports nothing of the package: a script may set the
    environment (``PARALLEL_BACKTRACK_LEAN``) or ``sys.path`` before the package loads.

Example: ``Parser().add_argument("--sizes", type=int_list)`` reads ``--sizes 12,13`` as
``[12, 13]`` and turns ``--sizes 12,x`` into ``error: argument --sizes: expected
comma-separated integers, got '12,x'``.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

__all__ = ["Parser", "input_file", "int_list", "name_list", "run_script"]

EXIT_USAGE = 2


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit 2), and an unknown
    option gets a "did you mean"."""

    def error(self, message: str) -> NoReturn:
        found = re.match(r"unrecognized arguments: (--?[\w-]+)", message)
        if found:
            options = [o for action in self._actions for o in action.option_strings]
            close = difflib.get_close_matches(found.group(1), options, n=1)
            message += f" (did you mean {close[0]}?)" if close else ""
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message.replace(chr(10), ' ')}\n")


def cannot_read(name: str, error: OSError) -> str:
    return f"cannot read {name}: {error.strerror or error}"


def int_list(text: str) -> list[int]:
    """``"1,64"`` -> ``[1, 64]``."""
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated integers, got {text!r}") from None


def name_list(*choices: str) -> Callable[[str], list[str]]:
    """A ``type=`` for a comma-separated list of some of ``choices``: "a,b" (or "a, b")
    -> ["a", "b"]."""

    def names(text: str) -> list[str]:
        found = [part.strip() for part in text.split(",") if part.strip()]
        unknown = [part for part in found if part not in choices]
        if unknown:
            raise argparse.ArgumentTypeError(
                f"unknown {', '.join(map(repr, unknown))}; expected some of {list(choices)}")
        return found

    return names


def input_file(text: str) -> Path:
    """A file that can be read (checked when the command line is read, not an hour later)."""
    try:
        with open(text, "rb"):
            pass
    except OSError as error:
        raise argparse.ArgumentTypeError(cannot_read(text, error)) from None
    return Path(text)


def run_script(main: Callable[[], int | None]) -> NoReturn:
    """Exit with ``main()``'s status; a file or program missing on the way is a usage error."""
    try:
        status = main()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError) as error:
        where = f"{error.filename}: " if error.filename is not None else ""
        print(f"{os.path.basename(sys.argv[0])}: error: {where}{error.strerror or error}",
              file=sys.stderr)
        sys.exit(EXIT_USAGE)
    sys.exit(status or 0)
