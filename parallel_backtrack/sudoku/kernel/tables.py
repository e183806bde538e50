"""Geometry tables for the compiled Sudoku kernel, one set per box size.

The kernel cannot call Python geometry, so units and peers are laid out as
numpy index arrays once per box size and cached.

Glossary
--------
box ``b``
    The side of a box (2..6); the grid is ``n x n`` with ``n = b * b``.
square
    A cell by row-major index ``row * n + col`` (0 .. n*n - 1).
unit
    A row, a column or a box: ``n`` squares that must hold 1..n once each.
    Unit ids: rows ``0..n-1``, columns ``n..2n-1``, boxes ``2n..3n-1``.
peers
    The ``3n - 2b - 1`` other squares sharing a unit with a square.
    Example (9x9): square 0 (A1) has 20 peers: 1..8, 9, 18, ..., 72, 10, 11, 19, 20.

The tables hold ``uint16``: numba adds a negative-index wraparound to every
array access through a signed index, and leaving it out of the hot loops made
the kernel about 20% faster.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from ..boxes import check_box


@dataclass(frozen=True)
class KernelTables:
    """Index arrays for one box size, ready to pass to the kernel."""

    box: int
    size: int
    units: np.ndarray  # uint16 [3n, n]: the squares of each unit
    peers: np.ndarray  # uint16 [n*n, 3n-2b-1]: the peers of each square
    square_units: np.ndarray  # uint16 [n*n, 3]: row, column and box unit of each square

    @property
    def squares(self) -> int:
        """How many squares the grid has (n * n)."""
        return self.size * self.size

    @property
    def full(self) -> np.uint64:
        """The mask of all values 1..n."""
        return np.uint64((1 << self.size) - 1)

    def as_tuple(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.uint64]:
        """``(units, peers, square_units, full)``: the form the kernel takes."""
        return (self.units, self.peers, self.square_units, self.full)


def _unit_squares(box: int) -> list[list[int]]:
    size = box * box
    rows = [[r * size + c for c in range(size)] for r in range(size)]
    cols = [[r * size + c for r in range(size)] for c in range(size)]
    boxes = [
        [(br * box + r) * size + bc * box + c for r in range(box) for c in range(box)]
        for br in range(box)
        for bc in range(box)
    ]
    return rows + cols + boxes


def _box_index(box: int, square: int) -> int:
    size = box * box
    row, col = divmod(square, size)
    return (row // box) * box + col // box


@cache
def kernel_tables(box: int) -> KernelTables:
    """The cached units/peers tables for box size ``box`` (2..6)."""
    box = check_box(box)
    size = box * box
    units = _unit_squares(box)
    peers = []
    square_units = []
    for square in range(size * size):
        row, col = divmod(square, size)
        unit_ids = (row, size + col, 2 * size + _box_index(box, square))
        square_units.append(unit_ids)
        seen = sorted({s for u in unit_ids for s in units[u]} - {square})
        peers.append(seen)
    tables = KernelTables(
        box=box,
        size=size,
        units=np.array(units, dtype=np.uint16),
        peers=np.array(peers, dtype=np.uint16),
        square_units=np.array(square_units, dtype=np.uint16),
    )
    for array in (tables.units, tables.peers, tables.square_units):
        array.setflags(write=False)
    return tables
