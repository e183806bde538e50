import pytest

from parallel_backtrack.engine import UnknownNameError
from parallel_backtrack.nqueens import (
    FewestCandidatesRow,
    FirstAvailableRow,
    ImmutableQueenLocations,
    order_named,
)


def test_lab_next_row_examples():
    board = ImmutableQueenLocations(8)
    for row, col in [(0, 0), (1, 3), (2, 6), (6, 7)]:
        board = board.create_next(row, col)
    assert FirstAvailableRow().select_next_unplaced_row(board) == 3
    small = ImmutableQueenLocations(3).create_next(0, 1)
    assert small.candidate_columns_in_row(1) == []
    assert FirstAvailableRow().select_next_unplaced_row(small) == 1  # dead row, not skipped


def test_full_board_has_no_next_row():
    board = ImmutableQueenLocations(1).create_next(0, 0)
    assert FirstAvailableRow().select_next_unplaced_row(board) is None
    assert FewestCandidatesRow().select_next_unplaced_row(board) is None


def test_fewest_picks_a_dead_row_first():
    board = ImmutableQueenLocations(3).create_next(0, 1)
    assert FewestCandidatesRow().select_next_unplaced_row(board) == 1
    board = ImmutableQueenLocations(6).create_next(0, 0)
    counts = {r: len(board.candidate_columns_in_row(r)) for r in range(1, 6)}
    chosen = FewestCandidatesRow().select_next_unplaced_row(board)
    assert counts[chosen] == min(counts.values())


def test_order_names():
    assert isinstance(order_named("fewest"), FewestCandidatesRow)
    with pytest.raises(UnknownNameError, match="did you mean 'fewest'"):
        order_named("fewset")
