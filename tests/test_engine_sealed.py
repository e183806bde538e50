"""Leftover roots travel sealed: the parent passes them on without unpickling them."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from dataclasses import dataclass

from parallel_backtrack.engine import VirtualExecutor, count, sequential_count
from parallel_backtrack.engine.examples import SubsetSum
from parallel_backtrack.engine.pending import Work
from parallel_backtrack.engine.scheduler import Run
from parallel_backtrack.engine.worker import (
    Sealed,
    StopFlag,
    pickled,
    run_pickled,
    seal,
    unseal,
)

RESTORED = [0]


def _restore(bits: tuple[int, ...]) -> Bits:
    RESTORED[0] += 1
    return Bits(bits)


@dataclass(frozen=True)
class Bits:
    """A state that counts how often it is unpickled."""

    bits: tuple[int, ...]

    def __reduce__(self) -> tuple[object, ...]:
        return (_restore, (self.bits,))


@dataclass(frozen=True)
class AllBits:
    """Every bit string of ``length`` bits, states of type ``Bits``."""

    length: int

    def root(self) -> Bits:
        return Bits(())

    def branch(self, state: Bits) -> Iterator[Bits]:
        if len(state.bits) < self.length:
            yield Bits(state.bits + (0,))
            yield Bits(state.bits + (1,))

    def is_solution(self, state: Bits) -> bool:
        return len(state.bits) == self.length


def _task(space: AllBits, roots: list[tuple[Bits, int]], budget: int) -> bytes:
    return pickled((space, roots, "count", budget, None, None, StopFlag()))


def test_a_pickled_task_hands_back_its_leftover_sealed_and_whole():
    space = AllBits(12)
    result = run_pickled(_task(space, [(space.root(), 3)], budget=50))
    assert result.leftover, "the budget must stop the task early"
    assert all(type(state) is Sealed for state, _ in result.leftover)
    assert {weight for _, weight in result.leftover} == {3}
    # The leftover and the counted part add up to the whole tree, weighted.
    rest = sum(sequential_count(AllBits(12 - len(state.bits))).count * weight
               for state, weight in unseal(result.leftover))
    assert result.count + rest == 3 * 2**12


def test_the_parent_receives_and_resends_a_leftover_without_unpickling_a_state():
    space = AllBits(12)
    result = run_pickled(_task(space, [(space.root(), 1)], budget=50))
    RESTORED[0] = 0
    received = pickle.loads(pickle.dumps(result))  # what the parent gets from a worker
    sent = _task(space, list(received.leftover), budget=10**6)  # the next task's arguments
    assert RESTORED[0] == 0
    again = run_pickled(sent)  # the worker opens them
    assert RESTORED[0] == len(received.leftover)  # each root, once
    assert again.leftover == ()
    assert again.count + result.count == 2**12


def test_seal_and_unseal_round_trip_and_leave_live_states_alone():
    roots = [(Bits((0, 1)), 2), (Bits((1,)), 5)]
    sealed = seal(roots)
    assert seal(sealed) == sealed  # sealing twice changes nothing
    assert unseal(sealed) == roots
    assert unseal(roots) == roots


def test_the_parent_branches_a_sealed_root_when_it_splits_one():
    space = AllBits(6)
    run = Run(space, "count", VirtualExecutor(4), owns=True, budget=10, budget_seconds=None,
              per_worker=None, limit=None, timeout=None, progress=False)
    work = Work((1, 0), seal([(Bits((1,)), 2)]), parent=0)
    pieces = run._split(work)
    assert [piece.roots for piece in pieces] == [((Bits((1, 0)), 2),), ((Bits((1, 1)), 2),)]


def test_counts_on_a_virtual_pool_stay_exact_through_sealed_leftovers():
    space = SubsetSum(tuple(range(1, 19)), 60)
    expected = sequential_count(space).count
    for workers in (2, 16):
        report = count(space, executor=VirtualExecutor(workers), budget=200)
        assert report.count == expected
        assert report.tasks > workers  # leftovers came back and ran again
