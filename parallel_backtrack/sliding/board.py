"""The sliding-tile board: an immutable n x n grid of tiles and one blank.

Glossary
--------
tiles
    A tuple of ``n * n`` ints in row-major order, ``0`` the blank.  Example, the
    3 x 3 board ``(1, 2, 3, 4, 0, 5, 7, 8, 6)`` prints as::

        1 2 3
        4 _ 5
        7 8 6
cell
    A position ``0 .. n*n - 1`` in row-major order: row ``cell // n``, column
    ``cell % n``.
goal convention
    ``blank-last``: ``1 2 .. n*n-1 0`` (CS61B, algs4; the default) or
    ``blank-first``: ``0 1 .. n*n-1`` (Korf's instances).
move
    The direction the *blank* goes: ``U``, ``L``, ``R``, ``D`` (up, left, right,
    down), which is also the search order of every solver here.
parity
    A board is solvable iff the parity of its tile permutation (blank left out)
    plus, on even widths, the blank's row distance from its goal row matches the
    goal's: one test, no search.
frame
    The IDA* kernel's blank-first frame (goal ``0 1 .. N-1``): ``to_frame`` turns
    a blank-last board half a turn into it; ``board_moves`` turns frame moves
    (0..3) back into the board's own ``U L R D``.
WorldState
    CS61B's interface: ``estimated_distance_to_goal()``, ``neighbors()``,
    ``is_goal()``; ``Board`` is one, the A* solver takes any.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ..engine.checks import check_int

MIN_SIZE, MAX_SIZE = 2, 10
GOALS = ("blank-last", "blank-first")
MOVES = "ULRD"
# Blank offsets (row, col) of U, L, R, D: the opposite of move d is 3 - d.
STEPS = ((-1, 0), (0, -1), (0, 1), (1, 0))


class InvalidBoardError(ValueError):
    """Tiles that do not make an n x n sliding board."""


class UnsolvableError(ValueError):
    """The goal cannot be reached from this state (decided before any search)."""


@runtime_checkable
class WorldState(Protocol):
    """CS61B's search problem state: what A* needs and nothing more."""

    def estimated_distance_to_goal(self) -> int: ...

    def neighbors(self) -> Iterable[WorldState]: ...

    def is_goal(self) -> bool: ...


def goal_tiles(n: int, goal: str = "blank-last") -> tuple[int, ...]:
    """The solved board's tiles for ``goal``."""
    if goal not in GOALS:
        raise ValueError(f"unknown goal {goal!r}; expected one of {list(GOALS)}")
    if goal == "blank-first":
        return tuple(range(n * n))
    return tuple(range(1, n * n)) + (0,)


def check_tiles(tiles: Sequence[int]) -> int:
    """The width n of a valid board, or InvalidBoardError saying what is wrong."""
    count = len(tiles)
    n = round(count**0.5)
    if n * n != count:
        raise InvalidBoardError(f"{count} tiles is not a square number (n*n tiles)")
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise InvalidBoardError(f"n = {n} is out of range: boards are {MIN_SIZE}x{MIN_SIZE} "
                                f"to {MAX_SIZE}x{MAX_SIZE}")
    if 0 not in tiles:
        raise InvalidBoardError(f"no blank (0) among the {count} tiles")
    seen: set[int] = set()
    for tile in tiles:
        if not 0 <= tile < count:
            raise InvalidBoardError(f"tile {tile} is out of range 0..{count - 1} for n = {n}")
        if tile in seen:
            missing = min(set(range(count)) - set(tiles))
            raise InvalidBoardError(f"tile {tile} appears twice (tile {missing} is missing)")
        seen.add(tile)
    return n


def tile_tuple(tiles: object) -> tuple[int, ...]:
    """``tiles`` (a sequence of ints) as a tuple of ints, or TypeError saying what arrived:
    text, an unordered collection or a tile that is not an int (a bool, a float) is refused."""
    if (isinstance(tiles, (str, bytes, bytearray, Set, Mapping))
            or not isinstance(tiles, Iterable)):
        raise TypeError("tiles must be a sequence of ints (row-major, 0 the blank), "
                        f"got {type(tiles).__name__} {tiles!r}")
    found = tuple(tiles)
    for tile in found:
        if type(tile) is not int and (isinstance(tile, bool)
                                      or not isinstance(tile, numbers.Integral)):
            raise TypeError(f"tiles must be ints, got {tile!r} ({type(tile).__name__}) "
                            f"among {found!r}")
    return tuple(int(tile) for tile in found)  # numpy's ints become ints


def inversions(tiles: Sequence[int]) -> int:
    """Pairs of tiles (blank left out) in the wrong order."""
    seq = [t for t in tiles if t]
    return sum(1 for i, a in enumerate(seq) for b in seq[i + 1:] if a > b)


def _parity(tiles: Sequence[int], n: int) -> int:
    blank_row = tiles.index(0) // n
    row_term = 0 if n % 2 else blank_row
    return (inversions(tiles) + row_term) % 2


def is_solvable(tiles: Sequence[int], goal: str = "blank-last") -> bool:
    """Can the goal be reached from ``tiles`` (a sequence of ints, as ``Board`` takes)?
    Decided by parity alone."""
    tiles = tile_tuple(tiles)
    n = check_tiles(tiles)
    return _parity(tiles, n) == _parity(goal_tiles(n, goal), n)


def apply_move(tiles: tuple[int, ...], n: int, move: str) -> tuple[int, ...]:
    """The tiles after the blank moves one step ``move`` (one of ``U L R D``)."""
    if move not in MOVES:
        raise ValueError(f"unknown move {move!r}; expected one of {list(MOVES)}")
    blank = tiles.index(0)
    dr, dc = STEPS[MOVES.index(move)]
    row, col = divmod(blank, n)
    if not (0 <= row + dr < n and 0 <= col + dc < n):
        raise ValueError(f"move {move} takes the blank off the board")
    other = (row + dr) * n + col + dc
    cells = list(tiles)
    cells[blank], cells[other] = cells[other], 0
    return tuple(cells)


def move_between(before: tuple[int, ...], after: tuple[int, ...], n: int) -> str:
    """The blank's move (``U L R D``) that takes ``before`` to ``after``."""
    step = after.index(0) - before.index(0)
    return {-n: "U", n: "D", -1: "L", 1: "R"}[step]


@dataclass(frozen=True, slots=True)
class Board:
    """An immutable sliding board; the CS61B/algs4 methods, for either goal convention.

    Parameters
    ----------
    tiles
        The ``n * n`` tiles in row-major order, ``0`` the blank, n = 2..10: a tuple
        (or list, or any other sequence) of ints; kept as a tuple.  Text, floats and
        bools are refused (TypeError); tiles that do not make a board raise
        ``InvalidBoardError`` (a ValueError) saying what is wrong.
    goal
        ``"blank-last"`` (``1 2 .. 0``, the default) or ``"blank-first"`` (``0 1 ..``).

    ``Board.from_rows(rows)`` takes the rows instead; ``Board.solved(n)`` is the goal.
    """

    tiles: tuple[int, ...]
    goal: str = "blank-last"

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tile_tuple(self.tiles))
        check_tiles(self.tiles)
        if self.goal not in GOALS:
            raise ValueError(f"unknown goal {self.goal!r}; expected one of {list(GOALS)}")

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]], goal: str = "blank-last") -> Board:
        """The board whose rows are ``rows``: n rows of n ints each (``0`` the blank).
        A row of another length is refused (ValueError naming it)."""
        if isinstance(rows, (str, bytes, bytearray)) or not isinstance(rows, Iterable):
            raise TypeError(f"rows must be a sequence of rows of ints, got "
                            f"{type(rows).__name__} {rows!r}")
        found = [tile_tuple(row) for row in rows]
        for index, row in enumerate(found):
            if len(row) != len(found):
                raise InvalidBoardError(
                    f"rows[{index}] has {len(row)} tiles, expected {len(found)}: an n x n "
                    "board has n rows of n tiles")
        return cls(tuple(t for row in found for t in row), goal)

    @classmethod
    def solved(cls, n: int, goal: str = "blank-last") -> Board:
        """The solved n x n board (n = 2..10) for ``goal``."""
        check_int("n", n, low=MIN_SIZE, high=MAX_SIZE)
        return cls(goal_tiles(n, goal), goal)

    def size(self) -> int:
        return round(len(self.tiles) ** 0.5)

    def tile_at(self, row: int, col: int) -> int:
        n = self.size()
        if not (0 <= row < n and 0 <= col < n):
            raise IndexError(f"({row}, {col}) is off a {n}x{n} board")
        return self.tiles[row * n + col]

    def blank(self) -> int:
        """The blank's cell."""
        return self.tiles.index(0)

    def goal_cell(self, tile: int) -> int:
        """Where ``tile`` belongs."""
        if self.goal == "blank-first":
            return tile
        return tile - 1 if tile else len(self.tiles) - 1

    def hamming(self) -> int:
        """Tiles (not the blank) out of place."""
        return sum(1 for cell, t in enumerate(self.tiles) if t and self.goal_cell(t) != cell)

    def manhattan(self) -> int:
        """Sum over tiles of the row and column distance to their goal cells."""
        n = self.size()
        total = 0
        for cell, tile in enumerate(self.tiles):
            if tile:
                goal = self.goal_cell(tile)
                total += abs(cell // n - goal // n) + abs(cell % n - goal % n)
        return total

    def estimated_distance_to_goal(self) -> int:
        return self.manhattan()

    def is_goal(self) -> bool:
        return self.tiles == goal_tiles(self.size(), self.goal)

    def is_solvable(self) -> bool:
        return is_solvable(self.tiles, self.goal)

    def moves_possible(self) -> str:
        """The moves of the blank that stay on the board, in ``U L R D`` order."""
        n = self.size()
        row, col = divmod(self.blank(), n)
        return "".join(m for m, (dr, dc) in zip(MOVES, STEPS)
                       if 0 <= row + dr < n and 0 <= col + dc < n)

    def move(self, move: str) -> Board:
        return self._unchecked(apply_move(self.tiles, self.size(), move))

    def _unchecked(self, tiles: tuple[int, ...]) -> Board:
        """A board one legal move from this one: valid by construction, not re-checked
        (A* makes millions)."""
        board = object.__new__(Board)
        object.__setattr__(board, "tiles", tiles)
        object.__setattr__(board, "goal", self.goal)
        return board

    def neighbors(self) -> list[Board]:
        """The boards one blank move away, in ``U L R D`` order."""
        return [self.move(m) for m in self.moves_possible()]

    def twin(self) -> Board:
        """algs4's twin: the first two non-blank tiles swapped (solvable iff this is not)."""
        cells = [i for i, t in enumerate(self.tiles) if t][:2]
        tiles = list(self.tiles)
        tiles[cells[0]], tiles[cells[1]] = tiles[cells[1]], tiles[cells[0]]
        return Board(tuple(tiles), self.goal)

    def __str__(self) -> str:
        n = self.size()
        width = len(str(n * n - 1))
        rows = []
        for r in range(n):
            cells = self.tiles[r * n:(r + 1) * n]
            rows.append(" ".join(str(t).rjust(width) if t else "_".rjust(width) for t in cells))
        return "\n".join(rows)


def to_frame(board: Board) -> tuple[int, ...]:
    """The tiles in the blank-first frame: a blank-last board turned half a turn, its
    tiles renumbered (cell p -> N-1-p, tile t -> N-t), which maps goal onto goal."""
    if board.goal == "blank-first":
        return board.tiles
    size = len(board.tiles)
    return tuple((size - t) % size for t in reversed(board.tiles))


def board_moves(board: Board, frame_moves: list[int]) -> str:
    """Frame moves as the board's own ``U L R D`` (a half turn swaps U/D and L/R)."""
    if board.goal == "blank-first":
        return "".join(MOVES[d] for d in frame_moves)
    return "".join(MOVES[3 - d] for d in frame_moves)
