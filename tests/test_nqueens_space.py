import pytest

from parallel_backtrack.engine import UnknownNameError, count, sequential_count, solutions, solve
from parallel_backtrack.nqueens import (
    FewestCandidatesRow,
    ImmutableQueenLocations,
    QueensSpace,
    count_report,
    count_solutions,
    from_columns,
    is_queens_solution,
    lab_count,
)
from parallel_backtrack.sudoku import FewestOptionsFirst

# OEIS A000170, n = 1..16
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
           14772512]
RUNS = [(1, None), (2, "threads"), (2, "loky")]


@pytest.mark.timeout(240)
@pytest.mark.parametrize("workers,backend", RUNS)
@pytest.mark.parametrize("kernel", ["fast", "reference"])
def test_oeis_counts_up_to_11_on_both_kernels(kernel, workers, backend):
    for n in range(1, 12):
        got = count_solutions(ImmutableQueenLocations(n), workers=workers, backend=backend,
                              kernel=kernel)
        assert got == A000170[n - 1], n


@pytest.mark.timeout(300)
@pytest.mark.parametrize("workers,backend", RUNS)
@pytest.mark.parametrize("n", [12, 13, 14])
def test_oeis_counts_12_to_14_fast(n, workers, backend):
    report = count_report(ImmutableQueenLocations(n), workers=workers, backend=backend)
    assert report.count == A000170[n - 1] and report.complete


@pytest.mark.slow
@pytest.mark.ci
@pytest.mark.timeout(900)
@pytest.mark.parametrize("n", [15, 16])
def test_oeis_counts_15_16(n):
    assert count_solutions(ImmutableQueenLocations(n), workers=2) == A000170[n - 1]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("budget", [1, 9, 1000])
@pytest.mark.parametrize("per_worker", [1, 7, 100])
def test_split_and_budget_never_change_the_count(budget, per_worker):
    report = count_report(ImmutableQueenLocations(10), workers=2, backend="threads",
                          budget=budget, per_worker=per_worker)
    assert report.count == 724


@pytest.mark.parametrize("n", range(1, 10))
def test_parallel_equals_sequential_and_lab_warmup(n):
    reference = QueensSpace(ImmutableQueenLocations(n), kernel="reference")
    assert count(reference, workers=2, backend="threads").count == \
        sequential_count(reference).count == lab_count(n)


@pytest.mark.parametrize("columns", [
    [0, 3, 6, -1, -1, -1, 7, -1],   # the lab's scattered start
    [-1, -1, 2, -1, -1, 0, -1, -1, -1],
    [4, -1, -1, -1, -1, -1, -1, -1, 1, -1],
])
def test_kernel_handles_queens_placed_out_of_order(columns):
    board = from_columns(columns)
    fast = count_report(board, kernel="fast", budget=5)
    reference = sequential_count(QueensSpace(board, kernel="reference"))
    assert (fast.count, fast.nodes) == (reference.count, reference.nodes)


def test_other_orders_give_the_same_count():
    board = ImmutableQueenLocations(9)
    assert count_solutions(board, FewestCandidatesRow(), workers=2, backend="threads") == 352


@pytest.mark.timeout(120)
def test_solutions_and_solve_pass_the_independent_checker():
    space = QueensSpace(ImmutableQueenLocations(8), kernel="reference")
    found = list(solutions(space, workers=2, backend="loky", budget=50))
    assert len(found) == 92 == len(set(found))
    assert all(is_queens_solution(board.queens) for board in found)
    solved = solve(QueensSpace(ImmutableQueenLocations(20)), workers=2, backend="loky")
    assert is_queens_solution(solved.solution.queens)


def test_space_rejects_a_non_board():
    with pytest.raises(TypeError, match="expected ImmutableQueenLocations"):
        QueensSpace([0, 1, 2])


def test_orders_by_name_are_accepted_and_anything_else_is_refused_at_once():
    board = ImmutableQueenLocations(6)
    assert count_solutions(board, "fewest") == 4 == count_solutions(board, "first-available")
    assert count_report(board, "fewest", kernel="reference").count == 4
    space = QueensSpace(board, order="fewest")
    assert isinstance(space.order, FewestCandidatesRow) and not space.fast
    assert QueensSpace(board, "first-available").fast
    with pytest.raises(UnknownNameError, match=r"unknown order 'fewset'.*did you mean 'fewest'"):
        count_solutions(board, "fewset")
    for bad in (3, FewestOptionsFirst()):
        with pytest.raises(TypeError, match=r"order must be a row order .* got " + repr(bad)[:8]):
            QueensSpace(board, bad)
        with pytest.raises(TypeError, match="order must be a row order"):
            count_solutions(board, bad)


def test_count_solutions_and_the_space_say_what_they_take():
    for documented in (count_solutions, QueensSpace):
        doc = documented.__doc__
        assert "Parameters" in doc and "Example" in doc and '"first-available"' in doc
    assert "Returns" in count_solutions.__doc__
