"""Pattern databases: built on first use (``kernel/builds.py``, ``kernel/ranked.py``),
cached on disk, memory-mapped.

Glossary
--------
pattern
    A set of tiles; its database holds, for every placement of those tiles,
    the fewest moves *of pattern tiles* that bring them home (the blank and
    the other tiles move for free).  Databases of disjoint patterns add up to
    an admissible heuristic (Korf & Felner's additive databases).
index
    ``sum(cell_of(pattern[i]) * N**i)``: sparse (some entries never used) but
    updated by one multiply-add when a tile moves.
ranked
    ``pdb-78`` (Korf & Felner's 7-8 partition: the top two rows' tiles, the
    bottom two rows'): sparse tables would take 4.3 GB, so its tables have one
    entry per placement, at the placement's k-permutation rank (``kernel/ranked.py``;
    57,657,600 + 518,918,400 bytes); the kernel keeps the sparse index and ranks
    it at each lookup.
region
    The cells the blank reaches without moving a pattern tile; a BFS state is
    (index, lowest cell of the blank's region), searched layer by layer.
reflection
    The main-diagonal mirror of a state is a state with the same distance; the
    4x4 heuristics take the max of the lookup of both (no extra tables).
exact
    ``pdb-exact``: a full BFS of every state of a 2x2 or 3x3 board (181,440 on
    3x3), indexed by the rank of the whole permutation.
cache
    ``$PARALLEL_BACKTRACK_CACHE`` or the per-user cache directory
    (``platformdirs.user_cache_dir``; a private temporary folder where that cannot be
    written: ``pdbfiles``), folder ``pdb``: ``NAME.npy`` (the uint8
    array) and ``NAME.json`` (length and CRC-32), written after the array: a
    missing, short or altered file is rebuilt, never trusted.  One process of a
    machine builds at a time (a lock on the folder): the others wait, then map its
    file.

Example: ``pattern_tables(4, "pdb-663", neighbors_table(4))`` builds (about
2 x 16.8 MB) once, then maps the file in every later process.  A first build
says so on stderr (what, about how long and how much memory, where it goes).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sys
import zlib
from collections.abc import Iterator
from math import factorial, perm
from typing import Any

import numpy as np

from .kernel import search as kernel
from .kernel.builds import build_pattern, exact_bfs
from .kernel.ranked import build_ranked
from .pdbfiles import (
    BUILD_COST,
    CACHE_ENV,
    FORMAT,
    PARTITIONS,
    PDB_SIZES,
    RANKED_NAMES,
    cache_dir,
    paths,
)
from .tables import Tables, reflection

_paths = paths
__all__ = ["CACHE_ENV", "FORMAT", "PDB_SIZES", "build_pattern", "cache_dir", "database",
           "load_cached", "partition_tables", "pattern_tables", "store"]

def _build(n: int, name: str, neighbors: np.ndarray, progress: bool | None) -> np.ndarray:
    bar = None
    if progress or (progress is None and sys.stderr.isatty()):
        from tqdm import tqdm  # type: ignore[import-untyped]

        bar = tqdm(desc=f"building {name} ({n}x{n}, once)", unit=" states", file=sys.stderr)
    try:
        if name == "pdb-exact":
            return exact_bfs(n * n, neighbors, factorial(n * n))
        build = build_ranked if name in RANKED_NAMES else build_pattern
        parts = [build(n, p, neighbors, bar) for p in PARTITIONS[name]]
        return np.concatenate(parts)
    finally:
        if bar is not None:
            bar.close()


def _crc(table: np.ndarray) -> int:
    """CRC-32 of the array's bytes (no copy: numpy arrays are buffers)."""
    buffer: Any = np.ascontiguousarray(table)
    return zlib.crc32(buffer)


def load_cached(n: int, name: str) -> np.ndarray | None:
    """The cached database, memory-mapped, or None if absent, short or corrupt."""
    data, meta = _paths(n, name)
    try:
        header = json.loads(meta.read_text())
        table = np.load(data, mmap_mode="r")
        if (table.dtype != np.uint8 or table.shape != (header["length"],)
                or _crc(table) != header["crc32"]):
            return None
        return table
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store(n: int, name: str, table: np.ndarray) -> None:
    """Write the array, then its header (the header is what makes it trusted)."""
    data, meta = _paths(n, name)
    data.parent.mkdir(parents=True, exist_ok=True)
    meta.unlink(missing_ok=True)
    partial = data.with_suffix(f".tmp{os.getpid()}")
    with partial.open("wb") as stream:
        np.save(stream, table)
    os.replace(partial, data)
    header = {"length": int(table.shape[0]), "crc32": _crc(table), "name": name, "n": n}
    partial_meta = meta.with_suffix(f".tmp{os.getpid()}")
    partial_meta.write_text(json.dumps(header))
    os.replace(partial_meta, meta)


def database(n: int, name: str, neighbors: np.ndarray, progress: bool | None = None
             ) -> np.ndarray:
    """The table of ``name`` for n x n: from the cache, else built and cached."""
    if name not in PDB_SIZES:
        raise ValueError(f"unknown pattern database {name!r}; expected one of "
                         f"{list(PDB_SIZES)}")
    if n not in PDB_SIZES[name]:
        sizes = " and ".join(f"{k}x{k}" for k in PDB_SIZES[name])
        raise ValueError(f"{name} is for {sizes} boards, not {n}x{n}")
    table = load_cached(n, name)
    if table is None:
        with _one_build_at_a_time(name):
            table = load_cached(n, name)  # another process may have built it meanwhile
            if table is None:
                table = _build_and_store(n, name, neighbors, progress)
    return table


@contextlib.contextmanager
def _one_build_at_a_time(name: str) -> Iterator[None]:
    """Held while this process builds a database into the cache: the machine's other
    processes (a cluster's workers, the command beside them) wait, then map the file,
    instead of each building its own copy at the same time (K workers of one machine
    would take K times the memory: 4.7 GB each for pdb-78).  A lock on the cache
    folder (``flock``: released when the process ends, however it ends).  A folder
    that cannot be made or written is named before the build, not after it (a minute
    of 6-6-3, 15 of 7-8, lost on every try)."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder, os.O_RDONLY)
    except OSError as error:
        raise _cannot_keep(name, error) from error
    if not os.access(folder, os.W_OK):
        os.close(fd)
        raise _cannot_keep(name, PermissionError(13, "Permission denied"))
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"parallel_backtrack: waiting for another process of this machine that "
                  f"builds pattern databases in {folder} (then {name} maps or builds)",
                  file=sys.stderr, flush=True)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def _cannot_keep(name: str, error: OSError) -> OSError:
    """The error for a cache folder that cannot take ``name``, naming the machine (on a
    cluster it is a worker's folder, not the command's)."""
    import socket

    return OSError(f"cannot keep the {name} database in {cache_dir()} on "
                   f"{socket.gethostname()}: {error.strerror or error}; set {CACHE_ENV} to "
                   "a writable folder")


def _build_and_store(n: int, name: str, neighbors: np.ndarray, progress: bool | None
                     ) -> np.ndarray:
    if name in BUILD_COST:
        print(f"parallel_backtrack: building the {name} pattern databases ({n}x{n}, once; "
              f"{BUILD_COST[name]}); later runs map them from {_paths(n, name)[0]}",
              file=sys.stderr, flush=True)
    built = _build(n, name, neighbors, progress)
    try:
        store(n, name, built)
    except OSError as error:
        raise _cannot_keep(name, error) from error
    table = load_cached(n, name)
    if table is None:
        raise OSError(f"could not read back the {name} database from {cache_dir()}")
    return table


def pattern_tables(n: int, name: str, neighbors: np.ndarray, progress: bool | None
                   ) -> Tables:
    """The kernel's ``Tables`` for a named database."""
    table = database(n, name, neighbors, progress)
    if name == "pdb-exact":
        return Tables(n, name, kernel.EXACT, tables=table, neighbors=neighbors)
    return partition_tables(n, name, PARTITIONS[name], table, name in RANKED_NAMES,
                            neighbors)


def partition_tables(n: int, name: str, patterns: tuple[tuple[int, ...], ...],
                     table: np.ndarray, ranked: bool, neighbors: np.ndarray) -> Tables:
    """``Tables`` over the concatenated databases of ``patterns`` (sparse, or
    compact when ``ranked``), with the max over the main-diagonal reflection."""
    size = n * n
    group = np.zeros(size, np.int64)
    stride = np.zeros(size, np.int64)
    offsets = []
    at = 0
    for g, pattern in enumerate(patterns):
        offsets.append(at)
        for i, tile in enumerate(pattern):
            group[tile], stride[tile] = g, size**i
        at += perm(size, len(pattern)) if ranked else size ** len(pattern)
    rtile, rcell = reflection(n)
    counts = np.array([len(p) for p in patterns], np.int64)  # RANKED reads them as cost
    return Tables(n, name, kernel.RANKED if ranked else kernel.PATTERN,
                  cost=counts if ranked else np.zeros(1, np.int64), tables=table,
                  offsets=np.array(offsets, np.int64), group=group, stride=stride,
                  rtile=rtile, rcell=rcell, reflect=True, neighbors=neighbors)
