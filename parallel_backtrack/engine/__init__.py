"""The problem-agnostic engine: spaces, splitting, scheduling, executors (and a virtual
pool that simulates P workers on one core), reports, metrics."""

from .executors import (
    BACKENDS,
    Executor,
    UnknownNameError,
    check_name,
    cpu_count,
    did_you_mean,
    make_executor,
    resolve_workers,
)
from .metrics import Metrics, TooManyNodesError, metrics
from .modes import SolutionStream, count, first_hit, solutions, solve
from .report import SearchInterrupted, SearchReport, WorkerCrashError, WorkerStats
from .space import Explored, Space, Tally, explore, sequential_count, sequential_solutions
from .virtual import VirtualExecutor

__all__ = [
    "BACKENDS",
    "Executor",
    "Explored",
    "Metrics",
    "SearchInterrupted",
    "SearchReport",
    "SolutionStream",
    "Space",
    "Tally",
    "TooManyNodesError",
    "UnknownNameError",
    "VirtualExecutor",
    "WorkerCrashError",
    "WorkerStats",
    "check_name",
    "count",
    "cpu_count",
    "did_you_mean",
    "explore",
    "first_hit",
    "make_executor",
    "metrics",
    "resolve_workers",
    "sequential_count",
    "sequential_solutions",
    "solutions",
    "solve",
]
