"""ImmutableSudokuPuzzle: the lab's facts, immutability, givens, errors, printing."""

from __future__ import annotations

import pickle

import pytest
from sudoku_data import HARDEST

from parallel_backtrack.sudoku.candidates import CandidateSet
from parallel_backtrack.sudoku.propagate import PROPAGATORS
from parallel_backtrack.sudoku.puzzle import ImmutableSudokuPuzzle, InvalidPuzzleError
from parallel_backtrack.sudoku.space import is_valid_solution

SOLVED = "859612437723854169164379528986147352375268914241593786432981675617425893598736241"
FOUR = "1...|..2.|.3..|...4"


def test_the_labs_facts_on_norvigs_hardest_with_peers() -> None:
    puzzle = ImmutableSudokuPuzzle(HARDEST, propagation="peers")
    assert puzzle.value("A1") == 8 and puzzle.value("A2") == 5
    assert puzzle.candidates("A3") == {1, 3, 6, 9}
    assert isinstance(puzzle.candidates("A3"), CandidateSet)
    assert puzzle.value("A3") is None
    after = puzzle.create_next("A3", 3)
    assert after.candidates("A4") == {6, 7, 9}
    assert after.value("A3") == 3
    assert puzzle.candidates("A3") == {1, 3, 6, 9} and puzzle.value("A3") is None
    assert puzzle == ImmutableSudokuPuzzle(HARDEST, propagation="peers")


def test_squares_by_name_or_index() -> None:
    puzzle = ImmutableSudokuPuzzle(HARDEST, propagation="peers")
    assert puzzle.candidates(2) == puzzle.candidates("A3") == puzzle.candidates("a3")
    assert puzzle.value(0) == 8
    assert puzzle.create_next(2, 3) == puzzle.create_next("A3", 3)


def test_the_default_propagation_is_units() -> None:
    puzzle = ImmutableSudokuPuzzle(HARDEST)
    assert puzzle.propagation == "units"
    assert (puzzle.box, puzzle.size, len(puzzle.masks)) == (3, 9, 81)


def test_givens_as_text_flat_sequence_or_rows() -> None:
    flat = [int(ch) if ch != "." else 0 for ch in HARDEST]
    rows = [[v or None for v in flat[r * 9 : r * 9 + 9]] for r in range(9)]
    grid = "\n".join(" ".join(ch for ch in HARDEST[r * 9 : r * 9 + 9]) for r in range(9))
    expected = ImmutableSudokuPuzzle(HARDEST)
    assert ImmutableSudokuPuzzle(flat) == ImmutableSudokuPuzzle(rows) == expected
    assert ImmutableSudokuPuzzle(grid) == expected


def test_a_solution_is_solved_and_checks_out() -> None:
    for propagation in PROPAGATORS:
        puzzle = ImmutableSudokuPuzzle(SOLVED, propagation)
        assert puzzle.is_solved() and not puzzle.is_dead()
        assert is_valid_solution(HARDEST, puzzle.cells) and puzzle.line() == SOLVED


NOT_A_CANDIDATE = r"^2 is not a candidate for A3 \(candidates: 1, 3, 6, 9\)$"


def test_a_filled_square_or_a_value_that_is_not_a_candidate_is_refused() -> None:
    puzzle = ImmutableSudokuPuzzle(HARDEST, "peers")
    with pytest.raises(ValueError, match=NOT_A_CANDIDATE):
        puzzle.create_next("A3", 2)
    with pytest.raises(ValueError, match=r"^A1 is already filled \(8\)$"):
        puzzle.create_next("A1", 5)
    with pytest.raises(ValueError, match=r"^A1 is already filled \(8\)$"):
        puzzle.create_next(0, 8)  # even with its own value: nothing to place
    plain = ImmutableSudokuPuzzle(HARDEST, "none")  # candidates worked out when asked
    with pytest.raises(ValueError, match=NOT_A_CANDIDATE):
        plain.create_next("A3", 2)
    assert plain.create_next("A3", 3).value("A3") == 3


def test_a_dead_puzzle_has_no_next_puzzle() -> None:
    masks = list(ImmutableSudokuPuzzle(HARDEST, "peers").masks)
    masks[2] = 0  # A3 has no candidate left
    dead = ImmutableSudokuPuzzle.from_masks(3, masks, "peers")
    assert dead.is_dead() and not dead.is_solved()
    assert dead.candidates("A3") == set() and dead.next_puzzles(3) == []
    with pytest.raises(ValueError, match=r"this puzzle is dead .*: no puzzle follows it"):
        dead.create_next("A4", 6)
    empty = ImmutableSudokuPuzzle.from_masks(3, masks, "peers", dead=False)
    with pytest.raises(ValueError, match=r"^1 is not a candidate for A3 \(candidates: none\)$"):
        empty.create_next("A3", 1)


def test_next_puzzles_are_one_per_candidate_in_ascending_order() -> None:
    puzzle = ImmutableSudokuPuzzle(HARDEST, "peers")
    children = puzzle.next_puzzles(2)
    assert [child.value("A3") for child in children] == [1, 3, 6, 9]
    assert children == [puzzle.create_next("A3", v) for v in (1, 3, 6, 9)]


def test_create_next_refuses_values_out_of_range() -> None:
    puzzle = ImmutableSudokuPuzzle(HARDEST)
    with pytest.raises(ValueError, match=r"value must be an integer in 1\.\.9, got 10"):
        puzzle.create_next("A3", 10)
    with pytest.raises(ValueError, match="unknown square 'Z3'"):
        puzzle.create_next("Z3", 1)


def test_repeated_givens_name_the_squares() -> None:
    with pytest.raises(InvalidPuzzleError, match=r"A1 and A5 both hold 1 \(same row\)"):
        ImmutableSudokuPuzzle("1...1" + "." * 76)
    with pytest.raises(InvalidPuzzleError, match=r"A1 and B2 both hold 7 \(same box\)"):
        ImmutableSudokuPuzzle("7" + "." * 9 + "7" + "." * 70)
    with pytest.raises(InvalidPuzzleError, match=r"A1 and A2 both hold 3 \(same row, box\)"):
        ImmutableSudokuPuzzle("33" + "." * 79)
    with pytest.raises(InvalidPuzzleError, match=r"A1, B1 and I1 all hold 4 \(same column\)"):
        ImmutableSudokuPuzzle("4" + "." * 8 + "4" + "." * 62 + "4" + "." * 8)
    assert issubclass(InvalidPuzzleError, ValueError)


def test_values_out_of_range_name_the_squares() -> None:
    message = r"values must be 1\.\.9: A1 holds 'A'; B1 holds 'C'"  # as typed
    with pytest.raises(InvalidPuzzleError, match=message):
        ImmutableSudokuPuzzle("A" + "." * 8 + "C" + "." * 71)
    with pytest.raises(InvalidPuzzleError, match=r"values must be 1\.\.4: A2 holds 5"):
        ImmutableSudokuPuzzle([1, 5] + [0] * 14)


def test_unreadable_givens() -> None:
    with pytest.raises(InvalidPuzzleError, match="80 cells; a puzzle line has 16, 81"):
        ImmutableSudokuPuzzle(HARDEST[:-1])
    with pytest.raises(InvalidPuzzleError, match="80 cells is no Sudoku size"):
        ImmutableSudokuPuzzle([0] * 80)
    with pytest.raises(InvalidPuzzleError, match=r"cell 3 is '7'; cells are ints, 0 or None"):
        ImmutableSudokuPuzzle([0, 0, 0, "7"] + [0] * 12)  # type: ignore[list-item]
    with pytest.raises(InvalidPuzzleError, match="expected one puzzle, found 2"):
        ImmutableSudokuPuzzle(HARDEST + "\n" + HARDEST)


def test_the_input_is_never_mutated() -> None:
    rows = [[1, 0, 0, 0], [0, 0, 2, 0], [0, 3, 0, 0], [0, 0, 0, 4]]
    ImmutableSudokuPuzzle(rows)
    assert rows == [[1, 0, 0, 0], [0, 0, 2, 0], [0, 3, 0, 0], [0, 0, 0, 4]]


def test_puzzles_are_immutable_and_pickle_small() -> None:
    puzzle = ImmutableSudokuPuzzle(HARDEST)
    with pytest.raises(AttributeError, match="immutable"):
        puzzle._masks = ()  # type: ignore[misc]
    data = pickle.dumps(puzzle)
    assert pickle.loads(data) == puzzle and len(data) < 400
    assert hash(pickle.loads(data)) == hash(puzzle)


def test_from_masks_keeps_the_masks_as_they_are() -> None:
    puzzle = ImmutableSudokuPuzzle(HARDEST, "peers")
    again = ImmutableSudokuPuzzle.from_masks(3, puzzle.masks, "peers")
    assert again == puzzle
    raw = ImmutableSudokuPuzzle.from_masks(3, [511] * 81)
    assert raw.candidates("A1") == set(range(1, 10)) and not raw.is_dead()
    assert ImmutableSudokuPuzzle.from_masks(3, [0] + [511] * 80).is_dead()
    with pytest.raises(InvalidPuzzleError, match="a 9x9 puzzle needs 81 masks in 0..511, got 80"):
        ImmutableSudokuPuzzle.from_masks(3, [511] * 80)


def test_prints_as_a_grid() -> None:
    text = str(ImmutableSudokuPuzzle(HARDEST, "peers"))
    lines = text.splitlines()
    assert lines[0] == "8 5 . | . . 2 | 4 . ."
    assert lines[3] == "------+-------+------"
    assert len(lines) == 11
    assert repr(ImmutableSudokuPuzzle(FOUR)).startswith("ImmutableSudokuPuzzle('1")


def test_a_four_by_four_puzzle() -> None:
    puzzle = ImmutableSudokuPuzzle(FOUR)
    assert puzzle.size == 4 and puzzle.value("B3") == 2 and puzzle.value("D4") == 4
    assert str(puzzle).splitlines()[2] == "----+----"
