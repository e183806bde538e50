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
3,900), never held whole; UTF-8 text.  This module parses lines of text
(``parse_puzzles``, ``grid_entries``); ``files`` reads them from files, streams and
slices of bytes (``read_puzzles``, ``read_slice``).
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

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


@dataclass(frozen=True, slots=True)
class Unreadable:
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


def unfinished(pending: _Pending) -> PuzzleEntry:
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


def grid_entries(lines: Iterable[str | Unreadable], state: GridState | None = None,
                  start: int = 1) -> Iterator[PuzzleEntry]:
    """The entries of ``lines`` (numbered from ``start``); a grid still open at the end is
    reported unfinished, unless a ``state`` is given to go on with (``read_slice``)."""
    at = state or GridState()
    for number, raw in enumerate(lines, start=start):
        if isinstance(raw, Unreadable):
            yield PuzzleEntry(number, error=raw.reason)
            continue
        text = raw.strip()
        if not text and at.pending is not None:  # a blank line ends a grid
            yield unfinished(at.pending)
            at.pending = None
        if not text or text.startswith("#") or _is_separator_line(text):
            continue
        symbols, tail = _split_cells(text)
        cells = _read_symbols(symbols)
        if isinstance(cells, str):
            yield PuzzleEntry(number, error=cells)
            continue
        if at.pending is not None and len(cells) != at.pending.width:
            yield unfinished(at.pending)
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
        yield unfinished(at.pending)


def too_long(length: int) -> Unreadable:
    return Unreadable(
        f"line of {length:,} characters; lines stop at {MAX_LINE_LENGTH:,} (a 36x36 puzzle"
        " as spaced numbers needs about 3,900)"
    )


def _bounded(lines: Iterable[str]) -> Iterator[str | Unreadable]:
    for line in lines:
        yield line if len(line) <= MAX_LINE_LENGTH else too_long(len(line))


def parse_puzzles(text: str) -> list[PuzzleEntry]:
    """Every puzzle (or unreadable line) in a text, in file order."""
    return list(grid_entries(_bounded(text.splitlines())))


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
