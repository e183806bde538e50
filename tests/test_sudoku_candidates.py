"""CandidateSet: an immutable collections.abc.Set of values backed by a bitmask."""

from __future__ import annotations

import pickle
from collections.abc import Set

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parallel_backtrack.sudoku.candidates import (
    CandidateSet,
    bits,
    is_single,
    low_bit,
    mask_of,
    popcount,
    value_of_bit,
    values_of,
)

values = st.frozensets(st.integers(min_value=1, max_value=36))


def test_prints_like_a_set_literal_in_ascending_order() -> None:
    cands = CandidateSet([9, 3, 1, 6])
    assert repr(cands) == "{1, 3, 6, 9}" and str(cands) == "{1, 3, 6, 9}"
    assert list(cands) == [1, 3, 6, 9]
    assert repr(CandidateSet()) == "{}"


def test_is_a_set_backed_by_a_mask() -> None:
    cands = CandidateSet.from_mask(0b100100101)
    assert isinstance(cands, Set)
    assert cands == {1, 3, 6, 9} and cands.mask == 0b100100101
    assert 3 in cands and 2 not in cands and 0 not in cands and "3" not in cands
    assert len(cands) == 4
    assert hash(cands) == hash(frozenset({1, 3, 6, 9}))
    assert cands <= {1, 3, 6, 9, 10} and cands.isdisjoint({2, 4})


def test_operations_return_new_sets() -> None:
    a, b = CandidateSet([1, 2, 3]), CandidateSet([3, 4])
    results = [a & b, a | b, a - b, a ^ b, a & {2}, a | {7}]
    assert results == [{3}, {1, 2, 3, 4}, {1, 2}, {1, 2, 4}, {2}, {1, 2, 3, 7}]
    assert all(isinstance(r, CandidateSet) for r in results)
    assert a == {1, 2, 3} and b == {3, 4}


def test_is_immutable_and_pickles() -> None:
    cands = CandidateSet([1, 5])
    with pytest.raises(AttributeError, match="immutable"):
        cands._mask = 0  # type: ignore[misc]
    with pytest.raises(AttributeError, match="immutable"):
        cands.extra = 1  # type: ignore[attr-defined]
    assert pickle.loads(pickle.dumps(cands)) == cands


def test_bad_values_are_refused() -> None:
    with pytest.raises(ValueError, match="candidate values are ints >= 1, got 0"):
        CandidateSet([0])
    with pytest.raises(ValueError, match="candidate values are ints >= 1, got 'x'"):
        CandidateSet(["x"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="a candidate mask is an int >= 0, got -1"):
        CandidateSet.from_mask(-1)


def test_bit_helpers() -> None:
    assert list(bits(0b10110)) == [0b10, 0b100, 0b10000]
    assert low_bit(0b10100) == 0b100 and low_bit(0) == 0
    assert popcount(0b1011) == 3
    assert is_single(0b1000) and not is_single(0) and not is_single(0b11)
    assert value_of_bit(0b100) == 3
    assert values_of(0b100100101) == [1, 3, 6, 9]
    assert mask_of([1, 3]) == 0b101


@given(values, values)
def test_agrees_with_frozenset(a: frozenset[int], b: frozenset[int]) -> None:
    ca, cb = CandidateSet(a), CandidateSet(b)
    assert list(ca) == sorted(a)
    assert (ca & cb, ca | cb, ca - cb, ca ^ cb) == (a & b, a | b, a - b, a ^ b)
    assert (ca <= cb, ca < cb, ca == cb) == (a <= b, a < b, a == b)
    assert CandidateSet.from_mask(ca.mask) == ca
