"""Heuristics: the arrays the IDA* kernel reads, and plain-Python versions for A*.

Glossary
--------
name
    ``hamming`` (tiles out of place), ``manhattan`` (sum of each tile's row and
    column distance), ``linear`` (Manhattan plus 2 per tile that must leave its
    goal line to let the others pass), ``pdb`` (additive disjoint pattern
    databases: the exact 3x3 table on 3x3, 6-6-3 with reflection on 4x4) or
    a named database (``pdb-555``, ``pdb-663``, ``pdb-78``, ``pdb-exact``).  All
    admissible.
frame
    Kernel arrays live in the blank-first frame (tile t belongs on cell t).
Tables
    ``Tables.kind`` and the arrays ``search`` takes; pattern databases are
    memory-mapped from the cache (``pdb.py``) in each process that uses them,
    never pickled: a shipped ``Tables`` carries only its name and size.

Example: ``tables_for(4, "manhattan").cost[5 * 16 + 0] == 2`` (tile 5 on cell 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import kernel
from .board import Board

_kernel: Any = kernel  # numba's Dispatcher type lists no arguments

HEURISTICS = ("hamming", "manhattan", "linear", "pdb")
PDB_NAMES = ("pdb-exact", "pdb-555", "pdb-663", "pdb-78")


def default_pdb(n: int) -> str | None:
    """The pattern database ``pdb`` stands for on an n x n board (None: there is none)."""
    return {3: "pdb-exact", 4: "pdb-663"}.get(n)


def neighbors_table(n: int) -> np.ndarray:
    table = np.full(n * n * 4, -1, np.int64)
    for cell in range(n * n):
        row, col = divmod(cell, n)
        for d, (dr, dc) in enumerate(((-1, 0), (0, -1), (0, 1), (1, 0))):
            if 0 <= row + dr < n and 0 <= col + dc < n:
                table[cell * 4 + d] = (row + dr) * n + col + dc
    return table


def cost_table(n: int, name: str) -> np.ndarray:
    size = n * n
    table = np.zeros(size * size, np.int64)
    for t in range(1, size):
        for cell in range(size):
            if name == "hamming":
                table[t * size + cell] = int(cell != t)
            else:
                table[t * size + cell] = abs(cell // n - t // n) + abs(cell % n - t % n)
    return table


def reflection(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(tile map, cell map) of the main-diagonal reflection in the blank-first frame."""
    cells = np.array([(c % n) * n + c // n for c in range(n * n)], np.int64)
    return cells.copy(), cells  # tile t's goal cell is t, so tiles map as cells do


@dataclass
class Tables:
    """What the kernel needs for one heuristic on one board width."""

    n: int
    name: str
    kind: int = kernel.PER_TILE
    cost: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    tables: np.ndarray = field(default_factory=lambda: np.zeros(1, np.uint8))
    offsets: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    group: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    stride: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    rtile: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    rcell: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    reflect: bool = False
    neighbors: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))

    def __getstate__(self) -> dict[str, Any]:
        return {"n": self.n, "name": self.name}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(tables_for(state["n"], state["name"]).__dict__)

    def aux_width(self) -> int:
        return max(2 + 2 * self.n, 4 * self.offsets.shape[0])

    def kernel_args(self) -> tuple[Any, ...]:
        return (self.kind, self.cost, self.tables, self.offsets, self.group, self.stride,
                self.rtile, self.rcell, self.reflect, self.neighbors)


_CACHE: dict[tuple[int, str], Tables] = {}


def tables_for(n: int, name: str, progress: bool | None = None) -> Tables:
    """The kernel tables of heuristic ``name`` on an n x n board (built once per process)."""
    if name == "pdb":
        found = default_pdb(n)
        if found is None:
            raise ValueError(f"no pattern database for {n}x{n} boards (there are 3x3 and "
                             "4x4 ones); use --heuristic linear")
        name = found
    key = (n, name)
    if key not in _CACHE:
        _CACHE[key] = _build(n, name, progress)
    return _CACHE[key]


def _build(n: int, name: str, progress: bool | None) -> Tables:
    neighbors = neighbors_table(n)
    if name in ("hamming", "manhattan"):
        return Tables(n, name, kernel.PER_TILE, cost_table(n, name), neighbors=neighbors)
    if name == "linear":
        return Tables(n, name, kernel.LINEAR, cost_table(n, "manhattan"), neighbors=neighbors)
    if name in PDB_NAMES:
        from .pdb import pattern_tables

        return pattern_tables(n, name, neighbors, progress)
    raise ValueError(f"unknown heuristic {name!r}; expected one of "
                     f"{list(HEURISTICS) + list(PDB_NAMES)}")


def _lc_total(board: Board) -> int:
    frame = to_frame(board)
    n = board.size()
    tiles = np.array(frame, np.int8)
    return sum(int(kernel.line_conflicts(tiles, n, line, is_row))
               for line in range(n) for is_row in (True, False))


def to_frame(board: Board) -> tuple[int, ...]:
    """The tiles in the blank-first frame: a blank-last board turned half a turn, its
    tiles renumbered (cell p -> N-1-p, tile t -> N-t), which maps goal onto goal."""
    if board.goal == "blank-first":
        return board.tiles
    size = len(board.tiles)
    return tuple((size - t) % size for t in reversed(board.tiles))


def python_heuristic(name: str, n: int) -> Any:
    """``h(board)`` for A*; ``pdb`` reads the same tables as the kernel."""
    if name == "hamming":
        return Board.hamming
    if name == "manhattan":
        return Board.manhattan
    if name == "linear":
        return lambda board: board.manhattan() + _lc_total(board)
    tables = tables_for(n, name)
    aux = np.zeros(tables.aux_width(), np.int64)

    def lookup(board: Board) -> int:
        tiles = np.array(to_frame(board), np.int8)
        return int(_kernel.initial_h(tiles, n, *tables.kernel_args()[:9], aux))

    return lookup
