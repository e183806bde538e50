"""A* in CS61B's shape: ``Solver(initial).moves()`` and ``.solution()``, on any WorldState.

Glossary
--------
search node
    ``(state, moves so far, previous node)`` with the state's heuristic value
    cached once (``h``): a state's estimate is asked for once per node.
grandparent check
    A neighbor equal to the state two steps back (the previous node's state)
    is not enqueued: the commonest wasted node on an undirected graph.
closed set
    With ``closed=True`` a state is expanded at most once (the best g seen is
    kept): less work on graphs full of cycles, more memory.
max nodes
    ``max_nodes`` caps the nodes enqueued; reaching it raises
    ``NodeLimitError`` instead of filling memory.
heuristic
    ``heuristic(state)``; None means ``state.estimated_distance_to_goal()``.
    Ties in f go to the deeper node (larger g), then to the earlier one.

Example: ``Solver(Board((1, 2, 3, 4, 5, 6, 7, 0, 8))).moves() == 1``.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from .board import Board, WorldState


class UnsolvableError(ValueError):
    """The goal cannot be reached from this state (decided before any search)."""


class NodeLimitError(RuntimeError):
    """A* enqueued ``max_nodes`` nodes without reaching the goal."""


@dataclass(frozen=True, slots=True, eq=False)
class SearchNode:
    state: Any
    moves: int
    previous: SearchNode | None
    h: int


class Solver:
    """Solve ``initial`` optimally with A* (CS61B's hw4 API)."""

    def __init__(self, initial: WorldState, *, heuristic: Callable[[Any], int] | None = None,
                 closed: bool = False, max_nodes: int | None = None) -> None:
        if isinstance(initial, Board) and not initial.is_solvable():
            raise UnsolvableError("unsolvable: the tile parity differs from the goal's")
        if max_nodes is not None and max_nodes < 1:
            raise ValueError(f"max_nodes must be a positive integer, got {max_nodes}")
        self._h = heuristic or (lambda state: state.estimated_distance_to_goal())
        self.enqueued = 0
        self.expanded = 0
        self._goal = self._search(initial, closed, max_nodes)

    def _node(self, state: Any, previous: SearchNode | None) -> SearchNode:
        moves = 0 if previous is None else previous.moves + 1
        self.enqueued += 1
        return SearchNode(state, moves, previous, self._h(state))

    def _search(self, initial: Any, closed: bool, max_nodes: int | None) -> SearchNode:
        tie = itertools.count()
        start = self._node(initial, None)
        queue = [(start.h, 0, next(tie), start)]
        best: dict[Hashable, int] = {}
        while queue:
            _, _, _, node = heapq.heappop(queue)
            if node.state.is_goal():
                return node
            if closed:
                if best.get(node.state, node.moves + 1) <= node.moves:
                    continue
                best[node.state] = node.moves
            self.expanded += 1
            grandparent = node.previous.state if node.previous is not None else None
            for neighbor in node.state.neighbors():
                if neighbor == grandparent or (closed and neighbor in best):
                    continue
                if max_nodes is not None and self.enqueued >= max_nodes:
                    raise NodeLimitError(f"A* enqueued {self.enqueued:,} nodes (--max-nodes) "
                                         "without reaching the goal")
                child = self._node(neighbor, node)
                heapq.heappush(queue, (child.moves + child.h, -child.moves, next(tie), child))
        raise UnsolvableError("unsolvable: every reachable state was searched")

    def moves(self) -> int:
        """The number of moves of an optimal solution."""
        return self._goal.moves

    def solution(self) -> list[Any]:
        """The states from the initial one to the goal, both included."""
        states = []
        node: SearchNode | None = self._goal
        while node is not None:
            states.append(node.state)
            node = node.previous
        return states[::-1]
