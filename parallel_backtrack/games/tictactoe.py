"""Tic-tac-toe as a Game, and its game histories as an engine Space.

Glossary
--------
state
    ``(x, o)``: bitmasks of the squares X and O hold, bit ``3 * row + col``.
    X moves first; it is X's turn when both hold as many squares.
action
    A square 0..8 (row-major).
game history
    A path from the empty board to a terminal state (a win or a full board);
    ``GameHistories`` is the Space whose solutions are the terminal states of
    the tree of histories (positions reached twice count twice): 255,168 games.

Example: ``TicTacToe().result((0, 0), 4)`` is ``(16, 0)``: X in the centre.
"""

from __future__ import annotations

from collections.abc import Iterator

from .game import BaseGame

X, O = "X", "O"
LINES = (0b111, 0b111000, 0b111000000, 0b1001001, 0b10010010, 0b100100100, 0b100010001,
         0b1010100)
FULL = 0b111111111
Board = tuple[int, int]


def has_line(mask: int) -> bool:
    return WINS[mask]


def popcount(mask: int) -> int:
    return bin(mask).count("1")


WINS = tuple(any(mask & line == line for line in LINES) for mask in range(1 << 9))


class TicTacToe(BaseGame):
    """The 3 x 3 game: +1 a win, -1 a loss, 0 a draw."""

    initial: Board = (0, 0)

    def __repr__(self) -> str:
        return "TicTacToe()"

    def to_move(self, state: Board) -> str:
        return X if popcount(state[0]) == popcount(state[1]) else O

    def actions(self, state: Board) -> list[int]:
        taken = state[0] | state[1]
        return [square for square in range(9) if not taken >> square & 1]

    def result(self, state: Board, action: int) -> Board:
        x, o = state
        if (x | o) >> action & 1:
            raise ValueError(f"square {action} is taken")
        return (x | 1 << action, o) if self.to_move(state) == X else (x, o | 1 << action)

    def is_terminal(self, state: Board) -> bool:
        return has_line(state[0]) or has_line(state[1]) or (state[0] | state[1]) == FULL

    def utility(self, state: Board, player: str) -> int:
        won = 1 if has_line(state[0]) else -1 if has_line(state[1]) else 0
        return won if player == X else -won

    def show(self, state: Board) -> str:
        cells = ["X" if state[0] >> s & 1 else "O" if state[1] >> s & 1 else "." for s in range(9)]
        return "\n".join(" ".join(cells[r * 3:r * 3 + 3]) for r in range(3))


class GameHistories:
    """The Space of every tic-tac-toe game: a solution is a finished game."""

    def __init__(self) -> None:
        self.game = TicTacToe()

    def root(self) -> Board:
        return self.game.initial

    def branch(self, state: Board) -> Iterator[Board]:
        x, o = state
        if WINS[x] or WINS[o]:
            return iter(())
        taken = x | o
        free = [1 << square for square in range(9) if not taken >> square & 1]
        if popcount(x) == popcount(o):
            return iter([(x | bit, o) for bit in free])
        return iter([(x, o | bit) for bit in free])

    def is_solution(self, state: Board) -> bool:
        return WINS[state[0]] or WINS[state[1]] or (state[0] | state[1]) == FULL
