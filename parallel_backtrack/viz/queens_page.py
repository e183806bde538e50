"""The N-Queens search page: a board replaying the reference search step by step.

Glossary
--------
trace
    Plain data (``nqueens.trace.QueensTrace.as_data()``): ``n``, ``order``,
    ``limit``, ``capped``, ``kinds`` (one letter per step: ``r`` root, ``p``
    place, ``d`` dead end, ``s`` solution, ``b`` back), ``rows``, ``cols``,
    ``cands`` (per step, each row's candidate columns as a bitmask), ``nodes``,
    ``solutions``.
section
    The part of a page this module fills (see ``page.Section``).

Example: ``write_queens_page("q.html", record_queens(8).as_data())`` writes a page of
about 140 KB that steps through all 4,849 steps of the 8-queens search.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .page import Section, capped_at, render_page, write_page

LEGEND = (
    ("#8fd694", "queen just placed"),
    ("#2f7fd8", "dot: a candidate column of an empty row (candidate_columns_in_row)"),
    ("#e57373", "row with no candidate left: dead end"),
    ("#f5a25d", "square a queen was just taken from (backtrack)"),
    ("#ffd54a", "gold frame: a solution"),
)

BODY = (
    '<div class="row2"><div id="queens-board" class="board" role="grid" aria-label="board">'
    '</div><div class="side"><div id="queens-controls"></div><div class="counters">'
    '<span>nodes <b id="queens-nodes">0</b></span>'
    '<span>solutions <b id="queens-solutions">0</b></span>'
    '<span>queens on the board <b id="queens-depth">0</b></span></div>'
    '<div id="queens-status" class="status" aria-live="polite"></div></div></div>'
)


def queens_section(trace: Mapping[str, Any]) -> Section:
    """The search section of a page."""
    notes = []
    if trace["capped"]:
        notes.append(
            f"{capped_at(len(trace['kinds']), trace['limit'])}: it stops after "
            f"{trace['nodes']:,} nodes and {trace['solutions']:,} solutions, before the "
            "search ended.")
    return Section(
        f"{trace['n']}-queens search, row order '{trace['order']}'", BODY, "queens",
        dict(trace), ("player.js", "queens.js"), LEGEND, notes)


def queens_title(trace: Mapping[str, Any]) -> str:
    return f"{trace['n']}-queens: the backtracking search step by step"


def write_queens_page(path: str, trace: Mapping[str, Any]) -> int:
    """Write the search page alone; returns its size in bytes."""
    text = render_page(queens_title(trace), [queens_section(trace)],
                       "Each step places a queen, finds a dead end or a solution, or "
                       "backtracks.")
    return write_page(path, text)
