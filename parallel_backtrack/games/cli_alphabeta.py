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
import io
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from .. import _cli
from ..viz.options import html_target
from .search import alphabeta, minimax

if TYPE_CHECKING:  # the reader loads numpy: only when a file is read, not for --help
    from .trees import ParsedTree, TreeFormatError, TreeReader

CHUNK = 1 << 20  # bytes read at a time: a line of any length streams through


@dataclass
class Answer:
    graph: int
    line: int
    score: int | None = None
    leaves: int | None = None
    error: str | None = None

    def text(self) -> str:
        return f"Graph {self.graph}: Score: {self.score}; Leaf Nodes Examined: {self.leaves}"


def read_trees(stream: BinaryIO) -> Iterator[tuple[int, ParsedTree | TreeFormatError]]:
    """(line number, tree or the error) for every non-blank line of a binary stream,
    read in chunks (``trees.TreeReader``): memory follows the tree, not the line."""
    from .trees import TreeFormatError, TreeReader

    number, start, reader, failed = 0, 0, None, None
    for chunk in iter(lambda: stream.read(CHUNK), b""):
        parts = chunk.split(b"\n")
        for index, part in enumerate(parts):
            if reader is None and failed is None and part.strip():
                start, reader = number + 1, TreeReader()
            if reader is not None:
                try:
                    reader.feed(part)
                except TreeFormatError as error:
                    reader, failed = None, error
            if index < len(parts) - 1:
                number += 1
                yield from _finish(start, reader, failed)
                reader, failed = None, None
    yield from _finish(start, reader, failed)


def _finish(line: int, reader: TreeReader | None,
            failed: TreeFormatError | None) -> Iterator[tuple[int, ParsedTree | TreeFormatError]]:
    from .trees import TreeFormatError

    if failed is not None:
        yield line, failed
    elif reader is not None:
        try:
            reader.feed(b"", final=True)
            yield line, reader.tree()
        except TreeFormatError as error:
            yield line, error


def answer(graph: int, line: int, parsed: ParsedTree | TreeFormatError,
           use_minimax: bool) -> Answer:
    from .trees import TreeFormatError

    found = Answer(graph, line)
    if isinstance(parsed, TreeFormatError):
        found.error = str(parsed)
        return found
    result = (minimax(parsed.game, 0) if use_minimax else alphabeta(parsed.game, 0))
    found.score = parsed.score(result.value)
    found.leaves = result.leaves
    return found


def answer_stream(stream: BinaryIO, use_minimax: bool = False) -> Iterator[Answer]:
    for graph, (line, parsed) in enumerate(read_trees(stream), 1):
        yield answer(graph, line, parsed, use_minimax)


def answer_file(data: bytes, use_minimax: bool = False) -> list[Answer]:
    return list(answer_stream(io.BytesIO(data), use_minimax))


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
    parser.add_argument("--html", type=html_target, default=None, metavar="PAGE",
                        help="also write a page showing each tree's search step by step")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, prog: str) -> int:
    try:
        stream = open(args.file, "rb")  # noqa: SIM115 - closed below
    except OSError as error:
        return _cli.usage_error(prog, _cli.cannot_read(args.file, error))
    with stream:
        try:
            answers = list(answer_stream(stream, args.minimax))
        except OSError as error:  # a directory, a read error midway
            return _cli.usage_error(prog, _cli.cannot_read(args.file, error))
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
        try:
            with open(args.output, "w", encoding="utf-8", newline="\n") as target:
                target.write(text)
        except OSError as error:
            return _cli.usage_error(prog, f"cannot write {args.output}: "
                                    f"{error.strerror or error}")
    else:
        out.write(text)
    if args.html and len(good) == len(answers):
        from .pages import write_alphabeta_page

        with open(args.file, "rb") as again:  # the page wants the trees, not the answers
            data = again.read()
        print(write_alphabeta_page(args.html, args.file, data, args.minimax), file=sys.stderr)
    return 1 if len(good) < len(answers) else 0
