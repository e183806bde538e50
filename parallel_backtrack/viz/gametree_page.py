"""The game-tree page: an alpha-beta (or minimax, or negamax) search, step by step.

It takes plain data (a ``GameTrace`` per tree), so it needs nothing from the games
package; ``games.trace`` records one from a search.

Glossary
--------
view
    Every value, alpha and beta on the page is for one player (MAX for the
    assignment's trees, the player to move at the root otherwise), as a textbook
    draws alpha-beta: a node of that player raises alpha, the other's lowers beta.
node
    An index into ``parents``/``kinds``/``labels``; the root is 0, its parent -1.
    Children are drawn in index order (the recorder numbers them in action order).
kind
    ``"MAX"`` (the view's player moves there), ``"MIN"`` (the other), ``"LEAF"``.
step
    ``(what, node, value, alpha, beta, parent_alpha, parent_beta, extra)``:
    ``enter`` (the window the node is searched with; extra 1 when the table
    narrowed it), ``leaf`` (a leaf's value read), ``leave`` (the node's value and
    window as it is left), ``cut`` (``alpha >= beta`` at the node: its children
    from index ``extra`` on are skipped), ``table`` (a transposition-table entry
    answered the node; extra is ``exact``, ``lower`` or ``upper``).  ``parent_*``
    is the parent's window once the value is taken in (None at the root).
shown
    A trace of more than ``limit`` nodes is drawn to the depth whose nodes fit;
    deeper steps are dropped and the page says so.  Counters still count them.

Example: ``write_gametree_page("t.html", [trace])`` writes the page of one tree.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .page import MAX_PAGE_BYTES, PageError, Section, render_page, write_page

DRAWN_LIMIT = 2_000
STEP_KINDS = ("enter", "leaf", "leave", "cut", "table")
KIND_LETTERS = {"MAX": "M", "MIN": "N", "LEAF": "L"}
LEGEND = (
    ("#ffffff", "white: not reached yet"),
    ("#90caf9", "blue: on the search path (entered, not left)"),
    ("#c8e6c9", "green: searched and left with its value"),
    ("#ffe082", "amber: a leaf examined, numbered in order"),
    ("#bdbdbd", "grey, dashed edge: cut off (alpha >= beta at the node marked α≥β in red)"),
    ("#ce93d8", "purple: answered by the transposition table"),
    ("#f9a825", "gold edges: the principal variation (last step)"),
)
BODY = (
    '<div id="gt-chooser"></div><div id="gt-controls"></div><div class="counters">'
    '<span>leaves examined <b id="gt-leaves">0</b> of <b id="gt-total">0</b></span>'
    '<span>cut-offs <b id="gt-cuts">0</b></span>'
    '<span>table hits <b id="gt-hits">0</b></span>'
    '<span>root value <b id="gt-value">?</b></span></div>'
    '<div id="gt-status" class="status" aria-live="polite"></div>'
    '<div id="gt-node" class="help"></div>'
    '<p id="gt-summary" class="note" hidden></p>'
    '<div id="gt-tree" class="gtree" role="img" aria-label="game tree"></div>'
)


@dataclass
class GameTrace:
    """One recorded search (see the glossary); ``value`` and ``leaves`` are the answer
    the text mode prints, ``pv`` the nodes of the principal variation from the root."""

    title: str
    parents: list[int]
    kinds: list[str]
    labels: list[str]
    steps: list[tuple[Any, ...]]
    value: float
    leaves: int
    pv: list[int] = field(default_factory=list)
    pruned: bool = True
    view: str = "MAX"
    nodes_visited: int = 0
    tt_hits: int = 0
    notes: list[str] = field(default_factory=list)


def _number(value: float | None) -> Any:
    """A value for JSON: infinities as strings (JSON has no infinity)."""
    if value is None:
        return None
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return int(value) if float(value).is_integer() else value


def check_trace(trace: GameTrace) -> None:
    """PageError when the trace does not hang together (sizes, parents, step kinds)."""
    size = len(trace.parents)
    if not size or len(trace.kinds) != size or len(trace.labels) != size:
        raise PageError(f"{trace.title}: parents, kinds and labels need one entry per node "
                        f"(got {size}, {len(trace.kinds)}, {len(trace.labels)})")
    if trace.parents[0] != -1 or any(not 0 <= p < n for n, p in enumerate(trace.parents)
                                     if n):
        raise PageError(f"{trace.title}: node 0 must be the root and every other node's "
                        "parent an earlier node")
    if any(kind not in KIND_LETTERS for kind in trace.kinds):
        raise PageError(f"{trace.title}: kinds must be MAX, MIN or LEAF")
    for step in trace.steps:
        if step[0] not in STEP_KINDS or not 0 <= step[1] < size:
            raise PageError(f"{trace.title}: bad step {step!r}")


def depths(parents: Sequence[int]) -> list[int]:
    depth = [0] * len(parents)
    for node in range(1, len(parents)):
        depth[node] = depth[parents[node]] + 1
    return depth


def shown_depth(depth: list[int], limit: int) -> int | None:
    """The deepest level whose nodes (with all above) fit in ``limit``; None: all fit."""
    if len(depth) <= limit:
        return None
    per_level = [0] * (max(depth) + 1)
    for d in depth:
        per_level[d] += 1
    total, level = 0, -1
    while level + 1 < len(per_level) and total + per_level[level + 1] <= limit:
        level += 1
        total += per_level[level]
    return max(level, 0)


def trace_data(trace: GameTrace, limit: int = DRAWN_LIMIT) -> dict[str, Any]:
    """The JSON the page's script reads for one trace (capped at ``limit`` nodes)."""
    check_trace(trace)
    depth = depths(trace.parents)
    cap = shown_depth(depth, limit)
    keep = [cap is None or d <= cap for d in depth]
    index = {old: new for new, old in enumerate(n for n in range(len(depth)) if keep[n])}
    below = [0] * len(depth)  # nodes below a node that are not drawn
    if cap is not None:
        for node in range(len(depth) - 1, 0, -1):
            if not keep[node]:
                below[trace.parents[node]] += 1 + below[node]
    steps, leaves = [], 0
    for step in trace.steps:
        leaves += step[0] == "leaf"
        if keep[step[1]]:
            steps.append([STEP_KINDS.index(step[0]), index[step[1]],
                          *(_number(v) for v in step[2:7]), step[7], leaves])
    kept = list(index)
    data = {
        "title": trace.title, "pruned": trace.pruned, "view": trace.view,
        "parents": [index.get(trace.parents[n], -1) for n in kept],
        "kinds": "".join(KIND_LETTERS[trace.kinds[n]] for n in kept),
        "labels": [trace.labels[n] for n in kept], "below": [below[n] for n in kept],
        "steps": steps, "value": _number(trace.value), "leaves": trace.leaves,
        "pv": [index[n] for n in trace.pv if n in index], "nodes": len(depth),
        "visited": trace.nodes_visited, "hits": trace.tt_hits, "notes": list(trace.notes),
        "capped": None if cap is None else {"depth": cap, "nodes": len(kept)},
    }
    if leaves != trace.leaves:
        raise PageError(f"{trace.title}: the steps read {leaves} leaves, the answer says "
                        f"{trace.leaves}")
    return data


def gametree_section(traces: Sequence[GameTrace], heading: str,
                     limit: int = DRAWN_LIMIT) -> Section:
    """The tree drawing, its player and (for several traces) a chooser."""
    if not traces:
        raise PageError("no tree to draw")
    data = {"graphs": [trace_data(t, limit) for t in traces]}
    return Section(heading, BODY, "gametree", data, ("player.js", "gametree.js"), LEGEND)


def table_section(heading: str, key: str, header: Sequence[str],
                  rows: Sequence[Sequence[Any]], notes: Sequence[str] = ()) -> Section:
    """A plain table (no script): per-move values, a board of scores."""
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>"
                   for row in rows)
    table = f'<table class="stats" id="{key}-table"><tr>{head}</tr>{body}</table>'
    return Section(heading, table, key, {"rows": [list(map(str, r)) for r in rows]}, (),
                   notes=list(notes))


def write_gametree_page(path: str, traces: Sequence[GameTrace], title: str | None = None,
                        subtitle: str = "", extra: Sequence[Section] = (),
                        limit: int = DRAWN_LIMIT) -> int:
    """Write the page of ``traces`` (one chooser entry each) and ``extra`` sections;
    returns its size in bytes (PageError: a bad trace, a page above 2 MB)."""
    pruned = all(t.pruned for t in traces)
    heading = "Alpha-beta search, step by step" if pruned else "Minimax search, step by step"
    page_title = title or heading
    sections = [gametree_section(traces, heading, limit), *extra]
    text = render_page(page_title, sections, subtitle or (
        "Each step enters a node with its window (alpha, beta), reads a leaf, cuts off the "
        "rest of a node's children, or leaves a node with its value."))
    size = len(text.encode("utf-8"))
    if size > MAX_PAGE_BYTES:
        raise PageError(f"the page of {len(traces)} trees would be {size:,} bytes, above the "
                        f"{MAX_PAGE_BYTES:,} limit; put fewer trees in the file")
    return write_page(path, text)
