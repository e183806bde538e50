"""Many puzzles at once: one result per entry, the same for any worker count."""

from __future__ import annotations

import importlib
import time
from pathlib import Path

import pytest
from clocks import JumpingWallClock
from sudoku_data import DATA

from parallel_backtrack.sudoku.files import read_puzzles
from parallel_backtrack.sudoku.formats import PuzzleEntry
from parallel_backtrack.sudoku.results import PuzzleResult, Summary
from parallel_backtrack.sudoku.runner import Job, solve_entries, solve_entry
from parallel_backtrack.sudoku.space import is_valid_solution

HERE = Path(__file__).resolve().parent
MIXED = HERE / "data" / "sudoku_mixed.txt"


def test_one_result_per_entry_in_file_order() -> None:
    entries = read_puzzles(MIXED)
    results = list(solve_entries(entries, Job()))
    assert [r.index for r in results] == list(range(6))
    assert [r.status for r in results] == [
        "solved", "invalid", "solved", "invalid", "unsolvable", "invalid",
    ]
    assert [r.line for r in results] == [2, 3, 5, 6, 7, 8]
    assert results[1].error is not None and results[1].error.startswith("line 3: 80 cells")
    assert results[3].error == (
        "line 6: givens contradict each other: A1 and A2 both hold 1 (same row, box)"
    )
    for entry, result in zip(entries, results, strict=True):
        if result.status == "solved":
            assert entry.cells is not None and result.solution is not None
            assert is_valid_solution(entry.cells, result.solution)


def test_counting_gives_every_result_a_count() -> None:
    results = list(solve_entries(read_puzzles(MIXED), Job(count=True, limit=5)))
    assert [r.count for r in results] == [1, None, 1, None, 0, None]


def test_json_objects() -> None:
    result = PuzzleResult(0, 2, "solved", "12", count=0, nodes=3, seconds=0.1234567)
    assert result.as_json() == {
        "index": 0, "line": 2, "status": "solved", "solution": "12", "count": 0,
        "nodes": 3, "seconds": 0.123457, "complete": True,
    }
    invalid = PuzzleResult(1, 3, "invalid", error="line 3: bad").as_json()
    assert invalid["error"] == "line 3: bad" and "count" not in invalid


def test_summary() -> None:
    summary = Summary()
    for result in solve_entries(read_puzzles(MIXED), Job(count=True)):
        summary.add(result)
    assert (summary.solved, summary.unsolvable, summary.invalid, summary.puzzles) == (2, 1, 3, 6)
    assert summary.text(2.0, counted=True).startswith(
        "solved 2, unsolvable 1, invalid 3 in 2.000 s (3.0 puzzles/s), "
    )
    assert summary.text(2.0, counted=True).endswith("nodes, 2 solutions counted")


@pytest.mark.timeout(120)
def test_a_single_entry_can_use_several_workers_on_its_tree() -> None:
    entry = read_puzzles(MIXED)[0]
    one = solve_entry(0, entry, Job(count=True))
    two = solve_entry(0, entry, Job(count=True), workers=2)
    assert (two.status, two.solution, two.count) == (one.status, one.solution, one.count)


@pytest.mark.timeout(120)
def test_workers_split_the_puzzles_and_change_nothing() -> None:
    path = DATA / "norvig_top95.txt"
    entries = read_puzzles(path)[:40] + read_puzzles(MIXED)
    job = Job(count=True, limit=2)

    def key(r: PuzzleResult) -> tuple:
        return (r.index, r.status, r.solution, r.count, r.nodes, r.error)

    sequential = [key(r) for r in solve_entries(entries, job)]
    assert [key(r) for r in solve_entries(entries, job, workers=2)] == sequential


# HARDEST with its first six givens gone: 449,065 solutions, some 900k nodes (several
# slices, a look at the deadline between each).
OPENED = ".................9..4.........1.7..23.5...9...4...........8..7..17..........36.4."


def test_a_deadline_is_on_the_steady_clock_a_wall_clock_jump_does_not_end_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from parallel_backtrack.sudoku import runner

    search = importlib.import_module("parallel_backtrack.sudoku.search")  # not the function
    clock = JumpingWallClock()
    monkeypatch.setattr(runner, "time", clock)
    monkeypatch.setattr(search, "time", clock)
    clock.time()  # the jump: a wall-clock deadline would have passed
    entry = PuzzleEntry(1, cells=tuple(0 if ch == "." else int(ch) for ch in OPENED))
    result = solve_entry(0, entry, Job(count=True, deadline=time.perf_counter() + 60))
    assert (result.status, result.count, result.stop_reason) == ("solved", 449_065, None)
    stopped = solve_entry(0, entry, Job(count=True, deadline=time.perf_counter() - 1))
    assert stopped.status == "stopped" and stopped.stop_reason == "timeout"
