"""Parallel IDA* at scale: the compiled cut against the generic one, the task plan, and
node counts on 2 to 256 simulated workers equal to the sequential ones."""

from __future__ import annotations

import random

import pytest
from sliding_check import CACHE, solves

from parallel_backtrack.engine import VirtualExecutor
from parallel_backtrack.engine.frontier import ListFrontier, pack, task_sizes
from parallel_backtrack.sliding import Board
from parallel_backtrack.sliding.board import board_moves, to_frame
from parallel_backtrack.sliding.ida import solve
from parallel_backtrack.sliding.space import SlidingSpace

assert CACHE
KORF_12 = (14, 1, 9, 6, 4, 8, 12, 5, 7, 2, 3, 0, 10, 11, 13, 15)  # 45 moves
KORF_79 = (0, 1, 9, 7, 11, 13, 5, 3, 14, 12, 4, 2, 8, 6, 10, 15)  # 42 moves, 540,860 nodes


@pytest.mark.parametrize("heuristic", ["manhattan", "linear", "pdb-555"])
@pytest.mark.parametrize("target", [2, 7, 60, 900])
def test_the_compiled_cut_is_the_generic_cut(heuristic: str, target: int) -> None:
    board = Board(KORF_12, "blank-first")
    space = SlidingSpace(to_frame(board), 4, heuristic)
    bound = space.f(space.root()) + 4
    fast, slow = space.cut(bound, target, None), ListFrontier(space, bound, target)
    assert (fast.nodes, fast.next_bound, len(fast)) == (slow.nodes, slow.next_bound, len(slow))
    assert [tuple(row) for row in fast.tiles.tolist()] == [s.tiles for _, s in slow.items]
    assert list(fast.codes) == sorted(fast.codes)  # codes rise in search order
    deeper = space.cut(bound, 1, fast)  # never shallower than the previous cut
    assert deeper.depth == fast.depth


def test_a_goal_above_the_cut_is_found_there() -> None:
    board = Board((1, 2, 3, 4, 5, 6, 7, 0, 8))  # one move from the goal
    space = SlidingSpace(to_frame(board), 3, "manhattan")
    frontier = space.cut(1, 50, None)
    assert frontier.solution is not None and frontier.nodes == 3  # the blank's 3 moves
    assert board_moves(board, list(frontier.solution.moves)) == "R"


def test_pack_follows_the_shares() -> None:
    weights = [1.0] * 100
    ranges = pack(weights, [3, 1])
    assert ranges == [(0, 75), (75, 100)]
    ranges = pack([5, 0, 0, 1, 1, 1, 1, 1], [1, 1, 1, 1])
    assert ranges[0] == (0, 1) and ranges[-1][1] == 8
    assert all(a < b for a, b in ranges) and all(x[1] == y[0] for x, y in zip(ranges, ranges[1:]))


def _pack_by_loop(weights: list[float], shares: list[float]) -> list[tuple[int, int]]:
    """``pack`` as first written: a range ends where the running total reaches its mark."""
    total, whole = float(sum(weights)) or 1.0, float(sum(shares)) or 1.0
    marks, running = [], 0.0
    for share in shares[:-1]:
        running += share
        marks.append(total * running / whole)
    ranges, start, done, at = [], 0, 0.0, 0
    for index, weight in enumerate(weights):
        done += weight
        if at < len(marks) and done >= marks[at] and index + 1 < len(weights):
            ranges.append((start, index + 1))
            start = index + 1
            while at < len(marks) and done >= marks[at]:
                at += 1
    return ranges + [(start, len(weights))] if start < len(weights) else ranges


def test_pack_by_binary_search_is_pack_by_loop() -> None:
    """The binary search over running totals cuts the same ranges as the loop, zero and
    huge weights included."""
    rng = random.Random(7)
    for _ in range(3000):
        weights = [rng.choice([0.0, 1.0, 2.5, 1e6, rng.random() * 10])
                   for _ in range(rng.randint(1, 50))]
        shares = [rng.choice([1.0, 2.0, rng.random() + 0.01]) for _ in range(rng.randint(1, 20))]
        assert pack(weights, shares) == _pack_by_loop(weights, shares)
    weights = [rng.random() * 100 for _ in range(16_000)]
    shares = task_sizes(10.0, 256, 2e-4)
    assert pack(weights, shares) == _pack_by_loop(weights, shares)


@pytest.mark.parametrize("work, workers", [(10.0, 64), (10.0, 256), (0.05, 64), (1e-3, 8)])
def test_task_sizes_cover_the_work(work: float, workers: int) -> None:
    sizes = task_sizes(work, workers, 2e-4)
    assert sum(sizes) == pytest.approx(work)
    assert min(sizes) > 0 and len(sizes) <= 33 * workers
    wave = sizes[: min(workers, len(sizes))] if workers > 8 else sizes
    assert wave == sorted(wave, reverse=True)  # sent later, smaller: they end together


@pytest.mark.parametrize("workers", [2, 8, 64, 256])
def test_simulated_workers_count_the_sequential_nodes(workers: int) -> None:
    board = Board(KORF_79, "blank-first")
    one = solve(board, "manhattan", complete_last=True)
    for options in ({"parent_nodes": 0}, {}):  # every iteration dispatched; the plan's choice
        many = solve(board, "manhattan", complete_last=True, workers=workers,
                     executor=VirtualExecutor(workers), **options)
        assert many.nodes == one.nodes and many.iterations == one.iterations
        assert len(many.moves or "") == 42 and solves(board.tiles, many.moves or "",
                                                      "blank-first")
    first = solve(board, "manhattan", workers=workers, executor=VirtualExecutor(workers),
                  parent_nodes=0)
    assert len(first.moves or "") == 42 and first.nodes <= one.nodes


@pytest.mark.parametrize("workers", [2, 64])
@pytest.mark.parametrize("complete", [True, False])
def test_tasks_out_of_budget_hand_back_the_rest(monkeypatch: pytest.MonkeyPatch, workers: int,
                                                complete: bool) -> None:
    """Budgets far too small: nearly every task stops after its first subtree and hands
    back the rest; the leftovers are searched once each (same nodes, same optimum)."""
    from parallel_backtrack.engine import threshold_tasks

    board = Board(KORF_79, "blank-first")
    one = solve(board, "manhattan", complete_last=True)
    handed: list[int] = []
    returned = threshold_tasks.Tasks.returned

    def spy(self: threshold_tasks.Tasks, *args: object) -> None:
        returned(self, *args)  # type: ignore[arg-type]
        handed.append(self.handed_back)

    monkeypatch.setattr(threshold_tasks, "SLACK", 1e-6)
    monkeypatch.setattr(threshold_tasks, "LEAST_BUDGET", 1)
    monkeypatch.setattr(threshold_tasks.Tasks, "returned", spy)
    many = solve(board, "manhattan", complete_last=complete, workers=workers,
                 executor=VirtualExecutor(workers), parent_nodes=0)
    assert max(handed) > 0
    assert len(many.moves or "") == 42 and solves(board.tiles, many.moves or "", "blank-first")
    assert many.nodes == one.nodes if complete else many.nodes <= one.nodes


def test_search_budgeted_stops_between_subtrees() -> None:
    from parallel_backtrack.engine.threshold_tasks import search_budgeted

    space = SlidingSpace(to_frame(Board(KORF_79, "blank-first")), 4, "manhattan")
    states = list(space.branch(space.root()))
    whole = search_budgeted(space, states, 40, True, lambda nodes=0: False, None)
    first = search_budgeted(space, states, 40, True, lambda nodes=0: False, 1)
    assert len(states) > 1 and whole.nodes[0] > 0
    assert len(whole.nodes) == len(states) and first.nodes == whole.nodes[:1]
