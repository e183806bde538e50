"""Several null-window probes at once: parallel aspiration windows over one pool.

A score known to lie in ``[low, high]`` is found by null-window probes, as in
Pons' solver: a probe at ``m`` searches the window ``(m, m + 1)`` and its
(fail-soft) value ``v`` says ``score <= v`` when ``v <= m``, else ``score >= v``.
One after another, each probe waits for the slowest task of the one before.
Here up to ``at_once`` probes run together on the same pool (each a Young
Brothers Wait run): the eldest is the probe the sequential search would run now,
the others are the probes it would run next whichever way the eldest answers.
Every answer narrows ``[low, high]``; a probe whose point fell outside it is moot
and is stopped (its window closed), and new probes fill its place.

Glossary
--------
range
    ``[low, high]``: the scores not excluded yet; the search ends when ``low == high``.
point
    ``point(a, b)``: where a probe goes in the gap ``[a, b]`` (``a <= m < b``),
    e.g. Pons' ``probe_point`` (the middle, pulled towards 0).
gap
    The running probes' points ``m1 < m2 < ...`` cut the range into
    ``[low, m1], [m1 + 1, m2], ..., [mk + 1, high]``; a new probe goes at the
    point of the widest gap (the eldest probe's two possible successors come
    first, as the first two gaps are its two sides).
priority
    Probes take workers eldest first: the pool serves the speculative probes only
    with workers the eldest cannot use.
final
    A probe whose answer ends the search either way: ``[low, high]`` leaves it the
    only point (``high == low + 1``), so it runs alone and may take the whole pool.
tally
    Nodes, tasks, probes answered, twins and probes stopped, summed over the run;
    and the parent's own seconds on the pool's clock (waits left out), whose share a
    task sent is ``task_cost``.
deadline
    ``time.perf_counter()`` past which the running probes are stopped (their windows
    closed) and ``ProbeTimeout`` gives the range left.

Example: with ``at_once=1`` the probes are exactly the sequential solve's.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..engine.arguments import check_count
from ..engine.executors import LEARN_TASKS, Executor, OwnTime
from .ybw import YoungBrothersWait


@dataclass
class ProbeTally:
    nodes: int = 0
    tasks: int = 0
    probes: int = 0
    twins: int = 0
    stopped: int = 0  # probes made moot by another's answer before they ended
    parent: float = 0.0  # the parent's own seconds (see the glossary)
    sent: int = 0  # tasks sent by the probes that ended
    running: dict[int, YoungBrothersWait] = field(default_factory=dict)

    def task_cost(self, least: int = LEARN_TASKS) -> float | None:
        """The parent's own seconds a task sent so far (None before ``least``)."""
        sent = self.sent + sum(search.sent for search in self.running.values())
        return self.parent / sent if sent >= max(least, 1) else None


def next_point(low: int, high: int, points: list[int],
               point: Callable[[int, int], int]) -> int | None:
    """A new probe's point in the widest gap left by ``points`` (None: no gap)."""
    edges = sorted(m for m in points if low <= m < high)
    gaps, start = [], low
    for m in edges:
        gaps.append((start, m))
        start = m + 1
    gaps.append((start, high))
    open_gaps = [(b - a, -index, a, b) for index, (a, b) in enumerate(gaps) if a < b]
    if not open_gaps:
        return None
    _, _, a, b = max(open_gaps)
    return int(point(a, b))


class ProbeTimeout(Exception):
    """The deadline passed before the range closed: ``low`` and ``high`` are left."""

    def __init__(self, low: int, high: int) -> None:
        super().__init__(f"time is up with the score in [{low}, {high}]")
        self.low, self.high = low, high


def probe_range(start: Callable[[int, bool], YoungBrothersWait], executor: Executor,
                limits: tuple[int, int], point: Callable[[int, int], int],
                at_once: int = 1, tally: ProbeTally | None = None,
                deadline: float | None = None,
                on_answer: Callable[[int, int], None] | None = None) -> int:
    """The score in ``limits`` by null-window probes, up to ``at_once`` at a time;
    ``start(m, final)``: a Young Brothers Wait run started in the window ``(m, m + 1)``
    (``final``: see the glossary).  ``deadline`` (``time.perf_counter()``): past it,
    the running probes are stopped and ``ProbeTimeout`` gives the range left.
    ``on_answer(low, high)``: the range before the first probe and after each answer."""
    check_count("at_once", at_once, none=False)
    low, high = limits
    tally = tally if tally is not None else ProbeTally()
    running = tally.running  # point -> run, eldest first
    own, before = OwnTime(executor), tally.parent

    def occupied() -> int:
        return sum(len(search.futures) for search in running.values())

    if on_answer is not None:
        on_answer(low, high)
    try:
        while low < high:
            if deadline is not None and time.perf_counter() >= deadline:
                raise ProbeTimeout(low, high)
            tally.parent = before + own.update()  # the last round's, before ``start`` asks
            _fill(running, start, low, high, point, at_once, occupied)
            for search in list(running.values()):
                search.pump()
            for search in list(running.values()):  # idle workers left: speculate
                search.speculate()
            finished = [m for m, search in running.items() if search.answer is not None]
            if not finished:
                futures = [f for search in running.values() for f in search.futures]
                if not futures:
                    raise RuntimeError("no task in flight and no answer (a bug)")
                left = None if deadline is None else max(0.0, deadline - time.perf_counter())
                done = own.wait_any(futures, timeout=left)
                for search in running.values():
                    search.take(done)
                continue
            for m in finished:
                low, high = _answered(running.pop(m), m, low, high, tally)
            if on_answer is not None:
                on_answer(low, high)
            for m in [m for m in running if not low <= m < high]:
                moot = running.pop(m)
                moot.close(stop=True)
                _count(moot, tally, answered=False)
    finally:
        for search in running.values():  # none after the last answer: time ran out
            search.close(stop=True)
            _count(search, tally, answered=False)
        running.clear()
        tally.parent = before + own.update()
    return low


def _fill(running: dict[int, YoungBrothersWait],
          start: Callable[[int, bool], YoungBrothersWait],
          low: int, high: int, point: Callable[[int, int], int], at_once: int,
          occupied: Callable[[], int]) -> None:
    """Start probes until ``at_once`` run or no gap is left."""
    while len(running) < at_once:
        m = next_point(low, high, list(running), point)
        if m is None or m in running:
            return
        search = running[m] = start(m, high - low == 1)
        search.occupied = occupied


def _count(search: YoungBrothersWait, tally: ProbeTally, answered: bool) -> None:
    """Add a probe's work to the tally (a stopped probe's answered tasks too)."""
    tally.nodes += search.split_nodes + search.task_nodes
    tally.tasks += search.tasks
    tally.twins += search.twins
    tally.sent += search.sent
    tally.probes += answered
    tally.stopped += not answered


def _answered(search: YoungBrothersWait, m: int, low: int, high: int,
              tally: ProbeTally) -> tuple[int, int]:
    search.close()
    found = search.result()
    _count(search, tally, answered=True)
    if found.value <= m:
        return low, min(high, found.value)
    return max(low, found.value), high


def auto_at_once(workers: int) -> int:
    """Probes at once for ``workers``: one on a small pool (a probe keeps a few
    workers busy on its own), more as workers would idle."""
    return 1 if workers < 8 else 3

