"""Nim: the assignment's single heap, and multi-heap Nim under normal play.

Glossary
--------
Nim(sticks) (the assignment's rules)
    A state is ``(sticks, player)``: the sticks left and who moves (``MAX`` first).
    A move takes 1, 2 or 3 sticks and must leave at least one; the player facing a
    single stick has lost (utility -1 for them, +1 for the other).  Theory: the
    player to move loses exactly when ``sticks % 4 == 1``.
MultiNim(heaps)
    A state is ``(heaps, player)``, the heap sizes sorted (sorting merges positions
    that differ only in heap order); a move takes any positive number from one heap; normal
    play: the player who cannot move (all heaps empty) loses.  Theory (Bouton):
    the player to move loses exactly when the XOR of the heaps is 0.
action
    ``Nim``: the number of sticks taken.  ``MultiNim``: ``(heap index, taken)``.

Example: ``alphabeta(Nim(10), Nim(10).initial).value == 1`` (10 % 4 == 2: a win,
taking 1 to leave 9 = 1 mod 4).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from operator import xor

from ..engine.arguments import check_count
from ..engine.checks import WrongTypeError, is_integer
from .game import BaseGame

MAX, MIN = "MAX", "MIN"
NimState = tuple[int, str]
MultiState = tuple[tuple[int, ...], int]


def other(player: str) -> str:
    return MIN if player == MAX else MAX


def check_sticks(sticks: object) -> int:
    """``sticks`` when it is a positive integer (not a bool); else WrongTypeError (a
    TypeError) or ValueError."""
    return check_count("sticks", sticks, none=False) or 0  # (never None: none=False)


def check_heaps(heaps: object) -> tuple[int, ...]:
    """``heaps`` as a tuple when they are non-negative integers (not bools): TypeError
    when not a sequence or a heap is no integer, ValueError for a negative heap."""
    if isinstance(heaps, (str, bytes)) or not isinstance(heaps, Iterable):
        raise TypeError(f"heaps must be a sequence of non-negative integers, got {heaps!r}")
    heaps = tuple(heaps)
    if not all(is_integer(h) for h in heaps):
        raise WrongTypeError(f"heaps must be non-negative integers, got {heaps!r}")
    if any(h < 0 for h in heaps):
        raise ValueError(f"heaps must be non-negative integers, got {heaps!r}")
    return heaps


class Nim(BaseGame):
    """The assignment's single-heap Nim; states are ``(sticks, player to move)``."""

    def __init__(self, sticks: int) -> None:
        self.initial: NimState = (check_sticks(sticks), MAX)

    def __repr__(self) -> str:
        return f"Nim(sticks={self.initial[0]})"

    def to_move(self, state: NimState) -> str:
        return state[1]

    def actions(self, state: NimState) -> list[int]:
        return [take for take in (1, 2, 3) if state[0] - take >= 1]

    def result(self, state: NimState, action: int) -> NimState:
        return (state[0] - action, MIN if state[1] == MAX else MAX)

    def is_terminal(self, state: NimState) -> bool:
        return state[0] == 1

    def utility(self, state: NimState, player: str) -> int:
        return -1 if player == state[1] else 1

    def key(self, state: NimState) -> int:
        # The value for the player to move does not depend on who that is.
        return state[0]


def nim_theory(sticks: int) -> int:
    """The value for the player to move by the mod-4 rule: -1 when ``sticks % 4 == 1``
    (``sticks``: a positive integer, as ``Nim`` takes)."""
    check_sticks(sticks)
    return -1 if sticks % 4 == 1 else 1


class MultiNim(BaseGame):
    """Normal-play Nim on several heaps; states are ``(sorted heaps, player)``."""

    def __init__(self, heaps: tuple[int, ...]) -> None:
        self.initial: MultiState = (tuple(sorted(check_heaps(heaps))), 0)

    def __repr__(self) -> str:
        return f"MultiNim(heaps={self.initial[0]})"

    def to_move(self, state: MultiState) -> int:
        return state[1]

    def actions(self, state: MultiState) -> list[tuple[int, int]]:
        heaps = state[0]
        return [(index, taken) for index, size in enumerate(heaps)
                if index == 0 or size != heaps[index - 1]
                for taken in range(size, 0, -1)]

    def result(self, state: MultiState, action: tuple[int, int]) -> MultiState:
        index, taken = action
        heaps = list(state[0])
        heaps[index] -= taken
        return (tuple(sorted(heaps)), 1 - state[1])

    def is_terminal(self, state: MultiState) -> bool:
        return not any(state[0])

    def utility(self, state: MultiState, player: int) -> int:
        # The player to move at the end cannot move: they lost.
        return -1 if player == state[1] else 1

    def key(self, state: MultiState) -> tuple[int, ...]:
        return state[0]


def xor_rule(heaps: tuple[int, ...]) -> int:
    """Bouton: the value for the player to move, -1 exactly when the XOR is 0
    (``heaps``: non-negative integers, as ``MultiNim`` takes)."""
    return -1 if reduce(xor, check_heaps(heaps), 0) == 0 else 1
