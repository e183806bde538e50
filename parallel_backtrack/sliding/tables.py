"""The arrays the IDA* kernel reads for one heuristic, and the board's fixed tables.

A leaf module: ``heuristics`` (which names and builds) and ``pdb`` (the pattern
databases) both use it, and it imports neither.

Glossary
--------
frame
    Kernel arrays live in the blank-first frame (tile t belongs on cell t).
Tables
    ``Tables.kind`` (``kernel.search.PER_TILE``, ``LINEAR``, ``PATTERN``,
    ``EXACT``, ``RANKED``) and the arrays ``search`` takes.  Pattern databases
    are memory-mapped from the cache in each process that uses them; a Tables is
    never shipped to a worker: a worker asks ``heuristics.tables_for`` by name.
neighbors[cell * 4 + d]
    The cell the blank reaches from ``cell`` by move d (U, L, R, D), or -1.
cost[t * N + cell]
    Hamming or Manhattan cost of tile t on ``cell``.
reflection
    The main-diagonal mirror: (tile map, cell map).

Example: ``cost_table(4, "manhattan")[5 * 16 + 0] == 2`` (tile 5 on cell 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .kernel import search as kernel


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

    def aux_width(self) -> int:
        return max(2 + 2 * self.n, 4 * self.offsets.shape[0])

    def kernel_args(self) -> tuple[Any, ...]:
        return (self.kind, self.cost, self.tables, self.offsets, self.group, self.stride,
                self.rtile, self.rcell, self.reflect, self.neighbors)
