"""Parallel IDA* on engine.threshold: same lengths as sequential, same node counts with
the last iteration completed, whatever the workers and backend."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from sliding_check import CACHE, solves

from parallel_backtrack.engine.threshold import INFINITE, Bounded, threshold_search
from parallel_backtrack.sliding import Board
from parallel_backtrack.sliding.ida import solve, solve_parallel

assert CACHE


def korf(data_dir: Path, number: int) -> tuple[int, ...]:
    for line in (data_dir / "search" / "korf100.txt").read_text().splitlines():
        if line and not line.startswith("#") and int(line.split()[0]) == number:
            return tuple(int(w) for w in line.split()[1:17])
    raise LookupError(number)


@pytest.mark.parametrize("backend, workers", [("threads", 2), ("threads", 3), ("serial", 1)])
def test_complete_counts_equal_sequential(data_dir: Path, backend: str,
                                          workers: int) -> None:
    board = Board(korf(data_dir, 12), "blank-first")
    sequential = solve(board, "manhattan", complete_last=True)
    parallel = solve_parallel(board, "manhattan", workers=workers, backend=backend,
                              complete_last=True, parent_nodes=0, per_worker=50)
    assert parallel.nodes == sequential.nodes
    assert parallel.moves is not None and len(parallel.moves) == len(sequential.moves or "")
    assert solves(board.tiles, parallel.moves, "blank-first")


@pytest.mark.timeout(120)
def test_processes_same_length_and_counts(data_dir: Path) -> None:
    board = Board(korf(data_dir, 9), "blank-first")
    sequential = solve(board, "linear", complete_last=True)
    whole = solve_parallel(board, "linear", workers=2, backend="loky", complete_last=True,
                           parent_nodes=0)
    first = solve_parallel(board, "linear", workers=2, backend="loky", parent_nodes=0)
    assert whole.nodes == sequential.nodes
    for result in (whole, first):
        assert result.moves is not None and len(result.moves) == 46
        assert solves(board.tiles, result.moves, "blank-first")


def test_blank_last_board_in_parallel() -> None:
    tiles = (8, 6, 7, 2, 5, 4, 3, 0, 1)
    result = solve_parallel(Board(tiles), "manhattan", workers=2, backend="threads",
                            parent_nodes=0)
    assert result.moves is not None and len(result.moves) == 31 and solves(tiles, result.moves)


@dataclass(frozen=True)
class Walk:
    """A toy ThresholdSpace: reach ``goal`` on a number line with steps +1 / +2 (h = 0)."""

    goal: int

    def root(self) -> tuple[int, int]:
        return (0, 0)  # (position, cost so far)

    def f(self, state: tuple[int, int]) -> float:
        return state[1] + (0 if state[0] <= self.goal else INFINITE)

    def branch(self, state: tuple[int, int]) -> list[tuple[int, int]]:
        return [(state[0] + 1, state[1] + 1), (state[0] + 2, state[1] + 1)]

    def is_solution(self, state: tuple[int, int]) -> bool:
        return state[0] == self.goal

    def search_below(self, state, bound, complete, stop) -> Bounded:  # noqa: ANN001
        if self.is_solution(state):
            return Bounded(0, INFINITE, state)
        nodes, least, found = 0, INFINITE, None
        for child in self.branch(state):
            nodes += 1
            if self.f(child) > bound:
                least = min(least, self.f(child))
                continue
            below = self.search_below(child, bound, complete, stop)
            nodes += below.nodes
            least = min(least, below.next_bound)
            found = found or below.solution
            if found is not None and not complete:
                break
        return Bounded(nodes, least, found)


@pytest.mark.parametrize("workers", [1, 2])
def test_engine_mode_is_generic(workers: int) -> None:
    report = threshold_search(Walk(9), workers=workers, backend="threads" if workers > 1
                              else None, parent_nodes=0, per_worker=4, complete_last=True)
    assert report.solution == (9, 5) and report.bound == 5  # ceil(9 / 2) steps
    assert [row["bound"] for row in report.iterations] == [0, 1, 2, 3, 4, 5]
    single = threshold_search(Walk(9), complete_last=True)
    assert single.nodes == report.nodes


@pytest.mark.parametrize("order", ["size", "tree"])
def test_either_task_order_finds_the_optimum(order: str) -> None:
    single = threshold_search(Walk(11), complete_last=True)
    report = threshold_search(Walk(11), workers=2, backend="threads", parent_nodes=0,
                              per_worker=4, complete_last=True, order=order)
    assert report.solution == (11, 6) and report.bound == 6  # ceil(11 / 2) steps
    assert report.nodes == single.nodes
    first = threshold_search(Walk(11), workers=2, backend="threads", parent_nodes=0,
                             per_worker=4, order=order)
    assert first.solution == (11, 6) and first.nodes <= single.nodes


def test_an_unknown_task_order_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown task order 'random'"):
        threshold_search(Walk(5), order="random")
