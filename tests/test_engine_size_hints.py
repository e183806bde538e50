"""A space's expected subtree sizes (the ``size_hints`` hook): the biggest subtrees of
the cut go first and tasks pack by size, and every count stays exact whatever the
hints say.  Counts are checked against the plain sequential search."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pytest

from parallel_backtrack.engine import (
    VirtualExecutor,
    count,
    pending,
    scheduler,
    sequential_count,
    sequential_solutions,
    solutions,
)
from parallel_backtrack.engine.examples import SubsetSum
from parallel_backtrack.engine.report import SearchReport
from parallel_backtrack.nqueens import ImmutableQueenLocations
from parallel_backtrack.nqueens.sizes import size_hints
from parallel_backtrack.nqueens.space import QueensSpace

VALUES = tuple(range(1, 19))


@dataclass(frozen=True)
class HintedSubsets(SubsetSum):
    """Subset sums whose hints are ``kind``: good (values left), reversed, or junk."""

    kind: str = "good"

    def size_hints(self, states: list[Any]) -> list[float]:
        left = [float(2 ** (len(self.values) - index)) for index, _, _ in states]
        if self.kind == "reversed":
            return [1 / x for x in left]
        if self.kind == "junk":
            return [[0.0, 1e300, 3.0, 0.0, 1e-300][i % 5] for i in range(len(states))]
        return left


def _queue(workers: int) -> pending.Pending:
    return pending.Pending(workers, 10**6, True, SearchReport("count", workers, "virtual"),
                           max_roots=10**6)


def test_the_cut_is_queued_biggest_first_and_packed_by_size():
    queue = _queue(1)
    sizes = [1.0, 8.0, 2.0, 30.0, 1.0, 1.0, 4.0, 1.0, 2.0, 1.0, 1.0, 1.0]
    queue.push_cut([pending.Work((i,), ((i, 1),), sizes=(s,)) for i, s in enumerate(sizes)])
    assert [w.sizes[0] for w in queue] == sorted(sizes, reverse=True)
    assert queue.sized == sum(sizes)
    tasks = []
    while (task := queue.next_work(lambda work: [work])) is not None:
        tasks.append(task)
        assert len(task.sizes) == len(task.roots)
        # a task takes one subtree, or packs up to a 2 P-th of what was pending
        pending_before = sum(sizes) - sum(sum(t.sizes) for t in tasks[:-1])
        assert len(task.roots) == 1 or sum(task.sizes) <= pending_before / 2
    assert tasks[0].roots == ((3, 1),)  # the biggest alone
    assert sorted(r for t in tasks for r, _ in t.roots) == list(range(len(sizes)))
    assert len(tasks) < len(sizes)  # the small ones were packed
    assert queue.sized == 0


@pytest.mark.parametrize("workers", [2, 200])
def test_above_wide_workers_a_task_packs_at_least_a_share_of_the_cut(workers):
    queue = _queue(workers)
    queue.push_cut([pending.Work((i,), ((i, 1),), sizes=(1.0,)) for i in range(40 * workers)])
    wide = workers > pending.WIDE
    assert queue.least_size == (40 / pending.SIZE_LEAST if wide else 0)
    while len(queue) > workers + 10:  # not the tail yet
        queue.pop()
    task = queue.next_work(lambda work: [work])
    assert task is not None
    # the floor (5 subtrees of size 1) when wide, else a 2 P-th of the 12 pending
    assert len(task.roots) == (40 // pending.SIZE_LEAST if wide else 3)


def test_work_without_sizes_keeps_the_cut_order():
    queue = _queue(2)
    queue.push_cut([pending.Work((i,), ((i, 1),)) for i in range(6)])
    assert [w.key for w in queue] == [(i,) for i in range(6)]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("kind", ["good", "reversed", "junk"])
@pytest.mark.parametrize("workers", [2, 64, 256])
def test_counts_are_exact_whatever_the_hints(kind, workers):
    space = HintedSubsets(VALUES, 45, kind)
    expected = sequential_count(SubsetSum(VALUES, 45)).count
    assert count(space, executor=VirtualExecutor(workers), budget=300).count == expected


@pytest.mark.timeout(120)
def test_counts_are_exact_with_hints_on_threads():
    space = HintedSubsets(VALUES, 45, "good")
    report = count(space, workers=2, backend="threads", budget=300)
    assert report.count == sequential_count(SubsetSum(VALUES, 45)).count


def test_ordered_modes_never_ask_for_hints():
    class Refusing(SubsetSum):
        def size_hints(self, states: list[Any]) -> list[float]:
            raise AssertionError("an ordered run asked for sizes")

    space = Refusing((1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 20)
    got = list(solutions(space, executor=VirtualExecutor(8), budget=50))
    assert got == list(sequential_solutions(SubsetSum(space.values, 20)))


@pytest.mark.parametrize(("hints", "match"), [
    (lambda n: [1.0] * (n - 1), "sizes for"),
    (lambda n: [1.0] * (n - 1) + [math.nan], "nan"),
    (lambda n: [math.inf] * n, "inf"),
    (lambda n: [-1.0] * n, "-1.0"),
])
def test_hints_of_the_wrong_length_or_not_sizes_are_an_error(hints, match):
    class Wrong(SubsetSum):
        def size_hints(self, states: list[Any]) -> list[float]:
            return hints(len(states))

    with pytest.raises(ValueError, match=f"size_hints gave .*{match}"):
        count(Wrong(VALUES, 45), executor=VirtualExecutor(8), budget=300)


@pytest.mark.timeout(120)
@pytest.mark.usefixtures("queued")  # the parent's queue, as on Dask: no pulls
def test_nqueens_first_task_holds_one_of_the_biggest_subtrees(monkeypatch):
    """On 256 virtual workers n = 12's cut is queued by its hints, the first task
    holds a subtree among the biggest by measured size, and the count is the
    reference search's."""
    cut: list[Any] = []
    sent: list[Any] = []
    push_cut, submit = pending.Pending.push_cut, scheduler._submit

    def recording_cut(self: pending.Pending, works: list[pending.Work]) -> None:
        cut.extend(work.roots[0][0] for work in works)
        push_cut(self, works)

    def recording(executor: Any, arguments: tuple[Any, ...]) -> Any:
        sent.append(arguments[1])
        return submit(executor, arguments)

    monkeypatch.setattr(pending.Pending, "push_cut", recording_cut)
    monkeypatch.setattr(scheduler, "_submit", recording)
    space = QueensSpace(ImmutableQueenLocations(12))
    report = count(space, executor=VirtualExecutor(256), budget=5000)
    reference = sequential_count(QueensSpace(ImmutableQueenLocations(12), kernel="reference"))
    assert report.count == reference.count == 14200
    assert len(cut) >= 256 and sent
    measured = {id(state): space.count_below(state, 10**12).nodes for state in cut}
    first = measured[id(sent[0][0][0])]
    assert first >= sorted(measured.values())[int(0.8 * len(cut))]
    hints = size_hints(cut)
    assert hints is not None and hints.index(max(hints)) in (
        cut.index(state) for state, _ in sent[0])
