"""The traces and data behind the pages, checked without a browser."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from viz_helpers import (
    GECODE16,
    HARDEST,
    cells_of,
    queens_boards,
    queens_ok,
    random_path,
    sudoku_ok,
    sudoku_states,
)

from parallel_backtrack.engine import SearchReport, count, sequential_count
from parallel_backtrack.engine.space import sequential_solutions
from parallel_backtrack.nqueens.board import ImmutableQueenLocations
from parallel_backtrack.nqueens.orders import FewestCandidatesRow, FirstAvailableRow
from parallel_backtrack.nqueens.space import QueensSpace
from parallel_backtrack.nqueens.trace import record_queens
from parallel_backtrack.sudoku.formats import parse_one
from parallel_backtrack.sudoku.grid import grid_for
from parallel_backtrack.sudoku.propagate import PROPAGATORS as PROPAGATOR_FUNCTIONS
from parallel_backtrack.sudoku.propagate import RULES
from parallel_backtrack.sudoku.search import solve
from parallel_backtrack.sudoku.trace import USED, record_sudoku
from parallel_backtrack.viz import PageError, check_path, check_target, timeline_data
from parallel_backtrack.viz.page import MAX_PAGE_BYTES, Section, json_block, render_page, write_page
from parallel_backtrack.viz.timeline import timeline_section

ORDERS = [FirstAvailableRow(), FewestCandidatesRow()]
PROPAGATORS = ["none", "peers", "units", "twins", "locked", "matching"]


@pytest.mark.parametrize("order", ORDERS, ids=lambda o: o.name)
@pytest.mark.parametrize("n", range(1, 8))
def test_queens_trace_walks_the_reference_tree(n: int, order) -> None:
    trace = record_queens(n, order, limit=10**6)
    space = QueensSpace(ImmutableQueenLocations(n), order, kernel="reference")
    tally = sequential_count(space)
    assert not trace.capped
    assert (trace.nodes, trace.solutions) == (tally.nodes, tally.count)
    data = trace.as_data()
    boards = queens_boards(data)
    found = [boards[i] for i, kind in enumerate(data["kinds"]) if kind == "s"]
    expected = [list(s.queens) for s in sequential_solutions(space)]
    assert found == expected and all(queens_ok(cols) for cols in found)
    assert boards[-1] == [-1] * n  # every queen taken off again at the end


def test_queens_trace_candidates_are_the_free_columns() -> None:
    data = record_queens(6, limit=400).as_data()
    for board, cands in zip(queens_boards(data), data["cands"]):
        for row in range(6):
            free = [c for c in range(6) if board[row] < 0 and all(
                q < 0 or (q != c and abs(q - c) != abs(r - row)) for r, q in enumerate(board))]
            assert cands[row] == sum(1 << c for c in free)


def test_queens_trace_capped() -> None:
    trace = record_queens(8, limit=100)
    assert trace.capped and len(trace.kinds) == 100
    with pytest.raises(ValueError, match=r"n must be an integer in 1\.\.16, got 17"):
        record_queens(17)


@pytest.mark.parametrize("n", [8.0, "8", True, None])
def test_queens_trace_refuses_a_board_size_that_is_not_an_integer(n: object) -> None:
    with pytest.raises(TypeError, match=f"n must be an integer in 1\\.\\.16, got {n!r}"):
        record_queens(n)  # type: ignore[arg-type]


@pytest.mark.parametrize("n", [0, -1, 17])
def test_queens_trace_refuses_a_board_size_out_of_range(n: int) -> None:
    with pytest.raises(ValueError, match=f"n must be an integer in 1\\.\\.16, got {n}") as caught:
        record_queens(n)
    assert not isinstance(caught.value, TypeError)


def test_queens_trace_checks_its_step_limit() -> None:
    with pytest.raises(TypeError, match="limit must be an integer >= 1, got 2.5"):
        record_queens(8, limit=2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="limit must be an integer >= 1, got 0"):
        record_queens(8, limit=0)


@pytest.mark.parametrize("order", ["fewest", "row-major"])
@pytest.mark.parametrize("propagation", PROPAGATORS)
def test_sudoku_trace_rules_agree_and_end_solved(propagation: str, order: str) -> None:
    trace = record_sudoku(HARDEST, propagation, order, limit=3000)
    assert trace.mismatches == 0
    data = json.loads(json.dumps(trace.as_data()))
    states = sudoku_states(data)
    if trace.capped:
        assert len(states) == 3000
        return
    assert data["kinds"][-1] == "solved"
    final = cells_of(states[-1])
    givens = list(parse_one(HARDEST))
    assert sudoku_ok(givens, final)
    assert final == list(solve(HARDEST, order=order).cells)
    assert final == trace.final


@pytest.mark.parametrize("propagation", PROPAGATORS)
def test_the_propagators_observer_hears_every_removal_and_changes_nothing(
        propagation: str) -> None:
    """With an observer, a propagator makes the same masks and verdict as without, and
    the removals it reports are exactly the candidates that went, each once, each by a
    rule the propagation uses."""
    propagate = PROPAGATOR_FUNCTIONS[propagation]
    for puzzle in (HARDEST, GECODE16):
        cells = list(parse_one(puzzle))
        grid = grid_for(round(len(cells) ** 0.25))
        start = [grid.full if not v else 1 << (v - 1) for v in cells]
        filled = [s for s, v in enumerate(cells) if v]
        plain, watched = list(start), list(start)
        heard: list[tuple[int, int, str]] = []
        alive = propagate(plain, list(filled), grid, None)
        assert propagate(watched, list(filled), grid, None,
                         lambda s, v, rule, heard=heard: heard.append((s, v, rule))) == alive
        assert watched == plain
        gone = {(s, v) for s, (a, b) in enumerate(zip(start, plain))
                for v in range(1, grid.size + 1) if a >> (v - 1) & 1 and not b >> (v - 1) & 1}
        assert len(heard) == len({(s, v) for s, v, _ in heard})
        assert {(s, v) for s, v, _ in heard} == gone
        assert {rule for _, _, rule in heard} <= set(USED[propagation]) & set(RULES)
        assert (propagation == "none") == (heard == [])


def test_sudoku_trace_names_the_rules() -> None:
    data = record_sudoku(HARDEST, "twins", "row-major").as_data()
    rules = {data["rules"][int(text[k + 3])] for text in data["elims"]
             for k in range(0, len(text), 4)}
    assert {"assigned", "peer elimination", "hidden single", "naked twins"} <= rules
    assert "dead" in data["kinds"] and "back" in data["kinds"]
    locked = record_sudoku(HARDEST, "locked", "fewest").as_data()
    assert any(t[k + 3] == "4" for t in locked["elims"] for k in range(0, len(t), 4))


def test_sudoku_trace_16x16_and_limits() -> None:
    trace = record_sudoku(GECODE16, "units", "fewest")
    final = cells_of(sudoku_states(trace.as_data())[-1])
    assert trace.kinds[-1] == "solved" and sudoku_ok(list(parse_one(GECODE16)), final)
    with pytest.raises(ValueError, match="up to 25x25"):
        record_sudoku([0] * 36**2)


def test_sliding_path_checks() -> None:
    path = random_path(3, 30, seed=4)
    assert len(check_path(path, 3)) == 30
    with pytest.raises(PageError, match="not one blank move"):
        check_path([path[0], path[2]] if path[0] != path[2] else [path[0], path[0]], 3)
    with pytest.raises(PageError, match="not a 3x3 board"):
        check_path([(1, 2, 3)], 3)
    with pytest.raises(PageError, match="side must be"):
        check_path(path, 26)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 9), min_size=0, max_size=10), max_size=4),
       st.integers(-1, 5))
def test_sliding_path_fuzz(boards: list[list[int]], size: int) -> None:
    try:
        blanks = check_path([tuple(b) for b in boards], size)
    except PageError as error:
        assert str(error) and "\n" not in str(error)
    else:
        assert len(blanks) == len(boards) - 1


def test_check_target(tmp_path) -> None:
    assert check_target(str(tmp_path / "ok.html")) is None
    assert "does not exist" in check_target(str(tmp_path / "no" / "x.html"))
    assert "is a directory" in check_target(str(tmp_path))
    assert "cannot write it" in check_target(str(tmp_path / ("x" * 300)))
    assert "NUL" in check_target(str(tmp_path / "a\0b"))
    assert not (tmp_path / "ok.html").exists()  # checking creates nothing


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters="/"), max_size=300))
def test_check_target_fuzz(tmp_path_factory, name: str) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    problem = check_target(str(folder / name) if name else "")
    assert problem is None or (problem.startswith("--html") and "\n" not in problem
                               and len(problem) < 300)
    assert [p.name for p in folder.iterdir()] == []  # nothing left behind


def test_page_is_self_contained_and_bounded(tmp_path) -> None:
    section = Section("S", "<div></div>", "k", {"text": "</script><script>alert(1)"}, ())
    text = render_page("T <&>", [section])
    assert "</script><script>alert" not in text and "T &lt;&amp;&gt;" in text
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
    assert json_block("k", "</b>").count("</") == 1
    with pytest.raises(PageError, match="above the"):
        write_page(str(tmp_path / "big.html"), "x" * (MAX_PAGE_BYTES + 1))


def test_timeline_data_from_a_report() -> None:
    report = SearchReport("count", workers=3, backend="loky", seconds=1.0)
    t0 = report.clock_started
    report.record_task(0.1, "parent", 10, started_at=t0, subtree="0.0")
    report.record_task(0.4, "pid1", 100, started_at=t0 + 0.1, subtree="1.0")
    report.record_task(0.3, "pid1", 50, 1, started_at=t0 + 0.5, subtree="1.0.1")
    data = timeline_data(report)
    assert data["lanes"] == ["parent", "pid1", "worker 2 (no task)", "worker 3 (no task)"]
    assert [b[0] for b in data["bars"]] == [0, 1, 1] and data["measured"]
    assert [b[1] for b in data["bars"]] == pytest.approx([0.0, 0.1, 0.5])
    assert data["bars"][1][5] == [2]  # task 1 handed back what task 2 continued
    old = SearchReport("count", workers=1, seconds=1.0, task_seconds=[0.2, 0.3],
                       task_workers=["a", "a"], task_nodes=[1, 2], task_parents=[-1, -1],
                       tasks=2)
    packed = timeline_data(old)
    assert not packed["measured"] and [b[1] for b in packed["bars"]] == [0.0, 0.2]


def test_a_stopped_run_says_its_count_is_a_lower_bound() -> None:
    report = SearchReport("count", workers=2, count=1234, seconds=1.0, complete=False,
                          stop_reason="timeout")
    notes = timeline_section(report).notes
    assert len(notes) == 1 and "stopped before its search ended (timeout)" in notes[0]
    assert "count of 1,234 is a lower bound" in notes[0]
    report.complete, report.stop_reason = True, None
    assert timeline_section(report).notes == []
    report.record_task(0.1, "parent", 10, started_at=report.clock_started)
    assert "finished the run before any task reached a worker" in (
        timeline_section(report).notes[0])


def test_timeline_of_a_real_run() -> None:
    space = QueensSpace(ImmutableQueenLocations(9), kernel="reference")
    report = count(space, workers=2, backend="threads", budget=2000)
    data = timeline_data(report)
    assert report.count == 352 and len(data["bars"]) == report.tasks
    assert data["measured"]  # every task's start came back from where it ran
    assert len(data["lanes"]) == 1 + report.workers
    assert all(0 <= b[1] and b[1] + b[2] <= report.seconds + 0.05 for b in data["bars"])
    assert len(report.task_subtrees) == report.tasks and all(report.task_subtrees)


def test_queens_trace_keeps_the_page_below_2_mb(tmp_path) -> None:
    from parallel_backtrack.viz.queens_page import queens_section, write_queens_page

    trace = record_queens(12, limit=10**6)
    assert trace.capped and len(trace.kinds) < 10**6
    assert write_queens_page(str(tmp_path / "q.html"), trace.as_data()) < MAX_PAGE_BYTES
    note = queens_section(trace.as_data()).notes[0]  # it says which cap stopped it
    assert note.startswith(f"Trace capped at {len(trace.kinds):,} steps (the page's 2 MB "
                           "budget, short of --trace-limit 1,000,000)")
    short = record_queens(12, limit=50).as_data()
    assert queens_section(short).notes[0].startswith("Trace capped at 50 steps "
                                                     "(--trace-limit 50): ")


@pytest.mark.parametrize("propagation", ["peers", "units"])
def test_sudoku_trace_of_an_unsolvable_puzzle(propagation: str) -> None:
    bad = HARDEST[:2] + "1" + HARDEST[3:]  # legal givens, no solution
    trace = record_sudoku(bad, propagation, "fewest", limit=10**5)
    assert solve(bad) is None and not trace.capped and trace.mismatches == 0
    assert trace.kinds[-1] == "unsolvable" and "solved" not in trace.kinds
    states = sudoku_states(trace.as_data())
    assert states[-1] == states[1]  # back where the givens' propagation left it


def test_connect4_moves_checked() -> None:
    from parallel_backtrack.viz.connect4_page import play

    assert play("4453637", 7, 6) == ([3, 3, 4, 2, 5, 2, 6], [[3, 0], [4, 0], [5, 0], [6, 0]], 6)
    assert play("1212121", 7, 6)[1] == [[0, 0], [0, 1], [0, 2], [0, 3]]  # a column four
    assert play("", 7, 6) == ([], [], -1)
    with pytest.raises(PageError, match="column 1 is full"):
        play("1111111", 7, 6)
    with pytest.raises(PageError, match="expected a column 1..7"):
        play("448", 7, 6)
    with pytest.raises(PageError, match="1 more moves follow"):
        play("12121212", 7, 6)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="0123456789x", max_size=45))
def test_connect4_moves_fuzz(moves: str) -> None:
    from parallel_backtrack.viz.connect4_page import play

    try:
        columns, four, won = play(moves, 7, 6)
    except PageError as error:
        assert "\n" not in str(error)
    else:
        assert len(columns) == len(moves) and (won == -1) == (four == [])
