"""The threshold search measures the parent's cost per task (its own time with tasks in
flight, not its waits or cuts, over the tasks it sent) and plans with it."""

from __future__ import annotations

from sliding_check import solves

from parallel_backtrack.engine import VirtualExecutor
from parallel_backtrack.engine.threshold import TASK_COST, TASK_COST_RANGE, threshold_search
from parallel_backtrack.sliding import Board
from parallel_backtrack.sliding.board import to_frame
from parallel_backtrack.sliding.ida import solve
from parallel_backtrack.sliding.space import SlidingSpace

KORF_79 = (0, 1, 9, 7, 11, 13, 5, 3, 14, 12, 4, 2, 8, 6, 10, 15)  # 42 moves


def test_the_parent_cost_per_task_is_measured_without_the_tasks_time() -> None:
    board = Board(KORF_79, "blank-first")
    space = SlidingSpace(to_frame(board), 4, "manhattan")
    one = solve(board, "manhattan", complete_last=True)
    alone = threshold_search(space, workers=1)
    assert alone.task_cost == TASK_COST  # no task sent: the prior
    pool = VirtualExecutor(64)
    report = threshold_search(space, executor=pool, complete_last=True, parent_nodes=0)
    assert pool.tasks >= 8 and report.nodes == one.nodes
    # Part of the pool's parent time (which has the cuts and waits' bookkeeping too),
    # nothing of the tasks' own time, which the virtual pool keeps apart.
    low, high = TASK_COST_RANGE
    assert report.task_cost != TASK_COST
    assert low <= report.task_cost <= max(low, pool.parent / pool.tasks)
    moves = "".join("ULRD"[m] for m in report.solution.moves)
    assert len(moves) == 42 and solves(board.tiles, moves, "blank-first")
