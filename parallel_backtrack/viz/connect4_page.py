"""The Connect-Four page: a position and its principal variation, played stone by stone.

It takes plain data (a move string), so it needs nothing from the games package.

Glossary
--------
move string
    The 1-based columns played from the empty board, ``"4453"`` (Pascal Pons'
    notation): the first player's stones are red, the second's yellow.
given
    The first ``given`` moves make the position; the rest is the principal
    variation (the line the solver expects with best play on both sides).
scores
    Optional, one per position after each move (``None`` where unknown): the
    solver's score for the player to move there, shown beside the board.
four
    Four stones of one colour in a row, column, or diagonal: the game ends.

Example: ``write_connect4_page("c.html", "4455667", given=4)`` shows red winning on
the bottom row with the seventh stone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .page import PageError, Section, render_page, write_page

MAX_WIDTH = 9
LEGEND = (
    ("#e53935", "the first player's stones"),
    ("#fdd835", "the second player's stones"),
    ("#7cb342", "green ring: the four that ends the game"),
    ("#1e88e5", "blue ring: the stone just played"),
    ("#d9a1a0", "faded stone: part of the given position (the rest is the variation)"),
)
BODY = (
    '<div class="row2"><div id="c4-board" class="c4" role="grid" aria-label="board"></div>'
    '<div class="side"><div id="c4-controls"></div><div class="counters">'
    '<span>stones <b id="c4-stones">0</b></span>'
    '<span>to move <b id="c4-turn">red</b></span>'
    '<span>score for the player to move <b id="c4-score">?</b></span></div>'
    '<div id="c4-status" class="status" aria-live="polite"></div></div></div>'
)
LINES = ((0, 1), (1, 0), (1, 1), (1, -1))  # (column step, row step) of a four


def _four(cells: dict[tuple[int, int], int], col: int, row: int) -> list[list[int]]:
    """The four through the stone just put at (col, row), or []."""
    who = cells[(col, row)]
    for dc, dr in LINES:
        line = [(col, row)]
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while cells.get((c, r)) == who:
                line.append((c, r))
                c, r = c + sign * dc, r + sign * dr
        if len(line) >= 4:
            return [list(square) for square in sorted(line)]
    return []


def play(moves: str, width: int, height: int) -> tuple[list[int], list[list[int]], int]:
    """The 0-based columns, the four that ends the game ([] if none) and the move that
    made it (-1); PageError for a move that cannot be played."""
    cells: dict[tuple[int, int], int] = {}
    heights = [0] * width
    columns = []
    for index, symbol in enumerate(moves):
        if not symbol.isdigit() or not 1 <= int(symbol) <= width:
            raise PageError(f"move {index + 1} of {moves!r} is {symbol!r}; expected a column "
                            f"1..{width}")
        col = int(symbol) - 1
        if heights[col] >= height:
            raise PageError(f"move {index + 1} of {moves!r}: column {col + 1} is full")
        cells[(col, heights[col])] = index % 2
        heights[col] += 1
        columns.append(col)
        four = _four(cells, col, heights[col] - 1)
        if four:
            if index != len(moves) - 1:
                raise PageError(f"move {index + 1} of {moves!r} ends the game with a four; "
                                f"{len(moves) - index - 1} more moves follow it")
            return columns, four, index
    return columns, [], -1


def connect4_section(moves: str, width: int = 7, height: int = 6, given: int = 0,
                     scores: Sequence[int | None] | None = None) -> Section:
    """The board replaying ``moves``; the first ``given`` of them make the position."""
    if not 4 <= width <= MAX_WIDTH or not 4 <= height <= 16:
        raise PageError(f"the board must be 4..{MAX_WIDTH} columns and 4..16 rows, got "
                        f"{width}x{height}")
    if not 0 <= given <= len(moves):
        raise PageError(f"given must be 0..{len(moves)}, got {given}")
    if scores is not None and len(scores) != len(moves) + 1:
        raise PageError(f"scores needs one entry per position ({len(moves) + 1}), got "
                        f"{len(scores)}")
    columns, four, won = play(moves, width, height)
    data: dict[str, Any] = {"width": width, "height": height, "columns": columns,
                            "given": given, "four": four, "won": won,
                            "scores": list(scores) if scores is not None else None}
    heading = (f"Connect-Four {width}x{height}: position {moves[:given] or '(empty)'}, "
               f"then {len(moves) - given} moves of the principal variation")
    return Section(heading, BODY, "c4", data, ("player.js", "connect4.js"), LEGEND)


def write_connect4_page(path: str, moves: str, width: int = 7, height: int = 6,
                        given: int = 0, scores: Sequence[int | None] | None = None,
                        title: str | None = None) -> int:
    """Write the Connect-Four page; returns its size in bytes (PageError: bad moves)."""
    section = connect4_section(moves, width, height, given, scores)
    heading = title or "Connect-Four: the principal variation, stone by stone"
    return write_page(path, render_page(heading, [section],
                                        "Stones drop one per step; the given position first, "
                                        "then the line best play follows."))
