"""Load compiled kernels from numba's on-disk cache without numba's compiler set-up.

Before numba loads a cached function it "refreshes" its compiler: it imports and
registers the implementation of every feature it can compile (NumPy's linear
algebra, random numbers, typed containers, ...).  That costs 0.1-0.15 s, paid by
every process that loads a kernel, and in the parent of a parallel run it is
start-up that no number of workers shortens.  Machine code loaded from the cache
needs none of it, only numba's runtime (NRT), whose symbols the code links against.

``quick_loads()`` skips the refresh while the block runs.  A kernel missing from
the cache is still compiled in full: numba's compiler refreshes by itself first.

Glossary
--------
refresh
    ``target_context.refresh()``: what numba's ``Cache.load_overload`` calls
    before it reads a cached function.

Example: ``with quick_loads(): kernel(small_input)`` loads ``kernel`` from the
cache some 0.1 s sooner than a first call outside the block would.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

_lock = threading.Lock()
_state: dict[str, Any] = {"active": 0, "installed": False}


def _install() -> bool:
    """Wrap numba's ``Cache.load_overload`` once; False where numba's internals are
    not the ones this was written against (then nothing changes)."""
    if _state["installed"]:
        return True
    if "numba" not in sys.modules:  # no kernel imported: keep numba out of a small job
        return False
    try:
        from numba.core import caching
        from numba.core.runtime import nrt
    except ImportError:
        return False
    cache = getattr(caching, "Cache", None)
    needed = ("load_overload", "_load_overload", "_guard_against_spurious_io_errors")
    if cache is None or not all(hasattr(cache, name) for name in needed) or not hasattr(
            getattr(nrt, "rtsys", None), "initialize"):
        return False
    original: Callable[..., Any] = cache.load_overload

    def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        if not _state["active"]:
            return original(self, sig, target_context)
        nrt.rtsys.initialize(target_context)  # the one part of the refresh loading needs
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    cache.load_overload = load_overload
    _state["installed"] = True
    return True


@contextlib.contextmanager
def quick_loads() -> Iterator[None]:
    """Kernels first called in this block load from the cache without the refresh."""
    with _lock:
        on = _install()
        _state["active"] += on
    try:
        yield
    finally:
        with _lock:
            _state["active"] -= on
