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

Example: ``null_window(Nim(10), 10, -1, 1).value == 1``.
"""

from __future__ import annotations

from typing import Any

from .game import Game, SearchResult
from .search import Evaluate, Search, alphabeta
from .table import TranspositionTable


def iterative_deepening(game: Game, state: Any, *, max_depth: int = 64,
                        evaluate: Evaluate | None = None,
                        table: TranspositionTable | None = None) -> SearchResult:
    """Deepen one ply at a time; the result of the last depth, with totals counted."""
    if max_depth < 1:
        raise ValueError(f"max_depth must be at least 1, got {max_depth}")
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
    """The exact integer value within ``[lo, hi]`` by null-window probes (fail-soft).

    The best action is one that reaches the value (a last probe ``(v - 1, v)``
    finds it when no earlier probe did).
    """
    if lo > hi:
        raise ValueError(f"expected lo <= hi, got lo={lo}, hi={hi}")
    table = table if table is not None else TranspositionTable()
    nodes = leaves = hits = 0
    witness: SearchResult | None = None
    while lo < hi:
        mid = lo + (hi - lo) // 2
        probe = alphabeta(game, state, alpha=mid, beta=mid + 1, fail_soft=True, table=table,
                          ordered=ordered)
        nodes, leaves, hits = nodes + probe.nodes, leaves + probe.leaves, hits + probe.tt_hits
        if probe.value <= mid:
            hi = int(probe.value) if probe.value > lo else lo
        else:
            lo = int(probe.value) if probe.value < hi else hi
            witness = probe
    if witness is None or witness.value < lo:
        witness = alphabeta(game, state, alpha=lo - 1, beta=lo, fail_soft=True, table=table,
                            ordered=ordered)
        nodes, leaves, hits = (nodes + witness.nodes, leaves + witness.leaves,
                               hits + witness.tt_hits)
    return SearchResult(lo, witness.best_action, witness.pv, nodes, leaves, hits)
