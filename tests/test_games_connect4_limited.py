"""Connect-Four with a time limit: the probes one by one from Python give the compiled
solve's score and nodes; stopped, they give a range that holds the true score, soon
after the deadline, on one worker, on a pool and from the command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from parallel_backtrack.games.connect4.board import Board
from parallel_backtrack.games.connect4.limited import analyze_until, solve_until
from parallel_backtrack.games.connect4.parallel import ParallelSolver
from parallel_backtrack.games.connect4.solver import Solver

ROOT = Path(__file__).resolve().parents[1]
# Allis (1988), Tromp: the first player wins the empty 7x6 board with the 41st stone
# of the game, its own 21st: Pons' score (22 - 21) is +1.
EMPTY_SCORE = 1


def positions(board: Board, count: int, stones: int, seed: int) -> list[str]:
    """Random games of ``stones`` stones that are not over (mid-game: quick solves)."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        moves, position = "", board.parse("")
        for _ in range(stones):
            col = rng.choice([c for c in range(board.width) if board.can_play(position, c)])
            position = board.play(position, col)
            moves += str(col + 1)
            if board.last_mover_won(position):
                break
        else:
            found.append(moves)
    return found


@pytest.mark.parametrize("weak", [False, True])
def test_without_a_deadline_the_probes_are_the_compiled_solve(weak: bool) -> None:
    board = Board()
    for moves in [*positions(board, 6, 16, seed=3), "4453222", "32164625"]:
        position = board.parse(moves)
        compiled, limited = Solver(board, 16), Solver(board, 16)
        score, nodes = compiled.solve(position, weak)
        found = solve_until(limited, position, weak, None)
        assert (found.low, found.high, found.nodes, found.complete) == (score, score, nodes,
                                                                        True), moves
        assert analyze_until(limited, position, weak, None) == (
            compiled.analyze(position, weak), True), moves


@pytest.mark.parametrize("weak", [False, True])
def test_a_deadline_stops_one_worker_with_a_range_that_holds_the_score(weak: bool) -> None:
    board = Board()
    started = time.perf_counter()
    found = solve_until(Solver(board, 16), board.parse(""), weak, started + 0.5)
    late = time.perf_counter() - started - 0.5
    assert not found.complete and found.low < found.high
    assert found.low <= EMPTY_SCORE <= found.high and found.nodes > 0
    assert late < 0.5, late
    scores, complete = analyze_until(Solver(board, 16), board.parse(""), weak,
                                     time.perf_counter() + 0.3)
    assert not complete and len(scores) < board.width


def test_a_deadline_stops_a_pool_with_a_range_that_holds_the_score() -> None:
    board = Board()
    with ParallelSolver(board, workers=2, backend="threads", tt_mb=16) as run:
        started = time.perf_counter()
        found = run.solve(board.parse(""), False, started + 0.8)
        late = time.perf_counter() - started - 0.8
        assert not found.complete and found.low <= EMPTY_SCORE <= found.high, found
        assert found.score == found.low and late < 1.0, late
        whole = run.solve(board.parse("4453222"), False, time.perf_counter() + 60)
    assert whole.complete and whole.score == whole.low == whole.high == \
        Solver(board, 16).solve(board.parse("4453222"))[0]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_command_line_prints_the_range_and_exits_3(workers: str) -> None:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "parallel_backtrack.games", "connect4", "",
                           "--timeout", "1", "--json", "--workers", workers],
                          capture_output=True, text=True, cwd=ROOT, timeout=100)
    assert done.returncode == 3, done.stderr[-500:]
    report = json.loads(done.stdout)
    assert report["score"] is None and report["complete"] is False
    assert report["stop_reason"] == "timeout" and report["workers"] == int(workers)
    assert report["score_low"] <= EMPTY_SCORE <= report["score_high"]
    assert report["seconds"] < 2.0 and time.monotonic() - started < 60
    text = subprocess.run([sys.executable, "-m", "parallel_backtrack.games", "connect4",
                           "4453222", "--timeout", "60"], capture_output=True, text=True,
                          cwd=ROOT, timeout=100)
    assert text.returncode == 0 and "score +10 for the player to move" in text.stdout
    assert "best: 5" in text.stdout


@pytest.mark.timeout(120)
@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_progress_bar_shows_the_range_narrowing(workers: str) -> None:
    done = subprocess.run([sys.executable, "-m", "parallel_backtrack.games", "connect4",
                           "4453222", "--progress", "--workers", workers],
                          capture_output=True, text=True, cwd=ROOT, timeout=100)
    assert done.returncode == 0, done.stderr[-500:]
    assert "score +10 for the player to move" in done.stdout  # the answer as without it
    shown = [line for line in done.stderr.replace("\r", "\n").splitlines()
             if "score in [" in line]
    assert shown and "score in [+10, +10]" in shown[-1], done.stderr[-500:]
