"""One convention at every family's entry points: an argument of the wrong type (a str,
a float, None or a bool where an integer is wanted) is a TypeError, an integer out of
range a ValueError (``engine.checks``).  The TypeError is a ``WrongTypeError``, also a
ValueError, so code that catches ValueError for a bad argument goes on working."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from parallel_backtrack.engine import (
    WrongTypeError,
    check_int,
    count,
    solutions,
    solve,
    threshold_search,
)
from parallel_backtrack.engine.examples import NoAdjacentOnes
from parallel_backtrack.games import RandomTree
from parallel_backtrack.games.connect4.board import Board as Connect4Board
from parallel_backtrack.games.connect4.parallel import parallel_solve
from parallel_backtrack.games.ybw import parallel_alphabeta
from parallel_backtrack.nqueens import ImmutableQueenLocations, find_one, lab_count
from parallel_backtrack.nqueens.trace import record_queens
from parallel_backtrack.sliding import Board, Solver
from parallel_backtrack.sliding.board import to_frame
from parallel_backtrack.sliding.ida import solve as ida_solve
from parallel_backtrack.sliding.ida import solve_parallel
from parallel_backtrack.sliding.space import SlidingSpace
from parallel_backtrack.sudoku import count_solutions
from parallel_backtrack.sudoku import solve as sudoku_solve
from parallel_backtrack.sudoku.cdcl.solver import solve_cdcl

SPACE = NoAdjacentOnes(4)
EIGHT = Board((8, 1, 3, 4, 0, 2, 7, 6, 5))
SUDOKU = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
C4 = Connect4Board(4, 4)


def _walk() -> SlidingSpace:
    return SlidingSpace(to_frame(Board((1, 2, 3, 4, 5, 6, 7, 0, 8))), 3, "manhattan")


# (what, call with one argument, a wrong type, an integer out of range, the message)
CASES: list[tuple[str, Callable[[Any], object], object, object, str]] = [
    ("count workers", lambda v: count(SPACE, workers=v), "2", 0, "workers must be"),
    ("count limit", lambda v: count(SPACE, limit=v), 2.5, -1, "limit must be"),
    ("count budget", lambda v: count(SPACE, budget=v), True, 0, "budget must be"),
    ("solve workers", lambda v: solve(SPACE, workers=v), 2.0, -2, "workers must be"),
    ("solve per_worker", lambda v: solve(SPACE, per_worker=v), "9", 0, "per_worker must be"),
    ("solutions limit", lambda v: list(solutions(SPACE, limit=v)), "1", -1, "limit must be"),
    ("threshold_search workers", lambda v: threshold_search(_walk(), workers=v), "2", 0,
     "workers must be"),
    ("threshold_search per_worker", lambda v: threshold_search(_walk(), per_worker=v), None,
     0, "per_worker must be"),
    ("threshold_search max_nodes", lambda v: threshold_search(_walk(), max_nodes=v), "9", 0,
     "max_nodes must be"),
    ("nqueens lab_count", lab_count, "8", 0, "board size must be"),
    ("nqueens board", ImmutableQueenLocations, 8.0, 0, "board size must be"),
    ("nqueens find_one", find_one, True, 0, "n must be"),
    ("nqueens record_queens", record_queens, "8", 17, "n must be an integer in 1..16"),
    ("sudoku solve workers", lambda v: sudoku_solve(SUDOKU, workers=v), "2", 0,
     "workers must be"),
    ("sudoku count_solutions limit", lambda v: count_solutions(SUDOKU, limit=v), 2.5, 0,
     "limit must be"),
    ("sudoku solve_cdcl max_conflicts", lambda v: solve_cdcl(SUDOKU, max_conflicts=v), "9",
     0, "max_conflicts must be"),
    ("sliding ida workers", lambda v: ida_solve(EIGHT, workers=v), "2", 0, "workers must be"),
    ("sliding ida chunk", lambda v: ida_solve(EIGHT, chunk=v), 1.5, 0, "chunk must be"),
    ("sliding solve_parallel workers", lambda v: solve_parallel(EIGHT, workers=v), True, -3,
     "workers must be"),
    ("sliding Solver max_nodes", lambda v: Solver(EIGHT, max_nodes=v), 1.5, 0,
     "max_nodes must be"),
    ("sliding Board.solved", Board.solved, "3", 1, "n must be"),
    ("games parallel_alphabeta split_depth",
     lambda v: parallel_alphabeta(RandomTree(2, 3), split_depth=v), None, 0,
     "split_depth must be"),
    ("games parallel_alphabeta workers",
     lambda v: parallel_alphabeta(RandomTree(2, 3), workers=v), "2", 0, "workers must be"),
    ("connect4 parallel_solve split_depth",
     lambda v: parallel_solve(C4, C4.parse(""), split_depth=v), "4", 0,
     "split_depth must be"),
    ("connect4 parallel_solve workers",
     lambda v: parallel_solve(C4, C4.parse(""), workers=v), 2.0, 0, "workers must be"),
    ("connect4 parallel_solve tt_mb", lambda v: parallel_solve(C4, C4.parse(""), tt_mb=v),
     "1", 0, "positive size in MB"),
    ("games RandomTree branching", lambda v: RandomTree(v, 3), 2.5, 0, "branching must be"),
    ("games RandomTree depth", lambda v: RandomTree(2, v), None, -1, "depth must be"),
]
IDS = [case[0] for case in CASES]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("what, call, wrong, _out, message", CASES, ids=IDS)
def test_a_wrong_type_is_a_type_error(what: str, call: Callable[[Any], object],
                                      wrong: object, _out: object, message: str) -> None:
    with pytest.raises(TypeError, match=message) as caught:
        call(wrong)
    assert repr(wrong) in str(caught.value)  # what arrived
    assert "\n" not in str(caught.value)
    assert isinstance(caught.value, ValueError)  # code that caught ValueError still does


@pytest.mark.timeout(60)
@pytest.mark.parametrize("what, call, _wrong, out, message", CASES, ids=IDS)
def test_an_integer_out_of_range_is_a_value_error(what: str, call: Callable[[Any], object],
                                                  _wrong: object, out: object,
                                                  message: str) -> None:
    with pytest.raises(ValueError, match=message) as caught:
        call(out)
    assert not isinstance(caught.value, TypeError)
    assert repr(out) in str(caught.value)


def test_check_int_takes_numpy_integers_and_tells_type_from_range() -> None:
    np = pytest.importorskip("numpy")
    assert check_int("n", np.int64(5), low=1) == 5 and type(check_int("n", np.int8(5))) is int
    with pytest.raises(WrongTypeError, match="n must be an integer >= 1, got '5'"):
        check_int("n", "5", low=1)
    with pytest.raises(ValueError, match="n must be an integer >= 1, got 0") as caught:
        check_int("n", 0, low=1)
    assert type(caught.value) is ValueError
