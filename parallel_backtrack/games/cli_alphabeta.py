"""``games alphabeta FILE``: answer every tree of an assignment file.

Glossary
--------
graph number
    The k-th tree of the file (blank lines and ``#`` comments skipped), a bad tree
    included: the answer lines keep the numbers the file's trees have.
answer line
    ``Graph k: Score: s; Leaf Nodes Examined: m`` (fail-hard alpha-beta, children
    left to right, cut at alpha >= beta); with ``--minimax`` ``m`` is every leaf
    minimax reads (all of them).  Printed as soon as its tree is searched; a Ctrl-C
    keeps those printed (exit 130).  The file is read in chunks and a printed answer
    is not kept: memory follows a tree, not the file (``--json`` and ``-o`` hold the
    answers, written whole at the end).
bad tree
    One line on stderr, ``FILE:LINE: graph k: reason``; the other trees are still
    answered and the exit status is 1.
usage error
    A file that cannot be read, is binary (a NUL byte or bytes that are no UTF-8 in
    its first ``_cli.SNIFF_BYTES``) or holds no tree, or an ``-o`` path that cannot
    be written: one line, exit 2, before any tree is searched.

Example: ``Graph 1: Score: 4; Leaf Nodes Examined: 6`` for the classic tree.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from .. import _cli
from .._output import held_signals, write_whole
from .._text import without_bom
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


def read_trees(stream: BinaryIO,
               head: bytes = b"") -> Iterator[tuple[int, ParsedTree | TreeFormatError]]:
    """(line number, tree or the error) for every non-blank line of a binary stream
    (after ``head``, bytes already read from it), read in chunks
    (``trees.TreeReader``): memory follows the tree, not the line."""
    from .trees import TreeFormatError, TreeReader

    number, start, reader, failed, comment = 0, 0, None, None, False
    for chunk in itertools.chain([head], iter(lambda: stream.read(CHUNK), b"")):
        parts = chunk.split(b"\n")
        for index, part in enumerate(parts):
            if reader is None and failed is None and not comment and part.strip():
                comment = part.lstrip().startswith(b"#")  # as trees.is_tree_line
                if not comment:
                    start, reader = number + 1, TreeReader()
            if reader is not None:
                try:
                    reader.feed(part)
                except TreeFormatError as error:
                    reader, failed = None, error
            if index < len(parts) - 1:
                number += 1
                yield from _finish(start, reader, failed)
                reader, failed, comment = None, None, False
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


def answer_stream(stream: BinaryIO, use_minimax: bool = False,
                  head: bytes = b"") -> Iterator[Answer]:
    for graph, (line, parsed) in enumerate(read_trees(stream, head), 1):
        yield answer(graph, line, parsed, use_minimax)


def answer_file(data: bytes, use_minimax: bool = False) -> list[Answer]:
    return list(answer_stream(io.BytesIO(data), use_minimax))


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "alphabeta", help="alpha-beta over game trees written as text, one per line",
        description="Read game trees, one per line ({(A,MAX),(B,MIN),...} "
        "{(A,B),(B,4),...}), and print 'Graph k: Score: s; Leaf Nodes Examined: m' for "
        "each: fail-hard alpha-beta, children left to right, cut at alpha >= beta.")
    parser.add_argument("file", metavar="FILE",
                        help="the trees, one per line ('-': read stdin)")
    parser.add_argument("-o", "--output", metavar="OUT", default=None,
                        help="write the answer lines to OUT instead of stdout")
    parser.add_argument("--minimax", action="store_true",
                        help="plain minimax: the same scores, every leaf examined")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--html", type=html_target, default=None, metavar="PAGE",
                        help="also write a page showing each tree's search step by step")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, prog: str) -> int:
    """Check the file (readable, text) and the output path, then answer every tree, each
    answer line on stdout as soon as its tree is searched; a Ctrl-C keeps the answers
    found (exit 130)."""
    name = "stdin" if args.file == "-" else args.file
    answers: list[Answer] = []  # kept for one JSON object or -o; printed ones are not
    count = good_count = 0
    stop = None
    with contextlib.ExitStack() as closing:
        try:
            stream, data = _open_trees(args.file, bool(args.html), closing)
            head = without_bom(stream.read(_cli.SNIFF_BYTES))
        except (OSError, ValueError) as error:  # ValueError: a NUL in the path
            return _cli.usage_error(prog, _cli.cannot_read(name, error))
        problem = _cli.not_text(head, len(head) < _cli.SNIFF_BYTES)
        if problem:
            return _cli.usage_error(prog, f"cannot read {name}: {problem}; a tree file is "
                                    "UTF-8 text")
        try:
            target = None if args.output is None else Output(args.output)
        except (OSError, ValueError) as error:
            return _cli.usage_error(prog, f"cannot write {args.output}: "
                                    f"{getattr(error, 'strerror', None) or error}")
        streamed = out if target is None and not args.json else None
        try:
            for found in answer_stream(stream, args.minimax, head):
                with held_signals():  # said and counted together, or neither
                    _say(found, f"{prog}: {name}", streamed)
                    count, good_count = count + 1, good_count + (not found.error)
                    if streamed is None:
                        answers.append(found)
        except BrokenPipeError:
            raise
        except OSError as error:  # a read error midway
            return _give_up(target, prog, _cli.cannot_read(name, error))
        except KeyboardInterrupt:
            stop = "interrupted"
    if not count and stop is None:
        blank = "the file is empty" if not head else "only blank lines and comments"
        return _give_up(target, prog, f"{name}: no trees ({blank})")
    good = [a for a in answers if not a.error]
    if args.json:
        found_json = {"file": args.file, "minimax": args.minimax, "complete": stop is None,
                      "graphs": [vars(a) for a in answers]}
        if stop is not None:
            found_json["stop_reason"] = stop
        text = json.dumps(found_json, sort_keys=True) + "\n"
    else:
        text = "".join(a.text() + "\n" for a in good)
    if target is not None:
        try:
            target.write(text)
        except OSError as error:
            return _cli.usage_error(prog, f"cannot write {args.output}: "
                                    f"{error.strerror or error}")
    elif streamed is None:
        write_whole(out, text)
    if stop is not None:
        print(f"{prog}: interrupted after {count:,} trees", file=sys.stderr)
        return _cli.stop_code(stop)
    if args.html and good_count == count:
        from .pages import write_alphabeta_page

        if data is None:
            with open(args.file, "rb") as again:  # the page wants the trees, not the answers
                data = again.read()
        print(write_alphabeta_page(args.html, name, data, args.minimax), file=sys.stderr)
    return 1 if good_count < count else 0


def _say(found: Answer, where: str, out: TextIO | None) -> None:
    """A bad tree's line on stderr; a good one's answer on ``out`` when it is streamed."""
    if found.error:
        write_whole(sys.stderr, f"{where}:{found.line}: graph {found.graph}: {found.error}\n")
    elif out is not None:
        write_whole(out, found.text() + "\n")


def _open_trees(path: str, whole: bool,
                closing: contextlib.ExitStack) -> tuple[BinaryIO, bytes | None]:
    """The file open for reading (stdin for ``-``, never closed here) and, for stdin
    read ``whole`` (a page reads the trees again), all of its bytes."""
    if path != "-":
        return closing.enter_context(open(path, "rb")), None
    binary = getattr(sys.stdin, "buffer", None)  # a test's StringIO has none
    if binary is not None and not whole:
        return binary, None
    data = binary.read() if binary is not None else sys.stdin.read().encode()
    return io.BytesIO(data), data


class Output:
    """``-o OUT``, opened (created, not yet emptied) before the search, so that a path
    that cannot be written is a usage error at once; ``discard`` removes a file it
    created, ``write`` replaces the file's contents."""

    def __init__(self, path: str) -> None:
        self.path, self.created = path, not os.path.lexists(path)
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o666)

    def write(self, text: str) -> None:
        with open(self.fd, "w", encoding="utf-8", newline="\n") as target:
            target.truncate(0)
            target.write(text)

    def discard(self) -> None:
        os.close(self.fd)
        if self.created:
            with contextlib.suppress(OSError):
                os.remove(self.path)


def _give_up(target: Output | None, prog: str, message: str) -> int:
    """A usage error found while reading: the output file made for it goes."""
    if target is not None:
        target.discard()
    return _cli.usage_error(prog, message)
