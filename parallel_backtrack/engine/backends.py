"""Backends by name: the registry of executor factories, and the ``workers`` convention.

Each backend module registers its executors when imported, as joblib's backends
do: ``executors.py`` registers its pools (``serial``, ``threads``, ``loky``,
``fork``), ``dask_executor.py`` registers ``dask``, and ``executors.make_executor``
looks names up here.  A built-in name resolves without a prior import: asking for
the names (``backend_names``) or for one (``backend_named``) loads the module that
registers it first, as joblib loads its ``dask`` backend on first use
(``EXTERNAL_BACKENDS``).  This module imports no executor module by name; it
loads them by name, on demand.

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

built-in backends
    ``BUILT_IN``: each backend this package registers, by the module that
    registers it (``"dask": "dask_executor"``); ``BUILT_IN_NAMES`` lists them
    without importing anything (a test checks that the table and the registry
    agree).
extra
    The optional dependencies a backend needs (``dask``: ``distributed``):
    ``missing_extra`` names the one line to show when they are not installed.

Example: ``register_backend("mine", MyPool)`` makes ``make_executor(4, "mine")``
return ``MyPool(4)``; a factory that is not callable is refused at once, and a
built-in name unless ``replace=True`` (the built-in modules use ``register_built_in``).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .checks import check_workers

BUILT_IN = {"dask": "dask_executor", "fork": "executors", "loky": "executors",
            "serial": "executors", "threads": "executors"}
BUILT_IN_NAMES = tuple(sorted(BUILT_IN))
# backend -> (module it needs, the extra that installs it)
EXTRAS = {"dask": ("distributed", "dask")}


def cpu_count() -> int:
    """Usable cores, as loky (and so joblib) counts them: cgroups and affinity aware."""
    import loky  # type: ignore[import-untyped]

    return max(1, loky.cpu_count())


def resolve_workers(workers: int) -> int:
    """joblib's n_jobs convention: positive counts, or -1 for all cores
    (``checks.check_workers``: WrongTypeError or ValueError for any other value)."""
    count = check_workers(workers)
    return cpu_count() if count == -1 else count


@dataclass(frozen=True, slots=True)
class Backend:
    """A registered backend: what makes its executor, and the options it takes."""

    factory: Callable[..., Any]
    options: frozenset[str] = frozenset()


REGISTRY: dict[str, Backend] = {}


def register_backend(name: str, factory: Callable[..., Any],
                     options: Iterable[str] = (), *, replace: bool = False) -> None:
    """Make ``backend=name`` build ``factory(workers, **options)`` (a backend module
    registers itself when imported, as joblib's backends do).

    ``name`` is a non-empty string; ``factory`` a callable that returns an
    ``Executor``; ``options`` the names of the keyword options it takes (such as
    ``"address"``).  A built-in backend's name (``BUILT_IN_NAMES``) is refused unless
    ``replace=True``: then the built-in one is loaded first and replaced, so it
    never comes back over yours.  Raises TypeError for a factory that is not
    callable or options that are not names, ValueError for a bad or built-in name.
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"a backend's name must be a non-empty string, got {name!r}")
    if not callable(factory):
        raise TypeError(f"backend {name!r}: the factory must be callable as "
                        f"factory(workers, **options) -> Executor, got {factory!r}")
    if isinstance(options, str) or not all(isinstance(o, str) for o in options):
        raise TypeError(f"backend {name!r}: options must be a list of option names "
                        f"such as ['address'], got {options!r}")
    if name in BUILT_IN:
        if not replace:
            raise ValueError(f"{name!r} is a built-in backend; pass replace=True to "
                             "replace it, or register your backend under another name")
        _load_built_in([name])
    REGISTRY[name] = Backend(factory, frozenset(options))


def register_built_in(name: str, factory: Callable[..., Any],
                      options: Iterable[str] = ()) -> None:
    """What the module of a built-in backend (``BUILT_IN``) registers it with."""
    if BUILT_IN.get(name) is None:
        raise ValueError(f"{name!r} is not a built-in backend; use register_backend")
    REGISTRY[name] = Backend(factory, frozenset(options))


def _load_built_in(names: Iterable[str]) -> None:
    """Import the modules that register these built-in backends (once each)."""
    for module in sorted({BUILT_IN[name] for name in names if name in BUILT_IN
                          and name not in REGISTRY}):
        importlib.import_module(f"{__package__}.{module}")


def backend_names() -> tuple[str, ...]:
    """The registered backends, sorted; every built-in one among them."""
    _load_built_in(BUILT_IN)
    return tuple(sorted(REGISTRY))


def known_names() -> tuple[str, ...]:
    """``backend_names()`` without loading a backend's module: a name is checked
    without importing Dask's module (and asyncio) for a run on threads."""
    return tuple(sorted(set(BUILT_IN) | set(REGISTRY)))


def backend_named(name: str) -> Backend | None:
    """The backend registered as ``name`` (a built-in one is loaded first), or None."""
    _load_built_in([name])
    return REGISTRY.get(name)


class MissingExtraError(ImportError):
    """A backend whose extra is not installed, or is installed but does not import:
    its message is the one line ``missing_extra`` gives (a command line's usage error)."""


def missing_extra(name: str) -> str | None:
    """Why backend ``name`` cannot run here (its extra is not installed), or None:
    ``the dask backend needs dask.distributed: pip install "parallel_backtrack[dask]"``."""
    need = EXTRAS.get(name)
    if need is None:
        return None
    try:
        if importlib.util.find_spec(need[0]) is not None:
            return None
    except (ImportError, ValueError):  # a broken or blocked install: as good as none
        pass
    return (f"the {name} backend needs {name}.{need[0]}: "
            f'pip install "parallel_backtrack[{need[1]}]"')
