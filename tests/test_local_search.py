"""find_one: every method on a range of n, the checker, validation, portfolios."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from parallel_backtrack.nqueens import verify
from parallel_backtrack.nqueens.local.search import (
    DEFAULT_MAX_STEPS,
    METHODS,
    PARAMETERS,
    LocalResult,
    _search,
    find_one,
    is_queens_solution,
    resolve_variant,
    worker_seed,
)

SEARCHES = ["min-conflicts", "hill-climbing", "annealing", "genetic"]


def attack_free(cols) -> bool:
    """The definition, pair by pair: O(n^2), for checking the checker."""
    n = len(cols)
    return n > 0 and all(
        cols[a] != cols[b] and abs(cols[a] - cols[b]) != b - a
        for a, b in itertools.combinations(range(n), 2)
    ) and all(0 <= c < n for c in cols)


@pytest.mark.parametrize("n", range(1, 8))
def test_checker_agrees_with_the_definition_on_every_permutation(n):
    for perm in itertools.permutations(range(n)):
        assert is_queens_solution(perm) == attack_free(perm) == verify.is_queens_solution(perm)


@given(st.lists(st.integers(-3, 12), min_size=1, max_size=10))
def test_checker_agrees_with_the_definition_on_any_list(cols):
    assert is_queens_solution(cols) == attack_free(cols)


@pytest.mark.parametrize("cols", [
    [], [[1, 3], [0, 2]], [1.0, 3.0, 0.0, 2.0], [True], "1302", None, 5,
    [1, 3, 0, 4], [-1, 1], [0, 0], [0, 1], [1, 3, 0, 2, 2**70], [object()],
])
def test_checker_rejects_non_solutions(cols):
    assert is_queens_solution(cols) is False


@pytest.mark.parametrize("cols", [[0], (1, 3, 0, 2), np.array([2, 0, 3, 1], np.int32),
                                  np.array([1, 3, 0, 2], np.uint8)])
def test_checker_accepts_solutions_in_any_integer_form(cols):
    assert is_queens_solution(cols) is True


@pytest.mark.parametrize("method", METHODS)
def test_every_method_on_n_4_to_40(method):
    for n in range(4, 41):
        result = find_one(n, method, seed=n)
        assert result.solved and is_queens_solution(result.solution), (method, n)
        assert len(result.solution) == n and result.n == n and result.method == method
        assert result.worker == 0 and result.workers == 1 and result.seed == n


@pytest.mark.parametrize("n", [64, 100, 500, 2000, 2001, 5000, 50_000])
@pytest.mark.parametrize("method", ["min-conflicts", "constructive"])
def test_larger_boards(method, n):
    result = find_one(n, method, seed=1)
    assert result.solved and is_queens_solution(result.solution)


@pytest.mark.parametrize("variant", ["repair", "swaps"])
def test_both_min_conflicts_variants_on_demand(variant):
    for n in (8, 30, 300):
        assert is_queens_solution(find_one(n, seed=3, variant=variant).solution)


def test_auto_variant_switches_at_the_threshold():
    assert resolve_variant(2000, "auto") == "repair"
    assert resolve_variant(2001, "auto") == "swaps"
    assert resolve_variant(10, "swaps") == "swaps"


def test_min_conflicts_repairs_stay_few_as_n_grows():
    medians = [np.median([find_one(n, seed=s).steps for s in range(9)]) for n in (100, 1000)]
    assert max(medians) < 200


@pytest.mark.parametrize("method", METHODS)
def test_n_1(method):
    result = find_one(1, method)
    assert result.solution == (0,) and result.steps == 0


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n", [2, 3])
def test_n_2_and_3_have_no_solution_and_no_search(method, n):
    result = find_one(n, method, workers=2)
    assert result.solution is None and not result.solved
    assert (result.steps, result.restarts, result.worker, result.workers) == (0, 0, -1, 1)
    assert result.seconds < 1.0


@pytest.mark.parametrize("method", SEARCHES)
def test_a_seed_repeats_the_run(method):
    first, second = find_one(30, method, seed=42), find_one(30, method, seed=42)
    assert (first.solution, first.steps, first.restarts) == (
        second.solution, second.steps, second.restarts)


def test_a_fresh_seed_is_reported_and_repeats_the_run():
    first = find_one(50, "annealing")
    assert isinstance(first.seed, int) and first.seed >= 0
    assert find_one(50, "annealing", seed=first.seed).solution == first.solution


def test_different_seeds_give_different_searches():
    solutions = {find_one(30, "min-conflicts", seed=s).solution for s in range(10)}
    assert len(solutions) > 1


def test_worker_seeds_do_not_depend_on_the_portfolio_size():
    children = np.random.SeedSequence(7).spawn(5)
    assert worker_seed(7, 3) == int(children[3].generate_state(1, dtype=np.uint64)[0])
    assert worker_seed(7, 0) != worker_seed(7, 1) != worker_seed(8, 1)


def test_the_step_cap_ends_a_search_without_a_solution():
    result = find_one(60, "hill-climbing", seed=1, max_steps=2)
    assert result.solution is None and result.steps == 2 and result.worker == -1


def test_max_steps_zero_only_accepts_a_lucky_start():
    result = find_one(40, "annealing", seed=1, max_steps=0)
    assert result.solution is None and result.steps == 0


def test_method_parameters_are_used():
    hot = find_one(20, "annealing", seed=3, temperature=50.0, cooling=0.999)
    cold = find_one(20, "annealing", seed=3)
    assert hot.steps != cold.steps and hot.solved and cold.solved
    assert find_one(20, "genetic", seed=3, population=10, mutation=1.0).solved
    assert find_one(20, "hill-climbing", seed=3, sideways=0).solved
    assert find_one(300, "min-conflicts", seed=3, restart_after=5).solved


def test_result_fields_dict_and_board():
    result = find_one(8, "constructive")
    assert result.as_dict() == {
        "n": 8, "method": "constructive", "solution": [1, 3, 5, 7, 2, 0, 6, 4],
        "steps": 0, "restarts": 0, "seconds": result.seconds, "seed": result.seed,
        "worker": 0, "workers": 1,
    }
    rows = result.board().splitlines()
    assert len(rows) == 8 and all(row.split().count("Q") == 1 for row in rows)
    assert rows[0] == ". Q . . . . . ."
    assert str(result).startswith("8-queens by constructive:\n. Q")
    assert "too big to draw" in find_one(65, "constructive").board()
    assert "no solution" in find_one(3).board()


def test_the_repr_shows_whether_a_solution_was_found_without_the_columns():
    result = find_one(20, seed=1)
    assert repr(result) == (
        f"LocalResult(n=20, method='min-conflicts', columns=[20 items], steps={result.steps},"
        f" restarts={result.restarts}, seconds={result.seconds!r}, seed=1, worker=0,"
        " workers=1)")
    assert "columns=None, steps=0" in repr(find_one(3))
    assert str(result).startswith("20-queens by min-conflicts:\n")  # unchanged


def test_result_columns_are_read_only():
    result = find_one(10, seed=1)
    assert isinstance(result, LocalResult) and result.columns.dtype == np.int64
    with pytest.raises(ValueError):
        result.columns[0] = 1
    assert result.solution == tuple(result.columns.tolist())


@pytest.mark.parametrize("n, message", [
    (0, "between 1 and"), (-3, "got -3"), (2.5, "must be an integer, got 2.5"),
    (True, "got True"), ("8", "got '8'"), (2**31, "between 1 and"),
])
def test_bad_n(n, message):
    with pytest.raises(ValueError, match=message):
        find_one(n)


def test_unknown_method_suggests_the_closest():
    hint = r"unknown method 'min-conflict'.*did you mean 'min-conflicts'"
    with pytest.raises(ValueError, match=hint):
        find_one(8, "min-conflict")


@pytest.mark.parametrize("workers", [0, -2, -10])
def test_bad_workers_are_named(workers):
    with pytest.raises(ValueError, match=f"got {workers}"):
        find_one(8, workers=workers)


def test_bad_backend_suggests_the_closest():
    with pytest.raises(ValueError, match="did you mean 'loky'"):
        find_one(8, workers=2, backend="lokky")


@pytest.mark.parametrize("kwargs, message", [
    ({"seed": -1}, "seed must be a non-negative integer or None, got -1"),
    ({"seed": 1.5}, "got 1.5"),
    ({"max_steps": -1}, "max_steps must be a non-negative integer or None, got -1"),
    ({"tempreature": 2.0}, "unknown parameter for min-conflicts 'tempreature'"),
    ({"method": "annealing", "tempreature": 2.0}, "did you mean 'temperature'"),
    ({"method": "constructive", "sideways": 1}, r"expected one of \['\(none\)'\]"),
    ({"method": "annealing", "cooling": 1.0}, r"cooling must be a number in \(0.0, 1.0\)"),
    ({"method": "annealing", "temperature": 0}, "temperature must be a number"),
    ({"method": "annealing", "min_temperature": 5.0}, "min_temperature must be below"),
    ({"method": "genetic", "population": 2}, "population must be an integer >= 3, got 2"),
    ({"method": "genetic", "mutation": 1.5}, r"mutation must be a number in \[0.0, 1.0\]"),
    ({"method": "genetic", "restart_after": None}, "restart_after must be an integer"),
    ({"method": "hill-climbing", "sideways": -1}, "sideways must be an integer >= 0"),
    ({"restart_after": 0}, "restart_after must be an integer >= 1, got 0"),
    ({"variant": "swap"}, "unknown variant 'swap'.*did you mean 'swaps'"),
])
def test_bad_parameters(kwargs, message):
    method = kwargs.pop("method", "min-conflicts")
    with pytest.raises(ValueError, match=message):
        find_one(20, method, **kwargs)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("method", ["min-conflicts", "annealing"])
def test_portfolio_answer_is_the_winners_own_search(method):
    result = find_one(300, method, seed=11, workers=2)
    assert result.solved and is_queens_solution(result.solution)
    assert result.workers == 2 and result.worker in (0, 1)
    cap, settings = DEFAULT_MAX_STEPS[method], dict(PARAMETERS[method])
    alone = _search(300, method, 11, result.worker, cap, settings)
    assert tuple(alone.cols.tolist()) == result.solution and alone.steps == result.steps


@pytest.mark.timeout(120)
def test_portfolio_on_threads_and_all_cores():
    assert is_queens_solution(find_one(200, "genetic", seed=1, workers=2,
                                       backend="threads").solution)
    assert is_queens_solution(find_one(200, seed=1, workers=-1).solution)


@pytest.mark.timeout(120)
def test_portfolio_where_every_search_fails():
    result = find_one(60, "hill-climbing", seed=1, workers=2, max_steps=3, backend="threads")
    assert result.solution is None and result.worker == -1 and result.steps == 6


def test_constructive_ignores_workers():
    result = find_one(100, "constructive", workers=4)
    assert result.workers == 1 and result.solved


def test_a_million_queens_by_min_conflicts():
    result = find_one(10**6, seed=1)
    assert result.solved and is_queens_solution(result.columns)


@pytest.mark.parametrize("method", [
    pytest.param("min-conflicts", marks=[pytest.mark.slow, pytest.mark.ci]),  # some 10 s
    "constructive",  # about 1 s
])
def test_ten_million_queens_by_min_conflicts_and_by_construction(method):
    result = find_one(10**7, method, seed=1)
    assert result.solved and is_queens_solution(result.columns)
