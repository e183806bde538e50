"""Parallel IDA* on engine.threshold: same lengths as sequential, same node counts with
the last iteration completed, whatever the workers and backend."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from lossy_pool import LosesTasks
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
        assert result.tasks > 0 and 0 < result.task_cost < result.seconds  # sent, and measured
    assert sequential.tasks == 0 and sequential.task_cost == 0  # searched here


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


def _spy_on_the_next_iteration(monkeypatch: pytest.MonkeyPatch, wrong: bool) -> list[str]:
    """Record each next iteration started in the tail of the last ('started') and each
    one whose bound turned out wrong ('dropped'); ``wrong``: guess half a step too high."""
    from parallel_backtrack.engine import threshold, threshold_tasks

    seen: list[str] = []
    ahead_of, iterate = threshold._Search._ahead_of, threshold._Search._iterate

    def guess(self: threshold._Search, now: threshold_tasks.Round) -> object:
        shift = 0.5 if wrong and not now.spawned else 0.0
        now.it.next_bound += shift
        try:
            found = ahead_of(self, now)
        finally:
            now.it.next_bound -= shift
        if found is not None and not now.spawned_seen:  # type: ignore[attr-defined]
            seen.append("started")
        now.spawned_seen = True  # type: ignore[attr-defined]
        return found

    def spy(self: threshold._Search, bound: float) -> object:
        if self.ahead is not None and self.ahead.bound != bound:
            seen.append("dropped")
        return iterate(self, bound)

    monkeypatch.setattr(threshold_tasks.Round, "spawned_seen", False, raising=False)
    monkeypatch.setattr(threshold, "AHEAD_FROM", 2)  # small pools too, for the tests
    monkeypatch.setattr(threshold._Search, "_ahead_of", guess)
    monkeypatch.setattr(threshold._Search, "_iterate", spy)
    return seen


@pytest.mark.parametrize("workers", [2, 4])
@pytest.mark.parametrize("wrong", [False, True])
def test_the_next_iteration_starts_in_the_tail_of_the_last(monkeypatch: pytest.MonkeyPatch,
                                                          workers: int, wrong: bool) -> None:
    """Started at the bound the last one's results point to, it counts; started on a
    wrong bound, it is dropped: the same nodes and solution as one worker either way."""
    from parallel_backtrack.engine import VirtualExecutor

    single = threshold_search(Walk(24), complete_last=True)
    seen = _spy_on_the_next_iteration(monkeypatch, wrong)
    report = threshold_search(Walk(24), executor=VirtualExecutor(workers), parent_nodes=0,
                              per_worker=4, complete_last=True)
    assert "started" in seen and ("dropped" in seen) == wrong
    assert report.solution == (24, 12) and report.bound == 12 and report.nodes == single.nodes
    assert [row["bound"] for row in report.iterations] == list(range(13))
    first = threshold_search(Walk(24), executor=VirtualExecutor(workers), parent_nodes=0,
                             per_worker=4)
    assert first.solution == (24, 12) and first.nodes <= single.nodes


def test_few_workers_start_no_next_iteration_in_the_tail(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Below ``AHEAD_FROM`` workers (2 here) an iteration's tail is not filled with the
    next one: every look for it finds none, and the answer is the sequential one."""
    from parallel_backtrack.engine import VirtualExecutor, threshold

    found: list[object] = []
    ahead_of = threshold._Search._ahead_of

    def spy(self: threshold._Search, now: object) -> object:
        found.append(ahead_of(self, now))  # type: ignore[arg-type]
        return found[-1]

    monkeypatch.setattr(threshold._Search, "_ahead_of", spy)
    single = threshold_search(Walk(24), complete_last=True)
    assert threshold.AHEAD_FROM > 2  # 2 real workers: no speculation on the next bound
    report = threshold_search(Walk(24), executor=VirtualExecutor(2), parent_nodes=0,
                              per_worker=4, complete_last=True)
    assert found and all(round_ is None for round_ in found)
    assert report.solution == (24, 12) and report.nodes == single.nodes


@pytest.mark.parametrize("wrong", [False, True])
def test_the_next_iteration_in_the_tail_on_64_simulated_workers(
        monkeypatch: pytest.MonkeyPatch, wrong: bool) -> None:
    """Korf #79 (42 moves) on 64 simulated workers, next iterations started in the last
    ones' tails (on the right bound, or dropped): the sequential node count."""
    from parallel_backtrack.engine import VirtualExecutor

    board = Board((0, 1, 9, 7, 11, 13, 5, 3, 14, 12, 4, 2, 8, 6, 10, 15), "blank-first")
    one = solve(board, "manhattan", complete_last=True)
    seen = _spy_on_the_next_iteration(monkeypatch, wrong)
    many = solve(board, "manhattan", complete_last=True, workers=64,
                 executor=VirtualExecutor(64), parent_nodes=0)
    assert "started" in seen and ("dropped" in seen) == wrong
    assert many.nodes == one.nodes and many.iterations == one.iterations
    assert many.per_iteration == one.per_iteration  # the same count, iteration by iteration
    assert len(many.moves or "") == 42 and solves(board.tiles, many.moves or "", "blank-first")


def test_the_next_iteration_started_ahead_grows_by_the_known_growth() -> None:
    """Planned in the tail of the last iteration, whose node count is an estimate, the
    next one grows from it by the growth of the two iterations before (known counts),
    not by the estimate's own ratio (an estimate twice too high would count 4 times)."""
    from parallel_backtrack.engine.threshold import _Search

    plain = _Search._expected(None, [100, 600, 3600])  # type: ignore[arg-type]
    ahead = _Search._expected(None, [100, 600, 7200], True)  # type: ignore[arg-type]
    assert plain == 3600 * 6 and ahead == 7200 * 6
    assert _Search._expected(None, [100, 600, 7200]) == 7200 * 12  # type: ignore[arg-type]


def test_tasks_lost_with_their_worker_are_sent_again() -> None:
    """A pool that loses every third task (as Dask loses a task with its worker): each
    is sent again, and the search ends with the sequential answer and node count."""
    single = threshold_search(Walk(24), complete_last=True)
    executor = LosesTasks(2)
    try:
        report = threshold_search(Walk(24), executor=executor, parent_nodes=0,
                                  per_worker=4, complete_last=True)
    finally:
        executor.close()
    assert executor.lost > 0
    assert report.solution == (24, 12) and report.nodes == single.nodes
