"""Iterative deepening and the null-window search for an exact score.

Glossary
--------
iterative deepening
    Alpha-beta to depth 1, 2, 3, ... sharing one transposition table, whose best
    actions order the next, deeper search; it ends at the first depth whose
    search met no horizon (the value is then the game's own) or at ``max_depth``.
null window
    A window ``(m, m + 1)`` of integer values: the search only answers "is the
    value above m?", cutting far more than a wide window would.
bounds (lo, hi)
    ``lo <= value <= hi`` is known; each null-window probe at the middle halves
    the interval (a binary search), the table keeping what earlier probes learnt.

Example: ``null_window(Nim(10), Nim(10).initial, -1, 1).value == 1``.
"""

from __future__ import annotations

from typing import Any

from ..engine.checks import check_int
from .game import Game, SearchResult, check_game
from .search import Evaluate, Search, alphabeta
from .table import TranspositionTable


def iterative_deepening(game: Game, state: Any, *, max_depth: int = 64,
                        evaluate: Evaluate | None = None,
                        table: TranspositionTable | None = None) -> SearchResult:
    """Deepen one ply at a time; the result of the last depth, with totals counted.

    ``max_depth``: the deepest search, an integer >= 1; ``evaluate(state, player)``
    scores horizon states (default 0); ``table`` is shared by the depths (default a
    new one).  The result's ``depth`` is the depth of its search."""
    check_game(game)
    check_int("max_depth", max_depth, low=1)
    table = table if table is not None else TranspositionTable()
    nodes = leaves = hits = 0
    for depth in range(1, max_depth + 1):
        search = _deepen_once(game, state, depth, evaluate, table)
        found, reached_end = search
        nodes, leaves, hits = nodes + found.nodes, leaves + found.leaves, hits + found.tt_hits
        if reached_end:
            break
    found.nodes, found.leaves, found.tt_hits = nodes, leaves, hits
    return found


def _deepen_once(game: Game, state: Any, depth: int, evaluate: Evaluate | None,
                 table: TranspositionTable) -> tuple[SearchResult, bool]:
    search = Search(game, table=table, depth=depth, evaluate=evaluate)
    found = search.run(state)
    found.depth = depth
    return found, not search.horizon_hit


def null_window(game: Game, state: Any, lo: int, hi: int, *,
                table: TranspositionTable | None = None, ordered: bool = False) -> SearchResult:
    """The integer value of ``state`` (for its player to move) by null-window probes
    (fail-soft), searched within ``[lo, hi]`` (integers, ``lo <= hi``).

    The result is ``exact`` when the value lies in ``[lo, hi]``.  When it does not,
    the probes say so and the result is not exact: ``value == lo`` means the value is
    below ``lo`` ("at most lo": no best action), ``value == hi`` that it is above
    ``hi`` ("at least hi", with an action that reaches that much).  A value at an end
    of the interval costs one probe more, to tell it from a value beyond.

    The best action is one that reaches the value (a last probe ``(v - 1, v)``
    finds it when no earlier probe did).
    """
    check_game(game)
    check_int("lo", lo)
    check_int("hi", hi)
    if lo > hi:
        raise ValueError(f"expected lo <= hi, got lo={lo}, hi={hi}")
    table = table if table is not None else TranspositionTable()
    counts = [0, 0, 0]  # nodes, leaves, table hits over every probe

    def probe(alpha: int) -> SearchResult:
        found = alphabeta(game, state, alpha=alpha, beta=alpha + 1, fail_soft=True,
                          table=table, ordered=ordered)
        counts[0] += found.nodes
        counts[1] += found.leaves
        counts[2] += found.tt_hits
        return found

    witness: SearchResult | None = None
    capped = False  # a probe proved value <= hi (else only the caller said so)
    while lo < hi:
        mid = lo + (hi - lo) // 2
        found = probe(mid)
        if found.value <= mid:
            hi = int(found.value) if found.value > lo else lo
            capped = True
        else:
            lo = int(found.value) if found.value < hi else hi
            witness = found
    if witness is None or witness.value < lo:
        witness = probe(lo - 1)
        if witness.value < lo:  # below the interval
            return SearchResult(lo, None, [], *_totals(counts), exact=False)
    if not capped:
        above = probe(hi)
        if above.value > hi:  # above the interval
            return SearchResult(hi, above.best_action, above.pv, *_totals(counts),
                                exact=False)
    return SearchResult(lo, witness.best_action, witness.pv, *_totals(counts))


def _totals(counts: list[int]) -> tuple[int, int, int]:
    """Nodes, leaves and table hits, as ``SearchResult`` takes them."""
    return counts[0], counts[1], counts[2]
