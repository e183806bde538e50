"""Helpers for the viz tests: the headless Chromium and a loaded page, puzzles with
known answers, independent checkers, replays of the recorded traces, and valid
sliding paths."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

# The system's Chromium, and the flags that let it run headless here as root with no
# background traffic.
CHROMIUM = next((p for p in (os.environ.get("CHROMIUM"), shutil.which("chromium"),
                             shutil.which("chromium-browser"), "/usr/bin/chromium")
                 if p and os.path.exists(p)), None)
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium per test module (the module imports this fixture)."""
    playwright_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright for Python is not installed (test extra)")
    if CHROMIUM is None:
        pytest.skip("no Chromium found (install the Debian package chromium)")
    with playwright_api.sync_playwright() as play:
        chromium = play.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield chromium
        chromium.close()


class LoadedPage:
    """A page loaded from a file, with the errors it logged and what it asked for."""

    def __init__(self, browser, path: Path, width: int = 1280) -> None:
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page = browser.new_page(viewport={"width": width, "height": 800})
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: r.url.startswith("file://")
                     or self.requests.append(r.url))
        self.page.goto(path.as_uri())

# Norvig's "hardest" (one solution) and a Gecode 16x16 puzzle (one solution).
HARDEST = "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4."
GECODE16 = (
    "D92.....G...43..4CF.....9D.2.6EB.E.1....F.8BC..AG56.....A3C....1.7G5A8....61....2"
    "...C....B7.......AE.964..G......F9.5.7.4............29....A.C..........645D.1......"
    "D....1.C.B7F.....E.C2G...8A9B..9.G52.....EF6.256..F.....D.B.E13.6.D........7A...8BC"
    "3....954."
)
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def queens_ok(cols: list[int]) -> bool:
    """n non-attacking queens, one per row (columns by row)."""
    n = len(cols)
    return (sorted(cols) == list(range(n))
            and len({r + c for r, c in enumerate(cols)}) == n
            and len({r - c for r, c in enumerate(cols)}) == n)


def sudoku_ok(givens: list[int], cells: list[int]) -> bool:
    """Every unit a permutation of 1..n and every given kept."""
    n = int(round(len(cells) ** 0.5))
    box = int(round(n ** 0.5))
    want = set(range(1, n + 1))
    rows = [cells[r * n:(r + 1) * n] for r in range(n)]
    cols = [cells[c::n] for c in range(n)]
    boxes = [[cells[(br + i) * n + bc + j] for i in range(box) for j in range(box)]
             for br in range(0, n, box) for bc in range(0, n, box)]
    return (all(set(u) == want for u in rows + cols + boxes)
            and all(g in (0, c) for g, c in zip(givens, cells)))


def queens_boards(data: dict) -> list[list[int]]:
    """The board after every step of a recorded N-Queens trace, replayed."""
    now, boards = [-1] * data["n"], []
    for kind, row, col in zip(data["kinds"], data["rows"], data["cols"]):
        if kind == "p":
            now[row] = col
        elif kind == "b":
            assert now[row] == col, "a backtrack takes away the queen that stands there"
            now[row] = -1
        boards.append(list(now))
    return boards


def sudoku_states(data: dict) -> list[list[int]]:
    """The candidate masks after every step of a recorded Sudoku trace, replayed."""
    masks, states = list(data["start"]), []
    for kind, extra, text in zip(data["kinds"], data["extra"], data["elims"]):
        masks = list(states[extra[0]]) if kind == "back" else list(masks)
        for k in range(0, len(text), 4):
            square = DIGITS.index(text[k]) * 36 + DIGITS.index(text[k + 1])
            bit = 1 << DIGITS.index(text[k + 2])
            assert masks[square] & bit, "a candidate is removed only once"
            masks[square] &= ~bit
        states.append(masks)
    return states


def cells_of(masks: list[int]) -> list[int]:
    return [m.bit_length() if m and not m & (m - 1) else 0 for m in masks]


def random_path(size: int, moves: int, seed: int,
                blank_first: bool = False) -> list[tuple[int, ...]]:
    """A solution path: a random walk of the blank from the goal, reversed."""
    rng = random.Random(seed)
    board = list(range(size * size)) if blank_first else list(range(1, size * size)) + [0]
    path = [tuple(board)]
    for _ in range(moves):
        z = board.index(0)
        r, c = divmod(z, size)
        steps = [z + d for d, ok in ((-size, r > 0), (size, r < size - 1), (-1, c > 0),
                                     (1, c < size - 1)) if ok]
        t = rng.choice(steps)
        board[z], board[t] = board[t], board[z]
        path.append(tuple(board))
    return path[::-1]
