"""Pulled cuts (``engine.pull``): every piece of a list is claimed exactly once by
workers claiming at the same time; a count whose workers pull the cut (from
``scheduler.PULL_FROM`` workers, lowered here to 2) gives the count and nodes of a run
on one worker on every local pool and on the virtual one, through crashes and checkpoints."""

from __future__ import annotations

import multiprocessing
import os
import threading
from pathlib import Path

import pytest

from parallel_backtrack.engine import VirtualExecutor, count, scheduler, sequential_count
from parallel_backtrack.engine.checkpoint import Checkpoint
from parallel_backtrack.engine.examples import NoAdjacentOnes
from parallel_backtrack.engine.pull import PullList, Pulls, claim, run_pulled
from parallel_backtrack.engine.worker import StopFlag, pickled
from parallel_backtrack.nqueens import ImmutableQueenLocations
from parallel_backtrack.nqueens.space import QueensSpace

QUEENS = {12: 14_200, 13: 73_712, 15: 2_279_184}  # OEIS A000170


@pytest.fixture
def pulled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counts on 2 workers or more pull their cut, and cut it at once (otherwise the
    parent searches these small trees itself while the pool starts)."""
    monkeypatch.setattr(scheduler, "PULL_FROM", 2)
    monkeypatch.setattr(scheduler, "PROBE_BUDGETS", 0)


def _claims(path: str, pull: int, out: list[int]) -> None:
    while (index := claim(path, pull, StopFlag())) is not None:
        out.append(index)


def _claims_to_queue(path: str, pull: int, queue: multiprocessing.Queue) -> None:
    mine: list[int] = []
    _claims(path, pull, mine)
    queue.put((pull, mine))


def test_a_list_hands_out_each_piece_once_to_processes_and_threads() -> None:
    pieces = [pickled(((index, 1),)) for index in range(2_000)]
    for kind in ("process", "thread"):
        listed = PullList()
        listed.write(pieces, 3)  # the first 3 went with the first wave
        try:
            if kind == "process":
                queue: multiprocessing.Queue = multiprocessing.get_context("fork").Queue()
                workers = [multiprocessing.get_context("fork").Process(
                    target=_claims_to_queue, args=(listed.path, pull, queue))
                    for pull in range(1, 5)]
                for worker in workers:
                    worker.start()
                taken = dict(queue.get(timeout=60) for _ in workers)
                for worker in workers:
                    worker.join(timeout=60)
            else:
                taken = {pull: [] for pull in range(1, 5)}
                threads = [threading.Thread(target=_claims, args=(listed.path, pull, mine))
                           for pull, mine in taken.items()]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join(timeout=60)
            every = sorted(index for mine in taken.values() for index in mine)
            assert every == list(range(3, 2_000)), kind
            assert listed.taken() == 2_000
            for pull, mine in taken.items():
                assert listed.taken_by(pull) == sorted(mine)
        finally:
            listed.close()
        assert not os.path.exists(listed.path)


def test_a_pull_waits_for_its_list_and_gives_up_when_stopped(tmp_path: Path) -> None:
    listed = PullList()
    found: list[int | None] = []
    waiting = threading.Thread(target=lambda: found.append(claim(listed.path, 1, StopFlag())))
    waiting.start()
    waiting.join(timeout=0.05)
    assert waiting.is_alive()  # nothing to claim yet
    listed.write([b"", pickled(((1, 1),))], 1)
    waiting.join(timeout=10)
    assert found == [1]
    listed.close()
    flag = tmp_path / "stop"
    flag.touch()
    assert claim(str(tmp_path / "never.bin"), 1, StopFlag(str(flag))) is None


def test_a_lost_pull_gives_back_what_it_carried_and_took() -> None:
    from parallel_backtrack.engine.pending import Work

    works = [Work((index,), ((index, 1),)) for index in range(6)]
    pulls = Pulls(works)
    assert pulls.unclaimed() == 6 and not pulls.listed
    for future in ("a", "b"):
        pulls.arguments((None,), ("count", None, None, None, StopFlag(), 1.0), carry=True)
        pulls.numbers[future] = pulls.sent
    pulls.write()
    assert pulls.unclaimed() == 4
    assert claim(pulls.list.path, 2, StopFlag()) == 2
    assert claim(pulls.list.path, 1, StopFlag()) == 3
    pulls.returned(0)
    assert [w.key for w in pulls.lost("a")] == [(3,)]  # piece 0 came back already
    assert [w.key for w in pulls.lost("b")] == [(1,), (2,)]
    assert [w.key for w in pulls.waiting()] == [(4,), (5,)]
    pulls.close()


@pytest.mark.parametrize("backend", ["threads", "fork", "loky"])
def test_a_pulled_count_is_exact_on_every_local_pool(pulled: None, backend: str) -> None:
    space = QueensSpace(ImmutableQueenLocations(13))
    report = count(space, workers=2, backend=backend, budget=20_000)
    assert report.count == QUEENS[13] and report.complete
    assert report.nodes == count(space, workers=1).nodes  # the same (canonical) tree
    plain = NoAdjacentOnes(20)
    assert count(plain, workers=2, backend=backend, budget=500).count == \
        sequential_count(plain).count


def test_a_pulled_count_on_the_virtual_pool_is_exact_and_sends_a_task_per_worker() -> None:
    space = QueensSpace(ImmutableQueenLocations(12))
    executor = VirtualExecutor(scheduler.PULL_FROM)
    report = count(space, executor=executor)
    assert report.count == QUEENS[12] and report.complete
    assert report.nodes == count(space, workers=1).nodes
    assert report.frontier > executor.workers  # many pieces ...
    assert executor.tasks < report.frontier  # ... fewer tasks: pulls (and leftovers)
    assert 0 < executor.efficiency() <= 1


@pytest.mark.timeout(180)
@pytest.mark.usefixtures("own_pools")  # it kills a worker
@pytest.mark.parametrize("backend", ["loky", "fork"])
def test_a_pull_whose_worker_dies_runs_its_pieces_again(pulled: None, tmp_path: Path,
                                                      backend: str) -> None:
    from test_engine_crash import DiesOnce

    space = DiesOnce(18, victim=(0, 1, 0, 1, 0, 1, 0, 1), marker=str(tmp_path / "died"),
                     parent=os.getpid())
    report = count(space, workers=2, backend=backend, budget=300, per_worker=5)
    expected = sequential_count(NoAdjacentOnes(18))
    assert report.count == expected.count and report.complete
    assert report.restarts == 1 and report.nodes == expected.nodes
    assert report.frontier > 2  # a pulled cut, not the parent's search


def test_a_pool_that_loses_one_pull_runs_its_pieces_again(pulled: None) -> None:
    from lossy_pool import LosesSome

    space = NoAdjacentOnes(20)
    pool = LosesSome(2, lambda sent: sent == 2)
    try:
        report = count(space, executor=pool, budget=500)
    finally:
        pool.close()
    expected = sequential_count(space)
    assert pool.lost == 1 and report.count == expected.count and report.complete
    assert report.nodes == expected.nodes


def test_a_pulled_count_stopped_again_and_again_ends_exact(pulled: None,
                                                          tmp_path: Path) -> None:
    space = QueensSpace(ImmutableQueenLocations(15))
    path = tmp_path / "q15.ckpt"
    for runs in range(1, 500):  # noqa: B007 - read after the loop
        report = count(space, workers=2, backend="fork", timeout=0.05, budget=20_000,
                       checkpoint=Checkpoint(str(path), every=0.01))
        if report.complete:
            break
    assert report.complete and runs > 1 and not path.exists()
    assert report.count == QUEENS[15] and report.nodes == count(space, workers=1).nodes


def test_the_virtual_pool_drops_cancelled_pulls_instead_of_running_them_later() -> None:
    """Pulls cancelled while they still have pieces to go (their run stopped; its list
    is about to be removed) are dropped: the next run on the pool never runs them."""
    from parallel_backtrack.engine.pending import Work

    space = NoAdjacentOnes(22)
    executor = VirtualExecutor(2)
    handle = executor.ship(space)
    frontier = [(state, 1) for state in space.branch(space.root())]
    while len(frontier) < 40:
        frontier = [(child, 1) for state, _ in frontier for child in space.branch(state)]
    pulls = Pulls([Work((index,), (root,)) for index, root in enumerate(frontier)])
    rest = ("count", None, None, None, executor.stop_flag(), executor.pull_seconds)
    futures = [executor.submit(run_pulled, pulls.arguments((handle,), rest, carry=True))
               for _ in range(2)]
    pulls.write()
    executor.listed(pulls.list.path)
    executor.cancel(futures)
    assert all(future.done() for future in futures)
    assert not executor._pulls  # nothing left to run in a later run
    ran = {index for future in futures for index in future.result().indices}
    assert ran and ran < set(range(len(frontier)))  # stopped before the list's end
    pulls.close()
    executor.close()


@pytest.mark.timeout(120)
def test_a_virtual_pool_stopped_in_a_pulled_count_counts_again_exactly() -> None:
    count(QueensSpace(ImmutableQueenLocations(12)), executor=VirtualExecutor(1))  # kernels
    space = QueensSpace(ImmutableQueenLocations(15))
    executor = VirtualExecutor(256)
    # Stopped by the wall clock: after its pulls went out, or (on a loaded host) before;
    # the dropping itself is checked above, deterministically.
    stopped = count(space, executor=executor, timeout=0.1)
    assert not stopped.complete
    again = count(space, executor=executor)
    assert again.complete and again.count == QUEENS[15]
