"""The Game protocol (aima's shape) and the result every search returns.

Glossary
--------
state
    An immutable position (an int, a tuple, a frozen dataclass); ``result``
    returns a new one and never changes its argument.
player
    Whatever ``to_move`` returns ("MAX"/"MIN", "X"/"O", 0/1).  Turns need not
    alternate: a search compares the player to move with its parent's.
utility(state, player)
    The value of a terminal state for ``player`` (higher is better).
mover's view
    ``negamax`` and ``alphabeta`` score every node for the player to move there;
    ``minimax`` scores every node for the player to move at the root.
key(state)
    Optional: a hashable identity for the transposition table (default: the
    state itself).
ordered_actions(state)
    Optional: ``actions`` in a better search order (best first); searches use it
    when ``ordered=True``.

Example: ``minimax(Nim(5), 5).value == -1`` (5 = 1 mod 4: the player to move loses).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

INFINITY = float("inf")


@runtime_checkable
class Game(Protocol):
    """Two players, perfect information, immutable states."""

    def to_move(self, state: Any) -> Hashable: ...

    def actions(self, state: Any) -> Sequence[Any]: ...

    def result(self, state: Any, action: Any) -> Any: ...

    def is_terminal(self, state: Any) -> bool: ...

    def utility(self, state: Any, player: Any) -> float: ...


def key_of(game: Game, state: Any) -> Hashable:
    """The transposition-table key of ``state``: ``game.key`` when the game has one."""
    key = getattr(game, "key", None)
    return state if key is None else key(state)


def actions_of(game: Game, state: Any, ordered: bool) -> list[Any]:
    """The actions in search order: ``ordered_actions`` when asked for and offered."""
    if ordered:
        better = getattr(game, "ordered_actions", None)
        if better is not None:
            return list(better(state))
    return list(game.actions(state))


@dataclass(slots=True)
class SearchResult:
    """What a search found: the value (for the player to move at the root), a best
    action, the principal variation and counts.

    ``nodes`` counts every state visited (the root and the leaves included),
    ``leaves`` the terminal (or horizon) states whose value was read, ``tt_hits``
    the table probes that answered or narrowed a node.  ``exact`` is False when a
    bounded window failed low or high (``value`` is then a bound).
    """

    value: float
    best_action: Any = None
    pv: list[Any] = field(default_factory=list)
    nodes: int = 0
    leaves: int = 0
    tt_hits: int = 0
    exact: bool = True
    depth: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"value": self.value, "best_action": self.best_action, "pv": list(self.pv),
                "nodes": self.nodes, "leaves": self.leaves, "tt_hits": self.tt_hits,
                "exact": self.exact, "depth": self.depth}
