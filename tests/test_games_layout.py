"""The games package's seams: optional game methods on a base class, executors that
say what they share, one pool per run, and the Connect-Four command line's batch
over workers and its move scores after a parallel solve."""

from __future__ import annotations

import json
import pickle

import pytest

from parallel_backtrack.engine import make_executor
from parallel_backtrack.engine.executors import pool_for_run, run_shipped
from parallel_backtrack.games import BaseGame, Nim, alphabeta, parallel_alphabeta
from parallel_backtrack.games.__main__ import main
from parallel_backtrack.games.connect4.board import Board
from parallel_backtrack.games.game import hooks_of


class Countdown:
    """A game that does not subclass BaseGame: take 1 or 2, the last to take wins."""

    initial = 7

    def to_move(self, state):
        return state % 2

    def actions(self, state):
        return [a for a in (1, 2) if a <= state]

    def result(self, state, action):
        return state - action

    def is_terminal(self, state):
        return state == 0

    def utility(self, state, player):
        return -1  # the player to move at 0 lost: the other took the last


def test_hooks_of_gives_defaults_to_a_plain_game_and_keeps_a_subclass():
    plain = hooks_of(Countdown())
    assert plain.key(5) == 5 and list(plain.ordered_actions(5)) == [1, 2]
    assert plain.value_bounds(5) is None and plain.record(5, 1, 0, 1) is None
    nim = Nim(9)
    assert hooks_of(nim) is nim and isinstance(nim, BaseGame)


def test_a_plain_game_searches_sequentially_and_in_parallel():
    game = Countdown()
    # 7 = 1 mod 3: the player to move loses with perfect play
    assert alphabeta(game, game.initial).value == -1
    found = parallel_alphabeta(game, workers=1, split_depth=2)
    assert found.value == -1


def test_executors_declare_shared_files():
    assert make_executor(1).shares_files is False
    with pool_for_run(None, 2, "threads") as pool:
        assert pool.shares_files is True


def test_pool_for_run_closes_its_own_and_releases_a_borrowed_one():
    calls = []

    class Spy(type(make_executor(1))):
        def close(self, kill=False):
            calls.append(("close", kill))

        def release(self):
            calls.append(("release",))

    borrowed = Spy(1)
    with pool_for_run(borrowed) as pool:
        assert pool is borrowed
    assert calls == [("release",)]
    with pytest.raises(KeyError), pool_for_run(borrowed):
        raise KeyError("boom")
    assert calls[-1] == ("release",)


def _double(obj, extra):
    return obj * 2 + extra


def test_run_shipped_hands_the_object_unpickled():
    pool = make_executor(1, "threads")
    try:
        handle = pool.ship(21)
        assert pool.submit(run_shipped, _double, handle, 0).result() == 42
    finally:
        pool.close()
    assert pickle.loads(pickle.dumps(run_shipped)) is run_shipped


@pytest.mark.timeout(120)
def test_connect4_file_over_workers_gives_the_sequential_scores(tmp_path, capsys):
    lines = ["7422341735647741166133573473242566 1", "4453222 10", "32164625 11",
             "2252576253462244111563365343671351441 -1"]
    path = tmp_path / "p.txt"
    path.write_text("\n".join(lines) + "\n")
    assert main(["connect4", "--file", str(path), "--json"]) == 0
    one = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert main(["connect4", "--file", str(path), "--json", "--workers", "2",
                 "--tt-mb", "8"]) == 0
    two = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["line"] for r in one] == [1, 2, 3, 4] == [r["line"] for r in two]
    assert [r["score"] for r in one] == [r["score"] for r in two]
    assert [r["score"] for r in one] == [1, 10, 11, -1]
    assert all(r["status"] == "solved" for r in two)


@pytest.mark.timeout(120)
def test_connect4_parallel_move_scores_equal_the_sequential_ones(capsys):
    assert main(["connect4", "4453222", "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(["connect4", "4453222", "--json", "--workers", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert one["score"] == two["score"] == 10
    assert one["move_scores"] == two["move_scores"]
    assert (one["workers"], two["workers"]) == (1, 2)
    # a pool's run says what it sent and what a task cost the parent; one worker's none
    assert "tasks" not in one and two["tasks"] > 0 and 0 < two["task_cost"] < two["seconds"]
    board = Board()
    assert board.parse("4453222").moves == 7


@pytest.mark.timeout(300)
def test_connect4_kernel_imported_first_caches_in_the_shared_place(tmp_path):
    """In a fresh process whose first import is the kernel, its compiled functions go
    to the shared user cache of games/connect4/kernel (not beside the sources)."""
    import os
    import subprocess
    import sys

    from parallel_backtrack import _jit_paths

    kernel = _jit_paths.PACKAGE / "games" / "connect4" / "kernel"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    code = ("from parallel_backtrack.games.connect4.kernel import search\n"
            "from parallel_backtrack.games.connect4.solver import Solver\n"
            "Solver.warm()\n")
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=280)
    shared = _jit_paths.cache_dir(kernel, str(tmp_path))
    assert shared.is_dir() and any(shared.glob("search.negamax-*.nbi"))
    assert any(shared.glob("search.solve-*.nbi"))
    assert not any((kernel / "__pycache__").glob("*.nbi"))
