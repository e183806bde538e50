"""The open part of a paused pass, handed back as new subtree roots: how an asked IDA*
task splits the subtree it is in.

A paused ``Pass`` (``space.py``) is a depth-first stack: at each level the node on
the current path and the moves it has not tried yet (``dirs[level]`` on).  The
moves not tried at the shallow levels are most of what is left of the subtree.
``open_roots`` makes their children (each counts as a node generated, as the kernel
would count it), marks those levels done in the pass, and returns the children
within the bound as ``Roots``; the pass then ends after the last ``KEEP`` levels
below them, which are little work.  Nothing is searched twice or left out, so node
counts stay exact.

Glossary
--------
Roots
    Subtree roots at any depth, in the sequential search's order (the deepest
    level's first), each with its tiles, moves made (g), last move and its path
    from the board; ``part(i, j)`` is what a task carries (see ``space.py``),
    ``weights`` their expected relative sizes (``BRANCHING`` to the power of
    minus their depth).
keep
    Levels at the bottom of the stack that the asked task finishes itself: below
    them lie some ``BRANCHING ** KEEP`` nodes, too few to be worth a task.

Example: ``open_roots(one, tables, 50, ())`` is None for a pass that has not begun.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .kernel import search as kernel
from .tables import Tables

KEEP = 10
BRANCHING = 2.13  # the 15-puzzle's asymptotic branching factor, for weights alone
_kernel: Any = kernel


class Roots:
    """Open subtree roots of one split, in search order (see the glossary)."""

    def __init__(self, tiles: list[np.ndarray], gs: list[int], lasts: list[int],
                 paths: list[tuple[int, ...]]) -> None:
        self.tiles = np.array(tiles, np.int8).tobytes()
        self.gs = np.array(gs, np.int16).tobytes()
        self.lasts = np.array(lasts, np.int8).tobytes()
        self.paths = tuple(bytes(path) for path in paths)
        least = min(gs)
        self.weights = [BRANCHING ** (least - g) for g in gs]

    def __len__(self) -> int:
        return len(self.paths)

    def part(self, start: int, stop: int) -> tuple[bytes, bytes, bytes, tuple[bytes, ...]]:
        size = len(self.tiles) // len(self.paths)
        return (self.gs[2 * start:2 * stop], self.tiles[size * start:size * stop],
                self.lasts[start:stop], self.paths[start:stop])


def open_roots(one: Any, tables: Tables, bound: int, prefix: tuple[int, ...],
               keep: int | None = None) -> tuple[Roots | None, int, int] | None:
    """Split the paused pass ``one`` (below the node whose path is ``prefix``): the
    roots of the untried moves at all but its last ``keep`` levels (None if all of
    them are over the bound), the nodes made for them and the least f over ``bound``
    among them; the pass is left to end after those ``keep`` levels.  None (the pass
    untouched) when nothing is open there, or when one of the children is the goal
    (the pass finds it, in order)."""
    depth = int(one.reg[kernel.DEPTH]) - (KEEP if keep is None else keep)
    if depth < 0:
        return None
    n, neighbors = tables.n, tables.neighbors
    args9, aux = tables.kernel_args()[:9], np.zeros(tables.aux_width(), np.int64)
    tiles = one.start.copy()
    found: list[list[tuple[np.ndarray, int, int, tuple[int, ...]]]] = []
    made, least = 0, kernel.NO_BOUND
    for level in range(depth + 1):
        blank = int(one.blanks[level])
        previous = int(one.path[level - 1]) if level else one.first_move
        g = one.g0 + level + 1
        here = []
        for move in range(int(one.dirs[level]), 4):
            to = int(neighbors[blank * 4 + move])
            if to < 0 or move == 3 - previous:
                continue
            made += 1
            child = tiles.copy()
            child[blank], child[to] = child[to], 0
            h = int(_kernel.initial_h(child, n, *args9, aux))
            if g + h > bound:
                least = min(least, g + h)
            elif h == 0 and _kernel._is_goal(child):
                return None
            else:
                path = prefix + tuple(int(m) for m in one.path[:level]) + (move,)
                here.append((child, g, move, path))
        found.append(here)
        if level < depth:  # down the path to the next level's node
            step = int(neighbors[blank * 4 + int(one.path[level])])
            tiles[blank], tiles[step] = tiles[step], 0
    if made == 0:
        return None
    one.dirs[:depth + 1] = 4  # given away: the pass pops past these levels and ends
    ordered = [root for here in reversed(found) for root in here]
    if not ordered:  # every child over the bound: counted, nothing to hand back
        return None, made, least
    return (Roots([r[0] for r in ordered], [r[1] for r in ordered],
                  [r[2] for r in ordered], [r[3] for r in ordered]), made, least)
