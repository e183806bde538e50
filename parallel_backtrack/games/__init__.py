"""Two-player game search: the Game protocol, minimax, negamax, alpha-beta (with a
transposition table, iterative deepening, null windows), the alpha-beta
assignment's text format, Nim, tic-tac-toe, Connect-Four and parallel alpha-beta."""

from .deepening import iterative_deepening, null_window
from .game import Game, SearchResult
from .nim import MultiNim, Nim, nim_theory, xor_rule
from .parallel import ParallelResult, parallel_alphabeta
from .randomtree import RandomTree
from .search import NoActionsError, alphabeta, minimax, negamax
from .table import TranspositionTable
from .textformat import TreeFormatError, TreeGame, parse_tree
from .tictactoe import GameHistories, TicTacToe

__all__ = [
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
