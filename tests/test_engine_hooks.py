"""The declared fast hooks: defaults that mean "not offered", one face for every space."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from parallel_backtrack.engine import count, explore, hooks, sequential_count, solve
from parallel_backtrack.engine.examples import NoAdjacentOnes
from parallel_backtrack.engine.space import FastSpace


def test_the_declared_hooks_are_the_ones_the_engine_knows():
    assert set(hooks.HOOKS) == {"count_roots", "count_below", "first_below", "count_many",
                                "branch_all", "size_hints", "node_budget"}


def test_a_space_without_hooks_gets_defaults_that_decline():
    fast = hooks.of(NoAdjacentOnes(5))
    assert fast.count_roots() is None
    assert fast.count_below((), 10) is None and fast.first_below((), 10) is None
    assert fast.branch_all([()]) is None
    assert fast.node_budget is None


def test_a_space_that_defines_some_hooks_without_subclassing_is_forwarded():
    calls = []

    class Some(NoAdjacentOnes):
        @property
        def node_budget(self):
            return 123

        def count_below(self, state, budget):
            calls.append((state, budget))
            return explore(self, [state], budget=budget)

    space = Some(6)
    fast = hooks.of(space)
    assert fast.node_budget == 123 and fast.first_below((), 5) is None
    found = fast.count_below((), 10**6)
    assert calls == [((), 10**6)] and found.count == sequential_count(space).count


@dataclass(frozen=True, slots=True)
class Halves(FastSpace):
    """No two adjacent 1s in ``length`` bits, with every hook offered (each backed by the
    generic search, so their answers can be checked against it)."""

    length: int

    def root(self):
        return ()

    def branch(self, state):
        return NoAdjacentOnes(self.length).branch(state)

    def is_solution(self, state):
        return len(state) == self.length

    def count_roots(self):
        return [(child, 1) for child in self.branch(())]

    def count_below(self, state, budget):
        return explore(self, [state], budget=budget)

    def first_below(self, state, budget):
        return explore(self, [state], budget=budget, stop_after=1, keep=True)

    def branch_all(self, states):
        return [list(self.branch(state)) for state in states]

    @property
    def node_budget(self):
        return 64


def test_a_fast_space_is_its_own_face_and_stays_slotted():
    space = Halves(4)
    assert hooks.of(space) is space
    assert not hasattr(space, "__dict__")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("backend", ["serial", "threads"])
def test_a_fast_space_counts_and_solves_as_the_generic_search_does(backend):
    space = Halves(16)
    workers = 1 if backend == "serial" else 2
    report = count(space, workers=workers, backend=backend)
    assert report.count == sequential_count(NoAdjacentOnes(16)).count == 2584
    assert report.budget == 64  # the space's node_budget
    found = solve(space, workers=workers, backend=backend).solution
    assert found is not None and space.is_solution(found)
    assert all(not (a and b) for a, b in zip(found, found[1:]))
