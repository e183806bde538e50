"""Pons' scores and the table entries' codec, in plain Python: the board, the
parallel solve and the compiled search (which compiles these same functions with
``numba.njit``) share one copy.

Glossary
--------
cells / plies
    The board's cells; stones already down.
score (Pons' convention)
    For the player to move: 0 a draw; ``win_score`` when they win with their next
    stone (a faster win scores more); negative for a loss.
node range
    ``node_range(cells, plies)``: what the compiled negamax knows of a node where
    the player to move cannot win at once and has a move that does not lose at
    once: the opponent cannot win before their next-but-one stone, nor the player
    before theirs.
code
    What a table entry keeps of a value, one byte (0: empty): ``v`` up to
    ``span`` is an upper bound ``v + lo - 1``, above it a lower bound
    ``v - span + lo - 1``; ``lo`` and ``span`` come from ``table_limits``.
entry
    One 64-bit word ``(key mod 2^56) << 8 | code`` for the position key
    ``current + mask``, at slot ``key % size`` (``table.store`` and ``table.load``,
    compiled: the only code that packs or unpacks an entry).

Example: ``win_score(42, 0) == 21``; ``decode_code(encode_code(5, True, *table_limits(42)),
*table_limits(42)) == (True, 5)``.
"""

from __future__ import annotations


def win_score(cells: int, plies: int) -> int:
    """The score of the player to move who wins with their next stone."""
    return (cells + 1 - plies) // 2


def loss_score(cells: int, plies: int) -> int:
    """The score of the player to move whose every move lets the opponent win at once."""
    return -((cells - plies) // 2)


def node_range(cells: int, plies: int) -> tuple[int, int]:
    """(low, high): the bounds on a searched node's score (see the glossary)."""
    return -((cells - 2 - plies) // 2), (cells - 1 - plies) // 2


def table_limits(cells: int) -> tuple[int, int]:
    """(lo, span) of the codes: ``lo`` below every score, ``span`` codes per kind."""
    lo = -(cells // 2) - 1
    return lo, (cells + 1) // 2 + 1 - lo + 1


def encode_code(value: int, lower: bool, lo: int, span: int) -> int:
    """The code of ``value``, a lower bound (``lower``) or an upper bound."""
    return value - lo + 1 + (span if lower else 0)


def decode_code(code: int, lo: int, span: int) -> tuple[bool, int]:
    """(lower, bound) of a code that is not 0."""
    if code > span:
        return True, code - span + lo - 1
    return False, code + lo - 1

