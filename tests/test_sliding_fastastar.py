"""A*'s fast path for boards: its incremental heuristics against the kernel's, admissible
and consistent; its answers optimal (against BFS distances and IDA*), replayed move by move."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from sliding_check import (
    CACHE,
    cs61b_expected,
    exact_distances,
    goal_of,
    path_is_walk,
    read_cs61b,
    replay,
)

from parallel_backtrack.sliding import Board, NodeLimitError, Solver, fastastar
from parallel_backtrack.sliding import __main__ as cli
from parallel_backtrack.sliding.heuristics import resolve, tables_for, to_frame
from parallel_backtrack.sliding.ida import Pass, solve

assert CACHE
SCORED = ["hamming", "manhattan", "linear", "pdb-555"]


def walk(n: int, goal: str, steps: int, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """The boards of a random walk of the blank from the goal (independent moves)."""
    tiles, seen = goal_of(n * n, goal), []
    for _ in range(steps):
        try:
            tiles = replay(tiles, rng.choice("UDLR"))
        except ValueError:
            continue
        seen.append(tuple(tiles))
    return tuple(seen)


def kernel_h(name: str, tiles: tuple[int, ...], goal: str) -> int:
    """The IDA* kernel's value of the same heuristic (its own code, blank-first frame)."""
    board = Board(tiles, goal)
    return int(Pass(tables_for(board.size(), name), to_frame(board)).h0)


@pytest.mark.parametrize("name", SCORED)
@pytest.mark.parametrize("goal", ["blank-last", "blank-first"])
def test_incremental_equals_full_and_kernel(name: str, goal: str) -> None:
    rng = random.Random(7)
    for n in (3, 4, 5) if name != "pdb-555" else (4,):
        states = walk(n, goal, 300, rng)
        scorer = fastastar.scorer_for(n, goal, name)
        h = scorer.full(bytes(states[0]))
        for before, after in zip(states, states[1:]):
            scorer.full(bytes(before))  # the parent is the one expanded
            blank, other = before.index(0), after.index(0)
            h_after = scorer.child(h, bytes(before), bytes(after), before[other], blank, other)
            assert h_after == scorer.full(bytes(after)) == kernel_h(name, after, goal)
            # consistent (a first goal popped is optimal without reopening); the pattern
            # databases are only admissible, and the search reopens states for them
            assert abs(h_after - h) <= 1 or name == "pdb-555"
            h = h_after


@pytest.fixture(scope="module")
def distances() -> dict[tuple[int, ...], int]:
    """Every 8-puzzle state's distance from the blank-last goal: a plain BFS."""
    return exact_distances("blank-last")


def test_linear_admissible_on_8puzzle_sample(distances: dict[tuple[int, ...], int]) -> None:
    scorer = fastastar.scorer_for(3, "blank-last", "linear")
    states = random.Random(3).sample(sorted(distances), 20000)
    assert all(scorer.full(bytes(s)) <= distances[s] for s in states)
    hard = [s for s, d in distances.items() if d == 31]
    assert len(hard) == 2 and all(scorer.full(bytes(s)) <= 31 for s in hard)


@pytest.mark.parametrize("name", SCORED[:3])
def test_graded_8puzzle_every_distance(data_dir: Path, name: str) -> None:
    lines = [line.split() for line in (data_dir / "search" / "8puzzle_graded.txt")
             .read_text().splitlines() if line and not line.startswith("#")]
    deepest = 24 if name == "hamming" else 31
    for row in lines:
        tiles, expected = tuple(map(int, row[:9])), int(row[9])
        if expected > deepest:
            continue
        solver = Solver(Board(tiles), heuristic=name)
        assert solver.moves() == expected and solver.heuristic == name
        assert path_is_walk([b.tiles for b in solver.solution()])


@pytest.mark.parametrize("goal", ["blank-last", "blank-first"])
def test_15puzzle_walks_match_ida(goal: str) -> None:
    rng = random.Random(16)
    for _ in range(6):
        tiles = walk(4, goal, rng.randrange(30, 90), rng)[-1]
        ida = solve(Board(tiles, goal), "manhattan")  # the compiled IDA*: other code
        for name in ("linear", "pdb-555"):
            solver = Solver(Board(tiles, goal), heuristic=name)
            assert ida.moves is not None and solver.moves() == len(ida.moves)
            assert path_is_walk([b.tiles for b in solver.solution()], goal)


def test_cs61b_files_but_the_hardest_one(data_dir: Path) -> None:
    # The default heuristic depends on the cache; the full set runs in the benchmark.
    files = sorted((data_dir / "search" / "cs61b_puzzles").glob("puzzle*.txt"))
    assert len(files) == 141
    for path in files:
        tiles, expected = read_cs61b(path), cs61b_expected(path)
        n = round(len(tiles) ** 0.5)
        if path.name == "puzzle4x4-50.txt":
            continue  # 710,000 nodes with 5-5-5: in the slow test below
        solver = Solver(Board(tuple(tiles)), heuristic="pdb-555" if n == 4 else "linear")
        assert solver.moves() == expected, path
        assert path_is_walk([b.tiles for b in solver.solution()]), path


@pytest.mark.slow
@pytest.mark.ci  # 8 s and 23 s on a loaded 2-core machine
@pytest.mark.parametrize("name", ["linear", "pdb-555"])
def test_every_cs61b_file(data_dir: Path, name: str) -> None:
    for path in sorted((data_dir / "search" / "cs61b_puzzles").glob("puzzle*.txt")):
        tiles = tuple(read_cs61b(path))
        solver = Solver(Board(tiles), heuristic=name if len(tiles) == 16 else "linear")
        assert solver.moves() == cs61b_expected(path), path
        assert path_is_walk([b.tiles for b in solver.solution()]), path


def test_same_length_as_generic_search(distances: dict[tuple[int, ...], int]) -> None:
    board = Board((8, 1, 3, 4, 0, 2, 7, 6, 5))
    fast = Solver(board, heuristic="manhattan")
    generic = Solver(board, heuristic=Board.manhattan, closed=True)
    assert fast.moves() == generic.moves() == distances[board.tiles]


def test_limits_and_names() -> None:
    board = Board((8, 6, 7, 2, 5, 4, 3, 0, 1))  # 31 moves
    with pytest.raises(NodeLimitError, match="enqueued 1,000 nodes"):
        Solver(board, heuristic="manhattan", max_nodes=1000)
    with pytest.raises(ValueError, match="unknown heuristic 'lineer'"):
        Solver(board, heuristic="lineer")
    with pytest.raises(ValueError, match="no fast A"):
        fastastar.scorer_for(3, "blank-last", "pdb-555")
    with pytest.raises(TypeError, match="needs a Board"):
        Solver("cat", heuristic="linear")  # type: ignore[arg-type]
    assert Solver(Board.solved(5)).moves() == 0
    assert resolve("auto", 3, "astar") == "linear"


def test_bucket_queue_order() -> None:
    queue = fastastar.BucketQueue()
    for f, g, state in [(5, 1, b"a"), (5, 3, b"b"), (7, 0, b"c"), (5, 3, b"d")]:
        queue.push(f, g, state)
    assert [queue.pop()[2] for _ in range(2)] == [b"d", b"b"]  # deepest first, then LIFO
    queue.push(4, 2, b"e")  # a smaller f (an inconsistent estimate): the queue steps back
    assert [queue.pop()[2] for _ in range(3)] == [b"e", b"a", b"c"]
    with pytest.raises(fastastar.Exhausted):
        queue.pop()


def test_cli_astar_takes_the_fast_path(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    calls = []
    search = fastastar.search
    monkeypatch.setattr(fastastar, "search", lambda *a, **k: calls.append(a) or search(*a, **k))
    path = tmp_path / "p.txt"
    path.write_text("3\n 1 2 3\n 4 0 5\n 7 8 6\n")
    assert cli.main([str(path), "--algorithm", "astar", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"heuristic": "linear"' in out and '"moves": 2' in out and len(calls) == 1
    assert cli.main([str(path), "--algorithm", "astar", "--heuristic", "lineer"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_default_never_builds_a_database(monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    monkeypatch.setenv("PARALLEL_BACKTRACK_CACHE", str(tmp_path))
    board = Board((5, 1, 2, 3, 9, 6, 7, 4, 13, 10, 11, 8, 0, 14, 15, 12))
    solver = Solver(board)
    assert solver.heuristic == "linear" and solver.moves() == 9
    assert path_is_walk([b.tiles for b in solver.solution()])
    assert not any(tmp_path.rglob("*.npy"))  # nothing built
