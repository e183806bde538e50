"""Readers for sliding-puzzle files: CS61B/algs4 boards, one-line rows, Korf rows.

Glossary
--------
entry
    One puzzle read from a file: its 1-based ``line``, its ``tiles``, and the
    ``expected`` optimal length when the row carries one (the first number after
    the tiles), else None.
cs61b
    algs4's ``In`` format: a line with the single integer N, then N*N tiles over
    the next lines (``3`` / ``0 1 3`` / ``4 2 5`` / ``7 8 6``).  Several such
    blocks may follow each other.
rows
    One puzzle per line: N*N tiles, then at most ``MAX_ANNOTATIONS`` numbers
    (an optimal length, a heuristic value, ...) and anything after a word is
    ignored (``1 2 3 4 5 6 7 0 8 1``).
korf
    Korf's rows: an id, 16 tiles, then annotations (``1 14 13 15 7 ... 57 41``).
auto
    The format is chosen from the first line holding data: one integer is
    cs61b; an id followed by a permutation of 0..15 (and not itself starting
    with one) is korf; anything else is rows.
comment
    A line starting with ``#``, or blank: skipped.
text
    UTF-8 (a byte order mark at the start skipped).  A NUL byte or bytes that are
    no UTF-8 in the first ``SNIFF_BYTES`` mean the file is binary
    (``PuzzleFormatError`` for the whole file, as Sudoku's reader judges it); later
    they spoil only their own line.

Every problem raises ``PuzzleFormatError`` with ``line N: reason`` (one line);
``parse_text`` collects them per puzzle (``Failure``) so a bad line fails that line
only.  ``open_source`` reads a file one line at a time, giving its puzzles as they are
taken (memory follows a line, never the file); it raises ``PuzzleFormatError`` for a
file that holds no puzzles at all (empty, binary, not UTF-8, a directory) before the
first, and ``OSError`` for one it cannot open.  ``read_source`` is the same in a list.

Example: ``parse_text("3\\n0 1 3\\n4 2 5\\n7 8 6\\n")`` gives one entry on line 1
with tiles ``(0, 1, 3, 4, 2, 5, 7, 8, 6)``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain, islice
from math import isqrt
from pathlib import Path
from typing import BinaryIO

from .._text import BOM, SNIFF_BYTES, sniff, without_bom
from .board import MAX_SIZE, InvalidBoardError, check_tiles

FORMATS = ("auto", "cs61b", "rows", "korf")
MAX_ANNOTATIONS = 3
# A puzzle line is short (a 10x10 board: some 300 bytes); past this a line is cut.
MAX_LINE_BYTES = 2**20
BLOCK_BYTES = 2**16  # read at a time (at most what a pipe has ready: read1)
# Like git (and Sudoku's reader): a NUL byte or bytes that are no UTF-8 this early
# mean a binary file; later they spoil only their line.
# A NUL, or a byte that is no UTF-8 (decoded with ``surrogateescape``).
_NOT_TEXT = re.compile("[\0\udc80-\udcff]")
# The one word of a line that is no text: the reason after the NUL (see ``_data_lines``).
_UNREADABLE = "\0"


class PuzzleFormatError(ValueError):
    """A line that does not hold a valid puzzle (the message names the line)."""


@dataclass(frozen=True, slots=True)
class Entry:
    line: int
    tiles: tuple[int, ...]
    expected: int | None = None


@dataclass(frozen=True, slots=True)
class Failure:
    """A puzzle that could not be read: ``message`` starts with ``line N:``."""

    line: int
    message: str


def _fail(line: int, why: str) -> PuzzleFormatError:
    return PuzzleFormatError(f"line {line}: {why}")


def _data_lines(lines: Iterable[str]) -> Iterator[tuple[int, list[str]]]:
    """(line number, words) of each line that is not blank or a comment; a line holding
    a NUL or bytes that are no UTF-8 is one word: ``_UNREADABLE`` and the reason."""
    for number, raw in enumerate(lines, 1):
        stripped = raw.strip()
        words = stripped.replace(",", " ").split()
        if words and not stripped.startswith("#"):
            bad = _NOT_TEXT.search(raw)
            yield number, [_UNREADABLE + _not_text(raw, bad.start())] if bad else words


def _not_text(raw: str, column: int) -> str:
    char = raw[column]
    what = "a NUL byte" if char == "\0" else f"byte 0x{ord(char) - 0xdc00:02x} (not UTF-8)"
    return f"{what} at column {column + 1}; a puzzle file is UTF-8 text"


def _unreadable(line: int, word: str) -> None:
    """Raise the line's own reason when ``word`` stands for a line that is no text."""
    if word.startswith(_UNREADABLE):
        raise _fail(line, word[len(_UNREADABLE):])


def _leading_ints(words: list[str]) -> list[int]:
    """The numbers before the first word that is not one."""
    numbers = []
    for word in words:
        if not (word.isascii() and word.lstrip("+-").isdigit()) or len(word) > 30:
            break
        numbers.append(int(word))
    return numbers


def _board(line: int, tiles: list[int]) -> tuple[int, ...]:
    try:
        check_tiles(tiles)
    except InvalidBoardError as error:
        raise _fail(line, str(error)) from None
    return tuple(tiles)


def _row_entry(line: int, words: list[str], korf: bool) -> Entry:
    _unreadable(line, words[0])
    numbers = _leading_ints(words)
    if not numbers:
        raise _fail(line, f"expected tile numbers, got {words[0][:20]!r}")
    try:
        return _row_tiles(line, numbers, korf)
    except PuzzleFormatError as error:
        if len(numbers) == len(words):
            raise
        word = words[len(numbers)]  # a word ends the numbers: say so, it may be a typo
        raise PuzzleFormatError(f"{error} (the numbers end at word {len(numbers) + 1}, "
                                f"{word[:20]!r})") from None


def _row_tiles(line: int, numbers: list[int], korf: bool) -> Entry:
    if korf:
        if len(numbers) < 17:
            raise _fail(line, f"a Korf row is an id and 16 tiles; got {len(numbers)} numbers")
        tiles, extra = numbers[1:17], numbers[17:]
    else:
        n = isqrt(len(numbers))
        if n > MAX_SIZE:
            raise _fail(line, f"{len(numbers)} numbers: n = {n} is more than {MAX_SIZE}")
        if n < 2 or len(numbers) - n * n > MAX_ANNOTATIONS:
            raise _fail(line, f"{len(numbers)} numbers is not a square tile count (n*n tiles, "
                        f"then at most {MAX_ANNOTATIONS} annotation numbers)")
        tiles, extra = numbers[: n * n], numbers[n * n:]
        if extra and sorted(tiles) != list(range(n * n)):  # not tiles plus annotations
            raise _fail(line, f"{len(numbers)} numbers is not a square tile count (n*n "
                        f"tiles, then at most {MAX_ANNOTATIONS} annotation numbers)")
    return Entry(line, _board(line, tiles), extra[0] if extra else None)


def _korf_like(numbers: list[int]) -> bool:
    def permutation(part: list[int]) -> bool:
        return sorted(part) == list(range(16))

    return len(numbers) >= 17 and permutation(numbers[1:17]) and not permutation(numbers[:16])


def _format_of(words: list[str]) -> str:
    """The format a first data line's ``words`` say (``detect``)."""
    numbers = _leading_ints(words)
    if len(words) == 1 and len(numbers) == 1:
        return "cs61b"
    return "korf" if _korf_like(numbers) else "rows"


def detect(text: str) -> str:
    """The format of ``text`` (``auto`` resolved), from its first data line."""
    for _, words in _data_lines(text.splitlines()):
        return _format_of(words)
    return "rows"


def _cs61b_entries(data: Iterator[tuple[int, list[str]]]) -> Iterator[Entry | Failure]:
    """Blocks of ``N`` then N*N tiles; a bad block ends the file (its rest is unreadable).
    The words are taken one block at a time: memory follows a block, not the file."""
    tokens = ((number, word) for number, words in data for word in words)
    for line, word in tokens:
        try:
            yield _cs61b_block(line, word, tokens)
        except PuzzleFormatError as error:
            yield Failure(line, str(error))
            return


def _cs61b_block(line: int, word: str, tokens: Iterator[tuple[int, str]]) -> Entry:
    """The block whose size ``word`` (on ``line``) gives, its tiles the next words."""
    _unreadable(line, word)
    numbers = _leading_ints([word])
    if not numbers:
        raise _fail(line, f"expected the board size N, got {word[:20]!r}")
    n = numbers[0]
    if not 2 <= n <= MAX_SIZE:
        raise _fail(line, f"board size N = {n} is out of range 2..{MAX_SIZE}")
    body = list(islice(tokens, n * n))
    values = _leading_ints([w for _, w in body])
    if len(values) < len(body):
        bad_line, bad = body[len(values)]
        _unreadable(bad_line, bad)
        raise _fail(bad_line, f"expected a tile number, got {bad[:20]!r}")
    if len(values) < n * n:
        raise _fail(line, f"N = {n} needs {n * n} tiles; the file ends after {len(values)}")
    return Entry(line, _board(line, values))


def entries(lines: Iterable[str], fmt: str = "auto") -> Iterator[Entry | Failure]:
    """Every puzzle in ``lines`` (a text's ``splitlines``), one at a time: entries, and
    failures for the lines that are bad."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {list(FORMATS)}")
    data = _data_lines(lines)
    if fmt == "auto":
        first = next(data, None)
        if first is None:
            return
        fmt = _format_of(first[1])
        data = chain([first], data)
    if fmt == "cs61b":
        yield from _cs61b_entries(data)
        return
    for line, words in data:
        try:
            yield _row_entry(line, words, fmt == "korf")
        except PuzzleFormatError as error:
            yield Failure(line, str(error))


def parse_text(text: str, fmt: str = "auto") -> list[Entry | Failure]:
    """Every puzzle in ``text``: entries, and failures for the lines that are bad."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {list(FORMATS)}")
    return list(entries(text.splitlines(), fmt))


def decode(data: bytes, source: str) -> str:
    """Text of a file, or PuzzleFormatError when its first ``SNIFF_BYTES`` hold a NUL
    byte or bytes that are no UTF-8; such bytes later stay in the text (a NUL, or
    ``surrogateescape``'s stand-ins) and fail their line (``_data_lines``).  A UTF-8
    byte order mark at the start is skipped."""
    data = without_bom(data)
    problem = sniff(data)
    if problem is not None:
        raise PuzzleFormatError(f"{source}: {problem}")
    return data.decode("utf-8", "surrogateescape")


def open_source(source: str, fmt: str = "auto") -> Generator[Entry | Failure, None, None]:
    """The puzzles of a file path, or of stdin for ``-``, read as they are taken (one
    line at a time: memory follows a line, not the file).  Checked before the first is
    taken: ``OSError`` for a file that cannot be opened, ``PuzzleFormatError`` for a
    directory, a binary file (``decode``) or one that holds no puzzles at all."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {list(FORMATS)}")
    if source == "-":
        stream, owned = sys.stdin.buffer, False
    else:
        if Path(source).is_dir():
            raise PuzzleFormatError(f"{source}: is a directory, not a puzzle file")
        stream, owned = open(source, "rb"), True  # noqa: SIM115 - closed by _read
    try:
        # One byte past what ``sniff`` judges: it then knows that the file goes on.
        head = without_bom(stream.read(SNIFF_BYTES + len(BOM) + 1))
        problem = sniff(head)
        if problem is not None:
            raise PuzzleFormatError(f"{source}: {problem}")
        found = entries(_text_lines(head, stream), fmt)
        first = next(found, None)
        if first is None:
            raise PuzzleFormatError(f"{source}: no puzzles (empty, or only comments)")
    except BaseException:
        if owned:
            stream.close()
        raise
    return _read(first, found, stream if owned else None)


def _read(first: Entry | Failure, rest: Iterator[Entry | Failure],
          stream: BinaryIO | None) -> Generator[Entry | Failure, None, None]:
    """``first`` then ``rest``; the file closed at the end (or when the reader is
    closed)."""
    try:
        yield first
        yield from rest
    finally:
        if stream is not None:
            stream.close()


def _text_lines(head: bytes, stream: BinaryIO) -> Iterator[str]:
    """The lines of ``head`` and then of the rest of ``stream``, as ``str.splitlines``
    gives them for the whole text (``decode``).  The bytes come in blocks (what the
    stream has, up to ``BLOCK_BYTES``), cut after their last ``\n``; each part is
    decoded and split by ``splitlines`` (which also breaks at ``\r`` and the like): a
    ``\n`` ends a line for both, and no UTF-8 character holds that byte, so each part
    decodes alone.  A line longer than ``MAX_LINE_BYTES`` is cut there and the rest of
    it skipped: a puzzle line is short, and memory stays bounded."""
    pending = head
    while True:
        cut = pending.rfind(b"\n") + 1
        if cut:
            yield from pending[:cut].decode("utf-8", "surrogateescape").splitlines()
            pending = pending[cut:]
        if len(pending) > MAX_LINE_BYTES:  # (no \n in it)
            yield from pending[:MAX_LINE_BYTES].decode("utf-8", "surrogateescape"
                                                       ).splitlines()[:1]
            pending = b""
            while (piece := stream.readline(MAX_LINE_BYTES)) and not piece.endswith(b"\n"):
                pass  # the rest of the long line
            continue
        block = stream.read1(BLOCK_BYTES)  # type: ignore[attr-defined]
        if not block:
            yield from pending.decode("utf-8", "surrogateescape").splitlines()
            return
        pending += block


def read_source(source: str, fmt: str = "auto") -> list[Entry | Failure]:
    """The puzzles of a file path, or of stdin for ``-``, all in a list (``open_source``
    takes them one at a time); an empty file is an error."""
    return list(open_source(source, fmt))


def read_boards(source: str, fmt: str = "auto") -> list[Entry]:
    """The puzzles of one source; the first bad one raises (``source: line N: why``)."""
    entries = []
    for item in read_source(source, fmt):
        if isinstance(item, Failure):
            raise PuzzleFormatError(f"{source}: {item.message}")
        entries.append(item)
    return entries
