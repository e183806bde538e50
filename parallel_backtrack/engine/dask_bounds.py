"""Bounds and stop flags that reach tasks already running on a Dask cluster.

On a local pool the parent writes a file every worker maps (``window.SharedBounds``,
``worker.StopFlag``).  A Dask worker may run on another machine: it sees none of
this machine's files, and a task would keep the bounds it was submitted with.  Here
the parent pushes each change to every worker process (``Client.run`` of a
coroutine, sent from the client's event loop: the parent neither waits for the
workers nor for the scheduler); the worker writes it into a small file of its own machine, which its
running tasks read exactly as they read a local pool's file (a compiled kernel maps
it; Python reads it through ``SharedBounds.read``).  So a raise costs the parent one
message, and a task's poll stays a memory read: no round trip to the scheduler per
look, as polling a ``distributed.Variable`` or ``Event`` would cost.

Glossary
--------
channel
    One run's bounds in one worker process: a file ``pb-dask-PID-SCOPE-KEY.bin`` in
    the worker's temporary folder holding ``slots`` 64-bit integers, made by the
    first push or the first task of that run to reach the process, removed by the
    parent's ``close`` (or when the process holds ``CHANNELS_MAX`` newer ones; a
    file whose process is gone is swept by the next channel made on that machine).
merge
    Values only rise: a push and a task's snapshot (the values when it was
    submitted) each write the maximum, under one lock, so a worker that missed a
    push (started later, restarted by its nanny) still starts from the snapshot.
stop flag
    ``DaskStopFlag``: a key; ``raise_flag`` pushes it to every worker process,
    where ``is_set`` is a set lookup.
send
    ``Pusher(client)``: ``send(fn, *args)`` runs the coroutine ``fn(*args)`` on every
    worker of the cluster and returns at once; ``on_receive`` and the others are
    the coroutines, ``receive`` and the others what they do.

Example::

    bounds = DaskBounds(4, -UNBOUNDED, Pusher(client))   # DaskExecutor.remote_bounds
    bounds.raise_to(0, 17)     # every worker's running task reads 17 within ms
    bounds.close()             # the workers drop their files
"""

from __future__ import annotations

import asyncio
import contextlib
import mmap
import os
import struct
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from . import tempfiles
from .window import UNBOUNDED, SharedBounds
from .worker import StopFlag

CHANNELS_MAX = 16
FLUSH_SECONDS = 2.0  # what closing waits at most for pushes still on their way
RAISED_MAX = 256
_SLOT = struct.Struct("<q")
_LOCK = threading.Lock()
_CHANNELS: dict[str, tuple[str, mmap.mmap]] = {}  # in a worker: key -> (file, map)
_RAISED: dict[str, None] = {}  # stop flags raised, oldest first (an ordered set)


def _path(key: str) -> str:
    return tempfiles.named("dask", key, ".bin")


def _channel(key: str, slots: int) -> tuple[str, mmap.mmap]:
    """This process's channel for run ``key`` (caller holds ``_LOCK``)."""
    found = _CHANNELS.get(key)
    if found is not None:
        return found
    if not _CHANNELS:  # channels of processes gone (killed before their close) go
        tempfiles.sweep(tempfile.gettempdir())
    while len(_CHANNELS) >= CHANNELS_MAX:
        _drop(next(iter(_CHANNELS)))
    path = _path(key)
    with open(path, "wb") as stream:
        stream.write(_SLOT.pack(-UNBOUNDED) * slots)
    with open(path, "r+b") as stream:
        mapped = mmap.mmap(stream.fileno(), 0)
    _CHANNELS[key] = (path, mapped)
    return path, mapped


def _drop(key: str) -> None:
    path, mapped = _CHANNELS.pop(key)
    mapped.close()
    with contextlib.suppress(OSError):
        os.remove(path)


def _merge(mapped: mmap.mmap, updates: Iterable[tuple[int, int]]) -> None:
    for slot, value in updates:
        if value > _SLOT.unpack_from(mapped, slot * _SLOT.size)[0]:
            _SLOT.pack_into(mapped, slot * _SLOT.size, value)


def receive(key: str, slots: int, updates: list[tuple[int, int]]) -> None:
    """In a worker (pushed by ``Client.run``): raise run ``key``'s slots."""
    with _LOCK:
        _merge(_channel(key, slots)[1], updates)


def forget(key: str) -> None:
    """In a worker: run ``key`` is over, its file goes."""
    with _LOCK:
        if key in _CHANNELS:
            _drop(key)


def raise_stop(key: str) -> None:
    """In a worker (and the parent): the stop flag ``key`` is raised."""
    _RAISED[key] = None
    while len(_RAISED) > RAISED_MAX:
        _RAISED.pop(next(iter(_RAISED)))


async def on_receive(key: str, slots: int, updates: list[tuple[int, int]]) -> None:
    receive(key, slots, updates)


async def on_forget(key: str) -> None:
    forget(key)


async def on_raise_stop(key: str) -> None:
    raise_stop(key)


Send = Callable[..., Any]


class Pusher:
    """``send(fn, *args)``: the coroutine ``fn(*args)`` on every worker of ``client``'s
    cluster, handed to the client's event loop (the caller waits for nothing; a
    worker that is gone is skipped).  ``Client.run`` itself would wait for every
    worker's reply.  ``flush`` waits for what was sent (before the client closes)."""

    def __init__(self, client: Any) -> None:
        self.client, self.loop = client, client.loop.asyncio_loop
        self.sent: list[Any] = []

    def __call__(self, fn: Callable[..., Any], *args: Any) -> None:
        self.sent = [future for future in self.sent if not future.done()]
        self.sent.append(asyncio.run_coroutine_threadsafe(
            self.client._run(fn, *args, wait=False, on_error="ignore"), self.loop))

    def flush(self, timeout: float = FLUSH_SECONDS) -> None:
        for future in self.sent:
            try:
                future.result(timeout)
            except Exception:  # noqa: BLE001, S110 - a lost push costs pruning only
                pass
        self.sent = []


class DaskBounds(SharedBounds):
    """``SharedBounds`` whose raises reach running Dask tasks (see the module doc)."""

    _remote = False  # unpickled in another process (a task)
    _path: str | None = None

    def __init__(self, slots: int, initial: int, send: Send) -> None:
        super().__init__(slots, initial, shared=False)
        self.key = uuid.uuid4().hex
        self._send: Send | None = send

    def __getstate__(self) -> dict[str, Any]:
        """No path: each process makes its own channel; reading none here (the
        scheduler pickles task arguments again, and must not make one)."""
        return {**self._state(None), "key": self.key}

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        self.key, self._send, self._remote = state["key"], None, True

    def snapshot(self, slots: Sequence[int]) -> SharedBounds | None:
        return None  # raises are pushed to running tasks: they read them live

    @property  # type: ignore[override]
    def path(self) -> str | None:
        """In a task: the run's channel, made on first use with this task's snapshot
        merged in (not on unpickling: Dask's scheduler unpickles task arguments too)."""
        if self._remote and self._path is None:
            with _LOCK:
                self._path, mapped = _channel(self.key, self.slots)
                _merge(mapped, enumerate(self.values))
        return self._path

    @path.setter
    def path(self, value: str | None) -> None:
        self._path = value

    def raise_to(self, slot: int, value: int) -> bool:
        if not super().raise_to(slot, value):
            return False
        if self._send is not None:  # None once closed
            self._send(on_receive, self.key, self.slots, [(slot, int(value))])
        return True

    def close(self) -> None:
        super().close()
        if self._send is not None:
            self._send(on_forget, self.key)
            self._send = None


@dataclass(frozen=True, slots=True)
class DaskStopFlag(StopFlag):
    """A stop flag raised on every worker of a cluster by a push (``raise_stop``)."""

    key: str = ""

    def __reduce__(self) -> tuple[Any, ...]:
        return (DaskStopFlag, (None, self.key))

    def is_set(self) -> bool:
        return self.key in _RAISED


def new_stop_flag() -> DaskStopFlag:
    return DaskStopFlag(None, uuid.uuid4().hex)


def push_stop(send: Send, flag: DaskStopFlag) -> None:
    """Raise ``flag`` here and on every worker process ``send`` reaches."""
    raise_stop(flag.key)
    send(on_raise_stop, flag.key)
