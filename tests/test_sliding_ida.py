"""IDA* (the compiled pass and its driver): optimal lengths, Korf's exact node counts."""

from __future__ import annotations

from pathlib import Path

import pytest
from sliding_check import CACHE, cs61b_expected, ida_iterations, manhattan, read_cs61b, solves

from parallel_backtrack.engine.checks import UnknownNameError
from parallel_backtrack.sliding import Board, UnsolvableError
from parallel_backtrack.sliding.ida import solve, solve_parallel

assert CACHE  # pattern databases go to a test cache, never the user's

# Korf's instances with under about 3 million nodes (Manhattan): quick enough for CI.
FAST_KORF = (79, 12, 42, 55, 97, 19, 94, 47, 93, 9, 74, 48, 30, 86, 31, 85)


def korf_rows(data_dir: Path) -> dict[int, list[int]]:
    rows = {}
    for line in (data_dir / "search" / "korf100.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            numbers = [int(w) for w in line.split()]
            rows[numbers[0]] = numbers
    return rows


def heuristic_for_test(n: int) -> str:
    return {3: "pdb-exact", 4: "pdb-555"}.get(n, "linear")


def test_all_cs61b_files(data_dir: Path) -> None:
    files = sorted((data_dir / "search" / "cs61b_puzzles").glob("puzzle*.txt"))
    assert len(files) == 141
    for path in files:
        tiles = read_cs61b(path)
        result = solve(Board(tuple(tiles)), heuristic_for_test(round(len(tiles) ** 0.5)))
        assert result.moves is not None and len(result.moves) == cs61b_expected(path), path
        assert solves(tiles, result.moves)


@pytest.mark.parametrize("heuristic", ["manhattan", "linear", "pdb-exact", "hamming"])
def test_8puzzle_every_distance(data_dir: Path, heuristic: str) -> None:
    seen = set()
    for line in (data_dir / "search" / "8puzzle_graded.txt").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        numbers = [int(w) for w in line.split()]
        tiles, expected = numbers[:9], numbers[9]
        if heuristic == "hamming" and expected > 24:
            continue
        result = solve(Board(tuple(tiles)), heuristic)
        assert result.moves is not None and len(result.moves) == expected
        assert solves(tiles, result.moves)
        seen.add(expected)
    assert seen >= set(range(25))


@pytest.mark.parametrize("number", FAST_KORF)
def test_korf_manhattan_node_counts(data_dir: Path, number: int) -> None:
    row = korf_rows(data_dir)[number]
    tiles, length, nodes = row[1:17], row[17], row[20]
    result = solve(Board(tuple(tiles), "blank-first"), "manhattan")
    assert result.moves is not None and len(result.moves) == length
    assert result.nodes == nodes  # Korf's rule: children generated + 1 (the file's header)
    assert solves(tiles, result.moves, "blank-first")


@pytest.mark.slow
def test_korf_all_manhattan_counts(data_dir: Path) -> None:
    for row in korf_rows(data_dir).values():
        if row[20] > 10**9:
            continue
        result = solve(Board(tuple(row[1:17]), "blank-first"), "manhattan")
        assert result.nodes == row[20] and len(result.moves or "") == row[17]


@pytest.mark.parametrize("heuristic", ["linear", "pdb-555"])
def test_korf_lengths_with_stronger_heuristics(data_dir: Path, heuristic: str) -> None:
    rows = korf_rows(data_dir)
    for number in FAST_KORF[:6]:
        tiles, length = rows[number][1:17], rows[number][17]
        result = solve(Board(tuple(tiles), "blank-first"), heuristic)
        assert result.moves is not None and len(result.moves) == length
        assert solves(tiles, result.moves, "blank-first")


def test_blank_last_boards_use_their_own_moves() -> None:
    tiles = (1, 2, 3, 4, 5, 6, 7, 0, 8)
    result = solve(Board(tiles))
    assert result.moves == "R" and result.nodes >= 2
    assert solve(Board((1, 2, 3, 4, 5, 6, 7, 8, 0))).moves == ""


def test_complete_last_iteration_counts_more() -> None:
    board = Board((8, 6, 7, 2, 5, 4, 3, 0, 1))
    first, whole = solve(board), solve(board, complete_last=True)
    assert len(first.moves or "") == len(whole.moves or "") == 31
    assert whole.nodes > first.nodes


# A 31-move board, a 14-move one and a 2-move one (8-puzzle, blank last).
ITERATION_BOARDS = [(8, 6, 7, 2, 5, 4, 3, 0, 1), (8, 1, 3, 4, 0, 2, 7, 6, 5),
                    (1, 2, 3, 4, 5, 6, 0, 7, 8)]


@pytest.mark.parametrize("tiles", ITERATION_BOARDS)
def test_each_iteration_counts_what_an_independent_ida_counts(tiles: tuple[int, ...]) -> None:
    result = solve(Board(tiles), "manhattan", complete_last=True)
    assert list(result.per_iteration) == ida_iterations(tiles)
    assert len(result.per_iteration) == result.iterations
    assert sum(nodes for _, nodes in result.per_iteration) + 1 == result.nodes
    stopped = solve(Board(tiles), "manhattan")  # the last iteration ends at its goal
    assert stopped.per_iteration[:-1] == result.per_iteration[:-1]
    assert stopped.per_iteration[-1][0] == result.per_iteration[-1][0]
    assert sum(nodes for _, nodes in stopped.per_iteration) + 1 == stopped.nodes


def test_per_iteration_of_a_board_at_the_goal_and_of_a_stopped_search() -> None:
    assert solve(Board((1, 2, 3, 4, 5, 6, 7, 8, 0))).per_iteration == ()
    tiles = (0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1)  # 80 moves
    result = solve(Board(tiles), "manhattan", max_nodes=10**5, chunk=1 << 12)
    assert result.stop_reason == "max-nodes" and result.per_iteration
    assert sum(nodes for _, nodes in result.per_iteration) + 1 == result.nodes
    bounds = [bound for bound, _ in result.per_iteration]
    assert bounds == sorted(set(bounds)) and bounds[0] == manhattan(tiles)


def test_limits_stop_the_search() -> None:
    board = Board((0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1))  # 80 moves
    result = solve(board, "manhattan", max_nodes=10**6, chunk=1 << 16)
    assert result.moves is None and result.stop_reason == "max-nodes"
    assert 10**6 <= result.nodes < 2 * 10**6
    with pytest.raises(UnsolvableError):
        solve(board.twin())


BOARD = Board((8, 1, 3, 4, 0, 2, 7, 6, 5))


@pytest.mark.parametrize("options, error, message", [
    # chunk=0 or -1 hung (the pass ran no node a call), 1.5 ran 15 times slower
    ({"chunk": 0}, ValueError, "chunk must be an integer >= 1, got 0"),
    ({"chunk": -1}, ValueError, "chunk must be an integer >= 1, got -1"),
    ({"chunk": 1.5}, TypeError, "chunk must be an integer >= 1, got 1.5"),
    ({"chunk": True}, TypeError, "chunk must be an integer >= 1, got True"),
    ({"chunk": 0, "workers": 2, "backend": "threads"}, ValueError,
     "chunk must be an integer >= 1, got 0"),
    # a timeout of 0 or less stopped at once ('timeout'); 'x' failed in the engine
    ({"timeout": 0}, ValueError, "timeout must be a positive number of seconds or None, got 0"),
    ({"timeout": -1}, ValueError, "timeout must be a positive number of seconds or None, got -1"),
    ({"timeout": float("nan")}, ValueError, "timeout must be a positive number .* got nan"),
    ({"timeout": float("inf")}, ValueError, "timeout must be a positive number .* got inf"),
    ({"timeout": "x"}, TypeError, "timeout must be a positive number of seconds or None, got 'x'"),
    ({"timeout": True}, TypeError, "timeout must be a positive number .* got True"),
    ({"deadline": "x"}, TypeError, "deadline must be a number of seconds or None, got 'x'"),
    ({"deadline": float("nan")}, ValueError, "deadline must be a number .* got nan"),
    ({"max_nodes": 1.5}, TypeError, "max_nodes must be an integer >= 1, got 1.5"),
    ({"max_nodes": True}, TypeError, "max_nodes must be an integer >= 1, got True"),
    ({"workers": 0}, ValueError, r"workers must be a positive integer or -1 \(all cores\), got 0"),
    ({"workers": 1.5}, TypeError, r"workers must be a positive integer or -1 .* got 1.5"),
    ({"per_worker": 0}, ValueError, "per_worker must be an integer >= 1, got 0"),
    ({"parent_nodes": -1}, ValueError, "parent_nodes must be an integer >= 0, got -1"),
    ({"parent_nodes": "x"}, TypeError, "parent_nodes must be an integer >= 0, got 'x'"),
    ({"order": "sze"}, UnknownNameError, "unknown task order 'sze'.*did you mean 'size'"),
    ({"backend": "lokky"}, UnknownNameError, "unknown backend 'lokky'.*did you mean 'loky'"),
    ({"stop": 5}, TypeError, "stop must be a function or None, got 5"),
    ({"on_iteration": 5}, TypeError, "on_iteration must be a function or None, got 5"),
    ({"heuristic": 5}, TypeError, r"heuristic must be a name \(str\), got 5"),
    ({"heuristic": "lineer"}, UnknownNameError, "unknown heuristic 'lineer'.*did you mean"),
    ({"bogus": 1}, TypeError, r"^solve\(\) got an unexpected keyword argument 'bogus'"),
])
def test_bad_arguments_are_refused_before_any_work(options: dict[str, object],
                                                   error: type[Exception],
                                                   message: str) -> None:
    with pytest.raises(error, match=message):
        solve(BOARD, **options)  # type: ignore[arg-type]


def test_solve_takes_a_board_and_solve_parallel_names_itself() -> None:
    with pytest.raises(TypeError, match=r"board must be a Board, e.g. Board\(\(8, 1, 3, "
                                        r"4, 0, 2, 7, 6, 5\)\), got tuple \(8, 1, 3"):
        solve((8, 1, 3, 4, 0, 2, 7, 6, 5))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="board must be a Board"):
        solve_parallel([8, 1, 3, 4, 0, 2, 7, 6, 5])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^solve_parallel\(\) got an unexpected keyword "
                                        "argument 'bogus'; expected some of "):
        solve_parallel(BOARD, bogus=1)
    with pytest.raises(ValueError, match="chunk must be an integer >= 1, got 0"):
        solve_parallel(BOARD, chunk=0, backend="threads")


def test_valid_tuning_and_a_past_deadline() -> None:
    plain = solve(BOARD)
    tuned = solve(BOARD, timeout=60, max_nodes=10**6, chunk=1 << 10, per_worker=4,
                  parent_nodes=0, order="size")
    assert (tuned.moves, tuned.nodes) == (plain.moves, plain.nodes) == ("RDLLUURDLDRURD", 101)
    late = solve(BOARD, deadline=0.0)  # a perf_counter value long gone: stops at once
    assert late.stop_reason == "timeout" and late.moves is None


@pytest.mark.slow
@pytest.mark.ci
def test_rosetta_52(data_dir: Path) -> None:
    line = next(line for line in (data_dir / "search" / "15puzzle_misc.txt").read_text()
                .splitlines() if line and not line.startswith("#"))
    tiles = [int(w) for w in line.split()[:16]]
    result = solve(Board(tuple(tiles)), "pdb-555")
    assert len(result.moves or "") == int(line.split()[16]) == 52
    assert solves(tiles, result.moves or "")
