"""``games alphabeta FILE``: answer every tree of an assignment file.

Glossary
--------
graph number
    The k-th tree of the file (blank lines skipped), a bad tree included: the
    answer lines keep the numbers the file's trees have.
answer line
    ``Graph k: Score: s; Leaf Nodes Examined: m`` (fail-hard alpha-beta, children
    left to right, cut at alpha >= beta); with ``--minimax`` ``m`` is every leaf
    minimax reads (all of them).
bad tree
    One line on stderr, ``FILE:LINE: graph k: reason``; the other trees are still
    answered and the exit status is 1.

Example: ``Graph 1: Score: 4; Leaf Nodes Examined: 6`` for the classic tree.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from .. import _cli
from .search import alphabeta, minimax
from .textformat import TreeFormatError, parse_tree

# A line longer than this is not a hand-written tree (set50's longest is 7 kB).
MAX_LINE = 10_000_000


@dataclass
class Answer:
    graph: int
    line: int
    score: int | None = None
    leaves: int | None = None
    error: str | None = None

    def text(self) -> str:
        return f"Graph {self.graph}: Score: {self.score}; Leaf Nodes Examined: {self.leaves}"


def tree_lines(data: bytes) -> Iterator[tuple[int, str | None]]:
    """(line number, text) for every non-blank line; text None for undecodable bytes."""
    for number, raw in enumerate(data.split(b"\n"), 1):
        if not raw.strip():
            continue
        try:
            yield number, raw.decode("utf-8")
        except UnicodeDecodeError:
            yield number, None


def answer(graph: int, line: int, text: str | None, use_minimax: bool) -> Answer:
    found = Answer(graph, line)
    try:
        if text is None:
            raise TreeFormatError("binary data (not UTF-8 text), not a tree")
        if len(text) > MAX_LINE:
            raise TreeFormatError(f"line of {len(text):,} characters (at most {MAX_LINE:,})")
        parsed = parse_tree(text)
    except TreeFormatError as error:
        found.error = str(error)
        return found
    result = (minimax(parsed.game, 0) if use_minimax else alphabeta(parsed.game, 0))
    found.score = (int(result.value) if use_minimax else parsed.score(result.value))
    found.leaves = result.leaves
    return found


def answer_file(data: bytes, use_minimax: bool = False) -> list[Answer]:
    return [answer(graph, line, text, use_minimax)
            for graph, (line, text) in enumerate(tree_lines(data), 1)]


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "alphabeta", help="alpha-beta over the assignment's text format",
        description="Read game trees, one per line ({(A,MAX),(B,MIN),...} "
        "{(A,B),(B,4),...}), and print 'Graph k: Score: s; Leaf Nodes Examined: m' for "
        "each: fail-hard alpha-beta, children left to right, cut at alpha >= beta.")
    parser.add_argument("file", metavar="FILE", help="the trees, one per line")
    parser.add_argument("-o", "--output", metavar="OUT", default=None,
                        help="write the answer lines to OUT instead of stdout")
    parser.add_argument("--minimax", action="store_true",
                        help="plain minimax: the same scores, every leaf examined")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--html", type=_cli.html_target, default=None, metavar="PAGE",
                        help="also write a page showing each tree's search step by step")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, prog: str) -> int:
    with open(args.file, "rb") as stream:
        data = stream.read()
    answers = answer_file(data, args.minimax)
    if not answers:
        print(f"{prog}: error: {args.file}: no trees (the file is empty)", file=sys.stderr)
        return 1
    for bad in (a for a in answers if a.error):
        print(f"{prog}: {args.file}:{bad.line}: graph {bad.graph}: {bad.error}",
              file=sys.stderr)
    good = [a for a in answers if not a.error]
    if args.json:
        text = json.dumps({"file": args.file, "minimax": args.minimax,
                           "graphs": [vars(a) for a in answers]}, sort_keys=True) + "\n"
    else:
        text = "".join(a.text() + "\n" for a in good)
    if args.output is not None:
        with open(args.output, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
    else:
        out.write(text)
    if args.html and len(good) == len(answers):
        from .pages import write_alphabeta_page
        print(write_alphabeta_page(args.html, args.file, data, args.minimax), file=sys.stderr)
    return 1 if len(good) < len(answers) else 0
