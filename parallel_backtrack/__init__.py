"""parallel_backtrack: exact tree search on all your cores, and on a cluster.

Problems that come with it, each a subpackage with a command line: ``nqueens``,
``sudoku``, ``sliding`` (sliding-tile puzzles: A*, parallel IDA*, pattern databases) and
``games`` (alpha-beta, Nim, Connect-Four, parallel alpha-beta); ``viz`` writes the
self-contained HTML pages of ``--html``; your own trees run on the same engine.

The top level re-exports the engine's modes (``count``, ``solve``, ``solutions``) and
``Space``, each loaded on first use (the engine's own names are lazy too: a command
line's ``--help`` loads no pool).  Documentation: README.md, and docs/ in the
repository: docs/engine.md (the Space contract and the modes), docs/cli.md (the command
lines), docs/nqueens.md, docs/sudoku.md, docs/sliding.md, docs/games.md, docs/viz.md,
docs/results.md, docs/design.md (glossary and layout).
"""

from typing import TYPE_CHECKING, Any

from ._lean import apply as _apply_lean
from ._lean import quiet_start as _quiet_start

_quiet_start()  # a command line's Ctrl-C while importing: exit 130, no traceback
_apply_lean()  # before numba loads: only in our command lines and their workers

if TYPE_CHECKING:
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


def __getattr__(name: str) -> Any:
    """The engine's names, loaded on first use (PEP 562)."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import engine

    value = getattr(engine, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
