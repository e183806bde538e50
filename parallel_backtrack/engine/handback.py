"""Asking a running task for its rest: a straggler in the tail is split while workers
idle, instead of when its budget runs out.

A counting task hands back the unexplored rest of its subtrees (its leftover) when its
node budget runs out or its stop flag is raised.  In the tail (fewer items pending than
workers) the budget is small, but a worker that idles still waits for some running
task to reach the end of its budget.  Here each tail task gets a stop of its own
(``Ask``): the run's flag, or its own slot in shared bounds raised to its ticket.  A
worker that would idle makes the parent ask the oldest tail task still running; that
task stops at its next look (once it has searched one ``step`` at least, so every ask
makes progress) and hands back its rest, which the parent splits and sends on as
usual.

Glossary
--------
ticket
    A tail task's number.  Its slot is ``ticket % slots``; the parent asks by raising
    the slot to the ticket, so a later task on the same slot (a higher ticket) is not
    asked by an old raise.
tail
    ``Tail``: the parent's side for one run, the tail tasks that may be asked (oldest
    first, each with its call and when it was sent) and those asked whose rest is not
    back yet, each of which will feed one idle worker.
age
    A tail task is asked once it has run ``ASK_AFTER`` seconds (on the pool's clock,
    ``Executor.now``), the oldest first.
step
    Nodes between two looks of an askable task.  A compiled hook that watches the
    slot itself (``count_many`` with a ``watch``) looks every ``LOOK_EVERY`` nodes
    inside its kernel; others are called on ``step`` nodes at a time and the task
    looks between calls (``split.Allowance``).  Either way ``step`` bounds how long
    an ask waits.
watch
    ``Ask.watch()``: ``(values, slot, ticket)``, the shared slots as a numpy array a
    kernel reads (the task is asked once ``values[slot] >= ticket``); on a pool
    without the shared file, an array nobody raises.
slots
    In the bounds of the run, on pools whose tasks share this machine's files
    (``engine.window``); elsewhere (Dask) tail tasks cannot be asked.  The virtual
    pool models an ask instead (``VirtualExecutor.hand_back``).

Example: ``asks = Asks(executor, workers=64)``; ``stop = asks.stop(flag, step=2_000)``
goes with a tail task; ``asks.ask(stop)`` makes it hand back at its next look.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .pending import WIDE
from .window import UNBOUNDED, SharedBounds
from .worker import StopFlag

MIN_SLOTS = 1024
# An askable task calls a compiled hook on at most its budget / CHUNKS nodes at a time,
# unless the hook watches its slot (``count_many``): then it looks every LOOK_EVERY.
CHUNKS = 4
LOOK_EVERY = 1024
# A tail task is asked only once it has run this long (seconds since it was sent):
# most younger ones end within it, and an ask costs the parent a collect and two
# dispatches (some 0.1-0.15 ms) for a rest too small to share.  At the very end of
# the 9x9 count at 64 workers, asks reached tasks 0.15 ms old with 0.14 ms left.
ASK_AFTER = 0.0006


class Ask:
    """A tail task's stop: the run's ``flag``, or its own slot raised to its ticket."""

    __slots__ = ("bounds", "flag", "slot", "step", "ticket")

    def __init__(self, flag: StopFlag, bounds: SharedBounds | None, slot: int, ticket: int,
                 step: int) -> None:
        self.flag, self.bounds, self.slot, self.ticket, self.step = (
            flag, bounds, slot, ticket, step)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Ask, (self.flag, self.bounds, self.slot, self.ticket, self.step))

    def is_set(self) -> bool:
        """The run's flag (every task stops)."""
        return self.flag.is_set()

    def asked(self, spent: int = 0) -> bool:
        """This task was asked for its rest (``spent``, its nodes so far, aside)."""
        return self.bounds is not None and self.bounds.read(self.slot) >= self.ticket

    def watch(self) -> tuple[Any, int, int]:
        """``(values, slot, ticket)`` for a kernel that looks at the slot itself."""
        values = None if self.bounds is None else self.bounds.view()
        if values is None:
            return _never(), 0, UNBOUNDED
        return values, self.slot, self.ticket


@functools.cache
def _never() -> Any:
    """A slot nobody raises (pools without the shared file); numpy loads on first use."""
    import numpy as np

    return np.zeros(1, dtype=np.int64)


class Asks:
    """The parent's side: a stop for each tail task, and the asks."""

    def __init__(self, executor: Any, workers: int) -> None:
        # Slots for every tail task in flight (at most twice the workers) and more.
        self.slots = max(MIN_SLOTS, 4 * workers)
        self.shared = executor.shares_files
        self.bounds: SharedBounds | None = None  # the file, made with the first tail task
        self.tickets = 0

    def stop(self, flag: StopFlag, step: int) -> Ask:
        if self.shared and self.bounds is None:
            self.bounds = SharedBounds(self.slots, -1, shared=True)
        ticket = self.tickets
        self.tickets += 1
        return Ask(flag, self.bounds, ticket % self.slots, ticket, step)

    def ask(self, stop: Ask) -> None:
        """The task with ``stop`` hands back its rest at its next look."""
        if self.bounds is not None:
            self.bounds.raise_to(stop.slot, stop.ticket)

    def close(self) -> None:
        if self.bounds is not None:
            self.bounds.close()


def tail_for(executor: Any) -> Tail | None:
    """The tail of a run on ``executor``, or None where tasks are not asked: pools that
    cannot hand back (Dask), and above ``WIDE`` workers, where the parent's dispatching
    is the limit and the rests asked for cost it more than the idle workers gain (n = 17
    at 256: 1,150-1,210 tasks instead of 780, efficiency 0.42-0.54 against 0.51-0.55)."""
    return Tail(executor) if executor.hands_back and executor.workers <= WIDE else None


class Tail:
    """The parent's tail tasks that may be asked, oldest first: each one's call and when
    it was sent, and those asked whose rest is not back yet (each will feed one idle
    worker, so the parent does not ask again for it meanwhile)."""

    def __init__(self, executor: Any) -> None:
        self.executor = executor
        self.asks = Asks(executor, executor.workers)
        self.tasks: dict[Any, tuple[tuple[Any, ...], float]] = {}  # future -> (call, sent)
        self.asking: set[Any] = set()

    def stop(self, flag: StopFlag, step: int) -> Ask:
        return self.asks.stop(flag, step)

    def sent(self, future: Any, arguments: tuple[Any, ...]) -> None:
        """A tail task went out with ``arguments`` (its stop last)."""
        self.tasks[future] = (arguments, self.executor.now())

    def back(self, future: Any) -> bool:
        """The task of ``future`` came back; was it asked?"""
        self.tasks.pop(future, None)
        asked = future in self.asking
        self.asking.discard(future)
        return asked

    def idle(self, in_flight: int) -> int:
        """Workers with no task, less those an asked task's rest will feed."""
        return self.executor.workers - in_flight - len(self.asking)

    def ask(self, in_flight: int, rerun: Callable[..., Any]) -> int:
        """Ask the oldest tasks that have run ``ASK_AFTER`` for their rest, one per idle
        worker; returns how many asks reached a running task.  ``rerun(arguments, share,
        result)``: see ``Executor.hand_back``."""
        idle = self.idle(in_flight)
        young = self.executor.now() - ASK_AFTER
        asked = 0
        for future, (arguments, sent) in list(self.tasks.items()):
            if idle <= 0 or sent > young:
                break
            del self.tasks[future]
            self.asks.ask(arguments[-1])
            if self.executor.hand_back(future, functools.partial(rerun, arguments)):
                idle -= 1
                asked += 1
                self.asking.add(future)
        return asked

    def wait(self, in_flight: int) -> float | None:
        """Seconds until the oldest task may be asked, while a worker idles and it is
        still young (else None)."""
        if not self.tasks or self.idle(in_flight) <= 0:
            return None
        sent = next(iter(self.tasks.values()))[1]
        young = sent + ASK_AFTER - self.executor.now()
        return young if young > 0 else None

    def timeout(self, in_flight: int, longest: float) -> float:
        """How long the parent may wait for a task to end: ``longest``, or less when the
        oldest task may be asked sooner (``wait``)."""
        young = self.wait(in_flight)
        return longest if young is None else min(longest, young)

    def close(self) -> None:
        self.asks.close()
