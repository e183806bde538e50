"""Pulled threshold iterations (``engine.threshold_pulls``): from ``threshold.PULL_FROM``
workers (lowered here to 2) an iteration of more ranges than workers goes in a list its
workers pull from, one task a worker.  IDA* then finds an optimal path (replayed move by
move) with the node counts of the sequential search when the last iteration is
completed, on every local pool and on the virtual one, through a lost pull and a stop;
a generic space does the same."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from lossy_pool import LosesSome
from sliding_check import solves
from test_sliding_parallel import Walk

from parallel_backtrack.engine import VirtualExecutor, threshold
from parallel_backtrack.engine.frontier import guided_sizes, task_sizes
from parallel_backtrack.engine.threshold import ThresholdReport, threshold_search
from parallel_backtrack.sliding import Board
from parallel_backtrack.sliding import ida as ida_module
from parallel_backtrack.sliding.ida import solve

KORF_79 = (0, 1, 9, 7, 11, 13, 5, 3, 14, 12, 4, 2, 8, 6, 10, 15)  # 42 moves, 540,860 nodes
KORF_12 = (14, 1, 9, 6, 4, 8, 12, 5, 7, 2, 3, 0, 10, 11, 13, 15)  # 45 moves, 546,344 nodes


@pytest.fixture
def pulled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Threshold iterations on 2 workers or more are pulled."""
    monkeypatch.setattr(threshold, "PULL_FROM", 2)


@pytest.fixture
def reports(monkeypatch: pytest.MonkeyPatch) -> list[ThresholdReport]:
    """The engine's reports of the IDA* searches run in the test."""
    seen: list[ThresholdReport] = []
    search = ida_module.threshold_search

    def spy(*args: Any, **kwargs: Any) -> ThresholdReport:
        report = search(*args, **kwargs)
        seen.append(report)
        return report

    monkeypatch.setattr(ida_module, "threshold_search", spy)
    return seen


@pytest.fixture
def lists(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The temporary folder the test's pulls' lists go to."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def _left(folder: Path) -> list[str]:
    return [path.name for path in folder.iterdir() if path.name.startswith("pb-pull-")]


@pytest.mark.timeout(180)
@pytest.mark.parametrize("backend", ["threads", "fork", "loky"])
def test_a_pulled_ida_is_exact_on_every_local_pool(pulled: None, reports: list[Any],
                                                   lists: Path, backend: str) -> None:
    board = Board(KORF_12, "blank-first")
    one = solve(board, "manhattan", complete_last=True)
    many = solve(board, "manhattan", workers=2, backend=backend, complete_last=True,
                 parent_nodes=0)
    assert many.nodes == one.nodes and many.iterations == one.iterations
    assert len(many.moves or "") == len(one.moves or "") == 45
    assert solves(board.tiles, many.moves or "", "blank-first")
    report = reports[-1]
    assert 0 < report.pulls < report.pulled  # a task a worker, several ranges each
    assert _left(lists) == []  # every list is gone


@pytest.mark.timeout(180)
def test_a_pulled_ida_stopping_at_the_first_solution_is_optimal(pulled: None,
                                                                reports: list[Any]) -> None:
    board = Board(KORF_12, "blank-first")
    one = solve(board, "manhattan")
    many = solve(board, "manhattan", workers=2, backend="loky", parent_nodes=0)
    assert len(many.moves or "") == len(one.moves or "") == 45
    assert solves(board.tiles, many.moves or "", "blank-first")
    assert reports[-1].pulls > 0 and many.nodes <= one.nodes * 2


@pytest.mark.parametrize("workers", [3, 8])
def test_a_pulled_ida_on_the_virtual_pool_is_exact(pulled: None, reports: list[Any],
                                                   lists: Path, workers: int) -> None:
    """The virtual pool runs the pulls in the order of its clock: the sequential node
    count, a pull a worker an iteration at most, as many ranges as a real pool's."""
    board = Board(KORF_79, "blank-first")
    one = solve(board, "manhattan", complete_last=True)
    many = solve(board, "manhattan", workers=workers, executor=VirtualExecutor(workers),
                 complete_last=True, parent_nodes=0)
    assert many.nodes == one.nodes and many.iterations == one.iterations
    assert len(many.moves or "") == 42 and solves(board.tiles, many.moves or "", "blank-first")
    report = reports[-1]
    assert report.pulls > 0 and report.pulled > report.pulls
    assert len(report.task_seconds) == report.pulled  # every range a pull ran came back
    assert _left(lists) == []
    pool = VirtualExecutor(workers)
    first = solve(board, "manhattan", workers=workers, executor=pool, parent_nodes=0)
    assert len(first.moves or "") == 42 and solves(board.tiles, first.moves or "", "blank-first")
    assert reports[-1].pulls > 0
    # The pulls stopped with the solution count only what they ran before the stop.
    assert 0 < pool.busy <= workers * pool.clock


def test_a_pool_that_loses_a_pull_runs_its_ranges_again(pulled: None) -> None:
    """The second task sent, a pull that carried a range, is lost with its worker (as
    Dask loses one): its ranges go back in the queue, and the answer and node count are
    the sequential ones."""
    single = threshold_search(Walk(24), complete_last=True)
    executor = LosesSome(2, lambda sent: sent == 2)
    try:
        report = threshold_search(Walk(24), executor=executor, parent_nodes=0,
                                  per_worker=4, complete_last=True)
    finally:
        executor.close()
    assert executor.lost == 1 and report.pulls > 1
    assert report.solution == (24, 12) and report.nodes == single.nodes


@pytest.mark.parametrize("workers", [2, 3])
def test_a_generic_space_is_pulled_exactly(pulled: None, workers: int) -> None:
    """A space with no cut of its own (``ListFrontier``, ``search_budgeted``)."""
    single = threshold_search(Walk(20), complete_last=True)
    report = threshold_search(Walk(20), workers=workers, backend="threads",
                              parent_nodes=0, per_worker=8, complete_last=True)
    assert report.pulls > 0 and report.pulled > report.pulls
    assert report.solution == (20, 10) and report.nodes == single.nodes
    first = threshold_search(Walk(20), workers=workers, backend="threads",
                             parent_nodes=0, per_worker=8)
    assert first.solution == (20, 10) and first.bound == 10


@pytest.mark.timeout(120)
def test_a_pulled_ida_stopped_by_its_node_limit_ends_cleanly(pulled: None, reports: list[Any],
                                                             lists: Path) -> None:
    board = Board(KORF_12, "blank-first")
    result = solve(board, "manhattan", workers=2, backend="loky", parent_nodes=0,
                   max_nodes=100_000)
    assert result.stop_reason == "max-nodes" and result.moves is None
    assert reports[-1].pulls > 0
    assert _left(lists) == []


@pytest.mark.parametrize("work, workers", [(10.0, 256), (0.5, 129), (1e-3, 300)])
def test_guided_sizes_cover_the_work_in_shrinking_ranges(work: float, workers: int) -> None:
    sizes = guided_sizes(work, workers)
    assert sum(sizes) == pytest.approx(work)
    assert sizes == sorted(sizes, reverse=True) and len(sizes) <= 64 * workers
    assert sizes[0] == pytest.approx(work / workers)  # a worker's share of all that is left
    assert min(sizes) >= work / (4 * workers) * (1 - 1e-9) or len(sizes) == 1 or (
        sizes[-1] < work / (4 * workers) and min(sizes[:-1]) >= work / (4 * workers))
    assert len(sizes) > workers  # more ranges than pulls: the workers share them out


def test_a_wide_pool_plans_big_iterations_for_pulls() -> None:
    """On 256 virtual workers an iteration of ``PULL_WORK`` a worker or more is cut in
    guided ranges (then pulled, being more than the workers); a smaller one, or one on
    a pool whose workers share no files (Dask), in the queue's tasks."""
    report = ThresholdReport(256, "virtual")
    search = threshold._Search(Walk(5), VirtualExecutor(256), report, False, None)
    search.rate = 1e8
    nodes = 6 * threshold.PULL_WORK * 256 * search.rate  # the next one's, grown 6 times
    expected, sizes = search._plan([int(nodes / 36), int(nodes / 6)]) or (0.0, [])
    assert expected == pytest.approx(nodes, rel=1e-6)
    assert sizes == guided_sizes(expected / search.rate, 256) and len(sizes) > 256
    small = search._plan([int(nodes / 3600), int(nodes / 600)])
    assert small is not None and small[1] == task_sizes(small[0] / search.rate, 256,
                                                        search.task_cost)
    shared = threshold._Search(Walk(5), VirtualExecutor(256, pulls=False), report, False, None)
    shared.rate = 1e8
    queued = shared._plan([int(nodes / 36), int(nodes / 6)])
    assert queued is not None and queued[1] == task_sizes(expected / 1e8, 256, shared.task_cost)
