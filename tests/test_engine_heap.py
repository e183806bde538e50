"""The parent's heap is frozen while a search runs (``engine.heap``): what it held before
is out of the collector's walks during the run and back in them after; objects made
during the run are collected as usual; streams of solutions thaw between solutions.
(``get_freeze_count`` walks every frozen object: the tests may, the engine does not.)"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
from test_sliding_parallel import Walk

from parallel_backtrack.engine import count, heap, make_executor, solutions
from parallel_backtrack.engine.examples import NoAdjacentOnes
from parallel_backtrack.engine.executors import pool_for_run
from parallel_backtrack.engine.threshold import threshold_search
from parallel_backtrack.games.randomtree import RandomTree
from parallel_backtrack.games.search import alphabeta
from parallel_backtrack.games.ybw import parallel_alphabeta


@pytest.fixture(autouse=True)
def thawed() -> Iterator[None]:
    """Each test starts and ends with nothing frozen."""
    gc.unfreeze()
    SEEN.clear()
    yield
    gc.unfreeze()


SEEN: list[int] = []  # the frozen objects' count each time a solution was checked


class Watched(NoAdjacentOnes):
    """Records the frozen objects' count as it checks a solution (on threads: in this
    process, while the search runs)."""

    def is_solution(self, state: tuple[int, ...]) -> bool:
        SEEN.append(gc.get_freeze_count())
        return super().is_solution(state)


class WatchedWalk(Walk):
    def is_solution(self, state: tuple[int, int]) -> bool:
        SEEN.append(gc.get_freeze_count())
        return super().is_solution(state)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_count_runs_on_a_frozen_heap_and_thaws_it(workers: int) -> None:
    report = count(Watched(12), workers=workers, backend="threads")
    assert report.count == count(NoAdjacentOnes(12)).count == 377  # Fibonacci(14)
    assert SEEN and min(SEEN) > 0
    assert gc.get_freeze_count() == 0


def test_a_threshold_search_runs_on_a_frozen_heap_and_thaws_it() -> None:
    report = threshold_search(WatchedWalk(9), workers=2, backend="threads",
                              parent_nodes=0, per_worker=4, complete_last=True)
    assert report.solution == (9, 5) and report.bound == 5
    assert SEEN and min(SEEN) > 0
    assert gc.get_freeze_count() == 0


def test_parallel_alphabeta_thaws_the_heap_and_keeps_the_value() -> None:
    tree = RandomTree(4, 5, seed=3)
    found = parallel_alphabeta(tree, workers=2, backend="threads")
    assert found.value == alphabeta(tree, (0, 0)).value
    assert gc.get_freeze_count() == 0


def test_a_stream_of_solutions_thaws_between_solutions() -> None:
    stream = solutions(Watched(8), workers=2, backend="threads")
    between = [gc.get_freeze_count() for _ in stream]
    assert len(between) == 55 and max(between) == 0  # Fibonacci(10)


def test_objects_made_in_the_run_are_collected_in_it() -> None:
    class Node:
        pass

    with pool_for_run(make_executor(1, "serial")):
        frozen = gc.get_freeze_count()
        cycle = Node()
        cycle.me = cycle  # type: ignore[attr-defined]
        gone = weakref.ref(cycle)
        del cycle
        gc.collect()
        assert gone() is None and frozen > 0
    assert gc.get_freeze_count() == 0


def test_nested_runs_share_one_freeze_and_the_last_out_thaws() -> None:
    with heap.frozen():
        with heap.frozen():
            assert gc.get_freeze_count() > 0
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


def test_an_error_in_the_run_thaws_the_heap() -> None:
    with pytest.raises(ZeroDivisionError), pool_for_run(make_executor(1, "serial")):
        assert gc.get_freeze_count() > 0
        1 / 0  # noqa: B018
    assert gc.get_freeze_count() == 0


def test_a_process_freeze_from_before_a_search_is_thawed_after_it() -> None:
    gc.freeze()
    with pool_for_run(make_executor(1, "serial")):
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


def test_freeze_off_leaves_the_heap_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap, "FREEZE", False)
    with heap.frozen():
        assert gc.get_freeze_count() == 0
