"""Running a file's puzzles: one result per file entry, split across processes by joblib.

(A *batch* elsewhere is one array of puzzles solved in one compiled call:
``batch``; ``kernel_results`` below hands a bulk-read file to it.)

Glossary
--------
entry
    One puzzle read from a file, or the reason it could not be read
    (``formats.PuzzleEntry``).
job
    What to do with each entry: order, propagation, whether to count (up to
    ``limit``), the ``deadline`` of ``--timeout`` (``time.perf_counter()`` seconds:
    the monotonic clock, which setting the system clock does not move, and one for
    every process of the machine, where joblib's workers run) and whether to
    ``verify``.  Until ``python_until`` (``time.perf_counter()``; one worker, fast
    kernel) the search runs on the Python path, in slices of ``PYTHON_SLICE`` nodes, and the
    kernel takes the rest: a small job ends there without loading numba, or without
    waiting for its compile (the tree, the answers and the node counts are the same).
    One puzzle for several workers whose kernel is not compiled yet gets the same
    seconds on the Python path in this process first (``_python_first``); if it does not
    end there, the workers search it from the start, their findings alone.
    ``engine_options`` (backend, budget, address...) go to the engine's scheduler
    when one puzzle is split across workers; a count's ``checkpoint``
    (``engine.checkpoint.Checkpoint``) too, on one worker as well, and only to the count
    (not to the solve before it).
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
    A search on one worker runs in slices of ``space.node_budget`` nodes (some
    0.1 s; ``search.solve_then_count``), so a Ctrl-C loses at most one slice of
    the partial count and a deadline is met within one.
workers
    joblib's ``n_jobs``: 1 solves in this process, -1 uses every core.  Puzzles
    go to the workers in batches (joblib's ``batch_size="auto"``); each puzzle
    is searched on one worker, so answers do not depend on the worker count.
    ``solve_entry(..., workers=W)`` instead cuts one puzzle's tree across W
    processes (the engine's scheduler).
reports
    The engine's ``SearchReport`` of each run of one puzzle across workers, in
    order (a count runs a solve, then a count); ``solve_entry_reported``
    returns them beside the result (the ``--html`` timeline draws them).

Example: ``list(solve_entries(read_puzzles("top95.txt"), Job()))`` gives 95
results, all ``solved``.
"""

from __future__ import annotations

import sys
import time
import warnings
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parallel_backtrack import engine
from parallel_backtrack.engine.checks import is_interrupt

from .formats import PuzzleEntry
from .puzzle import ImmutableSudokuPuzzle, InvalidPuzzleError
from .results import (
    FAILED,
    SOLVED,
    STOPPED,
    UNSOLVABLE,
    PuzzleResult,
    ResultBlock,
    invalid,
    wrong_solution,
)
from .search import Findings, solve_then_count, space_for
from .space import SudokuSpace, is_valid_solution

if TYPE_CHECKING:
    import numpy as np

    from .batch import BatchResult
    from .kernel.read import Batch

# Nodes of one Python-path slice between looks at the clock (9x9: some 0.03 s).
PYTHON_SLICE = 500


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
    python_until: float | None = None
    engine_options: tuple[tuple[str, Any], ...] = ()
    checkpoint: Any = None  # a count's ``Checkpoint``: the engine counts, on any workers


def _seconds_left(deadline: float | None) -> float | None:
    return None if deadline is None else deadline - time.perf_counter()


def _search_here(puzzle: ImmutableSudokuPuzzle, job: Job, findings: Findings) -> None:
    """One worker, this process: ``search.solve_then_count``; on the Python path until
    ``job.python_until``, the rest (if any) in the kernel."""
    roots = None
    if job.kernel == "fast" and job.python_until is not None:
        ended, roots = _python_path(puzzle, job, job.python_until, findings)
        if ended:
            return
    solve_then_count(space_for(puzzle, job.order, job.kernel), findings, roots=roots,
                     **_options_of(job))


def _python_first(puzzle: ImmutableSudokuPuzzle, job: Job, findings: Findings) -> bool:
    """Several workers, ``job.python_until`` set (their kernel not compiled yet): the
    Python path here until then.  True if it answered (or stopped: a deadline, Ctrl-C);
    False, with ``findings`` emptied, for the workers to search from the start."""
    if job.python_until is None or job.checkpoint is not None:
        return False
    if _python_path(puzzle, job, job.python_until, findings)[0]:
        return True
    findings.first, findings.count, findings.nodes = None, 0, 0
    return False


def _python_path(puzzle: ImmutableSudokuPuzzle, job: Job, until: float, findings: Findings
                 ) -> tuple[bool, Any]:
    """The Python path until ``until`` (``job.python_until``), in slices of ``PYTHON_SLICE`` nodes:
    (True, None) once it ended the search (or a stop did), else (False, the roots still
    open; None if no slice ran)."""
    roots = None
    python = space_for(puzzle, job.order, "reference")
    while time.perf_counter() < until:
        roots = solve_then_count(python, findings, roots=roots, nodes=PYTHON_SLICE,
                                 **_options_of(job))
        if not roots or findings.stop is not None:
            return True, None
    return False, roots


def _options_of(job: Job) -> dict[str, Any]:
    """``solve_then_count``'s options for ``job``."""
    return {"count": job.count, "limit": job.limit, "deadline": job.deadline}


def _absorb(findings: Findings, report: engine.SearchReport) -> None:
    findings.nodes += report.nodes
    if not report.complete:
        findings.stop = report.stop_reason or "interrupted"


def _options(job: Job, workers: int, findings: Findings) -> dict[str, Any] | None:
    """The engine options for the time left, or None (and a stop) when none is."""
    left = _seconds_left(job.deadline)
    if left is not None and left <= 0:
        findings.stop = "timeout"
        return None
    return {**dict(job.engine_options), "workers": workers, "timeout": left}


def _search_pool(space: SudokuSpace, job: Job, workers: int, findings: Findings,
                 reports: list[engine.SearchReport]) -> None:
    """Several workers: the engine's scheduler.  Counting up to a limit streams the
    solutions; counting them all solves first (a solution to show), then counts."""
    options = _options(job, workers, findings)
    if options is None:
        return
    if job.count and job.limit is not None:
        stream = engine.solutions(space, limit=job.limit, **options)
        try:
            for state in stream:
                findings.first, findings.count = findings.first or state, findings.count + 1
        finally:
            _absorb(findings, stream.report)
            reports.append(stream.report)
        return
    _run(engine.solve, space, options, findings, reports)
    options = _options(job, workers, findings) if job.count and findings.stop is None else None
    if options is not None and findings.first is not None:
        if job.checkpoint is not None:
            options["checkpoint"] = job.checkpoint
        _run(engine.count, space, options, findings, reports)


def _run(mode: Any, space: SudokuSpace, options: dict[str, Any], findings: Findings,
         reports: list[engine.SearchReport]) -> None:
    """``engine.solve`` or ``engine.count``; a Ctrl-C still leaves its part in the findings."""
    try:
        report = mode(space, **options)
    except engine.SearchInterrupted as stop:
        _take(findings, stop.report)
        reports.append(stop.report)
        raise
    _take(findings, report)
    reports.append(report)


def _take(findings: Findings, report: engine.SearchReport) -> None:
    _absorb(findings, report)
    if report.mode == "first":
        findings.first, findings.count = report.solution, int(report.solution is not None)
    else:  # the count run counts the whole tree again, the first solution included
        findings.count = max(1, report.count)


def _outcome(index: int, entry: PuzzleEntry, job: Job, findings: Findings,
             seconds: float) -> PuzzleResult:
    solution = None if findings.first is None else findings.first.line()
    count = findings.count if job.count else None
    if count is not None and job.limit is not None:
        count = min(count, job.limit)
    if (findings.first is not None and job.verify
            and not is_valid_solution(entry.cells or (), findings.first.cells)):
        return wrong_solution(index, entry.line, count, findings.nodes, seconds)
    if findings.stop is not None:
        status = STOPPED
    else:
        status = SOLVED if solution is not None else UNSOLVABLE
    return PuzzleResult(index, entry.line, status, solution, count, findings.nodes, seconds,
                        stop_reason=findings.stop,
                        cells=None if findings.first is None else findings.first.cells)


def solve_entry(
    index: int, entry: PuzzleEntry, job: Job, *, workers: int = 1
) -> PuzzleResult:
    """Search one entry; unreadable or contradictory givens give an ``invalid`` result,
    a deadline or a Ctrl-C a ``stopped`` one (with what was found so far)."""
    return solve_entry_reported(index, entry, job, workers=workers)[0]


def solve_entry_reported(
    index: int, entry: PuzzleEntry, job: Job, *, workers: int = 1
) -> tuple[PuzzleResult, list[engine.SearchReport]]:
    """``solve_entry``, and the engine's report of each parallel run it made (none on
    one worker)."""
    reports: list[engine.SearchReport] = []
    return _solve_entry(index, entry, job, workers, reports), reports


def _solve_entry(index: int, entry: PuzzleEntry, job: Job, workers: int,
                 reports: list[engine.SearchReport]) -> PuzzleResult:
    if entry.cells is None:
        return invalid(index, entry.line, entry.error)
    try:
        puzzle = ImmutableSudokuPuzzle(entry.cells, job.propagation)
    except InvalidPuzzleError as error:
        return invalid(index, entry.line, error)
    started, findings = time.perf_counter(), Findings()
    try:
        if workers == 1 and job.checkpoint is None:
            _search_here(puzzle, job, findings)
        elif not _python_first(puzzle, job, findings):
            _search_pool(space_for(puzzle, job.order, job.kernel), job, workers, findings,
                         reports)
    except KeyboardInterrupt:  # SearchInterrupted too: the findings holds the partial result
        findings.stop = "interrupted"
    except SystemError as error:  # a Ctrl-C inside a compiled kernel, as numba reports it
        if not is_interrupt(error):
            raise
        findings.stop = "interrupted"
    except engine.WorkerCrashError as crash:
        return PuzzleResult(index, entry.line, FAILED, nodes=findings.nodes + crash.report.nodes,
                            seconds=time.perf_counter() - started,
                            error=f"line {entry.line}: {crash}")
    return _outcome(index, entry, job, findings, time.perf_counter() - started)


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


def batch_results(batches: Iterable[Batch], job: Job, *, workers: int = 1,
                  bands: bool = False) -> Iterator[PuzzleResult | ResultBlock]:
    """``kernel_results`` of each batch in turn (the slices of one file, ``batch_io.
    read_batches``), indexed on across them, up to the first ``stopped`` result."""
    first_index = 0
    for batch in batches:
        for result in kernel_results(batch, job, workers=workers, bands=bands,
                                     first_index=first_index):
            yield result
            if isinstance(result, PuzzleResult) and result.stop_reason is not None:
                return
        first_index += len(batch.givens) + len(batch.errors)


def kernel_results(batch: Batch, job: Job, *, workers: int = 1, slice_puzzles: int = 4096,
                   bands: bool = False, first_index: int = 0
                   ) -> Iterator[PuzzleResult | ResultBlock]:
    """Every puzzle of a bulk-read ``kernel_read.Batch`` through the compiled kernel, in
    file order, with its unreadable lines as ``invalid`` results.

    Puzzles go in slices of ``slice_puzzles``, each one compiled call in which no puzzle
    may take more than ``BULK_BUDGET`` nodes; the few that need more are searched one by
    one with ``solve_entry``.  So a Ctrl-C ends the run within moments, and nodes are
    those of the search that gave the answer.  ``seconds`` is the slice's time per puzzle.
    With ``bands``, 9x9 puzzles go through the band kernel (``propagation="auto"``).
    A file with no bad line, without ``verify``, comes as ``ResultBlock`` runs (and the
    one-by-one puzzles as results); otherwise one result per puzzle.  Results are indexed
    from ``first_index`` (the batch's first entry in its file).
    """
    if batch.errors or job.verify:
        yield from _each_result(batch, job, workers, slice_puzzles, bands, first_index)
        return
    import numpy as np

    from .batch import UNFINISHED
    from .batch_io import puzzle_lines
    for first in range(0, len(batch.givens), slice_puzzles):
        done = min(first + slice_puzzles, len(batch.givens))
        found = _slice(batch.givens[first:done], job, workers, bands)
        counts, nodes = found.counts.tolist(), found.nodes.tolist()
        lines, seconds = puzzle_lines(found.values), found.seconds / (done - first)
        start = 0
        for at in [*np.flatnonzero(found.counts == UNFINISHED).tolist(), done - first]:
            if at > start:
                yield ResultBlock(first_index + first + start,
                                  batch.lines[first + start:first + at].tolist(),
                                  lines[start:at], counts[start:at], nodes[start:at], seconds,
                                  job.count)
            if at < done - first:
                result = _one_by_one(batch, first_index + first + at, first + at, job,
                                     workers)
                yield result
                if result.stop_reason is not None:
                    return
            start = at + 1


def _slice(givens: np.ndarray, job: Job, workers: int, bands: bool) -> BatchResult:
    """One slice through ``batch``, each puzzle on a budget of ``BULK_BUDGET``."""
    from .batch import count_batch, solve_batch

    propagation = "auto" if bands else job.propagation
    if job.count:
        return count_batch(givens, job.order, propagation, limit=job.limit, workers=workers,
                           budget=BULK_BUDGET)
    return solve_batch(givens, job.order, propagation, workers=workers, budget=BULK_BUDGET)


def _one_by_one(batch: Batch, index: int, row: int, job: Job, workers: int) -> PuzzleResult:
    """A puzzle the bulk slice left unfinished, searched on its own."""
    cells = tuple(int(v) for v in batch.givens[row])
    return solve_entry(index, PuzzleEntry(int(batch.lines[row]), cells=cells), job,
                       workers=workers)


def _each_result(batch: Batch, job: Job, workers: int, slice_puzzles: int, bands: bool,
                 first_index: int) -> Iterator[PuzzleResult]:
    """``kernel_results`` one result per puzzle, bad lines and ``verify`` included."""
    from .batch import UNFINISHED
    from .batch_io import puzzle_lines

    rows = {int(line): row for row, line in enumerate(batch.lines)}
    errors = dict(batch.errors)
    first = done = 0
    found: Any = None
    lines: list[str] = []
    for index, line in enumerate(sorted([*rows, *errors]), first_index):
        if line in errors:
            yield invalid(index, line, errors[line])
            continue
        row = rows[line]
        if row >= done:
            first, done = row, min(row + slice_puzzles, len(batch.givens))
            found = _slice(batch.givens[first:done], job, workers, bands)
            lines = puzzle_lines(found.values)
        at, seconds = row - first, found.seconds / (done - first)
        count = int(found.counts[at])
        if count == UNFINISHED:
            result = _one_by_one(batch, index, row, job, workers)
            yield result
            if result.stop_reason is not None:
                return
            continue
        findings = count if job.count else None
        if count and job.verify and not is_valid_solution(batch.givens[row].tolist(), lines[at]):
            yield wrong_solution(index, line, findings, int(found.nodes[at]), seconds)
            continue
        yield PuzzleResult(index, line, SOLVED if count else UNSOLVABLE,
                           lines[at] if count else None, findings, int(found.nodes[at]), seconds)
