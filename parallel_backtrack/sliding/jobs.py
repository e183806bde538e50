"""Solve jobs: one puzzle or a batch of them, the work behind the command line.

Glossary
--------
job
    ``Job``: one puzzle read from a file (its source, line, tiles, expected
    length) and the options to solve it with.
outcome
    A plain dict, ready for JSON: ``status`` is ``solved``, ``unsolvable``,
    ``invalid`` (with ``error``: ``line N: why``), ``timeout``, ``max-nodes`` or
    ``interrupted``; when solved, ``moves`` (the count), ``solution`` (the blank's
    moves, ``U L R D``), ``nodes`` and ``seconds``.  ``nodes`` is A*'s enqueued nodes
    or IDA*'s generated nodes; an IDA* search also has ``iterations``, ``[bound,
    nodes]`` of each iteration (their nodes add up to ``nodes`` less the root).
    ``marked`` adds ``complete`` (and ``stop_reason`` when the search stopped before
    its answer) for printing.
progress
    With ``Job.progress`` IDA* prints a line to stderr after each iteration
    (bound, nodes so far, seconds), on one worker or several.
batch task
    ``solve_jobs``: a run of consecutive puzzles searched one after the other in a
    worker (``batch.Batch`` sends them, in bounded memory and input order).
pool
    ``{"backend": ..., "address": ...}``: where the tasks run (``address``: a
    Dask scheduler, for ``backend="dask"``), as ``engine.make_executor`` takes it.
replay check
    ``replays(tiles, goal, solution)``: apply the moves one by one with the
    board's own rules and compare with the goal (``--verify``).

Example: ``solve_job(Job("f", 1, (1, 2, 3, 0), None, "blank-last", "ida",
"manhattan"))["status"] == "solved"``.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Any

from .board import Board, apply_move, goal_tiles, move_between

STOPPED = ("timeout", "max-nodes", "interrupted")  # statuses of a search cut short


@dataclass(frozen=True, slots=True)
class Job:
    source: str
    line: int
    tiles: tuple[int, ...]
    expected: int | None
    goal: str
    algorithm: str
    heuristic: str
    max_nodes: int | None = None
    complete_last: bool = False
    # time.time(), the one clock a cluster's machines share (a task may start late, on
    # another machine); read once as the job starts, the seconds left then run on the
    # steady clock (ida.solve's timeout), so a clock set mid-search moves nothing.
    ends_at: float | None = None
    progress: bool = False
    per_worker: int | None = None  # IDA* subtrees per worker (None: the engine's choice)


def replays(tiles: tuple[int, ...], goal: str, solution: str) -> bool:
    """Do the blank's moves take ``tiles`` to the goal?"""
    n = round(len(tiles) ** 0.5)
    try:
        for move in solution:
            tiles = apply_move(tiles, n, move)
    except ValueError:
        return False
    return tiles == goal_tiles(n, goal)


def heuristic_for(name: str, n: int, algorithm: str = "ida") -> str:
    """The heuristic ``name`` stands for (``heuristics.resolve``, the one resolver)."""
    from .heuristics import resolve

    return resolve(name, n, algorithm)


def _base(job: Job, board: Board) -> dict[str, Any]:
    return {"source": job.source, "line": job.line, "n": board.size(), "goal": job.goal,
            "algorithm": job.algorithm,
            "heuristic": heuristic_for(job.heuristic, board.size(), job.algorithm),
            "expected": job.expected}


def solve_job(job: Job, workers: int = 1, pool: dict[str, Any] | None = None
              ) -> dict[str, Any]:
    """Solve one puzzle (IDA* over ``workers`` when more than one); never raises for
    an unsolvable board or a limit reached."""
    board = Board(job.tiles, job.goal)
    out = _base(job, board)
    if not board.is_solvable():
        return {**out, "status": "unsolvable", "nodes": 0, "seconds": 0.0}
    started = time.perf_counter()
    timeout = None if job.ends_at is None else job.ends_at - time.time()
    if timeout is not None and timeout <= 0:
        return {**out, "status": "timeout", "nodes": 0, "seconds": 0.0}
    heuristic = out["heuristic"]
    if job.algorithm == "astar":
        found, sent = _astar(board, heuristic, job.max_nodes), None
    else:
        found, sent, rows = _ida(board, heuristic, job, workers, pool or {}, timeout)
        out["iterations"] = [list(row) for row in rows]
    moves, nodes, reason = found
    out.update(nodes=nodes, seconds=time.perf_counter() - started)
    if sent is not None:  # on a pool: the tasks sent, and the parent's seconds a task
        out.update(tasks=sent[0], task_cost=round(sent[1], 9))
    if moves is None:
        return {**out, "status": reason or "timeout"}
    return {**out, "status": "solved", "moves": len(moves), "solution": moves}


def _astar(board: Board, heuristic: str, max_nodes: int | None
           ) -> tuple[str | None, int, str | None]:
    from .astar import NodeLimitError, Solver

    try:
        solver = Solver(board, heuristic=heuristic, max_nodes=max_nodes)
    except NodeLimitError:
        return None, max_nodes or 0, "max-nodes"
    states = solver.solution()
    moves = "".join(move_between(a.tiles, b.tiles, board.size())
                    for a, b in zip(states, states[1:]))
    return moves, solver.enqueued, None


def _ida(board: Board, heuristic: str, job: Job, workers: int, pool: dict[str, Any],
         timeout: float | None
         ) -> tuple[tuple[str | None, int, str | None], tuple[int, float] | None,
                    tuple[tuple[int, int], ...]]:
    """(moves, nodes, why it stopped), on a pool (tasks, the cost of each), and each
    iteration's (bound, nodes)."""
    from .ida import solve

    started = time.perf_counter()

    def report(bound: int, nodes: int) -> None:
        # One write: a batch's workers share stderr, and half a line could meet another.
        sys.stderr.write(f"{job.source}:{job.line}  bound {bound}: {nodes:,} nodes, "
                         f"{time.perf_counter() - started:.1f} s\n")
        sys.stderr.flush()

    tuning: dict[str, Any] = {} if job.per_worker is None else {"per_worker": job.per_worker}
    # A scheduler's address: the cluster's workers, whatever ``workers`` says.
    executor = executor_for(workers, pool) if workers > 1 or pool.get("address") else None
    kill = True
    try:
        # The executor is the pool: its workers are not repeated (a cluster's differ).
        result = solve(board, heuristic, workers=workers if executor is None else None,
                       executor=executor, complete_last=job.complete_last,
                       max_nodes=job.max_nodes,
                       timeout=timeout, on_iteration=report if job.progress else None,
                       **tuning)
        kill = result.stop_reason is not None
    finally:
        if executor is not None:
            executor.close(kill=kill)
    found = result.moves, result.nodes, result.stop_reason
    sent = None if executor is None else (result.tasks, result.task_cost)
    return found, sent, result.per_iteration


def executor_for(workers: int, pool: dict[str, Any]) -> Any:
    from ..engine import make_executor  # (the package: every backend registered)

    return make_executor(workers, pool.get("backend"), **_address(pool))


def _address(pool: dict[str, Any]) -> dict[str, Any]:
    return {"address": pool["address"]} if pool.get("address") else {}


def stopped(job: Job, reason: str) -> dict[str, Any]:
    """The outcome of a puzzle stopped (``timeout``, ``interrupted``) before an answer."""
    return {**_base(job, Board(job.tiles, job.goal)), "status": reason, "nodes": 0,
            "seconds": 0.0}


def invalid(source: str, line: int, error: str) -> dict[str, Any]:
    """The outcome of a puzzle line that cannot be solved as given (``error``: ``line N:
    why``, as the reader says it)."""
    return {"source": source, "line": line, "status": "invalid", "error": error,
            "nodes": 0, "seconds": 0.0}


def marked(outcome: dict[str, Any]) -> dict[str, Any]:
    """The outcome with ``complete`` and, for a search that stopped before its answer,
    ``stop_reason`` (the status: ``timeout``, ``max-nodes``, ``interrupted``)."""
    stop = outcome["status"] if outcome["status"] in STOPPED else None
    return {**outcome, "complete": stop is None, **({"stop_reason": stop} if stop else {})}


def solve_jobs(jobs: tuple[Job, ...]) -> list[dict[str, Any]]:
    """A batch task: its run of puzzles, one after the other (``solve_job`` each)."""
    return [solve_job(job) for job in jobs]
