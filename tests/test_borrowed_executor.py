"""A borrowed ``executor=`` is the pool: every public function that takes one refuses
a ``workers`` other than its own, a ``backend`` other than its name and a pool option
with it (a ValueError naming them), where they were silently ignored before; left out
(None, the default), or agreeing with the executor, they are fine."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest

from parallel_backtrack.engine import (
    VirtualExecutor,
    count,
    executors,
    modes,
    solutions,
    solve,
    threshold_search,
)
from parallel_backtrack.engine.examples import NoAdjacentOnes
from parallel_backtrack.engine.executors import check_borrowed, default_workers, pool_for_run
from parallel_backtrack.games import RandomTree
from parallel_backtrack.games.connect4.board import Board as Connect4Board
from parallel_backtrack.games.connect4.parallel import ParallelSolver, parallel_solve
from parallel_backtrack.games.ybw import parallel_alphabeta
from parallel_backtrack.sliding import Board
from parallel_backtrack.sliding.board import to_frame
from parallel_backtrack.sliding.ida import solve as ida_solve
from parallel_backtrack.sliding.ida import solve_parallel
from parallel_backtrack.sliding.space import SlidingSpace

SPACE = NoAdjacentOnes(6)
EIGHT = Board((8, 1, 3, 4, 0, 2, 7, 6, 5))
C4 = Connect4Board(4, 4)
WALK = SlidingSpace(to_frame(Board((1, 2, 3, 4, 5, 6, 7, 0, 8))), 3, "manhattan")

CALLS: dict[str, Callable[..., object]] = {
    "count": lambda **kw: count(SPACE, **kw),
    "solve": lambda **kw: solve(SPACE, **kw),
    "solutions": lambda **kw: list(solutions(SPACE, **kw)),
    "threshold_search": lambda **kw: threshold_search(WALK, **kw),
    "sliding solve": lambda **kw: ida_solve(EIGHT, **kw),
    "sliding solve_parallel": lambda **kw: solve_parallel(EIGHT, **kw),
    "parallel_alphabeta": lambda **kw: parallel_alphabeta(RandomTree(2, 4), **kw),
    "connect4 parallel_solve": lambda **kw: parallel_solve(C4, C4.parse("1"), **kw),
    "connect4 ParallelSolver": lambda **kw: ParallelSolver(C4, **kw),
}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("given, named", [
    ({"workers": 4}, r"^workers=4 is ignored with executor=VirtualExecutor\(2\): "),
    ({"workers": 1}, r"^workers=1 is ignored"),  # the old default of most: still named
    ({"backend": "loky"}, r"^backend='loky' is ignored with executor=VirtualExecutor\(2\)"),
    ({"workers": 3, "backend": "threads"}, r"^workers=3 and backend='threads' are ignored"),
])
def test_workers_or_backend_with_an_executor_is_refused(name: str, given: dict[str, Any],
                                                        named: str) -> None:
    pool = VirtualExecutor(2)
    with pytest.raises(ValueError, match=named + ".*pass one or the other$"):
        CALLS[name](executor=pool, **given)
    assert pool.tasks == 0  # refused before any work


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", ["parallel_alphabeta", "connect4 ParallelSolver"])
def test_a_pool_option_with_an_executor_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match=r"^address='tcp://host:8786' is ignored with "
                                         r"executor=VirtualExecutor\(2\)"):
        CALLS[name](executor=VirtualExecutor(2), address="tcp://host:8786")


def test_a_wrong_workers_with_an_executor_is_a_type_error_first() -> None:
    with pytest.raises(TypeError, match="workers must be a positive integer or -1"):
        count(SPACE, executor=VirtualExecutor(2), workers="2")


@pytest.mark.timeout(120)
def test_the_executor_alone_or_agreeing_arguments_run_on_it() -> None:
    expected = count(SPACE).count
    assert count(SPACE, executor=VirtualExecutor(2)).count == expected
    report = count(SPACE, executor=VirtualExecutor(3), workers=3, backend="virtual")
    assert report.count == expected and report.workers == 3
    found = parallel_alphabeta(RandomTree(2, 4), executor=VirtualExecutor(3))
    assert found.value == parallel_alphabeta(RandomTree(2, 4), workers=1).value
    assert found.workers == 3  # not the default 2 of parallel_alphabeta
    first = solve_parallel(EIGHT, executor=VirtualExecutor(3), parent_nodes=0)
    assert first.moves is not None and len(first.moves) == len(ida_solve(EIGHT).moves or "")


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", sorted(CALLS))
def test_the_executors_own_workers_and_name_are_accepted_by_every_function(name: str) -> None:
    pool = VirtualExecutor(2)
    CALLS[name](executor=pool, workers=2, backend=pool.name)  # agrees: no ValueError


def test_pool_for_run_and_check_borrowed_refuse_what_the_executor_ignores() -> None:
    pool = VirtualExecutor(2)
    check_borrowed(pool)
    check_borrowed(pool, workers=2, backend="virtual", address=None)
    check_borrowed(None, workers=5, backend="loky", address="tcp://h:1")
    with pytest.raises(ValueError, match=r"^workers=5 is ignored"):
        with pool_for_run(pool, 5):
            pass
    with pool_for_run(None) as made:  # no executor, no workers: one, in this process
        assert made.workers == 1


DEFAULTS = {"count": 1, "solve": 1, "solutions": 1, "threshold_search": 1,
            "sliding solve": 1, "sliding solve_parallel": 2, "parallel_alphabeta": 2,
            "connect4 parallel_solve": 2}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", sorted(DEFAULTS))
def test_with_neither_workers_nor_executor_each_takes_its_documented_default(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[int] = []

    def virtual(workers: int, backend: str | None = None, **options: Any) -> VirtualExecutor:
        made.append(workers)
        return VirtualExecutor(workers)

    monkeypatch.setattr(executors, "make_executor", virtual)
    monkeypatch.setattr(modes, "make_executor", virtual)
    CALLS[name]()
    assert made == [DEFAULTS[name]]


def test_default_workers_fills_in_only_when_neither_is_given() -> None:
    assert default_workers(None, None, 2) == 2
    assert default_workers(None, None) == 1
    assert default_workers(None, VirtualExecutor(3), 2) is None  # the executor's own count
    assert default_workers(5, None, 2) == 5


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", sorted(set(CALLS) - {"connect4 ParallelSolver"}))
def test_what_an_executor_would_ignore_is_checked_once_a_call(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[object] = []
    check = executors.check_borrowed

    def counted(executor: Any, workers: object = None, backend: object = None,
                **options: object) -> None:
        if workers is not None:
            checked.append(workers)
        check(executor, workers, backend, **options)

    for module in list(sys.modules.values()):  # wherever it is imported
        if getattr(module, "check_borrowed", None) is check:
            monkeypatch.setattr(module, "check_borrowed", counted)
    CALLS[name](executor=VirtualExecutor(2), workers=2)  # agrees: runs on the executor
    assert checked == [2]
