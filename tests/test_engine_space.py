from itertools import combinations

import pytest

from parallel_backtrack.engine import explore, sequential_count, sequential_solutions
from parallel_backtrack.engine.examples import NoAdjacentOnes, SubsetSum


def fib(k: int) -> int:
    a, b = 0, 1
    for _ in range(k):
        a, b = b, a + b
    return a


def subsets_adding_to(values, target):
    return sum(1 for r in range(len(values) + 1) for c in combinations(values, r)
               if sum(c) == target)


@pytest.mark.parametrize("length", range(0, 15))
def test_sequential_count_matches_fibonacci(length):
    assert sequential_count(NoAdjacentOnes(length)).count == fib(length + 2)


def test_sequential_count_matches_brute_force_subsets():
    values = (3, 5, 6, 7, 9, 11, 13)
    assert sequential_count(SubsetSum(values, 20)).count == subsets_adding_to(values, 20)


def test_solutions_come_in_depth_first_order_and_respect_limit():
    found = sequential_solutions(NoAdjacentOnes(4))
    assert found == sorted(found)  # children come 0 first, so depth-first is lexicographic
    assert sequential_solutions(NoAdjacentOnes(4), limit=3) == found[:3]
    assert sequential_solutions(NoAdjacentOnes(4), limit=0) == []


@pytest.mark.parametrize("limit", [-1, 2.5, "3", True])
def test_sequential_solutions_refuses_the_limits_solutions_refuses(limit):
    """``limit=-1`` gave ``[]`` here while ``solutions`` refused it; 2.5 gave 3."""
    with pytest.raises(ValueError, match="limit must be a non-negative integer or None, got"):
        sequential_solutions(NoAdjacentOnes(4), limit=limit)


@pytest.mark.parametrize("budget", [1, 2, 5, 17, 1000])
def test_explore_with_budget_hands_back_exactly_the_rest(budget):
    space = NoAdjacentOnes(9)
    total = sequential_count(space)
    count = nodes = 0
    roots = [space.root()]
    while roots:
        done = explore(space, roots, budget=budget)
        assert done.nodes <= budget
        count, nodes, roots = count + done.count, nodes + done.nodes, list(done.leftover)
    assert (count, nodes) == (total.count, total.nodes)


def test_explore_keeps_solutions_in_order_and_stops_after():
    space = NoAdjacentOnes(5)
    done = explore(space, [space.root()], stop_after=2, keep=True)
    assert list(done.solutions) == sequential_solutions(space, limit=2)
    rest = explore(space, done.leftover, keep=True)
    assert list(done.solutions + rest.solutions) == sequential_solutions(space)


def test_explore_asks_until_every_few_hundred_nodes():
    from parallel_backtrack.engine.space import UNTIL_EVERY

    space = NoAdjacentOnes(16)
    asked = []

    def until():
        asked.append(1)
        return len(asked) >= 3

    done = explore(space, [space.root()], until=until)
    assert done.nodes == 3 * UNTIL_EVERY and done.leftover
    rest = explore(space, done.leftover)
    assert done.count + rest.count == sequential_count(space).count
