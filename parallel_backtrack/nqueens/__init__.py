"""N-Queens on the engine: the lab's immutable board, row orders, a fast kernel.

``find_one`` and ``LocalResult`` (local search, numpy and numba) load on first use,
so that importing the package (and ``--help``) does not load a compiler.

The board, symmetry and unique counts, the kernel and local search: docs/nqueens.md in
the repository; the command line ``python -m parallel_backtrack.nqueens``: docs/cli.md.
"""

from typing import TYPE_CHECKING, Any

from .board import ImmutableQueenLocations, from_columns
from .orders import FewestCandidatesRow, FirstAvailableRow, order_named
from .sequential import lab_count
from .space import QueensSpace, count_report, count_solutions, count_unique
from .verify import is_queens_solution

__all__ = [
    "FewestCandidatesRow",
    "FirstAvailableRow",
    "ImmutableQueenLocations",
    "LocalResult",
    "QueensSpace",
    "count_report",
    "count_solutions",
    "count_unique",
    "find_one",
    "from_columns",
    "is_queens_solution",
    "lab_count",
    "order_named",
]

if TYPE_CHECKING:
    from .local.search import LocalResult, find_one

_LAZY = {"LocalResult", "find_one"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from .local import search

        return getattr(search, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
