"""Row search orders for N-Queens: which empty row to fill next.

Glossary
--------
order
    An object with ``select_next_unplaced_row(locations) -> int | None``.  It
    returns a row with no queen, or None when every row has one.  An order must
    not skip a row that has no candidate left: reaching such a row first is what
    ends a fruitless branch early.

Example: with queens at (0, 0), (1, 3), (2, 6) and (6, 7) on an 8x8 board,
``FirstAvailableRow()`` picks row 3.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..engine.checks import check_name, object_or_name
from .board import ImmutableQueenLocations


class RowOrder(Protocol):
    def select_next_unplaced_row(self, locations: ImmutableQueenLocations) -> int | None: ...


class FirstAvailableRow:
    """The lab's order: the lowest-numbered row without a queen."""

    name = "first-available"

    def select_next_unplaced_row(self, locations: ImmutableQueenLocations) -> int | None:
        empty = ~locations.filled & ((1 << locations.board_size) - 1)
        if not empty:
            return None
        return (empty & -empty).bit_length() - 1

    def __repr__(self) -> str:
        return "FirstAvailableRow()"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self))


class FewestCandidatesRow:
    """Fail first: the empty row with the fewest candidate columns (lowest on ties)."""

    name = "fewest"

    def select_next_unplaced_row(self, locations: ImmutableQueenLocations) -> int | None:
        best: int | None = None
        best_size = locations.board_size + 1
        for row in range(locations.board_size):
            if locations.filled >> row & 1:
                continue
            size = locations.free_mask(row).bit_count()
            if size < best_size:
                best, best_size = row, size
                if size == 0:
                    break
        return best

    def __repr__(self) -> str:
        return "FewestCandidatesRow()"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self))


ORDERS: dict[str, Callable[[], RowOrder]] = {
    "first-available": FirstAvailableRow, "fewest": FewestCandidatesRow}


def order_named(name: str) -> RowOrder:
    """The order for a CLI name, with a "did you mean" for near misses."""
    return ORDERS[check_name("order", name, ORDERS)]()


def as_order(order: object) -> RowOrder:
    """A row order from an order, its name, or None (the lab's ``FirstAvailableRow``),
    checked once at an entry point.

    A name goes through ``order_named`` (UnknownNameError with a "did you mean");
    anything without a ``select_next_unplaced_row`` method is a TypeError.
    """
    if order is None:
        return FirstAvailableRow()
    found: RowOrder = object_or_name(
        "order", order, ORDERS, "select_next_unplaced_row",
        "a row order (an object with select_next_unplaced_row, such as FirstAvailableRow())",
        or_none=True)
    return found
