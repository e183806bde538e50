"""ImmutableSudokuPuzzle: a Sudoku grid of candidate sets that never changes.

``create_next(square, value)`` returns a new puzzle with the value placed and
its consequences propagated; the old puzzle is untouched, so a search can keep
every state it meets without undoing anything.

Glossary
--------
givens
    The values a puzzle starts with: a string in any format ``formats`` reads
    (``"85...24.."``), a flat sequence of n*n ints, or n rows of n ints; 0 or
    None for a blank.
square
    A name (``"A3"``) or a row-major index (``2``); see ``grid``.
masks
    A tuple of n*n ints in row-major square order: bit v - 1 is set when value
    v is a candidate.  A filled square has a single bit, a dead square none.
    Example: with Norvig's "hardest" givens and ``peers``, ``masks[2] ==
    0b100100101``, i.e. ``candidates("A3") == {1, 3, 6, 9}``.
propagation
    The propagator's name (``none``, ``peers``, ``units``, ``twins``,
    ``locked``, ``matching``); see
    ``propagate``.  Under ``none`` an open square's mask stays full and its
    candidates are worked out from its filled peers when asked.
dead
    Propagation met a contradiction (a square or a unit-value with no place
    left).  A dead puzzle is a dead end: it has no solution below it.

Building a puzzle fills every square with all candidates first, then assigns
the givens in a separate phase, as the lab warns: assigning while filling
would overwrite the eliminations already made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.checks import check_int
from .boxes import check_box
from .candidates import CandidateSet, bits
from .formats import format_grid, format_line, parse_one
from .grid import Grid, box_for_cells, grid_for
from .propagate import (
    DEFAULT_PROPAGATION,
    PROPAGATORS,
    check_propagation,
    open_candidates,
)

Givens = str | Sequence[int | None] | Sequence[Sequence[int | None]]


class InvalidPuzzleError(ValueError):
    """Givens that cannot start a puzzle: unreadable, wrong size, out of range, or repeated."""


def _flatten(givens: Sequence[Any]) -> list[Any]:
    if givens and all(isinstance(row, Sequence) and not isinstance(row, str) for row in givens):
        return [cell for row in givens for cell in row]
    return list(givens)


def read_givens(givens: Givens) -> tuple[int, ...]:
    """The givens as cells (0 for blank); raises InvalidPuzzleError when unreadable."""
    if isinstance(givens, str):
        try:
            return parse_one(givens)
        except ValueError as error:
            raise InvalidPuzzleError(str(error)) from None
    if not isinstance(givens, Sequence):
        raise InvalidPuzzleError(
            f"givens are a string, a sequence of ints or a sequence of rows, got {givens!r}"
        )
    cells = _flatten(givens)
    for i, cell in enumerate(cells):
        if cell is not None and (isinstance(cell, bool) or not isinstance(cell, int)):
            raise InvalidPuzzleError(f"cell {i} is {cell!r}; cells are ints, 0 or None")
    return tuple(cell or 0 for cell in cells)


def _out_of_range(grid: Grid, cells: Sequence[int]) -> list[str]:
    return [
        f"{grid.names[s]} holds {v}"
        for s, v in enumerate(cells)
        if not 0 <= v <= grid.size
    ]


def _repeats(grid: Grid, cells: Sequence[int]) -> list[str]:
    """``A1 and A2 both hold 1 (same row, box)`` for each value a unit repeats."""
    clashes: dict[tuple[int, tuple[str, ...]], list[str]] = {}
    for kind, units in (("row", grid.rows), ("column", grid.cols), ("box", grid.boxes)):
        for unit in units:
            seen: dict[int, list[str]] = {}
            for s in unit:
                if cells[s]:
                    seen.setdefault(cells[s], []).append(grid.names[s])
            for value, names in seen.items():
                if len(names) > 1:
                    clashes.setdefault((value, tuple(names)), []).append(kind)
    return [_clash(value, names, kinds) for (value, names), kinds in clashes.items()]


def _clash(value: int, names: tuple[str, ...], kinds: list[str]) -> str:
    both = "both" if len(names) == 2 else "all"
    return f"{', '.join(names[:-1])} and {names[-1]} {both} hold {value} (same {', '.join(kinds)})"


def check_givens(cells: Sequence[int]) -> Grid:
    """The grid for some cells; InvalidPuzzleError names the squares that are wrong."""
    box = box_for_cells(len(cells))
    if box is None:
        raise InvalidPuzzleError(
            f"{len(cells)} cells is no Sudoku size; expected 16, 81, 256, 625 or 1296"
        )
    grid = grid_for(box)
    problems = _out_of_range(grid, cells)
    if problems:
        raise InvalidPuzzleError(f"values must be 1..{grid.size}: {_listing(problems)}")
    problems = _repeats(grid, cells)
    if problems:
        raise InvalidPuzzleError(f"givens contradict each other: {_listing(problems)}")
    return grid


def _listing(problems: list[str], shown: int = 4) -> str:
    more = len(problems) - shown
    return "; ".join(problems[:shown]) + (f"; and {more} more" if more > 0 else "")


class ImmutableSudokuPuzzle:
    """A Sudoku grid of candidate sets; every move returns a new puzzle.

    Parameters
    ----------
    givens
        The starting values, 4x4 to 36x36 (box 2..6), in any of these forms:

        - one line of n*n symbols: 81 for 9x9 (16, 256, 625, 1296 for the other
          sizes); ``.``, ``0`` or ``_`` for a blank, ``1``..``9`` then ``A``.. for
          10 and up; or space-separated numbers (how 36x36 is written);
        - a grid: n lines of n cells, ``|``, ``+``, ``-`` separators allowed
          (``formats`` describes them; a ``:`` or tab ends a line's cells);
        - a flat sequence of n*n ints, or n rows of n ints; 0 or None for a blank.
    propagation
        The propagator's name: ``none``, ``peers``, ``units`` (the default),
        ``twins``, ``locked`` or ``matching`` (see ``propagate``).

    The givens are propagated at once: givens that contradict each other only
    through propagation make a dead puzzle (``is_dead()``), not an error.
    InvalidPuzzleError (a ValueError) for givens that are unreadable, of no Sudoku
    size, out of range or repeated in a unit (the message names the squares);
    UnknownNameError for an unknown propagation, TypeError for one that is no string.

    Example::

        >>> hardest = ("85...24..72......9..4.........1.7..23.5...9.."
        ...            ".4...........8..7..17..........36.4.")
        >>> puzzle = ImmutableSudokuPuzzle(hardest, propagation="peers")
        >>> puzzle.value("A1"), sorted(puzzle.candidates("A3"))
        (8, [1, 3, 6, 9])
        >>> puzzle.create_next("A3", 3).value("A3")
        3
    """

    __slots__ = ("_box", "_masks", "_propagation", "_dead")
    _box: int
    _masks: tuple[int, ...]
    _propagation: str
    _dead: bool

    def __init__(self, givens: Givens, propagation: str = DEFAULT_PROPAGATION) -> None:
        propagation = check_propagation(propagation)
        cells = read_givens(givens)
        grid = check_givens(cells)
        masks = [grid.full] * len(cells)
        filled = [s for s, value in enumerate(cells) if value]
        for s in filled:
            masks[s] = 1 << (cells[s] - 1)
        alive = PROPAGATORS[propagation](masks, filled, grid, None)
        self._set(grid.box, tuple(masks), propagation, not alive)

    def _set(self, box: int, masks: tuple[int, ...], propagation: str, dead: bool) -> None:
        object.__setattr__(self, "_box", box)
        object.__setattr__(self, "_masks", masks)
        object.__setattr__(self, "_propagation", propagation)
        object.__setattr__(self, "_dead", dead)

    @classmethod
    def from_masks(
        cls,
        box: int,
        masks: Sequence[int],
        propagation: str = DEFAULT_PROPAGATION,
        *,
        dead: bool | None = None,
    ) -> ImmutableSudokuPuzzle:
        """A puzzle holding exactly these masks, without propagating anything.

        ``dead`` defaults to "some square has no candidate".  Meant for states
        that came out of a search (a kernel's leftover or solution arrays).
        """
        grid = grid_for(check_box(box))
        masks = tuple(int(m) for m in masks)
        if len(masks) != grid.size**2 or any(not 0 <= m <= grid.full for m in masks):
            raise InvalidPuzzleError(
                f"a {grid.size}x{grid.size} puzzle needs {grid.size**2} masks in"
                f" 0..{grid.full}, got {len(masks)}"
            )
        made = object.__new__(cls)
        made._set(box, masks, check_propagation(propagation), 0 in masks if dead is None else dead)
        return made

    @classmethod
    def from_kernel_rows(cls, box: int, rows: Any, propagation: str) -> tuple[
            ImmutableSudokuPuzzle, ...]:
        """Puzzles holding the rows of a kernel's mask array (solutions, leftovers, or
        children), as ``from_masks`` would make them, without its checks: the kernel
        only writes masks of this size.  ``tolist`` turns a whole array into Python
        ints at once; per mask that cost as much as a kernel node."""
        if not len(rows):
            return ()
        check_box(box)
        check_propagation(propagation)
        made = []
        lists = rows.tolist()
        # Which rows hold a zero: one numpy pass for many rows, a scan each for few.
        dead = (rows == 0).any(axis=1).tolist() if len(lists) > 8 else [
            0 in masks for masks in lists]
        for masks, gone in zip(lists, dead):
            puzzle = object.__new__(cls)
            puzzle._set(box, tuple(masks), propagation, gone)
            made.append(puzzle)
        return tuple(made)

    def _child(self, masks: list[int], square: int) -> ImmutableSudokuPuzzle:
        made = object.__new__(ImmutableSudokuPuzzle)
        alive = masks[square] != 0 and PROPAGATORS[self._propagation](
            masks, [square], grid_for(self._box), self._masks
        )
        made._set(self._box, tuple(masks), self._propagation, not alive)
        return made

    def create_next(self, square: str | int, value: int) -> ImmutableSudokuPuzzle:
        """A new puzzle with ``value`` placed in ``square`` and propagated (the lab's move).

        Parameters
        ----------
        square
            A name (``"A3"``) or a row-major index (``2``) of an open square.
        value
            One of the square's candidates (``candidates(square)``).

        Returns
        -------
        ImmutableSudokuPuzzle
            The next puzzle; this one is unchanged.  It is dead (``is_dead()``) when
            propagation meets a contradiction.

        ValueError for an unknown square, a value outside 1..n, a filled square
        (``A1 is already filled (8)``), a value that is not a candidate (``2 is not a
        candidate for A3 (candidates: 1, 3, 6, 9)``), or a dead puzzle, which has no
        next puzzles.  Example: ``ImmutableSudokuPuzzle(hardest, "peers").create_next(
        "A3", 3).candidates("A4") == {6, 7, 9}``.
        """
        grid = self.grid
        s = grid.square(square)
        value = check_int("value", value, low=1, high=grid.size)
        if self._dead:
            raise ValueError("this puzzle is dead (propagation met a contradiction): "
                             "no puzzle follows it")
        name, mask = grid.names[s], self._masks[s]
        if mask and not mask & (mask - 1):
            raise ValueError(f"{name} is already filled ({mask.bit_length()})")
        candidates = self.candidate_mask(s)
        if not candidates >> (value - 1) & 1:
            listed = ", ".join(str(v) for v in CandidateSet.from_mask(candidates)) or "none"
            raise ValueError(f"{value} is not a candidate for {name} (candidates: {listed})")
        masks = list(self._masks)
        masks[s] = 1 << (value - 1)
        return self._child(masks, s)

    def next_puzzles(self, square: int) -> list[ImmutableSudokuPuzzle]:
        """One new puzzle per candidate of ``square`` (an index), smallest value first."""
        if self._dead:
            return []
        children = []
        for bit in bits(self.candidate_mask(square)):
            masks = list(self._masks)
            masks[square] = bit
            children.append(self._child(masks, square))
        return children

    def candidate_mask(self, square: int) -> int:
        """The candidates of a square (an index) as a mask."""
        mask = self._masks[square]
        if self._propagation == "none" and mask & (mask - 1):
            return mask & open_candidates(self._masks, square, grid_for(self._box))
        return mask

    def candidates(self, square: str | int) -> CandidateSet:
        """The values still possible in a square."""
        return CandidateSet.from_mask(self.candidate_mask(self.grid.square(square)))

    def value(self, square: str | int) -> int | None:
        """The square's value when it is filled (exactly one candidate), else None."""
        mask = self._masks[self.grid.square(square)]
        return mask.bit_length() if mask and not mask & (mask - 1) else None

    def is_filled(self, square: int) -> bool:
        """True when the square (an index) holds a single value."""
        mask = self._masks[square]
        return mask != 0 and not mask & (mask - 1)

    def is_solved(self) -> bool:
        """Every square filled, with no contradiction met on the way."""
        return not self._dead and all(m and not m & (m - 1) for m in self._masks)

    def is_dead(self) -> bool:
        """Propagation met a contradiction: no solution lies below this puzzle."""
        return self._dead

    @property
    def box(self) -> int:
        return self._box

    @property
    def size(self) -> int:
        return self._box * self._box

    @property
    def grid(self) -> Grid:
        return grid_for(self._box)

    @property
    def propagation(self) -> str:
        return self._propagation

    @property
    def masks(self) -> tuple[int, ...]:
        return self._masks

    @property
    def cells(self) -> tuple[int, ...]:
        """The filled values, row-major, 0 for open squares."""
        return tuple(m.bit_length() if m and not m & (m - 1) else 0 for m in self._masks)

    def line(self) -> str:
        """The filled values on one line (``.`` for open squares)."""
        return format_line(self.cells)

    def __str__(self) -> str:
        return format_grid(self.cells)

    def __repr__(self) -> str:
        dead = ", dead" if self._dead else ""
        return f"ImmutableSudokuPuzzle({self.line()!r}, propagation={self._propagation!r}{dead})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ImmutableSudokuPuzzle):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[int, tuple[int, ...], str, bool]:
        return (self._box, self._masks, self._propagation, self._dead)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"ImmutableSudokuPuzzle is immutable; cannot set {name!r}")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_restore, self._key())


def _restore(box: int, masks: tuple[int, ...], propagation: str, dead: bool) -> Any:
    made = object.__new__(ImmutableSudokuPuzzle)
    made._set(box, masks, propagation, dead)
    return made
