"""Compiled min-conflicts kernels for N-Queens local search, plus a pure-Python reference.

Two min-conflicts variants live here, both numba kernels (``cache=True`` so the slow
first compile happens once per machine):

``min_conflicts_repair``
    The classic method (Minton et al. 1992): a greedy initial placement row by row,
    then repairs -- a queen in conflict moves to its least-conflicted *other* column,
    ties broken at random -- with a restart after ``restart_after`` repairs.  The
    greedy placement costs O(n^2), so this is for small and medium n.
``min_conflicts_swaps``
    A linear-time variant in the manner of Sosic and Gu's QS algorithms: a random
    permutation built Fisher-Yates style, where each row first tries a few random
    picks that sit on free diagonals, then swaps of two queens' columns that reduce
    the number of collisions.  A permutation never shares a column, so only
    diagonals are counted.  This is the one that reaches n = 10^7.

``reference_min_conflicts_repair`` is the same classic method in plain Python with
lists; it draws the same random numbers in the same order, so the kernel must return
exactly the same placement, step and restart counts (the tests check this).

Glossary
--------
cols
    ``cols[row]`` is the column of the queen in ``row``; one queen per row.
    ``[1, 3, 0, 2]`` is a 4-queens solution.
sum diagonal, diff diagonal
    The queen at (row, col) lies on sum diagonal ``row + col`` and diff diagonal
    ``row - col + n - 1``; both index 0 .. 2n-2.
col_count, sum_count, diff_count
    How many queens sit on each column / diagonal; they make conflicts O(1).
conflicts(row)
    How many other queens attack the queen of ``row``:
    ``col_count[c] + sum_count[row + c] + diff_count[row - c + n - 1] - 3``.
collisions
    For permutations: sum over diagonals of ``max(0, count - 1)``; 0 means solved.
suspects
    Rows that may be attacked (swaps variant); stale entries are dropped when
    picked, and an empty list with collisions left triggers an O(n) rescan.
rng
    A one-element ``uint64`` array holding xorshift64* state; kernels advance it in
    place, so a seed fixes the whole run.
step
    One repair (classic) or one attempted swap (swaps variant).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .... import _jit_cache  # noqa: F401  (registers the cache locators before any @njit)

_MULTIPLIER = np.uint64(0x2545F4914F6CDD1D)
_MASK64 = (1 << 64) - 1
_DEFAULT_STATE = 0x9E3779B97F4A7C15  # any nonzero value: xorshift state 0 never moves
SUSPECTS_MAX = 1 << 16  # the swaps variant starts with a few hundred attacked rows at most


def make_rng(seed: int) -> np.ndarray:
    """A kernel random state from a 64-bit seed (0 is remapped: it is a fixed point)."""
    return np.array([seed & _MASK64 or _DEFAULT_STATE], dtype=np.uint64)


@njit(cache=True, nogil=True)
def next_random(rng: np.ndarray) -> np.uint64:
    """Advance xorshift64* and return 64 random bits."""
    s = rng[0]
    s ^= s >> np.uint64(12)
    s ^= s << np.uint64(25)
    s ^= s >> np.uint64(27)
    rng[0] = s
    return s * _MULTIPLIER


@njit(cache=True, nogil=True)
def random_below(rng: np.ndarray, k: int) -> int:
    """A random int in [0, k) for 0 < k < 2**32, by multiply-shift (no division)."""
    high = next_random(rng) >> np.uint64(32)
    return np.int64((high * np.uint64(k)) >> np.uint64(32))  # type: ignore[return-value]


@njit(cache=True, nogil=True)
def random_unit(rng: np.ndarray) -> float:
    """A random float in [0, 1) from the top 53 bits."""
    return np.float64(next_random(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True)
def empty_board(n):
    """(cols, col_count, sum_count, diff_count) for n rows, all counts zero."""
    zeros = np.zeros(2 * n - 1, np.int64)
    return np.empty(n, np.int64), np.zeros(n, np.int64), zeros, zeros.copy()


@njit(cache=True, nogil=True)
def place_queen(n, row, col, cols, col_count, sum_count, diff_count, delta):
    """Put (delta=1) or lift (delta=-1) the queen of ``row`` at ``col``, counts included."""
    cols[row] = col
    col_count[col] += delta
    sum_count[row + col] += delta
    diff_count[row - col + n - 1] += delta


@njit(cache=True, nogil=True)
def _least_conflicted(n, row, skip, col_count, sum_count, diff_count, ties, rng):
    """A column of ``row`` with the fewest attackers (random among ties), never ``skip``."""
    best = n * 3 + 1
    found = 0
    for col in range(n):
        if col == skip:
            continue
        value = col_count[col] + sum_count[row + col] + diff_count[row - col + n - 1]
        if value < best:
            best = value
            found = 0
        if value == best:
            ties[found] = col
            found += 1
    return ties[random_below(rng, found)]


@njit(cache=True, nogil=True)
def _repair(n, cols, col_count, sum_count, diff_count, ties, attacked, rng, budget):
    """Repair until solved or ``budget`` repairs are spent; returns (repairs, solved).

    Each repair rescans for attacked rows: the move itself costs O(n) anyway, and a
    stale list of suspects would miss queens that a move has just attacked.
    """
    taken = 0
    while True:
        m = 0
        for row in range(n):
            c = cols[row]
            if col_count[c] + sum_count[row + c] + diff_count[row - c + n - 1] > 3:
                attacked[m] = row
                m += 1
        if m == 0:
            return taken, True
        if taken >= budget:
            return taken, False
        row = attacked[random_below(rng, m)]
        c = cols[row]
        place_queen(n, row, c, cols, col_count, sum_count, diff_count, -1)
        best = _least_conflicted(n, row, c, col_count, sum_count, diff_count, ties, rng)
        place_queen(n, row, best, cols, col_count, sum_count, diff_count, 1)
        taken += 1


@njit(cache=True, nogil=True)
def min_conflicts_repair(n, rng, max_steps, restart_after):
    """Classic min-conflicts; returns (cols, steps, restarts, solved)."""
    cols, col_count, sum_count, diff_count = empty_board(n)
    ties = np.empty(n, np.int64)
    attacked = np.empty(n, np.int64)
    steps = 0
    restarts = 0
    while True:
        for row in range(n):
            col = _least_conflicted(n, row, -1, col_count, sum_count, diff_count, ties, rng)
            place_queen(n, row, col, cols, col_count, sum_count, diff_count, 1)
        budget = min(restart_after, max_steps - steps)
        taken, solved = _repair(
            n, cols, col_count, sum_count, diff_count, ties, attacked, rng, budget
        )
        steps += taken
        if solved or steps >= max_steps:
            return cols, steps, restarts, solved
        restarts += 1
        col_count[:] = 0
        sum_count[:] = 0
        diff_count[:] = 0


@njit(cache=True, nogil=True)
def add_on_diagonals(n, row, col, sum_count, diff_count):
    """Count a queen on its diagonals; returns the collisions it adds."""
    added = (sum_count[row + col] > 0) + (diff_count[row - col + n - 1] > 0)
    sum_count[row + col] += 1
    diff_count[row - col + n - 1] += 1
    return added


@njit(cache=True, nogil=True)
def remove_from_diagonals(n, row, col, sum_count, diff_count):
    """Uncount a queen on its diagonals; returns the collisions it removes."""
    sum_count[row + col] -= 1
    diff_count[row - col + n - 1] -= 1
    return (sum_count[row + col] > 0) + (diff_count[row - col + n - 1] > 0)


@njit(cache=True, nogil=True)
def swap_columns(n, cols, sum_count, diff_count, i, j):
    """Swap the columns of rows i and j; returns the change in collisions."""
    a = cols[i]
    b = cols[j]
    delta = -remove_from_diagonals(n, i, a, sum_count, diff_count)
    delta -= remove_from_diagonals(n, j, b, sum_count, diff_count)
    delta += add_on_diagonals(n, i, b, sum_count, diff_count)
    delta += add_on_diagonals(n, j, a, sum_count, diff_count)
    cols[i] = b
    cols[j] = a
    return delta


@njit(cache=True, nogil=True)
def _attacked(n, row, cols, sum_count, diff_count):
    c = cols[row]
    return sum_count[row + c] > 1 or diff_count[row - c + n - 1] > 1


@njit(cache=True, nogil=True)
def _random_permutation_start(n, cols, sum_count, diff_count, suspects, tries, rng):
    """Fisher-Yates, each row preferring a pick on free diagonals; returns (collisions, m).

    Rows that got no free pick within ``tries`` go to ``suspects[:m]``.
    """
    for row in range(n):
        cols[row] = row
    collisions = 0
    m = 0
    for row in range(n):
        pick = row
        for _ in range(tries):
            pick = row + random_below(rng, n - row)
            c = cols[pick]
            if sum_count[row + c] == 0 and diff_count[row - c + n - 1] == 0:
                break
        c = cols[pick]
        cols[pick] = cols[row]
        cols[row] = c
        hit = add_on_diagonals(n, row, c, sum_count, diff_count)
        collisions += hit
        if hit and m < len(suspects):
            suspects[m] = row
            m += 1
    return collisions, m


@njit(cache=True, nogil=True)
def _swap_repair(n, cols, sum_count, diff_count, suspects, m, collisions, rng, budget):
    """Swap attacked queens with random partners while that lowers collisions.

    Returns (attempts, collisions left).
    """
    taken = 0
    while collisions > 0 and taken < budget:
        if m == 0:
            for row in range(n):
                if m < len(suspects) and _attacked(n, row, cols, sum_count, diff_count):
                    suspects[m] = row
                    m += 1
        k = random_below(rng, m)
        i = suspects[k]
        if not _attacked(n, i, cols, sum_count, diff_count):
            suspects[k] = suspects[m - 1]
            m -= 1
            continue
        j = random_below(rng, n)
        taken += 1
        if j == i:
            continue
        delta = swap_columns(n, cols, sum_count, diff_count, i, j)
        if delta < 0:
            collisions += delta
            if _attacked(n, j, cols, sum_count, diff_count) and m < len(suspects):
                suspects[m] = j
                m += 1
        else:
            swap_columns(n, cols, sum_count, diff_count, i, j)
    return taken, collisions


@njit(cache=True, nogil=True)
def min_conflicts_swaps(n, rng, max_steps, restart_after, tries):
    """QS-style linear-time min-conflicts; returns (cols, steps, restarts, solved)."""
    cols = np.empty(n, np.int32)
    sum_count = np.zeros(2 * n - 1, np.int32)
    diff_count = np.zeros(2 * n - 1, np.int32)
    # Rows left out of a full list are found again by the rescan when it empties.
    suspects = np.empty(min(n, SUSPECTS_MAX), np.int32)
    steps = 0
    restarts = 0
    while True:
        collisions, m = _random_permutation_start(
            n, cols, sum_count, diff_count, suspects, tries, rng
        )
        budget = min(restart_after, max_steps - steps)
        taken, collisions = _swap_repair(
            n, cols, sum_count, diff_count, suspects, m, collisions, rng, budget
        )
        steps += taken
        if collisions == 0 or steps >= max_steps:
            return cols, steps, restarts, collisions == 0
        restarts += 1
        sum_count[:] = 0
        diff_count[:] = 0


class _ReferenceRandom:
    """xorshift64* in Python ints; the same stream as ``next_random``/``random_below``."""

    def __init__(self, rng: np.ndarray) -> None:
        self.state = int(rng[0])

    def below(self, k: int) -> int:
        s = self.state
        s ^= s >> 12
        s ^= (s << 25) & _MASK64
        s ^= s >> 27
        self.state = s
        return (((s * int(_MULTIPLIER)) & _MASK64) >> 32) * k >> 32


class _ReferenceBoard:
    """One queen per row with plain-list line counts (the reference's state)."""

    def __init__(self, n: int, rand: _ReferenceRandom) -> None:
        self.n, self.rand = n, rand
        self.cols = [0] * n
        self.col_count = [0] * n
        self.sum_count, self.diff_count = [0] * (2 * n - 1), [0] * (2 * n - 1)

    def attackers(self, row: int, col: int) -> int:
        """Queens on the lines through (row, col), itself included if it stands there."""
        return (self.col_count[col] + self.sum_count[row + col]
                + self.diff_count[row - col + self.n - 1])

    def move(self, row: int, col: int, delta: int) -> None:
        """Put (delta=1) or lift (delta=-1) the queen of ``row`` at ``col``."""
        self.cols[row] = col
        self.col_count[col] += delta
        self.sum_count[row + col] += delta
        self.diff_count[row - col + self.n - 1] += delta

    def least_conflicted(self, row: int, skip: int) -> int:
        scores = {col: self.attackers(row, col) for col in range(self.n) if col != skip}
        best = min(scores.values())
        ties = [col for col, score in scores.items() if score == best]
        return ties[self.rand.below(len(ties))]

    def attacked_rows(self) -> list[int]:
        return [row for row in range(self.n) if self.attackers(row, self.cols[row]) > 3]


def reference_min_conflicts_repair(
    n: int, rng: np.ndarray, max_steps: int, restart_after: int
) -> tuple[list[int], int, int, bool]:
    """Classic min-conflicts in plain Python; must match ``min_conflicts_repair`` exactly."""
    rand = _ReferenceRandom(rng)
    steps = restarts = 0
    while True:
        board = _ReferenceBoard(n, rand)
        for row in range(n):
            board.move(row, board.least_conflicted(row, -1), 1)
        taken = 0
        while attacked := board.attacked_rows():
            if taken >= min(restart_after, max_steps - steps):
                break
            row = attacked[rand.below(len(attacked))]
            old = board.cols[row]
            board.move(row, old, -1)
            board.move(row, board.least_conflicted(row, old), 1)
            taken += 1
        steps += taken
        if not attacked or steps >= max_steps:
            return board.cols, steps, restarts, not attacked
        restarts += 1
