"""The box sizes every layer of the Sudoku package accepts, checked in one place.

Glossary
--------
box, b
    The side of one box: 2..6.  The grid is ``n x n`` with ``n = b * b``
    (4x4 .. 36x36).  Example: box 3 is the classic 9x9 grid.

This module imports nothing heavy, so the reference layer (``grid``) and the
compiled layer (``kernel``) can both use it.
"""

from __future__ import annotations

from numbers import Integral

from ..engine.checks import WrongTypeError

BOX_SIZES = (2, 3, 4, 5, 6)


def check_box(box: object) -> int:
    """``box`` as an int when it is a supported box size (a numpy integer will do),
    else ValueError naming the choices (WrongTypeError, a TypeError, for no integer)."""
    message = f"box size must be one of {list(BOX_SIZES)}, got {box!r}"
    if isinstance(box, bool) or not isinstance(box, Integral):
        raise WrongTypeError(message)
    if int(box) not in BOX_SIZES:
        raise ValueError(message)
    return int(box)
