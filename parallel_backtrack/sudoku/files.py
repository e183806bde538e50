"""Reading Sudoku puzzle files: bytes to lines of text, then ``formats``' entries.

A file is read line by line as bytes, at most ``MAX_LINE_LENGTH + 1`` at a time, so a
longer line is never held whole (it is an entry with an ``error``).  Each line must be
UTF-8 text: a NUL byte or bytes that are no UTF-8 within the first ``SNIFF_BYTES`` make
the file no puzzle file at all (``PuzzleFileError``); later, they spoil only their line.
``read_puzzles`` reads a whole file or stream; ``read_slice`` reads whole lines of a
file from a place in it (``SlicePlace``), so that a long file can be read a slice at a
time with the numbers and messages of reading it whole.

Example: ``read_puzzles("tests/data/sudoku_mixed.txt")[0].line`` is the line of the
file's first puzzle.
"""

from __future__ import annotations

import bisect
import io
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TextIO

from .._text import SNIFF_BYTES, first_problem, without_bom
from .formats import (
    MAX_LINE_LENGTH,
    GridState,
    PuzzleEntry,
    Unreadable,
    grid_entries,
    too_long,
    unfinished,
)

__all__ = ["PuzzleFileError", "SlicePlace", "read_puzzles", "read_slice"]


class PuzzleFileError(ValueError):
    """A file that is no text at all (binary, or not UTF-8), so it holds no puzzles."""


@dataclass(frozen=True, slots=True)
class _Long:
    """A line too long to keep: its first bytes (to sniff) and its length."""

    head: bytes
    length: int


def _rest_of_line(readline: Callable[[int], bytes | str]) -> int:
    """Skip to the end of the line; returns how many characters were skipped."""
    skipped = 0
    while rest := readline(MAX_LINE_LENGTH):
        ends = rest.endswith(b"\n") if isinstance(rest, bytes) else rest.endswith("\n")
        skipped += len(rest) - ends
        if ends:
            break
    return skipped


def _physical_lines(readline: Callable[[int], bytes]) -> Iterator[bytes | _Long]:
    """Lines as bytes, reading at most ``MAX_LINE_LENGTH + 1`` bytes at a time: a longer
    line is never held whole."""
    while line := readline(MAX_LINE_LENGTH + 1):
        if len(line) <= MAX_LINE_LENGTH or line.endswith(b"\n"):
            yield line
        else:
            yield _Long(line[:SNIFF_BYTES], len(line) + _rest_of_line(readline))


def _not_text(problem: tuple[int, str], number: int | None = None) -> str:
    column, what = problem
    where = "at" if number is None else f"on line {number},"
    return f"{what} {where} column {column + 1}; a puzzle file is UTF-8 text"


def _as_text(data: bytes) -> str | None:
    """The text of a line, or None when it holds a NUL byte or bytes that are no UTF-8."""
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _line_texts(number: int, line: bytes | _Long,
                offset: int) -> tuple[list[str | Unreadable], int]:
    """The text lines of a file's line ``number`` (from byte ``offset``) and its length.  A
    NUL byte or bytes that are no UTF-8 within the first ``SNIFF_BYTES`` raise
    ``PuzzleFileError`` (a binary file); later they spoil only their line."""
    data = line.head if isinstance(line, _Long) else line
    if number == 1:
        data = without_bom(data)
    text = None if isinstance(line, _Long) else _as_text(data)
    problem = None if text is not None else first_problem(data, isinstance(line, bytes))
    if problem is not None and offset < SNIFF_BYTES:
        raise PuzzleFileError("binary data or not UTF-8 text: " + _not_text(problem, number))
    length = len(data) if isinstance(line, bytes) else line.length
    if text is not None:
        return list(text.splitlines() or [""]), length
    if isinstance(line, _Long):
        return [too_long(line.length)], length
    return [Unreadable(_not_text(problem or (0, "unreadable bytes")))], length


def _decoded(lines: Iterable[bytes | _Long]) -> Iterator[str | Unreadable]:
    """Lines as text (``_line_texts``)."""
    offset = 0
    for number, line in enumerate(lines, start=1):
        texts, length = _line_texts(number, line, offset)
        offset += length
        yield from texts


@dataclass(frozen=True)
class SlicePlace:
    """Where a slice of a file starts: after ``offset`` bytes, ``physical`` lines (ended by
    a newline) and ``line`` lines as numbered (a line may hold several: ``str.splitlines``),
    with the file's ``first`` puzzle so far."""

    offset: int = 0
    physical: int = 0
    line: int = 0
    first: PuzzleEntry | None = None


def read_slice(data: bytes, place: SlicePlace,
               last: bool) -> tuple[list[PuzzleEntry], int, SlicePlace]:
    """The entries of ``data``, whole lines of a file from ``place`` on (``last``: to its
    end), as ``read_puzzles`` numbers and words them; the bytes taken; the place after them.

    A grid still open at the end of a slice that is not the last is left to the next: the
    bytes from its first line on are not taken (none when it starts the slice: then the
    caller reads more), nor the entries of those lines.
    """
    stream = io.BytesIO(data)
    texts: list[str | Unreadable] = []
    starts: list[int] = []  # where in ``data`` the line holding each text starts
    start = 0
    for number, line in enumerate(_physical_lines(stream.readline), start=place.physical + 1):
        found = _line_texts(number, line, place.offset + start)[0]
        texts.extend(found)
        starts.extend([start] * len(found))
        start = stream.tell()
    state = GridState(first=place.first)
    entries = list(grid_entries(texts, state, place.line + 1))
    used, taken = len(data), len(texts)
    if state.pending is not None and last:
        entries.append(unfinished(state.pending))
    elif state.pending is not None:
        used = starts[state.pending.line - place.line - 1]
        taken = bisect.bisect_left(starts, used)
        entries = [entry for entry in entries if entry.line <= place.line + taken]
    after = SlicePlace(place.offset + used, place.physical + data.count(b"\n", 0, used),
                       place.line + taken, state.first)
    return entries, used, after


def _text_lines(stream: IO[str]) -> Iterator[str | Unreadable]:
    """An already-decoded text stream, line by line, too-long lines skipped."""
    try:
        while line := stream.readline(MAX_LINE_LENGTH + 1):
            if len(line) <= MAX_LINE_LENGTH or line.endswith("\n"):
                yield from line.splitlines() or [""]
            else:
                yield too_long(len(line) + _rest_of_line(stream.readline))
    except UnicodeDecodeError as error:
        raise PuzzleFileError(f"not UTF-8 text ({error.reason}); a puzzle file is UTF-8 text"
                              ) from None


def _stream_entries(stream: IO[str] | IO[bytes]) -> list[PuzzleEntry]:
    if isinstance(stream.read(0), str):
        return list(grid_entries(_text_lines(stream)))  # type: ignore[arg-type]
    return list(grid_entries(_decoded(_physical_lines(stream.readline))))  # type: ignore[arg-type]


def read_puzzles(source: str | Path | TextIO | IO[bytes]) -> list[PuzzleEntry]:
    """Every puzzle in a file (a path, ``"-"`` for stdin, or an open text or binary file).

    ``OSError`` when the file cannot be opened (missing, a directory, no permission);
    ``PuzzleFileError`` (a ``ValueError``) when it is binary or not UTF-8.  Problems
    with single lines or puzzles are entries with an ``error``.
    """
    if isinstance(source, (str, Path)):
        if str(source) == "-":  # its bytes, when it has them: decoding is ours to check
            return _stream_entries(getattr(sys.stdin, "buffer", sys.stdin))
        with open(source, "rb") as stream:
            return _stream_entries(stream)
    return _stream_entries(source)
