"""Connect-Four batch files, read one line at a time (``games connect4 --file``).

Glossary
--------
line
    ``moves [expected_score]`` (Pascal Pons' test format); blank lines and lines
    starting with ``#`` are skipped, and so is a UTF-8 byte order mark at the start.
    Lines end where ``bytes.splitlines`` ends them (``\\n``, ``\\r\\n`` or ``\\r``).
row
    What a line gives, in the file's order: a position to solve, ``{"line", "moves",
    "expected", "position"}``, or a bad line's answer, ``{"line", "moves", "status":
    "invalid", "error", "complete"}`` (a bad move, a game already over, a NUL byte or
    bytes that are no UTF-8 past the first ``SNIFF_BYTES``).
checked
    ``BatchFile`` opens the file and reads its first line that is not blank or a
    comment before any search: ``OSError`` when it cannot be read,
    ``BatchFileError`` when it is binary (``_text.sniff``: its first ``SNIFF_BYTES``)
    or holds no line to solve.

Example: ``list(BatchFile("positions.txt", Board()).rows())``.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Iterator
from typing import Any, BinaryIO

from ... import _cli
from ..._text import BOM, SNIFF_BYTES, sniff, without_bom
from .board import Board, InvalidMoveError

# A position's line is short (at most 42 moves and a score); past this a line is cut.
MAX_LINE_BYTES = 2**20


class BatchFileError(ValueError):
    """A batch file that holds no positions at all: binary, not UTF-8, or empty."""


def _line(text: str) -> tuple[str, int | None]:
    parts = text.split()
    if len(parts) > 2:
        raise ValueError(f"expected 'moves [expected_score]', got {len(parts)} fields")
    expected = None
    if len(parts) == 2:
        try:
            expected = int(parts[1])
        except ValueError:
            raise ValueError(f"expected score {parts[1][:40]!r} is not an integer") from None
    return parts[0], expected


def _text_line(raw: bytes) -> str:
    """A line's text; ValueError for a NUL byte or bytes that are no UTF-8."""
    problem = _cli.not_text(raw, True)
    if problem:
        raise ValueError(problem.replace(" on line 1,", " at"))
    return raw.decode("utf-8")


def _is_data(raw: bytes) -> bool:
    """Is a line one to answer (not blank, not a comment)?"""
    text = raw.decode("utf-8", "backslashreplace")
    return bool(text.strip()) and not text.lstrip().startswith("#")


class _ByteLines:
    """The numbered lines of ``head`` and then of the rest of ``stream``, as
    ``bytes.splitlines`` gives them for the whole file: the bytes are cut after each
    ``\\n`` and each piece split by ``splitlines`` (a ``\\r`` also ends a line).  A line
    longer than ``MAX_LINE_BYTES`` is cut there, the rest of it skipped: memory stays
    bounded.  An iterator, not a generator: a Ctrl-C while it reads leaves it where it
    was, so the rest of the file can still be counted."""

    def __init__(self, head: bytes, stream: BinaryIO) -> None:
        self.stream, self.pending, self.ended = stream, head, False
        self.ready: deque[tuple[int, bytes]] = deque()
        self.number = 0  # of the last line made ready

    def __iter__(self) -> Iterator[tuple[int, bytes]]:
        return self

    def __next__(self) -> tuple[int, bytes]:
        while not self.ready:
            if self.ended:
                raise StopIteration
            self._fill()
        return self.ready.popleft()

    def _fill(self) -> None:
        """Make the next lines ready, or read on."""
        if b"\n" in self.pending:
            done, _, rest = self.pending.rpartition(b"\n")
            self._ready((done + b"\n").splitlines(), rest)
            return
        piece = self.stream.readline(MAX_LINE_BYTES)
        if not piece:
            self.ended = True
            self._ready(self.pending.splitlines(), b"")
            return
        pending = self.pending + piece
        if len(pending) > MAX_LINE_BYTES and b"\n" not in pending:
            self._ready(pending[:MAX_LINE_BYTES].splitlines()[:1], b"")
            while piece and not piece.endswith(b"\n"):  # the rest of the long line
                piece = self.stream.readline(MAX_LINE_BYTES)
            return
        self.pending = pending

    def _ready(self, lines: list[bytes], rest: bytes) -> None:
        numbered = list(enumerate(lines, self.number + 1))
        self.pending, self.number = rest, self.number + len(lines)
        self.ready.extend(numbered)


class BatchFile:
    """A batch file (``-``: stdin), checked (see the glossary), its rows read as they
    are taken (``rows``); ``read`` counts the rows given so far."""

    def __init__(self, path: str, board: Board) -> None:
        self.board, self.read = board, 0
        if path == "-":
            binary = getattr(sys.stdin, "buffer", None)  # a test's StringIO has none
            self.stream: BinaryIO = binary if binary is not None else _encoded(sys.stdin)
            self.owned = False
        else:
            self.stream, self.owned = open(path, "rb"), True  # noqa: SIM115 - close()
        try:
            # One byte past what ``sniff`` judges: it then knows that the file goes on.
            head = without_bom(self.stream.read(SNIFF_BYTES + len(BOM) + 1))
            problem = sniff(head)
            if problem:
                raise BatchFileError(f"{problem}; a batch file is UTF-8 text")
            self.lines = _ByteLines(head, self.stream)
            self.first = next(((n, raw) for n, raw in self.lines if _is_data(raw)), None)
            if self.first is None:
                raise BatchFileError("no positions (" + (
                    "the file is empty" if not head else "only blank lines and comments") + ")")
        except BaseException:
            self.close()
            raise

    def rows(self) -> Iterator[dict[str, Any]]:
        """Every row of the file, in its order (see the glossary)."""
        if self.first is not None:
            first, self.first = self.first, None
            self.read += 1
            yield self._row(*first)
        for number, raw in self.lines:
            if _is_data(raw):
                self.read += 1
                yield self._row(number, raw)

    def _row(self, number: int, raw: bytes) -> dict[str, Any]:
        board = self.board
        try:
            moves, expected = _line(_text_line(raw))
            position = board.parse(moves)
            if board.last_mover_won(position):
                raise InvalidMoveError("the game is over: the last move won")
        except ValueError as error:
            text = raw.decode("utf-8", "backslashreplace")
            return {"line": number, "moves": text.strip()[:80], "status": "invalid",
                    "error": str(error), "complete": True}
        return {"line": number, "moves": moves, "expected": expected, "position": position}

    def count_rest(self) -> int:
        """The rows not yet read (the rest of the file is read for them; stdin on a
        terminal is not, it would wait for more)."""
        if not self.owned and self.stream.isatty():
            return 0
        return (self.first is not None) + sum(_is_data(raw) for _, raw in self.lines)

    def close(self) -> None:
        if self.owned:
            self.stream.close()


def _encoded(text: Any) -> BinaryIO:
    import io

    return io.BytesIO(text.read().encode())


def read_batch(path: str, board: Board) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(positions to solve, bad lines) of a whole batch file, each a row with its
    ``line`` (``BatchFile`` reads one line at a time)."""
    batch = BatchFile(path, board)
    try:
        found = list(batch.rows())
    finally:
        batch.close()
    return ([row for row in found if "position" in row],
            [row for row in found if "position" not in row])
