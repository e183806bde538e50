"""The parent's heap while a search runs: what it held before the search is left out of
the garbage collector's walks.

Python's cyclic collector now and then walks every object the process holds (a full
collection).  numba, numpy and this package alone make some 100,000 objects, and one
full collection of them takes 30-45 ms: the parent of a search on 256 workers, which
sends a task every 50-150 us, stops for that long while the workers wait.
``frozen()`` moves the objects alive when a search starts to the collector's permanent
generation (``gc.freeze``) and back when it ends (``gc.unfreeze``); the objects made
during the search are collected as usual.  Nested and concurrent searches share one
freeze (the first in freezes, the last out thaws), and a process that froze its heap
itself keeps its own freeze.  ``FREEZE = False`` turns it off.

Example: ``with frozen(): run the search``.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

FREEZE = True
_lock = threading.Lock()
_depth = 0  # searches inside a freeze of ours
_ours = False  # did we freeze (not the process itself)?


@contextmanager
def frozen() -> Iterator[None]:
    """Freeze the heap for the ``with`` block (see the module doc)."""
    global _depth, _ours
    with _lock:
        if _depth == 0:
            _ours = FREEZE and gc.get_freeze_count() == 0
            if _ours:
                gc.freeze()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _ours:
                gc.unfreeze()
                _ours = False
