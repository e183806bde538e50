"""The problem-agnostic engine: spaces and their declared fast hooks (``space``,
``hooks``), splitting (``split``), scheduling (``scheduler`` with ``probe``, ``pending``
and a ``reduction`` per mode), executors behind a backend registry (``executors``,
``backends``, ``dask_executor``, and a ``virtual`` pool that simulates P workers on one
core), what runs in a worker (``worker``), reports and metrics.

How it works and how to use it (the Space contract, fast hooks, modes, the scheduler and
its budgets, executors, Dask): docs/engine.md in the repository.

Importing the package is cheap: each name below loads its module on first use (PEP 562),
so a command line answering ``--help`` never loads the pools, multiprocessing or
cloudpickle.  Backend names resolve without a prior import: the registry
(``backends``) loads the module of a built-in backend when its name is asked for.

Glossary
--------
home
    The submodule that defines a name: ``_HOMES["count"] == "modes"``.
BACKENDS
    Every backend this package registers (``backends.BUILT_IN_NAMES``), listed
    without importing any executor module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes
from .backends import BUILT_IN_NAMES as BACKENDS

# ``metrics`` is a submodule and a function: the function must win, whoever imports the
# submodule first, so it is bound here (a small module: dataclasses and ``space``).
from .metrics import Metrics, TooManyNodesError, metrics

if TYPE_CHECKING:
    from .backends import backend_names, cpu_count, register_backend, resolve_workers
    from .checks import (
        UnknownNameError,
        WrongTypeError,
        check_int,
        check_name,
        did_you_mean,
        is_interrupt,
    )
    from .executors import Executor, make_executor
    from .modes import SolutionStream, count, first_hit, solutions, solve
    from .report import (
        ClusterRefusedError,
        PoolLostError,
        SearchInterrupted,
        SearchReport,
        WorkerCrashError,
        WorkerStats,
    )
    from .space import (
        Explored,
        FastSpace,
        Space,
        Tally,
        explore,
        sequential_count,
        sequential_solutions,
    )
    from .threshold import Bounded, threshold_search
    from .virtual import VirtualExecutor
    from .window import SharedBounds, shared_bounds

_HOMES = {
    "backend_names": "backends", "cpu_count": "backends", "register_backend": "backends",
    "resolve_workers": "backends",
    "UnknownNameError": "checks", "WrongTypeError": "checks", "check_int": "checks",
    "check_name": "checks",
    "did_you_mean": "checks", "is_interrupt": "checks",
    "Executor": "executors", "make_executor": "executors",
    "SolutionStream": "modes", "count": "modes", "first_hit": "modes", "solutions": "modes",
    "solve": "modes",
    "ClusterRefusedError": "report", "PoolLostError": "report",
    "SearchInterrupted": "report", "SearchReport": "report", "WorkerCrashError": "report",
    "WorkerStats": "report",
    "Explored": "space", "FastSpace": "space", "Space": "space", "Tally": "space",
    "explore": "space", "sequential_count": "space", "sequential_solutions": "space",
    "Bounded": "threshold", "threshold_search": "threshold",
    "VirtualExecutor": "virtual",
    "SharedBounds": "window", "shared_bounds": "window",
}



__all__ = [
    "BACKENDS",
    "Bounded",
    "ClusterRefusedError",
    "Executor",
    "Explored",
    "FastSpace",
    "Metrics",
    "PoolLostError",
    "SearchInterrupted",
    "SearchReport",
    "SharedBounds",
    "SolutionStream",
    "Space",
    "Tally",
    "TooManyNodesError",
    "UnknownNameError",
    "VirtualExecutor",
    "WorkerCrashError",
    "WorkerStats",
    "WrongTypeError",
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
    "metrics",
    "register_backend",
    "resolve_workers",
    "sequential_count",
    "sequential_solutions",
    "shared_bounds",
    "solutions",
    "solve",
    "threshold_search",
]

__getattr__, __dir__ = lazy_attributes(__name__, _HOMES, __all__)
