"""A step-by-step record of the reference N-Queens search, for the search page
(``viz.queens_page`` draws ``QueensTrace.as_data()``: plain data).

The recorder walks the same tree as the reference search (``QueensSpace`` with
``kernel="reference"``): the order picks a row, ``candidate_columns_in_row`` gives
its columns in ascending order, and each column is tried depth-first.  It is a
separate walk, so the search code paths keep their speed.

Glossary
--------
step
    One event of the walk: ``root`` (the empty board), ``place`` (a queen goes to
    ``row, col``), ``dead`` (the chosen ``row`` has no candidate column left),
    ``solution`` (every row has a queen) or ``back`` (the queen at ``row, col``
    is taken away again).
cands
    For each step, one int per row: the bitmask of that row's candidate columns
    after the step (bit ``col`` set), 0 for a row that holds a queen.
nodes
    States visited, as the engine counts them: the root plus one per queen placed.
capped
    The walk stopped at ``limit`` steps before the search ended.

Example: ``record_queens(4).kinds[:3] == ["root", "place", "place"]``; the full
trace of n = 6 finds 4 solutions in 153 nodes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.checks import check_int
from .board import ImmutableQueenLocations
from .orders import RowOrder, as_order

MAX_TRACE_QUEENS = 16
# Characters of JSON the steps may take (the page stays below 2 MB): about 1.7 MB.
MAX_TRACE_CHARS = 1_700_000
KIND_CODES = {"root": "r", "place": "p", "dead": "d", "solution": "s", "back": "b"}


@dataclass
class QueensTrace:
    """What the recorder saw, step by step (see the glossary)."""

    n: int
    order: str
    limit: int
    kinds: list[str] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)
    cols: list[int] = field(default_factory=list)
    cands: list[list[int]] = field(default_factory=list)
    nodes: int = 0
    solutions: int = 0
    capped: bool = False
    chars: int = 0

    def add(self, kind: str, row: int, col: int, board: ImmutableQueenLocations) -> bool:
        """Record one step; False once the step limit or the page's size budget is
        reached (the walk then stops)."""
        cands = [_row_mask(board, r) for r in range(self.n)]
        size = 12 + sum(len(str(mask)) + 1 for mask in cands)
        if len(self.kinds) >= self.limit or self.chars + size > MAX_TRACE_CHARS:
            self.capped = True
            return False
        self.chars += size
        self.kinds.append(kind)
        self.rows.append(row)
        self.cols.append(col)
        self.cands.append(cands)
        self.nodes += kind in ("root", "place")
        self.solutions += kind == "solution"
        return True

    def as_data(self) -> dict[str, Any]:
        """The trace as JSON-ready data for the page's script."""
        return {
            "n": self.n, "order": self.order, "limit": self.limit, "capped": self.capped,
            "kinds": "".join(KIND_CODES[k] for k in self.kinds),
            "rows": self.rows, "cols": self.cols, "cands": self.cands,
            "nodes": self.nodes, "solutions": self.solutions,
        }


def _row_mask(board: ImmutableQueenLocations, row: int) -> int:
    if board.column_of_queen_in_row(row) is not None:
        return 0
    mask = 0
    for col in board.candidate_columns_in_row(row):
        mask |= 1 << col
    return mask


def record_queens(n: int, order: RowOrder | str | None = None,
                  limit: int = 5_000) -> QueensTrace:
    """Walk the reference search of ``n`` queens (an integer in 1..``MAX_TRACE_QUEENS``),
    recording up to ``limit`` steps (an integer >= 1); ``order`` is a row order, its name
    or None (``orders.as_order``).  WrongTypeError (a TypeError) for an ``n`` or a
    ``limit`` that is not an integer, ValueError for one out of range."""
    n = check_int("n", n, low=1, high=MAX_TRACE_QUEENS)
    limit = check_int("limit", limit, low=1)
    chosen = as_order(order)
    trace = QueensTrace(n, getattr(chosen, "name", type(chosen).__name__), limit)
    board = ImmutableQueenLocations(n)
    if trace.add("root", -1, -1, board):
        _walk(board, chosen, trace)
    return trace


def _walk(root: ImmutableQueenLocations, order: RowOrder, trace: QueensTrace) -> None:
    """Depth-first with an explicit stack of (board, row, columns left to try)."""
    stack: list[tuple[ImmutableQueenLocations, int, list[int]]] = []
    if not _enter(root, order, trace, stack):
        return
    while stack:
        board, row, left = stack[-1]
        if not left:
            stack.pop()
            if stack:
                parent, parent_row, _ = stack[-1]
                col = board.column_of_queen_in_row(parent_row)
                if not trace.add("back", parent_row, -1 if col is None else col, parent):
                    return
            continue
        col = left.pop(0)
        child = board.create_next(row, col)
        if not trace.add("place", row, col, child):
            return
        if not _enter(child, order, trace, stack):
            return


def _enter(board: ImmutableQueenLocations, order: RowOrder, trace: QueensTrace,
           stack: list[tuple[ImmutableQueenLocations, int, list[int]]]) -> bool:
    """Push ``board``'s row and columns; record a solution or a dead end (as a frame
    with nothing left, so the walk backs out of it).  False when the limit is hit."""
    row = order.select_next_unplaced_row(board)
    if row is None:
        stack.append((board, -1, []))
        return trace.add("solution", -1, -1, board)
    columns = board.candidate_columns_in_row(row)
    stack.append((board, row, columns))
    return columns != [] or trace.add("dead", row, -1, board)
