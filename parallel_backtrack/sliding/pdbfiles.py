"""The pattern-database cache on disk: where the files are, which are there, removal.

Loads neither numpy nor numba, so ``sliding pdb list`` and ``pdb remove`` start fast;
``pdb.py`` builds, checks and maps the tables.

Glossary
--------
cache
    ``$PARALLEL_BACKTRACK_CACHE/pdb``, else the per-user cache directory
    (``platformdirs.user_cache_dir("parallel_backtrack")/pdb``), else, where that
    cannot be written (a read-only home), ``pdb`` in the user's private folder of the
    temporary directory (``_jit_paths.temp_folder``, where the kernels go then too).
files
    ``NAME-NxN-vFORMAT-TAG.npy`` (the uint8 table) and ``.json`` (length, CRC-32,
    name, n), the header written last: a table without its header is an
    unfinished build.  TAG is a CRC of the partition, so a changed partition
    never reads an old file.
Cached
    One database found: its name, width, the two files' total bytes, and
    whether its header is there (``complete``).

Example: ``[c.name for c in cached()]`` lists what ``pdb list`` prints.
"""

from __future__ import annotations

import json
import os
import zlib
from dataclasses import dataclass
from pathlib import Path

CACHE_ENV = "PARALLEL_BACKTRACK_CACHE"
FORMAT = 1
# Blank-first frame.  6-6-3 by rows (tiles 1-6, 7-12, 13-15): with the reflection 898,183
# nodes a Korf instance on average, against 1,195,256 for the top row plus two 2x3 blocks
# and 0.92-2.4 million for four other 6-6-3 partitions tried (docs/sliding.md).
PARTITIONS = {
    "pdb-663": ((1, 2, 3, 4, 5, 6), (7, 8, 9, 10, 11, 12), (13, 14, 15)),
    "pdb-555": ((1, 2, 3, 5, 6), (4, 7, 8, 11, 12), (9, 10, 13, 14, 15)),
    "pdb-78": ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)),
}
RANKED_NAMES = ("pdb-78",)  # compact tables (``kernel/ranked.py``), looked up by rank
PDB_SIZES = {"pdb-exact": (2, 3), "pdb-555": (4,), "pdb-663": (4,), "pdb-78": (4,)}
# What a first build costs (said on stderr before it starts; measured on 2 cores).
BUILD_COST = {"pdb-exact": "under 2 seconds, 0.1 GB of memory",
              "pdb-555": "a few seconds, 0.1 GB of memory",
              "pdb-663": "under a minute, 0.3 GB of memory",
              "pdb-78": "about 15 minutes on 2 cores, 4.7 GB of memory"}


def cache_dir() -> Path:
    """Where databases live (see the glossary)."""
    base = os.environ.get(CACHE_ENV)
    if base:
        return Path(base) / "pdb"
    from platformdirs import user_cache_dir

    from .._jit_paths import private_folder, temp_folder, writable

    folder = Path(user_cache_dir("parallel_backtrack")) / "pdb"
    if writable(folder):
        return folder
    try:
        return private_folder(temp_folder()) / "pdb"
    except OSError:  # not ours: keep the user cache, whose write fails with its reason
        return folder


def paths(n: int, name: str) -> tuple[Path, Path]:
    """The table's and the header's file of database ``name`` on n x n boards."""
    tag = zlib.crc32(repr(PARTITIONS.get(name)).encode()) & 0xFFFF
    stem = cache_dir() / f"{name}-{n}x{n}-v{FORMAT}-{tag:04x}"
    return stem.with_suffix(".npy"), stem.with_suffix(".json")


@dataclass(frozen=True, slots=True)
class Cached:
    name: str
    n: int
    bytes: int
    complete: bool
    files: tuple[Path, ...]


def _ours(path: Path) -> bool:
    """A file of this cache: ``pdb-...-NxN-v...`` (table, header or a partial write)."""
    name = path.name
    return name.startswith("pdb-") and "-v" in name and path.is_file()


def cached() -> list[Cached]:
    """Every database in the cache (complete or not), by name then width."""
    groups: dict[str, list[Path]] = {}
    folder = cache_dir()
    for path in sorted(folder.iterdir()) if folder.is_dir() else ():
        if _ours(path):
            groups.setdefault(path.name.split(".")[0], []).append(path)
    found = []
    for stem, files in groups.items():
        name, size = stem.rsplit("-", 3)[0], stem.rsplit("-", 3)[1]
        header = folder / f"{stem}.json"
        try:
            complete = json.loads(header.read_text()).get("name") == name
        except (OSError, ValueError, AttributeError):
            complete = False
        width = int(size.split("x")[0]) if size.split("x")[0].isdigit() else 0
        found.append(Cached(name, width, sum(p.stat().st_size for p in files), complete,
                            tuple(files)))
    return sorted(found, key=lambda c: (c.name, c.n))


def remove(names: list[str] | None) -> list[Cached]:
    """Delete the databases called ``names`` (None: every one); returns what went."""
    gone = [c for c in cached() if names is None or c.name in names]
    for entry in gone:
        for path in entry.files:
            path.unlink(missing_ok=True)
    return gone
