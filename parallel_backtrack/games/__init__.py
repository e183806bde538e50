"""Two-player game search: the Game protocol, minimax, negamax, alpha-beta (with a
transposition table, iterative deepening, null windows), the alpha-beta
assignment's text format (``trees``), Nim, tic-tac-toe, Connect-Four (the
``connect4`` package) and parallel alpha-beta (Young Brothers Wait, ``ybw``).

Importing the package is cheap: each name below loads its module on first use (PEP 562),
so ``python -m parallel_backtrack.games --help`` loads neither numpy (the tree reader)
nor the engine's pools (parallel alpha-beta).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes

if TYPE_CHECKING:
    from .deepening import iterative_deepening, null_window
    from .game import BaseGame, Game, SearchResult
    from .nim import MultiNim, Nim, nim_theory, xor_rule
    from .randomtree import RandomTree
    from .search import NoActionsError, alphabeta, minimax, negamax
    from .table import TranspositionTable
    from .tictactoe import GameHistories, TicTacToe
    from .trees import TreeFormatError, TreeGame, parse_tree
    from .ybw import ParallelResult, parallel_alphabeta

_HOMES = {
    "BaseGame": "game",
    "Game": "game",
    "GameHistories": "tictactoe",
    "MultiNim": "nim",
    "Nim": "nim",
    "NoActionsError": "search",
    "ParallelResult": "ybw",
    "RandomTree": "randomtree",
    "SearchResult": "game",
    "TicTacToe": "tictactoe",
    "TranspositionTable": "table",
    "TreeFormatError": "trees",
    "TreeGame": "trees",
    "alphabeta": "search",
    "iterative_deepening": "deepening",
    "minimax": "search",
    "negamax": "search",
    "nim_theory": "nim",
    "null_window": "deepening",
    "parallel_alphabeta": "ybw",
    "parse_tree": "trees",
    "xor_rule": "nim",
}



__all__ = [
    "BaseGame",
    "Game",
    "GameHistories",
    "MultiNim",
    "Nim",
    "NoActionsError",
    "ParallelResult",
    "RandomTree",
    "SearchResult",
    "TicTacToe",
    "TranspositionTable",
    "TreeFormatError",
    "TreeGame",
    "alphabeta",
    "iterative_deepening",
    "minimax",
    "negamax",
    "nim_theory",
    "null_window",
    "parallel_alphabeta",
    "parse_tree",
    "xor_rule",
]

__getattr__, __dir__ = lazy_attributes(__name__, _HOMES, __all__)
