"""Backends by name: the registry of executor factories, and the ``workers`` convention.

Each backend module registers its executors when imported, as joblib's backends
do: ``executors.py`` registers its pools (``serial``, ``threads``, ``loky``,
``fork``), ``dask_executor.py`` registers ``dask``, and ``executors.make_executor``
looks names up here.  The package imports them all, so every name is known
before anyone asks.  This module imports no executor.

Glossary
--------
backend
    A registered name, e.g. ``loky``; ``backend_names()`` lists them, sorted.
factory
    ``factory(workers, **options) -> Executor``; ``workers`` is already resolved
    by ``resolve_workers`` (joblib's ``n_jobs`` convention: a positive count, or
    -1 for every core loky can see; 0 and values below -1 are refused).
options
    Keyword options a backend takes (``address`` for ``dask``); one given to a
    backend that does not take it is refused with a message naming a backend
    that does.

Example: ``register_backend("mine", MyPool)`` makes ``make_executor(4, "mine")``
return ``MyPool(4)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


def cpu_count() -> int:
    """Usable cores, as loky (and so joblib) counts them: cgroups and affinity aware."""
    import loky  # type: ignore[import-untyped]

    return max(1, loky.cpu_count())


def resolve_workers(workers: int) -> int:
    """joblib's n_jobs convention: positive counts, or -1 for all cores."""
    if isinstance(workers, bool) or not isinstance(workers, int):
        raise ValueError(f"workers must be an integer, got {workers!r}")
    if workers == -1:
        return cpu_count()
    if workers < 1:
        raise ValueError(
            f"workers must be a positive integer or -1 (all cores), got {workers}"
        )
    return workers


@dataclass(frozen=True, slots=True)
class Backend:
    """A registered backend: what makes its executor, and the options it takes."""

    factory: Callable[..., Any]
    options: frozenset[str] = frozenset()


REGISTRY: dict[str, Backend] = {}


def register_backend(name: str, factory: Callable[..., Any],
                     options: Iterable[str] = ()) -> None:
    """Make ``backend=name`` build ``factory(workers, **options)`` (a backend module
    registers itself when imported, as joblib's backends do)."""
    REGISTRY[name] = Backend(factory, frozenset(options))


def backend_names() -> tuple[str, ...]:
    """The registered backends, sorted."""
    return tuple(sorted(REGISTRY))
