"""A*: CS61B's Solver shape on boards and on a second WorldState (a word ladder)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from pathlib import Path

import pytest
from sliding_check import path_is_walk

from parallel_backtrack.sliding import Board, NodeLimitError, Solver, UnsolvableError
from parallel_backtrack.sliding.heuristics import python_heuristic

WORDS = frozenset(
    line.strip() for line in (Path(__file__).parent / "data" / "ladder_words.txt").read_text()
    .splitlines() if line.strip() and not line.startswith("#"))


def edit_distance(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


class Word:
    """A word-ladder WorldState: one edit (change, insert, delete) per move."""

    def __init__(self, word: str, goal: str) -> None:
        self.word, self.goal = word, goal

    def estimated_distance_to_goal(self) -> int:
        return edit_distance(self.word, self.goal)

    def neighbors(self) -> Iterable[Word]:
        return [Word(w, self.goal) for w in sorted(WORDS) if edit_distance(w, self.word) == 1]

    def is_goal(self) -> bool:
        return self.word == self.goal

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Word) and other.word == self.word

    def __hash__(self) -> int:
        return hash(self.word)


def ladder_bfs(start: str, goal: str) -> int | None:
    """Shortest ladder length by plain BFS: the independent reference."""
    seen, queue = {start: 0}, deque([start])
    while queue:
        word = queue.popleft()
        if word == goal:
            return seen[word]
        for other in WORDS:
            if other not in seen and edit_distance(other, word) == 1:
                seen[other] = seen[word] + 1
                queue.append(other)
    return None


@pytest.mark.parametrize("start, goal", [("cat", "dog"), ("a", "both"), ("warm", "word"),
                                         ("hole", "note"), ("cats", "cat")])
@pytest.mark.parametrize("closed", [False, True])
def test_word_ladder(start: str, goal: str, closed: bool) -> None:
    solver = Solver(Word(start, goal), closed=closed)
    words = [state.word for state in solver.solution()]
    assert solver.moves() == ladder_bfs(start, goal) == len(words) - 1
    assert words[0] == start and words[-1] == goal
    assert all(edit_distance(a, b) == 1 and b in WORDS for a, b in zip(words, words[1:]))


def test_word_ladder_without_a_path() -> None:
    assert ladder_bfs("cat", "zzz") is None
    # Without a closed set A* would walk the ladder's cycles for ever.
    with pytest.raises(UnsolvableError, match="every reachable state"):
        Solver(Word("cat", "zzz"), closed=True)


def test_unsolvable_board_is_refused_before_search() -> None:
    board = Board((1, 2, 3, 4, 5, 6, 8, 7, 0))
    calls = []

    def counting(state: Board) -> int:
        calls.append(state)
        return state.manhattan()

    with pytest.raises(UnsolvableError, match="parity"):
        Solver(board, heuristic=counting)
    assert calls == []  # not one node: no search at all


def test_max_nodes_fails_clearly() -> None:
    board = Board((8, 6, 7, 2, 5, 4, 3, 0, 1))  # 31 moves
    with pytest.raises(NodeLimitError, match="enqueued 1,000 nodes"):
        Solver(board, max_nodes=1000)
    with pytest.raises(ValueError, match="max_nodes must be a positive"):
        Solver(board, max_nodes=0)


@pytest.mark.parametrize("heuristic", ["hamming", "manhattan", "linear", "pdb"])
def test_graded_8puzzle_sample(data_dir: Path, heuristic: str) -> None:
    lines = [line.split() for line in (data_dir / "search" / "8puzzle_graded.txt")
             .read_text().splitlines() if line and not line.startswith("#")]
    # Plain Python A* with weak heuristics: a sample of the shorter distances.
    deepest = {"hamming": 16, "manhattan": 22, "linear": 24, "pdb": 31}[heuristic]
    for row in lines[::1 if heuristic == "pdb" else 3]:
        tiles, expected = tuple(map(int, row[:9])), int(row[9])
        if expected > deepest:
            continue
        solver = Solver(Board(tiles), heuristic=python_heuristic(heuristic, 3))
        assert solver.moves() == expected
        assert path_is_walk([b.tiles for b in solver.solution()])


def test_cached_heuristic_once_per_node() -> None:
    calls = []

    def counting(state: Board) -> int:
        calls.append(state)
        return state.manhattan()

    solver = Solver(Board((1, 2, 3, 4, 0, 5, 7, 8, 6)), heuristic=counting)
    assert solver.moves() == 2
    assert len(calls) == solver.enqueued  # one estimate per search node


class NoEstimate(Word):
    """A WorldState whose estimate is missing (None)."""

    def estimated_distance_to_goal(self) -> int:
        return None  # type: ignore[return-value]


@pytest.mark.parametrize("initial, options, error, message", [
    (None, {}, TypeError, r"initial must be a Board or another WorldState \(with "
                          r"estimated_distance_to_goal\(\), neighbors\(\) and is_goal\(\)\), "
                          "got NoneType None"),
    ((1, 2, 3, 0), {}, TypeError, "initial must be a Board or another WorldState .* got tuple"),
    (Board((1, 2, 3, 0)), {"heuristic": 5}, TypeError,
     r"heuristic must be a name \(str\), a function heuristic\(state\) or None, got 5"),
    (Board((1, 2, 3, 0)), {"heuristic": lambda state: None}, TypeError,
     r"the heuristic must return a number \(an int\), got None for the initial state"),
    (NoEstimate("cat", "dog"), {}, TypeError,
     r"estimated_distance_to_goal\(\) must return a number \(an int\), got None"),
    (Board((1, 2, 3, 0)), {"heuristic": "lineer"}, ValueError,
     "unknown heuristic 'lineer'.*did you mean 'linear'"),
    (Board((1, 2, 3, 0)), {"max_nodes": 1.5}, ValueError,
     "max_nodes must be a positive integer or None, got 1.5"),
    (Board((1, 2, 3, 0)), {"max_nodes": True}, ValueError,
     "max_nodes must be a positive integer or None, got True"),
])
def test_bad_arguments_are_named(initial: object, options: dict[str, object],
                                 error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        Solver(initial, **options)  # type: ignore[arg-type]


def test_repr_is_short() -> None:
    assert repr(Solver(Board((1, 2, 3, 4, 5, 6, 7, 0, 8)), heuristic="manhattan")) == (
        "Solver(size=3, heuristic='manhattan', moves=1)")
    assert repr(Solver(Board((1, 2, 0, 3)), heuristic=lambda b: b.manhattan())) == (
        "Solver(size=2, heuristic='custom', moves=1)")
    assert repr(Solver(Word("cat", "cot"))) == (
        "Solver(state=Word, heuristic='estimated_distance_to_goal', moves=1)")
