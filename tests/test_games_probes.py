"""Several null-window probes at once: the same score as the sequential solve."""

from __future__ import annotations

import pytest
from test_games_helpers import positions

from parallel_backtrack.engine import VirtualExecutor, make_executor
from parallel_backtrack.games import alphabeta, minimax
from parallel_backtrack.games.connect4.board import Board, Connect4Game
from parallel_backtrack.games.connect4.kernel.search import probe_point
from parallel_backtrack.games.connect4.parallel import parallel_solve
from parallel_backtrack.games.connect4.solver import Solver
from parallel_backtrack.games.probes import _fill, auto_at_once, next_point, probe_range
from parallel_backtrack.games.randomtree import RandomTree
from parallel_backtrack.games.ybw import YoungBrothersWait


def test_next_point_fills_the_widest_gap():
    assert next_point(-19, 19, [], probe_point) == probe_point(-19, 19)
    # The eldest at 0: its two successors, the wider side first.
    assert next_point(-19, 19, [0], probe_point) == probe_point(-19, 0) == -10
    assert next_point(-19, 19, [0, -10], probe_point) == probe_point(1, 19) == 10
    assert next_point(-4, 4, [0, -2, 2], lambda a, b: a) == -4  # ties: the lowest gap
    assert next_point(2, 3, [2], probe_point) is None  # [2, 2] and [3, 3]: no gap
    assert next_point(0, 0, [], probe_point) is None


def test_probe_range_refuses_a_bad_count():
    with pytest.raises(ValueError, match="at_once must be a positive integer, got 0"):
        probe_range(lambda m, final: None, VirtualExecutor(1), (0, 1), probe_point, 0)  # type: ignore


def test_auto_at_once_keeps_one_probe_on_small_pools():
    assert [auto_at_once(p) for p in (1, 2, 4)] == [1, 1, 1]
    assert auto_at_once(64) > 1


@pytest.mark.parametrize("probes", [1, 2, 3, 5, 8])
@pytest.mark.parametrize("moves", ["4453222", "7422341735647741166133573473242566",
                                   "44455554221"])
def test_probes_at_once_give_the_sequential_score(moves, probes):
    board = Board()
    position = board.parse(moves)
    expected = Solver(board, 8).solve(position)[0]
    found = parallel_solve(board, position, executor=VirtualExecutor(16), tt_mb=8,
                           probes=probes, helpers=False)
    assert found.score == expected
    assert found.probes >= 1 or found.tasks == 0  # none when the split plies decide


@pytest.mark.parametrize("probes", [2, 4])
def test_probes_at_once_against_plain_minimax(probes):
    board = Board(5, 4)
    ends = positions(board, 11, 6, seed=probes)
    found = [parallel_solve(board, p, workers=3, backend="threads", tt_mb=1,
                            split_depth=2, probes=probes).score for p in ends]
    assert found == [minimax(Connect4Game(board), p).value for p in ends]


@pytest.mark.timeout(120)
def test_probes_at_once_on_processes_sharing_one_table():
    board = Board()
    positions = ["4453222", "44455554221", "2252576253462244111563365343671351441"]
    expected = [Solver(board, 8).solve(board.parse(m))[0] for m in positions]
    executor = make_executor(2, "loky")
    try:
        found = [parallel_solve(board, board.parse(m), executor=executor, tt_mb=8,
                                probes=3).score for m in positions]
    finally:
        executor.close(kill=True)
    assert found == expected


def test_the_final_probe_is_the_one_the_range_leaves_alone():
    game, seen, executor = RandomTree(4, 5, seed=3), [], VirtualExecutor(1)

    def start(m: int, final: bool) -> YoungBrothersWait:
        seen.append((m, final))
        search = YoungBrothersWait(game, executor, fail_soft=True)
        search.start(game.initial, m, m + 1)
        return search

    value = probe_range(start, executor, (-1000, 1000), lambda a, b: (a + b) // 2)
    assert value == alphabeta(game, game.initial).value
    # One probe at a time: only the last may be final, its range [m, m + 1].
    assert all(not final for _, final in seen[:-1])
    assert not seen[-1][1] or seen[-1][0] in (value - 1, value)
    finals: list[tuple[int, bool]] = []
    assert _flags(3, 4, finals) == [(3, True)]
    assert _flags(0, 9, finals) == [(4, False)]


def _flags(low: int, high: int, seen: list[tuple[int, bool]]) -> list[tuple[int, bool]]:
    """The (point, final) of the one probe ``_fill`` starts in ``[low, high]``."""
    seen.clear()
    game = RandomTree(2, 2, seed=0)

    def start(m: int, final: bool) -> YoungBrothersWait:
        seen.append((m, final))
        return YoungBrothersWait(game, VirtualExecutor(1))

    _fill({}, start, low, high, lambda a, b: (a + b) // 2, 1, lambda: 0)
    return list(seen)


@pytest.mark.parametrize("workers", [32, 64])
def test_big_pools_split_deeper_and_keep_the_score(workers):
    board = Board(5, 4)
    ends = positions(board, 8, 4, seed=workers)
    found = [parallel_solve(board, p, executor=VirtualExecutor(workers), tt_mb=1,
                            split_depth=2, helpers=False).score for p in ends]
    assert found == [minimax(Connect4Game(board), p).value for p in ends]
