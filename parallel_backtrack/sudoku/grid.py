"""Sudoku geometry for box size b (n = b*b): squares, units and peers.

Everything here depends on the box size only, so it is computed once per size
(``grid_for`` is cached) and shared by every puzzle of that size.

Glossary
--------
box, b
    The side of one box: 2..6.  ``n = b * b`` is the side of the grid and the
    number of values (4, 9, 16, 25, 36).
square
    One cell, by index ``row * n + col`` (row-major, 0-based) or by name: row
    letters ``A``.. then column number ``1..n``.  A ``Square`` is both: an int
    that prints and compares as its name (what the square orders return).
    Rows past ``Z`` continue the spreadsheet way (``AA``, ``AB``, ..), so 36x36 ends at ``AJ36``.
    Example (9x9): ``"A3"`` is index 2, ``"I9"`` is index 80.
unit
    A row, a column or a box: a tuple of n square indices.  Its values must be
    1..n, each once.  ``unit_getters[u](masks)`` fetches the masks of unit u
    in one call.
units_of[s]
    The three units holding square s: (its row, its column, its box);
    ``unit_ids[s]`` gives their positions in ``units``.
peers[s]
    The squares sharing a unit with s, s excluded (20 of them for 9x9).
mask
    A set of values as an int: value v (1..n) is bit v - 1.  ``full`` holds all.
"""

from __future__ import annotations

import difflib
import string
from dataclasses import dataclass
from functools import cache
from operator import itemgetter

from .boxes import BOX_SIZES, check_box


class Square(int):
    """A square as the lab names it: an int (its row-major index) that prints as its
    name and compares equal to it, so ``RowMajor().select_next_unfilled_square(p)``
    is ``2`` and ``'A3'`` at once.  Hashes as the index."""

    name: str

    def __new__(cls, index: int, name: str) -> Square:
        square = super().__new__(cls, index)
        square.name = name
        return square

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return repr(self.name)

    def __format__(self, spec: str) -> str:
        return format(self.name, spec)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return other.strip().upper() == self.name
        return int(self) == other

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = int.__hash__

    def __reduce__(self) -> tuple[type[Square], tuple[int, str]]:
        return (Square, (int(self), self.name))


@dataclass(frozen=True, slots=True, eq=False)
class Grid:
    """The precomputed geometry of one grid size."""

    box: int
    size: int
    full: int
    names: tuple[str, ...]
    named_squares: tuple[Square, ...]
    index_of: dict[str, int]
    rows: tuple[tuple[int, ...], ...]
    cols: tuple[tuple[int, ...], ...]
    boxes: tuple[tuple[int, ...], ...]
    units: tuple[tuple[int, ...], ...]
    units_of: tuple[tuple[tuple[int, ...], ...], ...]
    peers: tuple[tuple[int, ...], ...]
    unit_getters: tuple[itemgetter, ...]
    unit_ids: tuple[tuple[int, int, int], ...]

    @property
    def squares(self) -> range:
        """All square indices, row-major."""
        return range(self.size * self.size)

    def square(self, square: str | int) -> int:
        """A square's index from its name (``"A3"``) or index; raises on unknown squares."""
        if isinstance(square, bool) or not isinstance(square, (int, str)):
            raise TypeError(f"a square is a name like 'A1' or an index, got {square!r}")
        if isinstance(square, int):
            if not 0 <= square < self.size * self.size:
                raise IndexError(
                    f"square index {square} out of range 0..{self.size * self.size - 1}"
                    f" for a {self.size}x{self.size} grid"
                )
            return square
        index = self.index_of.get(square.strip().upper())
        if index is None:
            raise ValueError(_unknown_square_message(square, self))
        return index

    def name(self, square: int) -> str:
        """A square's name from its index (``2 -> "A3"`` on 9x9)."""
        return self.names[self.square(square)]


def row_name(row: int) -> str:
    """Row letters, spreadsheet style: 0 -> A, 25 -> Z, 26 -> AA."""
    letters = string.ascii_uppercase
    return letters[row] if row < 26 else letters[row // 26 - 1] + letters[row % 26]


@cache
def grid_for(box: int) -> Grid:
    """The geometry for box size ``box`` (2..6), built once per size."""
    n = check_box(box) * box
    names = tuple(f"{row_name(r)}{c + 1}" for r in range(n) for c in range(n))
    rows = tuple(tuple(r * n + c for c in range(n)) for r in range(n))
    cols = tuple(tuple(r * n + c for r in range(n)) for c in range(n))
    boxes = tuple(
        tuple((br + r) * n + bc + c for r in range(box) for c in range(box))
        for br in range(0, n, box)
        for bc in range(0, n, box)
    )
    units_of = tuple(
        (rows[s // n], cols[s % n], boxes[(s // n) // box * box + (s % n) // box])
        for s in range(n * n)
    )
    peers = tuple(
        tuple(sorted({p for unit in units_of[s] for p in unit} - {s})) for s in range(n * n)
    )
    return Grid(
        box=box,
        size=n,
        full=(1 << n) - 1,
        names=names,
        named_squares=tuple(Square(i, name) for i, name in enumerate(names)),
        index_of={name: i for i, name in enumerate(names)},
        rows=rows,
        cols=cols,
        boxes=boxes,
        units=rows + cols + boxes,
        units_of=units_of,
        peers=peers,
        unit_getters=tuple(itemgetter(*unit) for unit in rows + cols + boxes),
        unit_ids=tuple(
            (s // n, n + s % n, 2 * n + (s // n) // box * box + (s % n) // box)
            for s in range(n * n)
        ),
    )


def box_for_cells(cells: int) -> int | None:
    """The box size of a grid with ``cells`` squares (81 -> 3), or None if none fits."""
    for box in BOX_SIZES:
        if box**4 == cells:
            return box
    return None


def _unknown_square_message(square: str, grid: Grid) -> str:
    n = grid.size
    text = f"unknown square {square!r} for a {n}x{n} grid; expected A1..{grid.names[-1]}"
    close = difflib.get_close_matches(square.strip().upper(), grid.names, n=1)
    return text + (f" (did you mean {close[0]!r}?)" if close else "")
