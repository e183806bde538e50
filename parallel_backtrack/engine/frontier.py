"""The parts of a threshold search (``threshold.py``): what a space gives, the frontier
of one iteration, and how an iteration's work is split into tasks.

Glossary
--------
Bounded
    One subtree below one bound: nodes generated, the least f over the bound in
    it, a solution or None.
Part
    The answer of one task: nodes per subtree, the least f over the bound, the
    first solution as (the subtree's offset in the task, solution), and what it
    handed back of the subtree it was asked in (``Rest``), if anything.
ThresholdSpace, CutSpace, Frontier
    The problem's side (see ``threshold.py``): a CutSpace cuts its own frontier
    (usually compiled); any other space gets ``ListFrontier``, a breadth-first
    cut in Python, and ``threshold_tasks.search_budgeted``.
shares
    Relative task sizes, in dispatch order (``task_sizes``); ``pack`` cuts the
    frontier's expected sizes into contiguous ranges that follow them.

Example: ``pack([1, 1, 1, 1], [1, 1])`` is ``[(0, 2), (2, 4)]``.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, NamedTuple, Protocol, runtime_checkable

INFINITE = float("inf")
FEW, TASKS_PER_WORKER = 8, 16  # up to FEW workers: TASKS_PER_WORKER equal tasks each
TAIL = 0.4  # the least share of an iteration's expected work sent in guided tasks


@dataclass(frozen=True, slots=True)
class Bounded:
    """One subtree below one bound: nodes generated, the least f over it, a solution."""

    nodes: int
    next_bound: float
    solution: Any = None


class Part(NamedTuple):
    """Subtrees of one task: nodes each took, the least f over the bound, the first
    solution as (its subtree's offset in the task, solution) or None, and the open
    part of its last subtree when it was asked inside it (``rest``: a ``Rest``) or
    None.  A tuple: a task's result pickles without a dataclass's per-field calls."""

    nodes: list[int]
    next_bound: float
    solution: tuple[int, Any] | None = None
    rest: Any = None


class Rest(Protocol):
    """What a task hands back of the subtree it was asked in: subtree roots in search
    order, ``part(i, j)`` the payload of roots i..j-1 for ``search_part``, ``weights``
    their expected relative sizes."""

    weights: Sequence[float]

    def __len__(self) -> int: ...

    def part(self, start: int, stop: int) -> Any: ...


class ThresholdSpace(Protocol):
    def root(self) -> Any: ...

    def f(self, state: Any) -> float: ...

    def branch(self, state: Any) -> Sequence[Any]: ...

    def is_solution(self, state: Any) -> bool: ...

    def search_below(self, state: Any, bound: float, complete: bool,
                     stop: Callable[[int], bool]) -> Bounded: ...


class Frontier(Protocol):
    nodes: int
    next_bound: float
    solution: Any
    solution_before: int

    def __len__(self) -> int: ...

    def part(self, start: int, stop: int) -> Any: ...

    def weights(self, previous: Any, sizes: Sequence[int]) -> Sequence[float]: ...


@runtime_checkable
class CutSpace(Protocol):
    def cut(self, bound: float, target: int, previous: Any) -> Frontier: ...

    def search_part(self, part: Any, bound: float, complete: bool,
                    stop: Callable[[int], bool]) -> Part: ...


class ListFrontier:
    """The generic frontier: (key, state) pairs of a breadth-first cut in Python."""

    def __init__(self, space: ThresholdSpace, bound: float, target: int) -> None:
        self.nodes, self.next_bound, self.solution, self.solution_before = 0, INFINITE, None, 0
        frontier: list[tuple[tuple[int, ...], Any]] = [((), space.root())]
        while frontier and len(frontier) < target:
            deeper: list[tuple[tuple[int, ...], Any]] = []
            for key, state in frontier:
                for index, child in enumerate(space.branch(state)):
                    self.nodes += 1
                    value = space.f(child)
                    if value > bound:
                        self.next_bound = min(self.next_bound, value)
                    elif space.is_solution(child):
                        self.solution = self.solution or child
                        self.solution_before = len(deeper)
                    else:
                        deeper.append((key + (index,), child))
            frontier = deeper
        self.items = frontier  # a solution met here is not expanded; the rest is

    def __len__(self) -> int:
        return len(self.items)

    def part(self, start: int, stop: int) -> list[Any]:
        return [state for _, state in self.items[start:stop]]

    def weights(self, previous: Any, sizes: Sequence[int]) -> list[float]:
        known = {} if previous is None else dict(zip((k for k, _ in previous.items), sizes))
        found = []
        for key, _ in self.items:
            end = len(key)
            while end >= 0 and key[:end] not in known:
                end -= 1
            found.append(1.0 + (known[key[:end]] if end >= 0 else 0))
        return found


def pack(weights: Sequence[float], shares: Sequence[float]) -> list[tuple[int, int]]:
    """Contiguous ranges of ``weights`` whose totals follow ``shares`` (relative sizes of
    the tasks in order), one range per share at most, none empty.  Each range ends at
    the first subtree whose running total reaches its mark, found by a binary search
    of the running totals."""
    total, whole = float(sum(weights)) or 1.0, float(sum(shares)) or 1.0
    marks, running = [], 0.0
    for share in shares[:-1]:
        running += share
        marks.append(total * running / whole)
    done = list(accumulate(weights))  # the same additions, in the same order, as a loop
    ranges, start, at, last = [], 0, 0, len(done) - 1
    while at < len(marks):
        index = bisect_left(done, marks[at], start)  # the first to reach the mark
        if index >= last:
            break
        ranges.append((start, index + 1))
        start = index + 1
        while at < len(marks) and done[index] >= marks[at]:
            at += 1
    return ranges + [(start, len(done))] if start < len(done) else ranges


def task_sizes(work: float, workers: int, task_cost: float, tail: float = TAIL
               ) -> list[float]:
    """Seconds of work per task, in dispatch order, for ``work`` seconds on ``workers``.

    Up to ``FEW`` workers: ``TASKS_PER_WORKER`` equal tasks per worker (on 2 real
    workers the planned sizes below gave 0.83x against 1.15x for these, interleaved).

    A first wave (one task per worker, or sqrt(work / task_cost) when that is fewer)
    takes a share of the work that grows with what sending it costs (at most
    ``1 - tail``) and shrinks by ``task_cost`` from one task to the next, so the tasks
    the parent sends later end with the earlier ones.  The rest goes in guided tasks,
    each a ``1 / (2 * workers)`` part of what is left, down to ``workers * task_cost``
    (shorter ones the parent could not send as fast as the workers end them): they
    even out the estimates' errors at the end."""
    if workers <= FEW:  # the parent is never the limit: equal tasks, many per worker
        return [work / (TASKS_PER_WORKER * workers)] * (TASKS_PER_WORKER * workers)
    first = max(1, min(workers, round(math.sqrt(work / task_cost))))
    least = workers * task_cost
    share = min(1 - tail, 8 * workers * least / work) if work > 0 else 1.0
    if work / workers < 4 * least:  # too little to even out: one wave
        share = 1.0
    body = work * share
    top = (body + task_cost * first * (first - 1) / 2) / first
    if top - (first - 1) * task_cost <= 0:  # too little work to slope: equal tasks
        sizes = [body / first] * first
    else:
        sizes = [top - i * task_cost for i in range(first)]
    left = work - sum(sizes)
    least = min(least, sizes[-1])  # none longer than the first wave's last: no straggler
    while left > 1e-9 * work and len(sizes) < 32 * workers + first:
        size = min(left, max(share * left / workers, least))
        sizes.append(size)
        left -= size
    if left > 1e-9 * work:
        sizes[-1] += left
    return sizes


def guided_sizes(work: float, workers: int, smallest: int = 4, share: float = 1.0
                 ) -> list[float]:
    """Seconds of work per range of a pulled iteration (``threshold_pulls``), in order:
    each a worker's share of what is left times ``share``, down to
    ``1 / smallest`` of a worker's share of the whole.  The workers take them one after
    another, so the ranges that come last, small, even out the estimates' errors (the
    parent sends none of them: it need not send the shrinking tail a queue does)."""
    least = work / (smallest * workers)
    sizes: list[float] = []
    left = work
    while left > 1e-9 * work and len(sizes) < 64 * workers:
        size = min(left, max(share * left / workers, least))
        sizes.append(size)
        left -= size
    if left > 1e-9 * work and sizes:
        sizes[-1] += left
    return sizes

