"""Heuristics by name: the one resolver, the kernel's tables, plain-Python versions for A*.

Glossary
--------
name
    ``hamming`` (tiles out of place), ``manhattan`` (sum of each tile's row and
    column distance), ``linear`` (Manhattan plus 2 per tile that must leave its
    goal line to let the others pass), ``pdb`` (additive disjoint pattern
    databases: the exact 3x3 table on 3x3, 6-6-3 with reflection on 4x4) or
    a named database (``pdb-555``, ``pdb-663``, ``pdb-78``, ``pdb-exact``).  All
    admissible.
auto
    IDA*: ``pdb`` where there is one (3x3, 4x4), else ``linear``.  A*: a 4x4
    database only if it is already cached (6-6-3, else 5-5-5), else ``linear``:
    A* by default never starts a build.
resolve
    ``resolve(name, n, algorithm)``: the concrete heuristic a name stands for, or
    ValueError naming the choices (``UnknownNameError``, with a "did you mean", for a
    name that is none of them).  The command line, ``jobs``, ``astar`` and
    ``fastastar`` all ask here.
Tables
    What the kernel reads (``tables.py``), built or mapped once per process by
    ``tables_for``.

Example: ``resolve("auto", 4, "ida") == "pdb-663"``; ``resolve("pdb", 5)`` raises.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..engine.checks import UnknownNameError, did_you_mean
from .board import Board, to_frame
from .pdbfiles import PDB_SIZES

if TYPE_CHECKING:
    from .tables import Tables

HEURISTICS = ("hamming", "manhattan", "linear", "pdb")
PDB_NAMES = ("pdb-exact", "pdb-555", "pdb-663", "pdb-78")
NAMES = ("auto",) + HEURISTICS + PDB_NAMES
ALGORITHMS = ("ida", "astar")
ASTAR_REFUSED = ("pdb-78",)  # A* reads sparse tables only
__all__ = ["HEURISTICS", "NAMES", "PDB_NAMES", "Tables", "cached_pdb", "default_pdb",
           "python_heuristic", "resolve", "tables_for", "to_frame"]


def default_pdb(n: int) -> str | None:
    """The pattern database ``pdb`` stands for on an n x n board (None: there is none)."""
    return {3: "pdb-exact", 4: "pdb-663"}.get(n)


def cached_pdb(n: int) -> str | None:
    """A 4x4 database that is already cached (6-6-3, else 5-5-5): A*'s ``auto``.  A
    database found stays found (per cache folder); an absent one is looked for again."""
    if n != 4:
        return None
    from .pdb import cache_dir, load_cached

    where = str(cache_dir())
    if where not in _FOUND:
        for name in ("pdb-663", "pdb-555"):
            if load_cached(4, name) is not None:
                _FOUND[where] = name
                break
    return _FOUND.get(where)


_FOUND: dict[str, str] = {}


def resolve(name: str, n: int, algorithm: str = "ida") -> str:
    """The heuristic ``name`` stands for on an n x n board for ``algorithm``."""
    if name not in NAMES:
        raise UnknownNameError(did_you_mean("heuristic", name, NAMES))
    if name == "auto":
        if algorithm == "astar":
            return cached_pdb(n) or "linear"
        return default_pdb(n) or "linear"
    if name == "pdb":
        found = default_pdb(n)
        if found is None:
            raise ValueError(f"no pattern database for {n}x{n} boards (there are 3x3 and "
                             "4x4 ones); use --heuristic linear")
        name = found
    if algorithm == "astar" and name in ASTAR_REFUSED:  # on any board: said first
        raise ValueError(f"A* does not read {name} (ranked tables); use pdb-663 or pdb-555")
    if name in PDB_SIZES and n not in PDB_SIZES[name]:
        sizes = " or ".join(f"{k}x{k}" for k in PDB_SIZES[name])
        raise ValueError(f"{name} is for {sizes} boards, not {n}x{n}")
    return name


_CACHE: dict[tuple[int, str], Tables] = {}


def tables_for(n: int, name: str, progress: bool | None = None) -> Tables:
    """The kernel tables of heuristic ``name`` on an n x n board (built once per process)."""
    if (n, name) not in _CACHE:
        concrete = resolve(name, n)
        if (n, concrete) not in _CACHE:
            _CACHE[(n, concrete)] = _build(n, concrete, progress)
        _CACHE[(n, name)] = _CACHE[(n, concrete)]
    return _CACHE[(n, name)]


def _build(n: int, name: str, progress: bool | None) -> Tables:
    from .kernel import search as kernel
    from .pdb import pattern_tables
    from .tables import Tables, cost_table, neighbors_table

    neighbors = neighbors_table(n)
    if name in ("hamming", "manhattan"):
        return Tables(n, name, kernel.PER_TILE, cost_table(n, name), neighbors=neighbors)
    if name == "linear":
        return Tables(n, name, kernel.LINEAR, cost_table(n, "manhattan"), neighbors=neighbors)
    return pattern_tables(n, name, neighbors, progress)


def _lc_total(board: Board) -> int:
    import numpy as np

    from .kernel import search as kernel

    frame = to_frame(board)
    n = board.size()
    tiles = np.array(frame, np.int8)
    return sum(int(kernel.line_conflicts(tiles, n, line, is_row))
               for line in range(n) for is_row in (True, False))


def python_heuristic(name: str, n: int) -> Callable[[Board], int]:
    """``h(board)`` for A*; ``pdb`` reads the same tables as the kernel."""
    if name == "hamming":
        return Board.hamming  # type: ignore[return-value]
    if name == "manhattan":
        return Board.manhattan  # type: ignore[return-value]
    if name == "linear":
        return lambda board: board.manhattan() + _lc_total(board)
    import numpy as np

    from .kernel import search as kernel

    tables = tables_for(n, name)
    aux = np.zeros(tables.aux_width(), np.int64)
    initial_h: Any = kernel.initial_h  # numba's Dispatcher type lists no arguments

    def lookup(board: Board) -> int:
        tiles = np.array(to_frame(board), np.int8)
        return int(initial_h(tiles, n, *tables.kernel_args()[:9], aux))

    return lookup
