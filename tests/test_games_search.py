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
