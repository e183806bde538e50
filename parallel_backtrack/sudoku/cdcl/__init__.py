"""Clause learning for the hard big Sudokus: one puzzle as CNF, decided by a compiled CDCL.

Glossary
--------
solver
    ``solver.py``: the CNF of a puzzle, ``solve_cdcl`` (a ``CdclResult``) and
    ``solve_entry_cdcl`` for the CLI's rows.
kernel
    ``kernel/search.py``: the numba CDCL search (watched literals, learnt clauses,
    restarts) on integer arrays, in a directory of its own so that an edit of the
    driver does not recompile it.

Example::

    >>> from parallel_backtrack.sudoku.cdcl import solve_cdcl
    >>> solve_cdcl("1...3.1..1.4...1").line()
    '1243341221344321'
"""

from .solver import (
    SOLVED,
    STOPPED_AT_LIMIT,
    TUNING,
    UNSATISFIABLE,
    CdclResult,
    Cnf,
    read_cells,
    solve_cdcl,
    solve_entry_cdcl,
    sudoku_cnf,
    warm_up,
)

__all__ = [
    "SOLVED", "STOPPED_AT_LIMIT", "TUNING", "UNSATISFIABLE", "CdclResult", "Cnf", "read_cells",
    "solve_cdcl", "solve_entry_cdcl", "sudoku_cnf", "warm_up",
]
