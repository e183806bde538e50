"""Removing the numba caches of a kernel directory's older sources.

Each edit or upgrade of a kernel directory's sources gives it a new cache directory
(see ``_jit_cache``); without this, the old ones stayed forever.  ``_jit_cache``
calls ``prune_siblings`` when it has just created the cache directory of a new
stamp, and only then (this module is not imported on a command's start-up path).

Glossary
--------
cache directory
    ``<cache root>/<kernel directory as dotted name>-<16 hex digits of its stamp>``.
sibling
    Another cache directory of the same kernel directory (same dotted name, another
    stamp): what an earlier, or a second installed, version of the sources compiled.
keep
    How many siblings stay, the most recently modified first: one, so that two
    installed versions used in turn do not remove each other's cache.
retired
    A kernel directory that moved (``RETIRED``: its old dotted name under its new
    one).  When the new one's cache is created, every cache of the old name goes:
    no version of this package that still uses it is newer.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

KEEP_SIBLINGS = 1
RETIRED = {"sudoku.cdcl.kernel": ("sudoku.cdcl",)}  # moved out of its driver's folder
_HEX = frozenset("0123456789abcdef")


def prune_siblings(current: Path, keep: int = KEEP_SIBLINGS) -> list[Path]:
    """Remove the siblings of the cache directory ``current`` but the ``keep`` most
    recently modified; return those it removed.

    Only real directories named ``<same dotted name>-<16 hex digits>`` directly in
    ``current``'s parent are touched (no symlink is followed or removed); any error
    (another process removing or using one, no permission) leaves that one alone.
    """
    stale = sorted(_siblings(current), reverse=True)[keep:] + _retired(current)
    for _, path in stale:
        shutil.rmtree(path, ignore_errors=True)
    return [Path(path) for _, path in stale if not os.path.lexists(path)]


def _siblings(current: Path) -> list[tuple[float, str]]:
    """(modification time, path) of each sibling directory of ``current`` still there."""
    found: list[tuple[float, str]] = []
    try:
        with os.scandir(current.parent) as entries:
            for entry in entries:
                if entry.name == current.name or not _same_kernel(entry.name, current.name):
                    continue
                try:
                    if entry.is_dir(follow_symlinks=False):
                        found.append((entry.stat(follow_symlinks=False).st_mtime, entry.path))
                except OSError:  # gone meanwhile
                    continue
    except OSError:  # no root, or not readable
        return []
    return found


def _retired(current: Path) -> list[tuple[float, str]]:
    """(0, path) of each cache of the kernel directories ``current``'s replaced."""
    old_names = RETIRED.get(current.name[:-17], ())
    return [(0.0, path) for name in old_names
            for _, path in _siblings(current.parent / f"{name}-{current.name[-16:]}")]


def _same_kernel(name: str, current: str) -> bool:
    """Is ``name`` ``<current's dotted name>-<16 hex digits>``?"""
    return (len(name) == len(current) > 17 and name[:-16] == current[:-16]
            and current[-17] == "-" and set(name[-16:]) <= _HEX)
