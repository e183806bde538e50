import time

import pytest

from parallel_backtrack.engine import (
    SearchInterrupted,
    count,
    first_hit,
    sequential_count,
    sequential_solutions,
    solutions,
    solve,
)
from parallel_backtrack.engine.examples import NoAdjacentOnes, SubsetSum

RUNS = [(1, None), (2, "serial"), (2, "threads"), (2, "loky"), (2, "fork")]
SPACES = [NoAdjacentOnes(13), SubsetSum(tuple(range(1, 17)), 40)]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("workers,backend", RUNS)
@pytest.mark.parametrize("budget", [3, 50, None])
@pytest.mark.parametrize("per_worker", [1, 30])
@pytest.mark.parametrize("space", SPACES, ids=["strings", "subsets"])
def test_count_is_exact_for_every_backend_budget_and_split(space, workers, backend, budget,
                                                            per_worker):
    report = count(space, workers=workers, backend=backend, budget=budget,
                   per_worker=per_worker)
    assert report.count == sequential_count(space).count
    assert report.complete and report.stop_reason is None
    assert report.tasks == len(report.task_seconds) == len(report.task_workers)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("workers,backend", RUNS)
@pytest.mark.parametrize("limit", [None, 0, 1, 7, 10**6])
def test_solution_stream_is_the_sequential_order(workers, backend, limit):
    space = SubsetSum(tuple(range(1, 14)), 25)
    stream = solutions(space, limit=limit, workers=workers, backend=backend, budget=11,
                       per_worker=5)
    found = list(stream)
    assert found == sequential_solutions(space, limit)
    assert all(space.is_solution(state) and sum(1 + i for i in state[2]) == 25
               for state in found)
    assert stream.report.count == len(found)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("workers,backend", RUNS)
def test_solve_returns_a_checked_solution_or_none(workers, backend):
    space = SubsetSum(tuple(range(2, 40, 3)), 61)
    report = solve(space, workers=workers, backend=backend, budget=20)
    _, total, chosen = report.solution
    assert total == 61 == sum(space.values[i] for i in chosen)
    assert solve(SubsetSum((2, 4, 6), 5), workers=workers, backend=backend).solution is None


@pytest.mark.parametrize("limit", [0, 1, 100, 10**9])
def test_count_with_limit_is_min_of_total_and_limit(limit):
    space = NoAdjacentOnes(12)
    report = count(space, workers=2, backend="threads", limit=limit, budget=5)
    assert report.count == min(limit, sequential_count(space).count)


def test_count_reports_nodes_tasks_and_worker_stats():
    space = NoAdjacentOnes(14)
    report = count(space, workers=2, backend="threads", budget=40, per_worker=4)
    assert report.nodes == sequential_count(space).nodes
    stats = report.worker_stats()
    assert sum(s.tasks for s in stats) == report.tasks
    assert sum(s.node_share for s in stats) == pytest.approx(1.0)
    assert report.frontier >= 8 and report.as_dict()["count"] == report.count


def test_timeout_stops_with_a_partial_result():
    space = SubsetSum(tuple(range(1, 60)), 900)
    started = time.perf_counter()
    report = count(space, workers=1, timeout=0.3, budget=500)
    assert time.perf_counter() - started < 3
    assert not report.complete and report.stop_reason == "timeout"


@pytest.mark.parametrize("name,value,match", [
    ("budget", 0, "budget must be a positive integer or None, got 0"),
    ("budget", "x", "budget must be a positive integer or None, got 'x'"),
    ("budget", 2.5, "budget must be a positive integer or None, got 2.5"),
    ("per_worker", -3, "per_worker must be a positive integer or None, got -3"),
    ("timeout", 0, "timeout must be a positive number \\(seconds\\) or None, got 0"),
    ("timeout", "x", "timeout must be a positive number \\(seconds\\) or None, got 'x'"),
    ("budget_seconds", float("nan"), "budget_seconds must be a positive number \\(seconds\\)"),
    ("limit", -1, "limit must be a non-negative integer"),
    ("limit", 2.5, r"limit must be a non-negative integer or None, got 2\.5"),
    ("limit", "3", "limit must be a non-negative integer or None, got '3'"),
    ("limit", True, "limit must be a non-negative integer or None, got True"),
    ("workers", 0, r"workers must be a positive integer or -1 \(all cores\), got 0"),
    ("workers", -2, "got -2"),
    ("backend", "lokky", r"unknown backend 'lokky'.*did you mean 'loky'"),
])
def test_bad_arguments_are_named_in_the_error(name, value, match):
    with pytest.raises(ValueError, match=match):
        count(NoAdjacentOnes(3), **{name: value})


@pytest.mark.timeout(30)
@pytest.mark.parametrize("mode", ["count", "solve", "solutions"])
@pytest.mark.parametrize("options", [{}, {"workers": 2, "backend": "threads"}])
def test_every_mode_refuses_a_bad_argument_before_any_work(mode, options):
    """``solutions(limit=2.5)`` on one worker hung, and on two gave 3 solutions."""
    call = {"count": count, "solve": solve, "solutions": solutions}[mode]
    bad = [({"per_worker": 0}, "per_worker must be a positive integer or None, got 0"),
           ({"budget": "x"}, "budget must be a positive integer or None, got 'x'"),
           ({"timeout": "x"}, "timeout must be a positive number \\(seconds\\) or None")]
    if mode != "solve":
        bad.append(({"limit": 2.5}, r"limit must be a non-negative integer or None, "
                                    r"got 2\.5"))
    for arguments, match in bad:
        with pytest.raises(ValueError, match=match):
            call(NoAdjacentOnes(10), **arguments, **options)  # raised at the call


@pytest.mark.parametrize("call", [count, solve, solutions, sequential_count,
                                  sequential_solutions])
@pytest.mark.parametrize("space", [None, 42, "NoAdjacentOnes(3)"])
def test_something_that_is_not_a_space_is_a_type_error(call, space):
    with pytest.raises(TypeError, match=(
            r"expected a search space \(engine.Space\): an object with root\(\), "
            r"branch\(state\) and is_solution\(state\); got .*, which has no root")):
        call(space)


def test_a_pool_is_an_executor_or_an_address_not_both():
    from parallel_backtrack.engine import make_executor

    space = NoAdjacentOnes(3)
    with pytest.raises(TypeError, match=(
            r"executor must be an Executor \(engine.make_executor\(...\)\) or None, "
            r"got 'threads'; to name a backend, pass backend='threads'")):
        count(space, executor="threads")
    with pytest.raises(TypeError, match="backend must be a backend's name"):
        solve(space, backend=2)
    with pytest.raises(TypeError, match="address must be a Dask scheduler's address"):
        solutions(space, address=8786)
    pool = make_executor(2, "threads")
    try:
        with pytest.raises(ValueError, match="pass executor or address, not both"):
            count(space, executor=pool, address="tcp://127.0.0.1:8786")
        assert count(space, executor=pool).count == 5  # the pool is still usable
    finally:
        pool.close()


def test_a_report_repr_shows_list_lengths_not_lists():
    report = count(NoAdjacentOnes(14), workers=2, backend="threads", budget=50)
    text = repr(report)
    assert report.tasks > 20 and len(text) < 600
    assert f"task_nodes=[{report.tasks} items]" in text
    assert text.startswith("SearchReport(mode='count', workers=2, backend='threads', "
                           "count=987, nodes=")
    assert len(report.task_nodes) == report.tasks  # the fields themselves unchanged


def test_a_solution_stream_repr_says_what_it_is():
    stream = solutions(NoAdjacentOnes(5), limit=3)
    assert repr(stream) == "SolutionStream(limit=3, released=0, workers=1, backend='serial')"
    assert len(list(stream)) == 3
    assert repr(stream) == "SolutionStream(limit=3, released=3, workers=1, backend='serial')"


def test_interrupt_carries_the_partial_report():
    class Interrupting(NoAdjacentOnes):
        def branch(self, state):
            if len(state) == 6:
                raise KeyboardInterrupt
            return NoAdjacentOnes.branch(self, state)

    with pytest.raises(SearchInterrupted) as stop:
        count(Interrupting(10), budget=3)
    assert not stop.value.report.complete
    assert stop.value.report.stop_reason == "interrupted"


def _slow_square(x, delay):
    time.sleep(delay)
    return x * x if x != 0 else None


@pytest.mark.timeout(60)
@pytest.mark.parametrize("backend", ["threads", "loky"])
def test_first_hit_returns_the_first_result_and_skips_none(backend):
    index, value = first_hit(_slow_square, [(0, 0.0), (3, 0.05), (4, 2.0)], workers=2,
                             backend=backend)
    assert (index, value) == (1, 9)
    assert first_hit(_slow_square, [(0, 0.0)], workers=1) == (-1, None)


# -- budgets, adaptive splitting, bounded pending work ------------------------------

def worker_seconds(report):
    return [s for s, w in zip(report.task_seconds, report.task_workers) if w != "parent"]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("workers,backend", [(2, "threads"), (2, "loky")])
def test_time_budget_bounds_every_task_and_keeps_counts_exact(workers, backend,
                                                              monkeypatch):
    from parallel_backtrack.engine import scheduler

    monkeypatch.setattr(scheduler, "PROBE_BUDGETS", 0)
    space = NoAdjacentOnes(24)
    # One subtree per worker: without the time budget a task would search half the tree
    # (some 38% of the nodes in one task, measured), in a tenth of a second or more.
    report = count(space, workers=workers, backend=backend, budget_seconds=0.005, per_worker=1)
    assert report.count == 121393 and report.budget is None and report.budget_seconds == 0.005
    assert report.nodes == sequential_count(space).nodes
    assert len(worker_seconds(report)) > 2
    # 5 ms of nodes is a few % of the tree's 317,809 (the clock is read every few hundred
    # nodes).  Counted in nodes, a task the machine's load stretched in wall time does
    # not look longer: it did fewer nodes in its 5 ms, not more.
    task_nodes = [n for n, w in zip(report.task_nodes, report.task_workers) if w != "parent"]
    assert max(task_nodes) < report.nodes / 5, (max(task_nodes), report.nodes)


@pytest.mark.timeout(120)
def test_time_and_node_budgets_together_stop_at_the_first_reached():
    report = count(NoAdjacentOnes(18), workers=2, backend="threads", budget=40,
                   budget_seconds=10.0)
    assert report.count == 6765 and max(report.task_nodes) <= 40 * 8  # the probe: 8 budgets
    assert max(n for n, w in zip(report.task_nodes, report.task_workers) if w != "parent") <= 40


@pytest.mark.timeout(120)
def test_tasks_get_the_whole_budget_while_much_is_pending_and_less_later(monkeypatch):
    import pickle

    from parallel_backtrack.engine import pending, scheduler

    budgets = []

    def recording(arguments):
        budgets.append(pickle.loads(arguments)[3])
        return scheduler.run_task(*pickle.loads(arguments))

    monkeypatch.setattr(scheduler, "PROBE_BUDGETS", 0)
    monkeypatch.setattr(scheduler, "run_pickled", recording)
    # Python tasks on threads share the parent's GIL: what the parent measures a task
    # to cost would lift the tail's budget (``pending.feed``, tested on its own).
    monkeypatch.setattr(pending, "FEED", 0)
    space = NoAdjacentOnes(22)
    report = count(space, workers=2, backend="threads", budget=800, per_worker=30)
    assert report.count == sequential_count(space).count
    tail = 800 // pending.TAIL_SHRINK
    assert set(budgets) <= {800, 800 // 2, tail}
    assert budgets[0] == 800 // 2  # nothing measured yet: no sure sign of plenty
    assert 800 in budgets  # 60 subtrees of some 1,600 nodes each: plenty pending
    assert tail in budgets and budgets.index(tail) > budgets.index(800)
    assert max(n for n, w in zip(report.task_nodes, report.task_workers) if w != "parent") <= 800


@pytest.mark.timeout(120)
def test_a_small_split_is_refined_so_every_worker_is_fed(monkeypatch):
    from parallel_backtrack.engine import scheduler

    monkeypatch.setattr(scheduler, "PROBE_BUDGETS", 0)
    # One subtree per worker and a budget no task reaches: only splitting makes work.
    report = count(NoAdjacentOnes(20), workers=4, backend="threads", per_worker=1,
                   budget=10**6)
    assert report.count == 17711
    assert report.tasks > report.frontier + 1
    assert len({w for w in report.task_workers if w != "parent"}) >= 2


@pytest.mark.timeout(120)
def test_pending_work_is_capped(monkeypatch):
    from parallel_backtrack.engine import scheduler

    monkeypatch.setattr(scheduler, "MAX_PENDING", 50)
    report = count(NoAdjacentOnes(20), workers=2, backend="threads", per_worker=1000,
                   budget=30)
    assert report.count == 17711
    assert report.frontier <= 50
    # Leftovers of the tasks in flight may land on top of the cap, never more.
    assert report.peak_pending <= 50 + 2 * 2 * 21


@pytest.mark.timeout(120)
@pytest.mark.parametrize("workers,backend", [(2, "threads"), (2, "loky")])
def test_budget_seconds_streams_stay_in_order(workers, backend):
    space = SubsetSum(tuple(range(1, 16)), 30)
    found = list(solutions(space, workers=workers, backend=backend, budget_seconds=0.001,
                           per_worker=2))
    assert found == sequential_solutions(space)


def test_budget_seconds_is_validated():
    with pytest.raises(ValueError, match=r"budget_seconds must be a positive number "
                                         r"\(seconds\) or None, got 0"):
        count(NoAdjacentOnes(3), budget_seconds=0)


def test_progress_bar_shows_tasks_nodes_solutions_and_rate(capsys, monkeypatch):
    from parallel_backtrack.engine import progress

    monkeypatch.setattr(progress, "MININTERVAL", 0)
    count(NoAdjacentOnes(16), workers=2, backend="threads", budget=50, progress=True)
    err = capsys.readouterr().err
    for text in ("search", "task", "pending=", "nodes=", "solutions=", "nodes/s="):
        assert text in err
    count(NoAdjacentOnes(16), workers=2, backend="threads", budget=50, progress=False)
    assert capsys.readouterr().err == ""


def test_report_has_the_worker_table_and_costs():
    report = count(NoAdjacentOnes(16), workers=2, backend="threads", budget=50)
    data = report.as_dict()
    for key in ("budget", "dispatch_seconds", "collect_seconds", "setup_seconds",
                "peak_pending", "restarts", "worker_stats"):
        assert key in data
    # Each worker's row, recomputed from the per-task lists: its tasks, the sum of their
    # seconds, the rest of the run idle, its share of the task nodes.
    rows = {stats["worker"]: stats for stats in data["worker_stats"]}
    assert set(rows) == set(report.task_workers)
    assert len(set(rows) - {"parent"}) <= 2  # two threads at most
    for worker, stats in rows.items():
        mine = [i for i, w in enumerate(report.task_workers) if w == worker]
        busy = sum(report.task_seconds[i] for i in mine)
        nodes = sum(report.task_nodes[i] for i in mine)
        assert stats["tasks"] == len(mine)
        assert busy <= report.seconds + 1e-3  # one worker runs one task at a time
        assert stats["busy_seconds"] == pytest.approx(busy, abs=2e-6)
        assert stats["idle_seconds"] == pytest.approx(max(0.0, report.seconds - busy), abs=2e-6)
        assert stats["node_share"] == pytest.approx(nodes / sum(report.task_nodes), abs=2e-6)
    assert sum(stats["tasks"] for stats in rows.values()) == report.tasks
    table = report.task_table()
    assert len(table["task_seconds"]) == len(table["task_parents"]) == report.tasks
    assert all(-1 <= p < i for i, p in enumerate(table["task_parents"]))


@pytest.mark.timeout(60)
def test_once_the_pool_starts_the_parent_probes_in_short_rounds(monkeypatch):
    """Warm workers wait for the parent's round to end before they get work: rounds
    begin at WARMING_ROUND_SECONDS once the pool starts and double up to
    PROBE_ROUND_SECONDS, so a pool that is warm in 30 ms is fed some 10 ms later,
    not after a whole 50 ms round."""
    from parallel_backtrack.engine import probe
    from parallel_backtrack.engine.executors import ThreadExecutor
    from parallel_backtrack.engine.worker import warm_task

    limits = []
    probe_round = probe.Probe.round

    def recorded(self, roots, budgets, limit, round_):
        limits.append(limit)
        return probe_round(self, roots, budgets, limit, round_)

    monkeypatch.setattr(probe.Probe, "round", recorded)

    class WarmIn30ms(ThreadExecutor):
        slow_start = True
        start_cost = 0.02

        def submit(self, fn, *args):
            if fn is warm_task:
                return super().submit(lambda handle: time.sleep(0.03) or 0.0, *args)
            return super().submit(fn, *args)

    space = NoAdjacentOnes(27)  # some 0.7 s: far more than the probe can finish
    report = count(space, executor=WarmIn30ms(2), budget=20_000)
    assert report.count == 514_229  # Fibonacci(29): 27 bits, no two 1s adjacent
    assert limits[0] == 0.02  # the first round: the executor's start cost
    doubling = [probe.WARMING_ROUND_SECONDS * 2**k for k in range(4)] + [0.05] * 50
    assert len(limits) >= 2 and limits[1:] == doubling[:len(limits) - 1]
    assert max(limits[1:]) <= probe.PROBE_ROUND_SECONDS


def test_the_modes_docstring_examples_run():
    import doctest

    from parallel_backtrack.engine import modes

    assert doctest.testmod(modes).failed == 0
