import pytest

from parallel_backtrack.engine import UnknownNameError
from parallel_backtrack.nqueens import (
    FewestCandidatesRow,
    FirstAvailableRow,
    ImmutableQueenLocations,
    order_named,
)
from parallel_backtrack.nqueens.orders import as_order
from parallel_backtrack.nqueens.trace import record_queens
from parallel_backtrack.sudoku import RowMajor


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


def test_as_order_takes_an_order_its_name_or_none_and_refuses_anything_else():
    assert isinstance(as_order("fewest"), FewestCandidatesRow)
    assert isinstance(as_order(None), FirstAvailableRow)
    order = FewestCandidatesRow()
    assert as_order(order) is order
    with pytest.raises(UnknownNameError, match="did you mean 'fewest'"):
        as_order("fewset")
    message = (r"order must be a row order \(an object with select_next_unplaced_row, such as "
               r"FirstAvailableRow\(\)\), an order name \['fewest', 'first-available'\] or None,"
               r" got 3$")
    with pytest.raises(TypeError, match=message):
        as_order(3)
    with pytest.raises(TypeError, match="got RowMajor"):
        as_order(RowMajor())  # a Sudoku order


def test_the_step_trace_takes_an_order_name():
    by_name = record_queens(6, "fewest", limit=200)
    assert by_name.order == "fewest"
    assert by_name.as_data() == record_queens(6, FewestCandidatesRow(), limit=200).as_data()
    with pytest.raises(TypeError, match="order must be a row order"):
        record_queens(6, 2.5)
