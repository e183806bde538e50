"""Many puzzles at once through the compiled kernel: solving and counting in bulk.

A whole array of puzzles (``batch_io.read_batch``) is solved inside one
compiled call, so no Python code runs per puzzle.  With several workers the
array is cut into chunks for a thread pool (the kernel runs without the GIL,
so nothing is copied or pickled and no process starts), or, with
``backend="loky"``, dealt out to joblib's loky processes.

Glossary
--------
givens
    ``uint8 [puzzles, n*n]``: one puzzle per row, 0 for a blank, else the value.
auto, bands
    The default propagation ``auto`` is ``bands`` for 9x9 puzzles in the default
    order (the band kernel of ``sudoku/kernel9``: same answers and counts, its own
    rules and branching, so its own node counts) and ``units`` otherwise.  Every
    other name runs the general kernel (``sudoku/kernel``), whose nodes equal the
    reference path's.
result
    ``BatchResult``: per puzzle the first solution's values (zeros when none),
    the count (1 or 0 when solving; up to ``limit`` when counting; ``UNFINISHED``
    when a ``budget`` of nodes ran out first) and the nodes, plus the batch's
    wall seconds.
chunk
    Threads: one of ``32 * workers`` contiguous slices (fewer for small
    batches: at least 8 puzzles each), taken by whichever thread is free.
    Processes: every ``k``-th puzzle (``givens[i::k]``), so hard stretches of a
    file are shared out.

Example::

    batch = read_batch("tdoku_puzzles2_17_clue.txt")   # 49158 rows, box 3
    result = solve_batch(batch.givens, workers=2)
    result.counts.sum()                                  # 49158: every one solved
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from parallel_backtrack._jit_cache import compile_notice
from parallel_backtrack.engine.arguments import check_count
from parallel_backtrack.engine.checks import UnknownNameError, did_you_mean

from .calls import COMPILED, call_kernel, check_box, order_code, propagation_code
from .kernel.read import PUZZLE_CELLS
from .kernel.tables import kernel_tables
from .kernel9.search import UNFINISHED, scratch, search_many9

__all__ = ["BACKENDS", "BATCH_PROPAGATIONS", "UNFINISHED", "BatchResult", "count_batch",
           "search_chunk", "solve_batch"]
BACKENDS = ("threads", "loky")
BANDS = -1  # the propagation code of the 9x9 band kernel (``sudoku/kernel9``)
BATCH_PROPAGATIONS = ("auto", "bands")  # besides the kernel's own propagator names
FEWEST = 1  # ``kernel.search.FEWEST``: the band kernel's runs never load the general kernel


@dataclass(frozen=True)
class BatchResult:
    """Per puzzle: the first solution (zeros when none), the count and the nodes."""

    values: np.ndarray
    counts: np.ndarray
    nodes: np.ndarray
    seconds: float
    workers: int

    @property
    def solved(self) -> np.ndarray:
        """True for every puzzle with at least one solution."""
        return self.counts > 0

    @property
    def finished(self) -> np.ndarray:
        """False where the node budget ran out (``counts == UNFINISHED``)."""
        return self.counts != UNFINISHED


def _check_givens_array(givens: np.ndarray) -> tuple[np.ndarray, int]:
    array = np.asarray(givens)
    if array.ndim != 2 or array.shape[1] not in PUZZLE_CELLS:
        raise ValueError(
            f"givens must be a 2-D array with {', '.join(map(str, PUZZLE_CELLS))} columns,"
            f" got shape {array.shape}"
        )
    if array.dtype.kind not in "iu":
        raise ValueError(f"givens must be integers, got dtype {array.dtype}")
    box = check_box(round(array.shape[1] ** 0.25))
    if array.size and (array.min() < 0 or array.max() > box * box):
        raise ValueError(f"givens of {box * box}x{box * box} puzzles lie in 0..{box * box}")
    return np.ascontiguousarray(array, dtype=np.uint8), box


def search_chunk(givens: np.ndarray, box: int, order: int, propagation: int, limit: int,
                 budget: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One compiled pass over a chunk: (values, counts, nodes).  Runs in loky workers."""
    values = np.zeros(givens.shape, dtype=np.uint8)
    counts = np.zeros(givens.shape[0], dtype=np.int64)
    nodes = np.zeros(givens.shape[0], dtype=np.int64)
    _search_part(givens, box, (order, propagation, limit, budget), np.zeros(1, np.uint8),
                 values, counts, nodes)
    return values, counts, nodes


def _search_part(givens: np.ndarray, box: int, codes: tuple[int, int, int, int],
                 stop: np.ndarray, values: np.ndarray, counts: np.ndarray,
                 nodes: np.ndarray) -> None:
    """One compiled call on a part of the batch, written in place: the band kernel for
    ``BANDS``, else the general one."""
    order, propagation, limit, budget = codes
    if propagation == BANDS:
        call_kernel(search_many9, givens, limit, budget, stop, values, counts, nodes, *scratch())
    else:
        from .kernel.search import search_many

        call_kernel(search_many, givens, propagation, order, kernel_tables(box).as_tuple(),
                    limit, budget, stop, values, counts, nodes)


def _in_threads(givens: np.ndarray, box: int, codes: tuple[int, int, int, int], workers: int,
                chunks: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Contiguous chunks on a thread pool; the kernel drops the GIL and writes in place.

    A Ctrl-C while waiting raises the shared stop flag: every chunk ends after
    the puzzle it is on, and the puzzles not started stay ``UNFINISHED``.
    """
    values = np.zeros(givens.shape, dtype=np.uint8)
    counts = np.zeros(givens.shape[0], dtype=np.int64)
    nodes = np.zeros(givens.shape[0], dtype=np.int64)
    stop = np.zeros(1, np.uint8)
    bounds = np.linspace(0, givens.shape[0], max(1, chunks) + 1).astype(np.int64)
    pool = _thread_pool(workers)
    jobs = [
        pool.submit(_search_part, givens[a:b], box, codes, stop, values[a:b], counts[a:b],
                    nodes[a:b])
        for a, b in zip(bounds[:-1], bounds[1:]) if b > a
    ]
    try:
        for job in jobs:
            job.result()
    except BaseException:
        stop[0] = 1
        for job in jobs:
            job.cancel()
        raise
    return values, counts, nodes


@lru_cache(maxsize=4)
def _thread_pool(workers: int) -> ThreadPoolExecutor:
    """One pool per worker count, kept for the process: idle threads cost nothing,
    and starting them again for every small batch would."""
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sudoku-kernel")


def _in_processes(givens: np.ndarray, box: int, codes: tuple[int, int, int, int], workers: int,
                  chunks: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Interleaved chunks (every k-th puzzle) on joblib's loky processes."""
    from joblib import Parallel, delayed  # type: ignore[import-untyped]

    parts = max(1, min(chunks, givens.shape[0]))
    pieces = [np.ascontiguousarray(givens[i::parts]) for i in range(parts)]
    done = Parallel(n_jobs=workers, backend="loky")(
        delayed(search_chunk)(piece, box, *codes) for piece in pieces
    )
    values = np.zeros(givens.shape, dtype=np.uint8)
    counts = np.zeros(givens.shape[0], dtype=np.int64)
    nodes = np.zeros(givens.shape[0], dtype=np.int64)
    for i, (part_values, part_counts, part_nodes) in enumerate(done):
        values[i::parts], counts[i::parts], nodes[i::parts] = part_values, part_counts, part_nodes
    return values, counts, nodes


def _propagation(name: str, box: int, order: str) -> int:
    """The code of a batch's propagation name (``auto``, ``bands`` or a kernel one)."""
    if name == "auto":
        return BANDS if box == 3 and order == "fewest" else propagation_code("units")
    if name == "bands":
        if box != 3:
            raise ValueError(f"propagation 'bands' is for 9x9 puzzles only, got box {box}")
        return BANDS
    if isinstance(name, str) and name not in BATCH_PROPAGATIONS:
        try:
            return propagation_code(name)
        except UnknownNameError:
            pass
    from .kernel.propagate import PROPAGATION_CODES

    raise UnknownNameError(did_you_mean("propagation", name,
                                        (*BATCH_PROPAGATIONS, *PROPAGATION_CODES)))


def _notice(propagation: int) -> Any:
    """``compile_notice`` for the kernel a batch runs."""
    kernel: Any = search_many9
    if propagation != BANDS:
        from .kernel.search import search_many

        kernel = search_many
    what, seconds = COMPILED[kernel.__module__]
    return compile_notice(what, [kernel], seconds)


def _run_batch(givens: np.ndarray, order: str, propagation: str, limit: int, workers: int,
               backend: str, budget: int | None) -> BatchResult:
    from parallel_backtrack.engine import resolve_workers

    if backend not in BACKENDS:
        raise UnknownNameError(did_you_mean("backend", backend, BACKENDS))
    check_count("budget", budget)
    array, box = _check_givens_array(givens)
    code = _propagation(propagation, box, order)
    codes = (FEWEST if code == BANDS and order == "fewest" else order_code(order), code, limit,
             int(budget or 0))
    workers = resolve_workers(workers)
    started = time.perf_counter()
    with _notice(code):
        if workers == 1 or array.shape[0] < 2:
            values, counts, nodes = search_chunk(array, box, *codes)
        elif backend == "threads":
            chunks = max(workers, min(32 * workers, array.shape[0] // 8))
            values, counts, nodes = _in_threads(array, box, codes, workers, chunks)
        else:
            values, counts, nodes = _in_processes(array, box, codes, workers, 2 * workers)
    return BatchResult(values, counts, nodes, time.perf_counter() - started, workers)


def solve_batch(givens: np.ndarray, order: str = "fewest", propagation: str = "auto", *,
                workers: int = 1, backend: str = "threads",
                budget: int | None = None) -> BatchResult:
    """Solve every row of ``givens``: ``counts`` is 1 where solved, 0 where not, and
    ``UNFINISHED`` (-1) where a puzzle needed more than ``budget`` nodes."""
    return _run_batch(givens, order, propagation, 1, workers, backend, budget)


def count_batch(givens: np.ndarray, order: str = "fewest", propagation: str = "auto", *,
                limit: int | None = None, workers: int = 1, backend: str = "threads",
                budget: int | None = None) -> BatchResult:
    """Count the solutions of every row (up to ``limit``), keeping the first of each;
    ``UNFINISHED`` (-1) where a count needed more than ``budget`` nodes."""
    check_count("limit", limit)
    return _run_batch(givens, order, propagation, int(limit or 0), workers, backend,
                      None if budget is None else int(budget))
