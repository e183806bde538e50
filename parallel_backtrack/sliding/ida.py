"""IDA* on a board: iterations of the compiled depth-first pass, bound by bound.

Glossary
--------
bound
    The f = g + h limit of one iteration; the next one is the smallest f that
    exceeded it.  The first goal met within a bound is optimal.
nodes
    Korf's count: every child generated over all iterations, plus 1 for the
    root (once).  A child whose f exceeds the bound counts; the final
    iteration stops at the first goal unless ``complete_last``.
complete_last
    Run the final iteration to its end too: the count is then the same for
    any split of the tree, which is what parallel runs are compared on.
move order
    The blank tries UP, LEFT, RIGHT, DOWN in the blank-first frame; a
    blank-last board is turned half a turn into that frame, so on the board
    itself the order is DOWN, RIGHT, LEFT, UP.  Moves come back in the board's
    own frame.
Pass
    The arrays of one resumable pass below one start state (the root, or a
    subtree root of a parallel run at depth ``g0``).

Example: ``solve(Board((1, 2, 3, 4, 5, 6, 7, 0, 8))).moves == "R"``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import kernel
from .astar import UnsolvableError
from .board import MOVES, Board
from .heuristics import Tables, tables_for, to_frame

CHUNK = 1 << 20
_kernel: Any = kernel  # numba's Dispatcher type lists no arguments


@dataclass(frozen=True, slots=True)
class IdaResult:
    """One IDA* search: ``moves`` (of the blank, ``U L R D``) when ``complete``."""

    moves: str | None
    nodes: int
    iterations: int
    bound: int
    seconds: float
    stop_reason: str | None = None
    expanded: int = 0  # children within the bound (entered) + root; 1 with hamming/manhattan

    @property
    def complete(self) -> bool:
        return self.stop_reason is None


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
        self.reg = np.zeros(5, np.int64)
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
        self.reg[:] = (0, 0, kernel.NO_BOUND, -1, 0)

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
    def expanded(self) -> int:
        return int(self.reg[kernel.EXPANDED])

    @property
    def next_bound(self) -> int:
        return int(self.reg[kernel.NEXT])

    def goal_moves(self) -> list[int] | None:
        """The frame moves (0..3) of the first goal found in this pass, or None."""
        depth = int(self.reg[kernel.GOAL])
        return None if depth < 0 else [int(d) for d in self.best[:depth]]


def board_moves(board: Board, frame_moves: list[int]) -> str:
    """Frame moves as the board's own ``U L R D`` (a half turn swaps U/D and L/R)."""
    if board.goal == "blank-first":
        return "".join(MOVES[d] for d in frame_moves)
    return "".join(MOVES[3 - d] for d in frame_moves)


def solve(board: Board, heuristic: str = "manhattan", *, complete_last: bool = False,
          max_nodes: int | None = None, deadline: float | None = None,
          stop: Callable[[], bool] | None = None, chunk: int = CHUNK,
          on_iteration: Callable[[int, int], None] | None = None) -> IdaResult:
    """Optimal moves for ``board`` by IDA*; stops early (``stop_reason``) at
    ``deadline`` (a ``time.perf_counter`` value), ``max_nodes`` or ``stop()``;
    ``on_iteration(bound, nodes so far)`` after each iteration."""
    if not board.is_solvable():
        raise UnsolvableError("unsolvable: the tile parity differs from the goal's")
    started = time.perf_counter()
    one = Pass(tables_for(board.size(), heuristic), to_frame(board))
    bound, nodes, iterations, expanded = one.h0, 1, 0, 1
    if one.h0 == 0:
        return IdaResult("", 1, 0, 0, time.perf_counter() - started, expanded=1)
    while True:
        reason = _stop_reason(nodes, max_nodes, deadline, stop)
        if reason:
            return IdaResult(None, nodes, iterations, bound, time.perf_counter() - started,
                             reason)
        iterations += 1
        one.begin(bound)
        while one.run(chunk, not complete_last) == kernel.PAUSED:
            reason = _stop_reason(nodes + one.nodes, max_nodes, deadline, stop)
            if reason:
                return IdaResult(None, nodes + one.nodes, iterations, bound,
                                 time.perf_counter() - started, reason)
        nodes += one.nodes
        expanded += one.expanded
        if on_iteration is not None:
            on_iteration(bound, nodes)
        found = one.goal_moves()
        if found is not None:
            return IdaResult(board_moves(board, found), nodes, iterations, bound,
                             time.perf_counter() - started, expanded=expanded)
        bound = one.next_bound


def _stop_reason(nodes: int, max_nodes: int | None, deadline: float | None,
                 stop: Callable[[], bool] | None) -> str | None:
    if max_nodes is not None and nodes >= max_nodes:
        return "max-nodes"
    if deadline is not None and time.perf_counter() >= deadline:
        return "timeout"
    if stop is not None and stop():
        return "stopped"
    return None
