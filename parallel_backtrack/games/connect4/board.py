"""Connect-Four boards as bitboards, positions as move strings, and a plain Game.

Glossary
--------
bitboard
    Column ``c`` holds bits ``c * (H + 1)`` (bottom) to ``c * (H + 1) + H - 1``
    (top); the bit above each column stays empty, so a four never wraps from one
    column into the next.  ``(H + 1) * W <= 64``: one 64-bit word.
current / mask
    The stones of the player to move / every stone.  ``current + mask`` is a
    unique key of the position (Pascal Pons' encoding).
move string
    The 1-based columns played from the empty board, ``"4453"``.
score (Pons' convention)
    For the player to move: 0 a draw; ``(W * H + 1 - n) // 2`` when they can win
    with their next stone, ``n`` stones already down (a faster win scores more);
    negative for a loss.  The helpers are ``kernel.scores`` (plain Python, shared
    with the compiled search).
Connect4Game
    The same rules in the Game protocol (for the generic searches and for
    checking the solver with plain minimax on end-games).

Example: ``Board(7, 6).parse("4453").moves == 4``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.arguments import check_count
from ..game import BaseGame
from .kernel.scores import win_score

DEFAULT_WIDTH, DEFAULT_HEIGHT = 7, 6
MAX_WIDTH = 9  # one digit per move


class InvalidMoveError(ValueError):
    """A move string that cannot be played; the message names the move."""


def center_first(width: int) -> list[int]:
    """Columns 0.. ordered from the centre outwards (left before right)."""
    return sorted(range(width), key=lambda c: (abs(2 * c - (width - 1)), c))


@dataclass(frozen=True, slots=True)
class Position:
    current: int
    mask: int
    moves: int


class Board:
    """The geometry of a ``width x height`` board and the rules on bitboards."""

    def __init__(self, width: int = DEFAULT_WIDTH, height: int = DEFAULT_HEIGHT) -> None:
        for name, value in (("width", width), ("height", height)):
            check_count(name, value, none=False)
        if width > MAX_WIDTH:
            raise ValueError(f"width must be at most {MAX_WIDTH} (one digit per move), "
                             f"got {width}")
        if (height + 1) * width > 64:
            raise ValueError(f"(height + 1) * width must be at most 64 (one 64-bit word), "
                             f"got ({height} + 1) * {width} = {(height + 1) * width}")
        self.width, self.height, self.cells = width, height, width * height
        self.bottom = sum(1 << c * (height + 1) for c in range(width))
        self.full = self.bottom * ((1 << height) - 1)
        self.order = center_first(width)

    def __repr__(self) -> str:
        return f"Board(width={self.width}, height={self.height})"

    def top_bit(self, col: int) -> int:
        return 1 << (self.height - 1 + col * (self.height + 1))

    def column_mask(self, col: int) -> int:
        return ((1 << self.height) - 1) << col * (self.height + 1)

    def can_play(self, position: Position, col: int) -> bool:
        return position.mask & self.top_bit(col) == 0

    def play(self, position: Position, col: int) -> Position:
        move = (position.mask + (1 << col * (self.height + 1))) & self.column_mask(col)
        return Position(position.current ^ position.mask, position.mask | move,
                        position.moves + 1)

    def aligned(self, stones: int) -> bool:
        """Four in a row among ``stones``."""
        for shift in (1, self.height, self.height + 1, self.height + 2):
            pairs = stones & stones >> shift
            if pairs & pairs >> 2 * shift:
                return True
        return False

    def last_mover_won(self, position: Position) -> bool:
        return self.aligned(position.current ^ position.mask)

    def parse(self, moves: str) -> Position:
        """The position after ``moves``, a string of the (ASCII) digits 1..width
        (spaces around it ignored); InvalidMoveError names the first bad move,
        TypeError refuses anything but a string."""
        if not isinstance(moves, str):
            raise TypeError(f"moves must be a string of the digits 1-{self.width}, got "
                            f"{type(moves).__name__} {moves!r:.40}")
        position = Position(0, 0, 0)
        columns = "123456789"[:self.width]
        shown = _quoted(moves.strip())
        for index, char in enumerate(moves.strip(), 1):
            if char not in columns:
                raise InvalidMoveError(f"move {index} ({char!r}) of {shown} is not "
                                       f"a column 1..{self.width}")
            col = int(char) - 1
            if self.last_mover_won(position):
                raise InvalidMoveError(f"move {index} ({char}) of {shown} comes "
                                       "after the game was won")
            if not self.can_play(position, col):
                raise InvalidMoveError(f"move {index} ({char}) of {shown} plays in "
                                       f"column {char}, which is full")
            position = self.play(position, col)
        return position

    def show(self, position: Position) -> str:
        """Rows top to bottom; ``x`` the first player, ``o`` the second."""
        first = position.current if position.moves % 2 == 0 else position.current ^ position.mask
        rows = []
        for row in range(self.height - 1, -1, -1):
            cells = []
            for col in range(self.width):
                bit = 1 << (row + col * (self.height + 1))
                cells.append("." if not position.mask & bit else "x" if first & bit else "o")
            rows.append(" ".join(cells))
        return "\n".join(rows)


def _quoted(moves: str, longest: int = 60) -> str:
    """``moves`` quoted for a message; a long string by its start and its length."""
    if len(moves) <= longest:
        return repr(moves)
    return f"{moves[:longest]!r}... ({len(moves):,} moves)"


class Connect4Game(BaseGame):
    """Connect-Four in the Game protocol, scored in Pons' convention."""

    def __init__(self, board: Board | None = None) -> None:
        """``board``: the geometry, a ``Board`` (None: the standard 7x6)."""
        if board is not None and not isinstance(board, Board):
            raise TypeError(f"board must be a connect4 Board (or None for 7x6), got "
                            f"{type(board).__name__} {board!r:.40}")
        self.board = Board() if board is None else board
        self.initial = Position(0, 0, 0)  # the empty board

    def __repr__(self) -> str:
        return f"Connect4Game(board={self.board!r})"

    def to_move(self, state: Position) -> int:
        return state.moves % 2

    def actions(self, state: Position) -> list[int]:
        return [c for c in self.board.order if self.board.can_play(state, c)]

    def result(self, state: Position, action: int) -> Position:
        return self.board.play(state, action)

    def is_terminal(self, state: Position) -> bool:
        return self.board.last_mover_won(state) or state.moves == self.board.cells

    def utility(self, state: Position, player: int) -> int:
        if not self.board.last_mover_won(state):
            return 0
        won = win_score(self.board.cells, state.moves - 1)  # for the last mover
        return -won if player == state.moves % 2 else won

    def key(self, state: Position) -> int:
        return state.current + state.mask
