"""The lab's abstract metrics: what an ideal task-parallel run of a search costs.

The task-parallel lab this package ports spawns one ``async`` task per valid
child of a state, inside one ``finish``, and asks its runtime for abstract
metrics: the total work and the critical path, counted in unit-cost nodes.

Glossary
--------
tasks
    Tasks spawned: one per valid child, so every node but the root.
work (T1)
    Nodes visited, the root included: the time of one worker, in nodes.
span (T_inf)
    Nodes on the longest root-to-leaf path: the time of infinitely many
    workers, since a child cannot start before its parent has made it.
parallelism
    ``work / span``: the most workers that can be kept busy on average.  Any
    schedule on P workers needs at least ``max(work / P, span)`` steps, so the
    speedup is at most ``min(P, parallelism)`` (``speedup_bound``).

Example: 4-queens, first-available row: 16 tasks, work 17, span 5 (the root and
one queen per row, n + 1), parallelism 3.4 and 2 solutions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .arguments import check_count
from .space import Space


class TooManyNodesError(ValueError):
    """The walk would visit more nodes than the caller allowed."""


@dataclass(frozen=True, slots=True)
class Metrics:
    """Tasks, work, span and solutions of one tree; parallelism follows."""

    tasks: int
    work: int
    span: int
    solutions: int

    @property
    def parallelism(self) -> float:
        return self.work / self.span if self.span else 0.0

    def speedup_bound(self, workers: int) -> float:
        """The best speedup any schedule on ``workers`` can reach: ``min(P, work/span)``."""
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        return self.work / max(self.work / workers, self.span)

    def as_dict(self) -> dict[str, Any]:
        return {"tasks": self.tasks, "work": self.work, "span": self.span,
                "parallelism": round(self.parallelism, 3), "solutions": self.solutions}


def metrics(space: Space[Any], *, max_nodes: int | None = None) -> Metrics:
    """Walk the whole tree once (generic path) and measure it in the lab's terms.

    ``max_nodes`` guards against walking a tree far too large for Python: past
    it a ``TooManyNodesError`` says how far the walk got.
    """
    check_count("max_nodes", max_nodes)
    stack: list[tuple[Any, int]] = [(space.root(), 1)]
    work = span = solutions = 0
    while stack:
        state, depth = stack.pop()
        work += 1
        if max_nodes is not None and work > max_nodes:
            raise TooManyNodesError(
                f"the tree has more than max_nodes = {max_nodes:,} nodes; the metrics walk "
                "visits every node in Python, so use a smaller instance")
        span = max(span, depth)
        if space.is_solution(state):
            solutions += 1
        stack.extend((child, depth + 1) for child in space.branch(state))
    return Metrics(tasks=work - 1, work=work, span=span, solutions=solutions)
