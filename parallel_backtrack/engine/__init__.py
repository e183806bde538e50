"""The problem-agnostic engine: spaces, splitting, scheduling, executors, reports."""

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
from .report import SearchReport, WorkerStats
from .scheduler import SearchInterrupted, SolutionStream, count, first_hit, solutions, solve
from .space import Explored, Space, Tally, explore, sequential_count, sequential_solutions

__all__ = [
    "BACKENDS",
    "Executor",
    "Explored",
    "SearchInterrupted",
    "SearchReport",
    "SolutionStream",
    "Space",
    "Tally",
    "UnknownNameError",
    "WorkerStats",
    "check_name",
    "count",
    "cpu_count",
    "did_you_mean",
    "explore",
    "first_hit",
    "make_executor",
    "resolve_workers",
    "sequential_count",
    "sequential_solutions",
    "solutions",
    "solve",
]
