"""``count_many``: a task's roots in one kernel call, and an ask seen inside the kernel.

Every count here is checked against the plain generic search (``sequential_count``)
or against the same task run one root at a time.
"""

from __future__ import annotations

import numpy as np
import pytest
from sudoku_data import sudoku_file

from parallel_backtrack.engine import (
    FastSpace,
    VirtualExecutor,
    count,
    hooks,
    make_executor,
    sequential_count,
    split,
)
from parallel_backtrack.engine.handback import LOOK_EVERY, Ask
from parallel_backtrack.engine.space import explore
from parallel_backtrack.engine.split import expand, run_subtrees
from parallel_backtrack.engine.window import SharedBounds
from parallel_backtrack.engine.worker import StopFlag
from parallel_backtrack.sudoku.formats import parse_one
from parallel_backtrack.sudoku.kernel import search
from parallel_backtrack.sudoku.search import space_for


def _space(fewer: int = 1):  # noqa: ANN202 - a SudokuSpace
    """The first 17-clue puzzle of tdoku's set with ``fewer`` clues taken out."""
    lines = sudoku_file("tdoku_puzzles2_17_clue_head3000.txt").read_text().splitlines()
    first = next(line for line in lines if line.strip() and not line.startswith("#"))
    cells = list(parse_one(first.split(":")[0].split("\t")[0].strip()))
    for square in [i for i, v in enumerate(cells) if v][:fewer]:
        cells[square] = 0
    return space_for(cells, "fewest")


@pytest.fixture(scope="module")
def space():  # noqa: ANN201
    return _space()


@pytest.fixture(scope="module")
def whole(space):  # noqa: ANN001, ANN201
    return sequential_count(space)


def test_the_kernel_looks_as_often_as_the_engine_says():
    assert search.WATCH_EVERY == LOOK_EVERY


def test_spaces_without_the_hook_decline_and_the_engine_knows_who_offers_it(space):
    class Plain:
        def root(self) -> int:
            return 0

    assert FastSpace().count_many([1, 2], 10) is None
    assert not hooks.offers(Plain(), "count_many") and not hooks.offers(FastSpace(), "count_many")
    assert hooks.offers(space, "count_many") and hooks.offers(space, "count_below")


def test_a_raised_slot_stops_the_kernel_at_its_next_look_and_the_rest_counts_the_same(
        space, whole):
    values = np.zeros(4, dtype=np.int64)
    values[2] = 7
    found, begun = space.count_many([space.root()], 10**9, (values, 2, 7))
    assert begun == 1 and found.nodes == LOOK_EVERY and found.leftover
    rest = run_subtrees(space, [(state, 1) for state in found.leftover], "count", None)
    assert (found.count + rest.count, found.nodes + rest.nodes) == (whole.count, whole.nodes)
    # A slot below the ticket is not an ask: the whole tree in the one call.
    values[2] = 6
    found, begun = space.count_many([space.root()], 10**9, (values, 2, 7))
    assert (found.count, found.nodes, found.leftover, begun) == (
        whole.count, whole.nodes, (), 1)


def test_an_asked_task_stops_inside_its_one_kernel_call_through_the_shared_file(space, whole):
    bounds = SharedBounds(8, -1, shared=True)
    try:
        stop = Ask(StopFlag(), bounds, slot=3, ticket=5, step=LOOK_EVERY)
        bounds.raise_to(3, 5)
        # One call on a budget of the whole tree: only the kernel's look can stop it.
        asked = run_subtrees(space, [(space.root(), 1)], "count", 10**9, stop=stop)
        assert asked.nodes == LOOK_EVERY and asked.leftover
        rest = run_subtrees(space, list(asked.leftover), "count", None)
        assert (asked.count + rest.count, asked.nodes + rest.nodes) == (whole.count, whole.nodes)
        later = Ask(StopFlag(), bounds, slot=3, ticket=5 + 8, step=LOOK_EVERY)  # same slot
        assert run_subtrees(space, [(space.root(), 1)], "count", 10**9, stop=later).nodes == (
            whole.nodes)
    finally:
        bounds.close()


@pytest.mark.parametrize("budget", [1, 37, 500, 4_000, 10**9])
def test_many_roots_in_one_call_leave_what_one_root_at_a_time_leaves(space, budget,
                                                                     monkeypatch):
    roots = expand(space, [(space.root(), 1)], 40).subtrees
    roots = roots[:5] + [(state, 3) for state, _ in roots[5:12]] + roots[12:]
    many = run_subtrees(space, roots, "count", budget)
    monkeypatch.setattr(split, "_count_many", lambda *args: None)  # the space declines
    single = run_subtrees(space, roots, "count", budget)
    assert (many.count, many.nodes, many.untouched) == (single.count, single.nodes,
                                                        single.untouched)
    assert [(state.masks, weight) for state, weight in many.leftover] == [
        (state.masks, weight) for state, weight in single.leftover]
    if budget == 10**9:  # all of it: the weighted counts of the plain generic search
        assert many.count == sum(explore(space, [state]).count * weight
                                 for state, weight in roots)


@pytest.mark.parametrize("backend", ["loky", "threads"])
def test_sudoku_counts_on_real_pools_whose_tail_tasks_watch_their_slot_stay_exact(
        space, whole, backend):
    pool = make_executor(2, backend)
    try:
        report = count(space, executor=pool, budget=3_000)
    finally:
        pool.close()
    assert (report.count, report.nodes) == (whole.count, whole.nodes) and report.complete


def test_a_count_asked_inside_its_kernel_cuts_for_a_shorter_time(monkeypatch, space):
    from parallel_backtrack.engine import scheduler

    cuts = []
    real = scheduler.expand

    def expand(*args, **options):  # noqa: ANN202
        if "least" in options:  # the cut, not a split
            cuts.append(options["seconds"])
        return real(*args, **options)

    monkeypatch.setattr(scheduler, "expand", expand)
    from parallel_backtrack.nqueens import ImmutableQueenLocations
    from parallel_backtrack.nqueens.space import QueensSpace

    queens = QueensSpace(ImmutableQueenLocations(8))
    assert count(space, executor=VirtualExecutor(4)).count == sequential_count(space).count
    assert count(queens, executor=VirtualExecutor(4)).count == 92
    assert cuts == [scheduler.CUT_SECONDS_ASKED, scheduler.CUT_SECONDS]
    assert scheduler.CUT_SECONDS_ASKED < scheduler.CUT_SECONDS
