"""The pieces of a Young Brothers Wait run (``ybw``): a task's window, rebuilt from the
chain of shared bound slots above it, the generic task runner, the parent's records
of tasks and split nodes, and the result.

Glossary
--------
chain
    ``[(slot, sign), ...]`` from the root to a task: each split node's bound slot
    (-1: none) and whether its player differs from its parent's (sign -1: the
    window is negated).
root window
    ``(alpha, beta)`` of the whole run (a null window for a probe).
kind
    What a split node is expected to be, as in Knuth and Moore's minimal tree: the
    root and the eldest child of a ``PV`` node are ``PV``; the other children of a
    ``PV`` node and the children of an ``ALL`` node are ``CUT`` (one child should
    cut); the children of a ``CUT`` node are ``ALL`` (every child is searched).

Example: ``chain_window([(0, 1), (1, -1)], (-5, 5), bounds)`` with slot 0 at 2 and
slot 1 at -4 gives ``(-4, -2)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.window import UNBOUNDED, SharedBounds
from .game import Game
from .search import alphabeta

Chain = list[tuple[int, int]]
PV, CUT, ALL = "pv", "cut", "all"


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


def task_bounds(chain: Chain, bounds: SharedBounds) -> tuple[Chain, SharedBounds]:
    """The chain and bounds a task is sent with: the run's own where tasks read them
    live, else a snapshot of the chain's slots alone, renumbered from 0
    (``SharedBounds.snapshot``)."""
    slots = [slot for slot, _ in chain if slot >= 0]
    snapshot = bounds.snapshot(slots)
    if snapshot is None:
        return chain, bounds
    renumbered, kept = [], 0
    for slot, sign in chain:
        if slot >= 0:
            slot, kept = kept, kept + 1
        renumbered.append((slot, sign))
    return renumbered, snapshot


def search_task(game: Game, state: Any, chain: Chain, root_window: tuple[int, int],
                bounds: SharedBounds) -> tuple[int, int, list[Any]]:
    """A worker's alpha-beta below ``state``, its window kept narrow by the bounds."""
    alpha, beta = chain_window(chain, root_window, bounds)
    if alpha >= beta:  # an ancestor was cut while this task waited
        return beta, 0, []
    found = alphabeta(game, state, alpha=alpha, beta=beta,
                      window=lambda: chain_window(chain, root_window, bounds))
    return int(found.value), found.nodes, found.pv


def child_kind(parent: SplitNode, action: Any) -> str:
    """The kind of ``parent``'s child by ``action`` (see the glossary)."""
    if parent.kind == PV:
        return PV if action == parent.actions[0] else CUT
    return ALL if parent.kind == CUT else CUT


class Task:
    """A task sent to a worker (a twin: the same subtree, ``variant`` > 0)."""

    def __init__(self, node: SplitNode, action: Any, sign: int, state: Any,
                 path: tuple[int, ...], variant: int = 0) -> None:
        self.node, self.action, self.sign, self.state, self.path = (
            node, action, sign, state, path)
        self.variant = variant
        self.chain: Chain = []
        self.window = (-UNBOUNDED, UNBOUNDED)  # as sent (or last renewed)
        self.future: Any = None
        self.twin: Task | None = None


class SplitNode:
    """A split node in the parent."""

    def __init__(self, state: Any, mover: Any, actions: list[Any], chain: Chain,
                 parent: SplitNode | None, action: Any, sign: int, path: tuple[int, ...]) -> None:
        self.state, self.mover, self.actions, self.chain = state, mover, actions, chain
        self.path = path  # the action indices from the root: the sequential order
        self.parent, self.action, self.sign = parent, action, sign
        self.slot = chain[-1][0]
        self.launched = self.pending = self.answered = 0
        self.kind = PV if parent is None else child_kind(parent, action)
        self.best, self.best_action = -UNBOUNDED, None
        self.pv: list[Any] = []
        self.eldest_done = self.dead = False
        self.eldest_line = parent is None  # every ancestor an eldest child
        self.futures: set[Any] = set()
        self.children: list[SplitNode] = []


@dataclass
class ParallelResult:
    """What ``parallel_alphabeta`` found: the value (for the player to move at the
    root; fail-hard, so ``exact`` False when it is a bound: at most the window's
    alpha, or at least its beta), a best action, the principal variation, the nodes
    (split nodes and tasks'), the tasks and split nodes, the seconds, the workers."""

    value: int
    best_action: Any
    pv: list[Any]
    nodes: int
    tasks: int
    split_nodes: int
    seconds: float
    workers: int
    twins: int = 0  # helper twins sent (their nodes count only when they answered)
    task_cost: float = 0.0  # the parent's own seconds a task sent in ``run`` (waits left out)
    exact: bool = True  # False: the window's alpha or beta bounds the value (see above)

    def as_dict(self) -> dict[str, Any]:
        return dict(vars(self))
