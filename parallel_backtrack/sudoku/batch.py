"""Many puzzles at once: one result per file entry, split across processes by joblib.

Glossary
--------
entry
    One puzzle read from a file, or the reason it could not be read
    (``formats.PuzzleEntry``).
job
    What to do with each entry: order, propagation, and whether to count.
result
    One ``PuzzleResult`` per entry, in file order: ``status`` is ``solved``,
    ``unsolvable`` (no solution) or ``invalid`` (unreadable, or givens that
    contradict each other), with the solution as one line of cells, the count
    when counting, the nodes visited and the seconds.
workers
    joblib's ``n_jobs``: 1 solves in this process, -1 uses every core.  Puzzles
    go to the workers in batches (joblib's ``batch_size="auto"``); each puzzle
    is searched on one worker, so answers do not depend on the worker count.

Example: ``list(solve_entries(read_puzzles("top95.txt"), Job()))`` gives 95
results, all ``solved``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .formats import PuzzleEntry
from .puzzle import ImmutableSudokuPuzzle, InvalidPuzzleError
from .search import search

SOLVED, UNSOLVABLE, INVALID = "solved", "unsolvable", "invalid"


@dataclass(frozen=True, slots=True)
class Job:
    """How to search each puzzle."""

    order: str = "fewest"
    propagation: str = "units"
    count: bool = False
    limit: int | None = None


@dataclass(frozen=True, slots=True)
class PuzzleResult:
    """The answer for one file entry."""

    index: int
    line: int
    status: str
    solution: str | None = None
    count: int | None = None
    nodes: int = 0
    seconds: float = 0.0
    error: str | None = None

    def as_json(self, counted: bool = False) -> dict[str, Any]:
        """The JSON Lines object; ``count`` on every object when ``counted`` (null when
        invalid), ``error`` only when invalid."""
        data: dict[str, Any] = {
            "index": self.index,
            "line": self.line,
            "status": self.status,
            "solution": self.solution,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }
        if counted or self.count is not None:
            data["count"] = self.count
        if self.error is not None:
            data["error"] = self.error
        return data


def solve_entry(
    index: int, entry: PuzzleEntry, job: Job, *, workers: int = 1
) -> PuzzleResult:
    """Search one entry; unreadable or contradictory givens give an ``invalid`` result."""
    if entry.cells is None:
        return PuzzleResult(index, entry.line, INVALID, error=f"line {entry.line}: {entry.error}")
    try:
        puzzle = ImmutableSudokuPuzzle(entry.cells, job.propagation)
    except InvalidPuzzleError as error:
        return PuzzleResult(index, entry.line, INVALID, error=f"line {entry.line}: {error}")
    outcome = search(puzzle, job.order, count=job.count, limit=job.limit, workers=workers)
    return PuzzleResult(
        index,
        entry.line,
        SOLVED if outcome.solution is not None else UNSOLVABLE,
        solution=None if outcome.solution is None else outcome.solution.line(),
        count=outcome.count,
        nodes=outcome.nodes,
        seconds=outcome.seconds,
    )


def _solve_in_parallel(
    entries: Sequence[PuzzleEntry], job: Job, workers: int
) -> Iterator[PuzzleResult]:
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=workers, return_as="generator", batch_size="auto")
    yield from parallel(delayed(solve_entry)(i, entry, job) for i, entry in enumerate(entries))


def solve_entries(
    entries: Sequence[PuzzleEntry], job: Job, *, workers: int = 1, progress: bool = False
) -> Iterator[PuzzleResult]:
    """One result per entry, in order; a tqdm bar on stderr with ``progress``."""
    if workers == 1:
        results: Iterator[PuzzleResult] = (
            solve_entry(i, entry, job) for i, entry in enumerate(entries)
        )
    else:
        results = _solve_in_parallel(entries, job, workers)
    if not progress:
        yield from results
        return
    from tqdm import tqdm

    with tqdm(total=len(entries), unit="puzzle", file=sys.stderr, leave=False) as bar:
        for result in results:
            bar.update(1)
            yield result


@dataclass
class Summary:
    """Running totals over results."""

    solved: int = 0
    unsolvable: int = 0
    invalid: int = 0
    nodes: int = 0
    solutions: int = 0

    def add(self, result: PuzzleResult) -> None:
        setattr(self, result.status, getattr(self, result.status) + 1)
        self.nodes += result.nodes
        self.solutions += result.count or 0

    @property
    def puzzles(self) -> int:
        return self.solved + self.unsolvable + self.invalid

    def text(self, seconds: float, counted: bool) -> str:
        rate = self.puzzles / seconds if seconds > 0 else float("inf")
        counts = f", {self.solutions} solutions counted" if counted else ""
        return (
            f"solved {self.solved}, unsolvable {self.unsolvable}, invalid {self.invalid}"
            f" in {seconds:.3f} s ({rate:.1f} puzzles/s), {self.nodes} nodes{counts}"
        )
