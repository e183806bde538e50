"""The Sudoku propagation page: every square's candidates, step by step.

Glossary
--------
trace
    Plain data (``sudoku.trace.SudokuTrace.as_data()``): ``box``,
    ``propagation``, ``order``, ``limit``, ``capped``, ``nodes``, per step its
    kind, square, value and eliminations, ``rules`` (the rule names, by code)
    and ``used`` (the codes the propagation can use).
rule colours
    One per rule code, in the order of ``trace["rules"]`` (``assigned``, ``peer
    elimination``, ``hidden single``, ``naked twins``, ``locked candidates``,
    ``unit matching``, ``other``): a removed candidate is drawn struck through on
    its rule's colour in the step that removed it.

Example: ``sudoku_section(record_sudoku(givens).as_data())``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .page import Section, capped_at

RULE_COLOURS = ("#9e9e9e", "#e57373", "#64b5f6", "#ba68c8", "#ffb74d", "#4db6ac", "#000000")
RULE_HELP = (
    "other values of the square just given a value (a guess or a given)",
    "peer elimination: a filled square's value leaves its row, column and box",
    "hidden single: a value with one place left in a unit goes there",
    "naked twins: two squares of a unit with the same two values",
    "locked candidates: a value confined to one line of a box (or box of a line)",
    "unit matching: no all-different assignment of the unit uses it",
    "other (only if the recorded step disagreed with the search's own child)",
)
BODY = (
    '<div class="row2"><div id="sudoku-wrap"><p id="sudoku-scroll-help" class="help" '
    'hidden>The board scrolls inside its box, so its candidates keep a legible size; it '
    'follows the square of each guess and dead end.</p><div id="sudoku-box" '
    'class="sgrid-box"><div id="sudoku-board" class="sgrid" role="grid" '
    'aria-label="puzzle"></div></div></div><div class="side"><div id="sudoku-controls">'
    '</div><div class="counters">'
    '<span>nodes <b id="sudoku-nodes">1</b></span>'
    '<span>guesses <b id="sudoku-guesses">0</b></span>'
    '<span>dead ends <b id="sudoku-dead">0</b></span>'
    '<span>backtracks <b id="sudoku-backs">0</b></span>'
    '<span>candidates left <b id="sudoku-left">0</b></span>'
    '<span>removed this step: <b id="sudoku-rules">—</b></span></div>'
    '<div id="sudoku-status" class="status" aria-live="polite"></div></div></div>'
)
OTHER_LEGEND = (
    ("#fff59d", "yellow square: the square guessed in this step"),
    ("#ffcdd2", "pink square: no candidate left (a dead end)"),
    ("#1f5fa8", "blue digit: filled by the search; black: a given"),
    ("#ffd54a", "gold frame: the solution"),
)


def sudoku_section(trace: Mapping[str, Any]) -> Section:
    legend = tuple((RULE_COLOURS[k], RULE_HELP[k]) for k in trace["used"]) + OTHER_LEGEND
    notes = []
    if trace["capped"]:
        notes.append(f"{capped_at(len(trace['kinds']), trace['limit'])}: it stops after "
                     f"{trace['nodes']:,} nodes, before the search found a solution.")
    size = trace["box"] * trace["box"]
    heading = (f"{size}x{size} Sudoku, propagation '{trace['propagation']}', "
               f"square order '{trace['order']}'")
    return Section(heading, BODY, "sudoku", dict(trace), ("player.js", "sudoku.js"),
                   legend, notes)


def sudoku_title(trace: Mapping[str, Any]) -> str:
    size = trace["box"] * trace["box"]
    return f"{size}x{size} Sudoku: propagation and search step by step"
