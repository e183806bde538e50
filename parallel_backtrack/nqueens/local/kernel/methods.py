"""The textbook rivals of min-conflicts, as numba kernels, and the closed-form placement.

``hill_climbing``
    Steepest descent on attacking pairs: every step looks at all n(n-1) moves of one
    queen within its row and takes the best (random among ties).  Up to ``sideways``
    consecutive moves that leave the count unchanged are allowed on a plateau; a
    strict local minimum, or too long a plateau, means a random restart.
``annealing``
    Simulated annealing over permutations: propose swapping two queens' columns,
    accept a change of ``delta`` collisions with probability ``exp(-delta / T)``
    (always when ``delta <= 0``), cool ``T`` geometrically by ``cooling`` each
    proposal, and restart from a fresh permutation when ``T`` falls below
    ``min_temperature``.
``genetic``
    A generational genetic algorithm over permutations: tournament selection,
    order crossover (OX1) and a swap mutation, which all keep permutations, with
    the two best carried over unchanged (elitism).
``constructive``
    The explicit mod-6 construction that places n queens for every n >= 4 (and
    n = 1), vectorised with numpy; no search.

The representation and glossary (``cols``, sum/diff diagonals, counts, collisions,
``rng``) are those of ``local.kernel``.  Each kernel returns
``(cols, steps, restarts, solved)``; a *step* is one move (hill climbing), one
proposal (annealing) or one generation (genetic).  Attacking pairs, the hill
climber's measure, add up ``k * (k - 1) / 2`` over every line holding ``k`` queens.

Example: ``constructive(8)`` is ``[1, 3, 5, 7, 2, 0, 6, 4]``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .... import _jit_cache  # noqa: F401  (registers the cache locators before any @njit)
from .min_conflicts import (
    add_on_diagonals,
    empty_board,
    place_queen,
    random_below,
    random_unit,
    swap_columns,
)

ELITE = 2
TOURNAMENT = 3


@njit(cache=True, nogil=True)
def _random_rows(n, cols, col_count, sum_count, diff_count, rng):
    """A queen in a random column of every row; returns the attacking pairs."""
    pairs = 0
    for row in range(n):
        col = random_below(rng, n)
        pairs += col_count[col] + sum_count[row + col] + diff_count[row - col + n - 1]
        place_queen(n, row, col, cols, col_count, sum_count, diff_count, 1)
    return pairs


@njit(cache=True, nogil=True)
def _steepest_move(n, cols, col_count, sum_count, diff_count, rng):
    """The best single-queen move as (row, col, change in pairs), random among ties."""
    best = n * 3
    ties = 0
    best_row = best_col = 0
    for row in range(n):
        cur = cols[row]
        here = col_count[cur] + sum_count[row + cur] + diff_count[row - cur + n - 1] - 3
        for col in range(n):
            if col == cur:
                continue
            delta = col_count[col] + sum_count[row + col] + diff_count[row - col + n - 1]
            delta -= here
            if delta < best:
                best, ties = delta, 0
            if delta == best:
                ties += 1
                if random_below(rng, ties) == 0:
                    best_row, best_col = row, col
    return best_row, best_col, best


@njit(cache=True, nogil=True)
def hill_climbing(n, rng, max_steps, sideways):
    """Steepest-ascent hill climbing with sideways moves and random restarts."""
    cols, col_count, sum_count, diff_count = empty_board(n)
    steps = restarts = 0
    while True:
        pairs = _random_rows(n, cols, col_count, sum_count, diff_count, rng)
        flat = 0
        while pairs > 0 and steps < max_steps:
            row, col, delta = _steepest_move(n, cols, col_count, sum_count, diff_count, rng)
            if delta > 0 or (delta == 0 and flat >= sideways):
                break
            flat = flat + 1 if delta == 0 else 0
            place_queen(n, row, cols[row], cols, col_count, sum_count, diff_count, -1)
            place_queen(n, row, col, cols, col_count, sum_count, diff_count, 1)
            pairs += delta
            steps += 1
        if pairs == 0 or steps >= max_steps:
            return cols, steps, restarts, pairs == 0
        restarts += 1
        col_count[:] = 0
        sum_count[:] = 0
        diff_count[:] = 0


@njit(cache=True, nogil=True)
def _shuffle(cols, rng):
    """Fisher-Yates, in place."""
    for i in range(len(cols) - 1, 0, -1):
        j = random_below(rng, i + 1)
        cols[i], cols[j] = cols[j], cols[i]


@njit(cache=True, nogil=True)
def _random_permutation(n, cols, sum_count, diff_count, rng):
    """A uniformly random permutation, counted on the diagonals; returns collisions."""
    for row in range(n):
        cols[row] = row
    _shuffle(cols, rng)
    collisions = 0
    for row in range(n):
        collisions += add_on_diagonals(n, row, cols[row], sum_count, diff_count)
    return collisions


@njit(cache=True, nogil=True)
def annealing(n, rng, max_steps, temperature, cooling, min_temperature):
    """Simulated annealing with swap moves, geometric cooling and restarts."""
    cols = np.empty(n, np.int64)
    sum_count = np.zeros(2 * n - 1, np.int64)
    diff_count = np.zeros(2 * n - 1, np.int64)
    steps = restarts = 0
    while True:
        collisions = _random_permutation(n, cols, sum_count, diff_count, rng)
        t = temperature
        while collisions > 0 and t > min_temperature and steps < max_steps:
            i = random_below(rng, n)
            j = random_below(rng, n - 1)
            j += j >= i  # a partner other than i, uniformly
            delta = swap_columns(n, cols, sum_count, diff_count, i, j)
            if delta > 0 and random_unit(rng) >= math.exp(-delta / t):
                swap_columns(n, cols, sum_count, diff_count, i, j)
            else:
                collisions += delta
            t *= cooling
            steps += 1
        if collisions == 0 or steps >= max_steps:
            return cols, steps, restarts, collisions == 0
        restarts += 1
        sum_count[:] = 0
        diff_count[:] = 0


@njit(cache=True, nogil=True)
def _collisions(n, cols, sum_count, diff_count):
    """Collisions of one permutation; leaves the counts at zero again."""
    collisions = 0
    for row in range(n):
        collisions += add_on_diagonals(n, row, cols[row], sum_count, diff_count)
    for row in range(n):
        sum_count[row + cols[row]] -= 1
        diff_count[row - cols[row] + n - 1] -= 1
    return collisions


@njit(cache=True, nogil=True)
def _tournament(fitness, rng):
    """The fittest (fewest collisions) of TOURNAMENT random individuals."""
    best = random_below(rng, len(fitness))
    for _ in range(TOURNAMENT - 1):
        other = random_below(rng, len(fitness))
        if fitness[other] < fitness[best]:
            best = other
    return best


@njit(cache=True, nogil=True)
def _order_crossover(first, second, child, used, rng):
    """OX1: a random slice of ``first``, the rest in ``second``'s order after the slice."""
    n = len(first)
    a = random_below(rng, n)
    b = random_below(rng, n)
    lo, hi = min(a, b), max(a, b) + 1
    used[:] = False
    for k in range(lo, hi):
        child[k] = first[k]
        used[first[k]] = True
    k = hi % n
    for step in range(n):
        gene = second[(hi + step) % n]
        if not used[gene]:
            child[k] = gene
            k = (k + 1) % n


@njit(cache=True, nogil=True)
def _copy_elites(pop, fitness, nxt):
    """The ELITE fittest into ``nxt[:ELITE]`` (lowest index first among ties).

    A selection scan, not a sort: only two are needed, and argsort is slow to compile.
    """
    taken = np.zeros(len(pop), np.bool_)
    for k in range(ELITE):
        best = -1
        for index in range(len(pop)):
            if not taken[index] and (best < 0 or fitness[index] < fitness[best]):
                best = index
        taken[best] = True
        nxt[k] = pop[best]


@njit(cache=True, nogil=True)
def _next_generation(pop, fitness, nxt, used, mutation, rng):
    """Elites copied, the rest bred by tournament, OX1 and a swap mutation."""
    n = pop.shape[1]
    _copy_elites(pop, fitness, nxt)
    for k in range(ELITE, len(pop)):
        first = _tournament(fitness, rng)
        second = _tournament(fitness, rng)
        _order_crossover(pop[first], pop[second], nxt[k], used, rng)
        if random_unit(rng) < mutation:
            i = random_below(rng, n)
            j = random_below(rng, n)
            nxt[k, i], nxt[k, j] = nxt[k, j], nxt[k, i]


@njit(cache=True, nogil=True)
def _seed_population(pop, rng):
    for k in range(len(pop)):
        pop[k] = np.arange(pop.shape[1])
        _shuffle(pop[k], rng)


@njit(cache=True, nogil=True)
def genetic(n, rng, max_steps, population, mutation, restart_after):
    """A generational GA over permutations; a step is one generation.

    A population whose best has not improved for ``restart_after`` generations has
    converged on a local minimum: it is replaced by a fresh random one (a restart).
    """
    pop = np.empty((population, n), np.int64)
    nxt = np.empty((population, n), np.int64)
    fitness = np.empty(population, np.int64)
    sum_count = np.zeros(2 * n - 1, np.int64)
    diff_count = np.zeros(2 * n - 1, np.int64)
    used = np.zeros(n, np.bool_)
    _seed_population(pop, rng)
    steps = restarts = 0
    record, since = n, 0
    while True:
        for k in range(population):
            fitness[k] = _collisions(n, pop[k], sum_count, diff_count)
        best = np.argmin(fitness)
        if fitness[best] == 0 or steps >= max_steps:
            return pop[best].copy(), steps, restarts, fitness[best] == 0
        record, since = (fitness[best], 0) if fitness[best] < record else (record, since + 1)
        if since >= restart_after:
            _seed_population(pop, rng)
            restarts += 1
            record, since = n, 0
            continue
        _next_generation(pop, fitness, nxt, used, mutation, rng)
        pop, nxt = nxt, pop
        steps += 1


def constructive(n: int) -> np.ndarray:
    """The explicit solution for n >= 4 (and n = 1): even rows, then odd, mod-6 fixes.

    In 1-based terms: the even numbers then the odd numbers up to n; when n mod 6
    is 2, swap 1 and 3 and move 5 to the end; when it is 3, move 2 to the end of
    the evens and 1, 3 to the end of the odds.  Read as columns row by row (the
    transpose of a solution is a solution).  Written into one array, 0-based.
    """
    if n in (2, 3) or n < 1:
        raise ValueError(f"the construction needs n = 1 or n >= 4 (none exists for 2, 3), got {n}")
    cols = np.empty(n, dtype=np.int64)
    half = n // 2
    evens, odds = cols[:half], cols[half:]
    evens[:] = np.arange(1, n, 2)
    odds[:] = np.arange(0, n, 2)
    if n % 6 == 2:
        odds[:2] = (2, 0)
        odds[2:-1] = np.arange(6, n, 2)
        odds[-1] = 4
    elif n % 6 == 3:
        evens[:-1] = np.arange(3, n, 2)
        evens[-1] = 1
        odds[:-2] = np.arange(4, n, 2)
        odds[-2:] = (0, 2)
    return cols
