"""Hill climbing, annealing, the genetic algorithm and the mod-6 construction."""

from __future__ import annotations

import numpy as np
import pytest

from parallel_backtrack.nqueens.local.kernel.methods import (
    annealing,
    constructive,
    genetic,
    hill_climbing,
)
from parallel_backtrack.nqueens.local.kernel.min_conflicts import make_rng
from parallel_backtrack.nqueens.local.search import is_queens_solution

KERNELS = {
    "hill-climbing": lambda n, seed, cap: hill_climbing(n, make_rng(seed), cap, 100),
    "annealing": lambda n, seed, cap: annealing(n, make_rng(seed), cap, 1.0, 0.9999, 0.01),
    "genetic": lambda n, seed, cap: genetic(n, make_rng(seed), cap, 100, 0.3, 1000),
}


def test_constructive_example():
    assert constructive(8).tolist() == [1, 3, 5, 7, 2, 0, 6, 4]
    assert constructive(1).tolist() == [0]


def test_constructive_is_valid_for_every_n_up_to_3000():
    bad = [n for n in [1, *range(4, 3001)] if not is_queens_solution(constructive(n))]
    assert bad == []


@pytest.mark.parametrize("n", [10**5 + r for r in range(6)] + [999_999, 1_000_000])
def test_constructive_is_valid_for_large_n_in_every_residue(n):
    assert is_queens_solution(constructive(n))


@pytest.mark.parametrize("n", [0, 2, 3, -5])
def test_constructive_refuses_boards_without_a_solution(n):
    with pytest.raises(ValueError, match=f"got {n}"):
        constructive(n)


@pytest.mark.parametrize("method", sorted(KERNELS))
@pytest.mark.parametrize("n", [4, 5, 6, 8, 13, 20, 32])
def test_kernel_solves_small_boards(method, n):
    cols, steps, restarts, solved = KERNELS[method](n, n, 10**6)
    assert solved and is_queens_solution(cols)
    assert 0 <= steps < 10**6 and restarts >= 0


@pytest.mark.parametrize("method", sorted(KERNELS))
def test_kernel_stops_at_the_cap(method):
    cols, steps, _, solved = KERNELS[method](60, 1, 3)
    assert not solved and steps == 3
    assert not is_queens_solution(cols)


@pytest.mark.parametrize("method", sorted(KERNELS))
def test_kernel_is_deterministic_for_a_seed(method):
    first, second = KERNELS[method](24, 5, 10**6), KERNELS[method](24, 5, 10**6)
    assert first[0].tolist() == second[0].tolist() and first[1:] == second[1:]


def test_plain_hill_climbing_gets_stuck_and_restarts():
    runs = [hill_climbing(8, make_rng(seed), 10**6, 0) for seed in range(30)]
    assert all(solved and is_queens_solution(cols) for cols, _, _, solved in runs)
    stuck = sum(restarts > 0 for _, _, restarts, _ in runs)
    assert stuck >= 15  # about 86% of 8-queens climbs end in a local minimum


def test_annealing_restarts_when_cold():
    # A schedule too short to solve anything forces a restart every few proposals.
    cols, steps, restarts, solved = annealing(30, make_rng(2), 200, 1.0, 0.5, 0.01)
    assert not solved and steps == 200 and restarts >= 20


def test_genetic_restarts_a_stalled_population():
    cols, steps, restarts, solved = genetic(40, make_rng(3), 300, 10, 0.0, 5)
    assert restarts > 0
    assert sorted(cols.tolist()) == list(range(40))  # still a permutation


def test_genetic_returns_a_permutation_when_it_fails():
    cols, _, _, solved = genetic(50, make_rng(1), 2, 20, 0.3, 1000)
    assert not solved and np.array_equal(np.sort(cols), np.arange(50))
