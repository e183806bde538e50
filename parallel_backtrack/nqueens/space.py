"""N-Queens as an engine Space: a board, a row order, symmetry and the fast kernels.

Glossary
--------
kernel
    ``fast``: below the split, subtrees are counted by compiled bitboard
    kernels (first-available-row order only; other orders fall back to the
    generic search).  ``reference``: the immutable-state search all the way.
symmetry
    How ``count`` uses the board's symmetry on an empty board with the
    first-available-row order (elsewhere it counts without):
    ``d4`` (the default with the fast kernel): the rotations and reflections.
    The count runs over the canonical tree of ``symmetry.py`` (roots: the
    row-0 queens of canonical forms, weight 1); a kept leaf stands for its
    whole orbit, 2, 4 or 8 solutions, so the count is still Q(n), in about
    a third of the mirror count's nodes.
    ``mirror``: the left half of row 0, weight 2 (and the middle column once
    for odd n): a solution's mirror image has its row-0 queen on the other side.
    ``none`` (the default with the reference kernel): every solution, weight 1.
unique
    The essentially different solutions (OEIS A002562) follow from any exact
    total by Burnside's lemma (``unique_from_total``), with a compiled count of
    the few solutions a quarter or half turn fixes.

Example: ``count_solutions(ImmutableQueenLocations(8), FirstAvailableRow())``
returns 92; ``unique_from_total(8, 92)`` returns 12.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from .. import engine
from ..engine import Explored, SearchReport
from ..engine.checks import check_name
from .board import MAX_KERNEL_SIZE, ImmutableQueenLocations
from .orders import FirstAvailableRow, RowOrder, as_order
from .symmetry import CanonicalBoard, canonical_children

KERNELS = ("fast", "reference")
SYMMETRIES = ("d4", "mirror", "none")
# At most about 150 ms of kernel time: long enough to hide dispatch (one parent spends
# 0.1-0.15 ms per task, so 64 workers need tasks of 10 ms and more on average, and
# packing and the tail make many shorter than a budget), short enough to stop
# promptly.  Tasks get all of it only while much work is pending, half otherwise,
# an eighth in the tail (see the scheduler's glossary).
FAST_BUDGET = 16_000_000
REFERENCE_BUDGET = 20_000

QueensState = ImmutableQueenLocations | CanonicalBoard


# What a first compile is called on stderr, and about how long it takes (measured on
# 2 cores, docs/results.md: 2 s of CPU; 5-6 s wall at load 8).
KERNEL_NAME, KERNEL_COMPILE_SECONDS = "the N-Queens kernel", "2-10 s"


def _compiled() -> list[Any]:
    """The compiled functions behind ``count_subtree``, ``count_canonical`` and
    ``count_rotation_symmetric`` (``--unique``)."""
    from .kernel import canonical, subtree

    return [subtree._run, canonical._run, canonical._rotation_symmetric]


def compile_kernels() -> None:
    """Compile every N-Queens kernel at once, under one notice, when one is not in the
    cache: a count calls the plain and the canonical counter, ``--unique`` the
    rotation count, and each compiled silently after the first notice's time."""
    from .._jit_cache import is_cached
    from .kernel.canonical import count_rotation_symmetric

    functions = _compiled()
    if all(is_cached(function) for function in functions):
        return
    count_subtree, count_canonical = _load_kernels()
    with compile_notice(KERNEL_NAME, functions, KERNEL_COMPILE_SECONDS):
        board = ImmutableQueenLocations(6)
        count_subtree(board, 10**6)
        count_canonical(board, 10**6)
        count_rotation_symmetric(6, 2)


def compile_notice(what: str, functions: list[Any], seconds: str) -> Any:
    """``_jit_cache.compile_notice``, loaded with the kernels (it imports numba)."""
    from .._jit_cache import compile_notice as notice

    return notice(what, functions, seconds)


def _load_kernels() -> tuple[Any, Any]:
    """The compiled counters, imported (with numba) only by a space that uses them."""
    from .kernel.canonical import count_canonical
    from .kernel.subtree import count_subtree

    return count_subtree, count_canonical


class QueensSpace:
    """Place queens row by row, in the order's choice of row: an engine Space.

    Parameters
    ----------
    locations
        The board to complete: an ``ImmutableQueenLocations`` (empty, or with queens
        already placed).
    order
        A row order (``FirstAvailableRow()``, ``FewestCandidatesRow()``), its name
        (``"first-available"``, ``"fewest"``), or None for ``FirstAvailableRow``.
    kernel
        ``"fast"`` (the default: compiled counters below the split, first-available
        order and boards up to 32 only, else the generic search) or ``"reference"``.
    symmetry
        ``"d4"``, ``"mirror"`` or ``"none"`` (see the glossary); None picks ``d4``
        with the fast kernel and ``none`` otherwise.  Used only on an empty board in
        first-available order.

    TypeError for a board or an order of another kind, UnknownNameError for an
    unknown name.  Example: ``engine.count(QueensSpace(ImmutableQueenLocations(8)))
    .count == 92``.
    """

    def __init__(self, locations: ImmutableQueenLocations, order: RowOrder | None = None,
                 kernel: str = "fast", symmetry: str | None = None) -> None:
        if not isinstance(locations, ImmutableQueenLocations):
            raise TypeError(f"expected ImmutableQueenLocations, got {type(locations).__name__}")
        self.locations = locations
        self.order = as_order(order)
        self.kernel = check_name("kernel", kernel, KERNELS)
        first_available = isinstance(self.order, FirstAvailableRow)
        self.fast = (kernel == "fast" and first_available
                     and locations.board_size <= MAX_KERNEL_SIZE)
        self.node_budget = FAST_BUDGET if self.fast else REFERENCE_BUDGET
        if self.fast:
            _load_kernels()
        if symmetry is None:
            symmetry = "d4" if self.fast else "none"
        check_name("symmetry", symmetry, SYMMETRIES)
        self.symmetry = symmetry if first_available and not locations.filled else "none"

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self.fast:  # a worker's copy: the kernels load before the engine warms it
            _load_kernels()

    def root(self) -> ImmutableQueenLocations:
        return self.locations

    def branch(self, state: QueensState) -> Iterator[QueensState]:
        if isinstance(state, CanonicalBoard):
            return iter(canonical_children(state))
        row = self.order.select_next_unplaced_row(state)
        if row is None:
            return iter(())
        return (state.place(row, col) for col in state.candidate_columns_in_row(row))

    def is_solution(self, state: QueensState) -> bool:
        """A full plain board (a canonical leaf is not one: its orbit below it is)."""
        return isinstance(state, ImmutableQueenLocations) and state.is_complete()

    def count_roots(self) -> list[tuple[QueensState, int]]:
        """Weighted roots whose weighted counts add up to the count below ``root()``."""
        board = self.locations
        n = board.board_size
        if self.symmetry == "d4":
            return [(child, 1) for child in canonical_children(CanonicalBoard(board))]
        if self.symmetry == "mirror":
            roots: list[tuple[QueensState, int]] = [
                (board.place(0, col), 2) for col in range(n // 2)
            ]
            if n % 2:
                roots.append((board.place(0, n // 2), 1))
            return roots
        return [(board, 1)]

    def size_hints(self, states: Sequence[QueensState]) -> list[float] | None:
        """The subtrees' expected sizes, relative (``sizes.size_hints``)."""
        from .sizes import size_hints

        return size_hints(states)

    def count_below(self, state: QueensState, budget: int) -> Explored | None:
        if not self.fast:
            return None
        count_subtree, count_canonical = _load_kernels()
        compile_kernels()
        if isinstance(state, CanonicalBoard):
            count, nodes, leftover = count_canonical(state.board, budget)
            return Explored(count, nodes, (), tuple(CanonicalBoard(b) for b in leftover))
        count, nodes, leftover = count_subtree(state, budget)
        return Explored(count, nodes, (), tuple(leftover))


def count_report(locations: ImmutableQueenLocations, order: RowOrder | None = None, *,
                 kernel: str = "fast", symmetry: str | None = None,
                 **options: Any) -> SearchReport:
    """Count through the engine: the ``SearchReport`` (count, nodes, seconds, complete).

    ``locations``, ``order``, ``kernel`` and ``symmetry`` are as for ``QueensSpace``;
    ``options`` go to ``engine.count`` (workers, backend, timeout...).
    """
    return engine.count(QueensSpace(locations, order, kernel, symmetry), **options)


def count_solutions(locations: ImmutableQueenLocations, order: RowOrder | None = None, *,
                    workers: int = 1, backend: str | None = None, kernel: str = "fast",
                    symmetry: str | None = None) -> int:
    """The number of ways to complete ``locations`` with non-attacking queens.

    Parameters
    ----------
    locations
        An ``ImmutableQueenLocations``: ``ImmutableQueenLocations(n)`` for the empty
        n x n board (n = 1..64; exact counts are practical up to about 20).
    order
        A row order, its name (``"first-available"``, ``"fewest"``) or None (the
        lab's first-available order); the count does not depend on it.
    workers
        1 (the default) counts in this process; 2.. that many processes; -1 every
        core.
    backend
        The engine's pool (``"loky"``, ``"threads"``, ...); None picks one.
    kernel, symmetry
        As for ``QueensSpace``; the count is the same for any of them.

    Returns
    -------
    int
        The number of solutions below ``locations`` (``count_report`` also gives
        the nodes, the time and whether the count is complete).

    Example: ``count_solutions(ImmutableQueenLocations(8)) == 92`` and
    ``count_solutions(ImmutableQueenLocations(8).create_next(0, 0), "fewest") == 4``.
    """
    return count_report(locations, order, kernel=kernel, symmetry=symmetry, workers=workers,
                        backend=backend).count


def count_unique(n: int, **options: Any) -> tuple[int, int]:
    """``(Q(n), essentially different solutions)`` from one parallel count.

    ``options`` go to ``count_report`` (workers, backend, kernel, symmetry...).
    """
    from .burnside import unique_from_total

    report = count_report(ImmutableQueenLocations(n), **options)
    if not report.complete:
        raise RuntimeError(f"the count stopped early ({report.stop_reason}); "
                           "the unique count needs the exact total")
    return report.count, unique_from_total(n, report.count)

