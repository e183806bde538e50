"""Young Brothers Wait: the same value as the sequential search, on every backend."""

from __future__ import annotations

import pytest
from lossy_pool import LosesTasks

from parallel_backtrack.engine import VirtualExecutor, make_executor
from parallel_backtrack.games import Nim, TicTacToe, alphabeta, minimax
from parallel_backtrack.games.__main__ import main
from parallel_backtrack.games.chain import search_task
from parallel_backtrack.games.connect4.board import Board
from parallel_backtrack.games.connect4.parallel import parallel_solve
from parallel_backtrack.games.connect4.solver import Solver
from parallel_backtrack.games.randomtree import RandomTree
from parallel_backtrack.games.ybw import PV_EXTRA, YoungBrothersWait, parallel_alphabeta


@pytest.mark.parametrize("seed", range(12))
def test_random_trees_serial_and_threads_match_minimax(seed):
    game = RandomTree(3, 5, seed)
    expected = minimax(game, game.initial).value
    for backend, workers, split in (("serial", 1, 1), ("threads", 2, 2), ("threads", 3, 3)):
        found = parallel_alphabeta(game, workers=workers, backend=backend, split_depth=split)
        assert found.value == expected
        state = game.initial  # the principal variation replays to a leaf worth the value
        for action in found.pv:
            state = game.result(state, action)
        assert game.is_terminal(state) and game.utility(state, "MAX") == expected


TREES = [(b, d) for b in range(3, 9) for d in range(3, 7)]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("branching,depth", TREES)
def test_split_depths_down_to_the_leaves_match_minimax(branching, depth):
    """A split depth at or past the leaves (split nodes whose children are leaves are
    evaluated in the parent, without a task; it recursed once a brother, and a few
    hundred leaves overflowed the stack) and every shallower one."""
    for seed in (1, 2):
        game = RandomTree(branching, depth, seed)
        expected = minimax(game, game.initial).value
        for split in range(1, depth + 2):
            if branching ** min(split, depth) > 4096:  # more split nodes than bound slots
                continue
            for speculative in (False, True):
                found = parallel_alphabeta(game, workers=1, backend="serial",
                                           split_depth=split, speculative=speculative)
                assert found.value == expected, (seed, split, speculative)
            virtual = parallel_alphabeta(game, executor=VirtualExecutor(8), split_depth=split)
            assert virtual.value == expected, (seed, split)
            if split >= depth:
                assert found.tasks == 0


@pytest.mark.parametrize("window", [(-100, 100), (0, 1), (400, 401), (-50, -49)])
def test_windows_give_sequential_bounds(window):
    game = RandomTree(4, 5, 7)
    alpha, beta = window
    found = parallel_alphabeta(game, workers=2, backend="threads", alpha=alpha, beta=beta)
    plain = alphabeta(game, game.initial, alpha=alpha, beta=beta).value
    true = minimax(game, game.initial).value
    if alpha < true < beta:
        assert found.value == plain == true
    elif true <= alpha:
        assert found.value <= alpha and plain <= alpha
    else:
        assert found.value >= beta and plain >= beta
    # fail-hard: a value at an end of the window is a bound, flagged as alphabeta flags it
    assert found.exact == (alpha < found.value < beta)
    assert found.as_dict()["exact"] == found.exact
    assert parallel_alphabeta(game, workers=2, backend="threads").exact


def test_bad_arguments_are_refused_before_a_pool_is_made(monkeypatch):
    import parallel_backtrack.engine.executors as executors

    def no_pool(*args, **kwargs):
        raise AssertionError("a pool was made")

    monkeypatch.setattr(executors, "make_executor", no_pool)
    game = Nim(9)
    for alpha, beta in ((5, -5), (2, 2)):
        with pytest.raises(ValueError, match=f"expected alpha < beta .*alpha={alpha}, "
                                             f"beta={beta}"):
            parallel_alphabeta(game, backend="threads", alpha=alpha, beta=beta)
    with pytest.raises(TypeError, match="alpha must be a number, got None"):
        parallel_alphabeta(game, alpha=None)
    for bad in (-1, True, 1.5):
        with pytest.raises(ValueError, match=f"pv_depth must be an integer >= 0, got {bad}"):
            parallel_alphabeta(game, backend="threads", pv_depth=bad)
    for bad in (0, True, 1.5):
        with pytest.raises(ValueError, match=f"split_depth must be an integer >= 1, got {bad}"):
            parallel_alphabeta(game, backend="threads", split_depth=bad)
    with pytest.raises(TypeError, match="speculative must be True, False or None, got 1"):
        parallel_alphabeta(game, speculative=1)
    with pytest.raises(TypeError, match="a Game is expected .* got NoneType without to_move.*"
                                        "initial"):
        parallel_alphabeta(None)

    class NoInitial:  # a game with the five methods but no ``initial``: needs a state
        to_move = actions = result = is_terminal = utility = staticmethod(print)

    with pytest.raises(TypeError, match="got NoInitial without initial"):
        parallel_alphabeta(NoInitial())


def test_other_games_in_parallel():
    for game in (Nim(12), TicTacToe()):
        expected = alphabeta(game, game.initial).value
        assert parallel_alphabeta(game, workers=2, backend="threads").value == expected


@pytest.mark.timeout(120)
def test_processes_share_the_bound_and_agree():
    game = RandomTree(6, 6, 3)
    executor = make_executor(2, "loky")
    try:
        found = parallel_alphabeta(game, executor=executor, split_depth=2)
    finally:
        executor.close(kill=True)
    plain = alphabeta(game, game.initial)
    assert found.value == plain.value
    # What must hold for any correct alpha-beta: it visits at least the minimal tree's
    # b^3 + b^3 - 1 leaves (Knuth and Moore) and, searching each subtree once, at
    # most the whole tree.
    assert 6**3 + 6**3 - 1 <= found.nodes <= sum(6**i for i in range(7))


@pytest.mark.parametrize("moves", ["7422341735647741166133573473242566",
                                   "23163416124767223154467471272416755633", "44455554221"])
def test_connect4_parallel_solve_matches_sequential(moves):
    board = Board()
    position = board.parse(moves)
    expected = Solver(board, 2).solve(position)[0]
    assert parallel_solve(board, position, workers=2, backend="threads", tt_mb=2).score \
        == expected


def test_connect4_small_board_in_parallel():
    board = Board(5, 4)
    found = parallel_solve(board, board.parse(""), workers=2, backend="threads", tt_mb=2)
    assert found.score == Solver(board, 2).solve(board.parse(""))[0]


@pytest.mark.timeout(120)
def test_random_cli_reports_same_value(capsys):
    import json

    assert main(["random", "-b", "4", "-d", "5", "--workers", "2", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["parallel"]["value"] == payload["sequential"]["value"]
    game = RandomTree(4, 5, 1)
    assert payload["sequential"]["value"] == minimax(game, game.initial).value


class BoundedTree(RandomTree):
    """A random tree with the optional hooks: true bounds on every value, and each
    split node's proved value recorded."""

    def __init__(self, *args: int) -> None:
        super().__init__(*args)
        self.recorded: list[tuple] = []

    def value_bounds(self, state):
        exact = minimax(RandomTree(self.branching, self.depth, self.seed), state).value
        return exact - 5, exact + 5  # a band the value (for the mover) lies in

    def record(self, state, value, alpha, beta):
        self.recorded.append((state, value, alpha, beta))


@pytest.mark.parametrize("seed", range(4))
def test_hooks_give_bounds_and_values_minimax_agrees_with(seed):
    game = BoundedTree(3, 5, seed)
    plain = RandomTree(3, 5, seed)
    true = minimax(plain, plain.initial).value
    for alpha in (true - 20, true - 1, true, true + 3):  # null windows around the value
        executor = make_executor(2, "threads")
        try:
            run = YoungBrothersWait(game, executor, split_depth=2, fail_soft=True)
            found = run.run(game.initial, alpha, alpha + 1)
        finally:
            executor.close()
        assert (found.value > alpha) == (true > alpha)
        assert true <= found.value if found.value <= alpha else true >= found.value
    assert game.recorded
    for state, value, _alpha, beta in game.recorded:  # each a bound for the mover
        exact = minimax(plain, state).value  # for the player to move there
        assert exact >= value if value >= beta else exact <= value


@pytest.mark.timeout(120)
def test_connect4_processes_share_one_table():
    import random

    from parallel_backtrack.games.connect4.board import Connect4Game

    board, rng, ends = Board(5, 4), random.Random(54), []
    while len(ends) < 4:  # 12-stone positions not over: plain minimax checks them
        position = board.parse("")
        for _ in range(12):
            position = board.play(position, rng.choice(
                [c for c in range(5) if board.can_play(position, c)]))
            if board.last_mover_won(position):
                break
        else:
            ends.append(position)
    executor = make_executor(2, "loky")
    try:
        empty = parallel_solve(board, board.parse(""), executor=executor, tt_mb=1,
                               split_depth=3)
        found = [parallel_solve(board, p, executor=executor, tt_mb=1, helpers=False).score
                 for p in ends]
    finally:
        executor.close(kill=True)
    assert empty.score == 0  # 5 x 4 is a draw (John Tromp's table)
    assert found == [minimax(Connect4Game(board), p).value for p in ends]


def test_a_terminal_root_answers_at_once():
    game = Nim(1)
    found = parallel_alphabeta(game, workers=1, backend="serial")
    assert found.value == minimax(game, game.initial).value == -1


@pytest.mark.parametrize("seed", range(6))
def test_speculative_brothers_keep_the_value(seed):
    from parallel_backtrack.engine import VirtualExecutor

    game = RandomTree(4, 6, seed)
    expected = minimax(game, game.initial).value
    virtual = parallel_alphabeta(game, executor=VirtualExecutor(16), split_depth=3)
    threads = parallel_alphabeta(game, workers=3, backend="threads", split_depth=2,
                                 speculative=True)
    window = parallel_alphabeta(game, executor=VirtualExecutor(16), split_depth=3,
                                alpha=expected - 1, beta=expected + 1, speculative=True)
    assert virtual.value == threads.value == window.value == expected


@pytest.mark.parametrize("seed", [3, 8])
def test_tasks_lost_with_their_worker_run_again(seed):
    game = RandomTree(3, 5, seed)
    executor = LosesTasks(2)
    try:
        found = parallel_alphabeta(game, executor=executor, split_depth=2)
    finally:
        executor.close()
    assert executor.lost > 0
    assert found.value == minimax(game, game.initial).value


class _Watched(YoungBrothersWait):
    """Records every split node made, and the most brothers in flight at once below
    a CUT node that may still cut."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.made, self.most_at_cut = [], 0

    def _node(self, *args):
        node = super()._node(*args)
        self.made.append(node)
        return node

    def _launch(self, node):
        super()._launch(node)
        if node.kind == "cut" and node.eldest_done and node.answered <= self.cut_tries:
            self.most_at_cut = max(self.most_at_cut, node.pending)


def test_node_kinds_follow_the_minimal_tree():
    from parallel_backtrack.engine import VirtualExecutor

    game, pool = RandomTree(3, 5, 2), VirtualExecutor(8)
    search = _Watched(game, pool, split_depth=3, pv_depth=3)
    search.speculative = True
    try:
        assert search.run(game.initial).value == minimax(game, game.initial).value
    finally:
        pool.close()  # the game shipped to a file goes
    by_path = {node.path: node.kind for node in search.made}
    assert by_path[()] == "pv" and by_path[(0,)] == "pv" and by_path[(0, 0)] == "pv"
    assert by_path[(1,)] == by_path[(0, 2)] == "cut" and by_path[(1, 0)] == "all"
    for path, kind in by_path.items():  # below a CUT node ALL, below an ALL node CUT
        parent = by_path.get(path[:-1])
        if parent in ("cut", "all"):
            assert kind == ("all" if parent == "cut" else "cut"), path


@pytest.mark.parametrize("seed", range(4))
def test_brothers_at_a_cut_node_go_cut_width_at_a_time(seed):
    from parallel_backtrack.engine import VirtualExecutor

    game, pool = RandomTree(5, 6, seed), VirtualExecutor(16)
    search = _Watched(game, pool, split_depth=3)
    search.by_kind, search.cut_width, search.cut_tries = True, 1, 99
    try:
        found = search.run(game.initial)
    finally:
        pool.close()
    assert found.value == minimax(game, game.initial).value
    assert search.most_at_cut == 1
    assert any(node.kind == "cut" and node.answered > 1 for node in search.made)


class _Recording(VirtualExecutor):
    """A virtual pool that keeps every call it is sent, as ``(fn, args)``."""

    def __init__(self, workers):
        super().__init__(workers)
        self.sent = []

    def submit(self, fn, *args):
        self.sent.append((fn, args))
        return super().submit(fn, *args)


@pytest.mark.parametrize("seed", [3, 4])
def test_tasks_go_out_pickled_by_the_c_pickler_and_keep_the_value(seed):
    """A task's arguments travel as one bytes object (``worker.call_pickled``): the
    pool's cloudpickle then meets a single argument; the value is alpha-beta's."""
    import pickle

    from parallel_backtrack.engine.executors import run_shipped
    from parallel_backtrack.engine.worker import call_pickled, pickled

    assert call_pickled(pickled((max, (3, 5)))) == 5
    pool = _Recording(8)
    game = RandomTree(4, 6, seed)
    found = parallel_alphabeta(game, executor=pool, split_depth=2)
    assert found.value == alphabeta(game, game.initial).value
    sent = pool.sent
    assert sent and all(fn is call_pickled and len(args) == 1 for fn, args in sent)
    calls = [pickle.loads(args[0]) for _, args in sent]
    assert all(fn is run_shipped for fn, _ in calls)
    # each carries its state, (ply, path): below the split plies (deeper near the
    # eldest line), within the tree
    plies = {args[2][0] for _, args in calls}
    assert min(plies) == 2 and max(plies) == 2 + PV_EXTRA


def test_a_pool_that_needs_the_handle_apart_gets_the_plain_call():
    """Dask swaps a shipped handle for its object only where the handle is an argument
    of the call itself, so there a task is sent as ``run_shipped(runner, handle, ...)``."""
    from parallel_backtrack.engine.executors import run_shipped

    class HandleApart(_Recording):
        handle_as_argument = True

    game = RandomTree(4, 6, 5)
    pool = HandleApart(4)
    found = parallel_alphabeta(game, executor=pool, split_depth=2)
    assert found.value == alphabeta(game, game.initial).value
    sent = pool.sent
    assert sent and all(fn is run_shipped for fn, _ in sent)
    assert all(args[0] is search_task for _, args in sent)
