"""SearchReport: what a search found and what it cost.

Glossary
--------
mode
    ``count`` (sum of solutions), ``solve`` (first hit) or ``solutions`` (a stream).
task
    One unit shipped to a worker: a few subtrees explored up to a node budget.
frontier
    The subtrees the parent cut the tree into before the first submission.
task_seconds / task_workers / task_nodes
    One entry per task, in completion order: its duration inside the worker,
    which worker ran it (``pid`` or thread name) and the nodes it visited.
complete
    False when the run stopped early (interrupt, time limit): counts are then
    lower bounds and marked partial.

Example: ``SearchReport(mode="count", count=92, nodes=2057, tasks=40, ...)``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any


@dataclass
class WorkerStats:
    """One worker's share of a run."""

    worker: str
    tasks: int
    busy_seconds: float
    idle_seconds: float
    node_share: float


@dataclass
class SearchReport:
    """The answer of one search plus its cost, filled in by the scheduler."""

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
    dispatch_seconds: float = 0.0

    def record_task(self, seconds: float, worker: str, nodes: int) -> None:
        self.tasks += 1
        self.task_seconds.append(seconds)
        self.task_workers.append(worker)
        self.task_nodes.append(nodes)

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
            "worker_stats": [vars(s) for s in self.worker_stats()],
        }
