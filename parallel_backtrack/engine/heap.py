"""The parent's heap while a search runs: what it held before the search is left out of
the garbage collector's walks.

Python's cyclic collector now and then walks every object the process holds (a full
collection).  numba, numpy and this package alone make some 100,000 objects, and one
full collection of them takes 30-45 ms: the parent of a search on 256 workers, which
sends a task every 50-150 us, stops for that long while the workers wait.
``frozen()`` moves the objects alive when a search starts to the collector's permanent
generation (``gc.freeze``) and back to the oldest one when it ends (``gc.unfreeze``);
the objects made during the search are collected as usual.  Nested and concurrent
searches share one freeze (the first in freezes, the last out thaws).  A process that
froze its heap itself finds it thawed after a search (telling whether it had would
walk every frozen object, 1-6 ms a search).  ``FREEZE = False`` turns it off.

(Holding full collections off instead, the oldest generation's threshold out of reach,
removes the pause too, but the parent of Korf #72 on 256 simulated workers then spent
95-101 ms, against 68-78 ms frozen: docs/results.md.)

Example: ``with frozen(): run the search``.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

FREEZE = True
_lock = threading.Lock()
_depth = 0  # searches inside a freeze
_ours = False  # did the first search in freeze?


@contextmanager
def frozen() -> Iterator[None]:
    """Freeze the heap for the ``with`` block (see the module doc)."""
    global _depth, _ours
    with _lock:
        if _depth == 0 and FREEZE:
            gc.freeze()
            _ours = True
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _ours:
                gc.unfreeze()
                _ours = False
