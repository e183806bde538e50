"""Sudoku geometry: sizes, square names, units and peers."""

from __future__ import annotations

import pytest

from parallel_backtrack.sudoku.grid import box_for_cells, check_box, grid_for, row_name

SIZES = [(2, 4), (3, 9), (4, 16), (5, 25), (6, 36)]


@pytest.mark.parametrize(("box", "n"), SIZES)
def test_counts_for_every_size(box: int, n: int) -> None:
    grid = grid_for(box)
    assert (grid.size, len(grid.squares), len(grid.units)) == (n, n * n, 3 * n)
    assert all(len(unit) == n for unit in grid.units)
    assert {len(peers) for peers in grid.peers} == {3 * n - 2 * box - 1}
    assert grid.full == (1 << n) - 1


@pytest.mark.parametrize(("box", "n"), SIZES)
def test_units_and_peers_are_consistent(box: int, n: int) -> None:
    grid = grid_for(box)
    for s in grid.squares:
        assert all(s in unit for unit in grid.units_of[s])
        assert [grid.units[u] for u in grid.unit_ids[s]] == list(grid.units_of[s])
        assert s not in grid.peers[s]
        assert all(s in grid.peers[p] for p in grid.peers[s])
    for unit, get in zip(grid.units, grid.unit_getters, strict=True):
        assert get(list(range(n * n))) == unit


def test_nine_by_nine_names_and_units() -> None:
    grid = grid_for(3)
    assert grid.names[0] == "A1" and grid.names[80] == "I9"
    assert grid.square("A3") == 2 and grid.square("a3") == 2 and grid.square(2) == 2
    assert grid.name(80) == "I9"
    assert grid.units_of[grid.square("C2")] == (
        tuple(range(18, 27)),
        tuple(range(1, 81, 9)),
        (0, 1, 2, 9, 10, 11, 18, 19, 20),
    )
    assert [grid.names[p] for p in grid.peers[grid.square("C2")]][:9] == [
        "A1", "A2", "A3", "B1", "B2", "B3", "C1", "C3", "C4",
    ]


def test_big_grids_use_more_row_letters() -> None:
    assert grid_for(4).names[-1] == "P16"
    assert grid_for(5).names[-1] == "Y25"
    assert grid_for(6).names[-1] == "AJ36"
    assert grid_for(6).square("AA1") == 26 * 36
    assert [row_name(r) for r in (0, 25, 26, 35)] == ["A", "Z", "AA", "AJ"]


def test_geometry_is_computed_once_per_size() -> None:
    assert grid_for(3) is grid_for(3)
    assert grid_for(3) is not grid_for(4)


def test_box_for_cells() -> None:
    assert [box_for_cells(c) for c in (16, 81, 256, 625, 1296)] == [2, 3, 4, 5, 6]
    assert box_for_cells(80) is None


def test_bad_box_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match=r"box size must be one of \[2, 3, 4, 5, 6\].*got 7"):
        grid_for(7)
    with pytest.raises(ValueError, match="got True"):
        check_box(True)


def test_unknown_squares_name_the_choices() -> None:
    grid = grid_for(3)
    with pytest.raises(ValueError, match=r"unknown square 'J1' for a 9x9 grid; expected A1\.\.I9"):
        grid.square("J1")
    with pytest.raises(ValueError, match=r"did you mean 'A1'\?"):
        grid.square("A10")
    with pytest.raises(IndexError, match=r"square index 81 out of range 0\.\.80"):
        grid.square(81)
    with pytest.raises(TypeError, match="a square is a name like 'A1' or an index"):
        grid.square(2.0)  # type: ignore[arg-type]
