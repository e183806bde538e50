"""The Sudoku command line's input: a file read whole, or slice by slice for the kernel.

A file of several puzzles goes to the compiled kernel in bulk (``read_bulk``); one
longer than ``HEAD_BYTES`` is then read, solved and written slice by slice
(``batch_io.FileSlices``), so memory does not grow with its length.  Whether it goes
in bulk is decided as for the whole file: its first ``HEAD_BYTES``, and a look ahead
through the rest of a file (not stdin) for a NUL byte or bytes that are no UTF-8.
Anything else is read whole, into ``formats.PuzzleEntry`` entries.

Glossary
--------
head
    The first ``HEAD_BYTES`` (and one) of a file: all of it, or enough to decide.
"""

from __future__ import annotations

import argparse
import codecs
import io
import itertools
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from parallel_backtrack import _cli
from parallel_backtrack._jit_paths import is_compiled
from parallel_backtrack._text import first_problem

from .files import read_puzzles
from .formats import PuzzleEntry

if TYPE_CHECKING:
    from .batch_io import FileSlices
    from .kernel.read import Batch

# A file of up to this many puzzle lines goes to the Python path first when the kernel is
# not compiled yet (see ``__main__.PYTHON_SECONDS``).
SMALL_FILE_LINES = 20
# A file longer than this whose puzzles go to the kernel in bulk is read, solved and written
# slice by slice (``batch_io.FileSlices``: some 2 MB each).
HEAD_BYTES = 1 << 21
# The compiled functions a first run of a file in bulk would load.
KERNEL_DIR = Path(__file__).resolve().parent / "kernel"
BULK_KERNEL = ("search.search_many", "read._index_lines")


class UsageError(Exception):
    """A usage problem found after parsing: one line on stderr, exit status 2."""


def display_name(path: str) -> str:
    return "stdin" if path == "-" else repr(path)


def open_input(path: str) -> BinaryIO:
    """The file (``-``: stdin) to read in binary."""
    try:
        if path != "-":
            return open(path, "rb")  # noqa: SIM115 - closed by ``run``
        binary = getattr(sys.stdin, "buffer", None)  # a test's StringIO has none
        return binary if binary is not None else io.BytesIO(sys.stdin.read().encode())
    except (OSError, ValueError) as error:  # ValueError: a NUL in the path
        raise UsageError(_cli.cannot_read(display_name(path), error)) from None


def _read_bytes(stream: BinaryIO, path: str, size: int = -1) -> bytes:
    try:
        return stream.read(size)
    except (OSError, ValueError) as error:
        raise UsageError(_cli.cannot_read(display_name(path), error)) from None


def read_entries(raw: bytes, path: str) -> list[PuzzleEntry]:
    try:
        entries = read_puzzles(io.BytesIO(raw))
    except ValueError as error:  # PuzzleFileError: binary, or not UTF-8
        raise UsageError(f"cannot read {display_name(path)}: {error}") from None
    if not entries:
        raise UsageError(f"no puzzle in {display_name(path)}")
    return entries


# A line that is not blank and not a comment: where a puzzle, or a grid's row, may be.
_CONTENT_LINE = re.compile(rb"^[ \t]*[^#\s]", re.MULTILINE)


def read_bulk(raw: bytes, args: argparse.Namespace) -> Batch | None:
    """The file as one array for the kernel, when it holds several puzzles and nothing
    needs a per-puzzle deadline; None for the per-puzzle path."""
    if (args.kernel != "fast" or args.timeout is not None or b"\0" in raw
            or args.solver != "backtrack" or args.scheduler_address is not None):
        return None
    lines = len(list(itertools.islice(_CONTENT_LINE.finditer(raw), SMALL_FILE_LINES + 1)))
    if lines < 2:
        return None  # one puzzle at most: not worth loading the reader's kernel (0.07 s)
    if lines <= SMALL_FILE_LINES and args.workers == 1 and not is_compiled(KERNEL_DIR,
                                                                           *BULK_KERNEL):
        return None  # a few puzzles: the Python path first (``_python_until``), no compile
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    batch = parse_batch(raw)
    return batch if len(batch.givens) + len(batch.errors) > 1 else None


def parse_batch(raw: bytes) -> Batch:
    """``batch_io.parse_batch``, loaded (numpy, the compiled reader) on first use."""
    from .batch_io import parse_batch as parse

    return parse(raw)


def read_input(stream: BinaryIO, args: argparse.Namespace
               ) -> tuple[bytes, tuple[Iterator[Batch], FileSlices] | None]:
    """The whole file; or, for one longer than ``HEAD_BYTES`` whose puzzles go to the kernel
    in bulk (as ``read_bulk`` decides), ``b""`` and its batches (and ``FileSlices``, which
    counts them): read, solved and written slice by slice."""
    head = _read_bytes(stream, args.file, HEAD_BYTES + 1)
    if len(head) <= HEAD_BYTES or not _may_stream(head, args) or not _text_after(stream):
        return head + _read_bytes(stream, args.file), None
    from .batch_io import FileSlices

    source = _Replayed(head, stream)
    slices = FileSlices(source.read, HEAD_BYTES)
    batches = iter(slices)
    first = next(batches, None)
    if first is None or slices.entries < 2:  # not what ``read_bulk`` takes: the file whole
        return source.taken() + _read_bytes(stream, args.file), None
    source.forget()
    return b"", (itertools.chain([first], batches), slices)


def _may_stream(head: bytes, args: argparse.Namespace) -> bool:
    """Would ``read_bulk`` take a file that starts with ``head``, as far as ``head`` tells?"""
    if (args.kernel != "fast" or args.timeout is not None or args.solver != "backtrack"
            or args.scheduler_address is not None or first_problem(head, False) is not None):
        return False
    lines = itertools.islice(_CONTENT_LINE.finditer(head), SMALL_FILE_LINES + 1)
    return len(list(lines)) > SMALL_FILE_LINES


def _text_after(stream: BinaryIO) -> bool:
    """No NUL byte and only UTF-8 in the rest of a file (as ``read_bulk`` asks of all of it),
    read ahead and back; stdin cannot be read twice: a bad byte there spoils its line."""
    if not stream.seekable():
        return True
    start, decoder = stream.tell(), codecs.getincrementaldecoder("utf-8")()
    try:
        while chunk := stream.read(HEAD_BYTES):
            if b"\0" in chunk:
                return False
            if not (chunk.isascii() and not decoder.getstate()[0]):
                decoder.decode(chunk)
        decoder.decode(b"", True)
    except UnicodeDecodeError:
        return False
    finally:
        stream.seek(start)
    return True


class _Replayed:
    """``head``, then the rest of ``stream``; what it read is kept until ``forget``."""

    def __init__(self, head: bytes, stream: BinaryIO) -> None:
        self._head, self._stream, self._kept = head, stream, [head]

    def read(self, size: int) -> bytes:
        data, self._head = self._head or self._stream.read(size), b""
        if self._kept and data is not self._kept[0]:
            self._kept.append(data)
        return data

    def taken(self) -> bytes:
        return b"".join(self._kept)

    def forget(self) -> None:
        self._kept = []
