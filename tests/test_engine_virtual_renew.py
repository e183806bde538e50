"""A task whose window narrowed while it ran: the virtual pool runs the narrowed call
too and keeps whichever ends first in virtual time (``VirtualExecutor.renew``), as a
real task narrows its window at its next look.  Time is a fake clock the tasks move:
every figure is exact."""

from __future__ import annotations

import pytest

from parallel_backtrack.engine.virtual import VirtualExecutor

NOW = [0.0]


def spend(seconds: float, answer: str = "") -> str:
    """A task that takes ``seconds`` of the fake clock and answers ``answer``."""
    NOW[0] += seconds
    return answer or f"{seconds:g}"


def _pool(workers: int, renew: bool = True) -> VirtualExecutor:
    NOW[0] = 0.0
    return VirtualExecutor(workers, timer=lambda: NOW[0], stop_after=0.5, renew=renew)


def _later(seconds: float) -> None:
    NOW[0] += seconds


def test_a_running_task_renewed_ends_sooner_with_the_new_answer_and_frees_its_worker():
    pool = _pool(1)
    task = pool.submit(spend, 10.0, "wide")
    behind = pool.submit(spend, 1.0)
    _later(2.0)
    pool.renew(task, spend, 3.0, "narrow")  # looks at 2.5, then 3 s more
    assert pool.renewed == pytest.approx(10.0 - 5.5)
    assert pool.busy == pytest.approx(5.5 + 1.0)
    assert pool.wait_any([task, behind]) == {task} and pool.clock == pytest.approx(5.5)
    assert task.result() == "narrow"
    assert pool.wait_any([behind]) == {behind} and pool.clock == pytest.approx(6.5)


def test_a_renewal_that_would_end_later_changes_nothing():
    pool = _pool(1)
    task = pool.submit(spend, 4.0, "wide")
    _later(1.0)
    pool.renew(task, spend, 3.0, "narrow")  # 1.5 + 3 = 4.5, after the old end at 4
    assert pool.renewed == 0.0 and pool.busy == pytest.approx(4.0)
    assert pool.wait_any([task]) == {task} and pool.clock == pytest.approx(4.0)
    assert task.result() == "wide"


def test_a_task_not_started_takes_the_renewed_seconds():
    pool = _pool(1)
    first = pool.submit(spend, 5.0)
    queued = pool.submit(spend, 6.0, "wide")
    _later(1.0)
    pool.renew(queued, spend, 2.0, "narrow")  # it reads the raise as it starts
    assert pool.wait_any([first, queued]) == {first}
    assert pool.wait_any([queued]) == {queued} and pool.clock == pytest.approx(7.0)
    assert queued.result() == "narrow" and pool.renewed == pytest.approx(4.0)


def test_a_task_that_ended_or_a_pool_that_does_not_renew_keeps_its_result():
    pool = _pool(2)
    short, long = pool.submit(spend, 1.0, "a"), pool.submit(spend, 6.0, "b")
    assert pool.wait_any([short, long]) == {short}
    pool.renew(short, spend, 0.1, "c")
    assert short.result() == "a" and pool.renewed == 0.0
    plain = _pool(1, renew=False)
    kept = plain.submit(spend, 4.0, "wide")
    assert not plain.renews  # callers ask before they build the narrowed call
    plain.renew(kept, spend, 0.1, "narrow")
    assert kept.result() == "wide" and plain.wait_any([kept]) == {kept}
    assert plain.clock == pytest.approx(4.0)


def test_a_renewed_call_that_fails_keeps_the_task_as_it_ran():
    pool = _pool(1)
    task = pool.submit(spend, 4.0, "wide")
    pool.renew(task, _fail)
    assert task.result() == "wide" and pool.busy == pytest.approx(4.0)


def _fail() -> None:
    NOW[0] += 0.1
    raise ValueError("no")



def test_alphabeta_on_a_renewing_pool_still_gives_the_minimax_value():
    from parallel_backtrack.games.randomtree import RandomTree
    from parallel_backtrack.games.search import minimax
    from parallel_backtrack.games.ybw import parallel_alphabeta

    renewed = []
    for seed in range(6):
        game = RandomTree(5, 6, seed=seed)
        pool = VirtualExecutor(16, stop_after=0.0)  # every look at once: many renewals
        found = parallel_alphabeta(game, executor=pool, split_depth=2, speculative=True)
        assert found.value == minimax(game, game.initial).value
        renewed.append(pool.renewed)
    assert max(renewed) > 0  # the narrowed calls did end sooner, and answered
