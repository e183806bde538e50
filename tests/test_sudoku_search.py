"""Solving and counting through the engine: the public data sets with known answers.

Every solution returned goes through the independent checker.  top95 and easy50 run
in full by default; the big sets are sampled, and run in full under ``-m slow`` (CI runs
the README's rows of them: marker ``ci``).
"""

from __future__ import annotations

import random
import re

import pytest
from sudoku_data import DATA, HARDEST

from parallel_backtrack import engine
from parallel_backtrack.engine.checks import UnknownNameError
from parallel_backtrack.nqueens import FirstAvailableRow
from parallel_backtrack.sudoku import (
    FewestOptionsFirst,
    ImmutableSudokuPuzzle,
    RowMajor,
    SudokuSpace,
    count_solutions,
    is_unique,
    is_valid_solution,
    read_puzzles,
    search,
    solutions,
    solve,
)
from parallel_backtrack.sudoku.search import space_for

TOP = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
# tdoku test puzzles with 847 and 0 solutions.
MANY = "...4......5..8.2.6.....3...2...4....3......1...5.3.8.25...6.3.8..6....95..8......"
NONE = "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4."
# MANY without its given at index 23: 7321 solutions, ~24,000 nodes, too big for the
# engine's in-process probe, so the parallel runs really go through the pool.
BIG = MANY[:23] + "." + MANY[24:]
FOUR = "1...|..2.|.3..|...4"

STRONG = [(o, p) for o in ("fewest", "row-major") for p in ("units", "twins")]
EVERY = [(o, p) for o in ("fewest", "row-major") for p in ("none", "peers", "units", "twins")]
FINISHING = [(o, p) for o, p in EVERY if (o, p) != ("row-major", "none")]
# fewest + none needs over 10^5 nodes (seconds each) on a few top95 puzzles: see the table.
PROPAGATING = [(o, p) for o, p in EVERY if p != "none"]


def data_cells(name: str, sample: int | None = None) -> list[tuple[int, ...]]:
    path = DATA / name
    cells = [entry.cells for entry in read_puzzles(path) if entry.cells is not None]
    if sample is not None and sample < len(cells):
        cells = random.Random(20240611).sample(cells, sample)
    return cells


def solve_all(cells: list[tuple[int, ...]], order: str, propagation: str) -> None:
    for givens in cells:
        solution = solve(ImmutableSudokuPuzzle(givens, propagation), order)
        assert solution is not None, f"no solution for {givens}"
        assert is_valid_solution(givens, solution.cells)


@pytest.mark.parametrize(("order", "propagation"), FINISHING)
def test_hardest11_under_every_finishing_strategy(order: str, propagation: str) -> None:
    solve_all(data_cells("norvig_hardest11.txt"), order, propagation)


@pytest.mark.parametrize(("order", "propagation"), STRONG)
def test_top95_with_hidden_singles(order: str, propagation: str) -> None:
    solve_all(data_cells("norvig_top95.txt"), order, propagation)


@pytest.mark.parametrize("order", ["fewest", "row-major"])
def test_top95_sampled_with_peers_only(order: str) -> None:
    solve_all(data_cells("norvig_top95.txt", sample=8), order, "peers")


def test_easy50_with_plain_backtracking_sampled() -> None:
    solve_all(data_cells("norvig_easy50.txt")[:5], "row-major", "none")
    solve_all(data_cells("norvig_easy50.txt", sample=10), "fewest", "none")


def test_forum_hardest_1106_and_top1465_sampled() -> None:
    solve_all(data_cells("tdoku_puzzles6_forum_hardest_1106.txt", sample=25), "fewest", "units")
    solve_all(data_cells("tdoku_puzzles3_magictour_top1465.txt", sample=60), "fewest", "units")


FORUM, TOP1465 = "tdoku_puzzles6_forum_hardest_1106.txt", "tdoku_puzzles3_magictour_top1465.txt"
def full_set_cases() -> list:
    cases = []
    for name in ("norvig_top95.txt", FORUM, TOP1465):
        for order, propagation in PROPAGATING:
            if name == "norvig_top95.txt":
                marks: tuple = ()  # a second or so for all six
            else:  # up to a few seconds each on a loaded 2-core machine: CI runs them all
                marks = (pytest.mark.slow, pytest.mark.ci)
            cases.append(pytest.param(name, order, propagation, marks=marks))
    return cases


@pytest.mark.timeout(1800)
@pytest.mark.parametrize(("name", "order", "propagation"), full_set_cases())
def test_large_sets_in_full(name: str, order: str, propagation: str) -> None:
    solve_all(data_cells(name), order, propagation)


@pytest.mark.parametrize(("order", "propagation"), EVERY)
def test_easy50_in_full(order: str, propagation: str) -> None:
    solve_all(data_cells("norvig_easy50.txt"), order, propagation)


def tdoku_cases() -> list[tuple[str, int, str | None]]:
    path = DATA / "tdoku_test_puzzles.txt"
    cases = []
    for entry in read_puzzles(path):
        count, _, solution = entry.tail.partition(":")
        cases.append(("".join(str(v) for v in entry.cells or ()), int(count), solution or None))
    return cases


def test_the_tdoku_test_set_is_there() -> None:
    cases = tdoku_cases()
    assert len(cases) == 43
    assert sorted({c for _, c, _ in cases}) == [
        0, 1, 3, 9, 13, 91, 102, 113, 122, 125, 132, 601, 633, 787, 826, 838, 847,
    ]


@pytest.mark.parametrize(("givens", "expected", "known"), tdoku_cases())
def test_every_tdoku_test_puzzle_has_its_exact_count(
    givens: str, expected: int, known: str | None
) -> None:
    found = list(solutions(givens))
    assert len(found) == expected == count_solutions(givens)
    assert all(is_valid_solution(givens, s.cells) for s in found)
    assert len({s.line() for s in found}) == expected
    if known is not None:
        assert found[0].line() == known


def test_serg_benchmark_puzzles_have_at_least_two_solutions() -> None:
    for givens in data_cells("tdoku_puzzles7_serg_benchmark.txt", sample=40):
        found = list(solutions(givens, limit=2))
        assert len(found) == 2 and not is_unique(givens)
        assert all(is_valid_solution(givens, s.cells) for s in found)


@pytest.mark.slow
@pytest.mark.ci  # a few seconds
@pytest.mark.timeout(1800)
def test_every_serg_benchmark_puzzle_has_at_least_two_solutions() -> None:
    for givens in data_cells("tdoku_puzzles7_serg_benchmark.txt"):
        assert count_solutions(givens, limit=2) == 2


def test_all_55_gecode_16x16_puzzles() -> None:
    cells = data_cells("gecode_16x16.txt")
    assert len(cells) == 55
    solve_all(cells, "fewest", "units")


def test_a_4x4_puzzle() -> None:
    solution = solve(FOUR)
    assert solution is not None and solution.size == 4
    assert is_valid_solution(ImmutableSudokuPuzzle(FOUR).cells, solution.cells)
    assert count_solutions(FOUR) == len(list(solutions(FOUR))) > 0


def generated(box: int, blank: float, seed: int) -> tuple[list[int], list[int]]:
    """A solved grid (a shuffled pattern) and givens with about ``blank`` of it removed."""
    n, rng = box * box, random.Random(seed)

    def lines() -> list[int]:
        bands = rng.sample(range(box), box)
        return [band * box + i for band in bands for i in rng.sample(range(box), box)]

    rows, cols, digits = lines(), lines(), rng.sample(range(1, n + 1), n)
    solved = [digits[(box * (r % box) + r // box + c) % n] for r in rows for c in cols]
    return solved, [0 if rng.random() < blank else v for v in solved]


# Pattern grids with half their cells removed have many solutions, and some seeds
# lead fewest-first into dead subtrees of ~10^5 nodes; these take milliseconds.
@pytest.mark.parametrize(
    ("box", "blank", "seed"), [(5, 0.4, 2), (5, 0.5, 1), (5, 0.5, 4), (6, 0.4, 1)]
)
def test_generated_big_puzzles(box: int, blank: float, seed: int) -> None:
    solved, givens = generated(box, blank, seed)
    assert is_valid_solution(givens, solved) and givens.count(0) > blank * 0.8 * len(givens)
    solution = solve(givens)
    assert solution is not None and solution.size == box * box
    assert is_valid_solution(givens, solution.cells)


def test_search_reports_count_nodes_and_time() -> None:
    outcome = search(MANY, count=True)
    assert outcome.count == 847 and outcome.solution is not None and outcome.nodes > 847
    limited = search(MANY, count=True, limit=10)
    assert limited.count == 10 and limited.nodes < outcome.nodes
    assert search(NONE, count=True).count == 0 and search(NONE).solution is None
    assert search(TOP).count is None and search(TOP).seconds > 0


def test_is_unique() -> None:
    assert is_unique(TOP) and is_unique(ImmutableSudokuPuzzle(HARDEST, "peers"), "row-major")
    assert not is_unique(MANY) and not is_unique(NONE)


def test_solutions_come_in_depth_first_order_up_to_the_limit() -> None:
    first_five = list(solutions(MANY, limit=5))
    assert [s.line() for s in first_five] == [s.line() for s in list(solutions(MANY))[:5]]
    assert first_five[0] == solve(MANY)


def test_bad_arguments_are_refused_with_clear_messages() -> None:
    with pytest.raises(ValueError, match="limit must be a positive integer or None, got 0"):
        count_solutions(TOP, limit=0)
    with pytest.raises(ValueError, match=r"workers must be a positive integer or -1.*got 0"):
        solve(TOP, workers=0)
    with pytest.raises(ValueError, match=r"unknown order 'fewset'.*did you mean 'fewest'"):
        solve(TOP, "fewset")


def test_every_entry_point_takes_an_order_or_its_name_and_refuses_anything_else() -> None:
    puzzle = ImmutableSudokuPuzzle(TOP)
    assert count_solutions(TOP, "row-major", limit=2) == 1 == count_solutions(TOP, RowMajor())
    assert solve(TOP, "row-major") == solve(TOP, RowMajor()) == solve(TOP)
    space = SudokuSpace(puzzle, "fewest")  # type: ignore[arg-type]
    assert space.order == FewestOptionsFirst() and space.fast
    reference = SudokuSpace(puzzle, "row-major", "reference")  # type: ignore[arg-type]
    assert engine.sequential_count(reference).count == 1
    accepted = r"order must be a square order \(an object with select_next_unfilled_square"
    for bad in (None, 3, FirstAvailableRow()):
        message = (accepted + r".* or an order name \['fewest', 'row-major'\], got "
                   + re.escape(repr(bad)))
        for call in (solve, count_solutions, solutions, is_unique, space_for):
            with pytest.raises(TypeError, match=message):
                call(TOP, bad)  # type: ignore[operator]
        with pytest.raises(TypeError, match=message):
            SudokuSpace(puzzle, bad)  # type: ignore[arg-type]
    with pytest.raises(UnknownNameError, match=r"unknown order 'fewset'.*did you mean 'fewest'"):
        SudokuSpace(puzzle, "fewset")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"puzzle must be an ImmutableSudokuPuzzle, got '4\.\.\."):
        SudokuSpace(TOP, "fewest")  # type: ignore[arg-type]


@pytest.mark.timeout(120)
def test_a_parallel_count_uses_the_pool_and_equals_the_sequential_one() -> None:
    # The reference path: the compiled kernel counts this tree in the engine's
    # first in-process probe, so only the Python path is slow enough to need the pool.
    report = engine.count(space_for(BIG, kernel="reference"), workers=2)
    assert report.count == count_solutions(BIG) == 7321 and report.tasks > 1
    assert engine.count(space_for(BIG), workers=2).count == 7321
    assert count_solutions(BIG, workers=2, limit=2000) == 2000
    parallel = [s.line() for s in solutions(BIG, limit=300, workers=2)]
    assert parallel == [s.line() for s in solutions(BIG, limit=300)]


@pytest.mark.timeout(120)
def test_parallel_answers_equal_sequential_ones() -> None:
    assert count_solutions(MANY, workers=2) == count_solutions(MANY) == 847
    assert count_solutions(MANY, limit=100, workers=2) == 100
    assert count_solutions(NONE, workers=2) == 0
    parallel = [s.line() for s in solutions(MANY, limit=60, workers=2)]
    assert parallel == [s.line() for s in solutions(MANY, limit=60)]
    solution = solve(HARDEST, workers=2)
    assert solution is not None and solution == solve(HARDEST)
    outcome = search(MANY, "row-major", count=True, workers=2)
    assert outcome.count == 847 and outcome.solution is not None
    assert is_valid_solution(MANY, outcome.solution.cells)


def test_the_entry_points_say_which_puzzles_they_take() -> None:
    for function in (solve, count_solutions):
        doc = function.__doc__ or ""
        assert "Parameters" in doc and "Returns" in doc and "Example" in doc
        assert "n*n" in doc and "``.``, ``0``" in doc and "4x4 to 36x36" in doc
    doc = ImmutableSudokuPuzzle.__doc__ or ""
    assert "81 for 9x9" in doc and "a grid: n lines" in doc and "InvalidPuzzleError" in doc
