"""ImmutableQueenLocations: a partial N-Queens placement that never changes.

Glossary
--------
row, col
    0-based board coordinates; row 0 is printed first.
queens
    A tuple with one entry per row: the queen's column, or -1 for an empty row.
cols, diag, anti
    Int bitmasks of what the queens attack.  Bit ``col`` of ``cols`` is set when
    column ``col`` holds a queen; bit ``col - row + n - 1`` of ``diag`` for the
    "\\" diagonal; bit ``row + col`` of ``anti`` for the "/" diagonal.
    In row ``r``, column ``c`` is attacked along a diagonal when bit ``c`` of
    ``diag >> (n - 1 - r)`` or of ``anti >> r`` is set.

Example: on an 8x8 board with a queen at (0, 4), ``candidate_columns_in_row(1)``
is ``[0, 1, 2, 6, 7]`` and ``str(board)`` starts with ``. . . . Q . . .``.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..engine.checks import check_int

MAX_BOARD_SIZE = 64
# The compiled counters keep a row's diagonals in 64-bit masks: boards up to 32.
MAX_KERNEL_SIZE = 32


def bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _check_size(board_size: object) -> int:
    board_size = check_int("board size", board_size)
    if not 1 <= board_size <= MAX_BOARD_SIZE:
        raise ValueError(
            f"board size must be between 1 and {MAX_BOARD_SIZE}, got {board_size} "
            "(exact counting beyond n = 27 is out of reach; use --find-one for huge boards)"
        )
    return board_size


class ImmutableQueenLocations:
    """Where the queens stand; ``create_next`` returns a new board with one more."""

    __slots__ = ("board_size", "queens", "cols", "diag", "anti", "filled")
    board_size: int
    queens: tuple[int, ...]
    cols: int
    diag: int
    anti: int
    filled: int

    def __init__(self, board_size: int) -> None:
        n = _check_size(board_size)
        self._set(n, (-1,) * n, 0, 0, 0, 0)

    def _set(self, n: int, queens: tuple[int, ...], cols: int, diag: int, anti: int,
             filled: int) -> None:
        object.__setattr__(self, "board_size", n)
        object.__setattr__(self, "queens", queens)
        object.__setattr__(self, "cols", cols)
        object.__setattr__(self, "diag", diag)
        object.__setattr__(self, "anti", anti)
        object.__setattr__(self, "filled", filled)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("ImmutableQueenLocations is immutable; use create_next")

    def __reduce__(self) -> tuple[object, ...]:
        return (_restore, (self.board_size, self.queens, self.cols, self.diag, self.anti,
                           self.filled))

    # -- the lab's questions ---------------------------------------------------
    def column_of_queen_in_row(self, row: int) -> int | None:
        self._check_index("row", row)
        col = self.queens[row]
        return None if col < 0 else col

    def free_mask(self, row: int) -> int:
        """Bitmask of the columns a queen could take in ``row`` (0 if it has one)."""
        n = self.board_size
        if self.filled >> row & 1:
            return 0
        attacked = self.cols | (self.diag >> (n - 1 - row)) | (self.anti >> row)
        return ~attacked & ((1 << n) - 1)

    def candidate_columns_in_row(self, row: int) -> list[int]:
        self._check_index("row", row)
        return list(bits(self.free_mask(row)))

    def is_location_threat_free(self, row: int, col: int) -> bool:
        self._check_index("row", row)
        self._check_index("column", col)
        return bool(self.free_mask(row) >> col & 1)

    @property
    def queen_count(self) -> int:
        return self.filled.bit_count()

    def is_complete(self) -> bool:
        return self.queen_count == self.board_size

    # -- moves -----------------------------------------------------------------
    def create_next(self, row: int, col: int) -> ImmutableQueenLocations:
        """A new board with a queen added at (row, col); ValueError if illegal."""
        self._check_index("row", row)
        self._check_index("column", col)
        if self.filled >> row & 1:
            raise ValueError(f"row {row} already has a queen (in column {self.queens[row]})")
        if not self.free_mask(row) >> col & 1:
            raise ValueError(f"square ({row}, {col}) is attacked by a queen already placed")
        return self.place(row, col)

    def place(self, row: int, col: int) -> ImmutableQueenLocations:
        """``create_next`` without the checks: for callers that know the move is legal."""
        n = self.board_size
        new = object.__new__(ImmutableQueenLocations)
        queens = self.queens[:row] + (col,) + self.queens[row + 1 :]
        new._set(n, queens, self.cols | 1 << col, self.diag | 1 << (col - row + n - 1),
                 self.anti | 1 << (row + col), self.filled | 1 << row)
        return new

    def _check_index(self, what: str, index: object) -> None:
        index = check_int(what, index)
        if not 0 <= index < self.board_size:
            raise ValueError(
                f"{what} {index} is off the board; expected 0..{self.board_size - 1}"
            )

    # -- value semantics -------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ImmutableQueenLocations):
            return NotImplemented
        return self.queens == other.queens

    def __hash__(self) -> int:
        return hash(self.queens)

    def __repr__(self) -> str:
        return f"ImmutableQueenLocations({self.board_size}, queens={list(self.queens)})"

    def __str__(self) -> str:
        return "\n".join(
            " ".join("Q" if col == c else "." for c in range(self.board_size))
            for col in self.queens
        )


def _restore(*fields: object) -> ImmutableQueenLocations:
    board = object.__new__(ImmutableQueenLocations)
    board._set(*fields)  # type: ignore[arg-type]
    return board


def from_columns(columns: list[int] | tuple[int, ...]) -> ImmutableQueenLocations:
    """A board from one column per row (-1 or None for an empty row), checked."""
    board = ImmutableQueenLocations(len(columns))
    for row, col in enumerate(columns):
        if col is not None and col >= 0:
            board = board.create_next(row, col)
    return board
