"""The board's symmetry group D4 on explicit solutions, canonical forms, and the
canonical tree that counts each class of solutions once.

Glossary
--------
columns
    A full placement, one column per row: ``columns[row] == col``.
m
    ``n - 1``, the last row and column.
transform
    One of the 8 symmetries of the square, a map on squares ``(row, col)``:
    ``identity``, ``rot90`` (a quarter turn clockwise: ``(c, m - r)``),
    ``rot180``, ``rot270``, ``mirror`` (left-right), ``flip`` (upside down),
    ``transpose`` (about the main diagonal) and ``antitranspose``.
orbit, class
    The distinct images of a solution under the 8 transforms: 8, 4 or 2 boards
    (a solution fixed by a half turn has 4, by a quarter turn 2; for n > 1 no
    solution is fixed by a reflection).  A class is counted once in OEIS
    A002562 and ``len(orbit)`` times in A000170.
centrality
    How far a column (or row) is from the nearer edge: ``min(col, m - col)``.
canonical form
    The orbit's minimum under ``orbit_key``: the most central queen on the
    border goes to row 0, on the left half, and ties go to the lexicographically
    smallest placement.  Central first queens have the cheapest subtrees.
canonical tree
    The search that reaches (nearly) only canonical forms: row 0 holds a queen
    of centrality ``top``; no other border queen may be more central, so the
    side columns are closed in rows whose centrality exceeds ``top`` and so are
    the bottom row's central columns; a centred top queen puts row 1's queen on
    the left.  Rows fill from the top, lowest column first, and a board whose
    empty bottom row has no square left has no children (a forward check that
    pays for itself).  A full board is a leaf; it is kept when it is its
    canonical form, and its orbit hangs below it: those images are the solutions
    counted, so the tree's count is Q(n) (OEIS A000170).
Burnside
    The number of classes is the average number of solutions a transform fixes:
    ``(Q + 2 * S90 + S180 + fixed_by_reflections) / 8``, where ``S90``/``S180``
    count the solutions a quarter/half turn maps onto themselves.

Example: for n = 4, ``orbit((1, 3, 0, 2))`` is ``{(1, 3, 0, 2), (2, 0, 3, 1)}``
(a quarter turn fixes it) and its canonical form is ``(1, 3, 0, 2)``;
``burnside.unique_from_total(4, 2)`` is 1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .board import ImmutableQueenLocations, bits

Square = tuple[int, int]
Columns = tuple[int, ...]

TRANSFORMS: dict[str, Callable[[int, int, int], Square]] = {
    "identity": lambda m, r, c: (r, c),
    "rot90": lambda m, r, c: (c, m - r),
    "rot180": lambda m, r, c: (m - r, m - c),
    "rot270": lambda m, r, c: (m - c, r),
    "mirror": lambda m, r, c: (r, m - c),
    "flip": lambda m, r, c: (m - r, c),
    "transpose": lambda m, r, c: (c, r),
    "antitranspose": lambda m, r, c: (m - c, m - r),
}
REFLECTIONS = ("mirror", "flip", "transpose", "antitranspose")


def _check_name(name: str) -> Callable[[int, int, int], Square]:
    if name not in TRANSFORMS:
        raise ValueError(f"unknown transform {name!r}; expected one of {sorted(TRANSFORMS)}")
    return TRANSFORMS[name]


def map_square(name: str, n: int, square: Square) -> Square:
    """Where transform ``name`` sends ``square`` on an n x n board."""
    return _check_name(name)(n - 1, *square)


def compose(outer: str, inner: str, n: int = 5) -> str:
    """The transform equal to ``outer`` after ``inner`` (checked on every square)."""
    squares = [(r, c) for r in range(n) for c in range(n)]
    target = [map_square(outer, n, map_square(inner, n, s)) for s in squares]
    for name in TRANSFORMS:
        if [map_square(name, n, s) for s in squares] == target:
            return name
    raise RuntimeError(f"{outer} after {inner} is not a symmetry of the square")


def transform(columns: Sequence[int], name: str) -> Columns:
    """The placement ``columns`` under transform ``name`` (still one queen per row)."""
    n = len(columns)
    moved = dict(map_square(name, n, (row, col)) for row, col in enumerate(columns))
    if sorted(moved) != list(range(n)):
        raise ValueError(f"{list(columns)} is not one queen per row and column")
    return tuple(moved[row] for row in range(n))


def orbit(columns: Sequence[int]) -> set[Columns]:
    """The distinct images of ``columns`` under the 8 transforms."""
    return {transform(columns, name) for name in TRANSFORMS}


def stabilizer(columns: Sequence[int]) -> list[str]:
    """The transforms that map ``columns`` onto itself (always ``identity``)."""
    start = tuple(columns)
    return [name for name in TRANSFORMS if transform(start, name) == start]


def centrality(index: int, n: int) -> int:
    return min(index, n - 1 - index)


def orbit_key(columns: Sequence[int]) -> tuple[int, Columns]:
    """The order canonical forms minimise: most central row-0 queen, then lexicographic."""
    return (-centrality(columns[0], len(columns)), tuple(columns))


def canonical_form(columns: Sequence[int]) -> Columns:
    return min(orbit(columns), key=orbit_key)


def is_canonical(columns: Sequence[int]) -> bool:
    return tuple(columns) == canonical_form(columns)


# -- the canonical tree ------------------------------------------------------
def top_columns(n: int) -> list[int]:
    """Row-0 columns of canonical forms: the left half with the centre, no corner
    (for n > 1 the border queens cannot all be corners: corners share diagonals)."""
    return [0] if n == 1 else list(range(1, (n - 1) // 2 + 1))


@lru_cache(maxsize=4096)
def allowed_mask(n: int, top: int, row: int) -> int:
    """Columns a canonical form may use in ``row`` (1..n-1) below a top queen in ``top``."""
    m = n - 1
    mask = (1 << n) - 1
    if row == m:
        mask &= sum(1 << col for col in range(n) if centrality(col, n) <= top)
    elif centrality(row, n) > top:
        mask &= ~(1 | 1 << m)
    if row == 1 and 2 * top == m:
        mask &= (1 << (m // 2 + 1)) - 1
    return mask


@dataclass(frozen=True, slots=True)
class CanonicalBoard:
    """A state of the canonical tree: a partial board filled from row 0 down."""

    board: ImmutableQueenLocations

    def __str__(self) -> str:
        return str(self.board)

    def __reduce__(self) -> tuple[object, ...]:
        return (CanonicalBoard, (self.board,))  # a dispatch pickles thousands of these


def canonical_children(state: CanonicalBoard) -> list[CanonicalBoard | ImmutableQueenLocations]:
    """Children in search order; a full canonical board's children are its orbit."""
    board = state.board
    n = board.board_size
    if board.filled == 0:
        return [CanonicalBoard(board.place(0, col)) for col in top_columns(n)]
    if board.is_complete():
        if not is_canonical(board.queens):
            return []
        return [_from_full(columns) for columns in sorted(orbit(board.queens))]
    if bottom_row_shut(board):
        return []
    row = first_empty_row(board.filled)
    mask = board.free_mask(row) & allowed_mask(n, board.queens[0], row)
    return [CanonicalBoard(board.place(row, col)) for col in bits(mask)]


def bottom_row_shut(board: ImmutableQueenLocations) -> bool:
    """No queen can go into the empty bottom row any more: a dead end, however far."""
    n = board.board_size
    return not board.free_mask(n - 1) & allowed_mask(n, board.queens[0], n - 1)


def first_empty_row(filled: int) -> int:
    """The lowest row whose bit in ``filled`` is clear."""
    return (~filled & (filled + 1)).bit_length() - 1


def _from_full(columns: Columns) -> ImmutableQueenLocations:
    board = ImmutableQueenLocations(len(columns))
    for row, col in enumerate(columns):
        board = board.place(row, col)
    return board
