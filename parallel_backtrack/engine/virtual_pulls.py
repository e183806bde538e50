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

Any kind of pull runs so (``KINDS``: a pull's function and its ``pull.Puller``): a
count's, and a threshold iteration's (``threshold_pulls``).

Example: ``runs.send(...)`` for each pull; ``runs.advance(timer, listed, clock)`` gives the
pulls that ended, with their ends and results, and the workers' seconds spent.
"""

from __future__ import annotations

import heapq
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from .pull import CountPull, Pulled, Puller, run_pulled, take
from .split import TaskResult
from .threshold_pulls import PartPull, run_part_pulled

KINDS: dict[Callable[..., Any], Callable[[bytes], Puller]] = {
    run_pulled: CountPull, run_part_pulled: PartPull}


@dataclass
class PullRun:
    """One pull sent to the virtual worker ``worker``: its future, when it starts, the
    clock it was sent at, its kind and arguments, and the pieces it ran so far."""

    future: Any
    worker: int
    start: float
    sent: float
    kind: Callable[[bytes], Puller]
    arguments: bytes
    pieces: list[tuple[int, Any]] = field(default_factory=list)
    spans: list[tuple[float, float]] = field(default_factory=list)  # each piece's start, seconds
    carried: bool = False  # its carried piece has run
    puller: Puller | None = None  # made as it first runs, as in a worker

    def result(self) -> Any:
        """What it hands back of the pieces it ran, as a real pull would."""
        return (self.puller or self.kind(self.arguments)).result(self.pieces)


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
             kind: Callable[[bytes], Puller], arguments: bytes) -> None:
        run = PullRun(future, worker, start, sent, kind, arguments)
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

    def advance(self, timer: Callable[[], float], listed_at: dict[str, float], until: float,
                extend: bool = True) -> tuple[list[Ended], float]:
        """Run pieces in the order of the clock up to ``until`` (the parent's clock: it
        was busy until then, and sends nothing sooner) or, if no pull ended by then and
        ``extend``, up to the first end of a pull: the pulls that ended (with their
        ends), and the seconds the pieces took."""
        ended: list[Ended] = []
        horizon, busy = float("inf") if extend else until, 0.0
        while self._ready and self._ready[0][0] < max(until, horizon):
            at, order, run = heapq.heappop(self._ready)
            if run.puller is None:
                run.puller = run.kind(run.arguments)
            puller = run.puller
            began = timer()
            ran: tuple[int, Any] | None
            if puller.carried is not None and not run.carried:
                run.carried = True
                ran = (puller.carried[0], puller.run(puller.carried[1]))
            else:
                if listed_at.get(puller.path, at) > at:  # the list is written later: claim then
                    heapq.heappush(self._ready, (listed_at[puller.path], order, run))
                    continue
                ran = take(puller)
            took = timer() - began
            if ran is not None:
                index, result = ran
                if isinstance(result, TaskResult):  # as a real worker labels it
                    result = replace(result, worker=f"virtual{run.worker}")
                run.pieces.append((index, result))
                run.spans.append((at, took))
                busy += took
            if ran is None or puller.ends(ran[1]):  # none left, or a rest to share out
                end = at + took
                pulled = puller.result(run.pieces)
                if isinstance(pulled, Pulled) and not run.pieces:  # as a real worker labels it
                    pulled = replace(pulled, total=replace(pulled.total,
                                                           worker=f"virtual{run.worker}"))
                ended.append(Ended(run, end, pickle.dumps(pulled)))
                horizon = min(horizon, end)
                continue
            heapq.heappush(self._ready, (at + took, order, run))
        return ended, busy
