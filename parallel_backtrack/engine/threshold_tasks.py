"""The tasks of one dispatched threshold iteration: ranges of the frontier on node budgets.

An iteration's frontier (``frontier.py``) is packed into contiguous ranges of subtrees
(``pack``).  Each task gets a node budget: ``SLACK`` times the nodes its range is
expected to take.  A task stops between two subtrees once its budget is spent and
hands back the range it did not start (the leftover); the parent queues that first
again, in pieces, so a task whose subtrees grew more than predicted is shared out
while other workers would idle.  A subtree is never interrupted by its budget: it is
either searched whole or handed back untouched, so node counts stay exact.

Glossary
--------
weight
    A subtree's expected size, relative (``Frontier.weights``); ``scale`` turns it
    into expected nodes: the larger of the plan's (the iteration's expected nodes over
    the frontier's weight) and the one measured on this iteration's finished tasks.
budget
    The nodes a task may generate before it starts no further subtree.
least
    The least weight worth a task of its own (what the parent can send while the
    workers end theirs); a leftover is cut into pieces no lighter than that, at most
    one per worker.
BudgetSpace
    A ``CutSpace`` whose ``search_part`` takes the budget as a fifth argument.
    ``search_budgeted`` is the same for any other ``ThresholdSpace``.

Example: ``Tasks([1.0] * 8, [(0, 4), (4, 8)], 10.0, 2, 1.0).next()`` is
``(0, 4, 60)``: four subtrees expected at 10 nodes each, times 1.5.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import Any, Protocol

from .frontier import INFINITE, Part, ThresholdSpace, pack

SLACK = 1.5  # a task's budget over its expected nodes
LEAST_BUDGET = 10_000


class BudgetSpace(Protocol):
    def search_part(self, part: Any, bound: float, complete: bool,
                    stop: Callable[[int], bool], budget: int | None = None) -> Part: ...


def search_budgeted(space: ThresholdSpace, states: list[Any], bound: float, complete: bool,
                    stop: Callable[[int], bool], budget: int | None) -> Part:
    """``search_part`` of any space: ``search_below`` each state in turn, starting no
    state once ``budget`` nodes are spent (None: no budget)."""
    nodes: list[int] = []
    least, found, spent = INFINITE, None, 0
    for offset, state in enumerate(states):
        if (not complete and stop(0)) or (budget is not None and offset and spent >= budget):
            break
        result = space.search_below(state, bound, complete, stop)
        nodes.append(result.nodes)
        spent += result.nodes
        least = min(least, result.next_bound)
        if result.solution is not None and found is None:
            found = (offset, result.solution)
            if not complete:
                break
    return Part(nodes, least, found)


class Tasks:
    """The queue of one iteration's ranges, their budgets and the leftovers."""

    def __init__(self, weights: Sequence[float], ranges: list[tuple[int, int]],
                 scale: float, workers: int, least: float) -> None:
        self.weights = weights
        self.cumulative = [0.0, *accumulate(weights)]
        self.queue: deque[tuple[int, int]] = deque(ranges)
        self.prior, self.workers, self.least = scale, workers, least
        self.done_nodes, self.done_weight = 0, 0.0
        self.handed_back = 0

    def __bool__(self) -> bool:
        return bool(self.queue)

    def weight(self, start: int, stop: int) -> float:
        return self.cumulative[stop] - self.cumulative[start]

    def scale(self) -> float:
        """Expected nodes per unit of weight."""
        if self.done_weight > 0:
            return max(self.prior, self.done_nodes / self.done_weight)
        return self.prior

    def next(self) -> tuple[int, int, int]:
        """The next range to send and its budget."""
        start, stop = self.queue.popleft()
        expected = self.scale() * self.weight(start, stop)
        return start, stop, max(LEAST_BUDGET, math.ceil(SLACK * expected))

    def returned(self, start: int, stop: int, nodes: Sequence[int], solved: bool) -> None:
        """A task on ``start..stop`` searched ``len(nodes)`` subtrees; queue the rest
        first (unless ``solved``: a solution that ends the iteration, nothing is owed)."""
        searched = start + len(nodes)
        self.done_nodes += sum(nodes)
        self.done_weight += self.weight(start, searched)
        if solved or searched >= stop:
            return
        self.handed_back += 1
        rest = self.weight(searched, stop)
        pieces = min(stop - searched, self.workers, max(1, int(rest / max(self.least, 1e-12))))
        ranges = pack(self.weights[searched:stop], [1.0] * pieces)
        for first, last in reversed(ranges):
            self.queue.appendleft((searched + first, searched + last))
