"""Solve one Sudoku by clause learning: the puzzle as CNF, ``cdcl.kernel.search`` decides it.

Backtracking with propagation, however strong, does not finish the hard minimal
25x25 puzzles: it explores the same failing sub-grids again and again.  A
conflict-driven clause-learning (CDCL) search records each failure as a clause
(a nogood) and never repeats it; restarts let it leave a bad early guess.  It
is solve-only: it finds one solution or proves there is none, it cannot count,
and its effort is measured in conflicts, not in the nodes of the other kernels.

Glossary
--------
x(square, value)
    One boolean variable per open square and value still possible there after
    the givens' peers are removed ("the square holds the value").  Givens get
    no variable.  ``Cnf.square[var]`` and ``Cnf.value[var]`` say which.
clauses
    At least one value per open square, and each value a unit still lacks in
    at least one of its open squares that allow it (one long clause each); at
    most one of each of those groups (one two-literal clause per pair).
    Literal ``2 * var`` is x true, ``2 * var + 1`` x false.
status
    ``solved`` (``cells`` holds the solution), ``unsatisfiable`` (no solution,
    proved; givens that repeat a value in a unit are simply unsatisfiable
    here) or ``limit`` (``max_conflicts`` or the time limit came first).
conflicts, decisions, propagations
    The search's effort: dead ends met (each teaches one clause), guesses
    made, literals propagated.  The CLI reports decisions as ``nodes``.
slice
    One kernel call of at most ``SLICE_CONFLICTS`` conflicts (about a second
    on 25x25); the kernel then hands back what it learnt and is called again,
    so Ctrl-C and time limits are honoured within a slice.  Slices are counted
    in conflicts, not seconds, so a run does not depend on the machine's speed.

Example::

    >>> result = solve_cdcl("1...3.1..1.4...1")   # 4x4, one line
    >>> result.status, result.line()
    ('solved', '1243341221344321')
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...engine.arguments import check_count
from ..calls import call_kernel
from ..formats import PuzzleEntry, value_symbol
from ..grid import box_for_cells, grid_for
from ..puzzle import InvalidPuzzleError, check_givens, read_givens
from ..results import STOPPED, UNSOLVABLE, PuzzleResult, invalid, wrong_solution
from ..space import is_valid_solution
from .kernel.search import (
    CONFLICTS,
    DECISIONS,
    FIRST_CLEANUP,
    FIRST_SWITCH,
    LIMIT,
    PROPAGATIONS,
    SATISFIED,
    cdcl_search,
    empty_learnts,
    new_stats,
    new_tuning,
)

SOLVED, UNSATISFIABLE, STOPPED_AT_LIMIT = "solved", "unsatisfiable", "limit"
SLICE_CONFLICTS = 5_000
INITIAL_PHASE = 1  # guess "the square holds the value" first
TUNING: dict[str, float] = {}  # new_tuning's defaults


@dataclass(frozen=True, slots=True)
class Cnf:
    """The puzzle as clauses over x(square, value); see the glossary."""

    cells: tuple[int, ...]
    nvars: int
    lits: np.ndarray
    starts: np.ndarray
    square: np.ndarray
    value: np.ndarray

    @property
    def clauses(self) -> int:
        return len(self.starts) - 1


@dataclass(frozen=True, slots=True)
class CdclResult:
    """What ``solve_cdcl`` found, and at what cost."""

    status: str
    cells: tuple[int, ...] | None
    conflicts: int
    decisions: int
    propagations: int
    seconds: float

    def line(self) -> str | None:
        """The solution as one line of symbols, or None."""
        return None if self.cells is None else "".join(value_symbol(v) for v in self.cells)


def read_cells(givens: str | Sequence[int | None]) -> tuple[int, ...]:
    """The givens as cells; InvalidPuzzleError for a wrong size or a value out of range
    (repeated givens are allowed: they make the puzzle unsatisfiable)."""
    cells = read_givens(givens)  # type: ignore[arg-type]
    box = box_for_cells(len(cells))
    if box is None:
        raise InvalidPuzzleError(
            f"{len(cells)} cells is no Sudoku size; expected 16, 81, 256, 625 or 1296")
    size = box * box
    wrong = [i for i, v in enumerate(cells) if not 0 <= v <= size]
    if wrong:
        raise InvalidPuzzleError(f"values must be 1..{size}: cell {wrong[0]} holds "
                                 f"{cells[wrong[0]]}")
    return cells


def _group_clauses(groups: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """One at-least-one clause per group of variables, then one at-most-one clause per
    pair in each group: (lits, clause sizes)."""
    pairs = []
    for group in groups:
        first, second = np.triu_indices(len(group), 1)
        pairs.append(np.stack([group[first], group[second]], axis=1).ravel())
    long = np.concatenate(groups) * 2 if groups else np.zeros(0, np.int64)
    short = np.concatenate(pairs) * 2 + 1 if pairs else np.zeros(0, np.int64)
    sizes = np.concatenate([[len(g) for g in groups], np.full(len(short) // 2, 2)])
    return np.concatenate([long, short]), sizes


def sudoku_cnf(givens: str | Sequence[int | None]) -> Cnf:
    """The CNF of a puzzle (see the glossary); an impossible square or unit, or a
    repeated given, becomes an empty clause."""
    cells = read_cells(givens)
    grid = grid_for(box_for_cells(len(cells)) or 0)
    n = grid.size
    given = np.array(cells, np.int64)
    allowed = np.ones((n * n, n + 1), np.bool_)
    allowed[:, 0] = False
    empty = 0
    for unit in grid.units:
        values = given[list(unit)]
        values = values[values > 0]
        empty += len(values) != len(set(values.tolist()))
        for s in unit:
            allowed[s, values] = False
    allowed[given > 0] = False
    var = np.full((n * n, n + 1), -1, np.int64)
    squares, values = np.nonzero(allowed)
    var[squares, values] = np.arange(len(squares))
    groups = [var[s][allowed[s]] for s in range(n * n) if not given[s]]
    for unit in grid.units:
        held = set(given[list(unit)].tolist())
        for value in range(1, n + 1):
            if value not in held:
                column = var[list(unit), value]
                groups.append(column[column >= 0])
    empty += sum(len(g) == 0 for g in groups)
    lits, sizes = _group_clauses([g for g in groups if len(g)])
    sizes = np.concatenate([np.zeros(empty, np.int64), sizes])  # empty clauses first
    starts = np.zeros(len(sizes) + 1, np.int64)
    np.cumsum(sizes, out=starts[1:])
    return Cnf(cells, len(squares), lits.astype(np.int32), starts,
               squares.astype(np.int32), values.astype(np.int32))


def _decode(cnf: Cnf, values: np.ndarray) -> tuple[int, ...]:
    cells = list(cnf.cells)
    for var in np.flatnonzero(values):
        cells[cnf.square[var]] = int(cnf.value[var])
    return tuple(cells)


def solve_cdcl(givens: str | Sequence[int | None], *, max_conflicts: int | None = None,
               timeout: float | None = None, deadline: float | None = None) -> CdclResult:
    """One solution of the puzzle, or a proof there is none, by clause learning.

    Parameters
    ----------
    givens
        A puzzle line or grid (``formats``), or a flat sequence of n*n ints (0 or
        None for a blank).
    max_conflicts
        Stop after about this many conflicts (an int >= 1), or None.
    timeout
        Stop after this many seconds (a positive number), or None.  They are
        counted on ``time.perf_counter()``, the monotonic clock of every time
        limit in the package: setting the system clock does not move them.  It is
        checked between slices (about a second each on 25x25).
    deadline
        Kept for compatibility: a ``time.time()`` reading to stop at (seconds since
        the epoch: ``time.time() + 10`` gives it ten seconds), or None.  It becomes
        the seconds left when the call starts, a ``timeout``; ``inf`` is no limit.
        Give ``timeout`` or ``deadline``, not both.

    Returns
    -------
    CdclResult
        Status ``solved``, ``unsatisfiable``, or ``limit`` when ``max_conflicts`` or
        the time limit ended the search first, with the conflicts, decisions and
        propagations spent.

    InvalidPuzzleError for unreadable givens; ValueError for a bad ``max_conflicts``,
    a ``timeout`` that is no positive finite number, a ``deadline`` that is no
    ``time.time()`` reading (below 10^9, as a ``time.perf_counter()`` or
    ``time.monotonic()`` value is, or NaN) or both given; TypeError for a
    ``timeout`` or ``deadline`` that is no number, or a ``max_conflicts`` that is no
    integer (``engine.WrongTypeError``, also a ValueError).
    """
    check_count("max_conflicts", max_conflicts)
    return _solve_until(givens, max_conflicts, stop_at(time.perf_counter(), timeout, deadline))


def _solve_until(givens: str | Sequence[int | None], max_conflicts: int | None,
                 until: float | None) -> CdclResult:
    """``solve_cdcl`` with its time limit as a ``time.perf_counter()`` value (None: no
    limit), looked at after each slice: the first slice always runs."""
    started = time.perf_counter()
    cnf = sudoku_cnf(givens)
    activity = np.zeros(cnf.nvars)
    phase = np.full(cnf.nvars, INITIAL_PHASE, np.int8)
    target = phase.copy()
    tuning = new_tuning(**TUNING)
    stats = new_stats(int(tuning[FIRST_CLEANUP]), int(tuning[FIRST_SWITCH]))
    learnts = empty_learnts()
    while True:
        budget = SLICE_CONFLICTS
        if max_conflicts is not None:
            budget = min(budget, max_conflicts - int(stats[CONFLICTS]))
        status, values, *learnts = call_kernel(
            cdcl_search, cnf.nvars, cnf.lits, cnf.starts, *learnts, activity, phase, target,
            budget, stats, tuning)
        if status != LIMIT:
            break
        if max_conflicts is not None and stats[CONFLICTS] >= max_conflicts:
            break
        if until is not None and time.perf_counter() >= until:
            break
    name = {SATISFIED: SOLVED, LIMIT: STOPPED_AT_LIMIT}.get(status, UNSATISFIABLE)
    cells = _decode(cnf, values) if status == SATISFIED else None
    return CdclResult(name, cells, int(stats[CONFLICTS]), int(stats[DECISIONS]),
                      int(stats[PROPAGATIONS]), time.perf_counter() - started)


def stop_at(now: float, timeout: object, deadline: object) -> float | None:
    """The ``time.perf_counter()`` value to stop at, from ``now`` (a reading of it) and
    ``solve_cdcl``'s ``timeout`` or ``deadline``; None for no limit.  TypeError or
    ValueError for a bad value, or for both."""
    if timeout is not None and deadline is not None:
        raise ValueError(f"give timeout or deadline, not both (got timeout={timeout!r}, "
                         f"deadline={deadline!r})")
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
            raise TypeError(f"timeout must be a positive number of seconds or None, "
                            f"got {timeout!r}")
        if not 0 < timeout < math.inf:  # NaN too
            raise ValueError(f"timeout must be a positive number of seconds or None, "
                             f"got {timeout!r}")
        return now + timeout
    wall = _check_deadline(deadline)
    if wall is None or wall == math.inf:
        return None
    return now + (wall - time.time())  # the seconds left, from now on the steady clock


# 10^9 seconds after the epoch is September 2001: a smaller deadline was read off
# another clock (perf_counter and monotonic count from boot), and would stop at once.
EPOCH_DEADLINE_MIN = 1e9


def _check_deadline(deadline: object) -> float | None:
    """A ``time.time()`` deadline or None, as it came; else TypeError or ValueError."""
    if deadline is None:
        return None
    if isinstance(deadline, bool) or not isinstance(deadline, (int, float)):
        raise TypeError(f"deadline must be a time.time() value in seconds or None, "
                        f"got {deadline!r}")
    if not deadline >= EPOCH_DEADLINE_MIN:
        raise ValueError(f"deadline must be a time.time() value (seconds since the epoch, "
                         f"such as time.time() + 10), got {deadline!r}: a time.perf_counter() "
                         "or time.monotonic() reading would end the search at once "
                         "(for seconds from now, give timeout=)")
    return float(deadline)


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernel on a 4x4 puzzle."""
    solve_cdcl("1...3.1..4.2...3")


def solve_entry_cdcl(index: int, entry: PuzzleEntry, *, deadline: float | None = None,
                     verify: bool = False) -> PuzzleResult:
    """``batch.solve_entry`` for the CLI's ``--solver cdcl``: one file entry, solved in
    this process; ``nodes`` are decisions.  Repeated givens are ``invalid`` here, as
    with the other solvers; ``deadline`` (``time.perf_counter()``, the command line's
    time limit) or Ctrl-C gives a ``stopped`` result."""
    if entry.cells is None:
        return invalid(index, entry.line, entry.error)
    try:
        check_givens(entry.cells)
    except InvalidPuzzleError as error:
        return invalid(index, entry.line, error)
    started = time.perf_counter()
    try:
        found = _solve_until(entry.cells, None, deadline)
    except KeyboardInterrupt:
        return PuzzleResult(index, entry.line, STOPPED, seconds=time.perf_counter() - started,
                            stop_reason="interrupted")
    if found.status == STOPPED_AT_LIMIT:
        return PuzzleResult(index, entry.line, STOPPED, nodes=found.decisions,
                            seconds=found.seconds, stop_reason="timeout")
    if found.cells is not None and verify and not is_valid_solution(entry.cells, found.cells):
        return wrong_solution(index, entry.line, None, found.decisions, found.seconds)
    return PuzzleResult(index, entry.line, SOLVED if found.cells else UNSOLVABLE, found.line(),
                        None, found.decisions, found.seconds, cells=found.cells)
