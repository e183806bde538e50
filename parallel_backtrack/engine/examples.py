"""Two tiny spaces: worked examples of the Space protocol and engine test beds.

Glossary
--------
NoAdjacentOnes(length)
    States are bit strings (tuples of 0/1) with no two 1s side by side; a
    solution has ``length`` bits.  There are Fib(length + 2) solutions.
SubsetSum(values, target)
    States are ``(index, total, chosen)``; a solution picks values that add up
    to ``target`` exactly.  Subtrees differ wildly in size, which exercises the
    budget and the re-splitting of leftovers.

Example: ``count(NoAdjacentOnes(10)).count == 144``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class NoAdjacentOnes:
    length: int

    def root(self) -> tuple[int, ...]:
        return ()

    def branch(self, state: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if len(state) == self.length:
            return
        yield state + (0,)
        if not state or state[-1] == 0:
            yield state + (1,)

    def is_solution(self, state: tuple[int, ...]) -> bool:
        return len(state) == self.length


@dataclass(frozen=True, slots=True)
class SubsetSum:
    values: tuple[int, ...]
    target: int

    def root(self) -> tuple[int, int, tuple[int, ...]]:
        return (0, 0, ())

    def branch(self, state: tuple[int, int, tuple[int, ...]]) -> Iterator[tuple]:
        index, total, chosen = state
        if index == len(self.values) or total >= self.target:
            return
        value = self.values[index]
        if total + value <= self.target:
            yield (index + 1, total + value, chosen + (index,))
        yield (index + 1, total, chosen)

    def is_solution(self, state: tuple[int, int, tuple[int, ...]]) -> bool:
        index, total, _ = state
        return total == self.target and (index == len(self.values) or total >= self.target)
