"""The generic searches against plain minimax: values, leaves, tables, windows."""

from __future__ import annotations

import random

import pytest

from parallel_backtrack.games import (
    MultiNim,
    Nim,
    NoActionsError,
    TicTacToe,
    TranspositionTable,
    alphabeta,
    iterative_deepening,
    minimax,
    negamax,
    nim_theory,
    null_window,
    parse_tree,
)
from parallel_backtrack.games.search import StopSearch

CLASSIC = ("{(A,MAX),(B,MIN),(C,MIN),(D,MAX),(E,MAX),(F,MAX),(G,MAX)} "
           "{(A,B),(A,C),(B,D),(B,E),(C,F),(C,G),(D,4),(D,3),(E,2),(E,7),(F,3),(F,2),(G,2),(G,8)}")


def random_tree(rng: random.Random, branching: int, depth: int, alternate: bool = True) -> str:
    """A random tree in the text format (turns alternate unless ``alternate`` is off)."""
    kinds, edges, names = [], [], iter(f"N{i}" for i in range(10**6))

    def grow(name: str, kind: str, left: int) -> None:
        kinds.append(f"({name},{kind})")
        for _ in range(rng.randint(1, branching)):
            if left <= 1 or rng.random() < 0.2:
                edges.append(f"({name},{rng.randint(-9, 9)})")
            else:
                child = next(names)
                edges.append(f"({name},{child})")
                other = ("MIN" if kind == "MAX" else "MAX") if alternate else rng.choice(
                    ["MAX", "MIN"])
                grow(child, other, left - 1)

    grow(next(names), "MAX", depth)
    return "{" + ",".join(kinds) + "} {" + ",".join(edges) + "}"


def test_classic_tree_value_and_leaves():
    game = parse_tree(CLASSIC).game
    assert alphabeta(game, 0).value == 4
    assert alphabeta(game, 0).leaves == 6
    assert minimax(game, 0).leaves == 8
    assert alphabeta(game, 0).pv == [0, 0, 0]  # A -> B -> D -> 4


@pytest.mark.parametrize("seed", range(40))
def test_random_trees_every_search_agrees_with_minimax(seed):
    rng = random.Random(seed)
    parsed = parse_tree(random_tree(rng, 4, 5, alternate=seed % 2 == 0))
    game = parsed.game
    reference = minimax(game, 0)
    for found in (negamax(game, 0), alphabeta(game, 0), alphabeta(game, 0, fail_soft=True),
                  alphabeta(game, 0, table=TranspositionTable(7)),
                  null_window(game, 0, -9, 9), iterative_deepening(game, 0)):
        assert found.value == reference.value
    assert alphabeta(game, 0).leaves <= reference.leaves
    # the principal variation replays to a leaf worth the value
    state = 0
    for action in alphabeta(game, 0).pv:
        state = game.result(state, action)
    assert game.is_terminal(state)
    assert game.utility(state, "MAX") == reference.value


@pytest.mark.parametrize("seed", range(10))
def test_windows_fail_hard_and_soft_bound_the_value(seed):
    game = parse_tree(random_tree(random.Random(seed), 3, 5)).game
    true = minimax(game, 0).value
    for alpha, beta in ((-3, 0), (0, 1), (2, 5), (-9, -8)):
        hard = alphabeta(game, 0, alpha=alpha, beta=beta).value
        soft = alphabeta(game, 0, alpha=alpha, beta=beta, fail_soft=True).value
        assert alpha <= hard <= beta
        if alpha < true < beta:
            assert hard == soft == true
        elif true <= alpha:
            assert hard == alpha and true <= soft <= alpha
        else:
            assert hard == beta and beta <= soft <= true


@pytest.mark.parametrize("sticks", range(1, 16))
def test_nim_all_searches_against_minimax_and_theory(sticks):
    game = Nim(sticks)
    reference = minimax(game, game.initial)
    assert reference.value == nim_theory(sticks)
    for found in (negamax(game, game.initial), alphabeta(game, game.initial),
                  alphabeta(game, game.initial, table=TranspositionTable()),
                  null_window(game, game.initial, -1, 1)):
        assert found.value == reference.value
        if found.best_action is not None:  # the move keeps the value
            after = game.result(game.initial, found.best_action)
            assert -minimax(game, after).value == reference.value


def test_nim_table_is_linear_and_recursion_free():
    game = Nim(100_000)
    found = alphabeta(game, game.initial, table=TranspositionTable())
    assert found.value == nim_theory(100_000) == 1
    assert found.best_action == 3 and (100_000 - 3) % 4 == 1
    assert found.nodes < 4 * 100_000


def test_a_small_table_still_answers_right():
    game = Nim(60)
    assert alphabeta(game, game.initial, table=TranspositionTable(3)).value == nim_theory(60)


@pytest.mark.parametrize("heaps", [(a, b, c) for a in range(6) for b in range(a, 6)
                                   for c in range(b, 6)])
def test_multi_nim_matches_the_xor_rule(heaps):
    from parallel_backtrack.games import xor_rule

    game = MultiNim(heaps)
    assert alphabeta(game, game.initial, table=TranspositionTable()).value == xor_rule(heaps)


def test_multi_nim_small_against_minimax_and_random_large():
    from parallel_backtrack.games import xor_rule

    for heaps in [(1, 2), (2, 2), (1, 2, 3), (3, 3, 1)]:
        game = MultiNim(heaps)
        assert minimax(game, game.initial).value == xor_rule(heaps)
    rng = random.Random(5)
    for _ in range(5):
        heaps = tuple(rng.randint(0, 9) for _ in range(4))
        game = MultiNim(heaps)
        assert alphabeta(game, game.initial, table=TranspositionTable()).value == xor_rule(heaps)


def test_tictactoe_positions_against_minimax():
    game = TicTacToe()
    assert alphabeta(game, game.initial, table=TranspositionTable()).value == 0
    for first, second in ((4, 0), (0, 1), (1, 4), (0, 8)):
        state = game.result(game.result(game.initial, first), second)
        expected = minimax(game, state).value
        assert alphabeta(game, state).value == expected
        assert alphabeta(game, state, table=TranspositionTable()).value == expected


def test_iterative_deepening_stops_when_the_game_ends():
    game = Nim(9)
    found = iterative_deepening(game, game.initial)
    assert found.value == -1 and found.depth is not None and found.depth <= 8


def test_stuck_state_and_until_are_reported():
    stuck = parse_tree("{(A,MAX),(B,MIN)} {(A,B),(A,1),(B,2)}").game
    stuck.first[2] = stuck.first[1]  # node B (1) loses its child
    with pytest.raises(NoActionsError, match="no actions"):
        alphabeta(stuck, 0)
    game = Nim(25)
    with pytest.raises(StopSearch):
        alphabeta(game, game.initial, until=lambda: True)
    with pytest.raises(ValueError, match="capacity"):
        TranspositionTable(0)
    with pytest.raises(ValueError, match="sticks"):
        Nim(0)


def _check_null_window(game, state, true, lo, hi):
    found = null_window(game, state, lo, hi)
    if lo <= true <= hi:
        assert (found.value, found.exact) == (true, True), (lo, hi)
    elif true < lo:  # "at most lo"
        assert (found.value, found.exact, found.best_action) == (lo, False, None), (lo, hi)
    else:  # "at least hi", with an action that reaches that much
        assert (found.value, found.exact) == (hi, False), (lo, hi)
        assert found.best_action is not None or game.is_terminal(state)
    return found


def _windows(true):
    """Intervals below, around (the value inside or at an end) and above ``true``."""
    return [(true + 1, true + 5), (true + 3, true + 3), (true - 6, true - 1),
            (true - 2, true - 2), (true - 3, true + 3), (true, true + 4), (true - 4, true),
            (true, true), (true - 1, true + 1), (-10, 10)]


@pytest.mark.parametrize("sticks", range(1, 13))
def test_null_window_says_when_the_value_is_outside_its_interval(sticks):
    """Against minimax: exact inside [lo, hi], a bound flagged not exact outside it
    (Nim(8), value 1, in [5, 10] gave 5 and in [-5, -2] gave -2, both "exact")."""
    game = Nim(sticks)
    true = minimax(game, game.initial).value
    for lo, hi in _windows(true) + [(5, 10), (-5, -2)]:
        found = _check_null_window(game, game.initial, true, lo, hi)
        if found.best_action is not None:  # it reaches the value (or at least hi)
            after = game.result(game.initial, found.best_action)
            assert -minimax(game, after).value >= found.value


@pytest.mark.parametrize("seed", range(12))
def test_null_window_on_random_trees_below_around_and_above(seed):
    game = parse_tree(random_tree(random.Random(seed), 3, 4, alternate=seed % 2 == 0)).game
    true = minimax(game, 0).value
    for lo, hi in _windows(true):
        _check_null_window(game, 0, true, lo, hi)


def test_bad_windows_and_depths_are_refused_before_the_search():
    game = Nim(8)
    s = game.initial
    for alpha, beta in ((5, -5), (3, 3)):
        with pytest.raises(ValueError, match=f"expected alpha < beta .*alpha={alpha}, "
                                             f"beta={beta}"):
            alphabeta(game, s, alpha=alpha, beta=beta)
    with pytest.raises(TypeError, match="alpha must be a number, got True"):
        alphabeta(game, s, alpha=True)
    with pytest.raises(TypeError, match="beta must be a number, got '3'"):
        alphabeta(game, s, beta="3")
    with pytest.raises(ValueError, match="alpha must be a number, got nan"):
        alphabeta(game, s, alpha=float("nan"))
    for bad in (-1, True, 2.5):
        with pytest.raises(ValueError, match=rf"depth must be an integer >= 0, got {bad}"):
            alphabeta(game, s, depth=bad)
        with pytest.raises(ValueError, match=rf"depth must be an integer >= 0, got {bad}"):
            negamax(game, s, depth=bad)
    for bad in (0, 2.5, False):
        with pytest.raises(ValueError, match=rf"max_depth must be an integer >= 1, got {bad}"):
            iterative_deepening(game, s, max_depth=bad)
    with pytest.raises(ValueError, match="lo must be an integer, got 0.5"):
        null_window(game, s, 0.5, 2)
    with pytest.raises(ValueError, match="expected lo <= hi, got lo=2, hi=1"):
        null_window(game, s, 2, 1)
    assert alphabeta(game, s, depth=0).depth == 0  # the root scored by ``evaluate``
    assert alphabeta(game, s, alpha=-1, beta=2).value == 1  # a valid window still works


def test_a_search_given_no_game_says_a_game_is_expected():
    for search in (minimax, negamax, alphabeta, iterative_deepening):
        with pytest.raises(TypeError, match="a Game is expected .* got NoneType without "
                                            "to_move, actions"):
            search(None, 1)
    with pytest.raises(TypeError, match="got str without to_move"):
        null_window("nim", 1, -1, 1)


def test_nim_rules_refuse_what_the_games_refuse():
    from parallel_backtrack.games import xor_rule

    for bad in (0, -1, True, 2.5):
        with pytest.raises(ValueError, match=f"sticks must be a positive integer, got {bad}"):
            nim_theory(bad)
    with pytest.raises(ValueError, match=r"heaps must be non-negative integers, got \(-1, 2\)"):
        xor_rule((-1, 2))
    with pytest.raises(TypeError, match="heaps must be a sequence of non-negative integers, "
                                        "got 5"):
        xor_rule(5)
    with pytest.raises(TypeError, match="heaps must be a sequence"):
        MultiNim(5)
    assert xor_rule([1, 2, 3]) == -1 and xor_rule(iter((1, 2))) == 1
    assert MultiNim(h for h in (2, 1)).initial == ((1, 2), 0)  # a generator, read once


def test_short_reprs():
    from parallel_backtrack.games import RandomTree

    assert repr(Nim(8)) == "Nim(sticks=8)"
    assert repr(MultiNim((3, 1))) == "MultiNim(heaps=(1, 3))"
    assert repr(TicTacToe()) == "TicTacToe()"
    assert repr(RandomTree(2, 3, seed=4)) == "RandomTree(branching=2, depth=3, seed=4)"
    table = TranspositionTable(16)
    alphabeta(Nim(6), Nim(6).initial, table=table)
    assert repr(table) == f"TranspositionTable(capacity=16, stores={table.stores})"
    assert table.stores > 0
    assert repr(parse_tree(CLASSIC).game) == "TreeGame(nodes=15, leaves=8)"
