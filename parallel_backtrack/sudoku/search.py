"""Solving and counting one puzzle through the engine.

Glossary
--------
puzzle
    An ``ImmutableSudokuPuzzle``, or givens to build one from (with
    ``propagation``; see ``puzzle``).
order
    A square order or its name, ``"fewest"`` (the default) or ``"row-major"``.
workers
    joblib's ``n_jobs`` convention: 1 searches in this process (no pool is
    started), 2.. that many processes, -1 every core.  With several workers
    the tree of one puzzle is cut into subtrees that run in parallel; answers
    are the same for any worker count.
outcome
    What one search found and cost: the first solution, the count (when
    asked), the nodes visited (see ``space``) and the seconds.

Example::

    >>> top = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> solve(top).line()[:9]
    '417369825'
    >>> count_solutions(top, limit=2)
    1

On one worker the searches run the engine's bounded depth-first ``explore``
directly (the reference search, cheapest per puzzle); on more they go through
the engine's scheduler (``count``, ``solve``, ``solutions``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from parallel_backtrack import engine
from parallel_backtrack.engine.arguments import check_count
from parallel_backtrack.engine.space import depth_first

from .orders import SquareOrder, as_order
from .propagate import DEFAULT_PROPAGATION
from .puzzle import Givens, ImmutableSudokuPuzzle
from .space import SudokuSpace

PuzzleLike = ImmutableSudokuPuzzle | Givens
OrderLike = SquareOrder | str


@dataclass(frozen=True, slots=True)
class Outcome:
    """The first solution (None when there is none), the count if asked, and the cost."""

    solution: ImmutableSudokuPuzzle | None
    count: int | None
    nodes: int
    seconds: float


def as_puzzle(puzzle: PuzzleLike, propagation: str = DEFAULT_PROPAGATION) -> ImmutableSudokuPuzzle:
    """``puzzle`` itself, or a puzzle built from givens with ``propagation``."""
    if isinstance(puzzle, ImmutableSudokuPuzzle):
        return puzzle
    return ImmutableSudokuPuzzle(puzzle, propagation)


def space_for(puzzle: PuzzleLike, order: OrderLike = "fewest", kernel: str = "fast") -> SudokuSpace:
    """The engine Space of a puzzle under a square order (``kernel``: fast or reference)."""
    return SudokuSpace(as_puzzle(puzzle), as_order(order), kernel)


def _explore(space: SudokuSpace, roots: Sequence[ImmutableSudokuPuzzle], *,
             stop_after: int | None = None, keep: bool = False, budget: int | None = None,
             deadline: float | None = None) -> engine.Explored:
    """``engine.explore`` on one worker, in the kernel when the space is fast (a kernel
    call sees no deadline: its ``budget`` bounds it)."""
    if space.fast:
        return space.explore_fast(roots, budget=budget, stop_after=stop_after, keep=keep)
    until = None if deadline is None else (lambda: time.perf_counter() >= deadline)
    return engine.explore(space, roots, budget=budget, stop_after=stop_after, keep=keep,
                          until=until)


@dataclass
class Findings:
    """What one puzzle's search has found so far, filled in place: a Ctrl-C or a
    deadline leaves the partial result here (``stop`` says why it ended early)."""

    first: ImmutableSudokuPuzzle | None = None
    count: int = 0
    nodes: int = 0
    stop: str | None = None


def solve_then_count(
    space: SudokuSpace,
    findings: Findings,
    *,
    count: bool = False,
    limit: int | None = None,
    deadline: float | None = None,
    roots: Sequence[ImmutableSudokuPuzzle] | None = None,
    nodes: int | None = None,
) -> list[ImmutableSudokuPuzzle]:
    """One worker: the first solution in depth-first order, then (with ``count``) the
    rest of the tree up to ``limit`` solutions, each node visited once.

    It runs in slices of ``space.node_budget`` nodes (some 0.1 s), so a ``deadline``
    (``time.perf_counter()`` seconds; ``findings.stop`` becomes ``"timeout"``) is met within
    one.  Starts from ``roots`` (default: the root); stops after about ``nodes`` nodes
    when given and returns the unexplored rest (empty when the job is done), which
    another space over the same tree (the kernel after the Python path) can finish.
    """
    todo = [space.root()] if roots is None else list(roots)
    spent = 0
    while todo and findings.stop is None and (nodes is None or spent < nodes):
        if findings.first is not None and (not count or _reached(findings, limit)):
            return []
        if deadline is not None and time.perf_counter() >= deadline:
            findings.stop = "timeout"
            break
        budget = space.node_budget if nodes is None else min(space.node_budget, nodes - spent)
        wanted = 1 if findings.first is None else (None if limit is None
                                                    else limit - findings.count)
        part = _explore(space, todo, stop_after=wanted, keep=findings.first is None,
                        budget=budget, deadline=deadline)
        spent += part.nodes
        findings.nodes += part.nodes
        findings.count += part.count
        todo = list(part.leftover)
        if findings.first is None and part.solutions:
            findings.first = part.solutions[0]
    if findings.first is not None and (not count or _reached(findings, limit)):
        return []
    return todo


def _reached(findings: Findings, limit: int | None) -> bool:
    return limit is not None and findings.count >= limit


def _check_limit(limit: int | None) -> None:
    check_count("limit", limit)


def _workers(workers: int) -> int:
    return engine.resolve_workers(workers)


def _search_sequential(space: SudokuSpace, count: bool, limit: int | None) -> Outcome:
    started, findings = time.perf_counter(), Findings()
    solve_then_count(space, findings, count=count, limit=limit)
    return Outcome(findings.first, findings.count if count else None, findings.nodes,
                   time.perf_counter() - started)


def _search_parallel(
    space: SudokuSpace, count: bool, limit: int | None, workers: int, backend: str | None
) -> Outcome:
    """Counting up to a limit streams the solutions (the first streamed is the first in
    depth-first order); counting them all uses the engine's count, then a solve."""
    started = time.perf_counter()
    options: dict[str, Any] = {"workers": workers, "backend": backend}
    if count and limit is not None:
        stream = engine.solutions(space, limit=limit, **options)
        head, streamed = None, 0
        for state in stream:
            head, streamed = head or state, streamed + 1
        return Outcome(head, streamed, stream.report.nodes, time.perf_counter() - started)
    total: int | None = None
    nodes = 0
    if count:
        report = engine.count(space, **options)
        total, nodes = report.count, report.nodes
    first = None
    if total is None or total > 0:
        solved = engine.solve(space, **options)
        first, nodes = solved.solution, nodes + solved.nodes
    return Outcome(first, total, nodes, time.perf_counter() - started)


def search(
    puzzle: PuzzleLike,
    order: OrderLike = "fewest",
    *,
    count: bool = False,
    limit: int | None = None,
    workers: int = 1,
    backend: str | None = None,
    kernel: str = "fast",
) -> Outcome:
    """Find the first solution and, with ``count``, count the solutions (up to ``limit``).

    ``puzzle``, ``order``, ``workers``, ``backend`` and ``kernel`` are as for ``solve``,
    ``limit`` as for ``count_solutions``.  Returns an ``Outcome``: the first solution
    (or None), the count (None without ``count``), the nodes visited and the seconds.
    """
    _check_limit(limit)
    space, workers = space_for(puzzle, order, kernel), _workers(workers)
    if workers == 1 and backend is None:
        return _search_sequential(space, count, limit)
    return _search_parallel(space, count, limit, workers, backend)


def solve(
    puzzle: PuzzleLike, order: OrderLike = "fewest", *, workers: int = 1,
    backend: str | None = None, kernel: str = "fast",
) -> ImmutableSudokuPuzzle | None:
    """The first solution of a puzzle, or None when it has none.

    Parameters
    ----------
    puzzle
        An ``ImmutableSudokuPuzzle``, or givens to build one with the default
        propagation ``units``: one line of n*n symbols (81 for 9x9; ``.``, ``0`` or
        ``_`` for a blank, ``1``..``9`` then ``A``.. for 10 and up), a grid of n
        lines, a flat sequence of n*n ints or n rows of n ints (0 or None for a
        blank); 4x4 to 36x36.  See ``ImmutableSudokuPuzzle``.
    order
        A square order or its name: ``"fewest"`` (the default) or ``"row-major"``.
    workers
        1 (the default) searches in this process; 2.. that many processes; -1
        every core.
    backend
        The engine's pool (``"loky"``, ``"threads"``, ...); None picks one.
    kernel
        ``"fast"`` (compiled, the default) or ``"reference"`` (pure Python):
        the same answer.

    Returns
    -------
    ImmutableSudokuPuzzle or None
        The first solution in depth-first order on one worker (on more, the first
        any worker finds), or None.

    InvalidPuzzleError for unreadable givens; UnknownNameError for an unknown name,
    TypeError for an order that is neither an order nor a name.  Example:
    ``solve("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    ).line()[:9] == "417369825"``.
    """
    return search(puzzle, order, workers=workers, backend=backend, kernel=kernel).solution


def count_solutions(
    puzzle: PuzzleLike,
    order: OrderLike = "fewest",
    *,
    limit: int | None = None,
    workers: int = 1,
    backend: str | None = None,
    kernel: str = "fast",
) -> int:
    """How many solutions the puzzle has, or ``limit`` when it has at least that many.

    Parameters
    ----------
    puzzle
        An ``ImmutableSudokuPuzzle`` or givens (as for ``solve``: a line of n*n
        symbols with ``.``, ``0`` or ``_`` for blanks, a grid, ints or rows of ints;
        4x4 to 36x36).
    order
        A square order or its name: ``"fewest"`` (the default) or ``"row-major"``;
        the count does not depend on it.
    limit
        Stop counting at this many (a positive int), or None to count them all.
    workers, backend, kernel
        As for ``solve``; the count is the same for any of them.

    Returns
    -------
    int
        The number of solutions, at most ``limit``: ``count_solutions(p, limit=2)``
        is 1 for a proper puzzle (see ``is_unique``).

    ValueError for a bad ``limit``; the puzzle and order raise as in ``solve``.
    Example: ``count_solutions("1...|..2.|.3..|...4") == 1`` (a 4x4 puzzle, its rows
    separated by ``|``).
    """
    _check_limit(limit)
    space, workers = space_for(puzzle, order, kernel), _workers(workers)
    if workers == 1 and backend is None:
        return _explore(space, [space.root()], stop_after=limit).count
    if limit is None:
        return engine.count(space, workers=workers, backend=backend).count
    stream = engine.solutions(space, limit=limit, workers=workers, backend=backend)
    return sum(1 for _ in stream)


def solutions(
    puzzle: PuzzleLike,
    order: OrderLike = "fewest",
    *,
    limit: int | None = None,
    workers: int = 1,
    backend: str | None = None,
) -> Iterator[ImmutableSudokuPuzzle]:
    """The solutions, in depth-first order whatever the workers (the first ``limit``)."""
    _check_limit(limit)
    space, workers = space_for(puzzle, order), _workers(workers)
    if workers == 1 and backend is None:
        return _sequential_stream(space, limit)
    return _parallel_stream(space, limit, workers, backend)


def _parallel_stream(
    space: SudokuSpace, limit: int | None, workers: int, backend: str | None
) -> Iterator[ImmutableSudokuPuzzle]:
    stream = engine.solutions(space, limit=limit, workers=workers, backend=backend)
    try:
        yield from stream
    finally:
        stream.close()  # stopping early releases the workers at once


def _sequential_stream(space: SudokuSpace, limit: int | None) -> Iterator[ImmutableSudokuPuzzle]:
    found = 0
    for state in depth_first(space, space.root()):
        if space.is_solution(state):
            yield state
            found += 1
            if limit is not None and found >= limit:
                return


def is_unique(
    puzzle: PuzzleLike, order: OrderLike = "fewest", *, workers: int = 1, backend: str | None = None
) -> bool:
    """True when the puzzle has exactly one solution (counts up to 2)."""
    return count_solutions(puzzle, order, limit=2, workers=workers, backend=backend) == 1
