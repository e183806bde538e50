"""Threshold tasks asked for their rest: a task hands back the subtrees it has not
started (after one at least), the parent sends them out a subtree a task, the virtual
pool models the ask, and IDA* stays optimal with exact node counts."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from sliding_check import solves

import parallel_backtrack.engine.threshold as threshold_module
from parallel_backtrack.engine import VirtualExecutor, handback, make_executor
from parallel_backtrack.engine.frontier import Part
from parallel_backtrack.engine.handback import Asks
from parallel_backtrack.engine.threshold import _Search, threshold_search
from parallel_backtrack.engine.threshold_tasks import AskAt, Tasks, run_part, search_budgeted
from parallel_backtrack.engine.worker import StopFlag
from parallel_backtrack.sliding import Board, rest
from parallel_backtrack.sliding import space as space_module
from parallel_backtrack.sliding.board import to_frame
from parallel_backtrack.sliding.ida import solve
from parallel_backtrack.sliding.space import ASK_CHUNK, SlidingSpace

KORF_79 = (0, 1, 9, 7, 11, 13, 5, 3, 14, 12, 4, 2, 8, 6, 10, 15)  # 42 moves, 540,860 nodes
BOUND = 40


class _Local:
    shares_files = True


def _space() -> SlidingSpace:
    return SlidingSpace(to_frame(Board(KORF_79, "blank-first")), 4, "manhattan")


@pytest.mark.parametrize("complete", [True, False])
def test_an_asked_task_searches_one_subtree_and_hands_back_the_others(complete: bool) -> None:
    space = _space()
    frontier = space.cut(BOUND, 16, None)
    part = frontier.part(0, len(frontier))
    never = lambda nodes=0: False  # noqa: E731
    whole = space.search_part(part, BOUND, complete, never, None)
    asked = space.search_part(part, BOUND, complete, never, None, lambda spent: True)
    assert len(frontier) > 2 and len(whole.nodes) == len(frontier)
    assert max(whole.nodes) < ASK_CHUNK  # asked between subtrees alone: none is split
    assert asked.nodes == whole.nodes[:1] and asked.rest is None  # none started after
    states = list(space.branch(space.root()))
    generic = search_budgeted(space, states, BOUND, complete, never, None, lambda spent: True)
    assert len(states) > 1 and generic.nodes == search_budgeted(
        space, states[:1], BOUND, complete, never, None).nodes


def test_a_task_sees_its_ask_through_the_shared_file() -> None:
    space = _space()
    frontier = space.cut(BOUND, 16, None)
    context = pickle.dumps((space, StopFlag(None)))
    asks = Asks(_Local(), workers=2)
    try:
        stop = asks.stop(StopFlag(None), step=1)
        part = frontier.part(0, len(frontier))
        _, unasked, _ = run_part(context, 0, part, BOUND, True, None, pickle.loads(
            pickle.dumps(stop)))
        asks.ask(stop)
        start, found, _ = run_part(context, 0, part, BOUND, True, None, pickle.loads(
            pickle.dumps(stop)))  # as a worker gets it
    finally:
        asks.close()
    assert len(unasked.nodes) == len(frontier) > 1
    assert start == 0 and found.nodes == unasked.nodes[:1]


def test_the_rest_of_an_asked_task_goes_out_in_a_piece_for_each_idle_worker() -> None:
    weights = [1.0] * 20
    tasks = Tasks(weights, [(0, 10), (10, 20)], 100.0, 4, least=50.0)
    tasks.next()
    tasks.returned(0, 10, [100], solved=False)  # out of budget: light rest, one piece
    assert list(tasks.queue) == [(1, 10, None), (10, 20, None)]
    tasks.queue.popleft()
    tasks.returned(0, 10, [100, 100], solved=False, idle=3)  # asked for 3 idle workers
    assert list(tasks.queue)[:3] == [(2, 5, None), (5, 8, None), (8, 10, None)]
    tasks = Tasks(weights, [(0, 4)], 100.0, 8, least=50.0)
    tasks.next()
    tasks.returned(0, 4, [100], solved=False, idle=8)  # fewer subtrees than idle workers
    assert list(tasks.queue) == [(1, 2, None), (2, 3, None), (3, 4, None)]


@pytest.mark.parametrize("splits", [False, True])
def test_the_virtual_pool_reruns_an_asked_task_asked_at_its_share(splits: bool) -> None:
    space = _space() if splits else object()  # may it split a subtree?
    search = _Search(space, VirtualExecutor(2), None, False, None)  # type: ignore[arg-type]
    arguments = ("context", 0, "part", BOUND, False, 10**9, "ask")
    result = (0, Part([10, 30, 60], 42.0, None), 1.0)
    call = search._rerun(arguments, 0.25, result)  # 25 of 100 nodes: in the second subtree
    assert call is not None and call[:7] == (run_part, "context", 0, "part", BOUND, False,
                                             10**9)
    assert isinstance(call[7], AskAt) and call[7].nodes == 25
    first = search._rerun(arguments, 0.0, result)
    assert first is not None and first[7].nodes == 1  # one at least
    last = search._rerun(arguments, 0.5, result)  # in the last subtree
    assert (last is not None and last[7].nodes == 50) if splits else last is None
    assert search._rerun(arguments, 1.0, result) is None  # at its end: nothing to split


def _ask_any(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ask any task running, in any iteration."""
    monkeypatch.setattr(handback, "ASK_AFTER", 0.0)
    monkeypatch.setattr(threshold_module, "ASK_WORK", 0.0)


@pytest.mark.parametrize("workers", [8, 64])
def test_ida_on_virtual_workers_asks_and_stays_exact(monkeypatch: pytest.MonkeyPatch,
                                                     workers: int) -> None:
    board = Board(KORF_79, "blank-first")
    one = solve(board, "manhattan", complete_last=True)
    space = SlidingSpace(to_frame(board), 4, "manhattan")
    # Iterations under ASK_WORK are never asked.  Korf #79's largest is some 10 ms of
    # work a worker at 8 workers, near the real ASK_WORK on a slow host, so the test
    # sets it above any: whether an iteration reaches it follows the measured rate.
    monkeypatch.setattr(threshold_module, "ASK_WORK", float("inf"))
    small = threshold_search(space, executor=VirtualExecutor(workers), complete_last=True,
                             parent_nodes=0)
    assert small.asked == 0 and small.nodes == one.nodes
    _ask_any(monkeypatch)  # a small puzzle: ask any task running
    pool = VirtualExecutor(workers)
    report = threshold_search(space, executor=pool, complete_last=True, parent_nodes=0)
    assert report.asked > 0 and 0 < pool.handed <= report.asked
    assert report.nodes == one.nodes
    first = solve(board, "manhattan", workers=workers, executor=VirtualExecutor(workers),
                  parent_nodes=0)
    for moves in (first.moves or "", one.moves or ""):
        assert len(moves) == 42 and solves(board.tiles, moves, "blank-first")
    assert first.nodes <= one.nodes


def test_the_open_part_of_a_split_subtree_goes_out_first_in_order() -> None:
    class Roots:  # what a task hands back: three roots, the first the heaviest
        weights = [4.0, 1.0, 1.0]

        def __len__(self) -> int:
            return 3

    tasks = Tasks([1.0] * 10, [(0, 10)], 100.0, 4, least=50.0)
    tasks.next()
    roots = Roots()
    tasks.returned(0, 10, [100, 100, 80], solved=False, idle=2, rest=roots)  # split the 3rd
    assert tasks.done_nodes == 200 and tasks.done_weight == 2.0  # the split one not counted
    items = list(tasks.queue)
    assert [item[:2] for item in items] == [(0, 1), (1, 3), (3, 10)]  # 2 idle: 2 pieces
    piece = items[0][2]
    assert piece is items[1][2] and items[2][2] is None and piece.rest is roots
    assert piece.index == 2 and tasks.next() == (0, 1, None, piece)  # no budget: asks split
    assert (2, 1) < piece.solution_key(0) < piece.solution_key(1) < (3, 1)
    tasks.returned(1, 3, [10], solved=False, idle=1, piece=piece, rest=roots)  # split again
    inner = tasks.queue[0][2]
    assert inner.index == 2 and inner.key == (1,) and tasks.queue[1] == (2, 3, piece)
    assert piece.solution_key(1) < inner.solution_key(0) < piece.solution_key(2)


def _asked_early(context: bytes, start: int, part: Any, bound: float, complete: bool,
                 budget: int | None = None, ask: Any = None, *handle: Any) -> Any:
    """A task asked as soon as it has spent 3,000 nodes, whatever the parent does."""
    return run_part(context, start, part, bound, complete, budget, AskAt(3_000), *handle)


@pytest.mark.parametrize("pool", ["virtual 2", "virtual 64", "threads 2"])
def test_ida_splits_asked_subtrees_and_stays_exact(monkeypatch: pytest.MonkeyPatch,
                                                   pool: str) -> None:
    monkeypatch.setattr(threshold_module, "run_part", _asked_early)  # every task asked
    monkeypatch.setattr(space_module, "ASK_CHUNK", 256)  # look for asks often
    monkeypatch.setattr(rest, "KEEP", 3)
    board = Board(KORF_79, "blank-first")
    one = solve(board, "manhattan", complete_last=True)
    space = SlidingSpace(to_frame(board), 4, "manhattan")
    kind, workers = pool.split()
    executor = VirtualExecutor(int(workers)) if kind == "virtual" else make_executor(2, kind)
    try:
        report = threshold_search(space, executor=executor, complete_last=True,
                                  parent_nodes=0)
    finally:
        executor.close()
    assert report.split > 0 and report.nodes == one.nodes
    moves = "".join("ULRD"[m] for m in report.solution.moves)
    assert moves == one.moves and solves(board.tiles, moves, "blank-first")


@pytest.mark.parametrize("backend", ["loky", "threads"])
def test_ida_with_asks_on_real_pools_counts_the_sequential_nodes(
        monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    _ask_any(monkeypatch)
    board = Board(KORF_79, "blank-first")
    one = solve(board, "manhattan", complete_last=True)
    pool = make_executor(2, backend)
    try:
        many = solve(board, "manhattan", complete_last=True, workers=2, executor=pool,
                     parent_nodes=0)
    finally:
        pool.close()
    assert many.nodes == one.nodes and len(many.moves or "") == 42
    assert solves(board.tiles, many.moves or "", "blank-first")
