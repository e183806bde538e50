"""The recorded game searches behind the --html pages (games.trace, games.pages).

The recording must give the text answer: the reference outputs of the classic
alpha-beta files (score and leaves examined), the node and table-hit counts of
``search.alphabeta``; its steps are checked against an independent recursive
alpha-beta written here, and the command lines against their text mode.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from parallel_backtrack.games import Nim, RandomTree, TicTacToe, TranspositionTable, alphabeta
from parallel_backtrack.games.pages import nim_traces, tree_trace
from parallel_backtrack.games.trace import record, tree_names
from parallel_backtrack.games.trees import parse_tree
from parallel_backtrack.viz import PageError
from parallel_backtrack.viz.gametree_page import DRAWN_LIMIT, trace_data

DATA = Path(__file__).resolve().parent / "data" / "search" / "alphabeta"
FILES = sorted(p.name for p in DATA.glob("*_alphabeta.txt"))
ANSWER = re.compile(r"Graph (\d+): Score: (-?\d+); Leaf Nodes Examined: (\d+)")
MINIMAX = re.compile(r"minimax (-?\d+) over (\d+) leaves")


def reference(name: str) -> list[tuple[int, int, int, int]]:
    """(score, leaves examined, minimax score, every leaf) per graph of a reference file."""
    text = (DATA / name.replace(".txt", "_out.REFERENCE_verbose.txt")).read_text()
    rows = []
    for line in text.splitlines():
        answer, plain = ANSWER.search(line), MINIMAX.search(line)
        assert answer and plain, line
        rows.append((int(answer[2]), int(answer[3]), int(plain[1]), int(plain[2])))
    return rows


def trees(name: str) -> list[str]:
    return [raw.decode("utf-8") for raw in (DATA / name).read_bytes().split(b"\n")
            if raw.strip()]


def textbook(game, node: int, alpha: float, beta: float, read: list[int]) -> float:
    """Fail-hard alpha-beta as textbooks write it (MAX's view, recursive): the leaves it
    reads, in order, go to ``read``."""
    if game.is_terminal(node):
        read.append(node)
        return game.leaf_values[node - game.internal]
    maximise = game.kinds[node] == "MAX"
    for child in game.children(node):
        if alpha >= beta:
            break
        value = textbook(game, child, alpha, beta, read)
        if maximise:
            alpha = max(alpha, value)
        else:
            beta = min(beta, value)
    return alpha if maximise else beta


@pytest.mark.parametrize("name", FILES)
def test_recorded_trees_give_the_reference_answers(name: str) -> None:
    for graph, (text, (score, leaves, plain_score, all_leaves)) in enumerate(
            zip(trees(name), reference(name), strict=True), 1):
        trace = tree_trace(graph, text, use_minimax=False)
        assert (trace.value, trace.leaves) == (score, leaves)
        assert sum(step[0] == "leaf" for step in trace.steps) == leaves
        plain = tree_trace(graph, text, use_minimax=True)
        assert (plain.value, plain.leaves) == (plain_score, all_leaves)
        assert not any(step[0] == "cut" for step in plain.steps)


@pytest.mark.parametrize("name", FILES)
def test_recorded_steps_follow_the_textbook(name: str) -> None:
    for graph, text in enumerate(trees(name), 1):
        game = parse_tree(text).game
        read: list[int] = []
        value = textbook(game, 0, float("-inf"), float("inf"), read)
        trace = tree_trace(graph, text, use_minimax=False)
        assert trace.value == value
        leaf_labels = [trace.labels[s[1]] for s in trace.steps if s[0] == "leaf"]
        assert leaf_labels == [str(game.leaf_values[node - game.internal]) for node in read]
        check_steps(trace)


def check_steps(trace) -> None:
    """Enter and leave nest like a stack; a cut has alpha >= beta; nothing skipped is
    visited; every node of the drawing hangs from the root; the PV starts at it."""
    open_nodes, skipped, seen = [], set(), set()
    children: dict[int, list[int]] = {}
    for node, parent in enumerate(trace.parents[1:], 1):
        children.setdefault(parent, []).append(node)
    for what, node, value, alpha, beta, *_, extra in trace.steps:
        assert node not in skipped and node not in seen
        if what == "enter":
            open_nodes.append(node)
        elif what == "leave":
            assert open_nodes.pop() == node
            seen.add(node)
            assert alpha <= value <= beta or alpha >= beta
        elif what == "cut":
            assert open_nodes[-1] == node and alpha >= beta
            todo = children[node][extra:]
            while todo:
                skipped.add(todo[-1])
                todo.extend(children.get(todo.pop(), []))
        else:
            assert trace.parents[node] == open_nodes[-1]
            seen.add(node)
    assert open_nodes == [] and trace.pv[0] == 0
    assert all(trace.parents[b] == a for a, b in zip(trace.pv, trace.pv[1:]))


def test_tree_names_follow_the_parser() -> None:
    text = "{ (A,max), (AB, MIN),(A,MAX)} {(A,AB),(AB,3),(AB,-2)}"
    assert tree_names(text) == ["A", "AB"]
    trace = tree_trace(1, text, use_minimax=False)
    assert trace.labels == ["A", "AB", "3", "-2"] and trace.value == -2


@pytest.mark.parametrize("seed", range(6))
def test_recording_equals_the_search_on_random_trees(seed: int) -> None:
    rng = random.Random(seed)
    game = RandomTree(rng.randint(2, 4), rng.randint(1, 6), seed=seed)
    found = alphabeta(game, game.initial)
    trace = record(game, game.initial)
    assert (trace.value, trace.leaves, trace.nodes_visited) == (
        found.value, found.leaves, found.nodes)
    check_steps(trace)
    plain = record(game, game.initial, prune=False)
    assert plain.leaves == game.branching ** game.depth and plain.value == found.value


@pytest.mark.parametrize("sticks", [1, 2, 5, 10, 17, 30])
def test_nim_recording_equals_the_search_with_its_table(sticks: int) -> None:
    traces = nim_traces(sticks)
    found = alphabeta(Nim(sticks), (sticks, "MAX"),
                      table=TranspositionTable(2 * sticks + 1))
    first = traces[0]
    assert (first.value, first.nodes_visited, first.tt_hits) == (
        found.value, found.nodes, found.tt_hits)
    assert first.value == (-1 if sticks % 4 == 1 else 1)  # the mod-4 rule
    assert sum(step[0] == "table" for step in first.steps) <= first.tt_hits
    assert len(traces) == (2 if sticks <= 16 else 1)
    if sticks > 1:
        assert first.tt_hits == 0 or any(step[0] == "table" for step in first.steps)
    with pytest.raises(ValueError, match="at most 30 sticks"):
        nim_traces(31)


def test_tictactoe_recording_equals_the_search() -> None:
    game = TicTacToe()
    found = alphabeta(game, game.initial, table=TranspositionTable())
    trace = record(game, game.initial, table=TranspositionTable())
    assert (trace.value, trace.leaves, trace.nodes_visited, trace.tt_hits) == (
        found.value, found.leaves, found.nodes, found.tt_hits) == (0, 1083, 4826, 1749)


def big_tree(branching: int, depth: int, seed: int) -> str:
    """A text-format tree with ``branching ** depth`` leaves."""
    rng, kinds, edges = random.Random(seed), [], []
    level = ["N"]
    for d in range(depth):
        kinds += [f"({name},{'MAX' if d % 2 == 0 else 'MIN'})" for name in level]
        below = []
        for name in level:
            for k in range(branching):
                if d == depth - 1:
                    edges.append(f"({name},{rng.randint(-50, 50)})")
                else:
                    below.append(f"{name}x{k}")
                    edges.append(f"({name},{below[-1]})")
        level = below
    return "{" + ",".join(kinds) + "} {" + ",".join(edges) + "}"


def test_big_trees_show_their_top_levels() -> None:
    text = big_tree(4, 6, seed=3)  # 5,461 nodes
    trace = tree_trace(1, text, use_minimax=False)
    found = alphabeta(parse_tree(text).game, 0)
    assert trace.leaves == found.leaves and len(trace.parents) == 5461
    data = trace_data(trace)
    assert data["capped"] == {"depth": 5, "nodes": 1365}
    assert len(data["parents"]) == 1365 <= DRAWN_LIMIT
    assert data["steps"][-1][-1] == found.leaves  # the counter counts hidden leaves too
    assert data["below"][0] == 0 and sum(data["below"]) == 5461 - 1365
    small = trace_data(tree_trace(1, big_tree(3, 4, seed=1), use_minimax=False))
    assert small["capped"] is None and len(small["parents"]) == 121


def test_a_trace_that_does_not_hang_together_is_refused() -> None:
    trace = tree_trace(1, trees(FILES[0])[0], use_minimax=False)
    trace.parents[3] = 7
    with pytest.raises(PageError, match="parent an earlier node"):
        trace_data(trace)
    trace = tree_trace(1, trees(FILES[0])[0], use_minimax=False)
    trace.leaves += 1
    with pytest.raises(PageError, match="the answer says"):
        trace_data(trace)


def run_games(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parallel_backtrack.games", *argv],
                          capture_output=True, text=True, timeout=100)


@pytest.mark.timeout(200)
@pytest.mark.parametrize("options", [(), ("--minimax",)])
def test_alphabeta_html_prints_the_text_answer(tmp_path: Path, options: tuple[str, ...]) -> None:
    name = "set6_nesdoly_alphabeta.txt"
    plain = run_games("alphabeta", str(DATA / name), *options)
    page = tmp_path / "t.html"
    done = run_games("alphabeta", str(DATA / name), *options, "--html", str(page))
    assert done.returncode == plain.returncode == 0, done.stderr
    assert done.stdout == plain.stdout
    assert re.fullmatch(r"wrote .*t\.html \(\d+ KB\): 6 graphs\n", done.stderr)
    text = page.read_text()
    assert 10_000 < len(text.encode()) < 2_000_000
    assert not re.search(r"(src|href)=[\"']?(https?:)?//", text)  # nothing from elsewhere
    data = json.loads(re.search(r'id="data-gametree">(.*?)</script>', text)[1])
    printed = ANSWER.findall(done.stdout)
    assert [(str(g["value"]), str(g["leaves"])) for g in data["graphs"]] == [
        (score, leaves) for _, score, leaves in printed]


@pytest.mark.timeout(200)
def test_malformed_tree_writes_no_page(tmp_path: Path) -> None:
    bad, page = tmp_path / "bad.txt", tmp_path / "t.html"
    bad.write_text(trees(FILES[0])[0] + "\n{(A,MAX)} {(A,B)}\n")
    done = run_games("alphabeta", str(bad), "--html", str(page))
    text = run_games("alphabeta", str(bad))
    assert done.returncode == text.returncode == 1
    assert done.stderr == text.stderr and len(done.stderr.splitlines()) == 1
    assert "graph 2" in done.stderr and not page.exists()
    assert done.stdout == text.stdout
    refused = run_games("alphabeta", str(DATA / FILES[0]), "--html", str(tmp_path / "no" / "t"))
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1
    assert "does not exist" in refused.stderr and refused.stdout == ""


@pytest.mark.timeout(200)
def test_nim_html(tmp_path: Path) -> None:
    page = tmp_path / "n.html"
    done = run_games("nim", "--sticks", "10", "--html", str(page))
    assert done.returncode == 0 and "value +1" in done.stdout and page.exists()
    text = run_games("nim", "--sticks", "10").stdout
    assert done.stdout.splitlines()[0] == text.splitlines()[0]  # the timings differ
    assert re.fullmatch(r"wrote .*n\.html \(\d+ KB\): 25 nodes with the table\n", done.stderr)
    one = run_games("nim", "--sticks", "1", "--html", str(page))
    assert one.returncode == 0 and "1 node with the table" in one.stderr
    assert "<title>Nim with 1 stick:" in page.read_text()
    assert "1 node visited, 0 table hits." in page_data(page, "gametree")["graphs"][0]["notes"][0]
    too_many = run_games("nim", "--sticks", "31", "--html", str(tmp_path / "m.html"))
    assert too_many.returncode == 2 and too_many.stdout == ""
    assert len(too_many.stderr.splitlines()) == 1 and "at most 30" in too_many.stderr
    assert not (tmp_path / "m.html").exists()


def page_data(page: Path, key: str) -> dict:
    return json.loads(re.search(rf'id="data-{key}">(.*?)</script>', page.read_text())[1])


def tictactoe_values() -> dict[tuple[int, int], int]:
    """Negamax over every tic-tac-toe position, memoised (independent of the games
    package): the value for the player to move."""
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
             (2, 4, 6)]
    memo: dict[tuple[int, int], int] = {}

    def won(mask: int) -> bool:
        return any(all(mask >> s & 1 for s in line) for line in lines)

    def value(mine: int, theirs: int) -> int:
        if (mine, theirs) not in memo:
            free = [s for s in range(9) if not (mine | theirs) >> s & 1]
            memo[(mine, theirs)] = -1 if won(theirs) else 0 if not free else max(
                -value(theirs, mine | 1 << s) for s in free)
        return memo[(mine, theirs)]

    value(0, 0)
    return memo


@pytest.mark.timeout(200)
def test_tictactoe_html(tmp_path: Path) -> None:
    page = tmp_path / "t.html"
    done = run_games("tictactoe", "--html", str(page), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["value"] == 0
    graph = page_data(page, "gametree")["graphs"][0]
    assert (graph["value"], graph["leaves"], graph["visited"]) == (0, 1083, 4826)
    assert graph["capped"] is not None and len(graph["parents"]) <= DRAWN_LIMIT
    values = tictactoe_values()
    expected = [-values[(0, 1 << square)] for square in range(9)]
    shown = [int(cell.split()[0]) for row in page_data(page, "ttt")["rows"] for cell in row[1:]]
    assert shown == expected and values[(0, 0)] == graph["value"]


@pytest.mark.timeout(200)
def test_connect4_html(tmp_path: Path) -> None:
    from parallel_backtrack.games.connect4.board import Board

    moves, page = "173213575225514156634", tmp_path / "c.html"
    done = run_games("connect4", moves, "--html", str(page), "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    data = page_data(page, "c4")
    line = "".join(str(c + 1) for c in data["columns"])
    assert line.startswith(moves) and data["given"] == len(moves)
    scores = data["scores"][len(moves):]
    assert scores[0] == answer["score"] == 2
    assert all(a == -b for a, b in zip(scores[:-1], scores[1:-1]))  # best play: the same
    board = Board()
    position = board.parse(line)  # every move of the line can be played
    assert board.last_mover_won(position) and scores[-1] is None
    assert (len(line) - len(moves)) % 2 == 1  # the player to move at the position won
    rows = page_data(page, "c4moves")["rows"]
    assert {int(r[0]): int(r[1]) for r in rows} == {int(c): v for c, v in
                                                    answer["move_scores"].items()}
    refused = run_games("connect4", "--file", str(tmp_path / "x"), "--html", str(page))
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1


@pytest.mark.timeout(200)
def test_a_page_too_big_is_refused_in_one_line(tmp_path: Path) -> None:
    many, page = tmp_path / "many.txt", tmp_path / "t.html"
    many.write_text("".join(big_tree(6, 4, seed=k) + "\n" for k in range(60)))
    done = run_games("alphabeta", str(many), "--html", str(page))
    assert done.returncode == 2 and not page.exists()
    assert done.stdout == run_games("alphabeta", str(many)).stdout  # the answers still print
    assert len(done.stderr.splitlines()) == 1 and "put fewer trees in the file" in done.stderr
