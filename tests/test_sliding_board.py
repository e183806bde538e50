"""Board: the CS61B/algs4 methods, both goal conventions, parity, twin, printing."""

from __future__ import annotations

import itertools
import random

import pytest
from sliding_check import distances_from, exact_distances, goal_of, replay

from parallel_backtrack.sliding.board import (
    Board,
    InvalidBoardError,
    WorldState,
    apply_move,
    check_tiles,
    goal_tiles,
    is_solvable,
)


def reachable(tiles: tuple[int, ...], goal: str) -> bool:
    """Plain BFS over a 2x2 or 3x3 board: the reference for parity."""
    return tuple(goal_of(len(tiles), goal)) in distances_from(tiles)


@pytest.mark.parametrize("goal", ["blank-last", "blank-first"])
def test_parity_matches_bfs_on_every_2x2(goal: str) -> None:
    for perm in itertools.permutations(range(4)):
        assert is_solvable(perm, goal) == reachable(perm, goal), perm


@pytest.mark.parametrize("goal", ["blank-last", "blank-first"])
def test_parity_matches_bfs_on_3x3_samples(goal: str) -> None:
    rng = random.Random(5)
    # One BFS from the goal gives every reachable state; parity must agree on samples.
    seen = exact_distances(goal)
    assert len(seen) == 181440
    for _ in range(400):
        perm = tuple(rng.sample(range(9), 9))
        assert is_solvable(perm, goal) == (perm in seen)


def test_methods_on_algs4_example() -> None:
    board = Board.from_rows([[8, 1, 3], [4, 0, 2], [7, 6, 5]])
    assert board.size() == 3
    assert board.tile_at(0, 0) == 8 and board.tile_at(1, 1) == 0
    assert board.hamming() == 5  # algs4's worked example
    assert board.manhattan() == 10
    assert board.estimated_distance_to_goal() == 10
    assert not board.is_goal()
    assert Board.solved(3).is_goal() and Board.solved(3, "blank-first").is_goal()
    assert str(board) == "8 1 3\n4 _ 2\n7 6 5"
    assert isinstance(board, WorldState)


def test_neighbors_are_one_legal_move_each() -> None:
    board = Board.from_rows([[8, 1, 3], [4, 0, 2], [7, 6, 5]])
    found = board.neighbors()
    assert [b.tiles for b in found] == [tuple(replay(board.tiles, m)) for m in "ULRD"]
    corner = Board((0, 1, 2, 3), "blank-first")
    assert [b.tiles for b in corner.neighbors()] == [(1, 0, 2, 3), (2, 1, 0, 3)]


def test_equality_hash_immutability() -> None:
    a, b = Board((1, 2, 3, 0)), Board([1, 2, 3, 0])
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Board((1, 2, 3, 0), "blank-first")
    with pytest.raises(AttributeError):
        a.tiles = (0, 1, 2, 3)  # type: ignore[misc]


def test_twin_flips_solvability() -> None:
    rng = random.Random(1)
    for n in (2, 3, 4, 5):
        for _ in range(20):
            board = Board(tuple(rng.sample(range(n * n), n * n)))
            assert board.twin().is_solvable() != board.is_solvable()
            assert sorted(board.twin().tiles) == sorted(board.tiles)


def test_goal_conventions() -> None:
    assert goal_tiles(3) == (1, 2, 3, 4, 5, 6, 7, 8, 0)
    assert goal_tiles(3, "blank-first") == tuple(range(9))
    assert Board(tuple(range(9)), "blank-first").manhattan() == 0
    assert Board(tuple(range(9))).manhattan() > 0
    with pytest.raises(ValueError, match="unknown goal 'middle'"):
        Board(tuple(range(9)), "middle")


@pytest.mark.parametrize("tiles, message", [
    ((1, 2, 3), "3 tiles is not a square number"),
    ((1, 2, 3, 4), "no blank"),
    ((0, 1, 1, 2), "tile 1 appears twice"),
    ((0, 1, 2, 7), "tile 7 is out of range 0..3"),
    ((0,), "n = 1 is out of range"),
    (tuple(range(121)), "n = 11 is out of range"),
])
def test_bad_tiles(tiles: tuple[int, ...], message: str) -> None:
    with pytest.raises(InvalidBoardError, match=message):
        check_tiles(tiles)


def test_apply_move_refuses_leaving_the_board() -> None:
    with pytest.raises(ValueError, match="off the board"):
        apply_move((0, 1, 2, 3), 2, "U")
    with pytest.raises(ValueError, match="unknown move"):
        apply_move((0, 1, 2, 3), 2, "X")


def test_large_board_prints_aligned() -> None:
    board = Board.solved(10)
    lines = str(board).splitlines()
    assert len(lines) == 10 and lines[-1].endswith(" _") and lines[0].startswith(" 1")


def test_from_rows_refuses_ragged_rows() -> None:
    with pytest.raises(InvalidBoardError, match=r"rows\[1\] has 2 tiles, expected 3"):
        Board.from_rows([[1, 2, 3], [4, 5], [6, 7, 0, 8]])
    with pytest.raises(InvalidBoardError, match=r"rows\[0\] has 4 tiles, expected 2"):
        Board.from_rows([[1, 2, 3, 0], []])
    with pytest.raises(TypeError, match="rows must be a sequence of rows of ints, got str"):
        Board.from_rows("1230")
    assert Board.from_rows([[1, 2], [3, 0]]) == Board((1, 2, 3, 0))


@pytest.mark.parametrize("tiles, message", [
    ("123456708", r"tiles must be a sequence of ints \(row-major, 0 the blank\), "
                  r"got str '123456708'"),
    (b"\x01\x02\x03\x00", "tiles must be a sequence of ints .* got bytes"),
    ({0, 1, 2, 3}, "tiles must be a sequence of ints .* got set"),
    (5, "tiles must be a sequence of ints .* got int 5"),
    (None, "tiles must be a sequence of ints .* got NoneType None"),
    ((1.0, 2, 3, 0), r"tiles must be ints, got 1.0 \(float\)"),
    ((1, 2, 3, 0.0), r"tiles must be ints, got 0.0 \(float\)"),
    ((True, 2, 3, 0), r"tiles must be ints, got True \(bool\)"),
    (("1", "2", "3", "0"), r"tiles must be ints, got '1' \(str\)"),
])
def test_board_takes_a_sequence_of_ints_only(tiles: object, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        Board(tiles)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=message):
        is_solvable(tiles)  # type: ignore[arg-type]


def test_board_keeps_its_documented_forms() -> None:
    import numpy as np

    tiles = (8, 1, 3, 4, 0, 2, 7, 6, 5)
    for form in (tiles, list(tiles), np.array(tiles), iter(tiles)):
        board = Board(form)  # type: ignore[arg-type]
        assert board.tiles == tiles and type(board.tiles[0]) is int
    assert Board.from_rows([[8, 1, 3], [4, 0, 2], [7, 6, 5]]) == Board(tiles)
    assert repr(Board((1, 2, 3, 0))) == "Board(tiles=(1, 2, 3, 0), goal='blank-last')"


def test_solved_refuses_a_size_that_is_not_an_int() -> None:
    with pytest.raises(ValueError, match=r"n must be an integer in 2..10, got 2.5"):
        Board.solved(2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"n must be an integer in 2..10, got 11"):
        Board.solved(11)
