"""The parent's queue of work, and the policies that pick the next task from it.

Glossary
--------
work
    ``Work(key, roots)``: subtrees waiting to be run as one task.  ``key`` is the
    work's place in the sequential depth-first order (see ``scheduler.py``);
    ``parent`` the task whose leftover it is (-1: cut by the parent).
pending
    Work waiting in the parent, front first.  Above ``max_roots`` waiting roots
    (the scheduler's ``MAX_PENDING``) nothing is split, which bounds the
    parent's memory.
budget
    Tasks get the whole node budget only while the work pending holds
    ``FULL_AHEAD`` budget per worker (by the measured nodes per subtree), half of
    it otherwise, and a ``tail_shrink``-th in the tail (``TAIL_SHRINK``, less above
    ``WIDE`` workers): long tasks while much is left cost the parent fewer
    dispatches, short ones at the end keep workers even.
packing
    Guided self-scheduling: a task takes ``1 / (guided * workers)`` of the roots
    pending from the cut (``guided``: ``GUIDED``, 1 above ``WIDE`` workers), so
    early tasks take many small subtrees and the last ones few; each dispatch costs
    the parent some 50 us, so fewer, fuller tasks let one parent feed more workers.
    The budget still bounds a task: roots it never started come back as they were
    (``untouched``).  Ordered modes never pack.
sizes
    The cut's subtrees' expected sizes when the space estimates them (its
    ``size_hints``): they are queued biggest first, and a task packs subtrees up to
    ``1 / (guided * workers)`` of the expected size pending (above ``WIDE`` workers
    at least ``1 / (SIZE_LEAST * workers)`` of the cut's), so the big subtrees start
    in the first wave and the small ones go out a few at a time at the end.
feed
    One parent sends one task at a time: ``workers`` of them keep busy only while a
    task lasts ``workers`` times the parent's cost per task (``task_cost``, which the
    scheduler measures).  Once that cost and the seconds of work per subtree of the
    cut (or per unit of expected size) are measured, a task packs at least ``FEED``
    times that much work, up to ``1 / (FEED_CAP * workers)`` of the cut, with a node
    budget to match (``budget_now``): on a pool that costs its parent some 200 us a
    task, n = 17 at 64 virtual workers keeps 0.82-0.85 instead of 0.65, and a
    cluster's milliseconds a task get long tasks.
tail
    Fewer items pending than workers.  The next item is split if it is likely
    big (a leftover, once; a subtree of the cut when the moving average of
    nodes per subtree, ``per_root``, fills a good share of a budget).
per_root
    Nodes per subtree of the cut, a moving average of the latest tasks (None:
    nothing measured yet).

Example: ``Pending(2, 20_000, packs=True, report=report, max_roots=20_000)``; ``push``
the cut's work, then ``next_work(split)`` hands out tasks, splitting in the tail.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .report import SearchReport
from .split import Subtree

# In the tail a subtree of the cut is split when subtrees average this share of a
# budget (1 / SPLIT_SHARE) or more.
SPLIT_SHARE = 2
# Tasks get the whole budget while the subtrees pending hold about this many budgets
# per worker (by the measured nodes per subtree), half of it otherwise, and in the
# tail (fewer items pending than workers) a TAIL_SHRINK-th of it.  One, not four:
# on 2 workers that is a quarter fewer tasks and a 2% shorter run (n = 17, the 9x9
# count), and at 64 workers there is rarely even one budget per worker pending.
FULL_AHEAD = 1
TAIL_SHRINK = 8
# Packing takes 1 / (GUIDED * workers) of the pending roots.
GUIDED = 2
# Above this many workers one parent's dispatching is the limit (some 50-130 us a task
# against a run's few tens of ms per worker): the tail's budget shrinks by
# TAIL_SHRINK * WIDE / workers (at least 2) and packing takes twice the share
# (GUIDED = 1).  On n = 17 at 256 workers budgets of an eighth made 476 leftover tasks
# among 1,504; a quarter makes about 10 among 780.
WIDE = 128
# With expected sizes and above WIDE workers, a task packs at least 1 / (SIZE_LEAST *
# workers) of the cut's expected size: fewer tasks for the parent (n = 17 at 256
# workers: 887 tasks and 0.72-0.75 efficiency with an eighth, against 1,031 and
# 0.70-0.73 without a floor).  A quarter (744 tasks) gave the same on that host
# (0.65-0.70 against 0.67-0.71) and more on one whose parent takes 70-100 us a task
# (median 0.49 against 0.45 in seven pairs).  On fewer workers the parent keeps up,
# and the floor made the last tasks long.
SIZE_LEAST = 4
# A task packs at least FEED times workers times the parent's measured cost per task
# of work (``feed``), but never more than 1 / (FEED_CAP * workers) of the cut.
FEED = 1
FEED_CAP = 4
# The weight of the latest task in the moving average of nodes per cut subtree.
AVERAGE_WEIGHT = 0.1
# Work split this many times is not split again (its own leftovers may be).
MAX_LEVELS = 1


@dataclass(slots=True)
class Work:
    """Not frozen (a frozen one takes six times as long to build, and a cut builds a
    thousand while every worker waits), but never changed: ``replace`` makes new work."""

    key: tuple[int, ...]
    roots: tuple[Subtree, ...]
    parent: int = -1  # the task whose leftover this is (-1: cut by the parent)
    crashes: int = 0  # crashes this work was in flight for
    level: int = 0  # levels its roots were branched below a cut or leftover root
    sizes: tuple[float, ...] = ()  # the roots' expected sizes (the space's hints), if any


def biggest_first(works: list[Work]) -> list[Work]:
    """The cut's work biggest first when it has expected ``sizes``, else as it is."""
    if any(work.sizes for work in works):
        return sorted(works, key=lambda work: -sum(work.sizes))
    return works


class Pending:
    """Work waiting in the parent, with its root count and the measured subtree size."""

    def __init__(self, workers: int, budget: int | None, packs: bool,
                 report: SearchReport, *, max_roots: int, fixed: bool = True) -> None:
        self.workers, self.budget, self.packs, self.report = workers, budget, packs, report
        self.fixed = fixed  # the caller's budget: ``feed`` never goes above it
        self.tail_shrink = max(2, TAIL_SHRINK * WIDE // max(WIDE, workers))
        self.guided = GUIDED if workers <= WIDE else 1
        self.max_roots = max_roots  # no splitting above this many roots waiting
        self.items: deque[Work] = deque()
        self.roots = 0
        self.sized = 0.0  # the expected size of the work pending (``sizes``)
        self.least_size = 0.0  # what a task packs at least, by expected size
        self.per_root: float | None = None
        self.task_cost = 0.0  # the parent's seconds per task, measured (0: not yet)
        self.cut_roots, self.cut_size = 0, 0.0  # the cut's roots and expected size
        # Seconds of the cut's tasks measured, and their roots and expected size.
        self.work_seconds, self.work_roots, self.work_size = 0.0, 0, 0.0
        self.work_nodes = 0

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Work]:
        return iter(self.items)

    def push(self, work: Work, front: bool = True) -> None:
        (self.items.appendleft if front else self.items.append)(work)
        self.roots += len(work.roots)
        self.sized += sum(work.sizes)
        self.report.peak_pending = max(self.report.peak_pending, self.roots)

    def pop(self) -> Work:
        work = self.items.popleft()
        self.roots -= len(work.roots)
        self.sized -= sum(work.sizes)
        return work

    def push_cut(self, works: list[Work]) -> None:
        """Queue the cut's work: in order, or biggest first when it has expected
        ``sizes``, and then a task packs at least ``1 / (SIZE_LEAST * workers)`` of the
        cut's expected size above ``WIDE`` workers."""
        for work in biggest_first(works):
            self.push(work, front=False)
        self.cut_roots, self.cut_size = self.roots, self.sized
        if self.workers > WIDE:
            self.least_size = self.sized / (SIZE_LEAST * self.workers)

    def measure(self, roots: int, nodes: int, seconds: float = 0.0, size: float = 0.0
                ) -> None:
        """Fold one task's nodes per subtree of the cut into the moving average of the
        latest tasks: subtrees of one part of the cut are alike in size, and dispatch
        goes from its front to its back (biggest first when the sizes are known).  Its
        ``seconds`` over its ``roots`` (and their expected ``size``) go to ``feed``."""
        if roots > 0:
            sample = nodes / roots
            old = self.per_root
            self.per_root = sample if old is None else old + AVERAGE_WEIGHT * (sample - old)
            self.work_seconds += seconds
            self.work_roots += roots
            self.work_size += size
            self.work_nodes += nodes

    def _fed(self, per: float, whole: float) -> float:
        """What a task packs at least to ``feed`` the workers, in the unit of which
        ``whole`` is the cut's and ``per`` the measured work: nothing until measured."""
        if self.task_cost <= 0 or self.work_seconds <= 0 or per <= 0:
            return 0.0
        least = FEED * self.workers * self.task_cost * per / self.work_seconds
        return min(least, whole / (FEED_CAP * self.workers))

    def worth_splitting(self, work: Work) -> bool:
        """Is ``work`` likely big enough to share out?  Before anything is measured,
        yes.  A leftover is (a budget ran out above it) until it has been split
        ``MAX_LEVELS`` times; a subtree of the cut is when the subtrees measured so
        far average a good share of a budget.  Splitting tiny work would only cost
        the parent dispatches."""
        if self.budget is None or self.per_root is None:
            return True
        if work.parent >= 0:
            return work.level < MAX_LEVELS
        return len(work.roots) * self.per_root >= self.budget / SPLIT_SHARE

    def next_work(self, split: Callable[[Work], list[Work]]) -> Work | None:
        """The next work to submit; ``split`` it first when the queue runs low."""
        while self.items:
            work = self.pop()
            if (len(self.items) >= self.workers or self.roots >= self.max_roots
                    or not self.worth_splitting(work)):
                return self.pack(work)
            pieces = split(work)
            for piece in reversed(pieces[1:]):
                self.push(piece)
            if pieces:
                return pieces[0]
        return None

    def pack(self, work: Work) -> Work:
        """Add the next subtrees of the cut to ``work``: guided self-scheduling, a share
        ``1 / (guided * workers)`` of the roots pending, so early tasks take many and
        the last ones few.  The budget still bounds the task: roots it never starts
        come back as they were (``untouched``) and are packed again."""
        if not self.packs or self.budget is None or work.parent != -1:
            return work
        if work.sizes:
            return self._pack_sized(work)
        share = max(self.roots // (self.guided * self.workers),
                    self._fed(self.work_roots, self.cut_roots))
        roots = list(work.roots)
        while len(roots) < share and self._packable(work) is not None:
            roots.extend(self.pop().roots)
        if len(roots) == len(work.roots):
            return work
        return Work(work.key, tuple(roots), work.parent, work.crashes, work.level)

    def _pack_sized(self, work: Work) -> Work:
        """``pack`` by expected size: the next subtrees while the task stays within
        ``1 / (guided * workers)`` of the size pending (at least ``least_size``)."""
        target = max(self.least_size, self._fed(self.work_size, self.cut_size),
                     (self.sized + sum(work.sizes)) / (self.guided * self.workers))
        roots, sizes, size = list(work.roots), list(work.sizes), sum(work.sizes)
        while (head := self._packable(work)) is not None and head.sizes:
            more = sum(head.sizes)
            if size + more > target:
                break
            self.pop()
            roots.extend(head.roots)
            sizes.extend(head.sizes)
            size += more
        if len(roots) == len(work.roots):
            return work
        return Work(work.key, tuple(roots), work.parent, work.crashes, work.level,
                    tuple(sizes))

    def _packable(self, work: Work) -> Work | None:
        """The next work pending, if it may join ``work``'s task: more of the cut, in
        flight through as many crashes."""
        head = self.items[0] if self.items else None
        if head is None or head.parent != -1 or head.crashes != work.crashes:
            return None
        return head

    def in_tail(self) -> bool:
        """Fewer items pending than workers (see ``tail``)."""
        return len(self.items) < self.workers

    def budget_now(self) -> int | None:
        """The node budget of the next task: a ``tail_shrink``-th of it once fewer
        items than workers are pending, so the last tasks end close together; all of
        it while the subtrees pending hold ``FULL_AHEAD`` budget per worker (by
        the measured nodes per subtree: fewer, longer tasks, fewer dispatches); half
        of it otherwise.  Never less than what ``feed``s the workers (and, unless the
        budget was ``fixed``, that much even above it)."""
        if self.budget is None:
            return None
        fed = int(self._fed(self.work_nodes, float("inf")))
        budget = self.budget if self.fixed else max(self.budget, fed)
        if self.in_tail():
            return max(1, self.budget // self.tail_shrink, min(fed, budget))
        if (self.per_root is not None
                and self.roots * self.per_root >= FULL_AHEAD * self.workers * self.budget):
            return budget
        return max(1, self.budget // 2, min(fed, budget))
