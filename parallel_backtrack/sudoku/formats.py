"""Reading and writing Sudoku puzzle files.

Glossary
--------
cells
    A puzzle's squares in row-major order as ints: 0 for a blank, else the
    value.  Example: ``"85...24.."`` starts the cells ``(8, 5, 0, 0, 0, 2, 4, 0, 0)``.
symbol
    How a cell is written: ``.``, ``0`` or ``_`` for a blank, ``1``..``9``, then
    ``A``, ``B``, .. for 10, 11, .. (the Gecode files write 16x16 with 1-9, A-G).
    A line with spaces in it is read cell by space-separated cell, and there a
    cell may also be a decimal number (``12``): that is how 36x36 puzzles are
    written (36 needs more symbols than 1-9 and A-Z give).  A line without
    spaces is read one character per cell.
puzzle line
    All the cells of one puzzle on one line (81 symbols for 9x9).  Whatever
    follows a tab, a ``:`` or a ``#`` is the line's *tail* (a name, ``:count``, a
    comment), kept but not read as cells.
grid
    n lines of n cells each; ``|``, ``+`` and ``-`` separators and spaces are
    allowed, and lines made only of separators are skipped.
entry
    What the reader makes of one puzzle in a file: its cells, or the reason
    it could not be read, and the line it starts on.

The size is inferred from the number of cells: 16, 81, 256, 625 or 1296 on a
puzzle line; 4, 9, 16, 25 or 36 per grid line (box sizes 2..6: the grids,
propagators and kernels are built for those).  A 16-cell line is a whole 4x4
puzzle unless it holds a value above 4, continues a 16x16 grid, or the file's
first puzzle is 16x16 (so only a file's first 16x16 grid must not start with a
line of only 1-4 and blanks).
Lines starting with ``#`` are comments, and a ``#`` later in a line starts its tail.
A blank line ends a grid: a grid cut short before one is reported, not completed
with the rows of the next grid.  Every other line ends up in exactly one entry, so
nothing is dropped silently.

Limits (each gives an entry with an ``error``, the other puzzles are still read):
one size per file (the size of its first puzzle); lines of at most
``MAX_LINE_LENGTH`` characters (a 36x36 puzzle as spaced numbers needs about
3,900), never held whole; UTF-8 text.  A file whose first ``SNIFF_BYTES`` hold a
NUL byte or bytes that are no UTF-8 is no puzzle file at all: ``read_puzzles``
raises ``PuzzleFileError``.
"""

from __future__ import annotations

import bisect
import io
import string
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TextIO

from .._text import SNIFF_BYTES, first_problem, without_bom
from .boxes import BOX_SIZES, check_box
from .grid import box_for_cells, grid_for

BLANKS = frozenset(".0_")
LETTERS = string.ascii_uppercase
PUZZLE_CELLS = tuple(b**4 for b in BOX_SIZES)
ROW_CELLS = tuple(b * b for b in BOX_SIZES)
_SEPARATORS = str.maketrans("|+", "  ")
# The longest sensible line: a 36x36 puzzle as spaced numbers (~3,900) plus a tail.
MAX_LINE_LENGTH = 16_384
# Cells are at most 36; longer digit strings are no cell (and int() refuses > 4,300 digits).
MAX_DIGITS = 6


class PuzzleFileError(ValueError):
    """A file that is no text at all (binary, or not UTF-8), so it holds no puzzles."""


@dataclass(frozen=True, slots=True)
class _Unreadable:
    """A line that could not be read as text (too long, or not UTF-8)."""

    reason: str


@dataclass(frozen=True, slots=True)
class PuzzleEntry:
    """One puzzle read from a file (``cells``), or why it could not be (``error``)."""

    line: int
    cells: tuple[int, ...] | None = None
    error: str | None = None
    tail: str = ""

    @property
    def box(self) -> int | None:
        """The box size inferred from the number of cells (None when unreadable)."""
        return None if self.cells is None else box_for_cells(len(self.cells))


def symbol_value(symbol: str) -> int | None:
    """The value a symbol stands for (0 for a blank), or None if it is not a cell."""
    if symbol in BLANKS:
        return 0
    if symbol.isascii() and symbol.isdigit() and len(symbol) <= MAX_DIGITS:
        return int(symbol)
    if len(symbol) == 1 and symbol.upper() in LETTERS:
        return LETTERS.index(symbol.upper()) + 10
    return None


def value_symbol(value: int) -> str:
    """How a value is written: ``.`` for 0, ``1``..``9``, then ``A``.. for 10..35."""
    if value == 0:
        return "."
    if 1 <= value <= 9:
        return str(value)
    if 10 <= value < 10 + len(LETTERS):
        return LETTERS[value - 10]
    raise ValueError(f"value {value} has no one-character symbol (1..35 do)")


@dataclass
class _Pending:
    """A multi-line grid being collected."""

    line: int
    width: int
    rows: list[tuple[int, ...]] = field(default_factory=list)
    symbols: list[str] = field(default_factory=list)  # as typed, cell by cell
    numbers: list[int] = field(default_factory=list)  # the file line of each row


def cell_symbols(text: str) -> list[str]:
    """The cell symbols of a line as typed (its tail left out)."""
    return _split_cells(text)[0]


def range_problem(cells: Sequence[int], symbols: Sequence[str],
                  rows: Sequence[int]) -> tuple[int, str] | None:
    """``(line, reason)`` when a puzzle holds a value above its size, else None.

    ``symbols`` are the cells as typed, ``rows`` the file line of each of its lines
    (one for a puzzle line, n for a grid): the reason names each square and what it
    holds as typed (``A1 holds 'x'``), the line is that of the first such square (others
    on another line say theirs)."""
    box = box_for_cells(len(cells))
    if box is None or len(symbols) != len(cells) or not rows:
        return None
    n = box * box
    bad = [i for i, value in enumerate(cells) if value > n]
    if not bad:
        return None
    names, per_row = grid_for(box).names, len(cells) // len(rows)
    line = rows[bad[0] // per_row]
    problems = [f"{names[i]} holds {symbols[i]!r}"
                + ("" if rows[i // per_row] == line else f" (line {rows[i // per_row]})")
                for i in bad[:4]]
    more = f"; and {len(bad) - 4} more" if len(bad) > 4 else ""
    return line, f"values must be 1..{n}: {'; '.join(problems)}{more}"


def _in_range(entry: PuzzleEntry, symbols: Sequence[str], rows: Sequence[int]) -> PuzzleEntry:
    """``entry``, or an error at the line holding a value above the puzzle's size."""
    if entry.cells is None:
        return entry
    problem = range_problem(entry.cells, symbols, rows)
    return entry if problem is None else PuzzleEntry(problem[0], error=problem[1])


def _split_cells(text: str) -> tuple[list[str], str]:
    """The cell symbols of a line and its tail (after a tab, ``:`` or ``#``)."""
    cut = min((i for i in (text.find("\t"), text.find(":"), text.find("#")) if i >= 0),
              default=len(text))
    cells_text, tail = text[:cut].strip(), text[cut + 1 :].strip()
    spaced = cells_text.translate(_SEPARATORS)
    if any(ch.isspace() for ch in cells_text):
        return spaced.split(), tail
    return [ch for ch in spaced if not ch.isspace()], tail


def _read_symbols(symbols: list[str]) -> tuple[int, ...] | str:
    """The cells for some symbols, or the reason they are not cells."""
    cells = []
    for column, symbol in enumerate(symbols, start=1):
        value = symbol_value(symbol)
        if value is None:
            shown = repr(symbol) if len(symbol) <= 12 else f"{symbol[:12]!r}.. ({len(symbol)} long)"
            return (
                f"cannot read {shown} (cell {column}) as a cell; expected 1-9, A.. for 10"
                " and up, or '.', '0', '_' for a blank" + _words_after(symbols, column)
            )
        cells.append(value)
    return tuple(cells)


def _words_after(symbols: list[str], column: int) -> str:
    """A hint when a line is a whole puzzle line followed by words (``puzzle name``)."""
    first = symbols[0]
    if column > 1 or len(first) not in PUZZLE_CELLS or len(symbols) < 2:
        return ""
    if any(symbol_value(ch) is None for ch in first):
        return ""
    return "; words after a puzzle go after a tab, ':' or '#'"


def _is_separator_line(text: str) -> bool:
    return not text.strip(" \t|+-=")


def _is_puzzle_line(cells: tuple[int, ...], pending: _Pending | None, box: int | None) -> bool:
    """Does a line with a whole puzzle's worth of cells hold a whole puzzle?

    ``box`` is the size of the file's first puzzle: in a 16x16 file a 16-cell
    line is always a grid row."""
    if len(cells) != 16:
        return True
    return pending is None and box != 4 and max(cells) <= 4


def _bad_width(count: int) -> str:
    text = (
        f"{count} cells; a puzzle line has {', '.join(map(str, PUZZLE_CELLS))} cells"
        f" and a grid line {', '.join(map(str, ROW_CELLS))}"
    )
    side = next((n for n in range(7, 100) if count in (n**4, n * n)), None)
    if side is not None:
        size = side if count == side * side else side * side
        text += f" (a {size}x{size} grid is too large: boxes of 2..6, up to 36x36)"
    return text


def _unfinished(pending: _Pending) -> PuzzleEntry:
    n = pending.width
    return PuzzleEntry(
        pending.line,
        error=f"grid of {n}-cell lines ends after {len(pending.rows)} of its {n} lines",
    )


def _one_size(entry: PuzzleEntry, first: PuzzleEntry | None) -> PuzzleEntry:
    """``entry``, or an error when its size differs from the file's first puzzle."""
    if first is None or entry.box == first.box:
        return entry
    n, m = (box * box for box in (entry.box or 0, first.box or 0))
    return PuzzleEntry(
        entry.line,
        error=f"a {n}x{n} puzzle, but this file's first puzzle (line {first.line}) is {m}x{m};"
        " one size per file",
    )


@dataclass
class GridState:
    """What reading carries from one line to the next: the grid being collected and the
    file's first puzzle (its size is the file's)."""

    pending: _Pending | None = None
    first: PuzzleEntry | None = None


def _grid_entries(lines: Iterable[str | _Unreadable], state: GridState | None = None,
                  start: int = 1) -> Iterator[PuzzleEntry]:
    """The entries of ``lines`` (numbered from ``start``); a grid still open at the end is
    reported unfinished, unless a ``state`` is given to go on with (``read_slice``)."""
    at = state or GridState()
    for number, raw in enumerate(lines, start=start):
        if isinstance(raw, _Unreadable):
            yield PuzzleEntry(number, error=raw.reason)
            continue
        text = raw.strip()
        if not text and at.pending is not None:  # a blank line ends a grid
            yield _unfinished(at.pending)
            at.pending = None
        if not text or text.startswith("#") or _is_separator_line(text):
            continue
        symbols, tail = _split_cells(text)
        cells = _read_symbols(symbols)
        if isinstance(cells, str):
            yield PuzzleEntry(number, error=cells)
            continue
        if at.pending is not None and len(cells) != at.pending.width:
            yield _unfinished(at.pending)
            at.pending = None
        entry = None
        box = None if at.first is None else at.first.box
        if len(cells) in PUZZLE_CELLS and _is_puzzle_line(cells, at.pending, box):
            entry, typed, rows = PuzzleEntry(number, cells=cells, tail=tail), symbols, [number]
        elif len(cells) in ROW_CELLS:
            pending = at.pending = at.pending or _Pending(number, len(cells))
            pending.rows.append(cells)
            pending.symbols.extend(symbols)
            pending.numbers.append(number)
            if len(pending.rows) == pending.width:
                entry = PuzzleEntry(pending.line, cells=sum(pending.rows, ()))
                typed, rows, at.pending = pending.symbols, pending.numbers, None
        else:
            yield PuzzleEntry(number, error=_bad_width(len(cells)))
        if entry is not None:
            at.first = at.first or entry
            yield _in_range(_one_size(entry, at.first), typed, rows)
    if state is None and at.pending is not None:
        yield _unfinished(at.pending)


def _too_long(length: int) -> _Unreadable:
    return _Unreadable(
        f"line of {length:,} characters; lines stop at {MAX_LINE_LENGTH:,} (a 36x36 puzzle"
        " as spaced numbers needs about 3,900)"
    )


def _bounded(lines: Iterable[str]) -> Iterator[str | _Unreadable]:
    for line in lines:
        yield line if len(line) <= MAX_LINE_LENGTH else _too_long(len(line))


def parse_puzzles(text: str) -> list[PuzzleEntry]:
    """Every puzzle (or unreadable line) in a text, in file order."""
    return list(_grid_entries(_bounded(text.splitlines())))


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
                offset: int) -> tuple[list[str | _Unreadable], int]:
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
        return [_too_long(line.length)], length
    return [_Unreadable(_not_text(problem or (0, "unreadable bytes")))], length


def _decoded(lines: Iterable[bytes | _Long]) -> Iterator[str | _Unreadable]:
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
    texts: list[str | _Unreadable] = []
    starts: list[int] = []  # where in ``data`` the line holding each text starts
    start = 0
    for number, line in enumerate(_physical_lines(stream.readline), start=place.physical + 1):
        found = _line_texts(number, line, place.offset + start)[0]
        texts.extend(found)
        starts.extend([start] * len(found))
        start = stream.tell()
    state = GridState(first=place.first)
    entries = list(_grid_entries(texts, state, place.line + 1))
    used, taken = len(data), len(texts)
    if state.pending is not None and last:
        entries.append(_unfinished(state.pending))
    elif state.pending is not None:
        used = starts[state.pending.line - place.line - 1]
        taken = bisect.bisect_left(starts, used)
        entries = [entry for entry in entries if entry.line <= place.line + taken]
    after = SlicePlace(place.offset + used, place.physical + data.count(b"\n", 0, used),
                       place.line + taken, state.first)
    return entries, used, after


def _text_lines(stream: IO[str]) -> Iterator[str | _Unreadable]:
    """An already-decoded text stream, line by line, too-long lines skipped."""
    try:
        while line := stream.readline(MAX_LINE_LENGTH + 1):
            if len(line) <= MAX_LINE_LENGTH or line.endswith("\n"):
                yield from line.splitlines() or [""]
            else:
                yield _too_long(len(line) + _rest_of_line(stream.readline))
    except UnicodeDecodeError as error:
        raise PuzzleFileError(f"not UTF-8 text ({error.reason}); a puzzle file is UTF-8 text"
                              ) from None


def _stream_entries(stream: IO[str] | IO[bytes]) -> list[PuzzleEntry]:
    if isinstance(stream.read(0), str):
        return list(_grid_entries(_text_lines(stream)))  # type: ignore[arg-type]
    return list(_grid_entries(_decoded(_physical_lines(stream.readline))))  # type: ignore[arg-type]


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


def parse_one(text: str) -> tuple[int, ...]:
    """The cells of a text holding exactly one puzzle; ValueError otherwise."""
    entries = parse_puzzles(text)
    if len(entries) != 1:
        raise ValueError(f"expected one puzzle, found {len(entries)} in {text[:40]!r}")
    entry = entries[0]
    if entry.cells is None:
        raise ValueError(f"line {entry.line}: {entry.error}")
    return entry.cells


def _symbols(cells: Sequence[int]) -> tuple[list[str], int]:
    """Cells as symbols and the column width: one character up to 35, numbers above."""
    box = box_for_cells(len(cells))
    if box is None:
        raise ValueError(f"{len(cells)} cells is no Sudoku size; expected one of {PUZZLE_CELLS}")
    check_box(box)
    if max(cells, default=0) <= 9 + len(LETTERS):
        return [value_symbol(v) for v in cells], 1
    return [str(v) if v else "." for v in cells], 2


def format_line(cells: Sequence[int]) -> str:
    """One puzzle on one line (``0`` cells as ``.``); space-separated numbers past 35."""
    symbols, width = _symbols(cells)
    return "".join(symbols) if width == 1 else " ".join(symbols)


def format_grid(cells: Sequence[int]) -> str:
    """One puzzle as a grid with ``|`` between boxes and ``-+-`` lines between bands."""
    symbols, width = _symbols(cells)
    box = box_for_cells(len(cells)) or 0
    n = box * box
    rule = "-+-".join(["-" * (box * (width + 1) - 1)] * box)
    lines = []
    for row in range(n):
        if row and row % box == 0:
            lines.append(rule)
        cols = [symbols[row * n + col].rjust(width) for col in range(n)]
        lines.append(" | ".join(" ".join(cols[c : c + box]) for c in range(0, n, box)))
    return "\n".join(lines)
