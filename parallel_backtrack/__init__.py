"""parallel_backtrack: exact backtracking search on all your cores, and on a cluster."""

from .engine import (
    SearchInterrupted,
    SearchReport,
    Space,
    count,
    sequential_count,
    solutions,
    solve,
)

__all__ = [
    "SearchInterrupted",
    "SearchReport",
    "Space",
    "__version__",
    "count",
    "sequential_count",
    "solutions",
    "solve",
]
__version__ = "0.1.0"
