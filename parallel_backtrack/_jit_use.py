"""Marking a kernel cache as in use, so that pruning leaves it alone.

A process that uses the cache directory of a kernel directory ``hold``s it (once per
directory and process, from ``_jit_cache``'s locators): it sets the directory's
modification time to now, its last use, by which ``_jit_prune`` ranks the caches,
and keeps a shared lock on the directory's lock file until it ends.  ``_jit_prune``
removes a cache only while it has ``claimed`` it: an exclusive lock on the same
file, which no one can have while a process holds the cache.  Holding costs five
system calls (no read of the cache): some 15 microseconds, 20-60 the first time, when
it makes the lock file.

Where there are no file locks (Windows: no ``fcntl``), the open lock file itself keeps
the directory from being renamed, and pruning renames a cache before it removes it.

Glossary
--------
last use
    The modification time of a cache directory: set by ``hold``, and by numba when it
    writes a compiled kernel there.
lock file
    ``<cache directory>/in-use.lock``, empty.  A holder makes it when missing: caches
    made before there were lock files have none, and a cache without one has no holder.
hold, claim
    A shared lock (any number of processes) and an exclusive one (a pruner, for as
    long as it takes to rename the directory away).

Example: ``hold(cache_root() / "sudoku.kernel-ae2098396c739f70")``.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

fcntl: Any
try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

LOCK_NAME = "in-use.lock"
HOLD_TRIES = 50  # 20 ms apart: a pruner keeps its claim for microseconds
HOLD_PAUSE = 0.02
_held: list[int] = []  # open lock files, for the rest of the process


def hold(cache: Path) -> bool:
    """Mark the cache directory ``cache`` used now and hold it until this process
    ends; True if held (False where it cannot be: no permission, no file locks)."""
    lock = cache / LOCK_NAME
    for _ in range(HOLD_TRIES):
        try:
            os.utime(cache)
            fd = os.open(lock, os.O_RDONLY | os.O_CREAT, 0o666)
        except FileNotFoundError:  # renamed away by a pruner just now: make it anew
            if not _remade(cache):
                return False
            continue
        except OSError:  # not ours to mark (no permission)
            return False
        locked = _lock(fd, shared=True)
        if locked is None:  # a pruner's claim, for microseconds
            os.close(fd)
            time.sleep(HOLD_PAUSE)
            continue
        if _same_file(fd, lock):
            _held.append(fd)
            return locked
        os.close(fd)  # the lock file of a directory renamed away meanwhile
        if not _remade(cache):
            return False
    return False


@contextlib.contextmanager
def claimed(cache: Path) -> Iterator[bool]:
    """Within the block, is ``cache`` held by no process (and, while True, kept so by
    an exclusive lock)?  True too for a cache without a lock file, or where there are
    no file locks: then only the last use and the rename tell (and the lock file is
    not opened here, as an open file would stop that rename)."""
    if fcntl is None:
        yield True
        return
    try:
        fd = os.open(cache / LOCK_NAME, os.O_RDONLY)
    except FileNotFoundError:
        yield True
        return
    except OSError:
        yield False
        return
    try:
        yield _lock(fd, shared=False) is not None
    finally:
        os.close(fd)  # (closing releases the lock)


def release_all() -> None:
    """Let go of every cache this process holds (for tests that play several versions)."""
    while _held:
        os.close(_held.pop())


def _lock(fd: int, shared: bool) -> bool | None:
    """Lock the open file ``fd`` without waiting: True if locked, None if another
    process's lock is in the way, False where file locks are not available."""
    if fcntl is None:
        return False
    try:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except BlockingIOError:
        return None
    except OSError:  # a file system without locks
        return False
    return True


def _same_file(fd: int, path: Path) -> bool:
    """Is the open file ``fd`` still the one at ``path``?"""
    try:
        opened, there = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (opened.st_dev, opened.st_ino) == (there.st_dev, there.st_ino)


def _remade(cache: Path) -> bool:
    try:
        os.makedirs(cache, exist_ok=True)
    except OSError:
        return False
    return True
