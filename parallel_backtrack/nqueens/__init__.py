"""N-Queens on the engine: the lab's immutable board, row orders, a fast kernel.

The board, symmetry and unique counts, the kernel and local search: docs/nqueens.md in
the repository; the command line ``python -m parallel_backtrack.nqueens``: docs/cli.md.
"""

from .board import ImmutableQueenLocations, from_columns
from .local_search import LocalResult, find_one
from .orders import FewestCandidatesRow, FirstAvailableRow, order_named
from .sequential import sequential_count
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
    "order_named",
    "sequential_count",
]
