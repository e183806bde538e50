"""Cutting a tree into subtrees, and running subtrees under a node budget.

Glossary
--------
subtree
    ``(state, weight)``: everything below ``state``, each solution counted
    ``weight`` times (weights come from a space's symmetric ``count_roots``).
frontier
    An ordered list of subtrees and of solutions met while cutting; the order is
    the sequential depth-first order, so streams stay deterministic.
budget
    Nodes a task may visit before it hands back the unexplored rest of its stack
    (``leftover``) for the scheduler to re-submit.
mode
    ``count`` (add weighted counts), ``first`` (stop at one solution) or ``all``
    (keep solutions, up to ``keep`` of them).

Example: ``expand(space, [(root, 1)], target=100)`` on 8-queens returns the 8
first-row subtrees expanded level by level until at least 100 subtrees exist.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .space import Explored, Space, explore

Subtree = tuple[Any, int]


@dataclass(frozen=True, slots=True)
class Frontier:
    """The result of cutting: subtrees and solutions, both in search order."""

    items: tuple[tuple[bool, Any, int], ...]  # (is_solution_only, state, weight)
    nodes: int
    depth: int

    @property
    def subtrees(self) -> list[Subtree]:
        return [(state, weight) for leaf, state, weight in self.items if not leaf]


@dataclass(frozen=True, slots=True)
class TaskResult:
    """What a worker sends back for one task."""

    count: int
    nodes: int
    solutions: tuple[Any, ...]
    leftover: tuple[Subtree, ...]
    seconds: float
    worker: str


def expand(space: Space[Any], roots: Sequence[Subtree], target: int) -> Frontier:
    """Expand in place, level by level, until ``target`` subtrees exist.

    Each pass works from the right, where the roots handed back by a bounded
    run are the shallowest (the biggest); the order of the items never changes.
    A solution met on the way becomes a solution item (and is still branched,
    in case the space lets solutions have children).
    """
    items: list[tuple[bool, Any, int]] = [(False, s, w) for s, w in roots]
    nodes = depth = 0
    while 0 < _open(items) < target:
        before = _open(items)  # open items still left of (and at) the index
        after = 0  # open items produced right of the index
        grown: list[tuple[bool, Any, int]] = []  # built right to left
        for index in range(len(items) - 1, -1, -1):
            if before + after >= target:
                grown.extend(reversed(items[: index + 1]))
                break
            leaf, state, weight = items[index]
            if leaf:
                grown.append(items[index])
                continue
            before -= 1
            nodes += 1
            children = [(False, child, weight) for child in space.branch(state)]
            if space.is_solution(state):
                children.insert(0, (True, state, weight))
            grown.extend(reversed(children))
            after += len(children) - (1 if children and children[0][0] else 0)
        grown.reverse()
        if grown == items:
            break
        items = grown
        depth += 1
    return Frontier(tuple(items), nodes, depth)


def _open(items: Sequence[tuple[bool, Any, int]]) -> int:
    return sum(1 for leaf, _, _ in items if not leaf)


def worker_label() -> str:
    """Which worker runs this: the process id, plus the thread for thread pools."""
    thread = threading.current_thread()
    if thread is threading.main_thread():
        return f"pid{os.getpid()}"
    return f"pid{os.getpid()}/{thread.name}"


def _explore_one(space: Any, state: Any, mode: str, budget: int, keep: int | None) -> Explored:
    """One root through the space's fast hook if it has one, else the generic path."""
    hook = {"count": "count_below", "first": "first_below"}.get(mode)
    fast = getattr(space, hook, None) if hook else None
    if fast is not None:
        found = fast(state, budget)
        if found is not None:
            return found
    stop_after = 1 if mode == "first" else keep
    return explore(space, [state], budget=budget, stop_after=stop_after, keep=mode != "count")


def run_subtrees(
    space: Any, roots: Sequence[Subtree], mode: str, budget: int, keep: int | None = None
) -> TaskResult:
    """Explore ``roots`` in order, depth-first, within about ``budget`` nodes."""
    started = time.perf_counter()
    count = nodes = 0
    solutions: list[Any] = []
    leftover: list[Subtree] = []
    for index, (state, weight) in enumerate(roots):
        remaining = budget - nodes
        wanted = None if keep is None else keep - len(solutions)
        if remaining <= 0 or (mode == "first" and solutions) or wanted == 0:
            leftover.extend(roots[index:])
            break
        found = _explore_one(space, state, mode, remaining, wanted)
        count += found.count * weight
        nodes += found.nodes
        solutions.extend(found.solutions)
        leftover.extend((s, weight) for s in found.leftover)
    return TaskResult(
        count, nodes, tuple(solutions), tuple(leftover), time.perf_counter() - started,
        worker_label(),
    )
