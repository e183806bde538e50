"""Game-tree search as plain functions: minimax, negamax, alpha-beta, with a table.

Every search keeps its own stack (no recursion), so a game thousands of plies
deep (Nim with 10^5 sticks) never meets Python's recursion limit.

Glossary
--------
window (alpha, beta)
    The values the caller still cares about, for the player to move at a node.
    A child whose mover differs sees the window negated, (-beta, -alpha).
cut-off
    ``alpha >= beta``: the node's remaining actions are skipped (never with
    ``prune=False``, which is plain negamax).
fail-hard / fail-soft
    Fail-hard returns the value clamped into ``[alpha, beta]``; fail-soft the
    best value found even outside it (a tighter bound, same leaves read).
horizon
    ``depth`` plies below the root: states there are scored by ``evaluate``
    (default 0) like leaves.
nodes / leaves
    Every state visited, the root included / the terminal and horizon states
    whose value was read (the alpha-beta assignment's "leaf nodes examined").

Example: ``alphabeta(game, root).leaves == 6`` on the classic 8-leaf tree.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from numbers import Real
from typing import Any

from ..engine.checks import check_int
from .game import INFINITY, Game, SearchResult, check_game, hooks_of
from .table import EXACT, FULL_DEPTH, LOWER, UPPER, Entry, TranspositionTable, flag_for

Evaluate = Callable[[Any, Any], float]
# Asking a flag or a shared window costs about a microsecond; a node costs several.
POLL_EVERY = 256


class NoActionsError(ValueError):
    """A state that is not terminal offers no action."""


Line = tuple[Any, Any] | None  # a principal variation as a linked list (action, rest)


def unlink(line: Line) -> list[Any]:
    """The actions of a linked line, first to last."""
    actions = []
    while line is not None:
        actions.append(line[0])
        line = line[1]
    return actions


class _Frame:
    __slots__ = ("state", "mover", "alpha", "beta", "alpha0", "actions", "index", "best",
                 "best_action", "pv", "depth", "sign", "action", "key")

    def __init__(self, state: Any, mover: Any, alpha: float, beta: float, depth: int,
                 actions: list[Any]) -> None:
        self.state, self.mover, self.depth, self.actions = state, mover, depth, actions
        self.alpha = self.alpha0 = alpha
        self.beta = beta
        self.index = 0
        self.best: float = -INFINITY
        self.best_action: Any = None
        self.pv: Line = None
        self.sign = 1
        self.action: Any = None
        self.key: Any = None


class Search:
    """One negamax search (the options fixed); ``run`` walks the tree with a stack."""

    def __init__(self, game: Game, *, prune: bool = True, fail_soft: bool = False,
                 table: TranspositionTable | None = None, depth: int | None = None,
                 evaluate: Evaluate | None = None, ordered: bool = False,
                 until: Callable[[], bool] | None = None,
                 window: Callable[[], tuple[float, float]] | None = None) -> None:
        self.game, self.prune, self.fail_soft, self.table = game, prune, fail_soft, table
        self.window = window
        self.depth = FULL_DEPTH if depth is None else depth
        self.evaluate = evaluate or (lambda state, player: 0)
        self.ordered, self.until = ordered, until
        self.nodes = self.leaves = self.tt_hits = 0
        self.horizon_hit = False
        hooks = hooks_of(game)
        self.key: Callable[[Any], Any] = hooks.key
        # the actions in search order: ``ordered_actions`` when asked for
        self.actions: Callable[[Any], Any] = hooks.ordered_actions if ordered else game.actions

    def frame(self, state: Any, mover: Any, alpha: float, beta: float, depth: int,
              entry: Entry | None) -> _Frame:
        actions = list(self.actions(state))
        if not actions:
            raise NoActionsError(f"state {state!r} is not terminal but has no actions")
        if entry is not None and entry[4] is not None and actions[0] != entry[4] \
                and entry[4] in actions:
            actions.remove(entry[4])
            actions.insert(0, entry[4])
        return _Frame(state, mover, alpha, beta, depth, actions)

    def probe(self, entry: Entry | None, alpha: float, beta: float,
              depth: int) -> tuple[float | None, float, float]:
        """A table answer for a state about to be searched, else the narrowed window."""
        if entry is None or entry[3] < depth:
            return None, alpha, beta
        self.tt_hits += 1
        value, flag = entry[1], entry[2]
        if flag == EXACT or (flag == LOWER and value >= beta) or (
                flag == UPPER and value <= alpha):
            return value, alpha, beta
        if flag == LOWER:
            return None, max(alpha, value), beta
        return None, alpha, min(beta, value)

    def finish(self, frame: _Frame) -> float:
        value = frame.best
        if not self.fail_soft:
            value = min(max(value, frame.alpha0), frame.beta)
        if self.table is not None:
            flag = flag_for(value, frame.alpha0, frame.beta)
            key = frame.key if frame.key is not None else self.key(frame.state)
            self.table.put(key, value, flag, frame.depth, frame.best_action)
        return value

    def child(self, parent: _Frame, action: Any) -> _Frame | None:
        """Visit one child: scored at once (leaf, horizon, table) or a frame to push."""
        game = self.game
        state = game.result(parent.state, action)
        self.nodes += 1
        if game.is_terminal(state):
            value = game.utility(state, parent.mover)
        elif parent.depth <= 1:
            self.horizon_hit = True
            value = self.evaluate(state, parent.mover)
        else:
            return self.inner(parent, action, state)
        self.leaves += 1
        if value > parent.best:
            parent.best, parent.best_action, parent.pv = value, action, (action, None)
        if value > parent.alpha:
            parent.alpha = value
        return None

    def inner(self, parent: _Frame, action: Any, state: Any) -> _Frame | None:
        mover = self.game.to_move(state)
        sign = 1 if mover == parent.mover else -1
        alpha, beta = ((parent.alpha, parent.beta) if sign > 0
                       else (-parent.beta, -parent.alpha))
        depth = parent.depth - 1 if parent.depth < FULL_DEPTH else FULL_DEPTH
        entry = key = None
        if self.table is not None:
            key = self.key(state)
            entry = self.table.get(key)
            if entry is not None:
                known, alpha, beta = self.probe(entry, alpha, beta, depth)
                if known is not None:
                    absorb(parent, action, sign * known, (action, None))
                    return None
        frame = self.frame(state, mover, alpha, beta, depth, entry)
        frame.sign, frame.action, frame.key = sign, action, key
        return frame

    def run(self, state: Any, alpha: float = -INFINITY, beta: float = INFINITY) -> SearchResult:
        """Search below ``state`` (scored for its player to move) within the window."""
        self.nodes += 1
        mover = self.game.to_move(state)
        if self.game.is_terminal(state) or self.depth <= 0:
            if self.game.is_terminal(state):
                value = self.game.utility(state, mover)
            else:
                self.horizon_hit, value = True, self.evaluate(state, mover)
            self.leaves += 1
            return self.result(value, None, None, alpha, beta)
        entry = self.table.get(self.key(state)) if self.table is not None else None
        stack = [self.frame(state, mover, alpha, beta, self.depth, entry)]
        prune, polled = self.prune, self.until is not None or self.window is not None
        next_poll = self.nodes + POLL_EVERY
        while True:
            if polled and self.nodes >= next_poll:
                next_poll = self.nodes + POLL_EVERY
                self.poll(stack)
            top = stack[-1]
            if top.index < len(top.actions) and not (prune and top.alpha >= top.beta):
                top.index += 1
                pushed = self.child(top, top.actions[top.index - 1])
                if pushed is not None:
                    stack.append(pushed)
                continue
            value = self.finish(stack.pop())
            if not stack:
                return self.result(value, top.best_action, top.pv, top.alpha0, top.beta)
            absorb(stack[-1], top.action, top.sign * value, (top.action, top.pv))

    def poll(self, stack: list[_Frame]) -> None:
        """Ask ``until`` (stop?) and ``window`` (a narrower window for the root, passed
        down the stack as each frame's children see it)."""
        if self.until is not None and self.until():
            raise StopSearch(self.nodes)
        if self.window is None:
            return
        alpha, beta = self.window()
        for depth, frame in enumerate(stack):
            if depth:
                alpha, beta = (alpha, beta) if frame.sign > 0 else (-beta, -alpha)
            frame.alpha0 = max(frame.alpha0, alpha)
            frame.alpha = max(frame.alpha, alpha)
            frame.beta = min(frame.beta, beta)
            alpha, beta = frame.alpha, frame.beta

    def result(self, value: float, action: Any, pv: Line, alpha: float,
               beta: float) -> SearchResult:
        exact = alpha < value < beta or (alpha == -INFINITY and beta == INFINITY)
        depth = None if self.depth >= FULL_DEPTH else self.depth
        return SearchResult(value, action, unlink(pv), self.nodes, self.leaves, self.tt_hits,
                            exact, depth)


def absorb(frame: _Frame, action: Any, value: float, pv: Line) -> None:
    """A child's value (for the frame's mover): a new best, a higher alpha."""
    if value > frame.best:
        frame.best, frame.best_action, frame.pv = value, action, pv
    if value > frame.alpha:
        frame.alpha = value


def check_depth(name: str, depth: object) -> None:
    """None, or an integer >= 0 (not a bool): else WrongTypeError (a TypeError) or
    ValueError."""
    if depth is not None:
        check_int(name, depth, low=0)


def check_window(alpha: object, beta: object) -> None:
    """TypeError unless both are numbers (not bools), ValueError unless ``alpha < beta``:
    a window with no value strictly inside it (``alpha >= beta``) answers nothing."""
    for name, value in (("alpha", alpha), ("beta", beta)):
        if isinstance(value, bool) or not isinstance(value, Real):
            raise TypeError(f"{name} must be a number, got {value!r}")
        if math.isnan(value):
            raise ValueError(f"{name} must be a number, got {value!r}")
    if not alpha < beta:  # type: ignore[operator]
        raise ValueError(f"expected alpha < beta (a window that is not empty), got "
                         f"alpha={alpha!r}, beta={beta!r}")


class StopSearch(Exception):  # noqa: N818 - a signal, not an error
    """``until()`` asked the search to stop (a deadline or a shared stop flag)."""


def negamax(game: Game, state: Any, *, table: TranspositionTable | None = None,
            depth: int | None = None, evaluate: Evaluate | None = None,
            ordered: bool = False) -> SearchResult:
    """Plain negamax (every node visited unless ``table`` answers it); the arguments
    are ``alphabeta``'s."""
    check_game(game)
    check_depth("depth", depth)
    search = Search(game, prune=False, table=table, depth=depth, evaluate=evaluate,
                     ordered=ordered)
    return search.run(state)


def alphabeta(game: Game, state: Any, *, alpha: float = -INFINITY, beta: float = INFINITY,
              fail_soft: bool = False, table: TranspositionTable | None = None,
              depth: int | None = None, evaluate: Evaluate | None = None,
              ordered: bool = False, until: Callable[[], bool] | None = None,
              window: Callable[[], tuple[float, float]] | None = None) -> SearchResult:
    """Alpha-beta in negamax form, children left to right, cut at ``alpha >= beta``.

    Fail-hard by default (``fail_soft=True`` for the unclamped value); with ``table``
    it is negamax with a transposition table (exact / lower / upper entries).
    Every ``POLL_EVERY`` nodes ``until()`` may stop the search (StopSearch) and
    ``window()`` may narrow the root's window (a bound shared with other tasks).

    Parameters: ``state`` the root; ``alpha < beta`` the window (numbers, default
    unbounded: TypeError / ValueError otherwise); ``depth`` None (to the end of the
    game) or the plies searched, an integer >= 0 (0: ``state`` itself is scored by
    ``evaluate``); ``evaluate(state, player)`` scores horizon states (default 0);
    ``ordered`` searches the game's ``ordered_actions``.
    Returns a ``SearchResult`` for the player to move at ``state`` (``exact`` False:
    the value is a bound, at most ``alpha`` or at least ``beta``).
    """
    check_game(game)
    check_window(alpha, beta)
    check_depth("depth", depth)
    search = Search(game, fail_soft=fail_soft, table=table, depth=depth, evaluate=evaluate,
                    ordered=ordered, until=until, window=window)
    return search.run(state, alpha, beta)


def minimax(game: Game, state: Any) -> SearchResult:
    """aima's minimax: every node, scored for the player to move at ``state``.

    The independent reference the tests hold every other search to.  Its own stack
    of ``[state, actions, index, values]`` entries, nothing shared with negamax.
    """
    check_game(game)
    player = game.to_move(state)
    if game.is_terminal(state):
        return SearchResult(game.utility(state, player), None, [], 1, 1)
    nodes, leaves = 1, 0
    stack: list[list[Any]] = [[state, list(game.actions(state)), 0, []]]
    while True:
        top = stack[-1]
        if top[2] < len(top[1]):
            child = game.result(top[0], top[1][top[2]])
            top[2] += 1
            nodes += 1
            if game.is_terminal(child):
                leaves += 1
                top[3].append((game.utility(child, player), []))
            else:
                stack.append([child, list(game.actions(child)), 0, []])
            continue
        stack.pop()
        if not top[3]:
            raise NoActionsError(f"state {top[0]!r} is not terminal but has no actions")
        pick = max if game.to_move(top[0]) == player else min
        index = pick(range(len(top[3])), key=lambda i: top[3][i][0])
        value, line = top[3][index][0], [top[1][index], *top[3][index][1]]
        if not stack:
            return SearchResult(value, line[0], line, nodes, leaves)
        stack[-1][3].append((value, line))
