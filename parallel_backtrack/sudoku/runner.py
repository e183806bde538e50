"""Running a file's puzzles: one result per file entry, split across processes by joblib.

(A *batch* elsewhere is one array of puzzles solved in one compiled call:
``kernel.batch``; ``kernel_results`` below hands a bulk-read file to it.)

Glossary
--------
entry
    One puzzle read from a file, or the reason it could not be read
    (``formats.PuzzleEntry``).
job
    What to do with each entry: order, propagation, whether to count (up to
    ``limit``), the wall-clock ``deadline`` of ``--timeout`` (``time.time()``
    seconds, so it means the same in every worker) and whether to ``verify``.
    ``python_first`` nodes (one worker, fast kernel) are searched on the Python
    path before the kernel takes the rest: a small job ends there without loading
    numba (the tree, the answers and the node counts are the same).
    ``engine_options`` (backend, budget, address...) go to the engine's scheduler
    when one puzzle is split across workers.
result
    One ``PuzzleResult`` per entry, in file order: ``status`` is ``solved``,
    ``unsolvable`` (no solution), ``invalid`` (unreadable, or givens that
    contradict each other; see ``results``), ``stopped`` (the search did not finish: the
    deadline passed or Ctrl-C; ``stop_reason`` says which, ``count`` is a lower
    bound and ``solution`` is there if one was found) or ``failed`` (no
    trustworthy answer: the solution failed ``verify``, or worker processes
    kept dying), with the solution as one line of cells, the count when
    counting, the nodes visited and the seconds.
slice
    A search on one worker runs in slices of at most ``SLICE_SECONDS``, so a
    Ctrl-C loses at most one slice of the partial count and a deadline is met
    within one.
workers
    joblib's ``n_jobs``: 1 solves in this process, -1 uses every core.  Puzzles
    go to the workers in batches (joblib's ``batch_size="auto"``); each puzzle
    is searched on one worker, so answers do not depend on the worker count.
    ``solve_entry(..., workers=W)`` instead cuts one puzzle's tree across W
    processes (the engine's scheduler).

Example: ``list(solve_entries(read_puzzles("top95.txt"), Job()))`` gives 95
results, all ``solved``.
"""

from __future__ import annotations

import sys
import time
import warnings
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parallel_backtrack import engine
from parallel_backtrack.engine.checks import is_interrupt
from parallel_backtrack.engine.split import run_subtrees

from .formats import PuzzleEntry
from .puzzle import ImmutableSudokuPuzzle, InvalidPuzzleError
from .results import (
    FAILED,
    SOLVED,
    STOPPED,
    UNSOLVABLE,
    PuzzleResult,
    invalid,
    wrong_solution,
)
from .search import space_for
from .space import SudokuSpace, is_valid_solution

if TYPE_CHECKING:
    from .kernel.read import Batch

SLICE_SECONDS = 0.2
# Solutions held at once while counting up to a limit on one worker.
KEEP_AT_ONCE = 1_000


@dataclass(frozen=True, slots=True)
class Job:
    """How to search each puzzle."""

    order: str = "fewest"
    propagation: str = "units"
    count: bool = False
    limit: int | None = None
    deadline: float | None = None
    verify: bool = False
    kernel: str = "fast"
    python_first: int = 0
    engine_options: tuple[tuple[str, Any], ...] = ()


@dataclass
class _Findings:
    """What one puzzle's search has found so far."""

    first: ImmutableSudokuPuzzle | None = None
    count: int = 0
    nodes: int = 0
    stop: str | None = None


def _seconds_left(deadline: float | None, most: float | None = None) -> float | None:
    if deadline is None:
        return most
    left = deadline - time.time()
    return left if most is None else min(most, left)


def _slice(space: SudokuSpace, roots: list[Any], mode: str, seconds: float,
           keep: int | None, budget: int | None) -> Any:
    if mode == "first":
        return run_subtrees(space, roots, "first", budget, seconds=seconds)
    if keep is None:
        return run_subtrees(space, roots, "count", budget, seconds=seconds)
    return run_subtrees(space, roots, "all", budget, min(keep, KEEP_AT_ONCE), seconds=seconds)


def _slices(space: SudokuSpace, roots: list[Any], mode: str, tally: _Findings,
            deadline: float | None, limit: int | None = None,
            nodes: int | None = None) -> list[Any]:
    """Search ``roots`` in slices (``first``: to the first solution; ``count``: all,
    or up to ``limit``), for about ``nodes`` nodes at most; returns the unexplored rest."""
    spent = 0
    while roots and tally.stop is None and (nodes is None or spent < nodes):
        seconds = _seconds_left(deadline, SLICE_SECONDS) or 0.0
        if seconds <= 0:
            tally.stop = "timeout"
            break
        keep = None if limit is None else limit - tally.count
        part = _slice(space, roots, mode, seconds, keep, None if nodes is None else nodes - spent)
        spent += part.nodes
        tally.nodes += part.nodes
        tally.count += part.count
        roots = list(part.leftover)
        if mode == "first" and part.solutions:
            tally.first = part.solutions[0]
            break
        if limit is not None and tally.count >= limit:
            break
    return roots


def _search_here(puzzle: ImmutableSudokuPuzzle, job: Job, tally: _Findings) -> None:
    """One worker, this process: the first solution, then (counting) the rest of the
    tree, each node visited once; the first ``job.python_first`` nodes of each part on
    the Python path, the rest (if any) in the kernel."""
    roots: list[Any] = [(puzzle, 1)]
    if job.kernel == "fast" and job.python_first:
        roots = _search_parts(space_for(puzzle, job.order, "reference"), roots, job, tally,
                              job.python_first)
        if not roots or tally.stop is not None:
            return
    _search_parts(space_for(puzzle, job.order, job.kernel), roots, job, tally, None)


def _search_parts(space: SudokuSpace, roots: list[Any], job: Job, tally: _Findings,
                  nodes: int | None) -> list[Any]:
    """The first solution (unless found already), then the count; the rest, if the
    ``nodes`` ran out first."""
    if tally.first is None:
        roots = _slices(space, roots, "first", tally, job.deadline, nodes=nodes)
        if tally.first is None:
            return roots  # unsolvable (no roots left), or out of nodes or time
    if not job.count or (job.limit is not None and tally.count >= job.limit):
        return []
    return _slices(space, roots, "count", tally, job.deadline, job.limit, nodes=nodes)


def _absorb(tally: _Findings, report: engine.SearchReport) -> None:
    tally.nodes += report.nodes
    if not report.complete:
        tally.stop = report.stop_reason or "interrupted"


def _options(job: Job, workers: int, tally: _Findings) -> dict[str, Any] | None:
    """The engine options for the time left, or None (and a stop) when none is."""
    left = _seconds_left(job.deadline)
    if left is not None and left <= 0:
        tally.stop = "timeout"
        return None
    return {**dict(job.engine_options), "workers": workers, "timeout": left}


def _search_pool(space: SudokuSpace, job: Job, workers: int, tally: _Findings) -> None:
    """Several workers: the engine's scheduler.  Counting up to a limit streams the
    solutions; counting them all solves first (a solution to show), then counts."""
    options = _options(job, workers, tally)
    if options is None:
        return
    if job.count and job.limit is not None:
        stream = engine.solutions(space, limit=job.limit, **options)
        try:
            for state in stream:
                tally.first, tally.count = tally.first or state, tally.count + 1
        finally:
            _absorb(tally, stream.report)
        return
    _run(engine.solve, space, options, tally)
    options = _options(job, workers, tally) if job.count and tally.stop is None else None
    if options is not None and tally.first is not None:
        _run(engine.count, space, options, tally)


def _run(mode: Any, space: SudokuSpace, options: dict[str, Any], tally: _Findings) -> None:
    """``engine.solve`` or ``engine.count``; a Ctrl-C still leaves its part in the tally."""
    try:
        report = mode(space, **options)
    except engine.SearchInterrupted as stop:
        _take(tally, stop.report)
        raise
    _take(tally, report)


def _take(tally: _Findings, report: engine.SearchReport) -> None:
    _absorb(tally, report)
    if report.mode == "first":
        tally.first, tally.count = report.solution, int(report.solution is not None)
    else:  # the count run counts the whole tree again, the first solution included
        tally.count = max(1, report.count)


def _outcome(index: int, entry: PuzzleEntry, job: Job, tally: _Findings,
             seconds: float) -> PuzzleResult:
    solution = None if tally.first is None else tally.first.line()
    count = tally.count if job.count else None
    if count is not None and job.limit is not None:
        count = min(count, job.limit)
    if (tally.first is not None and job.verify
            and not is_valid_solution(entry.cells or (), tally.first.cells)):
        return wrong_solution(index, entry.line, count, tally.nodes, seconds)
    if tally.stop is not None:
        status = STOPPED
    else:
        status = SOLVED if solution is not None else UNSOLVABLE
    return PuzzleResult(index, entry.line, status, solution, count, tally.nodes, seconds,
                        stop_reason=tally.stop,
                        cells=None if tally.first is None else tally.first.cells)


def solve_entry(
    index: int, entry: PuzzleEntry, job: Job, *, workers: int = 1
) -> PuzzleResult:
    """Search one entry; unreadable or contradictory givens give an ``invalid`` result,
    a deadline or a Ctrl-C a ``stopped`` one (with what was found so far)."""
    if entry.cells is None:
        return invalid(index, entry.line, entry.error)
    try:
        puzzle = ImmutableSudokuPuzzle(entry.cells, job.propagation)
    except InvalidPuzzleError as error:
        return invalid(index, entry.line, error)
    started, tally = time.perf_counter(), _Findings()
    try:
        if workers == 1:
            _search_here(puzzle, job, tally)
        else:
            _search_pool(space_for(puzzle, job.order, job.kernel), job, workers, tally)
    except KeyboardInterrupt:  # SearchInterrupted too: the tally holds the partial result
        tally.stop = "interrupted"
    except SystemError as error:  # a Ctrl-C inside a compiled kernel, as numba reports it
        if not is_interrupt(error):
            raise
        tally.stop = "interrupted"
    except engine.WorkerCrashError as crash:
        return PuzzleResult(index, entry.line, FAILED, nodes=tally.nodes + crash.report.nodes,
                            seconds=time.perf_counter() - started,
                            error=f"line {entry.line}: {crash}")
    return _outcome(index, entry, job, tally, time.perf_counter() - started)


def _solve_in_parallel(
    entries: Sequence[PuzzleEntry], job: Job, workers: int
) -> Generator[PuzzleResult, None, None]:
    from joblib import Parallel, delayed  # type: ignore[import-untyped]

    parallel = Parallel(n_jobs=workers, return_as="generator", batch_size="auto")
    results = parallel(delayed(solve_entry)(i, entry, job) for i, entry in enumerate(entries))
    try:
        for result in results:  # noqa: UP028 - ``yield from`` would close ``results`` itself
            yield result
    finally:
        with warnings.catch_warnings():  # "N tasks ... have been cancelled": we know
            warnings.simplefilter("ignore")
            results.close()  # stopped early: joblib kills the workers still running


def solve_entries(
    entries: Sequence[PuzzleEntry], job: Job, *, workers: int = 1, progress: bool = False
) -> Iterator[PuzzleResult]:
    """One result per entry, in order, up to the first ``stopped`` one (a deadline or a
    Ctrl-C ends the whole run there); a tqdm bar on stderr with ``progress``."""
    if workers == 1:
        results: Generator[PuzzleResult, None, None] = (
            solve_entry(i, entry, job) for i, entry in enumerate(entries)
        )
    else:
        results = _solve_in_parallel(entries, job, workers)
    bar = None
    if progress:
        from tqdm import tqdm  # type: ignore[import-untyped]

        bar = tqdm(total=len(entries), unit="puzzle", file=sys.stderr, leave=False)
    try:
        for result in results:
            if bar is not None:
                bar.update(1)
            yield result
            if result.stop_reason is not None:
                return
    finally:
        results.close()
        if bar is not None:
            bar.close()


# Nodes a puzzle may take inside a bulk slice (about 0.1 s); a puzzle that needs more is
# searched on its own afterwards (engine, time slices, --workers split its tree).
BULK_BUDGET = 100_000


def kernel_results(batch: Batch, job: Job, *, workers: int = 1,
                   slice_puzzles: int = 4096) -> Iterator[PuzzleResult]:
    """Every puzzle of a bulk-read ``kernel_read.Batch`` through the compiled kernel, in
    file order, with its unreadable lines as ``invalid`` results.

    Puzzles go in slices of ``slice_puzzles``, each one compiled call in which no puzzle
    may take more than ``BULK_BUDGET`` nodes; the few that need more are searched one by
    one with ``solve_entry``.  So a Ctrl-C ends the run within moments, and nodes are
    those of the search that gave the answer.  ``seconds`` is the slice's time per puzzle.
    """
    from .batch_io import puzzle_lines
    from .kernel.batch import UNFINISHED, count_batch, solve_batch

    rows = {int(line): row for row, line in enumerate(batch.lines)}
    errors = dict(batch.errors)
    first = done = 0
    found: Any = None
    lines: list[str] = []
    for index, line in enumerate(sorted([*rows, *errors])):
        if line in errors:
            yield invalid(index, line, errors[line])
            continue
        row = rows[line]
        if row >= done:
            first, done = row, min(row + slice_puzzles, len(batch.givens))
            part = batch.givens[first:done]
            if job.count:
                found = count_batch(part, job.order, job.propagation, limit=job.limit,
                                    workers=workers, budget=BULK_BUDGET)
            else:
                found = solve_batch(part, job.order, job.propagation, workers=workers,
                                    budget=BULK_BUDGET)
            lines = puzzle_lines(found.values)
        at, seconds = row - first, found.seconds / (done - first)
        count = int(found.counts[at])
        if count == UNFINISHED:
            cells = tuple(int(v) for v in batch.givens[row])
            result = solve_entry(index, PuzzleEntry(line, cells=cells), job, workers=workers)
            yield result
            if result.stop_reason is not None:
                return
            continue
        tally = count if job.count else None
        if count and job.verify and not is_valid_solution(batch.givens[row].tolist(), lines[at]):
            yield wrong_solution(index, line, tally, int(found.nodes[at]), seconds)
            continue
        yield PuzzleResult(index, line, SOLVED if count else UNSOLVABLE,
                           lines[at] if count else None, tally, int(found.nodes[at]), seconds)
