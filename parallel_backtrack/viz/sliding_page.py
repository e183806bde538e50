"""The sliding-puzzle page: a solution path animated, and IDA*'s nodes per iteration.

It takes plain data, so it needs nothing from the sliding-puzzle package: the
path as row-major tile tuples and, optionally, IDA*'s iteration statistics.

Glossary
--------
board
    A tuple of ``size * size`` tiles in row-major order, 0 for the blank.
    Example: ``(1, 2, 3, 4, 5, 6, 7, 8, 0)`` is the solved 3x3 board.
path
    Boards from the start to the goal, each one blank move from the one before
    (the blank swaps with a tile above, below, left or right of it).  A board
    may also be any object with a ``tiles`` attribute holding such a tuple.
    The last board is the goal the page measures distances to (blank last or
    blank first, as the path has it).
iterations
    IDA*'s ``[(threshold, nodes), ...]``: the f bound of each depth-first pass
    and the nodes it expanded.
blanks
    What the page carries instead of every board: the start board and the
    blank's square after each move.

Example: ``write_sliding_page("p.html", [(1, 2, 3, 4, 5, 6, 7, 0, 8), (1, 2, 3, 4, 5, 6,
7, 8, 0)], 3)`` writes a one-move page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .page import PageError, Section, render_page, write_page

MAX_SIDE = 25
MAX_MOVES = 200_000
LEGEND = (
    ("#e9d8a6", "a tile"),
    ("#8fd694", "the tile that just moved"),
    ("#3b82c4", "chart bar: nodes expanded by one IDA* iteration (its f threshold below it)"),
)
BODY = (
    '<div class="row2"><div id="sliding-board" class="tiles" role="grid" aria-label="board">'
    '</div><div class="side"><div id="sliding-controls"></div><div class="counters">'
    '<span>moves <b id="sliding-moves">0</b></span>'
    '<span>tiles out of place <b id="sliding-misplaced">0</b></span>'
    '<span>Manhattan distance to the goal <b id="sliding-manhattan">0</b></span></div>'
    '<div id="sliding-status" class="status" aria-live="polite"></div>'
    '<div id="sliding-chart"></div></div></div>'
)


def _check_board(board: Any, size: int, index: int) -> tuple[int, ...]:
    tiles = tuple(getattr(board, "tiles", board))
    if sorted(tiles) != list(range(size * size)):
        raise PageError(f"board {index} of the path is not a {size}x{size} board (the "
                        f"tiles 0..{size * size - 1} once each): {list(tiles)[:12]}")
    return tiles


def _blank_moves(path: Sequence[Sequence[int]], size: int) -> list[int]:
    """The blank's square after each move; PageError when a step is no blank move."""
    boards = [_check_board(board, size, i) for i, board in enumerate(path)]
    blanks = []
    for i in range(1, len(boards)):
        before, after = boards[i - 1], boards[i]
        b0, b1 = before.index(0), after.index(0)
        near = abs(b0 // size - b1 // size) + abs(b0 % size - b1 % size) == 1
        swapped = list(before)
        swapped[b0], swapped[b1] = swapped[b1], swapped[b0]
        if not near or tuple(swapped) != after:
            raise PageError(f"boards {i - 1} and {i} of the path are not one blank move "
                            "apart")
        blanks.append(b1)
    return blanks


def check_path(path: Sequence[Sequence[int]], size: int) -> list[int]:
    """Validate a path; returns the blank's square after each move."""
    if isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= MAX_SIDE:
        raise PageError(f"the board side must be 2..{MAX_SIDE}, got {size!r}")
    if not path:
        raise PageError("the path is empty: it needs at least the start board")
    if len(path) - 1 > MAX_MOVES:
        raise PageError(f"the path has {len(path) - 1:,} moves; the page shows at most "
                        f"{MAX_MOVES:,}")
    return _blank_moves(path, size)


def sliding_section(path: Sequence[Sequence[int]], size: int,
                    iterations: Sequence[tuple[int, int]] | None = None) -> Section:
    """The animated path, with the IDA* chart when ``iterations`` are given."""
    blanks = check_path(path, size)
    rounds = [[int(t), int(n)] for t, n in (iterations or [])]
    if any(n < 0 for _, n in rounds):
        raise PageError("IDA* iterations need (threshold, nodes) with nodes >= 0")
    start = list(getattr(path[0], "tiles", path[0]))
    data = {"size": size, "start": start, "blanks": blanks, "iterations": rounds}
    legend = LEGEND if rounds else LEGEND[:2]
    return Section(f"{size * size - 1}-puzzle: {len(blanks):,} moves to the goal", BODY,
                   "sliding", data, ("player.js", "sliding.js"), legend)


def write_sliding_page(path: str, solution: Sequence[Sequence[int]], size: int,
                       iterations: Sequence[tuple[int, int]] | None = None,
                       title: str | None = None) -> int:
    """Write the sliding-puzzle page; returns its size in bytes.  PageError (a
    ValueError) for a path that is not one, or a target that cannot be written."""
    section = sliding_section(solution, size, iterations)
    heading = title or f"{size * size - 1}-puzzle: the solution, move by move"
    sub = "The blank slides one square per step" + (
        "; the chart shows the nodes of each IDA* iteration." if iterations else ".")
    return write_page(path, render_page(heading, [section], sub))
