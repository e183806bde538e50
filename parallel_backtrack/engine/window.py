"""A shared improving bound: the channel of searches whose tasks share a window.

Alpha-beta split over tasks (Young Brothers Wait) needs the bounds the parent
learns while tasks run: a task reads them now and then and narrows its own
window, and a task submitted later starts from them.  The engine gives the
channel, the problem gives the meaning (which slot is whose alpha).

Glossary
--------
slot
    One 64-bit integer; the parent owns it and only ever raises it
    (``raise_to``: a monotone maximum), tasks read it.  A slot starts at
    ``initial`` (``-UNBOUNDED`` unless told).
shared
    On a pool whose tasks share this machine's files (``executor.shares_files``),
    and on the virtual pool that stands for one (``executor.maps_bounds``),
    the slots live in a small file
    the parent writes and every worker maps; tasks see a raise within
    microseconds, and a task is sent with the file's path, not the values.
    Elsewhere (a Dask cluster) a task sees the values the bounds had when it was
    submitted: still correct, only less pruning.
UNBOUNDED
    2^62, standing for infinity (values are integers).

Example::

    bounds = shared_bounds(executor, slots=4)
    bounds.raise_to(0, 17)       # the parent learnt alpha = 17 at slot 0
    bounds.read(0)               # 17, in the parent and in every task
    bounds.close()               # end of the run: the file goes
"""

from __future__ import annotations

import mmap
import os
import struct
from array import array
from collections.abc import Sequence
from typing import Any

from . import tempfiles
from .arguments import check_count

UNBOUNDED = 1 << 62
_SLOT = struct.Struct("<q")
_MAPS: dict[str, list[Any]] = {}  # path -> [map, its int64 array or None] (``_entry``)
_MAPS_MAX = 8


class SharedBounds:
    """``slots`` integers the parent raises and tasks read (see the module doc)."""

    def __init__(self, slots: int, initial: int = -UNBOUNDED, shared: bool = False) -> None:
        check_count("slots", slots, none=False)
        self.slots, self.initial = slots, initial
        self.values = [initial] * slots  # the parent's copy, and a task's snapshot
        self._top = 0  # slots from here on still hold ``initial``
        self.path: str | None = None
        self._fd: int | None = None
        if shared:
            handle, self.path = tempfiles.make("window", ".bin")
            os.write(handle, b"".join(_SLOT.pack(v) for v in self.values))
            self._fd = handle
        self._owner = os.getpid()

    def __getstate__(self) -> dict[str, Any]:
        return self._state(self.path)

    def _state(self, path: str | None) -> dict[str, Any]:
        # A task that maps the file reads every slot there, so none travels with it;
        # else only the raised slots, packed: a task is pickled for every send, and
        # 4,096 slots as a list cost the parent about 0.6 ms a task.
        raised = b"" if path is not None else array("q", self.values[:self._top]).tobytes()
        return {"slots": self.slots, "initial": self.initial, "raised": raised,
                "path": path}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.slots, self.initial, self.path = state["slots"], state["initial"], state["path"]
        raised = array("q", state["raised"]).tolist()
        self.values = raised + [self.initial] * (self.slots - len(raised))
        self._fd, self._owner, self._top = None, -1, len(raised)

    def read(self, slot: int) -> int:
        """The slot's latest value (a task's snapshot when the file is unavailable)."""
        if self._owner == os.getpid() or self.path is None:
            return self.values[slot]
        mapped = _map(self.path)
        if mapped is None:
            return self.values[slot]
        value = _SLOT.unpack_from(mapped, slot * _SLOT.size)[0]
        self.values[slot] = max(self.values[slot], value)
        return self.values[slot]

    def view(self) -> Any:
        """The slots as a live ``int64`` numpy array over the shared file (in any
        process, the parent's included), for compiled code to read; None without a
        file.  Nothing should write to it: the parent raises through ``raise_to``."""
        return None if self.path is None else _view(self.path)

    def raise_to(self, slot: int, value: int) -> bool:
        """Parent only: raise the slot to ``value`` if higher; True when it rose."""
        if self._owner != os.getpid():
            raise RuntimeError("only the process that made the bounds may raise them")
        if value <= self.values[slot]:
            return False
        self.values[slot] = int(value)
        self._top = max(self._top, slot + 1)
        if self._fd is not None:
            os.pwrite(self._fd, _SLOT.pack(int(value)), slot * _SLOT.size)
        return True

    def snapshot(self, slots: Sequence[int]) -> SharedBounds | None:
        """For a task that cannot read the bounds live: ``slots``' values alone, as
        slots 0, 1, ... of a small copy (pickling every raised slot, some 1,500 at 64
        simulated workers, cost the parent up to 65 us a task).  None where tasks read
        them live (a shared file): they are sent as they are."""
        if self.path is not None:
            return None
        copy = SharedBounds(max(1, len(slots)), self.initial)
        for index, slot in enumerate(slots):
            copy.raise_to(index, self.read(slot))
        return copy

    def close(self) -> None:
        """End of the run: remove the file (tasks still running keep their snapshot)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        if self.path is not None and self._owner == os.getpid():
            try:
                os.remove(self.path)
            except OSError:
                pass


def _map(path: str) -> mmap.mmap | None:
    """The shared map of ``path``; None when unavailable."""
    entry = _entry(path)
    return None if entry is None else entry[0]


def _view(path: str) -> Any:
    """The shared map of ``path`` as an ``int64`` array; None when unavailable."""
    entry = _entry(path)
    if entry is None:
        return None
    if entry[1] is None:
        import numpy as np

        entry[1] = np.frombuffer(entry[0], dtype=np.int64)
    return entry[1]


def _entry(path: str) -> list[Any] | None:
    """``[map, its array or None]`` for ``path``, mapped once per process and kept (the
    oldest of ``_MAPS_MAX`` dropped).  Writable: compiled kernels take one array type,
    and a read-only map would be another."""
    found = _MAPS.get(path)
    if found is not None:
        return found
    try:
        with open(path, "r+b") as stream:
            mapped = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_WRITE)
    except (OSError, ValueError):
        return None
    if len(_MAPS) >= _MAPS_MAX:
        old = _MAPS.pop(next(iter(_MAPS)))
        old[1] = None  # the array goes first, so that the map can close
        try:
            old[0].close()
        except BufferError:  # a caller still holds the array: the map stays open
            pass
    entry = _MAPS[path] = [mapped, None]
    return entry


def shared_bounds(executor: Any, slots: int, initial: int = -UNBOUNDED) -> SharedBounds:
    """Bounds for one run on ``executor``: a shared file when its tasks can see this
    machine's files (a local pool), else the executor's own channel when it has one
    (``remote_bounds``: Dask pushes raises to its workers), else values handed to each
    task as submitted."""
    remote = getattr(executor, "remote_bounds", None)
    if remote is not None and not executor.shares_files:
        return remote(slots, initial)  # type: ignore[no-any-return]
    shared = executor.shares_files or getattr(executor, "maps_bounds", False)
    return SharedBounds(slots, initial, shared=shared)
