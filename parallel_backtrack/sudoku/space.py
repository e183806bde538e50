"""A puzzle and a square order as an engine Space, and an independent solution checker.

Glossary
--------
state
    An ``ImmutableSudokuPuzzle``.  The root is the puzzle with its givens
    propagated.
node
    One state the engine visits: the root, and every puzzle made by
    ``create_next`` while branching, dead ends included.  So a puzzle solved
    by propagation alone takes 1 node, and the node count measures how much
    search (not propagation) a strategy needed.
branch(state)
    The order picks an open square; each of its candidates, smallest first,
    gives one child.  A dead puzzle, or one whose chosen square has no
    candidates, has no children.  With the fast kernel the children come from
    it (one node of its search, whose stack holds them): the same children, a
    dead one as a puzzle of empty squares.
solution
    A puzzle with every square filled and no contradiction.

kernel
    ``fast`` (the default) runs every subtree below the root in the compiled
    kernel (``masks.explore_masks``) through the engine's hooks
    ``count_below`` / ``first_below``; ``reference`` keeps the Python search
    all the way down.  Both give the same answers and the same node counts.
    Orders other than ``RowMajor`` and ``FewestOptionsFirst`` always take the
    reference path.

``is_valid_solution(givens, cells)`` checks a finished grid with plain
arithmetic on rows, columns and boxes, sharing no code with the puzzle class,
so every answer the search returns can be checked against it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from parallel_backtrack.engine import Explored
from parallel_backtrack.engine.checks import check_name

from .orders import FewestOptionsFirst, RowMajor, SquareOrder, as_order
from .puzzle import ImmutableSudokuPuzzle

KERNELS = ("fast", "reference")


def _load_kernel() -> None:
    """Import the compiled search (and numba), for a space that uses it."""
    from .masks import explore_masks  # noqa: F401  (loads the kernel module)


@dataclass(frozen=True, slots=True)
class SudokuSpace:
    """The search tree of one puzzle under one square order: an engine Space.

    ``puzzle`` is an ``ImmutableSudokuPuzzle`` (``search.space_for`` also takes
    givens), ``order`` a square order or its name (``"fewest"``, ``"row-major"``;
    kept as the order object), ``kernel`` ``"fast"`` or ``"reference"`` (see the
    glossary).  TypeError for another kind of puzzle or order, UnknownNameError for
    an unknown name.  Example: ``engine.count(SudokuSpace(ImmutableSudokuPuzzle(p),
    "fewest"))``.
    """

    puzzle: ImmutableSudokuPuzzle
    order: SquareOrder
    kernel: str = "fast"
    # Nodes per engine task, at most some 40-100 ms (the scheduler often gives half):
    # a Python-path node costs 30-100 us; a kernel node about 0.2 us on 9x9 when
    # counting, and its cost grows with the cells, so the kernel's budget is
    # FAST_BUDGET for 81 cells, scaled down.
    REFERENCE_BUDGET: ClassVar[int] = 1_000
    FAST_BUDGET: ClassVar[int] = 200_000

    def __post_init__(self) -> None:
        if not isinstance(self.puzzle, ImmutableSudokuPuzzle):
            raise TypeError(f"puzzle must be an ImmutableSudokuPuzzle, got {self.puzzle!r}"
                            " (search.space_for also takes givens)")
        object.__setattr__(self, "order", as_order(self.order))
        check_name("kernel", self.kernel, KERNELS)
        if self.fast:
            _load_kernel()

    def __getstate__(self) -> list[Any]:
        return [getattr(self, field.name) for field in fields(self)]

    def __setstate__(self, state: list[Any]) -> None:
        for field, value in zip(fields(self), state):
            object.__setattr__(self, field.name, value)
        if self.fast:  # a worker's copy: the kernel loads before the engine warms it
            _load_kernel()

    @property
    def fast(self) -> bool:
        """True when the compiled kernel searches below the root."""
        return self.kernel == "fast" and type(self.order) in (RowMajor, FewestOptionsFirst)

    # How much dearer a node is under these propagators than under units (measured on
    # Gecode's 25x25 instances: matching about 40 us against 2 us per kernel node).
    NODE_COST: ClassVar[dict[str, int]] = {"locked": 2, "matching": 20}

    @property
    def node_budget(self) -> int:
        cost = self.NODE_COST.get(self.puzzle.propagation, 1)
        if not self.fast:
            return max(50, self.REFERENCE_BUDGET // cost)
        return max(500, self.FAST_BUDGET * 81 // self.puzzle.size**2 // cost)

    def root(self) -> ImmutableSudokuPuzzle:
        return self.puzzle

    def branch(self, state: ImmutableSudokuPuzzle) -> list[ImmutableSudokuPuzzle]:
        if state.is_dead():
            return []
        if self.fast:  # one kernel node: the stack it leaves is the children, in order
            return self.branch_all([state])[0]  # type: ignore[index]
        square = self.order.select_next_unfilled_square(state)
        if square is None:
            return []
        return state.next_puzzles(square)

    def branch_all(self, states: Sequence[ImmutableSudokuPuzzle]) -> list[
            list[ImmutableSudokuPuzzle]] | None:
        """``branch`` of every state, in one kernel call: how the engine cuts a tree
        (None on the reference path, which branches one state at a time)."""
        if not self.fast:
            return None
        from .calls import kernel_codes
        from .masks import branch_rows, trusted_rows

        box, propagation = self.puzzle.box, self.puzzle.propagation
        live = [index for index, state in enumerate(states) if not state.is_dead()]
        branched: list[list[ImmutableSudokuPuzzle]] = [[] for _ in states]
        if live:
            rows, firsts = branch_rows(box, trusted_rows([states[i].masks for i in live]),
                                       kernel_codes(propagation, self.order.name))  # type: ignore[attr-defined]
            children = ImmutableSudokuPuzzle.from_kernel_rows(box, rows, propagation)
            bounds = firsts.tolist()
            for k, index in enumerate(live):
                branched[index] = list(children[bounds[k]:bounds[k + 1]])
        return branched

    def is_solution(self, state: ImmutableSudokuPuzzle) -> bool:
        return state.is_solved()

    def count_below(self, state: ImmutableSudokuPuzzle, budget: int) -> Explored | None:
        """Count below ``state`` in the kernel (None on the reference path)."""
        return self.explore_fast([state], budget=budget) if self.fast else None

    def first_below(self, state: ImmutableSudokuPuzzle, budget: int) -> Explored | None:
        """The first solution below ``state`` in the kernel (None on the reference path)."""
        if not self.fast:
            return None
        return self.explore_fast([state], budget=budget, stop_after=1, keep=True)

    def count_many(self, states: Sequence[ImmutableSudokuPuzzle], budget: int,
                   watch: tuple[Any, int, int] | None = None) -> tuple[Explored, int] | None:
        """Count below each of ``states`` in turn, in one kernel call that also stops
        once ``watch`` is raised (the engine's hook): the ``Explored``, its leftover
        the open rest of the last state begun, and how many were begun (None on the
        reference path)."""
        if not self.fast or not states:
            return None
        run = self._run(states, budget=budget, watch=watch)
        rest = run.leftover[:len(run.leftover) - (len(states) - run.started)]
        return Explored(run.count, run.nodes, (), self._puzzles(rest)), run.started

    def explore_fast(
        self,
        roots: Sequence[ImmutableSudokuPuzzle],
        *,
        budget: int | None = None,
        stop_after: int | None = None,
        keep: bool = False,
    ) -> Explored:
        """``engine.explore`` in the kernel: same count, nodes, solutions and leftover.

        Solutions are kept (``keep``) only up to ``stop_after``.
        """
        if not roots:
            return Explored(0, 0)
        run = self._run(roots, budget=budget, stop_after=stop_after, keep=keep)
        return Explored(run.count, run.nodes, self._puzzles(run.solutions),
                        self._puzzles(run.leftover))

    def _run(self, roots: Sequence[ImmutableSudokuPuzzle], *, budget: int | None,
             stop_after: int | None = None, keep: bool = False,
             watch: tuple[Any, int, int] | None = None) -> Any:
        """The kernel's ``KernelRun`` below ``roots`` (see ``explore_fast``)."""
        from .calls import kernel_codes
        from .masks import explore_rows, trusted_rows

        # The puzzles' own masks are valid: not checked again (``explore_rows``).
        rows = trusted_rows([(0,) * len(state.masks) if state.is_dead() else state.masks
                             for state in roots])
        limit = stop_after or 0
        return explore_rows(self.puzzle.box, rows,
                            kernel_codes(self.puzzle.propagation, self.order.name),  # type: ignore[attr-defined]
                            first=stop_after == 1, budget=budget or 0, limit=limit,
                            keep=limit if keep else 0, watch=watch)

    def _puzzles(self, rows: Any) -> tuple[ImmutableSudokuPuzzle, ...]:
        return ImmutableSudokuPuzzle.from_kernel_rows(self.puzzle.box, rows,
                                                      self.puzzle.propagation)


def _as_cells(grid: str | Sequence[int | None]) -> list[int] | None:
    """Cells from a line of symbols or a flat sequence; None when unreadable."""
    if isinstance(grid, str):
        cells = []
        for ch in grid.strip():
            if ch in ".0_":
                cells.append(0)
            elif ch.isascii() and ch.isdigit():
                cells.append(int(ch))
            elif ch.isascii() and ch.isalpha():
                cells.append(ord(ch.upper()) - ord("A") + 10)
            else:
                return None
        return cells
    try:
        return [int(v or 0) for v in grid]
    except (TypeError, ValueError):
        return None


def _units(n: int, b: int) -> list[list[int]]:
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    boxes = [
        [(br + i // b) * n + bc + i % b for i in range(n)]
        for br in range(0, n, b)
        for bc in range(0, n, b)
    ]
    return rows + cols + boxes


def is_valid_solution(
    givens: str | Sequence[int | None], solution: str | Sequence[int | None]
) -> bool:
    """True when ``solution`` is a complete, valid grid that keeps every given.

    Both are one line of symbols (``"4173698..."``, ``.`` for blanks, ``A``.. for
    10 and up) or a flat row-major sequence of ints (0 or None for blanks).
    """
    start, cells = _as_cells(givens), _as_cells(solution)
    if start is None or cells is None or len(start) != len(cells):
        return False
    n = math.isqrt(len(cells))
    b = math.isqrt(n)
    if b < 2 or b * b != n or n * n != len(cells):
        return False
    if any(g and g != v for g, v in zip(start, cells, strict=True)):
        return False
    values = set(range(1, n + 1))
    return all({cells[s] for s in unit} == values for unit in _units(n, b))
