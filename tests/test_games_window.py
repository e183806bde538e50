"""engine.window: shared bounds raised by the parent, read by tasks in other processes."""

from __future__ import annotations

import os
import pickle

import pytest

from parallel_backtrack.engine import make_executor
from parallel_backtrack.engine.window import UNBOUNDED, SharedBounds, shared_bounds


def read_in_worker(bounds: SharedBounds, slot: int) -> tuple[int, int]:
    return os.getpid(), bounds.read(slot)


def test_raise_is_monotone_and_local():
    bounds = SharedBounds(3)
    assert bounds.read(0) == -UNBOUNDED
    assert bounds.raise_to(0, 5) and not bounds.raise_to(0, 4)
    assert bounds.read(0) == 5 and bounds.read(1) == -UNBOUNDED
    with pytest.raises(ValueError, match="slots"):
        SharedBounds(0)


def test_a_copy_sees_later_raises_through_the_file():
    bounds = SharedBounds(2, shared=True)
    try:
        copy = pickle.loads(pickle.dumps(bounds))
        copy._owner = -1  # as in another process
        bounds.raise_to(1, 42)
        assert copy.read(1) == 42
        with pytest.raises(RuntimeError, match="only the process"):
            copy.raise_to(1, 50)
    finally:
        bounds.close()
    assert not os.path.exists(bounds.path)
    assert copy.read(1) == 42  # the file is gone: the last value seen stays


@pytest.mark.timeout(120)
def test_worker_processes_read_the_parents_raise():
    executor = make_executor(2, "loky")
    bounds = shared_bounds(executor, 4)
    try:
        assert bounds.path is not None
        assert executor.submit(read_in_worker, bounds, 2).result()[1] == -UNBOUNDED
        bounds.raise_to(2, 7)
        pid, value = executor.submit(read_in_worker, bounds, 2).result()
        assert pid != os.getpid() and value == 7
    finally:
        bounds.close()
        executor.close(kill=True)


def test_serial_executor_keeps_bounds_in_memory():
    bounds = shared_bounds(make_executor(1), 2)
    assert bounds.path is None
    bounds.raise_to(0, 3)
    assert bounds.read(0) == 3


def test_a_snapshot_carries_every_raised_slot_and_only_those():
    bounds = SharedBounds(4096, initial=-7)
    for slot, value in ((0, 3), (5, UNBOUNDED), (600, -2)):
        bounds.raise_to(slot, value)
    sent = pickle.dumps(bounds)
    copy = pickle.loads(sent)
    assert copy.values == bounds.values and copy.slots == 4096
    assert [copy.read(s) for s in (0, 1, 5, 600, 601, 4095)] == [3, -7, UNBOUNDED, -2, -7, -7]
    assert len(sent) < 8 * 601 + 400  # the raised prefix packed, not 4,096 list items


def test_a_task_of_a_shared_file_carries_its_path_not_the_values():
    bounds = SharedBounds(4096, initial=-7, shared=True)
    try:
        for slot, value in ((0, 3), (5, UNBOUNDED), (4000, -2)):
            bounds.raise_to(slot, value)
        sent = pickle.dumps(bounds)
        copy = pickle.loads(sent)
        copy._owner = -1  # as in another process
        assert len(sent) < 400  # the path, not 4,001 raised slots
        assert [copy.read(s) for s in (0, 1, 5, 4000, 4095)] == [3, -7, UNBOUNDED, -2, -7]
        bounds.raise_to(1, 11)
        assert copy.read(1) == 11
    finally:
        bounds.close()


def test_a_snapshot_of_some_slots_renumbers_them_and_a_shared_file_needs_none():
    bounds = SharedBounds(100, initial=-7)
    bounds.raise_to(40, 5)
    copy = bounds.snapshot([40, 3])
    assert copy is not None and copy.slots == 2
    assert [copy.read(0), copy.read(1)] == [5, -7]
    shared = SharedBounds(100, shared=True)
    try:
        assert shared.snapshot([40, 3]) is None
    finally:
        shared.close()


def test_the_virtual_pool_maps_its_bounds_as_a_local_pool_does():
    """It stands for a pool on one machine: its tasks get the file's path, not a copy
    of the values, and read a raise made after they were sent."""
    from parallel_backtrack.engine import VirtualExecutor

    bounds = shared_bounds(VirtualExecutor(4), 3)
    try:
        assert bounds.path is not None
        sent = pickle.loads(pickle.dumps(bounds))
        sent._owner = -1  # as a task's copy
        bounds.raise_to(2, 9)
        assert sent.read(2) == 9 and sent.read(0) == -UNBOUNDED
        assert bounds.snapshot([2]) is None  # tasks carry the bounds as they are
    finally:
        bounds.close()
    assert not os.path.exists(bounds.path)
