"""Removing the numba caches of a kernel directory's other sources that no one uses.

Each edit or upgrade of a kernel directory's sources gives it a new cache directory
(see ``_jit_cache``); several versions can be in use in turn (virtual environments, git
worktrees, a release and a checkout), each with its cache in the same root.
``_jit_cache`` calls ``prune_siblings`` when it has just created the cache directory
of a new stamp, and only then (this module is not imported on a command's start-up
path).  It keeps every sibling used in the last ``MAX_AGE_DAYS`` days, up to
``MAX_VERSIONS`` caches of the kernel directory with the one in use; beyond that, it
removes the least recently used first.  It never removes the cache in use, one a
running process holds (``_jit_use``), nor, for the count, one used in the last
``RECENT_SECONDS``.

Glossary
--------
cache directory
    ``<cache root>/<kernel directory as dotted name>-<16 hex digits of its stamp>``.
sibling
    Another cache directory of the same kernel directory (same dotted name, another
    stamp): what an earlier, or another installed, version of the sources compiled.
last use
    A cache directory's modification time (``_jit_use``: set by each process that
    uses it, and by numba's writes).
stale
    A sibling unused for ``MAX_AGE_DAYS``, or beyond the ``MAX_VERSIONS - 1`` most
    recently used siblings and unused for ``RECENT_SECONDS``.
retired
    A kernel directory that moved (``RETIRED``: its old dotted name under its new
    one).  When the new one's cache is created, every cache of the old name goes:
    no version of this package that still uses it is newer.
trash
    ``.<cache directory name>.removing-<pid>``: where a stale cache is renamed (at
    once, while claimed) before it is removed (taking longer); one a removal left
    behind goes with the next prune of its kernel directory.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from ._jit_use import claimed

MAX_AGE_DAYS = 30
MAX_VERSIONS = 8  # caches kept per kernel directory, the one in use included
RECENT_SECONDS = 3600.0  # a process may have started with it without holding it yet
RETIRED = {"sudoku.cdcl.kernel": ("sudoku.cdcl",)}  # moved out of its driver's folder
TRASH = ".removing-"
_HEX = frozenset("0123456789abcdef")


def prune_siblings(current: Path) -> list[Path]:
    """Remove the stale siblings of the cache directory ``current``, the least
    recently used first, and every cache of what it retired; return those removed.

    Only real directories named ``<same dotted name>-<16 hex digits>`` directly in
    ``current``'s parent are touched (no symlink is followed or removed); any error
    (another process removing or using one, no permission) leaves that one alone.
    """
    siblings, trash = _listing(current)
    retired = [_listing(current.parent / f"{name}-{current.name[-16:]}")
               for name in RETIRED.get(current.name[:-17], ())]
    doomed = stale(siblings, time.time()) + [old for found, _ in retired for old in found]
    for path in trash + [old for _, left in retired for old in left]:
        shutil.rmtree(path, ignore_errors=True)
    return [Path(path) for used, path in doomed if _remove(path, used)]


def stale(siblings: list[tuple[float, str]], now: float) -> list[tuple[float, str]]:
    """The (last use, path) ``siblings`` to remove at time ``now``, least recently
    used first."""
    ranked = sorted(siblings, reverse=True)
    too_old = now - MAX_AGE_DAYS * 86400.0
    return [(used, path) for rank, (used, path) in reversed(list(enumerate(ranked)))
            if used < too_old or (rank >= MAX_VERSIONS - 1 and used < now - RECENT_SECONDS)]


def _remove(path: str, last_use: float) -> bool:
    """Remove the cache directory ``path`` unless a process holds it or it was used
    after ``last_use``: rename it to the trash while claimed, then delete that."""
    head, name = os.path.split(path)
    trash = os.path.join(head, f".{name}{TRASH}{os.getpid()}")
    with claimed(Path(path)) as free:
        try:
            if not free or os.stat(path, follow_symlinks=False).st_mtime != last_use:
                return False
            os.rename(path, trash)
        except OSError:  # gone, or held open (Windows), or not permitted
            return False
    shutil.rmtree(trash, ignore_errors=True)
    return True


def _listing(current: Path) -> tuple[list[tuple[float, str]], list[str]]:
    """(last use, path) of each sibling directory of ``current`` still there, and the
    trash of its kernel directory left behind."""
    found: list[tuple[float, str]] = []
    trash: list[str] = []
    try:
        with os.scandir(current.parent) as entries:
            for entry in entries:
                name = entry.name
                if name.startswith(".") and TRASH in name:
                    if _same_kernel(name[1:name.index(TRASH)], current.name):
                        trash.append(entry.path)
                    continue
                if name == current.name or not _same_kernel(name, current.name):
                    continue
                try:
                    if entry.is_dir(follow_symlinks=False):
                        found.append((entry.stat(follow_symlinks=False).st_mtime, entry.path))
                except OSError:  # gone meanwhile
                    continue
    except OSError:  # no root, or not readable
        return [], []
    return found, trash


def _same_kernel(name: str, current: str) -> bool:
    """Is ``name`` ``<current's dotted name>-<16 hex digits>``?"""
    return (len(name) == len(current) > 17 and name[:-16] == current[:-16]
            and current[-17] == "-" and set(name[-16:]) <= _HEX)
