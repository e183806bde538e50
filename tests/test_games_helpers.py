"""Helper twins (lazy SMP) and tasks that stop when their window closes: values
against plain minimax on small boards and against the sequential solver on 7 x 6."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from parallel_backtrack.engine import make_executor
from parallel_backtrack.engine.window import UNBOUNDED
from parallel_backtrack.games import minimax
from parallel_backtrack.games.connect4.board import Board, Connect4Game
from parallel_backtrack.games.connect4.kernel.search import POLL
from parallel_backtrack.games.connect4.parallel import SplitGame, c4_task, parallel_solve
from parallel_backtrack.games.connect4.solver import Solver
from parallel_backtrack.games.ybw import YoungBrothersWait


def positions(board: Board, stones: int, count: int, seed: int) -> list:
    """Random positions of ``stones`` stones, game not over, no immediate win."""
    rng, found, split = random.Random(seed), [], SplitGame(board, 1)
    while len(found) < count:
        position = board.parse("")
        for _ in range(stones):
            position = board.play(position, rng.choice(
                [c for c in range(board.width) if board.can_play(position, c)]))
            if board.last_mover_won(position):
                break
        else:
            if not split.is_terminal(position):
                found.append(position)
    return found


def test_a_closed_window_stops_the_kernel_and_an_open_one_does_not():
    board = Board()
    position = board.parse("4443")  # seconds of search: only a stop ends it early
    solver = Solver(board, 1)
    chain = np.array([0], np.int64), np.array([1], np.int64)
    closed = (np.array([UNBOUNDED], np.int64), *chain, -1, 0)
    _value, nodes, stopped = solver.window(position, -1, 0, closed)
    assert stopped and nodes == POLL
    small = board.parse("7422341735647741166133573473242566")
    open_ = (np.array([-UNBOUNDED], np.int64), *chain, -1, 0)
    assert solver.window(small, -1, 0, open_)[::2] == (Solver(board, 1).window(
        small, -1, 0)[0], False)


@pytest.mark.parametrize("variant", [1, 2, 3])
def test_every_move_order_variant_gives_the_window_value(variant):
    board = Board(5, 4)
    for position in positions(board, 11, 6, seed=variant):
        exact = minimax(Connect4Game(board), position).value
        for alpha in (-2, 0, 1):
            value = Solver(board, 0.01).window(position, alpha, alpha + 1,
                                               variant=variant)[0]
            assert (value <= alpha) == (exact <= alpha)  # the null window's answer
            assert exact <= value if value <= alpha else exact >= value  # fail-soft


@pytest.mark.timeout(120)
def test_helper_twins_on_processes_give_the_exact_score():
    small, big = Board(5, 4), Board()
    ends = positions(small, 10, 3, seed=16)
    lines = (Path(__file__).parent / "data" / "search" / "connect4" /
             "Test_L2_R2.txt").read_text().split("\n")
    sevens = [line.split() for line in lines[:4]]  # Pons' middle-medium set
    executor = make_executor(2, "loky")
    try:
        empty = parallel_solve(small, small.parse(""), executor=executor, tt_mb=1,
                               split_depth=3, helpers=True)
        found = [parallel_solve(small, p, executor=executor, tt_mb=1, helpers=True)
                 for p in ends]
        wide = [parallel_solve(big, big.parse(m), executor=executor, tt_mb=4,
                               helpers=True) for m, _ in sevens]
    finally:
        executor.close(kill=True)
    assert empty.score == 0  # 5 x 4 is a draw (John Tromp's table)
    assert [f.score for f in found] == [minimax(Connect4Game(small), p).value for p in ends]
    assert [f.score for f in wide] == [int(score) for _, score in sevens]  # Pons' scores


@pytest.mark.timeout(120)
def test_an_idle_worker_gets_a_twin_and_the_first_answer_counts():
    """Split one ply, the eldest child alone: the second worker has nothing to do but
    a twin of it, at once (no timing involved)."""
    board = Board()
    position = board.parse("7422341735647741166133573473242566")  # Pons: score 1
    game = SplitGame(board, 1)
    executor = make_executor(2, "loky")
    try:
        search = YoungBrothersWait(game, executor, split_depth=1, pv_depth=1,
                                   runner=c4_task, fail_soft=True, helpers=True)
        found = search.run(position, 0, 1)
    finally:
        executor.close(kill=True)
    assert found.twins >= 1
    assert found.value > 0  # the null window (0, 1) fails high: the player to move wins
