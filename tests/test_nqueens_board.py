import pickle

import pytest

from parallel_backtrack.nqueens import ImmutableQueenLocations, from_columns, is_queens_solution

LAB_ROW_CANDIDATES = [[], [0, 1, 2, 6, 7], [0, 1, 3, 5, 7], [0, 2, 3, 5, 6],
                      [1, 2, 3, 5, 6, 7]] + [[0, 1, 2, 3, 5, 6, 7]] * 3


def test_lab_candidates_after_queen_at_0_4():
    board = ImmutableQueenLocations(8).create_next(0, 4)
    assert [board.candidate_columns_in_row(r) for r in range(8)] == LAB_ROW_CANDIDATES
    assert board.column_of_queen_in_row(0) == 4
    assert board.column_of_queen_in_row(1) is None


def test_create_next_never_changes_the_original():
    empty = ImmutableQueenLocations(5)
    one = empty.create_next(2, 2)
    assert empty.queen_count == 0 and one.queen_count == 1
    assert empty.candidate_columns_in_row(0) == [0, 1, 2, 3, 4]
    with pytest.raises(AttributeError, match="immutable"):
        one.queens = ()


@pytest.mark.parametrize("row,col,match", [
    (0, 1, "row 0 already has a queen"),
    (1, 1, r"square \(1, 1\) is attacked"),
    (1, 0, r"square \(1, 0\) is attacked"),
    (3, 0, r"square \(3, 0\) is attacked"),
    (4, 0, r"row 4 is off the board; expected 0..3"),
    (0, -1, r"column -1 is off the board"),
    ("a", 0, "row must be an integer, got 'a'"),
])
def test_create_next_rejects_illegal_moves(row, col, match):
    board = ImmutableQueenLocations(4).create_next(0, 0)
    with pytest.raises(ValueError, match=match):
        board.create_next(row, col)


@pytest.mark.parametrize("size,match", [(0, "between 1 and 64, got 0"), (65, "got 65"),
                                        (2.5, "must be an integer"), (True, "integer")])
def test_board_size_is_validated(size, match):
    with pytest.raises(ValueError, match=match):
        ImmutableQueenLocations(size)


def test_threat_free_agrees_with_candidates():
    board = from_columns([1, 3, -1, -1])
    for row in range(4):
        free = board.candidate_columns_in_row(row)
        assert [c for c in range(4) if board.is_location_threat_free(row, c)] == free
    assert board.candidate_columns_in_row(2) == [0]


def test_board_prints_and_pickles():
    board = from_columns([1, 3, 0, 2])
    assert str(board).splitlines() == [". Q . .", ". . . Q", "Q . . .", ". . Q ."]
    copy = pickle.loads(pickle.dumps(board))
    assert copy == board and copy.cols == board.cols and copy.diag == board.diag
    assert is_queens_solution(copy.queens) and copy.is_complete()


def test_independent_checker_rejects_bad_placements():
    assert is_queens_solution([1, 3, 0, 2])
    assert not is_queens_solution([0, 1, 2, 3])
    assert not is_queens_solution([1, 3, 0, 0])
    assert not is_queens_solution([])
