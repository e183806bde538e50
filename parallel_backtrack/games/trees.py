"""The alpha-beta assignment's text format: one game tree per line, as a Game.

    {(A,MAX),(B,MIN),(C,MIN)} {(A,B),(A,C),(B,4),(B,3),(C,2),(C,7)}

Glossary
--------
declarations
    The first set: ``(name, MAX|MIN)`` for every internal node; the first one is
    the root.  Names are any run of characters but ``(),{}`` and spaces (``AB``),
    at most ``MAX_NAME`` bytes.
edges
    The second set: ``(parent, child)``.  A child that is a declared name is that
    node; a child that is an integer (at most ``MAX_DIGITS`` digits) is a new
    leaf with that value (two ``(AK,11)`` edges are two leaves).  A node's
    children are its edges in file order, whatever the order of the edges of
    different nodes.
tolerated
    Blank lines and comment lines (starting with ``#``) skipped, a UTF-8 byte order
    mark at the start of the file, CRLF endings, spaces and tabs anywhere between
    tokens.
streaming
    ``TreeReader`` takes a line in chunks (``feed``) and keeps only the pairs
    read so far: a line of any length is read in memory proportional to the
    tree, and garbage fails at its first bad character, whatever follows.
node id
    ``TreeGame`` numbers the declared nodes 0.. (the root is 0), then the leaves
    in edge order: a state is a node id.
score
    The minimax value for MAX (the player of every ``MAX`` node).

Example: ``parse_tree(line).game`` is a ``TreeGame`` whose
``alphabeta(game, 0).leaves`` is the "Leaf Nodes Examined" of the assignment.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from itertools import repeat

import numpy as np

from .game import BaseGame

MAX, MIN = "MAX", "MIN"
# The longest leaf value accepted: a bigger number is a typo, not a score.
MAX_DIGITS = 30
# The longest node name: a token, not a line, is bounded (a hand-written name is short).
MAX_NAME = 1000
_WHITE = b" \t\r\f\v"
_CONTROL = bytes(range(0x09)) + bytes(range(0x0E, 0x20))
_NAME = rb"[^(),{}]{1,%d}" % MAX_NAME
_DELIMITER = np.zeros(256, bool)
_DELIMITER[list(b"(),{}")] = True
_UNIT = np.frombuffer(b"(,),", np.uint8)  # the delimiters of one pair and its comma
_LAST = re.compile(rb"\((" + _NAME + rb"),(" + _NAME + rb")\)\}")  # a set's last pair
_PREFIX = re.compile(rb"\((?:" + _NAME + rb"(?:,(?:" + _NAME + rb"(?:\))?)?)?)?")
_LONG = re.compile(rb"\((?:" + _NAME + rb",)?[^(),{}]{%d}" % (MAX_NAME + 1))
_LEAF = re.compile(rb"[+-]?[0-9]{1,%d}" % MAX_DIGITS)
_INTEGER = re.compile(rb"[+-]?[0-9]+")
_NUMBER_NAME = re.compile(rb"(?:^|,)[+-]?[0-9]+(?:,|$)")


class TreeFormatError(ValueError):
    """A line that is not a valid game tree; the message says why."""


class TreeGame(BaseGame):
    """A parsed tree: MAX/MIN nodes, integer leaves, children left to right.

    ``first[n]:first[n + 1]`` are node ``n``'s children in ``targets``; nodes
    ``internal`` and up are leaves, ``leaf_values[n - internal]`` their values and
    ``leaf_parents[n - internal]`` their parents."""

    def __init__(self, kinds: list[str], first: list[int], targets: list[int],
                 leaf_values: list[int], leaf_parents: list[int]) -> None:
        self.kinds, self.first, self.targets = kinds, first, targets
        self.leaf_values, self.leaf_parents = leaf_values, leaf_parents
        self.internal = len(first) - 1
        self.initial = 0  # the root

    def __repr__(self) -> str:
        return f"TreeGame(nodes={self.internal + len(self.leaf_values)}, " \
            f"leaves={len(self.leaf_values)})"

    def to_move(self, state: int) -> str:
        """The declared node's kind; a leaf has its parent's."""
        if state >= self.internal:
            state = self.leaf_parents[state - self.internal]
        return self.kinds[state]

    def actions(self, state: int) -> list[int]:
        return list(range(self.first[state + 1] - self.first[state]))

    def result(self, state: int, action: int) -> int:
        return self.targets[self.first[state] + action]

    def is_terminal(self, state: int) -> bool:
        return state >= self.internal

    def utility(self, state: int, player: str) -> int:
        value = self.leaf_values[state - self.internal]
        return value if player == MAX else -value

    @property
    def leaf_count(self) -> int:
        return len(self.leaf_values)

    def children(self, state: int) -> list[int]:
        """The node ids below ``state``, left to right (none for a leaf)."""
        if state >= self.internal:
            return []
        return self.targets[self.first[state]:self.first[state + 1]]


@dataclass(frozen=True)
class ParsedTree:
    game: TreeGame
    root_kind: str

    def score(self, value: float) -> int:
        """A value for the root's mover as the score for MAX."""
        return int(value if self.root_kind == MAX else -value)


class TreeReader:
    """One line of the format, fed in chunks (see ``streaming`` in the module doc)."""

    def __init__(self) -> None:
        self.buffer, self.pos, self.done_bytes = b"", 0, 0
        self.phase = 0  # 0 before the node set, 1 in it, 2 between, 3 edges, 4 after
        self.sets: list[list[bytes]] = [[], []]  # a, b, a, b, ... of each set
        self.decoder = codecs.getincrementaldecoder("utf-8")()

    def feed(self, chunk: bytes, final: bool = False) -> None:
        try:
            self.decoder.decode(chunk, final)
        except UnicodeDecodeError:
            raise TreeFormatError("binary data (not UTF-8 text), not a tree") from None
        if len(chunk.translate(None, _CONTROL)) != len(chunk):
            raise TreeFormatError("binary data (control characters), not a tree")
        self.buffer = self.buffer[self.pos:] + chunk.translate(None, _WHITE)
        self.done_bytes += self.pos
        self.pos = 0
        self._scan(final)

    def _scan(self, final: bool) -> None:
        buffer = self.buffer
        while self.pos < len(buffer):
            if self.phase in (0, 2):
                self._open(buffer)
            elif self.phase == 4:
                raise self._unexpected(buffer, "after the edge set")
            elif not self._pairs(buffer, final):
                return
        if final and self.phase != 4:
            if self.phase == 0:
                raise TreeFormatError("expected two sets: {(node,MAX|MIN),...} "
                                      "{(parent,child),...}")
            raise TreeFormatError("unbalanced braces or parentheses: the line ends inside "
                                  + ("the node set" if self.phase < 2 else "the edge set"))

    def _open(self, buffer: bytes) -> None:
        if buffer[self.pos:self.pos + 1] != b"{":
            raise TreeFormatError("expected two sets: {(node,MAX|MIN),...} "
                                  "{(parent,child),...}" + self._where(buffer))
        self.pos += 1
        self.phase += 1
        if buffer[self.pos:self.pos + 1] == b"}":  # an empty set
            self.pos += 1
            self.phase += 1

    def _pairs(self, buffer: bytes, final: bool) -> bool:
        """Read the pairs of the open set; False when the buffer ends mid-pair."""
        found = self.sets[0 if self.phase == 1 else 1]
        end = _run_end(buffer, self.pos)
        if end > self.pos:  # "(a,b),(c,d)," -> a, b, c, d
            found += buffer[self.pos + 1:end - 2].replace(b"),(", b",").split(b",")
            self.pos = end
        if self.pos == len(buffer) and not final:
            return False  # the chunk ended after a pair's comma
        last = _LAST.match(buffer, self.pos)
        if last is not None:
            found += last.groups()
            self.pos = last.end()
            self.phase += 1
            return True
        rest = _PREFIX.match(buffer, self.pos)
        if rest is not None and rest.end() == len(buffer):
            if not final:
                return False  # a pair cut by the chunk's end: wait for the next chunk
            raise TreeFormatError("unbalanced braces or parentheses: the line ends inside "
                                  + ("the node set" if self.phase == 1 else "the edge set"))
        raise self._unexpected(buffer, "in the " + ("node" if self.phase == 1 else "edge")
                               + " set (expected (a,b) pairs separated by commas)")

    def _where(self, buffer: bytes) -> str:
        shown = buffer[self.pos:self.pos + 12].decode("utf-8", "replace")
        return f"; found {shown!r} at character {self.done_bytes + self.pos + 1:,}" \
            if shown else ""

    def _unexpected(self, buffer: bytes, where: str) -> TreeFormatError:
        if _LONG.match(buffer, self.pos):
            return TreeFormatError(f"a name or value longer than {MAX_NAME:,} characters "
                                   f"{where.split(' (')[0]}" + self._where(buffer))
        if b"{" in buffer[self.pos:] or b"}" in buffer[self.pos:] or self.phase == 4:
            return TreeFormatError(f"unbalanced braces or parentheses {where}"
                                   + self._where(buffer))
        return TreeFormatError(f"not a tree {where}" + self._where(buffer))

    def tree(self) -> ParsedTree:
        """The tree read (after the final ``feed``)."""
        return build_tree(*self.sets)


def _run_end(buffer: bytes, pos: int) -> int:
    """The end of the complete ``(a,b),`` pairs from ``pos`` on (names of 1 to
    ``MAX_NAME`` bytes), found on the delimiters' positions with numpy."""
    data = np.frombuffer(buffer, np.uint8)[pos:]
    at = np.flatnonzero(_DELIMITER[data])
    units = len(at) // 4
    if units == 0:
        return pos
    grid = at[:4 * units].reshape(units, 4)
    starts = np.empty(units, np.int64)
    starts[0], starts[1:] = 0, grid[:-1, 3] + 1
    gaps = np.diff(grid, axis=1)
    good = ((data[grid] == _UNIT).all(axis=1) & (grid[:, 0] == starts)
            & (gaps[:, 0] >= 2) & (gaps[:, 0] <= MAX_NAME + 1)
            & (gaps[:, 1] >= 2) & (gaps[:, 1] <= MAX_NAME + 1) & (gaps[:, 2] == 1))
    count = units if good.all() else int(np.argmin(good))
    return pos if count == 0 else pos + int(grid[count - 1, 3]) + 1


def _declare(flat: list[bytes]) -> tuple[dict[bytes, int], list[str]]:
    names, kinds = flat[0::2], [kind.upper() for kind in flat[1::2]]
    if not names:
        raise TreeFormatError("no nodes declared")
    ids = dict(zip(names, range(len(names))))
    unknown = set(kinds) - {b"MAX", b"MIN"}
    if unknown or _NUMBER_NAME.search(b",".join(names)) or len(ids) < len(names):
        return _declare_slowly(names, kinds)  # the error, or repeated declarations
    return ids, [MAX if kind == b"MAX" else MIN for kind in kinds]


def _declare_slowly(names: list[bytes],
                    kinds: list[bytes]) -> tuple[dict[bytes, int], list[str]]:
    """Name by name: the first bad declaration's error, else the first declarations."""
    ids: dict[bytes, int] = {}
    texts: list[str] = []
    for name, kind in zip(names, kinds):
        if kind not in (b"MAX", b"MIN"):
            raise TreeFormatError(f"node {_show(name)!r} is {_show(kind)!r}; expected MAX "
                                  "or MIN")
        if _INTEGER.fullmatch(name):
            raise TreeFormatError(f"node name {_show(name)!r} is a number (numbers are "
                                  "leaves)")
        known = ids.setdefault(name, len(texts))
        if known == len(texts):
            texts.append(_show(kind))
        elif texts[known] != _show(kind):
            raise TreeFormatError(f"node {_show(name)!r} is declared both MAX and MIN")
    return ids, texts


def _show(name: bytes) -> str:
    return name.decode("utf-8", "replace")


def build_tree(nodes: list[bytes], edges: list[bytes]) -> ParsedTree:
    """The TreeGame of the pairs read, each set flat (``a, b, a, b, ...``)
    (TreeFormatError says what is wrong)."""
    ids, kinds = _declare(nodes)
    internal = len(kinds)
    heads, tails = edges[0::2], edges[1::2]
    parents = np.array(list(map(ids.get, heads, repeat(-1))), np.int64)
    if (parents < 0).any():
        bad = int(np.argmax(parents < 0))
        raise TreeFormatError(f"edge ({_show(heads[bad])},{_show(tails[bad])}) starts at "
                              f"undeclared node {_show(heads[bad])!r}")
    children = np.array(list(map(ids.get, tails, repeat(-1))), np.int64)
    leaves = np.flatnonzero(children < 0)
    leaf_text = [tails[i] for i in leaves.tolist()]
    values = _leaf_values(leaf_text)
    if values is None:
        bad = next(i for i, text in zip(leaves.tolist(), leaf_text)
                   if not _LEAF.fullmatch(text))
        raise TreeFormatError(f"leaf {_show(tails[bad])!r} of node {_show(heads[bad])!r}"
                              " is neither an integer nor a declared node")
    children[leaves] = internal + np.arange(len(leaves))
    order = np.argsort(parents, kind="stable")
    first = np.searchsorted(parents[order], np.arange(internal + 1))
    targets = children[order]
    game = TreeGame(kinds, first.tolist(), targets.tolist(), values,
                    parents[leaves].tolist())
    inner = targets < internal  # the edges between declared nodes, in child order
    _check_shape(list(ids), first, parents[order][inner], targets[inner])
    return ParsedTree(game, kinds[0])


def _leaf_values(texts: list[bytes]) -> list[int] | None:
    """The integers of ``texts``, or None when one is not an integer of at most
    ``MAX_DIGITS`` digits (checked in C: allowed characters, lengths, ``int``)."""
    if not texts:
        return []
    joined = b"".join(texts)
    if joined.translate(None, b"0123456789+-") or max(map(len, texts)) > MAX_DIGITS + 1:
        return None if not all(_LEAF.fullmatch(text) for text in texts) else [
            int(text) for text in texts]
    try:
        values = list(map(int, texts))  # refuses "1-2", "--1", "+"
    except ValueError:
        return None
    if max(values) >= 10**MAX_DIGITS or min(values) <= -(10**MAX_DIGITS):
        return None
    return values


def _check_shape(names: list[bytes], first: np.ndarray, heads: np.ndarray,
                 tails: np.ndarray) -> None:
    """Every declared node reachable from the root has children; no cycles (a depth-
    first walk over the declared nodes only: leaves can hold neither)."""
    starts = np.searchsorted(heads, np.arange(len(first))).tolist()
    below, counts = tails.tolist(), np.diff(first).tolist()
    state = [0] * (len(first) - 1)  # 0 unseen, 1 on the path, 2 done
    stack = [(0, starts[0])]
    state[0] = 1
    while stack:
        node, at = stack[-1]
        if counts[node] == 0:
            raise TreeFormatError(f"internal node {_show(names[node])!r} has no children")
        if at == starts[node + 1]:
            state[node] = 2
            stack.pop()
            continue
        step = below[at]
        stack[-1] = (node, at + 1)
        if state[step] == 1:
            raise TreeFormatError(f"a cycle through node {_show(names[step])!r}")
        if state[step] == 0:
            state[step] = 1
            stack.append((step, starts[step]))


def is_tree_line(raw: bytes) -> bool:
    """Does a line of a tree file hold a tree (good or bad)?  Not when it is blank or a
    comment (its first character other than a space or tab is ``#``)."""
    return bool(raw.strip()) and not raw.lstrip().startswith(b"#")


def parse_tree(text: str | bytes) -> ParsedTree:
    """One line of the format (text, or its UTF-8 bytes) as a TreeGame; raises
    TreeFormatError saying why not, TypeError for anything but text or bytes."""
    if isinstance(text, str):
        data = text.encode("utf-8", "surrogatepass")
    elif isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
    else:
        raise TypeError("parse_tree takes the text or bytes of a tree file's line, got "
                        f"{type(text).__name__}")
    reader = TreeReader()
    reader.feed(data, final=True)
    return reader.tree()
