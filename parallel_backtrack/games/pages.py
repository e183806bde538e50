"""The ``--html`` pages of the games' commands: one function per subcommand.

Each records the search the command answers with (``trace.record``), checks that
the recording gives the printed answer (root value, leaves, nodes, table hits) and
writes the page with ``viz``; it returns the line the command prints on stderr.

Glossary
--------
graph
    One tree of an ``alphabeta`` file (the k-th non-blank line): one chooser entry.
view
    The player the page's values are for: MAX for the assignment's trees (the
    score the text answer prints), the first player for Nim and tic-tac-toe.
principal variation (Connect-Four)
    From the position, the best move by the solver's ``analyze`` (ties: the
    centre-most column), played until the game ends.

Example: ``write_alphabeta_page("t.html", "trees.txt", data, False)`` returns
``"wrote t.html (31 KB): 2 graphs"``.
"""

from __future__ import annotations

from typing import Any

from .._text import without_bom
from ..viz.gametree_page import GameTrace, table_section, write_gametree_page
from ..viz.page import PageError
from .nim import Nim
from .search import alphabeta
from .table import DEFAULT_CAPACITY, TranspositionTable
from .trace import record, tree_names
from .trees import is_tree_line, parse_tree

MAX_NIM_STICKS = 30
# Without the table Nim's tree grows about 1.84 times per stick: 16 sticks is 2,500 nodes.
NIM_PLAIN_MAX = 16
WHOLE = 1 << 30
# Recording keeps every step in memory (about 200 bytes a node).
MAX_TREE_NODES = 1_000_000


class PageMismatchError(RuntimeError):
    """The recorded search disagrees with the answer printed (a bug, exit 4)."""


def _same(what: str, recorded: Any, answered: Any) -> None:
    if recorded != answered:
        raise PageMismatchError(f"{what}: the page's recording gives {recorded!r}, the search "
                                f"{answered!r}")


def _count(number: int, noun: str) -> str:
    """``1 node``, ``25 nodes``."""
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def _done(path: str, size: int, what: str) -> str:
    return f"wrote {path} ({size / 1000:,.0f} KB): {what}"


def tree_trace(graph: int, text: str, use_minimax: bool) -> GameTrace:
    """The trace of one graph of an alphabeta file (MAX's view, the score printed)."""
    parsed = parse_tree(text)
    game, names = parsed.game, tree_names(text)
    size = game.internal + game.leaf_count
    if size > MAX_TREE_NODES:
        raise PageError(f"graph {graph} has {size:,} nodes; the page records at "
                         f"most {MAX_TREE_NODES:,} per tree")

    def label(state: Any, action: Any, child: int) -> str:
        return names[child] if child < len(names) else str(game.leaf_values[child - game.internal])

    trace = record(game, 0, view="MAX", prune=not use_minimax, label=label,
                   skipped_depth=WHOLE, title=names[0])
    trace.title = f"Graph {graph}"
    found = alphabeta(game, 0)
    _same(f"graph {graph} score", trace.value, parsed.score(found.value))
    if not use_minimax:
        _same(f"graph {graph} leaves", trace.leaves, found.leaves)
    else:
        _same(f"graph {graph} leaves", trace.leaves, game.leaf_count)
    trace.notes = [f"{trace.title}: Score: {trace.value}; Leaf Nodes Examined: {trace.leaves}"
                   + (" (minimax: every leaf)" if use_minimax else
                      " (fail-hard alpha-beta, children left to right, cut at alpha >= beta)")]
    return trace


def write_alphabeta_page(path: str, name: str, data: bytes, use_minimax: bool) -> str:
    """The page of every tree of an alphabeta file (its lines but blank ones and
    comments, every one of them a well-formed tree)."""
    lines = without_bom(data).split(b"\n")
    trees = [raw.decode("utf-8") for raw in lines if is_tree_line(raw)]
    traces = [tree_trace(graph, text, use_minimax) for graph, text in enumerate(trees, 1)]
    kind = "minimax" if use_minimax else "alpha-beta"
    size = write_gametree_page(path, traces, f"{name}: {kind}, step by step")
    return _done(path, size, f"{len(traces)} graph" + ("s" if len(traces) > 1 else ""))


def nim_page_problem(sticks: int) -> str | None:
    """Why ``games nim --html`` cannot draw ``sticks``, or None (asked before the search)."""
    if sticks > MAX_NIM_STICKS:
        return f"--html draws the Nim tree for at most {MAX_NIM_STICKS} sticks, got {sticks}"
    return None


def nim_traces(sticks: int) -> list[GameTrace]:
    """With the table (the search ``games nim`` answers with), and without it when small."""
    if not 1 <= sticks <= MAX_NIM_STICKS:
        raise ValueError(f"the Nim page draws at most {MAX_NIM_STICKS} sticks, got {sticks}")
    game = Nim(sticks)

    def label(state: Any, action: Any, child: Any) -> str:
        return str(child[0])

    table = TranspositionTable(min(DEFAULT_CAPACITY, 2 * sticks + 1))
    traces = [record(game, game.initial, table=table, label=label,
                     title=f"{sticks}")]
    found = alphabeta(game, game.initial, table=TranspositionTable(
        min(DEFAULT_CAPACITY, 2 * sticks + 1)))
    first = traces[0]
    _same("nim value", first.value, found.value)
    _same("nim nodes", (first.nodes_visited, first.tt_hits), (found.nodes, found.tt_hits))
    first.title = f"Nim {sticks}, with the transposition table"
    if sticks <= NIM_PLAIN_MAX:
        plain = record(game, game.initial, label=label, title=f"{sticks}")
        _same("nim nodes without the table", plain.nodes_visited,
              alphabeta(game, game.initial).nodes)
        plain.title = f"Nim {sticks}, without the table"
        traces.append(plain)
    for trace in traces:
        trace.notes = [f"Labels are the sticks left; MAX moves first. {trace.title}: "
                       f"{_count(trace.nodes_visited, 'node')} visited, "
                       f"{_count(trace.tt_hits, 'table hit')}."]
    return traces


def write_nim_page(path: str, sticks: int) -> str:
    traces = nim_traces(sticks)
    size = write_gametree_page(
        path, traces, f"Nim with {_count(sticks, 'stick')}: negamax alpha-beta with a "
        "transposition table", "Take 1, 2 or 3 sticks; the player facing one stick loses. "
        "Purple nodes are answered by the table (the value of that many sticks is already "
        "known).")
    return _done(path, size, f"{_count(traces[0].nodes_visited, 'node')} with the table")


def tictactoe_sections() -> tuple[GameTrace, list[Any]]:
    """The alpha-beta trace (with the table) and the value of each first move for X."""
    from .tictactoe import TicTacToe

    game = TicTacToe()
    trace = record(game, game.initial, table=TranspositionTable(),
                   label=lambda state, action, child: str(action), title="start")
    found = alphabeta(game, game.initial, table=TranspositionTable())
    _same("tic-tac-toe value", (trace.value, trace.nodes_visited),
          (found.value, found.nodes))
    trace.title = "Tic-tac-toe, alpha-beta with the transposition table"
    trace.notes = ["Labels are the square played (0-8, row by row); values are for X."]
    table = TranspositionTable()
    values = [-alphabeta(game, game.result(game.initial, square), table=table).value
              for square in range(9)]
    words = {1: "win", 0: "draw", -1: "loss"}
    rows = [[f"row {r}"] + [f"{int(values[3 * r + c]):+d} ({words[int(values[3 * r + c])]})"
                            for c in range(3)] for r in range(3)]
    section = table_section(
        f"Value at the root: {int(trace.value):+d} ({words[int(trace.value)]}); the value of "
        "X's first move on each square", "ttt", ["", "column 0", "column 1", "column 2"], rows,
        ["Each square's value is the exact value for X of the game after X plays there "
         "(alpha-beta with a table over the rest of the game)."])
    return trace, [section]


def write_tictactoe_page(path: str) -> str:
    trace, extra = tictactoe_sections()
    size = write_gametree_page(path, [trace], "Tic-tac-toe: the game tree's value",
                               extra=extra)
    return _done(path, size, f"{trace.nodes_visited:,} nodes searched, value "
                 f"{int(trace.value):+d}")


def connect4_line(board: Any, solver: Any, position: Any,
                  weak: bool) -> tuple[str, list[int | None], dict[int, int]]:
    """The principal variation (a move string), the score of every position along it
    (None once the game is won) and the move scores at ``position``."""
    first = solver.analyze(position, weak)
    line, scores, moves = "", [], first
    while moves:
        best = max(moves.values())
        col = next(c + 1 for c in board.order if moves.get(c + 1) == best)
        scores.append(best)
        line += str(col)
        position = board.play(position, col - 1)
        if board.last_mover_won(position):
            scores.append(None)
            break
        moves = solver.analyze(position, weak)
        if not moves:
            scores.append(0)  # a full board: a draw
    if not line:
        scores.append(0)
    return line, scores, first


def write_connect4_html(path: str, moves: str, board: Any, solver: Any, position: Any,
                        weak: bool) -> str:
    """The position, the score of each move, and the principal variation."""
    from ..viz.connect4_page import connect4_section
    from ..viz.page import render_page, write_page

    line, scores, first = connect4_line(board, solver, position, weak)
    given = len(moves)
    section = connect4_section(moves + line, board.width, board.height, given,
                               [None] * given + scores)
    rows = [[col, f"{value:+d}", "best" if value == max(first.values()) else ""]
            for col, value in first.items()]
    scale = "weak: win +1, draw 0, loss -1" if weak else "Pons: > 0 a win, more for a faster one"
    table = table_section(f"The score of each move at the position ({scale})", "c4moves",
                          ["column", "score for the player to move", ""], rows)
    size = write_page(path, render_page(
        f"Connect-Four {moves or '(empty board)'}: the principal variation", [section, table],
        "The given position (faded stones), then the line best play follows, stone by stone."))
    return _done(path, size, f"principal variation {line or '(none)'}")
