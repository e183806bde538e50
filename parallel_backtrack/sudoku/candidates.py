"""Candidate sets: immutable sets of small positive ints backed by one bitmask.

Glossary
--------
mask
    An int whose bit v - 1 is set when value v is in the set.
    Example: ``0b100100101`` is the set {1, 3, 6, 9}.
low bit
    The smallest value of a mask, as a one-bit mask (``x & -x``).
bits(mask)
    The one-bit masks of a mask, ascending: ``bits(0b101) -> 0b1, 0b100``.

A ``CandidateSet`` is a ``collections.abc.Set``: ``in``, ``len``, iteration in
ascending order, comparisons and ``& | - ^`` all work, and every operation
returns a new set.  It prints the way a set literal does: ``{1, 3, 6, 9}`` (the
empty set as ``{}``: no candidates).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Set
from typing import Any

from ..engine.checks import WrongTypeError


def low_bit(mask: int) -> int:
    """The smallest value of ``mask`` as a one-bit mask (0 for the empty mask)."""
    return mask & -mask


def popcount(mask: int) -> int:
    """How many values ``mask`` holds."""
    return mask.bit_count()


def is_single(mask: int) -> bool:
    """True when ``mask`` holds exactly one value."""
    return mask != 0 and mask & (mask - 1) == 0


def bits(mask: int) -> Iterator[int]:
    """The one-bit masks of ``mask``, smallest value first."""
    while mask:
        bit = mask & -mask
        yield bit
        mask ^= bit


def value_of_bit(bit: int) -> int:
    """The value a one-bit mask stands for (``0b100 -> 3``)."""
    return bit.bit_length()


def values_of(mask: int) -> list[int]:
    """The values of ``mask``, ascending (``0b101 -> [1, 3]``)."""
    return [bit.bit_length() for bit in bits(mask)]


def mask_of(values: Iterable[int]) -> int:
    """The mask of some positive values; raises ValueError on a value below 1,
    WrongTypeError (a TypeError) on one that is no int."""
    mask = 0
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int):
            raise WrongTypeError(f"candidate values are ints >= 1, got {value!r}")
        if value < 1:
            raise ValueError(f"candidate values are ints >= 1, got {value!r}")
        mask |= 1 << (value - 1)
    return mask


class CandidateSet(Set[int]):
    """An immutable set of values 1, 2, .. backed by a bitmask."""

    __slots__ = ("_mask",)
    _mask: int

    def __init__(self, values: Iterable[int] = ()) -> None:
        object.__setattr__(self, "_mask", mask_of(values))

    @classmethod
    def from_mask(cls, mask: int) -> CandidateSet:
        """The set whose bit v - 1 is set in ``mask`` for each value v."""
        if isinstance(mask, bool) or not isinstance(mask, int):
            raise WrongTypeError(f"a candidate mask is an int >= 0, got {mask!r}")
        if mask < 0:
            raise ValueError(f"a candidate mask is an int >= 0, got {mask!r}")
        made = object.__new__(cls)
        object.__setattr__(made, "_mask", mask)
        return made

    @classmethod
    def _from_iterable(cls, it: Iterable[int]) -> CandidateSet:  # type: ignore[override]
        return cls(it)

    @property
    def mask(self) -> int:
        """The backing bitmask."""
        return self._mask

    def __contains__(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return False
        return bool(self._mask >> (value - 1) & 1)

    def __iter__(self) -> Iterator[int]:
        return (bit.bit_length() for bit in bits(self._mask))

    def __len__(self) -> int:
        return self._mask.bit_count()

    def __and__(self, other: Iterable[Any]) -> CandidateSet:
        if isinstance(other, CandidateSet):
            return CandidateSet.from_mask(self._mask & other._mask)
        return super().__and__(other)  # type: ignore[return-value, operator]

    def __or__(self, other: Iterable[Any]) -> CandidateSet:  # type: ignore[override]
        if isinstance(other, CandidateSet):
            return CandidateSet.from_mask(self._mask | other._mask)
        return super().__or__(other)  # type: ignore[return-value, operator]

    def __sub__(self, other: Iterable[Any]) -> CandidateSet:
        if isinstance(other, CandidateSet):
            return CandidateSet.from_mask(self._mask & ~other._mask)
        return super().__sub__(other)  # type: ignore[return-value, operator]

    def __xor__(self, other: Iterable[Any]) -> CandidateSet:  # type: ignore[override]
        if isinstance(other, CandidateSet):
            return CandidateSet.from_mask(self._mask ^ other._mask)
        return super().__xor__(other)  # type: ignore[return-value, operator]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CandidateSet):
            return self._mask == other._mask
        return super().__eq__(other)

    def __hash__(self) -> int:
        return self._hash()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"CandidateSet is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"CandidateSet is immutable; cannot delete {name!r}")

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (CandidateSet.from_mask, (self._mask,))

    def __repr__(self) -> str:
        return "{" + ", ".join(map(str, self)) + "}"
