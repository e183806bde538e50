"""Several null-window probes at once: the same score as the sequential solve."""

from __future__ import annotations

import pytest
from test_games_helpers import positions

from parallel_backtrack.engine import VirtualExecutor, make_executor
from parallel_backtrack.engine.window import UNBOUNDED
from parallel_backtrack.games import alphabeta, minimax
from parallel_backtrack.games.connect4.board import Board, Connect4Game
from parallel_backtrack.games.connect4.kernel.search import probe_point
from parallel_backtrack.games.connect4.parallel import parallel_solve
from parallel_backtrack.games.connect4.solver import Solver
from parallel_backtrack.games.probes import (
    LEARN_TASKS,
    ProbeTally,
    _fill,
    auto_at_once,
    next_point,
    probe_range,
)
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


@pytest.fixture
def pools():
    """Virtual pools made on demand, closed at the end (their shipped files go)."""
    made: list[VirtualExecutor] = []

    def make(workers: int = 1, **options) -> VirtualExecutor:
        made.append(VirtualExecutor(workers, **options))
        return made[-1]

    yield make
    for pool in made:
        pool.close()


def test_the_final_probe_is_the_one_the_range_leaves_alone(pools):
    game, seen, executor = RandomTree(4, 5, seed=3), [], pools()

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
    assert _flags(3, 4, finals, pools) == [(3, True)]
    assert _flags(0, 9, finals, pools) == [(4, False)]


def _flags(low: int, high: int, seen: list[tuple[int, bool]], pools) -> list[tuple[int, bool]]:
    """The (point, final) of the one probe ``_fill`` starts in ``[low, high]``."""
    seen.clear()
    game = RandomTree(2, 2, seed=0)

    def start(m: int, final: bool) -> YoungBrothersWait:
        seen.append((m, final))
        return YoungBrothersWait(game, pools())

    _fill({}, start, low, high, lambda a, b: (a + b) // 2, 1, lambda: 0)
    return list(seen)


@pytest.mark.parametrize("workers", [32, 64])
def test_big_pools_split_deeper_and_keep_the_score(workers):
    board = Board(5, 4)
    ends = positions(board, 8, 4, seed=workers)
    found = [parallel_solve(board, p, executor=VirtualExecutor(workers), tt_mb=1,
                            split_depth=2, helpers=False).score for p in ends]
    assert found == [minimax(Connect4Game(board), p).value for p in ends]


@pytest.mark.parametrize("dispatch", [0.0, 2e-3])
def test_the_tally_gives_what_a_task_cost_the_parent(dispatch, pools):
    """``ProbeTally.task_cost``: the parent's own seconds on the pool's clock over the
    tasks sent, a pool's own cost included; unknown before ``LEARN_TASKS`` were sent."""
    game, executor, tally = RandomTree(4, 7, seed=5), pools(8, dispatch=dispatch), ProbeTally()
    assert tally.task_cost() is None

    def start(m: int, final: bool) -> YoungBrothersWait:
        search = YoungBrothersWait(game, executor, fail_soft=True)
        search.start(game.initial, m, m + 1)
        return search

    value = probe_range(start, executor, (-1000, 1000), lambda a, b: (a + b) // 2, 2, tally)
    assert value == alphabeta(game, game.initial).value
    assert tally.sent >= LEARN_TASKS and tally.sent >= tally.tasks > 0
    cost = tally.task_cost()
    assert cost is not None and dispatch <= cost and tally.parent <= executor.clock
    assert tally.parent >= dispatch * tally.sent


class _Depths(YoungBrothersWait):
    """Young Brothers Wait that keeps the split depth of every run started."""

    depths: list[int] = []

    def start(self, state, alpha=-UNBOUNDED, beta=UNBOUNDED):
        self.depths.append(self.split_depth)
        super().start(state, alpha, beta)


@pytest.mark.parametrize("dispatch, deeper_cost", [(0.0, 1.0), (3e-3, None)])
def test_probes_split_deeper_only_while_a_task_is_cheap(monkeypatch, dispatch, deeper_cost):
    """From ``DEEPER_WORKERS`` on, probes split deeper while a task costs the parent at
    most ``DEEPER_COST``; on a dear pool (3 ms a task), once measured, at the depth
    asked for.  The score stays the sequential solver's either way."""
    from parallel_backtrack.games.connect4 import parallel

    assert parallel.DEEPER_COST < 3e-3 and parallel.DEEPER_WORKERS <= 32
    monkeypatch.setattr(parallel, "YoungBrothersWait", _Depths)
    if deeper_cost is not None:  # else the default, below a cluster's 3 ms a task
        monkeypatch.setattr(parallel, "DEEPER_COST", deeper_cost)
    board, depths = Board(), _Depths.depths
    for moves in ("4453222", "32164625"):
        depths.clear()
        position = board.parse(moves)
        found = parallel_solve(board, position, executor=VirtualExecutor(32, dispatch=dispatch),
                               tt_mb=8, split_depth=2, helpers=False)
        assert found.score == Solver(board, 8).solve(position)[0]
        assert found.task_cost >= dispatch and found.tasks > 0
        deeper = [d > 2 for d in depths]
        assert len(deeper) > 3 and deeper[0]  # nothing measured yet: deeper
        assert all(deeper) if dispatch == 0 else not any(deeper[-3:])
