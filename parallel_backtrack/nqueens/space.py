"""N-Queens as an engine Space: a board, a row order, and the fast kernel hook.

Glossary
--------
kernel
    ``fast``: below the split, subtrees are counted by the compiled bitboard
    kernel (first-available-row order only; other orders fall back to the
    generic search).  ``reference``: the immutable-state search all the way.
mirror symmetry
    On an empty board the fast space counts only the left half of row 0 and
    doubles it (plus the middle column once for odd n): a solution's mirror
    image has its row-0 queen on the other side.

Example: ``count_solutions(ImmutableQueenLocations(8), FirstAvailableRow())``
returns 92.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..engine import Explored, SearchReport, check_name
from ..engine import count as engine_count
from .board import ImmutableQueenLocations
from .kernel import MAX_KERNEL_SIZE, count_subtree
from .orders import FirstAvailableRow, RowOrder

KERNELS = ("fast", "reference")
# About 20-50 ms of kernel time: long enough to hide dispatch, short enough to stop promptly.
FAST_BUDGET = 2_000_000
REFERENCE_BUDGET = 20_000


class QueensSpace:
    """Place queens row by row, in the order's choice of row."""

    def __init__(self, locations: ImmutableQueenLocations, order: RowOrder | None = None,
                 kernel: str = "fast") -> None:
        if not isinstance(locations, ImmutableQueenLocations):
            raise TypeError(f"expected ImmutableQueenLocations, got {type(locations).__name__}")
        self.locations = locations
        self.order = order if order is not None else FirstAvailableRow()
        self.kernel = check_name("kernel", kernel, KERNELS)
        self.fast = (kernel == "fast" and isinstance(self.order, FirstAvailableRow)
                     and locations.board_size <= MAX_KERNEL_SIZE)
        self.node_budget = FAST_BUDGET if self.fast else REFERENCE_BUDGET

    def root(self) -> ImmutableQueenLocations:
        return self.locations

    def branch(self, state: ImmutableQueenLocations) -> Iterator[ImmutableQueenLocations]:
        row = self.order.select_next_unplaced_row(state)
        if row is None:
            return iter(())
        return (state.place(row, col) for col in state.candidate_columns_in_row(row))

    def is_solution(self, state: ImmutableQueenLocations) -> bool:
        return state.is_complete()

    def count_roots(self) -> list[tuple[ImmutableQueenLocations, int]]:
        """Weighted roots; mirror symmetry on an empty board with the fast kernel."""
        board = self.locations
        n = board.board_size
        if not self.fast or board.filled:
            return [(board, 1)]
        roots = [(board.place(0, col), 2) for col in range(n // 2)]
        if n % 2:
            roots.append((board.place(0, n // 2), 1))
        return roots

    def count_below(self, state: ImmutableQueenLocations, budget: int) -> Explored | None:
        if not self.fast:
            return None
        count, nodes, leftover = count_subtree(state, budget)
        return Explored(count, nodes, (), tuple(leftover))


def count_report(locations: ImmutableQueenLocations, order: RowOrder | None = None, *,
                 kernel: str = "fast", **options) -> SearchReport:
    """Count through the engine; ``options`` go to ``engine.count`` (workers, backend...)."""
    return engine_count(QueensSpace(locations, order, kernel), **options)


def count_solutions(locations: ImmutableQueenLocations, order: RowOrder | None = None, *,
                    workers: int = 1, backend: str | None = None, kernel: str = "fast") -> int:
    """The number of ways to complete ``locations``, counted in parallel."""
    return count_report(locations, order, kernel=kernel, workers=workers,
                        backend=backend).count
