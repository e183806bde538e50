"""The problem-agnostic engine: spaces and their declared fast hooks (``space``,
``hooks``), splitting (``split``), scheduling (``scheduler`` with ``probe``, ``pending``
and a ``reduction`` per mode), executors behind a backend registry (``executors``,
``backends``, ``dask_executor``, and a ``virtual`` pool that simulates P workers on one
core), what runs in a worker (``worker``), reports and metrics.

How it works and how to use it (the Space contract, fast hooks, modes, the scheduler and
its budgets, executors, Dask): docs/engine.md in the repository.
"""

from . import dask_executor  # noqa: F401 - registers the dask backend
from .backends import backend_names, cpu_count, register_backend, resolve_workers
from .checks import UnknownNameError, check_int, check_name, did_you_mean, is_interrupt
from .executors import Executor, make_executor
from .metrics import Metrics, TooManyNodesError, metrics
from .modes import SolutionStream, count, first_hit, solutions, solve
from .report import SearchInterrupted, SearchReport, WorkerCrashError, WorkerStats
from .space import (
    Explored,
    FastSpace,
    Space,
    Tally,
    explore,
    sequential_count,
    sequential_solutions,
)
from .virtual import VirtualExecutor

BACKENDS = backend_names()  # every backend registered above

__all__ = [
    "BACKENDS",
    "Executor",
    "Explored",
    "FastSpace",
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
    "backend_names",
    "check_int",
    "check_name",
    "count",
    "cpu_count",
    "did_you_mean",
    "explore",
    "first_hit",
    "is_interrupt",
    "make_executor",
    "register_backend",
    "metrics",
    "resolve_workers",
    "sequential_count",
    "sequential_solutions",
    "solutions",
    "solve",
]
