"""Thread pools that lose tasks as a task is lost with its worker on Dask: only that
task is lost and the pool goes on (``crash_loses_all`` False)."""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable
from typing import Any

from parallel_backtrack.engine.executors import ThreadExecutor


class Lost(Exception):
    """What a lost task's future raises."""


class LosesSome(ThreadExecutor):
    """Threads where the tasks sent as number ``n`` (from 1) with ``loses(n)`` are
    lost, as a dead Dask worker loses the several tasks it held (``lost`` counts them)."""

    crash_loses_all = False

    def __init__(self, workers: int, loses: Callable[[int], bool]) -> None:
        super().__init__(workers)
        self.submitted = self.lost = 0
        self.loses = loses

    def submit(self, fn: Any, *args: Any) -> Any:
        self.submitted += 1
        if not self.loses(self.submitted):
            return super().submit(fn, *args)
        self.lost += 1
        future: cf.Future[Any] = cf.Future()
        future.set_exception(Lost())
        return self._tracked(future)

    def is_crash(self, error: BaseException) -> bool:
        return isinstance(error, Lost)


class LosesTasks(LosesSome):
    """Threads where every third task is lost."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers, lambda n: n % 3 == 0)
