"""Classes of N-Queens solutions from the total, by Burnside's lemma.

Glossary
--------
Q, total
    All solutions of the n x n board (OEIS A000170).
S90, S180
    The solutions a quarter turn / a half turn maps onto themselves
    (``kernel.canonical.count_rotation_symmetric``).
classes
    Solutions up to the 8 symmetries of the square (OEIS A002562): the
    average number of solutions a symmetry fixes,
    ``(Q + 2 * S90 + S180 + fixed_by_reflections) / 8``.

Example: ``unique_from_total(8, 92)`` is 12.
"""

from __future__ import annotations

from .kernel.canonical import count_rotation_symmetric
from .symmetry import REFLECTIONS


def unique_from_total(n: int, total: int, quarter_turn_fixed: int | None = None,
                      half_turn_fixed: int | None = None) -> int:
    """Essentially different solutions (A002562) from the total Q(n) (A000170).

    The fixed counts default to a fast count of the rotation-symmetric solutions.
    """
    if quarter_turn_fixed is None or half_turn_fixed is None:
        quarter_turn_fixed = count_rotation_symmetric(n, 1)
        half_turn_fixed = count_rotation_symmetric(n, 2)
    # A reflection fixes no solution for n > 1: two queens swapped by it attack
    # along a row, a column or a diagonal, and too few squares lie on its axis.
    reflections = len(REFLECTIONS) * total if n == 1 else 0
    fixed = total + 2 * quarter_turn_fixed + half_turn_fixed + reflections
    if fixed % 8:
        raise ArithmeticError(
            f"internal error: Burnside's sum {fixed} for n = {n} (total {total}) is not a "
            "multiple of 8; the total is wrong"
        )
    return fixed // 8
