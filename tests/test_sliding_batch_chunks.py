"""A batch of puzzles goes to the workers in runs of consecutive puzzles (``jobs.Chunks``):
one a task at first, then as many as the puzzles back so far say fill a task, so a file
of easy puzzles does not pay a pool's round trip for each.  Answers stay in input order,
each optimal (against breadth-first distances) and replayed move by move."""

from __future__ import annotations

import random

import pytest
from sliding_check import exact_distances, solves

from parallel_backtrack.engine import VirtualExecutor
from parallel_backtrack.sliding.board import Board
from parallel_backtrack.sliding.jobs import CHUNK_SECONDS, MAX_CHUNK, Chunks, Job, _ordered


def _eight_puzzles(count: int, seed: int) -> list[tuple[int, ...]]:
    rng, found = random.Random(seed), []
    while len(found) < count:
        tiles = tuple(rng.sample(range(9), 9))
        if Board(tiles, "blank-last").is_solvable():
            found.append(tiles)
    return found


def test_a_run_fills_a_task_from_the_seconds_back_and_leaves_the_rest_spread() -> None:
    chunks = Chunks(workers=2)
    assert chunks.size(1000) == 1  # nothing back yet: one puzzle
    chunks.learn([{"seconds": CHUNK_SECONDS / 10}] * 4)
    assert chunks.size(1000) == 10  # ten such puzzles fill a task
    assert chunks.size(12) == 3  # 12 left over 2 workers, two tasks each
    chunks.learn([{"seconds": 0.0}] * 10_000)  # easy ones: as many as a task may take
    assert chunks.size(10**6) == MAX_CHUNK
    slow = Chunks(workers=64)
    slow.learn([{"seconds": 10 * CHUNK_SECONDS}])
    assert slow.size(10**6) == 1  # a puzzle longer than a task's aim goes alone


@pytest.mark.timeout(120)
def test_easy_puzzles_go_many_a_task_in_input_order_and_optimal() -> None:
    puzzles = _eight_puzzles(600, seed=5)
    jobs = [Job("batch", line, tiles, None, "blank-last", "ida", "manhattan")
            for line, tiles in enumerate(puzzles, 1)]
    pool = VirtualExecutor(2)
    outcomes = list(_ordered(pool, jobs, None))
    assert pool.tasks < len(jobs) / 10  # one puzzle a task sent 600
    distances = exact_distances("blank-last")
    assert [outcome["line"] for outcome in outcomes] == list(range(1, len(jobs) + 1))
    for tiles, outcome in zip(puzzles, outcomes):
        assert outcome["status"] == "solved"
        assert solves(tiles, outcome["solution"], "blank-last")
        assert outcome["moves"] == distances[tiles]
