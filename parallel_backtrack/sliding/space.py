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
cut
    ``cut(bound, target, previous)``: the compiled cut (``kernel/cut.py``) at the
    least depth that gives ``target`` subtrees, never shallower than the previous
    iteration's, as a ``SlidingFrontier``.
code
    A frontier node's path from the root, one base-4 digit per move: codes rise
    in search order, and a node's ancestor k levels up is ``code >> 2 * k``; the
    previous iteration's sizes are matched through them (``weights``).
part
    What a task carries: the tiles, last moves and codes of some frontier nodes
    as bytes (about 30 bytes a subtree).
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

from ..engine.threshold import INFINITE, Bounded, Part
from .heuristics import tables_for
from .kernel import search as kernel
from .kernel.cut import cut as compiled_cut
from .rest import open_roots
from .tables import Tables

CHUNK = 1 << 20
ASK_CHUNK = 1 << 17  # nodes between two looks for an ask (about 1 ms)
MAX_CUT_DEPTH = 30  # codes are int64: two bits a move
_kernel: Any = kernel  # numba's Dispatcher type lists no arguments
_cut: Any = compiled_cut


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
        self.args9 = tables.kernel_args()[:9]
        self.reset(tiles, g0, first_move)

    def reset(self, tiles: tuple[int, ...], g0: int = 0, first_move: int = -1) -> None:
        """Start over below other tiles, reusing the arrays (a parallel task runs many
        subtrees)."""
        self.reset_row(np.array(tiles, np.int8), g0, first_move)

    def reset_row(self, row: np.ndarray, g0: int, first_move: int) -> None:
        """``reset`` from the tiles as an int8 array (kept: the caller must not change it)."""
        self.g0, self.first_move, self.start = g0, first_move, row
        self.tiles = row.copy()
        self.h0 = int(_kernel.initial_h(row, self.tables.n, *self.args9, self.aux[0]))

    def begin(self, bound: int) -> None:
        self.bound = bound
        self.tiles[:] = self.start
        self.blanks[0] = int(self.start.argmin())
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

    splits_subtrees = True  # an asked task hands back the open part of its subtree

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

    def pass_for(self, row: np.ndarray, g0: int, first_move: int) -> Pass:
        """This process's (thread's) one pass, reset below ``row``."""
        one: Pass | None = getattr(self._local, "one", None)
        if one is None:
            one = self._local.one = Pass(self.tables, tuple(row.tolist()), g0, first_move)
        return one

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

    def cut(self, bound: float, target: int, previous: Any) -> SlidingFrontier:
        return cut_space(self, bound, target, previous)

    def search_part(self, part: Any, bound: float, complete: bool, stop: Any,
                    budget: int | None = None, asked: Callable[[int], bool] | None = None
                    ) -> Part:
        return search_part(self, part, bound, complete, stop, budget, asked)

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


class SlidingFrontier:
    """The subtrees of one cut (see the glossary: codes, part)."""

    def __init__(self, n: int, depth: int, found: tuple[int, ...], tiles: np.ndarray,
                 codes: np.ndarray, lasts: np.ndarray, goal: list[int]) -> None:
        count, self.nodes, least, goal_depth, self.solution_before = found
        self.depth = depth
        self.next_bound = least if least < kernel.NO_BOUND else INFINITE
        self.tiles, self.codes, self.lasts = tiles[:count], codes[:count], lasts[:count]
        self.solution = None if goal_depth < 0 else Node(
            tuple(range(n * n)), goal_depth, goal[goal_depth - 1], tuple(goal[:goal_depth]))

    def __len__(self) -> int:
        return int(self.codes.shape[0])

    def part(self, start: int, stop: int) -> tuple[int, bytes, bytes, bytes]:
        return (self.depth, self.tiles[start:stop].tobytes(),
                self.lasts[start:stop].tobytes(), self.codes[start:stop].tobytes())

    def weights(self, previous: SlidingFrontier | None, sizes: list[int]) -> list[float]:
        """Each subtree's share of its ancestor's size in the previous cut (the
        ancestor's size over its descendants here), plus 1."""
        if previous is None or not len(previous):
            return [1.0] * len(self)
        ancestors = self.codes >> (2 * (self.depth - previous.depth))
        at = np.minimum(np.searchsorted(previous.codes, ancestors), len(previous) - 1)
        known = previous.codes[at] == ancestors
        _, inverse, counts = np.unique(ancestors, return_inverse=True, return_counts=True)
        shares = np.asarray(sizes, np.float64)[at] / counts[inverse]
        weights: list[float] = (1.0 + np.where(known, shares, 0.0)).tolist()
        return weights


def _moves(code: int, depth: int) -> tuple[int, ...]:
    return tuple((code >> (2 * (depth - 1 - i))) & 3 for i in range(depth))


def cut_space(space: SlidingSpace, bound: float, target: int,
              previous: SlidingFrontier | None) -> SlidingFrontier:
    """``SlidingSpace.cut``: the least depth (not under the previous one's) with at
    least ``target`` subtrees, or the deepest tried."""
    tables, n = space.tables, space.n
    start = np.array(space.start, np.int8)
    aux = np.zeros(tables.aux_width(), np.int64)
    goal = np.zeros(MAX_CUT_DEPTH + 1, np.int64)
    depth = 1 if previous is None else previous.depth
    capacity = max(64, 2 * target)
    while True:
        tiles = np.zeros((capacity, n * n), np.int8)
        codes, lasts = np.zeros(capacity, np.int64), np.zeros(capacity, np.int8)
        found = _cut(start, n, int(bound), depth, *tables.kernel_args()[:9], tables.neighbors,
                     aux, tiles, codes, lasts, goal)
        count = int(found[0])
        if count > capacity:  # the arrays were short: again, with room for all
            capacity = count
            continue
        if count >= target or depth >= MAX_CUT_DEPTH or found[3] >= 0 or count == 0:
            return SlidingFrontier(n, depth, tuple(int(x) for x in found), tiles, codes,
                                   lasts, goal.tolist())
        depth += 1


def _roots(space: SlidingSpace, part: tuple[Any, bytes, bytes, Any]
           ) -> tuple[np.ndarray, list[int], list[int], Callable[[int], tuple[int, ...]]]:
    """A task's subtree roots: tiles (one writable row each), moves made, last moves and
    each one's path from the board, from a frontier's part (one depth, codes) or from
    handed-back ``Roots`` (depths and paths of their own)."""
    first, tiles, lasts, paths = part
    rows = np.frombuffer(tiles, np.int8).reshape(-1, space.n * space.n).copy()
    last = np.frombuffer(lasts, np.int8).tolist()
    if isinstance(first, int):
        codes = np.frombuffer(paths, np.int64)
        return rows, [first] * len(last), last, lambda i: _moves(int(codes[i]), first)
    return rows, np.frombuffer(first, np.int16).tolist(), last, lambda i: tuple(paths[i])


def search_part(space: SlidingSpace, part: tuple[Any, bytes, bytes, Any], bound: float,
                complete: bool, stop: Any, budget: int | None = None,
                asked: Callable[[int], bool] | None = None) -> Part:
    """``SlidingSpace.search_part``: the compiled pass below each subtree of a task (one
    ``Pass`` reused; a solution's moves are rebuilt from its subtree's path).  No
    subtree is started once ``budget`` nodes are spent, or once ``asked(nodes so
    far)`` says so after the first; an ask seen inside a subtree (every
    ``ASK_CHUNK`` nodes) hands back its open part too (``rest.open_roots``)."""
    rows, gs, last, path_of = _roots(space, part)
    one = space.pass_for(rows[0], gs[0], last[0])
    nodes, least, found, whole = [], INFINITE, None, not complete
    chunk = space.chunk if asked is None else min(space.chunk, ASK_CHUNK)
    spent, budget, rest, split = 0, budget or kernel.NO_BOUND, None, False
    for offset in range(rows.shape[0]):
        if (whole and stop(0)) or spent >= budget or (
                offset and asked is not None and asked(spent)):
            break
        one.reset_row(rows[offset], gs[offset], last[offset])
        one.begin(int(bound))
        made = 0
        while one.run(chunk, whole) == kernel.PAUSED and not stop(one.nodes):
            if not split and asked is not None and asked(spent + one.nodes):
                opened = open_roots(one, space.tables, int(bound), path_of(offset))
                if opened is not None:  # the pass ends after the levels it keeps
                    split = True
                    rest, made, over = opened
                    least = min(least, over)
        nodes.append(one.nodes + made)
        spent += nodes[-1]
        if one.next_bound < least:
            least = one.next_bound
        moves = one.goal_moves()
        if moves is not None and found is None:
            path = path_of(offset) + tuple(moves)
            found = (offset, Node(tuple(range(space.n * space.n)), len(path), path[-1], path))
            if whole:
                break
        if split:
            break
    return Part(nodes, least if least < kernel.NO_BOUND else INFINITE, found, rest)
