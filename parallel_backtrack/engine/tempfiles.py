"""The package's temporary files, named after the process that made them, and a sweep
of those whose process is gone.

A run removes its files as it ends (``Executor.release``, ``SharedBounds.close``, the
Connect-Four table's drop), and on Ctrl-C or SIGTERM too.  A process killed outright
(SIGKILL, the out-of-memory killer; SIGTERM outside the command lines) cannot: its
shipped problems, bounds files and Connect-Four tables would stay, the tables in
``/dev/shm`` holding memory.  So each file's name carries its maker's process id, and
the first file a process makes in a folder removes the files there whose maker is
gone.  A folder may be seen from several machines (a ``TMPDIR`` on a network disk) or
from several process-id namespaces (containers sharing ``/dev/shm``), where the same
id names another process or none: a name also carries its maker's scope, and a sweep
touches only the files of its own.

Glossary
--------
kind
    What the file holds, in its name ``pb-KIND-PID-SCOPE-XXXXXXXX.SUFFIX``: ``space``
    (a shipped problem), ``window`` (shared bounds), ``c4table`` (a Connect-Four
    table), ``stop`` (a raised stop flag, ``pb-stop-PID-SCOPE-HEX``, made by
    ``Executor.stop_flag``), ``dask`` (a run's bounds in a Dask worker,
    ``pb-dask-PID-SCOPE-KEY.bin``: ``named``), ``pull`` (a count's cut that its
    workers take pieces from, ``pull.py``).
scope
    Where a process id means this process's neighbours: 8 hex digits of a checksum of
    the machine's boot (``/proc/sys/kernel/random/boot_id``), its name and the
    process-id namespace (``/proc/self/ns/pid``), the same for every process of one
    machine's namespace, since its boot.
alive
    ``os.kill(pid, 0)`` finds the process, or finds it is another user's.

Example: ``handle, path = make("window", ".bin")`` opens
``/tmp/pb-window-4242-1f0c9a7e-k2j1x9qa.bin`` in process 4242.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import socket
import tempfile
import zlib

KINDS = ("space", "window", "c4table", "stop", "dask", "pull")
_NAME = re.compile(r"^pb-(?:" + "|".join(KINDS) + r")-(\d+)-([0-9a-f]{8})-")
_SWEPT: set[tuple[int, str]] = set()  # (process, folder) pairs swept already


def make(kind: str, suffix: str, folder: str | None = None) -> tuple[int, str]:
    """``tempfile.mkstemp`` for a file of ``kind`` in ``folder`` (None: the temporary
    folder), after this process's first sweep of that folder."""
    prefix = _prefix(kind)
    folder = folder or tempfile.gettempdir()
    if (os.getpid(), folder) not in _SWEPT:
        _SWEPT.add((os.getpid(), folder))
        sweep(folder)
    return tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=folder)


def _prefix(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"unknown kind of temporary file {kind!r}")
    return f"pb-{kind}-{os.getpid()}-{scope()}-"


@functools.cache
def scope() -> str:
    """This process's scope (see the glossary): 8 hex digits."""
    parts = [socket.gethostname()]
    with contextlib.suppress(OSError):
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as stream:
            parts.append(stream.read().strip())
    with contextlib.suppress(OSError):
        parts.append(str(os.stat("/proc/self/ns/pid").st_ino))
    return f"{zlib.crc32('|'.join(parts).encode()):08x}"


def named(kind: str, name: str, suffix: str) -> str:
    """The path of this process's file of ``kind`` called ``name`` in the temporary
    folder: a name fixed by the caller (a Dask worker's channel, one per run), not
    drawn; the caller makes the file."""
    return os.path.join(tempfile.gettempdir(), f"{_prefix(kind)}{name}{suffix}")


def sweep(folder: str) -> int:
    """Remove the package's files in ``folder`` whose maker, in this process's scope,
    is gone; how many went."""
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    removed = 0
    for name in names:
        found = _NAME.match(name)
        if found and found.group(2) == scope() and not alive(int(found.group(1))):
            with contextlib.suppress(OSError):  # another's file, or swept meanwhile
                os.remove(os.path.join(folder, name))
                removed += 1
    return removed


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (see the glossary)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process
        return True
    return True
