"""Square search orders: which open square a search branches on next.

Glossary
--------
open square
    A square that is not filled: it has several candidates, or none.  A square
    with no candidates is open too, and no order skips it: reaching it is what
    ends a fruitless branch (it has no children).
order
    An object with ``select_next_unfilled_square(puzzle) -> int | None``: the
    index of the square to branch on, or None when every square is filled.
    Orders are small frozen dataclasses, so they pickle cheaply to workers.

The orders, by name (``order_named``):

``row-major`` (``RowMajor``)
    The first open square in row-major order (A1, A2, .., I9).
``fewest`` (``FewestOptionsFirst``)
    An open square with the fewest candidates, zero included; ties go to the
    first in row-major order.  Example: with Norvig's "hardest" givens and
    ``peers``, RowMajor picks A3: a ``Square``, index 2, that prints as ``A3``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from parallel_backtrack.engine.checks import UnknownNameError, did_you_mean, object_or_name

from .grid import Square
from .propagate import all_open_candidates
from .puzzle import ImmutableSudokuPuzzle


@runtime_checkable
class SquareOrder(Protocol):
    """Chooses the square a search branches on next."""

    def select_next_unfilled_square(self, puzzle: ImmutableSudokuPuzzle) -> Square | None: ...


@dataclass(frozen=True, slots=True)
class RowMajor:
    """The first open square in row-major order."""

    name = "row-major"

    def select_next_unfilled_square(self, puzzle: ImmutableSudokuPuzzle) -> Square | None:
        for square, mask in enumerate(puzzle.masks):
            if not mask or mask & (mask - 1):
                return puzzle.grid.named_squares[square]
        return None


@dataclass(frozen=True, slots=True)
class FewestOptionsFirst:
    """An open square with the fewest candidates (zero counts); ties in row-major order."""

    name = "fewest"

    def select_next_unfilled_square(self, puzzle: ImmutableSudokuPuzzle) -> Square | None:
        index = self._fewest(puzzle)
        return None if index is None else puzzle.grid.named_squares[index]

    @staticmethod
    def _fewest(puzzle: ImmutableSudokuPuzzle) -> int | None:
        masks = puzzle.masks
        if 0 in masks:
            return masks.index(0)
        if puzzle.propagation == "none":
            return _fewest_open(puzzle)
        best, fewest = None, puzzle.size + 1
        for square, mask in enumerate(masks):
            if mask & (mask - 1):
                count = mask.bit_count()
                if count < fewest:
                    if count == 2:
                        return square
                    best, fewest = square, count
        return best


def _fewest_open(puzzle: ImmutableSudokuPuzzle) -> int | None:
    """FewestOptionsFirst under ``none``, where open candidates are computed on demand."""
    best, fewest = None, puzzle.size + 1
    masks = puzzle.masks
    for square, cands in enumerate(all_open_candidates(masks, puzzle.grid)):
        if masks[square] & (masks[square] - 1):
            count = cands.bit_count()
            if count < fewest:
                if count == 0:
                    return square
                best, fewest = square, count
    return best


ORDERS: dict[str, type[RowMajor] | type[FewestOptionsFirst]] = {
    "fewest": FewestOptionsFirst,
    "row-major": RowMajor,
}


def order_named(name: str) -> SquareOrder:
    """The order called ``name``: ``fewest`` or ``row-major``."""
    if not isinstance(name, str) or name not in ORDERS:
        raise UnknownNameError(did_you_mean("order", name, ORDERS))
    return ORDERS[name]()


def as_order(order: object) -> SquareOrder:
    """An order object from an order or its name, checked once at an entry point.

    A name goes through ``order_named`` (UnknownNameError with a "did you mean");
    anything without a ``select_next_unfilled_square`` method is a TypeError.
    """
    found: SquareOrder = object_or_name(
        "order", order, ORDERS, "select_next_unfilled_square",
        "a square order (an object with select_next_unfilled_square, such as "
        "FewestOptionsFirst())")
    return found


def select_next_unfilled_square(
    puzzle: ImmutableSudokuPuzzle, order: SquareOrder | str = "fewest"
) -> Square | None:
    """The square ``order`` (an order or its name) branches on next, or None when filled."""
    return as_order(order).select_next_unfilled_square(puzzle)
