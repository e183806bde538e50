"""The page options every command line shares: ``--html FILE`` and ``--trace-limit N``.

A problem's command line adds them (``add_html_options``) and, after its run, hands
viz plain data to draw; viz itself imports no problem package.  The target is
checked while the arguments are parsed, before any search starts, so a path the
page cannot be written to is a usage error (exit 2), not a lost run.

Glossary
--------
target
    The ``--html`` path: its folder must exist and be writable, and it must not
    be a folder itself (``page.check_target``).
trace limit
    The most steps of the search a page records (``page.MAX_TRACE_LIMIT`` at
    most: a page stays below 2 MB).

Example: ``add_html_options(parser)``; then ``args.html`` is None or a checked path.
"""

from __future__ import annotations

import argparse
import re

from .page import DEFAULT_TRACE_LIMIT, MAX_TRACE_LIMIT, check_target


def html_target(text: str) -> str:
    """An argparse type for ``--html FILE``: a path a page can be written to, checked
    before any search starts (nothing is created yet)."""
    problem = check_target(text)
    if problem:
        raise argparse.ArgumentTypeError(problem.removeprefix("--html "))
    return text


def trace_limit(text: str) -> int:
    """An argparse type for ``--trace-limit N``: 1 to ``MAX_TRACE_LIMIT`` steps."""
    digits = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,30}", digits):
        shown = repr(text) if len(text) <= 40 else f"{text[:40]!r}.. ({len(text)} characters)"
        raise argparse.ArgumentTypeError(f"expected an integer, got {shown}")
    value = int(digits)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    if value > MAX_TRACE_LIMIT:
        raise argparse.ArgumentTypeError(f"at most {MAX_TRACE_LIMIT:,} steps (a page stays "
                                         f"below 2 MB), got {value:,}")
    return value


def add_html_options(parser: argparse.ArgumentParser) -> None:
    """--html FILE and --trace-limit N: a self-contained page of the search."""
    group = parser.add_argument_group("page")
    group.add_argument("--html", type=html_target, default=None, metavar="FILE",
                       help="also write a self-contained HTML page of the search (and, for "
                       "a multi-worker run, its timeline) to FILE")
    group.add_argument("--trace-limit", type=trace_limit, default=DEFAULT_TRACE_LIMIT,
                       metavar="N", help="with --html: record at most N steps of the search "
                       f"(default: {DEFAULT_TRACE_LIMIT:,})")
