"""The alpha-beta assignment's text format: one game tree per line, as a Game.

    {(A,MAX),(B,MIN),(C,MIN)} {(A,B),(A,C),(B,4),(B,3),(C,2),(C,7)}

Glossary
--------
declarations
    The first set: ``(name, MAX|MIN)`` for every internal node; the first one is
    the root.  Names are any run of characters but ``(),{}`` and spaces (``AB``).
edges
    The second set: ``(parent, child)``.  A child that is a declared name is that
    node; a child that is an integer is a new leaf with that value (two
    ``(AK,11)`` edges are two leaves).  A node's children are its edges in file
    order, whatever the order of the edges of different nodes.
tolerated
    Blank lines (skipped), CRLF endings, spaces and tabs anywhere between tokens.
node id
    ``TreeGame`` numbers the nodes 0.. (the root is 0): a state is a node id.
score
    The minimax value for MAX (the player of every ``MAX`` node).

Example: ``parse_tree(line).game`` is a ``TreeGame`` whose
``alphabeta(game, 0).leaves`` is the "Leaf Nodes Examined" of the assignment.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from .game import BaseGame

MAX, MIN = "MAX", "MIN"
_PAIR = re.compile(r"\(([^(),{}]+),([^(),{}]+)\)")
_SPACE = re.compile(r"[ \t\r\f\v]+")
_INTEGER = re.compile(r"[+-]?[0-9]+")
# The longest leaf value accepted: a bigger number is a typo, not a score.
MAX_DIGITS = 30


class TreeFormatError(ValueError):
    """A line that is not a valid game tree; the message says why."""


class TreeGame(BaseGame):
    """A parsed tree: MAX/MIN nodes, integer leaves, children left to right."""

    def __init__(self, kinds: list[str], children: list[list[int]],
                 values: dict[int, int]) -> None:
        self.kinds, self.children, self.values = kinds, children, values
        self.initial = 0  # the root

    def to_move(self, state: int) -> str:
        return self.kinds[state]

    def actions(self, state: int) -> list[int]:
        return list(range(len(self.children[state])))

    def result(self, state: int, action: int) -> int:
        return self.children[state][action]

    def is_terminal(self, state: int) -> bool:
        return state in self.values

    def utility(self, state: int, player: str) -> int:
        return self.values[state] if player == MAX else -self.values[state]

    @property
    def leaf_count(self) -> int:
        return len(self.values)


@dataclass(frozen=True)
class ParsedTree:
    game: TreeGame
    root_kind: str

    def score(self, value: float) -> int:
        """A value for the root's mover as the score for MAX."""
        return int(value if self.root_kind == MAX else -value)


def _pairs(body: str, what: str) -> list[tuple[str, str]]:
    pairs = _PAIR.findall(body)
    rebuilt = ",".join(f"({a},{b})" for a, b in pairs)
    if rebuilt != body:
        raise TreeFormatError(f"the {what} set is not a comma-separated list of (a,b) pairs")
    return pairs


def _split_sets(text: str) -> tuple[str, str]:
    compact = _SPACE.sub("", text)
    if compact.count("{") != compact.count("}") or compact.count("(") != compact.count(")"):
        raise TreeFormatError("unbalanced braces or parentheses")
    found = re.fullmatch(r"\{(.*?)\}\{(.*)\}", compact)
    if not found:
        raise TreeFormatError("expected two sets: {(node,MAX|MIN),...} {(parent,child),...}")
    return found.group(1), found.group(2)


def _declare(pairs: list[tuple[str, str]]) -> dict[str, str]:
    kinds: dict[str, str] = {}
    for name, kind in pairs:
        kind = kind.upper()
        if kind not in (MAX, MIN):
            raise TreeFormatError(f"node {name!r} is {kind!r}; expected MAX or MIN")
        if _INTEGER.fullmatch(name):
            raise TreeFormatError(f"node name {name!r} is a number (numbers are leaves)")
        if kinds.setdefault(name, kind) != kind:
            raise TreeFormatError(f"node {name!r} is declared both MAX and MIN")
    if not kinds:
        raise TreeFormatError("no nodes declared")
    return kinds


def parse_tree(text: str) -> ParsedTree:
    """One line of the format as a TreeGame (raises TreeFormatError saying why not)."""
    if "\x00" in text or any(ch < " " and ch not in "\t\r\n\f\v" for ch in text):
        raise TreeFormatError("binary data (control characters), not a tree")
    node_set, edge_set = _split_sets(text)
    kinds = _declare(_pairs(node_set, "node"))
    ids = {name: index for index, name in enumerate(kinds)}
    children: list[list[int]] = [[] for _ in kinds]
    node_kinds = list(kinds.values())
    values: dict[int, int] = {}
    for parent, child in _pairs(edge_set, "edge") if edge_set else []:
        if parent not in ids:
            raise TreeFormatError(f"edge ({parent},{child}) starts at undeclared node "
                                  f"{parent!r}")
        if child in ids:
            children[ids[parent]].append(ids[child])
        elif _INTEGER.fullmatch(child) and len(child.lstrip("+-")) <= MAX_DIGITS:
            values[len(node_kinds)] = int(child)
            children[ids[parent]].append(len(node_kinds))
            node_kinds.append(kinds[parent])
            children.append([])
        else:
            raise TreeFormatError(f"leaf {child!r} of node {parent!r} is neither an integer "
                                  "nor a declared node")
    _check_shape(list(kinds), children, values)
    return ParsedTree(TreeGame(node_kinds, children, values), node_kinds[0])


def _check_shape(names: list[str], children: list[list[int]], values: dict[int, int]) -> None:
    """Every internal node reachable from the root has children; no cycles."""
    state = [0] * len(children)  # 0 unseen, 1 on the path, 2 done
    stack: list[tuple[int, Iterator[int]]] = [(0, iter(children[0]))]
    state[0] = 1
    while stack:
        node, rest = stack[-1]
        if node not in values and not children[node]:
            raise TreeFormatError(f"internal node {names[node]!r} has no children")
        step = next(rest, None)
        if step is None:
            state[node] = 2
            stack.pop()
        elif state[step] == 1:
            raise TreeFormatError(f"a cycle through node {names[step]!r}")
        elif state[step] == 0:
            state[step] = 1
            stack.append((step, iter(children[step])))
