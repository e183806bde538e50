"""The problem-agnostic engine: spaces, splitting, scheduling, executors (and a virtual
pool that simulates P workers on one core), reports, metrics.

How it works and how to use it (the Space contract, fast hooks, modes, the scheduler and
its budgets, executors, Dask): docs/engine.md in the repository.
"""

from .checks import UnknownNameError, check_int, check_name, did_you_mean, is_interrupt
from .executors import BACKENDS, Executor, cpu_count, make_executor, resolve_workers
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
    "check_int",
    "check_name",
    "count",
    "cpu_count",
    "did_you_mean",
    "explore",
    "first_hit",
    "is_interrupt",
    "make_executor",
    "metrics",
    "resolve_workers",
    "sequential_count",
    "sequential_solutions",
    "solutions",
    "solve",
]
