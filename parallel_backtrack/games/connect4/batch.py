"""Many Connect-Four positions: solved one after another here, or shared out over
workers (each solves its share sequentially on its own table), read as they go.

Glossary
--------
item
    ``{"line", "moves", "expected", "position"}`` from a batch file; the answer
    row adds ``score``, ``nodes``, ``seconds`` (the solve alone) and ``status``:
    ``solved``, or ``mismatch`` when an expected score was given and differs; and
    ``complete`` (always true: a batch has no time limit).  Any other row (a bad
    line's ``invalid`` one) passes through in its place.
chunk
    The consecutive rows of one task: about ``CHUNKS_PER_WORKER`` tasks per worker
    are out at a time, so a worker that drew quick positions takes another chunk.
    Every chunk holds the same number of positions, fixed from the first
    ``look-ahead``: the positions there shared over the tasks out at a time, at
    most ``MAX_CHUNK``.  A file no longer than a look-ahead is so cut into the
    ``CHUNKS_PER_WORKER`` chunks per worker its length gives; a longer one into
    chunks of ``MAX_CHUNK``.
look-ahead
    ``MAX_CHUNK`` positions for each task out at a time, read before the first chunk
    is cut; rows read and not yet answered are at most one look-ahead and the
    chunks out: memory follows them, never the file.

Example: ``solve_batch(Board(), items, weak=False, tt_mb=64, pool=make_executor(2))``.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Generator, Iterable, Iterator
from typing import Any

from ...engine.executors import Executor, pool_for_run, run_shipped
from .board import Board, Position
from .parallel import SplitGame, worker_solver
from .solver import Solver

CHUNKS_PER_WORKER = 8
MAX_CHUNK = 512  # positions a task at most


def solve_batch(board: Board, items: Iterable[dict[str, Any]], weak: bool, tt_mb: float,
                pool: Executor | None = None) -> list[dict[str, Any]]:
    """The answer row of every item, in the items' order; ``pool``: share them out
    over its workers (closed at the end), None: solve them here."""
    return list(solve_rows(board, items, weak, tt_mb, pool))


def solve_rows(board: Board, items: Iterable[dict[str, Any]], weak: bool, tt_mb: float,
               pool: Executor | None = None) -> Generator[dict[str, Any], None, None]:
    """``solve_batch`` one row at a time, in the items' order, as soon as it is known
    (a pool's chunk by chunk), the items read as they are needed; closing the iterator
    closes the pool."""
    rows = iter(items)
    for first in rows:  # no solver, no pool, until there is a position to solve
        if "position" in first:
            break
        yield first
    else:
        return
    rows = _chain_one(first, rows)
    if pool is None:
        solver = Solver(board, tt_mb)
        solver.warm()
        found: Iterator[tuple[dict[str, Any], Any]] = _solved_each(solver, rows, weak)
    else:
        found = _solve_shared_out(board, rows, weak, tt_mb, pool)
    for item, answer in found:
        if answer is None:
            yield item
            continue
        score, nodes, seconds = answer
        expected = item["expected"]
        if weak and expected is not None:
            expected = (expected > 0) - (expected < 0)
        status = "solved" if expected is None or expected == score else "mismatch"
        yield {"line": item["line"], "moves": item["moves"], "score": score,
               "expected": expected, "nodes": nodes, "seconds": round(seconds, 6),
               "status": status, "complete": True}


def _chain_one(first: dict[str, Any], rest: Iterator[dict[str, Any]]
               ) -> Iterator[dict[str, Any]]:
    yield first
    yield from rest


def _solved_each(solver: Solver, rows: Iterable[dict[str, Any]],
                 weak: bool) -> Iterator[tuple[dict[str, Any], tuple[int, int, float] | None]]:
    """(row, its answer or None for a row that passes through), solved here."""
    for row in rows:
        if "position" not in row:
            yield row, None
            continue
        start = time.perf_counter()
        score, nodes = solver.solve(row["position"], weak)
        yield row, (score, nodes, time.perf_counter() - start)


def _solve_all(solver: Solver, positions: list[Position],
               weak: bool) -> list[tuple[int, int, float]]:
    found = []
    for position in positions:
        start = time.perf_counter()
        score, nodes = solver.solve(position, weak)
        found.append((score, nodes, time.perf_counter() - start))
    return found


def chunk_task(game: SplitGame, positions: list[Position],
               weak: bool) -> list[tuple[int, int, float]]:
    """In a worker: its chunk, on the worker's table for this run."""
    solver = worker_solver(game)
    Solver.warm()
    return _solve_all(solver, positions, weak)


def _solve_shared_out(board: Board, rows: Iterator[dict[str, Any]], weak: bool,
                      tt_mb: float, executor: Executor
                      ) -> Iterator[tuple[dict[str, Any], tuple[int, int, float] | None]]:
    """Each row with its answer in order, a chunk as soon as it and those before it are
    done; the rows read a look-ahead ahead of the chunks out (see the glossary)."""
    game = SplitGame(board, tt_mb)
    with pool_for_run(executor, owned=True) as pool:
        out_at_once = pool.workers * CHUNKS_PER_WORKER
        ahead: deque[dict[str, Any]] = deque()
        positions = _read(rows, ahead, out_at_once * MAX_CHUNK)
        size = max(1, min(MAX_CHUNK, positions // out_at_once))
        handle = pool.ship(game)
        chunks: deque[tuple[Any, list[dict[str, Any]]]] = deque()
        pending: set[Any] = set()
        while ahead or chunks:
            while ahead and len(chunks) < out_at_once:
                chunk = _cut(ahead, size)
                _read(rows, ahead, size)  # the look-ahead kept: a chunk's worth taken
                cut = [row["position"] for row in chunk if "position" in row]
                future = pool.submit(run_shipped, chunk_task, handle, cut, weak) if cut else None
                pending |= {future} - {None}
                chunks.append((future, chunk))
            future, chunk = chunks.popleft()
            while future in pending:
                pending -= pool.wait_any(pending)
            answers = iter(pool.result(future) if future is not None else ())
            for row in chunk:
                yield row, next(answers) if "position" in row else None


def _read(rows: Iterator[dict[str, Any]], ahead: deque[dict[str, Any]], positions: int) -> int:
    """Read rows into ``ahead`` until ``positions`` more positions are there or the rows
    end; the positions read."""
    read = 0
    for row in rows:
        ahead.append(row)
        read += "position" in row
        if read >= positions:
            break
    return read


def _cut(ahead: deque[dict[str, Any]], size: int) -> list[dict[str, Any]]:
    """The next chunk: rows off ``ahead`` up to ``size`` positions, with the rows that
    pass through right after the last of them."""
    chunk, positions = [], 0
    while ahead and (positions < size or "position" not in ahead[0]):
        row = ahead.popleft()
        positions += "position" in row
        chunk.append(row)
    return chunk
