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
    follows a tab or a ``:`` is the line's *tail* (a name, ``:count``), kept
    but not read as cells.
grid
    n lines of n cells each; ``|``, ``+`` and ``-`` separators and spaces are
    allowed, and lines made only of separators are skipped.
entry
    What the reader makes of one puzzle in a file: its cells, or the reason
    it could not be read, and the line it starts on.

The size is inferred from the number of cells: 16, 81, 256, 625 or 1296 on a
puzzle line; 4, 9, 16, 25 or 36 per grid line.  A 16-cell line is a whole 4x4
puzzle unless it holds a value above 4 or continues a 16x16 grid (so a 16x16
grid must not start with a line of only 1-4 and blanks).
Lines starting with ``#`` are comments.  Every other line ends up in exactly one
entry, so nothing is dropped silently.
"""

from __future__ import annotations

import string
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from .grid import BOX_SIZES, box_for_cells, check_box

BLANKS = frozenset(".0_")
LETTERS = string.ascii_uppercase
PUZZLE_CELLS = tuple(b**4 for b in BOX_SIZES)
ROW_CELLS = tuple(b * b for b in BOX_SIZES)
_SEPARATORS = str.maketrans("|+", "  ")


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
    if symbol.isascii() and symbol.isdigit():
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


def _split_cells(text: str) -> tuple[list[str], str]:
    """The cell symbols of a line and its tail (after a tab or ``:``)."""
    cut = min((i for i in (text.find("\t"), text.find(":")) if i >= 0), default=len(text))
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
            return (
                f"cannot read {symbol!r} (cell {column}) as a cell; expected 1-9, A.. for 10"
                " and up, or '.', '0', '_' for a blank"
            )
        cells.append(value)
    return tuple(cells)


def _is_separator_line(text: str) -> bool:
    return not text.strip(" \t|+-=")


def _is_puzzle_line(cells: tuple[int, ...], pending: _Pending | None) -> bool:
    """Does a line with a whole puzzle's worth of cells hold a whole puzzle?"""
    if len(cells) != 16:
        return True
    return pending is None and max(cells) <= 4


def _bad_width(count: int) -> str:
    return (
        f"{count} cells; a puzzle line has {', '.join(map(str, PUZZLE_CELLS))} cells"
        f" and a grid line {', '.join(map(str, ROW_CELLS))}"
    )


def _unfinished(pending: _Pending) -> PuzzleEntry:
    n = pending.width
    return PuzzleEntry(
        pending.line,
        error=f"grid of {n}-cell lines ends after {len(pending.rows)} of its {n} lines",
    )


def _grid_entries(lines: Iterable[str]) -> Iterator[PuzzleEntry]:
    pending: _Pending | None = None
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#") or _is_separator_line(text):
            continue
        symbols, tail = _split_cells(text)
        cells = _read_symbols(symbols)
        if isinstance(cells, str):
            yield PuzzleEntry(number, error=cells)
            continue
        if pending is not None and len(cells) != pending.width:
            yield _unfinished(pending)
            pending = None
        if len(cells) in PUZZLE_CELLS and _is_puzzle_line(cells, pending):
            yield PuzzleEntry(number, cells=cells, tail=tail)
        elif len(cells) in ROW_CELLS:
            pending = pending or _Pending(number, len(cells))
            pending.rows.append(cells)
            if len(pending.rows) == pending.width:
                yield PuzzleEntry(pending.line, cells=sum(pending.rows, ()))
                pending = None
        else:
            yield PuzzleEntry(number, error=_bad_width(len(cells)))
    if pending is not None:
        yield _unfinished(pending)


def parse_puzzles(text: str) -> list[PuzzleEntry]:
    """Every puzzle (or unreadable line) in a text, in file order."""
    return list(_grid_entries(text.splitlines()))


def read_puzzles(source: str | Path | TextIO) -> list[PuzzleEntry]:
    """Every puzzle in a file (a path, ``"-"`` for stdin, or an open text file)."""
    if isinstance(source, (str, Path)):
        if str(source) == "-":
            return parse_puzzles(sys.stdin.read())
        return parse_puzzles(Path(source).read_text(encoding="utf-8-sig"))
    return parse_puzzles(source.read())


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
