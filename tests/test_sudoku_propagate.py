"""Propagators: none, peers, units, twins; dead ends are states, not exceptions."""

from __future__ import annotations

import pytest
from sudoku_data import DATA, HARDEST

from parallel_backtrack.sudoku.candidates import bits
from parallel_backtrack.sudoku.files import read_puzzles
from parallel_backtrack.sudoku.grid import grid_for
from parallel_backtrack.sudoku.orders import FewestOptionsFirst
from parallel_backtrack.sudoku.propagate import (
    PROPAGATORS,
    all_open_candidates,
    open_candidates,
    propagate_units,
    propagator_named,
)
from parallel_backtrack.sudoku.puzzle import ImmutableSudokuPuzzle

# Row A holds 1..8, so A9 must be 9, but I9 already is: a dead end for every propagator.
DEAD_AT_A9 = "12345678." + "." * 63 + "........9"


def data_cells(name: str) -> list[tuple[int, ...]]:
    path = DATA / name
    return [entry.cells for entry in read_puzzles(path) if entry.cells is not None]


def test_propagators_are_chosen_by_name() -> None:
    assert list(PROPAGATORS) == ["none", "peers", "units", "twins", "locked", "matching"]
    assert propagator_named("units") is PROPAGATORS["units"]


def test_unknown_propagator_says_did_you_mean() -> None:
    expected = (
        r"unknown propagation 'unit'; expected one of"
        r" \['locked', 'matching', 'none', 'peers', 'twins', 'units'\]"
        r" \(did you mean 'units'\?\)"
    )
    with pytest.raises(ValueError, match=expected):
        propagator_named("unit")
    with pytest.raises(ValueError, match=expected):
        ImmutableSudokuPuzzle(HARDEST, propagation="unit")


def test_a_propagation_that_is_no_name_is_a_type_error() -> None:
    expected = (r"propagation must be a propagator name"
                r" \['locked', 'matching', 'none', 'peers', 'twins', 'units'\], got ")
    with pytest.raises(TypeError, match=expected + "None"):
        ImmutableSudokuPuzzle(HARDEST, propagation=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=expected + "<function propagate_units"):
        ImmutableSudokuPuzzle(HARDEST, propagation=propagator_named("units"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=expected + "3"):
        propagator_named(3)  # type: ignore[arg-type]


def test_peer_elimination_alone_solves_a_share_of_easy50() -> None:
    cells = data_cells("norvig_easy50.txt")
    solved = {p: sum(ImmutableSudokuPuzzle(c, p).is_solved() for c in cells) for p in PROPAGATORS}
    assert {p: solved[p] for p in ("none", "peers", "units", "twins")} == {
        "none": 0, "peers": 12, "units": 40, "twins": 44}
    assert solved["twins"] <= solved["locked"] <= solved["matching"] <= 50


def test_stronger_propagation_never_keeps_more_candidates() -> None:
    for cells in data_cells("norvig_top95.txt")[:30]:
        masks = [ImmutableSudokuPuzzle(cells, p).masks for p in ("peers", "units", "twins")]
        for weak, strong in zip(masks, masks[1:], strict=False):
            assert all(s & ~w == 0 for w, s in zip(weak, strong, strict=True))
    cells = data_cells("norvig_top95.txt")
    peers_total = sum(sum(m.bit_count() for m in ImmutableSudokuPuzzle(c, "peers").masks)
                      for c in cells)
    units_total = sum(sum(m.bit_count() for m in ImmutableSudokuPuzzle(c, "units").masks)
                      for c in cells)
    twins_total = sum(sum(m.bit_count() for m in ImmutableSudokuPuzzle(c, "twins").masks)
                      for c in cells)
    assert peers_total > units_total > twins_total


@pytest.mark.parametrize("propagation", ["peers", "units", "twins", "locked", "matching"])
def test_a_contradiction_gives_a_dead_puzzle_not_an_exception(propagation: str) -> None:
    puzzle = ImmutableSudokuPuzzle(DEAD_AT_A9, propagation)
    assert puzzle.is_dead() and not puzzle.is_solved()


def test_none_leaves_the_dead_end_for_the_order_to_find() -> None:
    puzzle = ImmutableSudokuPuzzle(DEAD_AT_A9, "none")
    assert not puzzle.is_dead()
    assert puzzle.candidates("A9") == set()
    assert FewestOptionsFirst().select_next_unfilled_square(puzzle) == 8


def test_none_candidates_are_the_values_unused_by_filled_peers() -> None:
    puzzle = ImmutableSudokuPuzzle(HARDEST, "none")
    assert puzzle.candidates("A3") == {1, 3, 6, 9}
    assert puzzle.masks[2] == grid_for(3).full
    every = all_open_candidates(puzzle.masks, puzzle.grid)
    assert every == [
        m if puzzle.is_filled(s) else open_candidates(puzzle.masks, s, puzzle.grid)
        for s, m in enumerate(puzzle.masks)
    ]


def test_a_hidden_single_is_placed_by_units_only() -> None:
    # Columns 1-8 each hold a 9 further down, so in row A only A9 may hold 9.
    cells = list("." * 81)
    for col, row in enumerate((1, 4, 7, 2, 5, 8, 3, 6)):
        cells[row * 9 + col] = "9"
    givens = "".join(cells)
    assert ImmutableSudokuPuzzle(givens, "peers").value("A9") is None
    assert ImmutableSudokuPuzzle(givens, "units").value("A9") == 9


# Columns 1 and 9 hold 1..7 in rows B..H, so A1 and A9 (and I1, I9) are {8, 9}.
TWINS = ".........1.......22.......33.......44.......55.......66.......77.......1........."


def test_naked_twins_remove_the_pair_from_the_rest_of_the_unit() -> None:
    units = ImmutableSudokuPuzzle(TWINS, "units")
    twins = ImmutableSudokuPuzzle(TWINS, "twins")
    assert units.candidates("A1") == units.candidates("A9") == twins.candidates("A1") == {8, 9}
    assert units.candidates("A5") == set(range(1, 10))
    assert twins.candidates("A5") == twins.candidates("I5") == set(range(1, 8))
    assert not twins.is_dead()


def test_three_squares_sharing_two_values_are_a_contradiction_for_twins() -> None:
    # A1, A2, C1 and C2 can only hold 8 or 9: no solution, and only twins sees it at once.
    givens = ".........123...............47.......5........6........74........5........6......."
    assert ImmutableSudokuPuzzle(givens, "twins").is_dead()
    assert not ImmutableSudokuPuzzle(givens, "units").is_dead()


def test_skipping_unchanged_units_reaches_the_same_fixed_point() -> None:
    """A child propagated with its parent's masks as a hint equals one propagated fully."""
    order = FewestOptionsFirst()
    for cells in data_cells("norvig_top95.txt")[:15]:
        stack, seen = [ImmutableSudokuPuzzle(cells)], 0
        while stack and seen < 200:
            state = stack.pop()
            seen += 1
            square = order.select_next_unfilled_square(state)
            if state.is_dead() or square is None:
                continue
            for bit in bits(state.candidate_mask(square)):
                hinted, full = list(state.masks), list(state.masks)
                hinted[square] = full[square] = bit
                alive = propagate_units(hinted, [square], state.grid, state.masks)
                assert alive == propagate_units(full, [square], state.grid, None)
                assert not alive or hinted == full
            stack.extend(state.next_puzzles(square))
