"""N-Queens local search: one solution for boards far beyond backtracking's reach.

``find_one(n, method)`` returns one placement of n non-attacking queens found by a
local search (or by construction), checked by the independent ``is_queens_solution``
before it is returned.  With ``workers > 1`` it runs a *portfolio*: independently
seeded searches on a process pool, the first to finish wins and the rest are
cancelled (``engine.first_hit``).

Methods
-------
min-conflicts (default)
    ``variant="repair"``: greedy start, then a queen in conflict moves to its
    least-conflicted other column (Minton et al.); ``variant="swaps"``: a linear-time
    QS-style variant (Sosic and Gu) for huge n; ``"auto"`` picks repair up to
    ``REPAIR_MAX_N`` queens.  Kernels in ``local.kernel``.
hill-climbing, annealing, genetic, constructive
    See ``local.methods``.

Glossary
--------
solution
    The column of the queen in each row 0..n-1: ``(1, 3, 0, 2)`` for n = 4.
step
    One unit of a method's main loop: a repair (min-conflicts repair), an attempted
    swap (min-conflicts swaps), a move (hill climbing), a proposal (annealing), a
    generation (genetic); 0 for constructive.  ``max_steps`` caps steps per search.
restart
    A fresh random start after the method gave up on the current one.
seed
    The root seed: search ``k`` of a portfolio draws from
    ``numpy.random.SeedSequence(seed).spawn(W)[k]``, which does not depend on W, so
    ``find_one(n, seed=s)`` repeats search 0 of every portfolio seeded with ``s``.
worker
    Which search of the portfolio answered (-1: none did).

Example: ``find_one(8, seed=1).solution`` is a tuple of 8 columns, and
``is_queens_solution(find_one(10**6).solution)`` is True within a few seconds.
"""

from __future__ import annotations

import dataclasses
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from ...engine import BACKENDS, first_hit, resolve_workers
from ...engine.arguments import check_count
from ...engine.checks import (
    UnknownNameError,
    WrongTypeError,
    check_int,
    check_name,
    did_you_mean,
)
from ..board import MAX_BOARD_SIZE, from_columns
from ..verify import is_queens_solution
from .kernel.methods import ELITE, annealing, constructive, genetic, hill_climbing
from .kernel.min_conflicts import make_rng, min_conflicts_repair, min_conflicts_swaps
from .options import (
    DEFAULT_MAX_STEPS,
    MAX_N,
    METHODS,
    PARAMETERS,
    UNLIMITED,
    VARIANTS,
    resolve_variant,
)

SWAP_START_TRIES = 50  # random picks per row looking for free diagonals (QS4's idea)


@dataclass(frozen=True, eq=False)
class LocalResult:
    """What ``find_one`` found (``solution`` None: no solution, or the cap was hit).

    ``columns`` is the answer as a read-only int64 array; ``solution``, the same as a
    tuple, is built on first use (for n = 10^7 that is 0.7 s and 360 MB of Python
    ints, which the CLI's summary never needs).
    """

    n: int
    method: str
    columns: np.ndarray | None
    steps: int
    restarts: int
    seconds: float
    seed: int
    worker: int
    workers: int

    @cached_property
    def solution(self) -> tuple[int, ...] | None:
        """The column of the queen in each row 0..n-1, or None."""
        return None if self.columns is None else tuple(self.columns.tolist())

    @property
    def solved(self) -> bool:
        return self.columns is not None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields, the solution as a list."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        del fields["columns"]
        fields["solution"] = None if self.columns is None else self.columns.tolist()
        return fields

    def board(self) -> str:
        """The solution drawn one row per line (``. Q . .``), up to MAX_BOARD_SIZE."""
        if self.solution is None:
            return f"no solution for n = {self.n}"
        if self.n > MAX_BOARD_SIZE:
            return f"(a {self.n} x {self.n} board is too big to draw; n <= {MAX_BOARD_SIZE})"
        return str(from_columns(self.solution))

    def __str__(self) -> str:
        return f"{self.n}-queens by {self.method}:\n{self.board()}"

    def __repr__(self) -> str:
        """The dataclass's repr, with ``columns`` as its length (``[20 items]``) or None."""
        columns = "None" if self.columns is None else f"[{len(self.columns)} items]"
        shown = [f"{f.name}={columns if f.name == 'columns' else repr(getattr(self, f.name))}"
                 for f in dataclasses.fields(self)]
        return f"LocalResult({', '.join(shown)})"


def find_one(
    n: int,
    method: str = "min-conflicts",
    *,
    seed: int | None = None,
    workers: int = 1,
    backend: str | None = None,
    max_steps: int | None = None,
    **params: Any,
) -> LocalResult:
    """One solution of n-queens by ``method`` (see ``METHODS`` and ``PARAMETERS``).

    n = 2 and n = 3 have none: the result says so at once, without searching.
    """
    start = time.perf_counter()
    n = _check_n(n)
    method = check_name("method", method, METHODS)
    settings = _check_params(method, params)
    workers = resolve_workers(workers)
    if backend is not None:
        check_name("backend", backend, BACKENDS)
    cap = DEFAULT_MAX_STEPS[method] if max_steps is None else _check_max_steps(max_steps)
    seed = _check_seed(seed)
    if n <= 3 or method == "constructive":
        workers = 1  # nothing to race: no solution, a trivial one, or a formula
    if n in (2, 3):
        found: _Found | None = _Found(None, 0, 0, -1)
    elif workers == 1:
        found = _search(n, method, seed, 0, cap, settings)
    else:
        tasks = [(n, method, seed, k, cap, settings) for k in range(workers)]
        found = first_hit(_portfolio_task, tasks, workers=workers, backend=backend)[1]
        if found is None:  # every search spent its whole cap
            found = _Found(None, cap * workers, 0, -1)
    if found is None:
        raise RuntimeError("internal error: a single search returned nothing")
    return _result(n, method, found, start, seed, workers)


@dataclass(frozen=True, slots=True)
class _Found:
    """What one search hands back (an array pickles fast; a 10^7-tuple does not)."""

    cols: np.ndarray | None
    steps: int
    restarts: int
    worker: int


def _result(
    n: int, method: str, found: _Found, start: float, seed: int, workers: int
) -> LocalResult:
    """The checked, read-only answer; no search may return an unchecked placement."""
    cols = found.cols
    if cols is not None:
        if not is_queens_solution(cols):
            raise RuntimeError(f"internal error: {method} returned an invalid {n}-queens placement")
        cols = cols.astype(np.int64, copy=False)
        cols.flags.writeable = False
    worker = -1 if cols is None else found.worker
    seconds = time.perf_counter() - start
    return LocalResult(n, method, cols, found.steps, found.restarts, seconds, seed, worker, workers)


def worker_seed(seed: int, worker: int) -> int:
    """The 64-bit kernel seed of search ``worker`` under the root ``seed``."""
    child = np.random.SeedSequence(seed, spawn_key=(worker,))
    return int(child.generate_state(1, dtype=np.uint64)[0])


def _search(
    n: int, method: str, seed: int, worker: int, cap: int, settings: dict[str, Any]
) -> _Found:
    """One seeded search; ``cols`` is None when it ran out of steps."""
    if n == 1:
        return _Found(np.zeros(1, np.int64), 0, 0, worker)
    rng = make_rng(worker_seed(seed, worker))
    cols, steps, restarts, solved = _RUNNERS[method](n, rng, cap, settings)
    return _Found(cols if solved else None, int(steps), int(restarts), worker)


def _portfolio_task(
    n: int, method: str, seed: int, worker: int, cap: int, settings: dict[str, Any]
) -> _Found | None:
    """A portfolio member: None when it failed, so ``first_hit`` waits for another."""
    found = _search(n, method, seed, worker, cap, settings)
    return found if found.cols is not None else None


def _run_min_conflicts(n: int, rng: np.ndarray, cap: int, p: dict[str, Any]) -> tuple:
    if resolve_variant(n, p["variant"]) == "repair":
        return min_conflicts_repair(n, rng, cap, p["restart_after"] or 100 + n)
    # A restart re-does O(n) work, so the swaps budget grows with n to match it.
    return min_conflicts_swaps(n, rng, cap, p["restart_after"] or 10_000 + n, SWAP_START_TRIES)


_RUNNERS: dict[str, Callable[[int, np.ndarray, int, dict[str, Any]], tuple]] = {
    "min-conflicts": _run_min_conflicts,
    "hill-climbing": lambda n, rng, cap, p: hill_climbing(n, rng, cap, p["sideways"]),
    "annealing": lambda n, rng, cap, p: annealing(
        n, rng, cap, p["temperature"], p["cooling"], p["min_temperature"]),
    "genetic": lambda n, rng, cap, p: genetic(
        n, rng, cap, p["population"], p["mutation"], p["restart_after"]),
    "constructive": lambda n, rng, cap, p: (constructive(n), 0, 0, True),
}


def _check_n(n: object) -> int:
    n = check_int("n", n)
    if not 1 <= n <= MAX_N:
        raise ValueError(f"n must be between 1 and {MAX_N}, got {n}")
    return int(n)


def _check_seed(seed: object) -> int:
    if seed is None:
        return secrets.randbits(32)  # reported in the result, so the run can be repeated
    return check_count("seed", seed, low=0) or 0


def _check_max_steps(max_steps: object) -> int:
    return min(check_count("max_steps", max_steps, low=0) or 0, UNLIMITED)


def _check_params(method: str, params: dict[str, Any]) -> dict[str, Any]:
    """The method's defaults overridden by ``params``, each checked."""
    settings = dict(PARAMETERS[method])
    for name, value in params.items():
        if name not in settings:
            accepted = sorted(settings) or ["(none)"]
            raise UnknownNameError(did_you_mean(f"parameter for {method}", name, accepted))
        # None keeps a default that means "decide from n" (min-conflicts restart_after).
        keep = value is None and PARAMETERS[method][name] is None
        settings[name] = None if keep else _CHECKS[name](name, value)
    if method == "annealing" and not settings["min_temperature"] < settings["temperature"]:
        raise ValueError(
            f"min_temperature must be below temperature, got {settings['min_temperature']} "
            f"and {settings['temperature']}")
    return settings


def _integer(low: int) -> Callable[[str, Any], int]:
    def check(name: str, value: Any) -> int:
        return check_int(name, value, low=low)
    return check


def _number(low: float, high: float, closed: bool) -> Callable[[str, Any], float]:
    def check(name: str, value: Any) -> float:
        interval = f"[{low}, {high}]" if closed else f"({low}, {high})"
        message = f"{name} must be a number in {interval}, got {value!r}"
        if not isinstance(value, (int, float, np.number)) or isinstance(value, bool):
            raise WrongTypeError(message)
        if not (low <= value <= high if closed else low < value < high):
            raise ValueError(message)
        return float(value)
    return check


def _variant(name: str, value: Any) -> str:
    return check_name("variant", value, VARIANTS)


_CHECKS: dict[str, Callable[[str, Any], Any]] = {
    "variant": _variant,
    "restart_after": _integer(1),
    "sideways": _integer(0),
    "population": _integer(ELITE + 1),
    "temperature": _number(0.0, math.inf, closed=False),
    "cooling": _number(0.0, 1.0, closed=False),
    "min_temperature": _number(0.0, math.inf, closed=False),
    "mutation": _number(0.0, 1.0, closed=True),
}
