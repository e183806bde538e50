"""Parallel IDA*: a board as a ``ThresholdSpace`` for the engine's threshold search.

Glossary
--------
state
    ``Node(tiles, g, last, moves)``: tiles in the blank-first frame, moves made
    so far (g), the last frame move (-1 at the root: the next may not undo it)
    and the frame moves from the root.
subtree search
    ``search_below`` runs the compiled pass below one node in chunks of
    ``CHUNK`` nodes, asking ``stop()`` between chunks.
tables
    Loaded once per process (pattern databases memory-mapped from the cache);
    a shipped space carries only the width and the heuristic's name.

Example: ``solve_parallel(board, "manhattan", workers=2).moves`` is optimal.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine.threshold import INFINITE, Bounded, threshold_search
from . import kernel
from .astar import UnsolvableError
from .board import Board
from .heuristics import Tables, tables_for, to_frame
from .ida import IdaResult, Pass, board_moves

CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class Node:
    tiles: tuple[int, ...]
    g: int
    last: int
    moves: tuple[int, ...]


class SlidingSpace:
    """IDA* on one board (blank-first frame) for ``engine.threshold``."""

    def __init__(self, tiles: tuple[int, ...], n: int, heuristic: str) -> None:
        self.start, self.n, self.heuristic = tiles, n, heuristic
        self._tables: Tables | None = None
        self._local = threading.local()  # one pass per thread (the threads backend)

    def __getstate__(self) -> dict[str, Any]:
        return {"start": self.start, "n": self.n, "heuristic": self.heuristic}

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
                     stop: Callable[[], bool]) -> Bounded:
        one = self._reset(state)
        if state.g + one.h0 > bound:  # only the root can get here (its f is the bound)
            return Bounded(0, state.g + one.h0)
        one.begin(int(bound))
        while one.run(CHUNK, not complete) == kernel.PAUSED:
            if stop():
                break
        found = one.goal_moves()
        next_bound = one.next_bound if one.next_bound < kernel.NO_BOUND else INFINITE
        if found is None:
            return Bounded(one.nodes, next_bound)
        moves = state.moves + tuple(found)
        return Bounded(one.nodes, next_bound, Node(tuple(range(self.n * self.n)),
                                                   len(moves), moves[-1], moves))


def solve_parallel(board: Board, heuristic: str = "manhattan", *, workers: int = 2,
                   backend: str | None = None, complete_last: bool = False,
                   timeout: float | None = None, executor: Any = None,
                   per_worker: int | None = None, parent_nodes: int | None = None,
                   order: str = "tree") -> IdaResult:
    """IDA* with each iteration's tree cut into subtrees run on ``workers`` processes."""
    if not board.is_solvable():
        raise UnsolvableError("unsolvable: the tile parity differs from the goal's")
    started = time.perf_counter()
    tables_for(board.size(), heuristic)  # build or map the tables before the pool starts
    space = SlidingSpace(to_frame(board), board.size(), heuristic)
    options: dict[str, Any] = {}
    if per_worker is not None:
        options["per_worker"] = per_worker
    if parent_nodes is not None:
        options["parent_nodes"] = parent_nodes
    report = threshold_search(space, workers=workers, backend=backend, executor=executor,
                              complete_last=complete_last, timeout=timeout, order=order,
                              **options)
    seconds = time.perf_counter() - started
    if report.solution is None:
        return IdaResult(None, report.nodes, len(report.iterations), int(min(report.bound,
                         kernel.NO_BOUND)), seconds, report.stop_reason or "no solution")
    moves = board_moves(board, list(report.solution.moves))
    return IdaResult(moves, report.nodes, len(report.iterations), int(report.bound), seconds)
