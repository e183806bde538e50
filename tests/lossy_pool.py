"""A thread pool that loses every third task as a task is lost with its worker on Dask:
only that task is lost and the pool goes on (``crash_loses_all`` False)."""

from __future__ import annotations

import concurrent.futures as cf
from typing import Any

from parallel_backtrack.engine.executors import ThreadExecutor


class Lost(Exception):
    """What a lost task's future raises."""


class LosesTasks(ThreadExecutor):
    """Threads where every third task is lost (``lost`` counts them)."""

    crash_loses_all = False

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.submitted = self.lost = 0

    def submit(self, fn: Any, *args: Any) -> Any:
        self.submitted += 1
        if self.submitted % 3:
            return super().submit(fn, *args)
        self.lost += 1
        future: cf.Future[Any] = cf.Future()
        future.set_exception(Lost())
        return self._tracked(future)

    def is_crash(self, error: BaseException) -> bool:
        return isinstance(error, Lost)
