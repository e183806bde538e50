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
    (``leftover``) for the scheduler to re-submit.  A task can also have a time
    budget (``seconds``) and a shared ``stop`` flag; whichever comes first ends it.
untouched
    Roots given to a task that it never started (the last ones): they come back
    at the end of ``leftover`` and the scheduler treats them as it did before.
allowance
    A task's budgets while it runs: what is left, and how many nodes the next
    call of a compiled hook may take (hooks only know node budgets, so a time
    budget is turned into nodes with the rate measured so far).
task
    ``worker.run_task(handle, roots, ...)``, what a worker runs: the space behind
    the handle (loaded and its kernels warmed once per process), then
    ``run_subtrees``.
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
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import hooks
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
    found_at: float | None = None  # wall clock (time.time) of the first solution found
    setup_seconds: float = 0.0  # loading the space and warming its kernels (first task only)
    untouched: int = 0  # the last this many leftover roots are given roots never started
    started_at: float | None = None  # wall clock (time.time) when the task began

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as a plain tuple: a slotted dataclass's default state goes through
        ``dataclasses.fields`` on both ends (some 20 us per result in the parent)."""
        return (TaskResult, (self.count, self.nodes, self.solutions, self.leftover,
                             self.seconds, self.worker, self.found_at, self.setup_seconds,
                             self.untouched, self.started_at))


def expand(space: Space[Any], roots: Sequence[Subtree], target: int, *,
           seconds: float | None = None, least: int = 1) -> Frontier:
    """Expand in place, level by level, until ``target`` subtrees exist.

    Each pass works from the right, where the roots handed back by a bounded
    run are the shallowest (the biggest); the order of the items never changes.
    A solution met on the way becomes a solution item (and is still branched,
    in case the space lets solutions have children).  A space with a
    ``branch_all`` hook branches the states a pass is about to reach in batches.
    With ``seconds``, the expansion stops once it has taken that much of this
    thread's CPU time and at least ``least`` subtrees exist, in the middle of a pass
    if need be (the items left of it stay a level higher: the frontier's front holds
    the bigger subtrees, dispatched first): where branching is dear the cut stays
    short, and budgets and leftovers share the work out.
    """
    items: list[tuple[bool, Any, int]] = [(False, s, w) for s, w in roots]
    branches = _Branches(space, timed=seconds is not None)
    nodes = depth = 0
    started = time.thread_time()
    limit = float("inf") if seconds is None else started + seconds
    while 0 < _open(items) < target:
        if time.thread_time() >= limit and _open(items) >= least:
            break
        before = _open(items)  # open items still left of (and at) the index
        after = 0  # open items produced right of the index
        grown: list[tuple[bool, Any, int]] = []  # built right to left
        for index in range(len(items) - 1, -1, -1):
            if before + after >= target or (before + after >= least
                                            and time.thread_time() >= limit):
                grown.extend(reversed(items[: index + 1]))
                break
            leaf, state, weight = items[index]
            if leaf:
                grown.append(items[index])
                continue
            before -= 1
            nodes += 1
            wanted = target - before - after  # about how many more this pass branches
            children = [(False, child, weight) for child in branches.of(items, index, wanted)]
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


class _Branches:
    """The children of the states ``expand`` reaches, right to left.  Without a
    ``branch_all`` hook each state is branched when reached; with one, the open
    states up to ``wanted`` to its left go in the same call (at most
    ``LARGEST_TIMED_BATCH`` when the expansion is ``timed``, so that it can stop
    between calls: a 9x9 Sudoku branches 512 states in some 5 ms), and those a pass
    does not reach wait for the next (the same state objects stay in the items)."""

    SMALLEST_BATCH = 8
    LARGEST_TIMED_BATCH = 64

    def __init__(self, space: Space[Any], timed: bool = False) -> None:
        self.space = space
        self.largest = self.LARGEST_TIMED_BATCH if timed else None
        self.batch: Callable[[Sequence[Any]], Sequence[Sequence[Any]] | None] | None = (
            hooks.of(space).branch_all)
        self.known: dict[int, tuple[Any, Sequence[Any]]] = {}

    def of(self, items: Sequence[tuple[bool, Any, int]], index: int,
           wanted: int) -> Sequence[Any]:
        state = items[index][1]
        found = self.known.pop(id(state), None)
        if found is not None and found[0] is state:
            return found[1]
        if self.batch is not None:
            states, size = [], max(self.SMALLEST_BATCH, wanted)
            if self.largest is not None:
                size = min(size, self.largest)
            for at in range(index, -1, -1):
                leaf, other, _ = items[at]
                if not leaf and id(other) not in self.known:
                    states.append(other)
                    if len(states) >= size:
                        break
            children = self.batch(states)
            if children is not None:
                for other, below in zip(states[1:], children[1:]):
                    self.known[id(other)] = (other, below)
                return children[0]
            self.batch = None  # the space branches one by one after all
        return list(self.space.branch(state))


def _open(items: Sequence[tuple[bool, Any, int]]) -> int:
    return sum(1 for leaf, _, _ in items if not leaf)


def worker_label() -> str:
    """Which worker runs this: the process id, plus the thread for thread pools."""
    thread = threading.current_thread()
    if thread is threading.main_thread():
        return f"pid{os.getpid()}"
    return f"pid{os.getpid()}/{thread.name}"


class Allowance:
    """What a task may still spend: nodes, time until a deadline, and a stop flag."""

    # The first hook call under a time budget, to measure the rate (a few ms at most).
    FIRST_CHUNK = 20_000

    def __init__(self, nodes: int | None, seconds: float | None = None, stop: Any = None) -> None:
        self.started = time.perf_counter()
        self.nodes = nodes
        self.deadline = None if seconds is None else self.started + seconds
        self.stop = stop

    def interrupted(self) -> bool:
        """The deadline passed or the run was stopped (asked now and then, not per node)."""
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            return True
        return self.stop is not None and self.stop.is_set()

    def over(self, spent: int) -> bool:
        """Out of nodes, interrupted, or asked for the rest (``handback``: once some
        nodes are searched, so that every ask makes progress)."""
        if (self.nodes is not None and spent >= self.nodes) or self.interrupted():
            return True
        asked = getattr(self.stop, "asked", None)
        return spent > 0 and asked is not None and asked()

    def until(self) -> Any:
        """The ``until`` check for the generic search, or None when only nodes count."""
        return None if self.deadline is None and self.stop is None else self.interrupted

    def chunk(self, spent: int, watched: bool = False) -> int:
        """Nodes for the next compiled-hook call.

        Without a time budget that is all the nodes left: the node budget already
        bounds a call to a few tens of milliseconds.  With one, the rate measured
        so far (re-entry costs included) turns the time left into nodes.  Either way
        at most the stop's ``step`` when it has one: a task that may be asked for its
        rest looks between calls (``handback``), unless the hook looks itself
        (``watched``).
        """
        left = None if self.nodes is None else max(1, self.nodes - spent)
        # An askable task looks between calls, unless the hook watches its slot.
        step = None if watched else getattr(self.stop, "step", None)
        if step is not None:
            left = step if left is None else min(left, step)
        if self.deadline is None:
            return left if left is not None else 2**62
        now = time.perf_counter()
        elapsed = now - self.started
        if spent == 0 or elapsed <= 0:
            by_time = self.FIRST_CHUNK
        else:
            by_time = max(1000, int(spent / elapsed * (self.deadline - now)))
        return by_time if left is None else min(left, by_time)


Hook = Callable[[Any, int], "Explored | None"]


def fast_hook(space: Any, mode: str) -> Hook | None:
    """The hook that runs one root in ``mode`` (none for ``all``: it keeps every
    solution, which the kernels do not hand back)."""
    if mode == "count":
        return hooks.of(space).count_below
    if mode == "first":
        return hooks.of(space).first_below
    return None


# The most roots one ``count_many`` call is given (all are turned into the kernel's
# rows; the budget may stop it after a few).
MANY = 64


def _count_many(many: Callable[..., tuple[Explored, int] | None], queue: deque[Subtree],
                allowance: Allowance, spent: int, untouched: int,
                watch: tuple[Any, int, int] | None) -> tuple[int, int, int] | None:
    """Count the roots at the head of ``queue`` that share the first one's weight in
    one call of the space's ``count_many`` (which looks at ``watch`` itself: no
    shorter calls for an askable task); their open rest goes back to the head.
    Returns the weighted count, the nodes and how many given roots are still
    untouched; None when the space declines (the queue is as it was)."""
    weight, size = queue[0][1], len(queue)
    states: list[Any] = []
    while queue and queue[0][1] == weight and len(states) < MANY:
        states.append(queue.popleft()[0])
    got = many(states, allowance.chunk(spent, watched=watch is not None), watch)
    if got is None:
        queue.extendleft((state, weight) for state in reversed(states))
        return None
    found, begun = got
    rest = [*found.leftover, *states[begun:]]
    queue.extendleft((state, weight) for state in reversed(rest))
    # The untouched roots are the queue's last ``untouched``: those begun now are not.
    untouched -= max(0, begun - (size - untouched))
    return found.count * weight, found.nodes, untouched


def _explore_one(space: Any, state: Any, mode: str, allowance: Allowance, spent: int,
                 keep: int | None, fast: Hook | None) -> Explored:
    """One root through the space's fast hook if it offers one, else the generic path."""
    if fast is not None:
        found = fast(state, allowance.chunk(spent))
        if found is not None:
            return found
    stop_after = 1 if mode == "first" else keep
    budget = None if allowance.nodes is None else allowance.nodes - spent
    return explore(space, [state], budget=budget, stop_after=stop_after, keep=mode != "count",
                   until=allowance.until())


def run_subtrees(
    space: Any, roots: Sequence[Subtree], mode: str, budget: int | None,
    keep: int | None = None, *, seconds: float | None = None, stop: Any = None,
) -> TaskResult:
    """Explore ``roots`` in order, depth-first, within about ``budget`` nodes.

    With ``seconds`` the task also ends at that time budget, and with ``stop`` as
    soon as the flag is raised (checked between hook calls and every few hundred
    generic nodes); the rest comes back as ``leftover``, in search order.
    """
    allowance = Allowance(budget, seconds, stop)
    began = time.time()
    fast = fast_hook(space, mode)
    many = hooks.of(space).count_many if mode == "count" and fast is not None else None
    watch = stop.watch() if many is not None and hasattr(stop, "watch") else None
    count = nodes = 0
    solutions: list[Any] = []
    found_at = None
    queue: deque[Subtree] = deque(roots)
    untouched = len(queue)  # given roots not started yet: always the queue's tail
    while queue:
        wanted = None if keep is None else keep - len(solutions)
        if allowance.over(nodes) or (mode == "first" and solutions) or wanted == 0:
            break
        if many is not None:
            counted = _count_many(many, queue, allowance, nodes, untouched, watch)
            if counted is not None:
                count, nodes, untouched = count + counted[0], nodes + counted[1], counted[2]
                continue
            many = None  # the space declined: one root at a time
        untouched -= len(queue) == untouched
        state, weight = queue.popleft()
        found = _explore_one(space, state, mode, allowance, nodes, wanted, fast)
        count += found.count * weight
        nodes += found.nodes
        if found.solutions:
            solutions.extend(found.solutions)
            found_at = found_at or time.time()
        # The unexplored rest of this root comes first: it precedes the later roots.
        queue.extendleft((s, weight) for s in reversed(found.leftover))
    return TaskResult(
        count, nodes, tuple(solutions), tuple(queue), time.perf_counter() - allowance.started,
        worker_label(), found_at, untouched=untouched, started_at=began,
    )
