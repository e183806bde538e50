"""N-Queens' expected subtree sizes (``nqueens.sizes``), against measured ones.

Every size the hints are judged by is the node count of a full search of that
subtree by the compiled kernel (``QueensSpace.count_below`` without a budget).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parallel_backtrack.nqueens import ImmutableQueenLocations
from parallel_backtrack.nqueens.sizes import size_hints
from parallel_backtrack.nqueens.space import QueensSpace
from parallel_backtrack.nqueens.symmetry import CanonicalBoard, canonical_children


def _canonical_level(n: int, depth: int) -> list[CanonicalBoard]:
    level = [CanonicalBoard(ImmutableQueenLocations(n))]
    for _ in range(depth):
        level = [child for state in level for child in canonical_children(state)
                 if isinstance(child, CanonicalBoard)]
    return level


def _ranks(values: list[float]) -> list[int]:
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0] * len(values)
    for rank, index in enumerate(order):
        ranks[index] = rank
    return ranks


def _spearman(a: list[float], b: list[float]) -> float:
    ra, rb = _ranks(a), _ranks(b)
    mean = (len(a) - 1) / 2
    return (sum((x - mean) * (y - mean) for x, y in zip(ra, rb, strict=True))
            / sum((x - mean) ** 2 for x in ra))


@pytest.mark.parametrize(("n", "depth", "least"), [(10, 2, 0.9), (11, 3, 0.9), (12, 3, 0.9)])
def test_hints_rank_canonical_subtrees_as_their_measured_sizes(n, depth, least):
    states = _canonical_level(n, depth)
    space = QueensSpace(ImmutableQueenLocations(n))
    nodes = [space.count_below(state, 10**12).nodes for state in states]
    hints = size_hints(states)
    assert hints is not None and len(hints) == len(states)
    assert _spearman(hints, [float(x) for x in nodes]) >= least
    # the biggest hint is a subtree in the measured top third
    biggest = max(range(len(hints)), key=hints.__getitem__)
    assert sorted(nodes).index(nodes[biggest]) >= 2 / 3 * len(nodes)


def test_hints_are_relative_sizes_in_zero_one():
    hints = size_hints(_canonical_level(9, 2))
    assert hints is not None and max(hints) == 1.0
    assert all(0 < h <= 1 and math.isfinite(h) for h in hints)
    assert size_hints([]) == []


def test_plain_boards_get_no_hints():
    board = ImmutableQueenLocations(8)
    assert size_hints([board.place(0, 1), board.place(0, 3)]) is None
    assert QueensSpace(board, symmetry="none").size_hints([board.place(0, 1)]) is None


def test_a_dead_end_is_far_smaller_than_a_live_board():
    # 4x4: queens at (0, 1) and (1, 3) leave (2, 0) and (3, 2), a solution; at (0, 0)
    # and (1, 2) no queen fits in row 2
    live = CanonicalBoard(ImmutableQueenLocations(4).place(0, 1).place(1, 3))
    dead = CanonicalBoard(ImmutableQueenLocations(4).place(0, 0).place(1, 2))
    assert not dead.board.free_mask(2)
    hints = size_hints([live, dead])
    assert hints is not None and hints[1] < 0.01 * hints[0]


@settings(max_examples=60, deadline=None)
@given(st.integers(5, 20), st.lists(st.integers(0, 19), min_size=1, max_size=6), st.data())
def test_hints_of_any_canonical_boards_are_finite_and_positive(n, columns, data):
    boards = []
    for count in range(1, len(columns) + 1):
        board = ImmutableQueenLocations(n)
        for row, col in enumerate(columns[:min(count, n - 1)]):
            if board.free_mask(row) >> (col % n) & 1:
                board = board.place(row, col % n)
        boards.append(CanonicalBoard(board))
    boards = data.draw(st.permutations(boards))
    hints = size_hints(boards)
    assert hints is not None and len(hints) == len(boards)
    assert all(0 < h <= 1 and math.isfinite(h) for h in hints)
    assert max(hints) == 1.0
