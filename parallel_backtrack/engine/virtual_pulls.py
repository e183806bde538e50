"""Pulls on the virtual pool: the pieces of a pulled cut (``pull.py``) shared out among
the pulls sent, in virtual time.

A pull's end depends on the other pulls (which pieces they take first), so it cannot
be run as it is sent, as the virtual pool runs other tasks.  ``PullRuns`` keeps the
pulls sent and runs their pieces in the order of the virtual clock: each pull, when
free, runs its carried piece, or claims the next piece of the list (no sooner than
the list was written) and runs it, timed with its claim, as a real pull would.  It
goes on up to the parent's clock, or to the first time a pull ends (none left to take,
or a piece left a rest) if none ended by then: the parent may send new pulls from then
on, which take pieces too, so nothing later is decided before the parent has had its
turn.

Example: ``runs.send(...)`` for each pull; ``runs.advance(timer, listed, clock)`` gives the
pulls that ended, with their ends and results, and the workers' seconds spent.
"""

from __future__ import annotations

import heapq
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from .pull import Pulled, run_piece, run_roots
from .split import TaskResult
from .worker import unship, warm


@dataclass
class PullRun:
    """One pull sent to the virtual worker ``worker``: its future, when it starts, the
    clock it was sent at, its call, and the pieces it ran so far."""

    future: Any
    worker: int
    start: float
    sent: float
    call: tuple[Any, ...]
    pieces: list[tuple[int, TaskResult]] = field(default_factory=list)
    carried: bool = False  # its carried piece has run


@dataclass
class Ended:
    """A pull that ended at ``end``, with its result as a real pool hands it back."""

    run: PullRun
    end: float
    data: bytes


class PullRuns:
    """The pulls sent and not ended, and when each is next free."""

    def __init__(self) -> None:
        self._ready: list[tuple[float, int, PullRun]] = []
        self._order = 0

    def __bool__(self) -> bool:
        return bool(self._ready)

    def send(self, future: Any, worker: int, start: float, sent: float,
             arguments: bytes) -> None:
        run = PullRun(future, worker, start, sent, pickle.loads(arguments))
        self._order += 1
        heapq.heappush(self._ready, (start, self._order, run))

    def drop(self, futures: set[Any]) -> list[PullRun]:
        """Take out the pulls of ``futures`` (cancelled: their run is over, and its list
        about to go); returns them."""
        dropped = [run for _, _, run in self._ready if run.future in futures]
        if dropped:
            self._ready = [entry for entry in self._ready if entry[2].future not in futures]
            heapq.heapify(self._ready)
        return dropped

    def advance(self, timer: Callable[[], float], listed: dict[str, float], until: float,
                extend: bool = True) -> tuple[list[Ended], float]:
        """Run pieces in the order of the clock up to ``until`` (the parent's clock: it
        was busy until then, and sends nothing sooner) or, if no pull ended by then and
        ``extend``, up to the first end of a pull: the pulls that ended (with their
        ends), and the seconds the pieces took."""
        ended: list[Ended] = []
        horizon, busy = float("inf") if extend else until, 0.0
        while self._ready and self._ready[0][0] < max(until, horizon):
            at, order, run = heapq.heappop(self._ready)
            handle, path, number, first, mode, budget, keep, seconds, stop, _ = run.call
            space = warm(unship(handle))
            began = timer()
            if first is not None and not run.carried:
                run.carried = True
                ran: tuple[int, TaskResult] | None = (first[0], run_roots(
                    space, first[1], mode, budget, keep, seconds, stop))
            else:
                if listed.get(path, at) > at:  # the list is written later: claim then
                    heapq.heappush(self._ready, (listed[path], order, run))
                    continue
                ran = run_piece(space, path, number, mode, budget, keep, seconds, stop)
            took = timer() - began
            if ran is not None:
                index, result = ran
                run.pieces.append((index, replace(result, worker=f"virtual{run.worker}")))
                busy += took
            if ran is None or ran[1].leftover:  # none left, or a rest to share out
                end = at + took
                pulled = Pulled.of(run.pieces)
                if not run.pieces:  # as a real worker labels it
                    pulled = replace(pulled, total=replace(pulled.total,
                                                           worker=f"virtual{run.worker}"))
                ended.append(Ended(run, end, pickle.dumps(pulled)))
                horizon = min(horizon, end)
                continue
            heapq.heappush(self._ready, (at + took, order, run))
        return ended, busy
