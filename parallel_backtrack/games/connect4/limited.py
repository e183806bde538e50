"""Pons' solve on one worker with a time limit: the probes' range when time runs out.

The compiled ``solve`` runs every null-window probe inside the kernel and cannot be
stopped.  Here the same probes run one by one from Python (``Solver.window``), each
watching one slot that a deadline closes: the kernel looks at it every 1,024 nodes
and returns, and the answer is the range of scores the finished probes left.  With
no deadline reached the score, the nodes and the table's contents are those of
``Solver.solve``.

Glossary
--------
range
    ``[low, high]``: the scores the probes answered so far have not excluded (for
    ``weak``: -1, 0 or +1); the solve is complete when ``low == high``.
deadline
    A ``time.perf_counter()`` value; when it passes, the running probe stops at its
    next look and no other starts.
move scores
    ``analyze_until``: each playable column's score, solved one after another until
    the deadline; the columns not reached are left out.

Example: ``solve_until(Solver(Board()), Board().parse("4453"), False, None)`` gives
``Limited(low, high, nodes)`` with ``low == high`` the score.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...engine.window import UNBOUNDED
from .board import Position
from .kernel.scores import loss_score, win_score
from .kernel.search import U64, can_win_next, probe_point
from .solver import OnScore, Solver, in_thread, move_scores


@dataclass(frozen=True)
class Limited:
    """The range of scores left and the nodes searched."""

    low: int
    high: int
    nodes: int

    @property
    def complete(self) -> bool:
        """The range is one score."""
        return self.low == self.high


def solve_until(solver: Solver, position: Position, weak: bool, deadline: float | None,
                on_probe: Callable[[int, int], None] | None = None) -> Limited:
    """The solve's probes until ``deadline`` (None: to the end), in a thread that a
    Ctrl-C does not wait for (see ``solver.in_thread``); ``on_probe(low, high)``: the
    range before the first probe and after each one answered (from that thread)."""
    watch = np.full(1, -UNBOUNDED, np.int64)  # slot 0: closed (raised) at the deadline

    def close() -> None:
        watch[0] = UNBOUNDED

    found: Limited = in_thread(_probes, solver, position, weak, watch, on_probe,
                               deadline=deadline, at_deadline=close)
    return found


def _probes(solver: Solver, position: Position, weak: bool, watch: np.ndarray,
            on_probe: Callable[[int, int], None] | None) -> Limited:
    board = solver.board
    if position.moves >= board.cells:
        return Limited(0, 0, 0)
    if can_win_next(U64(position.current), U64(position.mask), board.height,
                    U64(board.bottom), U64(board.full)):
        score = 1 if weak else win_score(board.cells, position.moves)
        return Limited(score, score, 0)
    low, high = (-1, 1) if weak else (loss_score(board.cells, position.moves),
                                      win_score(board.cells, position.moves))
    slots, signs, nodes = np.zeros(1, np.int64), np.ones(1, np.int64), 0
    if on_probe is not None:
        on_probe(low, high)
    while low < high:
        med = probe_point(low, high)
        value, spent, stopped = solver.window(position, med, med + 1,
                                              (watch, slots, signs, med, med + 1))
        nodes += spent
        if stopped:
            break
        if value <= med:
            high = value
        else:
            low = value
        if on_probe is not None:
            on_probe(low, high)
    if weak:
        low, high = (low > 0) - (low < 0), (high > 0) - (high < 0)
    return Limited(low, high, nodes)


def analyze_until(solver: Solver, position: Position, weak: bool,
                  deadline: float | None, on_score: OnScore | None = None,
                  ) -> tuple[dict[int, int], bool]:
    """The score of each playable column (1-based) solved before ``deadline``, and
    whether every column was (with no deadline, ``Solver.analyze``: compiled);
    ``on_score(column, score)`` as each is found."""
    if deadline is None:
        return solver.analyze(position, weak, on_score), True

    def solved(after: Position) -> int | None:
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        found = solve_until(solver, after, weak, deadline)
        return found.low if found.complete else None

    return move_scores(solver.board, position, weak, solved, on_score)
