"""Connect-Four: bitboards and move strings (``board``), Pascal Pons' exact solver
compiled with numba (``solver``, its kernels in ``kernel/``), the solve split over
workers (``parallel``) and the ``games connect4`` command line (``cli``).

Importing this package loads the board only (no numba): the solver loads with
``solver`` or ``parallel``.
"""

from .board import Board, Connect4Game, InvalidMoveError, Position

__all__ = ["Board", "Connect4Game", "InvalidMoveError", "Position"]
