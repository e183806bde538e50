"""Pulled work: a count's cut (or a threshold iteration's ranges, ``threshold_pulls``)
in a file its workers take pieces from, one at a time, so that the parent sends a task
per worker instead of one per piece of the cut.

One parent sends one task at a time, some 50-150 us each: on 256 workers the cut's
first wave alone kept the last worker waiting 20-40 ms, as long as its whole share of
a count of seconds.  A pull is one task that runs piece after piece of the cut: the
worker that ends a piece takes the next, without asking the parent.

Glossary
--------
piece
    One work item of the cut (``pending.Work``): a task's roots.  The cut comes
    biggest first when the space estimates sizes, so big pieces start early.
first wave
    One pull per worker, each carrying its first piece (the biggest ones), so the
    workers start before the list is written; the parent writes it right after.
list
    ``PullList``: the pieces not carried, in one file on this machine: a header (the
    next piece to take, how many there are, where the pieces begin), then for each
    piece the pull that took it (4 bytes, 0: none), then the pieces, each pickled.
    It is written beside its path and renamed there, so a pull that finds the path
    has the whole list; one that comes early waits for it (or for the stop flag).
claim
    ``claim(path, pull)``: under an exclusive lock of the file (``flock`` between
    processes, a lock between threads), take the next piece and write who took it;
    None when every piece is taken.  Some 5 us.
pull
    The task ``run_pulled(arguments)``: run the piece it carries, if any, then claim a
    piece and run it with the budget as a task of its own (``split.run_subtrees``),
    and claim the next, until none is left, the stop flag rises, a piece leaves a rest
    (its budget ran out: a big subtree, which the parent shares out while the others
    pull on), or ``cap`` seconds have passed (the pool's ``pull_seconds``, 1 s: a pull
    hands its results back that often, for progress, checkpoints and what a crash
    loses); returns ``Pulled``: the pieces, their results added up, and their rests.
puller
    What a pull does with its pieces, whatever the search (``Puller``: a count's is
    ``CountPull``); ``drive`` runs one, and the virtual pool runs it piece by piece.
lost
    A worker died under a pull: the pieces it carried or took are run again (its
    results died with it); ``PullList.taken_by(pull)`` reads the ones it took.

Example: ``pulls = Pulls(works)``; send ``run_pulled(pulls.arguments(...))`` to each
worker, then ``pulls.write()``; collect each ``Pulled``.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pickle
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Any, Protocol, cast

from . import tempfiles
from .split import Subtree, TaskResult, run_subtrees, worker_label
from .worker import StopFlag, keep, pickled, seal, unseal, unship, warm

_HEADER = 24  # the next piece, the pieces, the offset of the pickled pieces: 8 bytes each
_CLAIM = 4
_OPEN: dict[str, tuple[int, int, threading.Lock]] = {}  # path -> (process, fd, lock)
_PIECES: dict[str, list[bytes]] = {}
_KEEP = 4  # lists a process keeps open
WAIT_STEP = 0.0002  # seconds between two looks for a list not written yet


@dataclass(frozen=True, slots=True)
class Pulled:
    """What a pull hands back: the pieces it ran (``indices``), their results added up
    as one task's (``total``: count, nodes, seconds), and the rest each piece that
    left one handed back (``rests``: index, leftover roots, untouched roots).  One
    small result a pull: the parent collects some 256 of them at the end of a run on
    256 workers, all at once."""

    indices: tuple[int, ...]
    total: TaskResult
    rests: tuple[tuple[int, tuple[Subtree, ...], int], ...] = ()

    def __reduce__(self) -> tuple[Any, ...]:
        return (Pulled, (self.indices, self.total, self.rests))

    @classmethod
    def of(cls, pieces: Sequence[tuple[int, TaskResult]]) -> Pulled:
        """The pull's pieces as run, in order, added up (none: it found none left)."""
        results = [result for _, result in pieces]
        if not results:
            return cls((), TaskResult(0, 0, (), (), 0.0, worker_label(),
                                      started_at=time.time()))
        first = results[0]
        found = [r.found_at for r in results if r.found_at is not None]
        total = TaskResult(sum(r.count for r in results), sum(r.nodes for r in results),
                           tuple(s for r in results for s in r.solutions), (),
                           sum(r.seconds for r in results), first.worker,
                           min(found) if found else None,
                           sum(r.setup_seconds for r in results), 0, first.started_at)
        rests = tuple((index, result.leftover, result.untouched)
                      for index, result in pieces if result.leftover)
        return cls(tuple(index for index, _ in pieces), total, rests)


def _word(value: int, size: int = 8) -> bytes:
    return value.to_bytes(size, "little")


def _number(data: bytes) -> int:
    return int.from_bytes(data, "little")


class PullList:
    """The parent's side of a list: its path first, then written once, then read for
    what is taken and by whom."""

    def __init__(self) -> None:
        handle, self._part = tempfiles.make("pull", ".part")
        os.close(handle)
        self.path = self._part[: -len(".part")] + ".bin"
        self.size = 0
        self._fd: int | None = None

    def write(self, pieces: Sequence[bytes], taken: int) -> None:
        """Write the pieces (``pickled``); the first ``taken`` went with the first wave
        and are never claimed (they may be empty)."""
        self.size = len(pieces)
        start = _HEADER + _CLAIM * self.size
        with open(self._part, "wb") as stream:
            stream.write(_word(taken) + _word(self.size) + _word(start))
            stream.write(bytes(_CLAIM * self.size))
            stream.write(pickle.dumps(list(pieces), protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(self._part, self.path)
        self._fd = os.open(self.path, os.O_RDONLY)

    def taken(self) -> int:
        """How many pieces are taken or carried (a plain read: a claim writes it in one
        piece); all of them before the list is written."""
        if self._fd is None:
            return self.size
        return min(self.size, _number(os.pread(self._fd, 8, 0)))

    def taken_by(self, pull: int) -> list[int]:
        """The pieces pull number ``pull`` took."""
        if self._fd is None:
            return []
        claims = os.pread(self._fd, _CLAIM * self.size, _HEADER)
        mark = _word(pull, _CLAIM)
        return [index for index in range(self.size)
                if claims[_CLAIM * index:_CLAIM * index + _CLAIM] == mark]

    def close(self) -> None:
        """Remove the list; from then on every piece reads as taken."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None
        for path in (self._part, self.path):
            with contextlib.suppress(OSError):
                os.remove(path)


class Pulls:
    """The parent's side of a pulled cut: each piece's work (``pending.Work``, or what
    the caller makes of a piece, with ``payload`` the part of it a pull runs), which
    came back, and the pulls in flight by their futures' numbers."""

    def __init__(self, works: Sequence[Any],
                 payload: Callable[[Any], Any] = attrgetter("roots")) -> None:
        self.works = list(works)
        self.payload = payload  # what a pull gets of a work: by default its roots
        self.list = PullList()
        self.back = [False] * len(self.works)
        self.numbers: dict[Any, int] = {}  # a pull in flight's future -> its number
        self.carried: dict[int, int] = {}  # a pull's number -> the piece it carried
        self.sent = 0

    @property
    def listed(self) -> bool:
        return self.list.size > 0 or not self.works

    def unclaimed(self) -> int:
        """Pieces no pull has taken yet (the first wave's: none is)."""
        if not self.listed:
            return len(self.works)
        return self.list.size - self.list.taken()

    def arguments(self, lead: tuple[Any, ...], rest: tuple[Any, ...], carry: bool) -> bytes:
        """The next pull's ``pickled`` arguments: ``(*lead, path, number, first,
        *rest)``; with ``carry``, the next piece goes with it as ``first``
        (``(index, payload)``; else None).  A count's ``lead`` is the space's handle,
        its ``rest`` ``(mode, budget, keep, seconds, stop, cap)``."""
        self.sent += 1
        first = None
        if carry:
            index = len(self.carried)
            self.carried[self.sent] = index
            first = (index, self.payload(self.works[index]))
        return pickled((*lead, self.list.path, self.sent, first, *rest))

    def send(self, executor: Any, fn: Callable[[bytes], Any], lead: tuple[Any, ...],
             rest: tuple[Any, ...], free: int) -> list[Any]:
        """Send ``fn`` a pull for each of ``free`` workers while pieces are left to
        take; the first wave carries its first pieces, and the list of the others is
        written after it.  The futures sent."""
        carry = not self.listed
        left = len(self.works) if carry else self.unclaimed()
        futures = []
        for _ in range(min(free, left)):
            future = executor.submit(fn, self.arguments(lead, rest, carry))
            self.numbers[future] = self.sent
            futures.append(future)
        if carry:
            self.write()
            executor.listed(self.list.path)
        return futures

    def write(self) -> None:
        """Write the list: every piece the first wave did not carry."""
        taken = len(self.carried)
        self.list.write([b"" if index < taken else pickled(self.payload(work))
                         for index, work in enumerate(self.works)], taken)

    def returned(self, index: int) -> Any:
        """Piece ``index`` came back: its work."""
        self.back[index] = True
        return self.works[index]

    def lost(self, future: Any) -> list[Any]:
        """The work of the pieces the pull of ``future`` carried or took, lost with its
        worker: the caller queues it again."""
        number = self.numbers.pop(future, None)
        if number is None:
            return []
        mine = self.list.taken_by(number)
        if number in self.carried:
            mine.append(self.carried[number])
        lost = sorted(index for index in set(mine) if not self.back[index])
        for index in lost:
            self.back[index] = True  # the caller's now
        return [self.works[index] for index in lost]

    def waiting(self) -> list[Any]:
        """The work of every piece not back: with a pull in flight, or not taken."""
        return [work for work, back in zip(self.works, self.back) if not back]

    def close(self) -> None:
        self.list.close()


def _opened(path: str, stop: StopFlag) -> tuple[int, threading.Lock] | None:
    """This process's descriptor of the list at ``path``, and the lock its threads
    share (``flock`` does not exclude two threads holding one descriptor); waits for
    the list to be written, None if the stop flag rises first."""
    found = _OPEN.get(path)
    if found is None or found[0] != os.getpid():  # none, or the parent's in a fork
        while True:
            try:
                fd = os.open(path, os.O_RDWR)
                break
            except FileNotFoundError:
                if stop.is_set():
                    return None
                time.sleep(WAIT_STEP)
        if len(_OPEN) >= _KEEP:
            old_path = next(iter(_OPEN))
            process, old, _lock = _OPEN.pop(old_path)
            if process == os.getpid():
                with contextlib.suppress(OSError):
                    os.close(old)
        found = (os.getpid(), fd, threading.Lock())
        _OPEN[path] = found
    return found[1], found[2]


def claim(path: str, pull: int, stop: StopFlag) -> int | None:
    """Take the next piece of the list at ``path`` for pull number ``pull``: its index,
    or None when every piece is taken (or the stop flag rose while the list was not
    written yet)."""
    opened = _opened(path, stop)
    if opened is None:
        return None
    fd, lock = opened
    with lock:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            head = os.pread(fd, 16, 0)
            index, size = _number(head[:8]), _number(head[8:])
            if index >= size:
                return None
            os.pwrite(fd, _word(index + 1), 0)
            os.pwrite(fd, _word(pull, _CLAIM), _HEADER + _CLAIM * index)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    return index


def pieces(path: str) -> list[bytes]:
    """The pickled pieces of the list at ``path``, read once per process."""
    found = _PIECES.get(path)
    if found is None:
        with open(path, "rb") as stream:
            start = _number(stream.read(_HEADER)[16:24])
            stream.seek(start)
            found = pickle.load(stream)
        keep(_PIECES, path, found)
    return found


def run_roots(space: Any, roots: Sequence[Subtree], mode: str, budget: int | None,
              keep: int | None, seconds: float | None, stop: StopFlag) -> TaskResult:
    """One piece, as a task would run it: its rest comes back sealed."""
    result = run_subtrees(space, unseal(roots), mode, budget, keep, seconds=seconds,
                          stop=stop)
    if result.leftover:
        result = replace(result, leftover=seal(result.leftover))
    return result


def listed(path: str, index: int) -> Any:
    """Piece ``index`` of the list at ``path``: its payload."""
    return pickle.loads(pieces(path)[index])


class Puller(Protocol):
    """What a pull runs, whatever the search: the list it claims from (``path``), its
    number, its stop flag, the piece it carries (``(index, payload)``, or None), how to
    run a piece's payload, whether a piece's result ends the pull (a rest to share
    out), and what it hands back of the pieces it ran."""

    path: str
    number: int
    stop: StopFlag
    cap: float
    carried: tuple[int, Any] | None

    def run(self, payload: Any) -> Any: ...

    def ends(self, result: Any) -> bool: ...

    def result(self, pieces: list[tuple[int, Any]]) -> Any: ...


def drive(puller: Puller) -> Any:
    """Run a pull: the piece it carries, then pieces claimed one after another until
    none is left, one ends it, the stop flag rises or ``cap`` seconds have passed."""
    began = time.perf_counter()
    ran: list[tuple[int, Any]] = []
    if puller.carried is not None:
        index, payload = puller.carried
        ran.append((index, puller.run(payload)))
    while (not (ran and puller.ends(ran[-1][1])) and not puller.stop.is_set()
           and time.perf_counter() - began < puller.cap):
        taken = take(puller)
        if taken is None:
            break
        ran.append(taken)
    return puller.result(ran)


def take(puller: Puller) -> tuple[int, Any] | None:
    """Claim the next piece of the pull's list and run it: its index and result; None
    when none is left."""
    index = claim(puller.path, puller.number, puller.stop)
    if index is None:
        return None
    return index, puller.run(listed(puller.path, index))


class CountPull:
    """A count's pull (``Puller``), from its arguments: ``(handle, path, pull, first,
    mode, budget, keep, seconds, stop, cap)``, ``first`` the piece it carries as
    ``(index, roots)`` or None."""

    def __init__(self, arguments: bytes) -> None:
        (handle, self.path, self.number, self.carried, mode, budget, keep, seconds,
         self.stop, self.cap) = pickle.loads(arguments)
        self.space = warm(unship(handle))
        self._how = (mode, budget, keep, seconds)

    def run(self, payload: Any) -> TaskResult:
        return run_roots(self.space, payload, *self._how, self.stop)

    def ends(self, result: TaskResult) -> bool:
        return bool(result.leftover)

    def result(self, pieces: list[tuple[int, Any]]) -> Pulled:
        return Pulled.of(pieces)


def run_pulled(arguments: bytes) -> Pulled:
    """A count's pull (see the glossary), its arguments ``pickled`` (``CountPull``)."""
    return cast(Pulled, drive(CountPull(arguments)))
