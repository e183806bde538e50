"""Following one position's solve: what it has found so far (for a Ctrl-C) and its
progress bar.

Glossary
--------
found
    ``Found``: one position's answer: the range of scores left (one score unless the
    solve stopped early), the solve's nodes and seconds, the score of each column
    scored, and whether all of it was.
phases
    The solve's null-window probes narrow the range of scores (``update(low,
    high)``); once it is one score (``solved``) each playable column is scored in
    turn (``scored(column, score)``).
known
    ``Known``: what the phases have reported so far; ``found()`` is what a Ctrl-C
    prints: the range, or the score and the columns scored by then.
bar
    ``ScoreBar``: on stderr, a bar over the range of scores the probes have not
    excluded, then one over the columns scored (``3/7 columns``, their scores beside
    it).

Example: ``Known.before(board, position, False)``, then ``update(-2, 5)``: a Ctrl-C
now prints ``score between -2 and +5 ... (partial: interrupted)``.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Any

from .board import Board, Position


@dataclass(frozen=True)
class Found:
    """One position's solve: the range of scores left (one score unless time ran out),
    nodes, seconds, the scores of the moves solved (and their seconds, apart: each
    column is a search of its own), and whether all of it was; on a pool, the tasks
    sent and the parent's own seconds a task (``ParallelSolve``)."""

    low: int
    high: int
    nodes: int | None  # None: not known (a Ctrl-C during the probes)
    seconds: float
    moves: dict[int, int]
    complete: bool
    tasks: int = 0
    task_cost: float = 0.0
    stop_reason: str | None = None  # when not complete: "timeout" or "interrupted"
    scoring_seconds: float | None = None  # the move scores' time (None: none scored)


@dataclass
class Known:
    """What a solve has found so far, for a Ctrl-C: the range of scores the finished
    probes left (``update`` is their ``on_probe``), then the solve's score, nodes and
    seconds (``solved``) and the columns scored (``scored``); when it started."""

    low: int
    high: int
    weak: bool
    started: float
    nodes: int | None = None  # the solve's, once it finished
    seconds: float | None = None
    scoring: float | None = None  # when the columns began to be scored
    moves: dict[int, int] = field(default_factory=dict)

    @staticmethod
    def before(board: Board, position: Position, weak: bool) -> Known:
        """Every score the position's stone count allows: nothing probed yet."""
        from .kernel.scores import loss_score, win_score

        if weak:
            return Known(-1, 1, weak, time.perf_counter())
        cells, plies = board.cells, position.moves
        return Known(loss_score(cells, plies), win_score(cells, plies), weak,
                     time.perf_counter())

    def update(self, low: int, high: int) -> None:
        self.low, self.high = low, high

    def solved(self, solve: Found, columns: int) -> None:
        """The solve is done (``solve``: its score, nodes, seconds); the ``columns``
        playable are scored next."""
        self.low, self.high = solve.low, solve.high
        self.nodes, self.seconds = solve.nodes, solve.seconds
        self.scoring = time.perf_counter()

    def scored(self, column: int, score: int) -> None:
        self.moves[column] = score

    def found(self) -> Found:
        """The interrupted solve's ``Found``: its range (no nodes) while the probes ran;
        once it was solved, its score, nodes and seconds and the columns scored."""
        low, high = self.low, self.high
        if self.weak:
            low, high = (low > 0) - (low < 0), (high > 0) - (high < 0)
        now = time.perf_counter()
        seconds = now - self.started if self.seconds is None else self.seconds
        scoring = None if self.scoring is None else now - self.scoring
        return Found(low, high, self.nodes, seconds, dict(self.moves), False,
                     stop_reason="interrupted", scoring_seconds=scoring)


# The scores excluded so far of all the range allows, the time, the range left.
BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {elapsed} {postfix}"
# The columns scored of those playable, the time, their scores.
MOVES_FORMAT = "{desc}: {n}/{total} columns|{bar}| {elapsed} {postfix}"


class ScoreBar:
    """A tqdm bar on stderr over the range of scores the probes have not excluded: it
    fills as the range narrows to one score; then one over the columns scored."""

    def __init__(self) -> None:
        self._bar: Any = None
        self._moves: list[str] = []

    @staticmethod
    def wanted(progress: bool | None) -> ScoreBar | None:
        """A bar when asked, or (None) when stderr is a terminal."""
        from ...engine.progress import wanted

        return ScoreBar() if wanted(progress) else None

    def update(self, low: int, high: int) -> None:
        if self._bar is None:
            self._bar = _tqdm(desc="probes", total=high - low + 1, bar_format=BAR_FORMAT)
        self._bar.update(self._bar.total - (high - low + 1) - self._bar.n)
        self._bar.set_postfix_str(f"score in [{low:+d}, {high:+d}]")

    def solved(self, solve: Found, columns: int) -> None:
        self.close()
        # Every column shows: they are few, and each may take seconds.
        self._bar = _tqdm(desc="move scores", total=columns, bar_format=MOVES_FORMAT,
                          mininterval=0)

    def scored(self, column: int, score: int) -> None:
        self._moves.append(f"{column}:{score:+d}")
        self._bar.set_postfix_str(" ".join(self._moves), refresh=False)
        self._bar.update(1)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def _tqdm(**options: Any) -> Any:
    from tqdm import tqdm  # type: ignore[import-untyped]

    return tqdm(file=sys.stderr, leave=False, **options)


class Watchers:
    """The ``Known`` and the bar of one solve, told the same news."""

    def __init__(self, *watchers: Known | ScoreBar | None) -> None:
        self.watchers = [w for w in watchers if w is not None]

    def update(self, low: int, high: int) -> None:
        for watcher in self.watchers:
            watcher.update(low, high)

    def solved(self, solve: Found, columns: int) -> None:
        for watcher in self.watchers:
            watcher.solved(solve, columns)

    def scored(self, column: int, score: int) -> None:
        for watcher in self.watchers:
            watcher.scored(column, score)
