"""The lab's abstract metrics: tasks, work, span, parallelism."""

import json

import pytest

from parallel_backtrack.engine import Metrics, TooManyNodesError, metrics, sequential_count
from parallel_backtrack.engine.examples import NoAdjacentOnes, SubsetSum
from parallel_backtrack.nqueens.__main__ import main
from parallel_backtrack.nqueens.board import ImmutableQueenLocations
from parallel_backtrack.nqueens.space import QueensSpace


def queens(n: int) -> QueensSpace:
    return QueensSpace(ImmutableQueenLocations(n), kernel="reference")


def test_four_queens_has_the_labs_figures():
    found = metrics(queens(4))
    assert found.tasks == 16  # one task per valid child
    assert found.span in (4, 5)  # the lab accepts n or n + 1; we count the root: n + 1
    assert found.span == 5 and found.work == 17 and found.solutions == 2
    assert found.parallelism == pytest.approx(17 / 5)


@pytest.mark.parametrize("n,solutions", [(1, 1), (2, 0), (3, 0), (5, 10), (6, 4), (8, 92)])
def test_queens_work_is_the_node_count_and_span_the_deepest_path(n, solutions):
    found = metrics(queens(n))
    assert found.work == sequential_count(queens(n)).nodes == found.tasks + 1
    assert found.solutions == solutions
    assert found.span == n + 1 if solutions else found.span <= n


def test_a_path_has_parallelism_one_and_a_bushy_tree_more():
    path = metrics(SubsetSum((1,) * 10, 10))
    assert path.parallelism >= 1
    strings = metrics(NoAdjacentOnes(12))
    assert strings.span == 13 and strings.solutions == 377
    assert strings.parallelism == pytest.approx(strings.work / 13)


def test_speedup_is_bounded_by_workers_and_by_parallelism():
    found = Metrics(tasks=99, work=100, span=10, solutions=1)
    assert found.speedup_bound(1) == 1
    assert found.speedup_bound(4) == pytest.approx(4)
    assert found.speedup_bound(1000) == pytest.approx(10)  # = parallelism
    with pytest.raises(ValueError, match="workers must be at least 1, got 0"):
        found.speedup_bound(0)


def test_max_nodes_guards_huge_walks():
    with pytest.raises(TooManyNodesError, match="more than max_nodes = 100 nodes"):
        metrics(queens(8), max_nodes=100)
    with pytest.raises(ValueError, match="max_nodes must be a positive integer"):
        metrics(queens(4), max_nodes=0)


def test_cli_prints_the_metrics(capsys):
    assert main(["--n", "4", "--metrics"]) == 0
    out = capsys.readouterr().out
    assert "tasks spawned  16" in out and "span (T_inf)   5" in out
    assert main(["--n", "4", "--metrics", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["metrics"] == {"tasks": 16, "work": 17, "span": 5, "parallelism": 3.4,
                                  "solutions": 2}


def test_cli_refuses_boards_too_large_to_walk(capsys):
    assert main(["--n", "16", "--metrics"]) == 2
    err = capsys.readouterr().err
    assert "--metrics walks every node in Python: n <= 13" in err
    assert len(err.strip().splitlines()) == 1
