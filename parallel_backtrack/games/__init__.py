"""Two-player game search: the Game protocol, minimax, negamax, alpha-beta (with a
transposition table, iterative deepening, null windows), the alpha-beta
assignment's text format (``trees``), Nim, tic-tac-toe, Connect-Four (the
``connect4`` package) and parallel alpha-beta (Young Brothers Wait, ``ybw``)."""

from .deepening import iterative_deepening, null_window
from .game import BaseGame, Game, SearchResult
from .nim import MultiNim, Nim, nim_theory, xor_rule
from .randomtree import RandomTree
from .search import NoActionsError, alphabeta, minimax, negamax
from .table import TranspositionTable
from .tictactoe import GameHistories, TicTacToe
from .trees import TreeFormatError, TreeGame, parse_tree
from .ybw import ParallelResult, parallel_alphabeta

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
