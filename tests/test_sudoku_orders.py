"""Square orders: RowMajor and FewestOptionsFirst, by object or by name."""

from __future__ import annotations

import pickle

import pytest
from sudoku_data import HARDEST

from parallel_backtrack.sudoku.orders import (
    ORDERS,
    FewestOptionsFirst,
    RowMajor,
    SquareOrder,
    as_order,
    order_named,
    select_next_unfilled_square,
)
from parallel_backtrack.sudoku.puzzle import ImmutableSudokuPuzzle
from parallel_backtrack.sudoku.trace import record_sudoku

SOLVED = "859612437723854169164379528986147352375268914241593786432981675617425893598736241"
FULL = 0b111111111


def from_masks(masks: dict[int, int], fill: int = FULL) -> ImmutableSudokuPuzzle:
    return ImmutableSudokuPuzzle.from_masks(3, [masks.get(s, fill) for s in range(81)], "peers")


def test_row_major_picks_a3_on_norvigs_hardest() -> None:
    puzzle = ImmutableSudokuPuzzle(HARDEST, "peers")
    assert RowMajor().select_next_unfilled_square(puzzle) == 2
    assert puzzle.grid.name(select_next_unfilled_square(puzzle, "row-major")) == "A3"


def test_fewest_picks_the_fewest_candidates_ties_in_row_major_order() -> None:
    puzzle = from_masks({0: 1, 5: 0b111, 7: 0b11, 9: 0b1100, 40: 0b11})
    assert FewestOptionsFirst().select_next_unfilled_square(puzzle) == 7
    puzzle = ImmutableSudokuPuzzle(HARDEST, "peers")
    counts = [len(puzzle.candidates(s)) for s in range(81)]
    fewest = min(c for c in counts if c > 1)
    assert FewestOptionsFirst().select_next_unfilled_square(puzzle) == counts.index(fewest)


def test_neither_order_skips_a_square_with_no_candidates() -> None:
    zero_late = from_masks({0: 1, 1: 0b11, 60: 0})
    assert FewestOptionsFirst().select_next_unfilled_square(zero_late) == 60
    assert RowMajor().select_next_unfilled_square(zero_late) == 1
    zero_first = from_masks({0: 1, 1: 0, 2: 0b11})
    assert RowMajor().select_next_unfilled_square(zero_first) == 1
    assert FewestOptionsFirst().select_next_unfilled_square(zero_first) == 1


def test_fewest_under_none_counts_candidates_from_filled_peers() -> None:
    # Row A holds 1..8, so the open A9 has the single candidate 9 under none.
    puzzle = ImmutableSudokuPuzzle("12345678." + "." * 72, "none")
    assert puzzle.candidates("A9") == {9} and puzzle.value("A9") is None
    assert FewestOptionsFirst().select_next_unfilled_square(puzzle) == 8
    dead = ImmutableSudokuPuzzle("12345678." + "." * 63 + "........9", "none")
    assert FewestOptionsFirst().select_next_unfilled_square(dead) == 8


@pytest.mark.parametrize("order", [RowMajor(), FewestOptionsFirst()])
@pytest.mark.parametrize("propagation", ["none", "units"])
def test_both_return_none_on_a_filled_puzzle(order: SquareOrder, propagation: str) -> None:
    assert order.select_next_unfilled_square(ImmutableSudokuPuzzle(SOLVED, propagation)) is None


def test_orders_by_name() -> None:
    assert list(ORDERS) == ["fewest", "row-major"]
    assert order_named("fewest") == FewestOptionsFirst()
    assert order_named("row-major") == RowMajor()
    assert isinstance(RowMajor(), SquareOrder)
    assert pickle.loads(pickle.dumps(FewestOptionsFirst())) == FewestOptionsFirst()


def test_unknown_order_says_did_you_mean() -> None:
    with pytest.raises(
        ValueError,
        match=r"unknown order 'fewset'; expected one of \['fewest', 'row-major'\]"
        r" \(did you mean 'fewest'\?\)",
    ):
        order_named("fewset")
    with pytest.raises(ValueError, match=r"did you mean 'row-major'\?"):
        select_next_unfilled_square(ImmutableSudokuPuzzle(HARDEST), "rowmajor")


def test_an_order_that_is_neither_an_order_nor_a_name_is_a_type_error() -> None:
    puzzle = ImmutableSudokuPuzzle(HARDEST, "peers")
    assert as_order("row-major") == RowMajor() and as_order(RowMajor()) == RowMajor()
    message = (r"order must be a square order \(an object with select_next_unfilled_square,"
               r" such as FewestOptionsFirst\(\)\) or an order name \['fewest', 'row-major'\],"
               r" got None")
    with pytest.raises(TypeError, match=message):
        select_next_unfilled_square(puzzle, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got 3$"):
        as_order(3)


def test_the_step_trace_takes_an_order_or_its_name() -> None:
    by_object = record_sudoku(HARDEST, "units", RowMajor(), limit=50)
    by_name = record_sudoku(HARDEST, "units", "row-major", limit=50)
    assert by_object.order == "row-major" and by_object.as_data() == by_name.as_data()
    with pytest.raises(TypeError, match="order must be a square order"):
        record_sudoku(HARDEST, "units", None, limit=50)  # type: ignore[arg-type]


def test_the_orders_return_the_lab_s_square_an_index_that_prints_as_its_name() -> None:
    import pickle

    from parallel_backtrack.sudoku import FewestOptionsFirst, ImmutableSudokuPuzzle, RowMajor

    hardest = "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4."
    puzzle = ImmutableSudokuPuzzle(hardest, propagation="peers")
    square = RowMajor().select_next_unfilled_square(puzzle)
    assert square == 2 and square == "A3" and square == "a3" and square != "A4"
    assert str(square) == "A3" and repr(square) == "'A3'" and f"{square}" == "A3"
    assert int(square) == 2 and {2: "x"}[square] == "x"
    assert pickle.loads(pickle.dumps(square)) == "A3"
    assert puzzle.candidates(square) == puzzle.candidates("A3") == {1, 3, 6, 9}
    fewest = FewestOptionsFirst().select_next_unfilled_square(puzzle)
    assert fewest == puzzle.grid.square(str(fewest))
    assert len(puzzle.candidates(fewest)) == min(
        len(puzzle.candidates(s)) for s in puzzle.grid.squares if puzzle.value(s) is None)
