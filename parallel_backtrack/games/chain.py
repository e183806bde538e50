"""A task's window, rebuilt from the chain of shared bound slots above it, and the
generic task runner of Young Brothers Wait (``ybw``).

Glossary
--------
chain
    ``[(slot, sign), ...]`` from the root to a task: each split node's bound slot
    (-1: none) and whether its player differs from its parent's (sign -1: the
    window is negated).
root window
    ``(alpha, beta)`` of the whole run (a null window for a probe).

Example: ``chain_window([(0, 1), (1, -1)], (-5, 5), bounds)`` with slot 0 at 2 and
slot 1 at -4 gives ``(-4, -2)``.
"""

from __future__ import annotations

from typing import Any

from ..engine.window import SharedBounds
from .game import Game
from .search import alphabeta

Chain = list[tuple[int, int]]


def chain_window(chain: Chain, root_window: tuple[int, int],
                 bounds: SharedBounds) -> tuple[int, int]:
    """The window of the node at the end of ``chain``, from the latest bounds."""
    alpha, beta = root_window
    for slot, sign in chain:
        if sign < 0:
            alpha, beta = -beta, -alpha
        if slot >= 0:
            alpha = max(alpha, bounds.read(slot))
    return alpha, beta


def search_task(game: Game, state: Any, chain: Chain, root_window: tuple[int, int],
                bounds: SharedBounds) -> tuple[int, int, list[Any]]:
    """A worker's alpha-beta below ``state``, its window kept narrow by the bounds."""
    alpha, beta = chain_window(chain, root_window, bounds)
    if alpha >= beta:  # an ancestor was cut while this task waited
        return beta, 0, []
    found = alphabeta(game, state, alpha=alpha, beta=beta,
                      window=lambda: chain_window(chain, root_window, bounds))
    return int(found.value), found.nodes, found.pv
