"""One result row per puzzle of a file, whatever solved it, and the running totals.

Glossary
--------
status
    ``solved``, ``unsolvable`` (no solution), ``invalid`` (unreadable, or givens
    that contradict each other), ``stopped`` (the search did not finish: the
    deadline passed or Ctrl-C; ``stop_reason`` says which, ``count`` is a lower
    bound and ``solution`` is there if one was found) or ``failed`` (no
    trustworthy answer).
limit
    A count that reached ``--limit K`` stops there: ``count>=K (limit reached)``
    in text, ``"complete": false`` and ``"stop_reason": "limit"`` in JSON, the
    status still ``solved`` (not an error: exit status 0).
result
    ``PuzzleResult``: the entry's index and file line, the status, the solution
    as one line of cells (and as ``cells`` for drawing it), the count when
    counting, the nodes (or decisions) and the seconds.

Example: ``invalid(0, 3, "no puzzle")`` is the row for line 3 of a file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

SOLVED, UNSOLVABLE, INVALID = "solved", "unsolvable", "invalid"
STOPPED, FAILED = "stopped", "failed"
LIMIT = "limit"  # the JSON stop_reason of a count that reached --limit (a lower bound)


def reached_limit(count: int | None, limit: int | None) -> bool:
    """Did a count stop at ``--limit`` (so the puzzle has at least ``count`` solutions)?"""
    return limit is not None and count is not None and count >= limit


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
    stop_reason: str | None = None
    cells: tuple[int, ...] | None = field(default=None, compare=False, repr=False)

    @property
    def complete(self) -> bool:
        return self.stop_reason is None

    def as_json(self, counted: bool = False, limit: int | None = None) -> dict[str, Any]:
        """The JSON Lines object; ``count`` on every object when ``counted`` (null when
        invalid), ``error`` only when invalid or failed, ``stop_reason`` only when
        stopped, or ``"limit"`` (``complete`` false) when a solved puzzle's count
        reached ``limit``."""
        limited = self.status == SOLVED and reached_limit(self.count, limit)
        data: dict[str, Any] = {
            "index": self.index,
            "line": self.line,
            "status": self.status,
            "solution": self.solution,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "complete": self.complete and not limited,
        }
        if counted or self.count is not None:
            data["count"] = self.count
        if self.error is not None:
            data["error"] = self.error
        if self.stop_reason is not None or limited:
            data["stop_reason"] = self.stop_reason or LIMIT
        return data


@dataclass(frozen=True)
class ResultBlock:
    """Puzzles ``first_index``, ``first_index + 1``, ... of a file, each ``solved``
    (``counts > 0``) or ``unsolvable``: their file ``lines``, ``solutions`` (one line of
    cells each; ignored where the count is 0), ``counts`` (1 or 0 when solving),
    ``nodes``, and the ``seconds`` of each (their slice's time per puzzle)."""

    first_index: int
    lines: Sequence[int]
    solutions: Sequence[str]
    counts: Sequence[int]
    nodes: Sequence[int]
    seconds: float
    counted: bool  # counting: each count is the puzzle's (else 1 or 0 for solved or not)

    def __len__(self) -> int:
        return len(self.lines)


def invalid(index: int, line: int, error: object) -> PuzzleResult:
    """The result for an entry that is no puzzle (unreadable or contradictory givens)."""
    return PuzzleResult(index, line, INVALID, error=f"line {line}: {error}")


def wrong_solution(index: int, line: int, count: int | None, nodes: int,
                   seconds: float) -> PuzzleResult:
    """``--verify`` rejected what a solver found: an error, never printed as solved."""
    return PuzzleResult(index, line, FAILED, None, count, nodes, seconds,
                        error=f"line {line}: internal error: the solution found is wrong "
                        "(is_valid_solution disagrees); not printed as solved")


@dataclass
class Summary:
    """Running totals over results."""

    solved: int = 0
    unsolvable: int = 0
    invalid: int = 0
    stopped: int = 0
    failed: int = 0
    nodes: int = 0
    solutions: int = 0

    def add(self, result: PuzzleResult) -> None:
        setattr(self, result.status, getattr(self, result.status) + 1)
        self.nodes += result.nodes
        self.solutions += result.count or 0

    def add_block(self, block: ResultBlock) -> None:
        solved = sum(1 for count in block.counts if count > 0)
        self.solved += solved
        self.unsolvable += len(block) - solved
        self.nodes += int(sum(block.nodes))
        if block.counted:
            self.solutions += int(sum(block.counts))

    @property
    def puzzles(self) -> int:
        return self.solved + self.unsolvable + self.invalid + self.stopped + self.failed

    def text(self, seconds: float, counted: bool) -> str:
        rate = self.puzzles / seconds if seconds > 0 else float("inf")
        counts = f", {self.solutions} solutions counted" if counted else ""
        extra = "".join(f", {name} {getattr(self, name)}" for name in (STOPPED, FAILED)
                        if getattr(self, name))
        return (
            f"solved {self.solved}, unsolvable {self.unsolvable}, invalid {self.invalid}{extra}"
            f" in {seconds:.3f} s ({rate:.1f} puzzles/s), {self.nodes} nodes{counts}"
        )
