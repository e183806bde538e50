"""Record a game search step by step for the game-tree page (``--html``).

``record`` walks any Game the way ``search.alphabeta`` does (fail-hard negamax,
actions left to right, a cut-off as soon as ``alpha >= beta``, the same
transposition-table probes) and writes down every step, so its root value, leaf
count, node count and table hits equal the search's; the tests hold it to that.
It is a separate walk: the searches keep their speed.

Glossary
--------
view
    The player every recorded value is for: a node of ``view`` keeps the window as
    negamax sees it there, a node of the other player sees it negated and
    swapped, ``(-beta, -alpha)`` (so the page draws the textbook's alpha and beta).
trace node
    A node of the page: a visited state, or one skipped by a cut-off (added so its
    subtree can be drawn greyed; ``skipped_depth`` levels of it).
label(state, action)
    The text of the edge into a child (the tree's node name, a move).

Example: ``record(parse_tree(line).game, 0, view="MAX").leaves == 6`` on the
classic tree.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..viz.gametree_page import GameTrace
from .game import INFINITY, Game, hooks_of
from .table import EXACT, FULL_DEPTH, LOWER, TranspositionTable, flag_for

Label = Callable[[Any, Any, Any], str]
FLAG_NAMES = {EXACT: "exact", LOWER: "lower", 2: "upper"}


class _Open:
    """A node being searched (negamax: values for its mover)."""

    __slots__ = ("node", "state", "mover", "sign", "alpha", "beta", "alpha0", "actions",
                 "index", "best", "best_action", "pv", "action")

    def __init__(self, node: int, state: Any, mover: Any, sign: int, alpha: float,
                 beta: float, actions: list[Any]) -> None:
        self.node, self.state, self.mover, self.sign = node, state, mover, sign
        self.alpha = self.alpha0 = alpha
        self.beta, self.actions, self.index = beta, actions, 0
        self.best: float = -INFINITY
        self.best_action: Any = None
        self.pv: list[int] = []
        self.action: Any = None

    def window(self) -> tuple[float, float]:
        """The window in the view's terms."""
        return (self.alpha, self.beta) if self.sign > 0 else (-self.beta, -self.alpha)

    def take(self, action: Any, value: float, pv: list[int]) -> None:
        if value > self.best:
            self.best, self.best_action, self.pv = value, action, pv
        if value > self.alpha:
            self.alpha = value


class Recorder:
    """One recorded search; ``run`` returns the GameTrace."""

    def __init__(self, game: Game, view: Any, *, prune: bool = True,
                 table: TranspositionTable | None = None, label: Label | None = None,
                 skipped_depth: int = 1) -> None:
        self.game, self.view, self.prune, self.table = game, view, prune, table
        self.label = label or (lambda state, action, child: str(action))
        self.skipped_depth = skipped_depth
        self.key: Callable[[Any], Any] = hooks_of(game).key  # the state itself by default
        self.parents: list[int] = []
        self.kinds: list[str] = []
        self.labels: list[str] = []
        self.steps: list[tuple[Any, ...]] = []
        self.nodes = self.leaves = self.tt_hits = 0

    def add(self, parent: int, state: Any, text: str) -> int:
        game = self.game
        kind = "LEAF" if game.is_terminal(state) else (
            "MAX" if game.to_move(state) == self.view else "MIN")
        self.parents.append(parent)
        self.kinds.append(kind)
        self.labels.append(text)
        return len(self.parents) - 1

    def sign(self, mover: Any) -> int:
        return 1 if mover == self.view else -1

    def step(self, what: str, node: int, value: float | None, window: tuple[float, float],
             parent: _Open | None, extra: Any = None) -> None:
        above = parent.window() if parent is not None else (None, None)
        self.steps.append((what, node, value, *window, *above, extra))

    def open(self, node: int, state: Any, alpha: float, beta: float,
             entry: Any) -> _Open:
        mover = self.game.to_move(state)
        actions = list(self.game.actions(state))
        if not actions:
            raise ValueError(f"state {state!r} is not terminal but has no actions")
        if entry is not None and entry[4] is not None and actions[0] != entry[4] \
                and entry[4] in actions:
            actions.remove(entry[4])
            actions.insert(0, entry[4])
        return _Open(node, state, mover, self.sign(mover), alpha, beta, actions)

    def child(self, top: _Open) -> _Open | None:
        """Visit top's next action: a leaf or a table answer at once, else a node to push."""
        game, action = self.game, top.actions[top.index]
        top.index += 1
        state = game.result(top.state, action)
        self.nodes += 1
        node = self.add(top.node, state, self.label(top.state, action, state))
        if game.is_terminal(state):
            value = game.utility(state, top.mover)
            self.leaves += 1
            top.take(action, value, [node])
            self.step("leaf", node, top.sign * value, (top.sign * value,) * 2, top)
            return None
        mover = game.to_move(state)
        flip = 1 if mover == top.mover else -1
        alpha, beta = (top.alpha, top.beta) if flip > 0 else (-top.beta, -top.alpha)
        entry = self.table.get(self.key(state)) if self.table is not None else None
        narrowed = 0
        if entry is not None:
            self.tt_hits += 1
            value, flag = entry[1], entry[2]
            if flag == EXACT or (flag == LOWER and value >= beta) or (
                    flag != LOWER and value <= alpha):
                top.take(action, flip * value, [node])
                shown = self.sign(mover) * value
                self.step("table", node, shown, (shown, shown), top, FLAG_NAMES[flag])
                return None
            alpha, beta = (max(alpha, value), beta) if flag == LOWER else (alpha,
                                                                            min(beta, value))
            narrowed = 1
        frame = self.open(node, state, alpha, beta, entry)
        frame.action = action
        self.step("enter", node, None, frame.window(), top, narrowed)
        return frame

    def skip(self, top: _Open) -> None:
        """Add the actions a cut-off skipped (and ``skipped_depth - 1`` levels below)."""
        self.step("cut", top.node, None, top.window(), None, top.index)
        todo = [(top.node, top.state, action, 1) for action in top.actions[top.index:]]
        while todo:
            parent, state, action, level = todo.pop(0)
            child = self.game.result(state, action)
            node = self.add(parent, child, self.label(state, action, child))
            if level < self.skipped_depth and not self.game.is_terminal(child):
                todo.extend((node, child, a, level + 1) for a in self.game.actions(child))

    def finish(self, top: _Open) -> float:
        value = min(max(top.best, top.alpha0), top.beta)
        if self.table is not None:
            self.table.put(self.key(top.state), value, flag_for(value, top.alpha0, top.beta),
                           FULL_DEPTH, top.best_action)
        return value

    def run(self, state: Any, title: str) -> GameTrace:
        self.nodes = 1
        root = self.add(-1, state, title)
        if self.game.is_terminal(state):
            self.leaves = 1
            value = self.game.utility(state, self.view)
            self.step("leaf", root, value, (value, value), None)
            return self.trace(title, value, [root])
        entry = self.table.get(self.key(state)) if self.table is not None else None
        stack = [self.open(root, state, -INFINITY, INFINITY, entry)]
        self.step("enter", root, None, stack[0].window(), None, 0)
        while True:
            top = stack[-1]
            if top.index < len(top.actions):
                if not (self.prune and top.alpha >= top.beta):
                    pushed = self.child(top)
                    if pushed is not None:
                        stack.append(pushed)
                    continue
                self.skip(top)
            value = self.finish(stack.pop())
            parent = stack[-1] if stack else None
            if parent is not None:
                flip = 1 if top.mover == parent.mover else -1
                parent.take(top.action, flip * value,
                            [top.node, *top.pv])
            self.step("leave", top.node, top.sign * value, top.window(), parent)
            if parent is None:
                return self.trace(title, top.sign * value, [root, *top.pv])

    def trace(self, title: str, value: float, pv: list[int]) -> GameTrace:
        return GameTrace(title, self.parents, self.kinds, self.labels, self.steps, value,
                         self.leaves, pv, self.prune, str(self.view), self.nodes,
                         self.tt_hits)


def record(game: Game, state: Any, *, view: Any = None, prune: bool = True,
           table: TranspositionTable | None = None, label: Label | None = None,
           skipped_depth: int = 1, title: str = "root") -> GameTrace:
    """The step-by-step trace of alpha-beta (``prune=False``: negamax, every node) from
    ``state``, values for ``view`` (default: the player to move at ``state``)."""
    view = game.to_move(state) if view is None else view
    recorder = Recorder(game, view, prune=prune, table=table, label=label,
                        skipped_depth=skipped_depth)
    return recorder.run(state, title)


_PAIR = re.compile(r"\(([^(),{}]+),([^(),{}]+)\)")


def tree_names(text: str) -> list[str]:
    """The declared node names of a tree line, in the order the parser numbers them."""
    declared = re.sub(r"\s+", "", text).split("}", 1)[0]
    names: dict[str, None] = {}
    for name, _ in _PAIR.findall(declared):
        names.setdefault(name, None)
    return list(names)
