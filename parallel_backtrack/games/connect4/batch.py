"""Many Connect-Four positions: solved one after another here, or shared out over
workers (each solves its share sequentially on its own table).

Glossary
--------
item
    ``{"line", "moves", "expected", "position"}`` from a batch file; the answer
    row adds ``score``, ``nodes``, ``seconds`` (the solve alone) and ``status``:
    ``solved``, or ``mismatch`` when an expected score was given and differs; and
    ``complete`` (always true: a batch has no time limit).
chunk
    The positions of one task: about ``CHUNKS_PER_WORKER`` tasks per worker, so a
    worker that drew quick positions takes another chunk.

Example: ``solve_batch(Board(), items, weak=False, tt_mb=64, pool=make_executor(2))``.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterable, Iterator
from typing import Any

from ...engine.executors import Executor, pool_for_run, run_shipped
from .board import Board, Position
from .parallel import SplitGame, worker_solver
from .solver import Solver

CHUNKS_PER_WORKER = 8


def solve_batch(board: Board, items: list[dict[str, Any]], weak: bool, tt_mb: float,
                pool: Executor | None = None) -> list[dict[str, Any]]:
    """The answer row of every item, in the items' order; ``pool``: share them out
    over its workers (closed at the end), None: solve them here."""
    return list(solve_rows(board, items, weak, tt_mb, pool))


def solve_rows(board: Board, items: list[dict[str, Any]], weak: bool, tt_mb: float,
               pool: Executor | None = None) -> Generator[dict[str, Any], None, None]:
    """``solve_batch`` one row at a time, in the items' order, as soon as it is known
    (a pool's chunk by chunk); closing the iterator closes the pool."""
    if not items:
        return
    positions = [item["position"] for item in items]
    if pool is None:
        solver = Solver(board, tt_mb)
        solver.warm()
        found: Iterable[tuple[int, int, float]] = _solved_each(solver, positions, weak)
    else:
        found = _solve_shared_out(board, positions, weak, tt_mb, pool)
    for item, (score, nodes, seconds) in zip(items, found):
        expected = item["expected"]
        if weak and expected is not None:
            expected = (expected > 0) - (expected < 0)
        status = "solved" if expected is None or expected == score else "mismatch"
        yield {"line": item["line"], "moves": item["moves"], "score": score,
               "expected": expected, "nodes": nodes, "seconds": round(seconds, 6),
               "status": status, "complete": True}


def _solved_each(solver: Solver, positions: list[Position],
                 weak: bool) -> Iterator[tuple[int, int, float]]:
    for position in positions:
        start = time.perf_counter()
        score, nodes = solver.solve(position, weak)
        yield score, nodes, time.perf_counter() - start


def _solve_all(solver: Solver, positions: list[Position],
               weak: bool) -> list[tuple[int, int, float]]:
    return list(_solved_each(solver, positions, weak))


def chunk_task(game: SplitGame, positions: list[Position],
               weak: bool) -> list[tuple[int, int, float]]:
    """In a worker: its chunk, on the worker's table for this run."""
    solver = worker_solver(game)
    Solver.warm()
    return _solve_all(solver, positions, weak)


def _solve_shared_out(board: Board, positions: list[Position], weak: bool, tt_mb: float,
                      executor: Executor) -> Iterator[tuple[int, int, float]]:
    """Each position's answer in order, a chunk as soon as it and those before it are
    done."""
    game = SplitGame(board, tt_mb)
    with pool_for_run(executor, owned=True) as pool:
        size = max(1, len(positions) // (pool.workers * CHUNKS_PER_WORKER))
        handle = pool.ship(game)
        futures = [pool.submit(run_shipped, chunk_task, handle, positions[i:i + size], weak)
                   for i in range(0, len(positions), size)]
        pending = set(futures)
        for future in futures:
            while future in pending:
                pending -= pool.wait_any(pending)
            yield from pool.result(future)
