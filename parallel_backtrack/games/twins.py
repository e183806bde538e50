"""Helper twins for Young Brothers Wait ("lazy SMP", ``YoungBrothersWait(helpers=True)``):
a worker that would idle gets a twin of the leftmost running task, the same subtree and
window in another move order; the first to answer gives the value (``games.ybw``)."""

from __future__ import annotations

from typing import Any

from .chain import Task


class Twins:
    """The twin half of ``YoungBrothersWait``: its ``futures``, ``_submit``, ``_drop``
    and ``twins`` counter are the search's own."""

    futures: dict[Any, Task]
    twins: int

    def _submit(self, task: Task) -> None:
        raise NotImplementedError

    def _drop(self, task: Task) -> None:
        raise NotImplementedError

    def _twin(self) -> bool:
        """Give an idle worker a twin of the leftmost running task without one."""
        alone = [t for t in self.futures.values() if t.twin is None and not t.variant]
        if not alone:
            return False
        task = min(alone, key=lambda t: t.path)
        twin = Task(task.node, task.action, task.sign, task.state, task.path, variant=1)
        self._submit(twin)
        task.twin, twin.twin = twin, task
        self.twins += 1
        return True

    def _yield_twin(self) -> bool:
        """Stop one running twin (the rightmost) for a real task; False if none."""
        twins = [t for t in self.futures.values() if t.variant]
        if not twins:
            return False
        twin = max(twins, key=lambda t: t.path)
        assert twin.twin is not None
        twin.twin.twin = None
        self._drop(twin)
        return True
