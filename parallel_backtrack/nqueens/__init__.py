"""N-Queens on the engine: the lab's immutable board, row orders, a fast kernel."""

from .board import ImmutableQueenLocations, from_columns
from .orders import FewestCandidatesRow, FirstAvailableRow, order_named
from .sequential import sequential_count
from .space import QueensSpace, count_report, count_solutions
from .verify import is_queens_solution

__all__ = [
    "FewestCandidatesRow",
    "FirstAvailableRow",
    "ImmutableQueenLocations",
    "QueensSpace",
    "count_report",
    "count_solutions",
    "from_columns",
    "is_queens_solution",
    "order_named",
    "sequential_count",
]
