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
initial
    The state a game starts from (``parallel_alphabeta`` searches from it when
    given no state).

Optional methods (declared with their defaults by ``BaseGame``; a game may
subclass it or define only some of them, ``hooks_of`` gives either the same face)
-------------------------------------------------------------------------------
key(state)
    A hashable identity for the transposition table (default: the state itself).
ordered_actions(state)
    ``actions`` in a better search order (best first); searches use it when
    ``ordered=True`` (default: ``actions``).
value_bounds(state)
    ``(low, high)`` bounds on the value of a state that is not terminal, for its
    player to move; the parallel search answers a child whose bounds close its
    window without searching it (default: None, nothing known).
record(state, value, alpha, beta)
    The parallel search hands each split node's proved value here (a lower bound
    when ``value >= beta``, else an upper bound), e.g. for a table the tasks
    share (default: nothing).

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

    initial: Any

    def to_move(self, state: Any) -> Hashable: ...

    def actions(self, state: Any) -> Sequence[Any]: ...

    def result(self, state: Any, action: Any) -> Any: ...

    def is_terminal(self, state: Any) -> bool: ...

    def utility(self, state: Any, player: Any) -> float: ...


class BaseGame:
    """The Game protocol's optional methods with their defaults (see the module doc);
    a game subclasses it and overrides what it offers."""

    def actions(self, state: Any) -> Sequence[Any]:
        raise NotImplementedError

    def key(self, state: Any) -> Hashable:
        return state  # type: ignore[no-any-return]

    def ordered_actions(self, state: Any) -> Sequence[Any]:
        return self.actions(state)

    def value_bounds(self, state: Any) -> tuple[Any, Any] | None:
        return None

    def record(self, state: Any, value: Any, alpha: Any, beta: Any) -> None:
        return None


HOOKS = ("key", "ordered_actions", "value_bounds", "record")


class _View(BaseGame):
    """A game that does not subclass ``BaseGame``, seen as one: its own optional
    methods where it has them, the defaults elsewhere."""

    def __init__(self, game: Any) -> None:
        self.game = game
        for name in HOOKS:
            own = getattr(game, name, None)
            if callable(own):
                self.__dict__[name] = own  # shadows the declared default

    def actions(self, state: Any) -> Sequence[Any]:
        return self.game.actions(state)  # type: ignore[no-any-return]


METHODS = ("to_move", "actions", "result", "is_terminal", "utility")


def check_game(game: Any, initial: bool = False) -> None:
    """TypeError unless ``game`` has the Game protocol's five methods (and, with
    ``initial``, its ``initial`` state): a search's first check, before any work."""
    missing = [name for name in METHODS if not callable(getattr(game, name, None))]
    if initial and not hasattr(game, "initial"):
        missing.append("initial")
    if missing:
        raise TypeError(f"a Game is expected (an object with {', '.join(METHODS)} and "
                        f"initial), got {type(game).__name__} without {', '.join(missing)}")


def hooks_of(game: Any) -> BaseGame:
    """``game``'s optional methods: the game itself, or a view with the defaults."""
    return game if isinstance(game, BaseGame) else _View(game)


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
