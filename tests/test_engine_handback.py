"""A tail task asked for its rest hands it back at its next look, after one step at
least; the virtual pool models the ask; counts stay exact."""

from __future__ import annotations

import multiprocessing
import pickle

import pytest

from parallel_backtrack.engine import VirtualExecutor, count, make_executor, sequential_count
from parallel_backtrack.engine.handback import Ask, Asks
from parallel_backtrack.engine.split import run_subtrees
from parallel_backtrack.engine.worker import StopFlag
from parallel_backtrack.nqueens import ImmutableQueenLocations
from parallel_backtrack.nqueens.space import QueensSpace

NOW = [0.0]


class _Local:
    shares_files = True


def _queens(n: int) -> QueensSpace:
    return QueensSpace(ImmutableQueenLocations(n))


def test_only_the_task_holding_the_ticket_is_asked_and_a_later_one_on_its_slot_is_not():
    asks = Asks(_Local(), workers=1)
    try:
        first = asks.stop(StopFlag(None), step=10)
        assert not first.asked() and not first.is_set()
        asks.ask(first)
        seen = pickle.loads(pickle.dumps(first))  # as a worker gets it
        assert seen.asked() and not seen.is_set()
        for _ in range(asks.slots - 1):
            asks.stop(StopFlag(None), step=10)
        later = asks.stop(StopFlag(None), step=10)
        assert later.slot == first.slot and not later.asked()
    finally:
        asks.close()


def _asked_in_a_child(stop: Ask, answer: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    values, slot, ticket = stop.watch()  # what a kernel reads
    answer.put((stop.asked(), bool(values[slot] >= ticket)))


def test_a_pool_without_the_shared_file_gives_kernels_a_slot_nobody_raises():
    class Remote:
        shares_files = False

    stop = Asks(Remote(), workers=2).stop(StopFlag(None), step=10)
    values, slot, ticket = stop.watch()
    assert values[slot] < ticket and not stop.asked()


def test_another_process_sees_the_ask_through_the_shared_file():
    asks = Asks(_Local(), workers=2)
    try:
        stop = asks.stop(StopFlag(None), step=10)
        asks.ask(stop)
        context = multiprocessing.get_context("spawn")
        answer = context.Queue()
        child = context.Process(target=_asked_in_a_child, args=(stop, answer))
        child.start()
        assert answer.get(timeout=60) == (True, True)
        child.join(60)
    finally:
        asks.close()


@pytest.mark.parametrize("step", [1, 7, 500])
def test_an_asked_task_searches_one_step_and_its_rest_counts_the_remainder(step):
    space = _queens(9)
    asks = Asks(_Local(), workers=1)
    try:
        stop = asks.stop(StopFlag(None), step=step)
        asks.ask(stop)  # asked before it starts: it still searches one step
        root = (space.root(), 1)
        part = run_subtrees(space, [root], "count", 10**6, stop=stop)
        whole = sequential_count(space)
        assert 0 < part.nodes <= step and part.leftover
        rest = run_subtrees(space, list(part.leftover), "count", None)
        assert part.count + rest.count == whole.count == 352
    finally:
        asks.close()


def test_the_virtual_pool_ends_an_asked_task_where_its_next_look_falls():
    NOW[0] = 0.0
    pool = VirtualExecutor(1, timer=lambda: NOW[0])
    task = pool.submit(_spend, 10.0)
    behind = pool.submit(_spend, 1.0)
    NOW[0] += 3.0  # the parent works 3 s, then asks
    shares = []

    def rerun(share: float, result: float) -> tuple:
        shares.append((share, result))
        return (_spend, 4.0)  # the look after 3 s falls at 4 s

    assert pool.hand_back(task, rerun)
    assert shares == [(pytest.approx(0.3), 10.0)]
    assert task.result() == 4.0 and pool.handed == 1
    assert pool.wait_any([task, behind]) == {task} and pool.clock == pytest.approx(4.0)
    assert pool.wait_any([behind]) == {behind} and pool.clock == pytest.approx(5.0)
    assert not pool.hand_back(task, rerun)  # ended: nothing to ask


def _spend(seconds: float) -> float:
    NOW[0] += seconds
    return seconds


def test_counts_on_virtual_workers_ask_tail_tasks_and_stay_exact():
    from sudoku_data import sudoku_file

    from parallel_backtrack.sudoku.formats import parse_one
    from parallel_backtrack.sudoku.search import space_for

    lines = sudoku_file("tdoku_puzzles2_17_clue_head3000.txt").read_text().splitlines()
    first = next(line for line in lines if line.strip() and not line.startswith("#"))
    cells = list(parse_one(first.split(":")[0].split("\t")[0].strip()))
    for square in [i for i, v in enumerate(cells) if v][:2]:  # 2 clues fewer: 910,776
        cells[square] = 0
    space = space_for(cells, "fewest")
    pool = VirtualExecutor(16)
    report = count(space, executor=pool)  # the default budget: tail tasks of ms, asked
    whole = sequential_count(space)
    assert (report.count, report.nodes) == (whole.count, whole.nodes)
    assert report.asked > 0 and 0 < pool.handed <= report.asked


@pytest.mark.parametrize("backend", ["loky", "threads"])
def test_counts_with_tiny_tail_budgets_on_real_pools_stay_exact(backend):
    space = _queens(10)
    pool = make_executor(2, backend)
    try:
        report = count(space, executor=pool, budget=40)
    finally:
        pool.close()
    assert report.count == 724 and report.complete


def test_the_asks_file_goes_with_the_run(monkeypatch):
    import os

    from parallel_backtrack.engine import handback
    from parallel_backtrack.engine.window import SharedBounds

    made = []

    class Recorded(SharedBounds):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self.path)

    monkeypatch.setattr(handback, "SharedBounds", Recorded)
    pool = make_executor(2, "threads")
    try:
        report = count(_queens(10), executor=pool, budget=40)
    finally:
        pool.close()
    assert report.count == 724
    assert made and all(path and not os.path.exists(path) for path in made)


def test_a_tail_task_is_asked_only_once_it_has_run_ask_after():
    from parallel_backtrack.engine.handback import ASK_AFTER
    from parallel_backtrack.engine.scheduler import WAIT, Run

    NOW[0] = 0.0
    pool = VirtualExecutor(2, timer=lambda: NOW[0])
    run = Run(_queens(6), "count", pool, owns=False, budget=None, budget_seconds=None,
              per_worker=None, limit=None, timeout=None, progress=False)
    run._rerun = lambda *args: None  # type: ignore[method-assign]  # nothing to stand in
    tail = run.tail
    assert tail is not None
    future = pool.submit(_spend, 1.0)  # one of the two workers busy for 1 s
    run.inflight[future] = None  # type: ignore[assignment]
    tail.sent(future, (None,) * 6 + (tail.stop(run.flag, 1),))
    NOW[0] += ASK_AFTER / 4
    assert run._wait() == pytest.approx(ASK_AFTER * 3 / 4)  # until it may be asked
    run._ask_back()
    assert run.report.asked == 0 and future in tail.tasks
    later = pool.submit(_spend, 1.0)  # both workers busy: nobody to ask for
    run.inflight[later] = None  # type: ignore[assignment]
    tail.sent(later, (None,) * 6 + (tail.stop(run.flag, 1),))
    NOW[0] += ASK_AFTER
    run._ask_back()
    assert run.report.asked == 0
    del run.inflight[later]  # it ended: one worker idles, for the older task's rest
    tail.back(later)
    assert run._wait() == WAIT
    run._ask_back()
    assert run.report.asked == 1 and not tail.tasks and tail.asking == {future}
    assert tail.idle(len(run.inflight)) == 0  # the asked task's rest will feed it
    assert tail.wait(len(run.inflight)) is None
    run._collect(future)  # back (here without a result): its worker is free again
    assert not tail.asking
    tail.close()


def test_the_virtual_pool_waits_no_longer_than_its_time_out():
    NOW[0] = 0.0
    pool = VirtualExecutor(1, timer=lambda: NOW[0])
    task = pool.submit(_spend, 2.0)
    assert pool.wait_any([task], timeout=0.5) == set()
    assert pool.clock == pytest.approx(0.5) and pool.now() == pytest.approx(0.5)
    assert pool.wait_any([task], timeout=5.0) == {task} and pool.clock == pytest.approx(2.0)
    NOW[0] += 0.25  # the parent's own time moves the clock
    assert pool.now() == pytest.approx(2.25)
