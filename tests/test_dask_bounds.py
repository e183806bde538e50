"""The Dask bounds channel without a cluster: a stand-in client runs each push here,
as a worker would, and a pickled copy stands for the task that reads it.  The test
on a real cluster is in test_cluster.py."""

from __future__ import annotations

import asyncio
import os
import pickle
from typing import Any

import pytest

from parallel_backtrack.engine import dask_bounds
from parallel_backtrack.engine.dask_bounds import (
    DaskBounds,
    DaskStopFlag,
    forget,
    new_stop_flag,
    push_stop,
)
from parallel_backtrack.engine.window import UNBOUNDED, shared_bounds


class LocalClient:
    """Runs what ``Pusher(client)`` would send to every worker, in this process."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, fn: Any, *args: Any) -> None:
        self.calls.append(fn.__name__)
        asyncio.run(fn(*args))


def test_a_raise_reaches_a_task_that_was_sent_before_it() -> None:
    client = LocalClient()
    bounds = DaskBounds(3, -UNBOUNDED, client)
    bounds.raise_to(1, 5)
    task = pickle.loads(pickle.dumps(bounds))  # submitted now: its snapshot has 5
    assert task.path is not None and os.path.exists(task.path)
    assert [task.read(s) for s in range(3)] == [-UNBOUNDED, 5, -UNBOUNDED]
    assert bounds.raise_to(1, 9) and bounds.raise_to(0, 2)
    assert not bounds.raise_to(1, 7)  # not a raise: nothing pushed
    assert [task.read(s) for s in range(3)] == [2, 9, -UNBOUNDED]
    assert client.calls == ["on_receive"] * 3
    bounds.close()
    assert not os.path.exists(task.path) and client.calls[-1] == "on_forget"


def test_a_late_task_keeps_the_higher_of_its_snapshot_and_the_pushes() -> None:
    """A worker that missed pushes (restarted) starts from the task's snapshot; a
    stale snapshot never lowers what was pushed."""
    client = LocalClient()
    bounds = DaskBounds(2, 0, client)
    bounds.raise_to(0, 4)
    stale = pickle.dumps(bounds)
    bounds.raise_to(0, 8)
    forget(bounds.key)  # this "worker" lost what was pushed
    assert pickle.loads(stale).read(0) == 4
    dask_bounds.receive(bounds.key, 2, [(0, 8)])
    assert pickle.loads(stale).read(0) == 8
    bounds.close()


def test_the_channel_keeps_few_files() -> None:
    client = LocalClient()
    runs = [DaskBounds(1, 0, client) for _ in range(dask_bounds.CHANNELS_MAX + 3)]
    copies = [pickle.loads(pickle.dumps(run)) for run in runs]
    paths = [copy.path for copy in copies]  # each task reads its bounds
    assert len(set(paths)) == len(runs)
    assert len(dask_bounds._CHANNELS) <= dask_bounds.CHANNELS_MAX
    assert not os.path.exists(paths[0]) and os.path.exists(paths[-1])
    for run in runs:
        run.close()
    assert not any(os.path.exists(path) for path in paths)


def test_unpickling_alone_makes_no_file() -> None:
    """Dask's scheduler unpickles a task's arguments too: only a task that reads the
    bounds makes its process's channel."""
    bounds = DaskBounds(2, 0, LocalClient())
    before = set(dask_bounds._CHANNELS)
    copy = pickle.loads(pickle.dumps(bounds))
    assert set(dask_bounds._CHANNELS) == before
    assert copy.read(0) == 0 and set(dask_bounds._CHANNELS) == before | {bounds.key}
    bounds.close()


def test_a_stop_flag_rises_where_it_is_pushed() -> None:
    client = LocalClient()
    flag = new_stop_flag()
    sent = pickle.loads(pickle.dumps(flag))
    assert isinstance(sent, DaskStopFlag) and sent.key == flag.key and not sent.is_set()
    push_stop(client, flag)
    assert sent.is_set() and flag.is_set() and not new_stop_flag().is_set()


def test_only_an_executor_that_cannot_share_files_gets_the_channel() -> None:
    class Remote:
        shares_files = False

        def remote_bounds(self, slots: int, initial: int) -> DaskBounds:
            return DaskBounds(slots, initial, LocalClient())

    class Local(Remote):
        shares_files = True

    assert isinstance(shared_bounds(Remote(), 2), DaskBounds)
    local = shared_bounds(Local(), 2)
    assert not isinstance(local, DaskBounds) and local.path is not None
    local.close()


def test_only_the_parent_raises() -> None:
    bounds = DaskBounds(1, 0, LocalClient())
    task = pickle.loads(pickle.dumps(bounds))
    with pytest.raises(RuntimeError, match="only the process that made the bounds"):
        task.raise_to(0, 3)
    bounds.close()


def test_pickling_again_makes_no_file() -> None:
    bounds = DaskBounds(2, 0, LocalClient())
    before = set(dask_bounds._CHANNELS)
    again = pickle.loads(pickle.dumps(pickle.loads(pickle.dumps(bounds))))
    assert set(dask_bounds._CHANNELS) == before and again.values == [0, 0]
    bounds.close()
