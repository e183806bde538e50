"""A board as a ``ThresholdSpace``: what the engine's threshold search runs IDA* on.

Glossary
--------
state
    ``Node(tiles, g, last, moves)``: tiles in the blank-first frame, moves made
    so far (g), the last frame move (-1 at the root: the next may not undo it)
    and the frame moves from the root.
Pass
    The arrays of one resumable bounded depth-first pass of the compiled kernel
    below one start state (the root, or a subtree root at depth ``g0``).
subtree search
    ``search_below`` runs the pass below one node in chunks of ``chunk`` nodes,
    asking ``stop(nodes so far)`` between chunks.
tables
    Loaded once per process (pattern databases memory-mapped from the cache);
    a shipped space carries only the width, the heuristic's name and the chunk.

Example: ``SlidingSpace(to_frame(board), 3, "manhattan").f(space.root())`` is h of
the board.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine.threshold import INFINITE, Bounded
from .heuristics import tables_for
from .kernel import search as kernel
from .tables import Tables

CHUNK = 1 << 20
_kernel: Any = kernel  # numba's Dispatcher type lists no arguments


class Pass:
    """One resumable bounded depth-first pass below ``tiles`` (blank-first frame)."""

    def __init__(self, tables: Tables, tiles: tuple[int, ...], g0: int = 0,
                 first_move: int = -1) -> None:
        self.tables = tables
        depth = kernel.MAX_DEPTH + 1
        self.blanks = np.zeros(depth, np.int64)
        self.dirs = np.zeros(depth, np.int64)
        self.path = np.zeros(depth, np.int64)
        self.best = np.zeros(depth, np.int64)
        self.hs = np.zeros(depth, np.int64)
        self.aux = np.zeros((depth, tables.aux_width()), np.int64)
        self.reg = np.zeros(4, np.int64)
        self.reset(tiles, g0, first_move)

    def reset(self, tiles: tuple[int, ...], g0: int = 0, first_move: int = -1) -> None:
        """Start over below other tiles, reusing the arrays (a parallel task runs many
        subtrees)."""
        self.g0, self.first_move = g0, first_move
        self.start = np.array(tiles, np.int8)
        self.tiles = self.start.copy()
        self.h0 = int(_kernel.initial_h(self.start, self.tables.n,
                                        *self.tables.kernel_args()[:9], self.aux[0]))

    def begin(self, bound: int) -> None:
        self.bound = bound
        self.tiles[:] = self.start
        self.blanks[0] = int(np.argmin(self.start))
        self.dirs[0] = 0
        self.hs[0] = self.h0
        self.reg[:] = (0, 0, kernel.NO_BOUND, -1)

    def run(self, budget: int, stop_at_goal: bool) -> int:
        tables = self.tables
        if tables.kind == kernel.PER_TILE:
            return int(_kernel.search_tile(
                self.tiles, tables.n, self.g0, self.bound, self.first_move, tables.cost,
                tables.neighbors, self.blanks, self.dirs, self.path, self.hs, self.reg,
                budget, stop_at_goal, self.best))
        return int(_kernel.search(self.tiles, self.tables.n, self.g0, self.bound,
                                 self.first_move, *self.tables.kernel_args(), self.blanks,
                                 self.dirs, self.path, self.hs, self.aux, self.reg, budget,
                                 stop_at_goal, self.best))

    @property
    def nodes(self) -> int:
        return int(self.reg[kernel.NODES])

    @property
    def next_bound(self) -> int:
        return int(self.reg[kernel.NEXT])

    def goal_moves(self) -> list[int] | None:
        """The frame moves (0..3) of the first goal found in this pass, or None."""
        depth = int(self.reg[kernel.GOAL])
        return None if depth < 0 else [int(d) for d in self.best[:depth]]


@dataclass(frozen=True, slots=True)
class Node:
    tiles: tuple[int, ...]
    g: int
    last: int
    moves: tuple[int, ...]


class SlidingSpace:
    """IDA* on one board (blank-first frame) for ``engine.threshold``."""

    def __init__(self, tiles: tuple[int, ...], n: int, heuristic: str,
                 chunk: int = CHUNK) -> None:
        self.start, self.n, self.heuristic, self.chunk = tiles, n, heuristic, chunk
        self._tables: Tables | None = None
        self._local = threading.local()  # one pass per thread (the threads backend)

    def __getstate__(self) -> dict[str, Any]:
        return {"start": self.start, "n": self.n, "heuristic": self.heuristic,
                "chunk": self.chunk}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._tables, self._local = None, threading.local()

    @property
    def tables(self) -> Tables:
        if self._tables is None:
            self._tables = tables_for(self.n, self.heuristic)
        return self._tables

    def root(self) -> Node:
        return Node(self.start, 0, -1, ())

    def _reset(self, state: Node) -> Pass:
        """This process's one pass, set to start below ``state``."""
        one: Pass | None = getattr(self._local, "one", None)
        if one is None:
            one = self._local.one = Pass(self.tables, state.tiles, state.g, state.last)
        else:
            one.reset(state.tiles, state.g, state.last)
        return one

    def f(self, state: Node) -> float:
        return state.g + self._reset(state).h0

    def is_solution(self, state: Node) -> bool:
        return state.tiles == tuple(range(self.n * self.n))

    def branch(self, state: Node) -> list[Node]:
        """Children in the kernel's order (U, L, R, D), never undoing the last move."""
        children = []
        blank = state.tiles.index(0)
        for d in range(4):
            to = int(self.tables.neighbors[blank * 4 + d])
            if to < 0 or d == 3 - state.last:
                continue
            cells = list(state.tiles)
            cells[blank], cells[to] = cells[to], 0
            children.append(Node(tuple(cells), state.g + 1, d, state.moves + (d,)))
        return children

    def search_below(self, state: Node, bound: float, complete: bool,
                     stop: Callable[[int], bool]) -> Bounded:
        one = self._reset(state)
        if state.g + one.h0 > bound:  # only the root can get here (its f is the bound)
            return Bounded(0, state.g + one.h0)
        one.begin(int(bound))
        while one.run(self.chunk, not complete) == kernel.PAUSED:
            if stop(one.nodes):
                break
        found = one.goal_moves()
        next_bound = one.next_bound if one.next_bound < kernel.NO_BOUND else INFINITE
        if found is None:
            return Bounded(one.nodes, next_bound)
        moves = state.moves + tuple(found)
        return Bounded(one.nodes, next_bound, Node(tuple(range(self.n * self.n)),
                                                   len(moves), moves[-1], moves))
