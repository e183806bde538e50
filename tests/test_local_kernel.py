"""The min-conflicts kernels: random stream, kernel == pure-Python reference, swaps."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parallel_backtrack.nqueens.local.kernel.min_conflicts import (
    SUSPECTS_MAX,
    _ReferenceRandom,
    make_rng,
    min_conflicts_repair,
    min_conflicts_swaps,
    random_below,
    random_unit,
    reference_min_conflicts_repair,
    swap_columns,
)
from parallel_backtrack.nqueens.local.search import is_queens_solution


def collisions(cols: np.ndarray) -> int:
    """Sum over diagonals of (queens - 1), from scratch."""
    n = len(cols)
    rows = np.arange(n)
    total = 0
    for line in (rows + cols, rows - cols):
        _, counts = np.unique(line, return_counts=True)
        total += int((counts - 1).sum())
    return total


def test_random_stream_matches_the_reference_bit_for_bit():
    kernel_rng, mirror_rng = make_rng(12345), make_rng(12345)
    mirror = _ReferenceRandom(mirror_rng)
    for k in (1, 2, 3, 7, 1000, 10**7, 2**32 - 1):
        for _ in range(50):
            assert random_below(kernel_rng, k) == mirror.below(k)
    assert int(kernel_rng[0]) == mirror.state


def test_random_below_stays_in_range_and_covers_it():
    rng = make_rng(7)
    draws = [random_below(rng, 5) for _ in range(2000)]
    assert set(draws) == {0, 1, 2, 3, 4}
    units = [random_unit(rng) for _ in range(2000)]
    assert 0.0 <= min(units) and max(units) < 1.0


def test_seed_zero_is_remapped_because_zero_is_a_fixed_point():
    rng = make_rng(0)
    assert rng[0] != 0
    random_below(rng, 100)
    assert rng[0] != 0


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 9, 10, 12, 16, 25])
@pytest.mark.parametrize("seed", [1, 2, 3, 99])
def test_repair_kernel_equals_reference(n, seed):
    kernel = min_conflicts_repair(n, make_rng(seed), 10**6, 100 + n)
    reference = reference_min_conflicts_repair(n, make_rng(seed), 10**6, 100 + n)
    assert kernel[0].tolist() == reference[0]
    assert (kernel[1], kernel[2], kernel[3]) == reference[1:]
    assert kernel[3] and is_queens_solution(kernel[0])


@pytest.mark.parametrize("restart_after, max_steps", [(1, 10**6), (2, 30), (3, 7), (5, 0)])
def test_repair_kernel_equals_reference_through_restarts_and_caps(restart_after, max_steps):
    for seed in range(8):
        kernel = min_conflicts_repair(8, make_rng(seed), max_steps, restart_after)
        reference = reference_min_conflicts_repair(8, make_rng(seed), max_steps, restart_after)
        assert kernel[0].tolist() == reference[0]
        assert (kernel[1], kernel[2], kernel[3]) == reference[1:]
        assert kernel[1] <= max_steps
        assert kernel[3] == is_queens_solution(kernel[0])


def test_short_restart_budget_really_restarts():
    results = [min_conflicts_repair(12, make_rng(seed), 10**6, 1) for seed in range(20)]
    assert any(restarts > 0 for _, _, restarts, _ in results)
    assert all(solved and is_queens_solution(cols) for cols, _, _, solved in results)


@settings(max_examples=200, deadline=None)
@given(st.integers(4, 40).flatmap(
    lambda n: st.tuples(st.permutations(range(n)), st.integers(0, n - 1), st.integers(0, n - 1))))
def test_swap_delta_is_the_change_in_collisions(case):
    perm, i, j = case
    n = len(perm)
    cols = np.array(perm, dtype=np.int32)
    sums = np.zeros(2 * n - 1, np.int32)
    diffs = np.zeros(2 * n - 1, np.int32)
    for row, col in enumerate(perm):
        sums[row + col] += 1
        diffs[row - col + n - 1] += 1
    before = collisions(cols)
    delta = swap_columns(n, cols, sums, diffs, i, j)
    assert collisions(cols) - before == delta
    assert sorted(cols.tolist()) == list(range(n))


@pytest.mark.parametrize("n", [50, 100, 500, 3000, 20000])
def test_swaps_kernel_solves(n):
    for seed in range(3):
        cols, steps, restarts, solved = min_conflicts_swaps(n, make_rng(seed), 10**8, 10**4 + n, 50)
        assert solved and is_queens_solution(cols)
        assert steps >= 0 and restarts >= 0


def test_swaps_kernel_reports_the_cap():
    cols, steps, restarts, solved = min_conflicts_swaps(5000, make_rng(1), 0, 100, 1)
    assert not solved and steps == 0


def test_swaps_kernel_survives_a_full_suspect_list():
    # tries=1 leaves far more attacked rows than the list holds: the rescan must cope.
    n = 4 * SUSPECTS_MAX
    cols, _, _, solved = min_conflicts_swaps(n, make_rng(3), 10**8, 10**7, 1)
    assert solved and is_queens_solution(cols)


def test_swaps_kernel_solves_a_million():
    cols, steps, _, solved = min_conflicts_swaps(10**6, make_rng(1), 10**9, 10**6 + 10**4, 50)
    assert solved and is_queens_solution(cols)
