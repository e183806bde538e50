"""A bounded transposition table for the generic searches.

Glossary
--------
entry
    ``(key, value, flag, depth, action)`` for one position: ``value`` scored for the
    player to move there, ``depth`` the plies searched below it (``FULL_DEPTH``:
    to the end of the game), ``action`` the best action found (tried first next time).
flag
    ``EXACT``: the value itself; ``LOWER``: the value is at least this (the search
    failed high: a cut-off); ``UPPER``: at most this (it failed low).
slot
    ``hash(key) % capacity``: each key has one slot.
replacement policy
    Always replace: a new entry overwrites whatever sits in its slot (the entry
    keeps its full key, so a collision only loses information, never gives a wrong
    answer).  The position searched last is the likeliest to come back (iterative
    deepening, the next null-window probe), as in Pascal Pons' Connect-Four table.

Example: ``TranspositionTable(1 << 16)`` holds at most 65,536 entries.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ..engine.arguments import check_count

EXACT, LOWER, UPPER = 0, 1, 2
FULL_DEPTH = 1 << 30
DEFAULT_CAPACITY = 1 << 20

Entry = tuple[Hashable, float, int, int, Any]


class TranspositionTable:
    """At most ``capacity`` entries, one slot per key, always-replace."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        check_count("capacity", capacity, none=False)
        self.capacity = capacity
        self._slots: list[Entry | None] = [None] * capacity
        self.stores = 0

    def get(self, key: Hashable) -> Entry | None:
        entry = self._slots[hash(key) % self.capacity]
        if entry is not None and entry[0] == key:
            return entry
        return None

    def put(self, key: Hashable, value: float, flag: int, depth: int, action: Any) -> None:
        self._slots[hash(key) % self.capacity] = (key, value, flag, depth, action)
        self.stores += 1

    def __repr__(self) -> str:
        # ``len`` walks every slot: the repr shows what costs nothing to read.
        return f"TranspositionTable(capacity={self.capacity}, stores={self.stores})"

    def __len__(self) -> int:
        return sum(entry is not None for entry in self._slots)

    def clear(self) -> None:
        self._slots = [None] * self.capacity


def flag_for(value: float, alpha: float, beta: float) -> int:
    """What a fail-hard or fail-soft result in window (alpha, beta) says."""
    if value <= alpha:
        return UPPER
    if value >= beta:
        return LOWER
    return EXACT
