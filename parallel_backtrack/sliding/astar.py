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
    A function ``heuristic(state)``, or on a ``Board`` a name: ``hamming``,
    ``manhattan``, ``linear``, ``pdb``, ``pdb-555``, ``pdb-663``, ``pdb-exact`` or
    ``auto``.  None means ``state.estimated_distance_to_goal()`` on other
    WorldStates and ``auto`` on a Board: the 4x4 pattern database when it is
    already cached (6-6-3, else 5-5-5), else linear conflicts (never a build).
    Ties in f go to the deeper node (larger g), then to the earlier one.
fast path
    A ``Board`` with a named heuristic (or none) is searched by ``fastastar``:
    compact states, incremental heuristics, always a closed set.  Any other
    WorldState, or a heuristic function, takes the generic search below.

Example: ``Solver(Board((1, 2, 3, 4, 5, 6, 7, 0, 8))).moves() == 1``.
"""

from __future__ import annotations

import heapq
import itertools
import numbers
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from ..engine.arguments import check_count
from . import fastastar
from .board import Board, UnsolvableError, WorldState

__all__ = ["NodeLimitError", "SearchNode", "Solver", "UnsolvableError"]


class NodeLimitError(RuntimeError):
    """A* enqueued ``max_nodes`` nodes without reaching the goal."""


@dataclass(frozen=True, slots=True, eq=False)
class SearchNode:
    state: Any
    moves: int
    previous: SearchNode | None
    h: int


class Solver:
    """Solve ``initial`` optimally with A* (CS61B's hw4 API); the search runs here.

    Parameters
    ----------
    initial
        The start: a ``Board``, or any ``WorldState`` (an object with
        ``estimated_distance_to_goal()``, ``neighbors()`` and ``is_goal()``, hashable
        if ``closed``).  An unsolvable Board raises ``UnsolvableError`` at once.
    heuristic
        A name (on a Board only: ``hamming``, ``manhattan``, ``linear``, ``pdb``,
        ``pdb-555``, ``pdb-663``, ``pdb-exact``, ``auto``), a function
        ``heuristic(state) -> int``, or None (``auto`` on a Board, else
        ``estimated_distance_to_goal()``).
    closed
        Keep a closed set on the generic path (the board path always keeps one).
    max_nodes
        Raise ``NodeLimitError`` after enqueuing this many nodes (a positive int);
        None: no limit.

    After the search: ``moves()`` (the length of an optimal solution),
    ``solution()`` (the states from ``initial`` to the goal), ``enqueued`` and
    ``expanded`` nodes, and ``heuristic``, the name of the one used (``custom`` for a
    function).  A bad argument raises TypeError or ValueError before any search.
    """

    def __init__(self, initial: WorldState, *,
                 heuristic: Callable[[Any], int] | str | None = None,
                 closed: bool = False, max_nodes: int | None = None) -> None:
        if isinstance(heuristic, str) and not isinstance(initial, Board):
            raise TypeError("a heuristic by name needs a Board; pass a function "
                            "heuristic(state) for other WorldStates")
        if not isinstance(initial, WorldState):
            raise TypeError("initial must be a Board or another WorldState (with "
                            "estimated_distance_to_goal(), neighbors() and is_goal()), "
                            f"got {type(initial).__name__} {initial!r}")
        if heuristic is not None and not isinstance(heuristic, str) and not callable(heuristic):
            raise TypeError("heuristic must be a name (str), a function heuristic(state) "
                            f"or None, got {heuristic!r}")
        check_count("max_nodes", max_nodes)
        if isinstance(initial, Board) and not initial.is_solvable():
            raise UnsolvableError("unsolvable: the tile parity differs from the goal's")
        self._initial = (f"size={initial.size()}" if isinstance(initial, Board)
                         else f"state={type(initial).__name__}")
        self.enqueued = 0
        self.expanded = 0
        if isinstance(heuristic, str) or (heuristic is None and isinstance(initial, Board)):
            assert isinstance(initial, Board)  # a name on another state is refused above
            from .heuristics import python_heuristic, resolve  # (loads numpy, maybe numba)

            self.heuristic = resolve(heuristic or "auto", initial.size(), "astar")
            if self.heuristic in fastastar.FAST_HEURISTICS:
                self._path = self._fast(initial, self.heuristic, max_nodes)
                return
            heuristic = python_heuristic(self.heuristic, initial.size())
        else:
            self.heuristic = "custom" if heuristic else "estimated_distance_to_goal"
        self._h = heuristic or (lambda state: state.estimated_distance_to_goal())
        self._path = _states(self._search(initial, closed, max_nodes))

    def _fast(self, board: Board, name: str, max_nodes: int | None) -> list[Board]:
        try:
            found = fastastar.search(bytes(board.tiles), board.size(), board.goal, name,
                                     max_nodes)
        except fastastar.NodeLimit as error:
            raise NodeLimitError(str(error)) from None
        except fastastar.Exhausted as error:
            raise UnsolvableError(f"unsolvable: {error}") from None
        self.enqueued, self.expanded = found.enqueued, found.expanded
        return [board._unchecked(tuple(state)) for state in found.path]

    def __repr__(self) -> str:
        return f"Solver({self._initial}, heuristic={self.heuristic!r}, moves={self.moves()})"

    def _node(self, state: Any, previous: SearchNode | None) -> SearchNode:
        moves = 0 if previous is None else previous.moves + 1
        self.enqueued += 1
        return SearchNode(state, moves, previous, self._h(state))

    def _search(self, initial: Any, closed: bool, max_nodes: int | None) -> SearchNode:
        tie = itertools.count()
        start = self._node(initial, None)
        if isinstance(start.h, bool) or not isinstance(start.h, numbers.Real):
            what = ("estimated_distance_to_goal()" if self.heuristic == "estimated_distance_to_goal"
                    else "the heuristic")
            raise TypeError(f"{what} must return a number (an int), got {start.h!r} for the "
                            "initial state")
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
        return len(self._path) - 1

    def solution(self) -> list[Any]:
        """The states from the initial one to the goal, both included."""
        return list(self._path)


def _states(goal: SearchNode) -> list[Any]:
    states = []
    node: SearchNode | None = goal
    while node is not None:
        states.append(node.state)
        node = node.previous
    return states[::-1]
