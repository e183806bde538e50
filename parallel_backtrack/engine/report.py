"""SearchReport: what a search found and what it cost.

Glossary
--------
mode
    ``count`` (sum of solutions), ``solve`` (first hit) or ``solutions`` (a stream).
task
    One unit shipped to a worker: a few subtrees explored up to a node budget.
frontier
    The subtrees the parent cut the tree into before the first submission.
task_seconds / task_workers / task_nodes / task_parents / task_starts
    One entry per task, in completion order: its duration inside the worker,
    which worker ran it (``pid`` or thread name), the nodes it visited, the
    index of the task whose leftover it continued (-1: cut by the parent) and
    when it began, in seconds from the run's start (-1.0: not known).
task_subtrees
    One entry per task: which subtree it searched, as the scheduler's key
    (``"1.17"``: subtree 17 of the cut; ``"0.2"``: the parent's probe round 2;
    more parts: a piece split off, or the leftover of an earlier task).
budget / budget_seconds
    The node and time budgets of one task (None: not limited that way).
dispatch_seconds / collect_seconds
    Parent time spent submitting tasks / taking their results in: the serial
    part of a run, which bounds how many workers one parent can feed.
task_cost
    The parent's own seconds per task sent (its loop, less its waits), measured on
    the pool's clock: tasks keep P workers busy only while they last P times this
    (``pending`` sizes them so; 0.0: no task went to a pool).
setup_seconds
    Worker time spent loading the space and warming its compiled kernels, once
    per worker process (not part of any task's seconds).
peak_pending
    The most subtree roots that waited in the parent at once (bounded memory).
restarts
    Pools restarted because a worker process died.
asked
    Tail tasks asked for the rest of their subtrees while workers idled
    (``engine.handback``).
solution_seconds
    In ``solve``: seconds from the start until a worker found the solution;
    ``seconds - solution_seconds`` is how long stopping took.
SearchInterrupted / WorkerCrashError
    How a run that did not finish ends: Ctrl-C, or worker processes that kept
    dying; either carries the partial ``report``.
complete
    False when the run stopped early (interrupt, time limit): counts are then
    lower bounds and marked partial.

Example: ``SearchReport(mode="count", count=92, nodes=2057, tasks=40, ...)``.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import MISSING, dataclass, field
from typing import Any


@dataclass
class WorkerStats:
    """One worker's share of a run."""

    worker: str
    tasks: int
    busy_seconds: float
    idle_seconds: float
    node_share: float


@dataclass(repr=False)
class SearchReport:
    """The answer of one search plus its cost, filled in by the scheduler.

    The answer: ``mode``, ``count`` (solutions counted, or released by a stream;
    a lower bound when not ``complete``), ``solution`` (``solve``'s), ``complete``
    and ``stop_reason`` (``"timeout"``, ``"interrupted"``, ...: why it ended
    early).  The run: ``workers``, ``backend``, ``nodes``, ``tasks``, ``seconds``,
    ``frontier`` and ``split_depth`` (the first cut), ``budget`` and
    ``budget_seconds`` (of one task), ``dispatch_seconds``, ``collect_seconds``,
    ``task_cost``, ``setup_seconds``, ``peak_pending``, ``restarts``, ``asked``,
    ``pulls``, ``pulled``, ``solution_seconds``, ``resumed_from`` and
    ``resumed_nodes`` (a checkpoint's).  One entry per task, in completion order:
    ``task_seconds``, ``task_workers``, ``task_nodes``, ``task_parents``,
    ``task_starts``, ``task_subtrees``.  Each field is described in the module's
    glossary; ``as_dict()`` is a JSON-ready summary, ``worker_stats()`` each worker's
    share.  The repr shows the summary and only the lengths of the per-task lists.
    """

    mode: str
    workers: int = 1
    backend: str = "serial"
    count: int = 0
    solution: Any = None
    nodes: int = 0
    tasks: int = 0
    frontier: int = 0
    split_depth: int = 0
    seconds: float = 0.0
    complete: bool = True
    stop_reason: str | None = None
    task_seconds: list[float] = field(default_factory=list)
    task_workers: list[str] = field(default_factory=list)
    task_nodes: list[int] = field(default_factory=list)
    task_parents: list[int] = field(default_factory=list)
    budget: int | None = None
    budget_seconds: float | None = None
    dispatch_seconds: float = 0.0
    collect_seconds: float = 0.0
    task_cost: float = 0.0
    setup_seconds: float = 0.0
    peak_pending: int = 0
    restarts: int = 0
    asked: int = 0  # tail tasks asked for their rest while workers idled
    pulls: int = 0  # tasks sent that each ran pieces of a pulled cut (``pull.py``)
    pulled: int = 0  # the pieces they ran (each counted in ``tasks`` too)
    solution_seconds: float | None = None
    resumed_from: int | None = None  # the count a checkpoint held when the run began
    resumed_nodes: int = 0  # and its nodes (``nodes`` counts them too)
    task_starts: list[float] = field(default_factory=list)
    task_subtrees: list[str] = field(default_factory=list)
    # Wall clock (time.time) when the report was made, i.e. when the run started.
    clock_started: float = field(default_factory=time.time)

    def __repr__(self) -> str:
        """The answer and the figures that differ from their defaults (floats to 6
        digits); a per-task list as its length: ``task_nodes=[423 items]``."""
        shown = []
        for name, spec in self.__dataclass_fields__.items():
            value = getattr(self, name)
            if isinstance(value, list):
                if value:
                    shown.append(f"{name}=[{len(value)} items]")
            elif name in _ALWAYS_SHOWN or (name != "clock_started"
                                           and value != _default(spec)):
                shown.append(f"{name}={_brief(value)}")
        return f"SearchReport({', '.join(shown)})"

    def record_task(self, seconds: float, worker: str, nodes: int, parent: int = -1,
                    started_at: float | None = None, subtree: str = "") -> None:
        """One task's figures; ``started_at`` is the wall clock (time.time) when it
        began, kept as seconds from the run's start (-1.0: not known)."""
        self.tasks += 1
        start = -1.0 if started_at is None else max(0.0, started_at - self.clock_started)
        self.task_starts.append(start)
        self.task_subtrees.append(subtree)
        self.task_seconds.append(seconds)
        self.task_workers.append(worker)
        self.task_nodes.append(nodes)
        self.task_parents.append(parent)

    def worker_stats(self) -> list[WorkerStats]:
        """Per-worker tasks, busy and idle seconds and share of the task nodes."""
        tasks: dict[str, int] = defaultdict(int)
        busy: dict[str, float] = defaultdict(float)
        nodes: dict[str, int] = defaultdict(int)
        for seconds, worker, n in zip(self.task_seconds, self.task_workers, self.task_nodes):
            tasks[worker] += 1
            busy[worker] += seconds
            nodes[worker] += n
        total = sum(nodes.values()) or 1
        return [
            WorkerStats(w, tasks[w], busy[w], max(0.0, self.seconds - busy[w]), nodes[w] / total)
            for w in sorted(tasks)
        ]

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (no per-task lists; see ``worker_stats``)."""
        return {
            "mode": self.mode,
            "count": self.count,
            "nodes": self.nodes,
            "tasks": self.tasks,
            "frontier": self.frontier,
            "split_depth": self.split_depth,
            "workers": self.workers,
            "backend": self.backend,
            "seconds": round(self.seconds, 6),
            "complete": self.complete,
            "stop_reason": self.stop_reason,
            "budget": self.budget,
            "budget_seconds": self.budget_seconds,
            "dispatch_seconds": round(self.dispatch_seconds, 6),
            "collect_seconds": round(self.collect_seconds, 6),
            "task_cost": round(self.task_cost, 7),
            "setup_seconds": round(self.setup_seconds, 6),
            "peak_pending": self.peak_pending,
            "restarts": self.restarts,
            "asked": self.asked,
            "pulls": self.pulls,
            "pulled": self.pulled,
            "solution_seconds": _rounded(self.solution_seconds),
            "resumed_from": self.resumed_from,
            "worker_stats": [_rounded_stats(s) for s in self.worker_stats()],
        }

    def task_table(self) -> dict[str, list[Any]]:
        """The per-task lists, JSON-ready (for ``--stats`` and the scaling scripts)."""
        return {
            "task_seconds": [round(s, 6) for s in self.task_seconds],
            "task_workers": list(self.task_workers),
            "task_nodes": list(self.task_nodes),
            "task_parents": list(self.task_parents),
            "task_starts": [round(s, 6) for s in self.task_starts],
            "task_subtrees": list(self.task_subtrees),
        }


# The fields a SearchReport's repr shows even at their defaults.
_ALWAYS_SHOWN = frozenset({"mode", "workers", "backend", "count", "nodes", "tasks",
                           "seconds", "complete"})


def _default(spec: Any) -> Any:
    return spec.default_factory() if spec.default is MISSING else spec.default


def _brief(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def _rounded_stats(stats: WorkerStats) -> dict[str, Any]:
    return {key: round(value, 6) if isinstance(value, float) else value
            for key, value in vars(stats).items()}


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a search; ``report`` holds the partial result."""

    def __init__(self, report: SearchReport) -> None:
        super().__init__("search interrupted")
        self.report = report


class WorkerCrashError(RuntimeError):
    """Worker processes kept dying; ``report`` holds what was counted before."""

    def __init__(self, message: str, report: SearchReport) -> None:
        super().__init__(message)
        self.report = report


class ClusterRefusedError(ValueError):
    """A Dask cluster the run cannot use, found as the command joins it, before any
    task: no workers, workers that cannot load this package or run another version of
    it, or workers that do not answer.  A command line makes it a usage error (exit 2,
    one line), as it makes a bad address."""


class PoolLostError(RuntimeError):
    """The pool itself went away in the middle of a run (a Dask cluster's scheduler
    stopped answering): no task can be sent or come back, so the run stops."""
