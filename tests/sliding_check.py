"""An independent checker for sliding-puzzle answers: replays blank moves on a plain list.

It shares no code with ``parallel_backtrack.sliding``: the goal, the moves and the
legality of each step are worked out here from scratch.
"""

from __future__ import annotations

import os
import tempfile
from collections import deque
from pathlib import Path

DELTA = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


def goal_of(size: int, goal: str) -> list[int]:
    if goal == "blank-first":
        return list(range(size))
    return list(range(1, size)) + [0]


def replay(tiles: list[int] | tuple[int, ...], moves: str) -> list[int]:
    """The tiles after the blank makes ``moves``; ValueError on an illegal move."""
    cells = list(tiles)
    n = int(round(len(cells) ** 0.5))
    assert n * n == len(cells)
    blank = cells.index(0)
    for step, move in enumerate(moves):
        dr, dc = DELTA[move]
        row, col = blank // n + dr, blank % n + dc
        if not (0 <= row < n and 0 <= col < n):
            raise ValueError(f"move {step} ({move}) leaves the board")
        other = row * n + col
        cells[blank], cells[other] = cells[other], 0
        blank = other
    return cells


def solves(tiles: list[int] | tuple[int, ...], moves: str, goal: str = "blank-last") -> bool:
    return replay(tiles, moves) == goal_of(len(tiles), goal)


def path_is_walk(states: list[tuple[int, ...]], goal: str = "blank-last") -> bool:
    """Consecutive boards differ by one legal blank move and the last one is the goal."""
    for before, after in zip(states, states[1:]):
        n = int(round(len(before) ** 0.5))
        a, b = before.index(0), after.index(0)
        adjacent = abs(a // n - b // n) + abs(a % n - b % n) == 1
        swapped = list(before)
        swapped[a], swapped[b] = swapped[b], 0
        if not adjacent or swapped != list(after):
            return False
    return list(states[-1]) == goal_of(len(states[-1]), goal)


def read_cs61b(path: Path) -> list[int]:
    numbers = [int(w) for w in path.read_text().split()]
    return numbers[1:]


def cs61b_expected(path: Path) -> int:
    """The optimal length in a CS61B file's name (``puzzle4x4-37.txt`` -> 37)."""
    return int(path.stem.split("-")[-1].removeprefix("puzzle"))


# Pattern databases built by the tests go here (kept between runs), never to the user's
# cache; an explicit PARALLEL_BACKTRACK_CACHE wins.
CACHE = os.environ.setdefault("PARALLEL_BACKTRACK_CACHE",
                              os.path.join(tempfile.gettempdir(), "pb-sliding-test-cache"))


def exact_distances(goal: str) -> dict[tuple[int, ...], int]:
    """Every 8-puzzle state's distance from the goal."""
    return distances_from(tuple(goal_of(9, goal)))


def distances_from(start: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """Every state reachable from ``start``, with its distance: a plain BFS written here."""
    dist, queue = {start: 0}, deque([start])
    while queue:
        state = queue.popleft()
        for move in "UDLR":
            try:
                nxt = tuple(replay(state, move))
            except ValueError:
                continue
            if nxt not in dist:
                dist[nxt] = dist[state] + 1
                queue.append(nxt)
    return dist


def manhattan(tiles: tuple[int, ...] | list[int], goal: str = "blank-last") -> int:
    """The sum of every tile's row and column distance to its goal square."""
    n = int(round(len(tiles) ** 0.5))
    home = {t: s for s, t in enumerate(goal_of(len(tiles), goal))}
    return sum(abs(s // n - home[t] // n) + abs(s % n - home[t] % n)
               for s, t in enumerate(tiles) if t)


def ida_iterations(tiles: tuple[int, ...] | list[int],
                   goal: str = "blank-last") -> list[tuple[int, int]]:
    """(bound, children generated) of each IDA* iteration with Manhattan, every
    iteration run to its end (the last one too), never undoing the move just made: a
    plain recursive IDA* written here."""
    target = goal_of(len(tiles), goal)
    rows: list[tuple[int, int]] = []
    bound = manhattan(tiles, goal)
    if list(tiles) == target:
        return rows
    while True:
        over: list[int] = []  # the f of every child past the bound
        count, found = _iteration(list(tiles), 0, "", bound, target, goal, over)
        rows.append((bound, count))
        if found or not over:
            return rows
        bound = min(over)


UNDO = {"U": "D", "D": "U", "L": "R", "R": "L"}


def _iteration(cells: list[int], g: int, last: str, bound: int, target: list[int],
               goal: str, over: list[int]) -> tuple[int, bool]:
    """(children generated below ``cells``, was the goal met within the bound)."""
    n = int(round(len(cells) ** 0.5))
    count, found = 0, False
    for move in "UDLR":
        if last and move == UNDO[last]:
            continue
        blank = cells.index(0)
        row, col = blank // n + DELTA[move][0], blank % n + DELTA[move][1]
        if not (0 <= row < n and 0 <= col < n):
            continue
        child = list(cells)
        child[blank], child[row * n + col] = child[row * n + col], 0
        count += 1
        f = g + 1 + manhattan(child, goal)
        if f > bound:
            over.append(f)
        elif child == target:
            found = True
        else:
            below, met = _iteration(child, g + 1, move, bound, target, goal, over)
            count, found = count + below, found or met
    return count, found
