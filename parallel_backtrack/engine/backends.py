"""Backends by name: a registry of executor factories, and ``make_executor``.

Each backend module registers its executors when imported, as joblib's backends
do: this module registers the pools of ``executors.py`` (``serial``, ``threads``,
``loky``, ``fork``), ``dask_executor.py`` registers ``dask``.  The package
imports them all, so every name is known before anyone asks.

Glossary
--------
backend
    A registered name, e.g. ``loky``; ``backend_names()`` lists them, sorted.
factory
    ``factory(workers, **options) -> Executor``; ``workers`` is already resolved
    (joblib's ``n_jobs`` convention, see ``executors.resolve_workers``).
options
    Keyword options a backend takes (``address`` for ``dask``); one given to a
    backend that does not take it is refused with a message naming a backend
    that does.

Example: ``register_backend("mine", MyPool)`` makes ``make_executor(4, "mine")``
return ``MyPool(4)``.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .checks import check_name
from .executors import Executor, ForkExecutor, LokyExecutor, ThreadExecutor, resolve_workers


@dataclass(frozen=True, slots=True)
class Backend:
    """A registered backend: what makes its executor, and the options it takes."""

    factory: Callable[..., Executor]
    options: frozenset[str] = frozenset()


REGISTRY: dict[str, Backend] = {}


def register_backend(name: str, factory: Callable[..., Executor],
                     options: Iterable[str] = ()) -> None:
    """Make ``backend=name`` build ``factory(workers, **options)`` (a backend module
    registers itself when imported, as joblib's backends do)."""
    REGISTRY[name] = Backend(factory, frozenset(options))


def backend_names() -> tuple[str, ...]:
    """The registered backends, sorted."""
    return tuple(sorted(REGISTRY))


def make_executor(workers: int = 1, backend: str | None = None, **options: Any) -> Executor:
    """The executor for ``workers`` and ``backend`` (None: serial for 1, else loky)."""
    count = resolve_workers(workers)
    if backend is None:
        backend = "serial" if count == 1 else "loky"
    check_name("backend", backend, backend_names())
    chosen = REGISTRY[backend]
    for option, value in options.items():
        if value is not None and option not in chosen.options:
            takers = [name for name in backend_names() if option in REGISTRY[name].options]
            if not takers:
                raise TypeError(f"make_executor() got an unknown option {option!r}")
            raise ValueError(f"a scheduler {option} needs backend {takers[0]!r}, "
                             f"got backend {backend!r}")
    return chosen.factory(count, **{k: v for k, v in options.items() if v is not None})


def _fork(workers: int) -> ForkExecutor:
    if "fork" not in multiprocessing.get_all_start_methods():
        raise ValueError("backend 'fork' needs the fork start method (Linux); use 'loky'")
    return ForkExecutor(workers)


register_backend("serial", lambda workers: Executor(1))
register_backend("threads", ThreadExecutor)
register_backend("loky", LokyExecutor)
register_backend("fork", _fork)
