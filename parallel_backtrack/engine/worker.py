"""What runs inside a worker: the shipped space, its kernels warmed once, one task.

Every function here runs in a worker process (or thread, or in the parent for an
inline executor); the pools that send them live in ``executors.py`` and the
search they run in ``split.py``.

Glossary
--------
handle
    What ``executor.ship(space)`` returned: a ``Shipped`` (a file the space was
    pickled to once), a Dask future, or the space itself.  ``unship(handle)``
    gives the object back, loaded once per process (``_SHIPPED``).
warm
    Call each fast hook once on a one-node budget, the first time a process sees
    a space, so compiled kernels load before any task is timed (with a Ctrl-C
    held meanwhile: see ``interrupts_held``).
stop flag
    ``StopFlag(path)``: raised when a file appears at ``path`` (the parent's
    ``executor.raise_flag``); a task checks it now and then and hands back its
    rest.  ``StopFlag(None)`` never rises (inline runs need none).
task
    ``run_task(handle, roots, mode, budget, keep, seconds, stop)``: unship and
    warm the space, then ``split.run_subtrees``.  ``run_pickled`` takes the same
    arguments ``pickled`` into one bytes object (what a process pool sends
    cheapest), and ``task_key`` names what such a task searches.  ``warm_task``
    only unships and warms: it is how a pool is started.
sealed
    ``Sealed(data)``: a subtree root's state kept as its own pickle.  A
    ``run_pickled`` task hands its leftover back sealed; the parent queues and
    sends those roots on as they are, and unpickles one (``unseal``) only to
    branch it itself.  A 16x16 Sudoku state is 256 ints: sealed, the parent's
    time per task fell from some 73 to 48 us on a count at 64 virtual workers.

Example: ``run_task(space, [(space.root(), 1)], "count", None, None, None,
StopFlag())`` counts the whole tree in this process.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import cloudpickle  # type: ignore[import-untyped]

from . import hooks, watchdog
from .quickload import quick_loads
from .split import Subtree, TaskResult, run_subtrees

_SHIPPED: dict[str, Any] = {}
_WARMED: dict[int, Any] = {}  # id -> the space itself, so an id is never reused while kept
_SHIPPED_MAX = 8


@dataclass(frozen=True, slots=True)
class Shipped:
    """A handle to an object stored once in a file that the workers read once."""

    key: str
    path: str
    owner: int = 0  # the process that shipped it (0: nobody to watch)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Shipped, (self.key, self.path, self.owner))  # cheaper than a dataclass's


def unship(handle: Any) -> Any:
    """Inside a worker: the object behind a handle (cached per process)."""
    if not isinstance(handle, Shipped):
        return handle
    if handle.owner and handle.owner != os.getpid():
        watchdog.end_with(handle.owner)
    found = _SHIPPED.get(handle.key)
    if found is None:
        with open(handle.path, "rb") as stream:
            found = cloudpickle.load(stream)
        keep(_SHIPPED, handle.key, found)
    return found


def remember(key: str, obj: Any) -> None:
    """Keep ``obj`` as the object behind the handle ``key`` in this process (a process
    forked from it later has it already)."""
    keep(_SHIPPED, key, obj)


def keep(cache: dict[Any, Any], key: Any, obj: Any) -> None:
    """Store in a per-process cache of at most ``_SHIPPED_MAX`` entries (oldest out)."""
    if len(cache) >= _SHIPPED_MAX:
        cache.pop(next(iter(cache)))
    cache[key] = obj


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Hold a Ctrl-C until the block ends.  Loading a compiled kernel runs Python
    callbacks from LLVM through ctypes, which prints and drops any exception raised
    in them: a KeyboardInterrupt landing there would be lost and the run go on."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught and callable(previous):
            # Called here, in this thread: a signal sent again could reach the Python
            # handler only later, inside the next kernel load, and be lost there.
            previous(signal.SIGINT, None)
        elif caught and previous == signal.SIG_DFL:
            os.kill(os.getpid(), signal.SIGINT)  # the default action: end the process


@dataclass(frozen=True, slots=True)
class StopFlag:
    """Raised when a file appears at ``path``; ``path`` None never raises."""

    path: str | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (StopFlag, (self.path,))  # cheaper than a dataclass's

    def is_set(self) -> bool:
        return self.path is not None and os.path.exists(self.path)


def warm(space: Any) -> Any:
    """Inside a worker: call each fast hook once on a one-node budget, the first time
    this process sees ``space``, so compiled kernels load before any task is timed."""
    if _WARMED.get(id(space)) is space:
        return space
    fast = hooks.of(space)
    with interrupts_held(), quick_loads():
        for state in _warm_states(space):
            for hook in (fast.count_below, fast.first_below):
                try:
                    hook(state, 1)
                except Exception:  # noqa: BLE001 - only a warm-up: tasks report errors
                    pass
    keep(_WARMED, id(space), space)
    return space


def _warm_states(space: Any) -> list[Any]:
    """The root, and the first of a count's symmetric roots, whose states may need
    other kernels (N-Queens: the canonical tree's)."""
    states = [space.root()]
    try:
        symmetric = hooks.of(space).count_roots()
        if symmetric is not None:
            states.extend(state for state, _ in list(symmetric)[:1])
    except Exception:  # noqa: BLE001, S110 - only a warm-up
        pass
    return states


def pickled(obj: Any) -> bytes:
    """``obj`` (a task's roots, or all its arguments) as one bytes object, pickled by
    the fast C pickler when it can: loky's cloudpickle costs some 8 us per state,
    and a task can carry hundreds."""
    try:
        return pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return cloudpickle.dumps(obj)  # states of classes made on the fly


def call_pickled(call: bytes) -> Any:
    """``fn(*args)`` from ``pickled((fn, args))``: a task whose arguments the parent
    pickled with the fast C pickler (see ``pickled``), so that the pool's cloudpickle
    meets one bytes object instead of every argument."""
    fn, args = pickle.loads(call)
    return fn(*args)


class Sealed:
    """A subtree root's state kept in its pickle: the parent hands a leftover root on
    to another task without ever unpickling it (a 16x16 Sudoku state is 256 ints,
    some 3 us to unpickle and 2 us to pickle again), unless it branches it itself."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data

    def __reduce__(self) -> tuple[Any, ...]:
        return (Sealed, (self.data,))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sealed) and other.data == self.data

    def __hash__(self) -> int:
        return hash(self.data)


def seal(roots: Sequence[Subtree]) -> tuple[Subtree, ...]:
    """Each root's state in a ``Sealed`` pickle of its own (those already sealed stay)."""
    return tuple((state if type(state) is Sealed else Sealed(pickled(state)), weight)
                 for state, weight in roots)


def unseal(roots: Sequence[Subtree]) -> list[Subtree]:
    """The states of ``roots`` as objects again."""
    return [(pickle.loads(state.data) if type(state) is Sealed else state, weight)
            for state, weight in roots]


def run_task(handle: Any, roots: Sequence[Subtree] | bytes, mode: str, budget: int | None,
             keep: int | None, seconds: float | None, stop: StopFlag) -> TaskResult:
    """The body of one task, in a worker: load the space once, then ``run_subtrees``
    (``roots`` may come ``pickled``, and states ``Sealed``)."""
    started = time.perf_counter()
    given = unseal(pickle.loads(roots) if isinstance(roots, bytes) else roots)
    space = warm(unship(handle))
    setup = time.perf_counter() - started
    result = run_subtrees(space, given, mode, budget, keep, seconds=seconds, stop=stop)
    return replace(result, setup_seconds=setup) if setup > 1e-3 else result


def task_key(arguments: bytes) -> bytes:
    """What a ``run_pickled`` task searches (roots, mode, budgets), without the run's
    own space handle and stop flag: the same for the same task in another run."""
    _, roots, mode, budget, keep, seconds, _ = pickle.loads(arguments)
    return pickled((roots, mode, budget, keep, seconds))


def run_pickled(arguments: bytes) -> TaskResult:
    """``run_task`` with all its arguments ``pickled`` into one bytes object; the
    leftover comes back ``Sealed``, for the parent to pass on as it is."""
    result = run_task(*pickle.loads(arguments))
    if not result.leftover:
        return result
    return replace(result, leftover=seal(result.leftover))


def warm_task(handle: Any) -> float:
    """Load the space and its kernels in a fresh worker; returns the seconds it took."""
    started = time.perf_counter()
    warm(unship(handle))
    return time.perf_counter() - started
