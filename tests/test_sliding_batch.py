"""A batch of puzzles goes to the workers in runs of consecutive puzzles (``batch.Chunks``):
one a task at first, then as many as the puzzles back so far say fill a task, so a file
of easy puzzles does not pay a pool's round trip for each.  It is read as it goes, with
at most a window of puzzles held: answers stay in input order with the bad lines among
them, each optimal (against breadth-first distances) and replayed move by move."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sliding_check import exact_distances, solves

from parallel_backtrack.engine import VirtualExecutor
from parallel_backtrack.sliding import batch
from parallel_backtrack.sliding.__main__ import main
from parallel_backtrack.sliding.batch import CHUNK_SECONDS, MAX_CHUNK, Batch, Chunks, _Runs
from parallel_backtrack.sliding.board import Board
from parallel_backtrack.sliding.jobs import Job, invalid


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
    outcomes = [outcome for _, outcome in _Runs(Batch(jobs, 2), pool).outcomes()]
    assert pool.tasks < len(jobs) / 10  # one puzzle a task sent 600
    distances = exact_distances("blank-last")
    assert [outcome["line"] for outcome in outcomes] == list(range(1, len(jobs) + 1))
    for tiles, outcome in zip(puzzles, outcomes):
        assert outcome["status"] == "solved"
        assert solves(tiles, outcome["solution"], "blank-last")
        assert outcome["moves"] == distances[tiles]


class Counted:
    """Items given one at a time, counting how many were taken."""

    def __init__(self, items: list[Any]) -> None:
        self.items, self.taken = items, 0

    def __iter__(self) -> Iterator[Any]:
        for item in self.items:
            self.taken += 1
            yield item


def _mixed_items(count: int, seed: int) -> tuple[list[Any], list[tuple[int, ...] | None]]:
    """Jobs with a bad line's outcome every seventh item; the tiles of each (None: bad)."""
    items: list[Any] = []
    tiles_of: list[tuple[int, ...] | None] = []
    for line, tiles in enumerate(_eight_puzzles(count, seed), 1):
        if line % 7 == 3:
            items.append(invalid("batch", line, f"line {line}: bad"))
            tiles_of.append(None)
        else:
            items.append(Job("batch", line, tiles, None, "blank-last", "ida", "manhattan"))
            tiles_of.append(tiles)
    return items, tiles_of


@pytest.mark.timeout(120)
def test_a_small_window_holds_few_items_and_keeps_answers_bad_lines_and_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "MAX_CHUNK", 4)  # look-ahead 16 puzzles on 2 workers
    items, tiles_of = _mixed_items(500, seed=8)
    source = Counted(items)
    window = 40
    runs = Batch(source, 2, window=window)
    assert runs.ahead == 16
    pool = VirtualExecutor(2)
    distances = exact_distances("blank-last")
    answered = []
    for item, outcome in _Runs(runs, pool).outcomes():
        assert source.taken - len(answered) <= window  # never more held than the window
        answered.append((item, outcome))
    assert pool.tasks >= 500 * 6 / 7 / 4  # runs of at most 4 puzzles
    assert [item for item, _ in answered] == items  # every item once, in input order
    assert [outcome["line"] for _, outcome in answered] == list(range(1, 501))
    for (item, outcome), tiles in zip(answered, tiles_of):
        if tiles is None:
            assert outcome is item and outcome["status"] == "invalid"
            continue
        assert outcome["status"] == "solved"
        assert solves(tiles, outcome["solution"], "blank-last")
        assert outcome["moves"] == distances[tiles]


def test_the_look_ahead_keeps_the_share_of_the_rest_exact_near_the_end() -> None:
    """Runs near the end are cut to a share of what is left, as when the whole input is
    known: the last look-ahead's worth spreads over both workers."""
    items, _ = _mixed_items(300, seed=9)
    jobs = [item for item in items if isinstance(item, Job)]
    pool = VirtualExecutor(2)
    runs = _Runs(Batch(iter(items), 2, window=10_000), pool)
    sizes: list[int] = []
    submit = pool.submit

    def counting(fn: Any, run: tuple[Job, ...]) -> Any:
        sizes.append(len(run))
        return submit(fn, run)

    pool.submit = counting  # type: ignore[method-assign]
    outcomes = [outcome for _, outcome in runs.outcomes()]
    assert len(outcomes) == 300 and sum(sizes) == len(jobs)
    assert sizes[0] == 1  # nothing back yet
    left = len(jobs)
    for size in sizes:  # never more than a share of the rest: two tasks per worker
        assert size <= max(1, -(-left // 4))
        left -= size


@pytest.mark.timeout(180)
@pytest.mark.parametrize("as_json", [False, True])
def test_the_command_line_with_a_small_window_answers_as_one_worker_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, as_json: bool) -> None:
    """A file several windows long, bad lines inside, on 2 workers with a window of 96
    puzzles: the same answers, order and errors as one worker's (no pool, no window)."""
    puzzles = _eight_puzzles(600, seed=10)  # past the 8 KiB judged for binary data
    lines = ["# a batch", "\ufeff"]
    for k, tiles in enumerate(puzzles):
        lines.append(" ".join(map(str, tiles)))
        if k % 23 == 5:
            lines.append(random.Random(k).choice(["1 2 3", "1 1 2 3 4 5 6 7 8", "x", "",
                                                  "# note", "1 2 3 4 5 6 8 7 0"]))
    path = tmp_path / "batch.txt"
    path.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).encode() + b"\n1 \x00 2\n")
    argv = [str(path), "--heuristic", "manhattan", "--no-progress", *(["--json"] * as_json)]

    def answers(workers: str) -> tuple[int, list[str]]:
        out = io.StringIO()
        code = main([*argv, "--workers", workers], out=out)
        text = out.getvalue()
        if as_json:
            rows = [json.loads(line) for line in text.splitlines()]
            for row in rows:
                row.pop("seconds")
            return code, [json.dumps(row, sort_keys=True) for row in rows]
        return code, [" ".join(line.split()[:-2]) if line.endswith(" s") else line
                      for line in text.splitlines()]

    alone = answers("1")
    monkeypatch.setattr(batch, "MAX_CHUNK", 8)  # look-ahead 32, window 96 on 2 workers
    spread = answers("2")
    assert spread == alone and alone[0] == 1  # bad lines: exit 1
    data = [line for line in lines[1:] if line.strip() and not line.startswith("#")]
    assert len(alone[1]) == len(data) + 1  # each puzzle and bad line once, the NUL's too
    if as_json:
        distances = exact_distances("blank-last")
        rows = [json.loads(row) for row in alone[1]]
        assert {row["status"] for row in rows} == {"solved", "invalid", "unsolvable"}
        for row in rows:
            if row["status"] == "solved":
                assert solves(row["tiles"], row["solution"], "blank-last")
                assert row["moves"] == distances[tuple(row["tiles"])]
