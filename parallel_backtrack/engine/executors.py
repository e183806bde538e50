"""Executors: ``workers`` + ``backend`` -> something that runs tasks.

Glossary
--------
backend
    ``serial`` (in this process, no pool), ``threads`` (a thread pool, for
    debugging), ``loky`` (loky's reusable process pool, the default for more
    than one worker; the command lines fork its workers from a warm server,
    see ``forkserver.py``), ``fork`` (processes forked from this one, Linux: no
    start-up cost) or ``dask`` (a Dask ``distributed`` cluster).
registry
    Backend name -> factory (``backends.py``): this module registers its pools,
    ``dask_executor.py`` registers ``dask``; ``make_executor`` looks the name up
    there, so this module imports no other backend module.
capabilities
    What an executor needs from the scheduler, as attributes, never a test of
    its name: ``runs_inline`` (tasks run inside ``submit``, in this process:
    nothing to probe, split or pickle), ``handle_as_argument`` (a shipped
    handle must reach ``submit`` as an argument of its own), ``slow_start``,
    ``start_cost``, ``crash_loses_all`` (else ``lost_alone(error)``: only that
    task is lost, send it again), ``shares_files`` (tasks run on this machine and
    see the files the parent writes: a stop flag, shared bounds, a shared table),
    ``maps_bounds`` (a run's shared bounds go in a mapped file although other files
    are not shared: the virtual pool, whose tasks run in this process), ``pulls`` (a
    count's cut may go in a file the workers take pieces from, ``pull.py``).
workers
    joblib's ``n_jobs`` convention: a positive count, or -1 for every core
    loky can see.  0 and values below -1 are refused.
shipping
    ``executor.ship(obj)`` sends a large, unchanging object (the Space) to the
    workers once and returns a small handle; tasks carry the handle and call
    ``worker.unship(handle)`` inside the worker (what runs there is in
    ``worker.py``; this module holds only the pools).  A problem's task function
    need not know: ``executor.submit(run_shipped, fn, handle, *args)`` calls
    ``fn(obj, *args)`` in the worker.
pool for a run
    ``with pool_for_run(executor, workers, backend) as pool:``: the caller's
    executor (released at the end) or a new one (closed at the end, killed
    when the run ends in an error or Ctrl-C).  A borrowed executor is its own
    pool: a ``workers``, ``backend`` or pool option given with it that it would
    not honour is a ValueError (``check_borrowed``), never silently ignored.
stop flag
    ``executor.stop_flag()`` is a small picklable flag the tasks of one run
    check now and then; ``executor.raise_flag(flag)`` ends them within
    milliseconds without killing the (warm, reusable) workers.  For local pools
    it is a file that appears; Dask tasks rely on their budget instead.
crash
    A worker process died (killed, out of memory): ``executor.is_crash(error)``
    recognises the error, ``executor.restart()`` gets a fresh pool.

Example: ``make_executor(2)`` is a loky pool of two processes;
``make_executor(1)`` runs everything in the calling process.
"""

from __future__ import annotations

import atexit
import concurrent.futures as cf
import hashlib
import multiprocessing
import os
import queue
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, overload

import cloudpickle  # type: ignore[import-untyped]

from . import forkserver, heap, tempfiles
from .arguments import short_repr
from .backends import (
    REGISTRY,
    backend_named,
    backend_names,
    cpu_count,  # noqa: F401 - re-exported: it lived here before backends.py
    known_names,
    register_built_in,
    resolve_workers,
)
from .checks import UnknownNameError, check_name, did_you_mean  # noqa: F401 - re-exported

# unship and warm are re-exported: code written before worker.py imports them from here.
from .worker import Shipped, StopFlag, remember, unship, warm  # noqa: F401

_FORK_POOLS: dict[int, cf.ProcessPoolExecutor] = {}


# A raised flag stays this long: the tasks still running must see it after the run
# has returned (they end within one budget), then it is swept by a later run or at exit.
FLAG_LINGER = 30.0
# Starting work on a pool that is up (or that forks from this process in milliseconds).
WARM_START_COST = 0.02
_RAISED: list[tuple[float, str]] = []
# Seconds a parent's loop waits for a task to end before it looks again (time-outs,
# asks).
WAIT = 0.25
# Seconds a pool's close(kill=True) waits for loky to have killed its workers.
KILL_WAIT = 5.0
# A parent's measured cost per task (``OwnTime``) counts from this many tasks sent on.
LEARN_TASKS = 16


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def _sweep_flags(older_than: float = 0.0) -> None:
    now = time.monotonic()
    for raised in [r for r in _RAISED if now - r[0] >= older_than]:
        _RAISED.remove(raised)
        _remove(raised[1])


atexit.register(_sweep_flags)


class Executor:
    """The small interface the scheduler needs; the base runs tasks in-process."""

    name = "serial"
    # Tasks run inside ``submit``, in this process, one at a time: there is no pool to
    # probe for, no reason to split the tree and nothing to pickle; submitting a task
    # is running it.  Pools (and the virtual one, which stands for a pool) say False.
    runs_inline = True
    # A shipped handle must reach ``submit`` as an argument of its own, not pickled
    # inside another (Dask swaps the future it scattered for the object only there).
    handle_as_argument = False
    # A local pool breaks as a whole when one worker dies: every task in flight is lost.
    crash_loses_all = True
    # Workers take a while to be ready (processes to spawn, kernels to load): the
    # parent keeps searching meanwhile.
    slow_start = False
    # About what starting the workers costs, in seconds: a tree the parent finishes
    # alone in that time does not start them.
    start_cost = 0.3
    # Tasks run on this machine and see the files the parent writes (a stop flag that
    # appears, bounds in a mapped file, a shared table): pools of local processes.
    shares_files = False
    # Bounds go in a mapped file (``engine.window``) that tasks read by its path, as
    # they do wherever files are shared, although other files are not: the virtual
    # pool, which stands for a local pool (its tasks run in this process).
    maps_bounds = False
    # A task in flight whose inputs narrowed (a window raised while it runs) is timed
    # again by ``renew``: only a pool that ran it without seeing the raise (the
    # virtual one) needs this; real tasks read the raise themselves.
    renews = False
    # Tail tasks may be asked for their rest while workers idle (``handback``): where
    # they can read the ask (a shared file) or where the pool models it (virtual).
    hands_back = False
    # A count's cut may go in a file its workers take pieces from (``pull.py``): pools
    # on this machine, and the virtual one; a pull hands back its results every
    # ``pull_seconds``.
    pulls = False
    pull_seconds = 1.0

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._files: list[str] = []

    def submit(self, fn: Callable[..., Any], *args: Any) -> cf.Future:
        future: cf.Future = cf.Future()
        try:
            future.set_result(fn(*args))
        except BaseException as error:  # noqa: BLE001 - handed to the caller via the future
            if isinstance(error, KeyboardInterrupt):
                raise
            future.set_exception(error)
        return future

    def wait_any(self, futures: Iterable[Any], timeout: float | None = None) -> set[Any]:
        done, _ = cf.wait(list(futures), timeout=timeout, return_when=cf.FIRST_COMPLETED)
        return set(done)

    def ship(self, obj: Any) -> Any:
        return obj

    def boot(self, handle: Any) -> None:
        """Begin what the workers will need, early (a fork server); nothing here."""

    def booted(self) -> bool:
        """Can workers start now without making the caller wait?"""
        return True

    def ship_to_file(self, obj: Any) -> Shipped:
        """Pickle ``obj`` once to a file (removed at ``release``); tasks carry the handle."""
        data = cloudpickle.dumps(obj)
        key = hashlib.blake2b(data, digest_size=16).hexdigest()
        handle, path = tempfiles.make("space", ".pkl")
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        self._files.append(path)
        remember(key, obj)  # a process forked from this one has it already
        return Shipped(key, path, os.getpid())

    def cancel(self, futures: Iterable[Any]) -> None:
        for future in futures:
            future.cancel()

    def listed(self, path: str) -> None:
        """A pulled cut's list is written at ``path`` (``pull.py``): the virtual pool
        notes when; real pulls find the file."""

    def renew(self, future: Any, fn: Callable[..., Any], *args: Any) -> None:
        """``future``'s task would now run as ``fn(*args)`` (its window narrowed while
        it ran): nothing to do where tasks read the change themselves."""

    def now(self) -> float:
        """Seconds on the pool's clock (a virtual pool's is its own)."""
        return time.perf_counter()

    def hand_back(self, future: Any, rerun: Callable[[float, Any], tuple[Any, ...] | None]
                  ) -> bool:
        """The task of ``future`` was asked for its rest (its slot is raised): True while
        it still runs and will see the ask.  ``rerun(share, result)``, for a pool that
        ran it before the ask: the call that ends as it would, asked once ``share`` of
        it had run."""
        return not future.done()

    def stop_flag(self) -> StopFlag:
        """A fresh flag for one run (in-process tasks never need one)."""
        return StopFlag(None)

    def raise_flag(self, flag: StopFlag) -> None:
        """Tell the tasks of a finished run to stop (they see it within milliseconds)."""
        if flag.path is not None:
            with open(flag.path, "wb"):
                pass
            _RAISED.append((time.monotonic(), flag.path))

    def result(self, future: Any) -> Any:
        """A finished task's result (``future.result()``), or the error the task
        raised; a pool whose link to the workers broke while fetching it (Dask's
        scheduler lost) raises ``PoolLostError`` instead."""
        return future.result()

    def is_crash(self, error: BaseException) -> bool:
        """Did a worker process die under this task (rather than the task fail)?"""
        return False

    def lost_alone(self, error: BaseException) -> bool:
        """Was only this task lost with its worker (a pool that goes on, as Dask):
        send it again?"""
        return not self.crash_loses_all and self.is_crash(error)

    def restart(self) -> None:
        """A fresh pool after a crash; tasks in flight are lost and must be re-run."""

    def release(self) -> None:
        """End of a run on an executor someone else owns: drop shipped files only."""
        for path in self._files:
            _remove(path)
        self._files.clear()
        _sweep_flags(FLAG_LINGER)

    def close(self, kill: bool = False) -> None:
        """End of a run: drop shipped files; ``kill`` also stops running workers."""
        self.release()


class _LocalPool(Executor):
    """Pools on this machine: the stop flag is a file the workers can see, and every
    future reports to one queue as it finishes (``wait_any``)."""

    runs_inline = False
    shares_files = True
    hands_back = True
    pulls = True

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self._finished: queue.SimpleQueue[cf.Future] = queue.SimpleQueue()
        self._unclaimed: set[cf.Future] = set()  # finished, not yet asked about

    def _tracked(self, future: cf.Future) -> cf.Future:
        future.add_done_callback(self._finished.put)
        return future

    def wait_any(self, futures: Iterable[Any], timeout: float | None = None) -> set[Any]:
        """The finished ones among ``futures`` (waiting up to ``timeout`` for one),
        taken from the queue the futures report to: each result costs the same however
        many are in flight.  ``cf.wait`` hangs a waiter on every future and takes it
        off again, each call: some 0.1-0.25 ms a result with 128 in flight (64
        workers), about the time one parent has per task."""
        wanted = futures if isinstance(futures, (set, dict)) else set(futures)
        done = {future for future in self._unclaimed if future in wanted}
        self._unclaimed -= done
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                future = self._finished.get_nowait() if done else self._finished.get(
                    True, left)
            except queue.Empty:
                return done
            (done if future in wanted else self._unclaimed).add(future)

    def release(self) -> None:
        self._unclaimed.clear()  # a run's leftovers (warm-ups, cancelled tasks)
        super().release()

    def stop_flag(self) -> StopFlag:
        return StopFlag(tempfiles.named("stop", uuid.uuid4().hex, ""))


class ThreadExecutor(_LocalPool):
    name = "threads"

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self._pool = cf.ThreadPoolExecutor(workers, thread_name_prefix="pb")

    def submit(self, fn: Callable[..., Any], *args: Any) -> cf.Future:
        return self._tracked(self._pool.submit(fn, *args))

    def close(self, kill: bool = False) -> None:
        self._pool.shutdown(wait=not kill, cancel_futures=True)
        super().close(kill)


class LokyExecutor(_LocalPool):
    """loky's reusable process pool: warm workers survive from one run to the next."""

    name = "loky"
    slow_start = True
    start_method = "loky"

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        if self.start_method == "loky" and forkserver.wanted():
            self.start_method = "forkserver"  # our command lines: see forkserver.py
        self._pool = self._reusable()

    def _reusable(self) -> Any:
        from loky import get_reusable_executor  # type: ignore[import-untyped]

        context = forkserver.context() if self.start_method == "forkserver" else None
        return get_reusable_executor(max_workers=self.workers, timeout=300, context=context)

    def boot(self, handle: Any) -> None:
        if self.start_method == "forkserver" and not self.pids():
            forkserver.start(handle)

    def booted(self) -> bool:
        return self.start_method != "forkserver" or forkserver.ready()

    def submit(self, fn: Callable[..., Any], *args: Any) -> cf.Future:
        """A pool a worker just died in refuses new tasks; that comes back as a future
        holding the crash, where the scheduler looks for crashes (and recovers)."""
        try:
            return self._tracked(self._pool.submit(fn, *args))
        except Exception as error:
            if not self.is_crash(error):
                raise
            future: cf.Future = cf.Future()
            future.set_exception(error)
            return self._tracked(future)

    def ship(self, obj: Any) -> Any:
        return self.ship_to_file(obj)

    def is_crash(self, error: BaseException) -> bool:
        from concurrent.futures.process import BrokenProcessPool

        from loky.process_executor import (  # type: ignore[import-untyped]
            TerminatedWorkerError,
        )

        return isinstance(error, (TerminatedWorkerError, BrokenProcessPool))

    def restart(self) -> None:
        # The broken pool must be shut down first: loky hands out a new one only then.
        self._pool.shutdown(wait=True, kill_workers=True)
        self._pool = self._reusable()

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests and measurements)."""
        return sorted(getattr(self._pool, "_processes", None) or {})

    @property
    def start_cost(self) -> float:  # type: ignore[override]
        """A pool kept from an earlier run is already up: nothing to save by waiting.
        Nor with a fork server: the parent searches until it is ready (``booted``),
        and a tree that ends first never starts the pool."""
        if self.pids() or self.start_method == "forkserver":
            return WARM_START_COST
        return Executor.start_cost

    def close(self, kill: bool = False) -> None:
        """``kill``: loky's manager thread kills the workers and closes the queues, and
        the thread that feeds the task queue ends; wait (up to ``KILL_WAIT`` each) for
        both.  Otherwise a worker could still print after the caller's last line, and a
        process ending at once could stop the feeding thread (a daemon) between
        unlinking the queue's semaphore and telling the resource tracker, which then
        warns of a leaked semaphore on stderr."""
        if kill:
            manager = getattr(self._pool, "_executor_manager_thread", None)
            calls = getattr(self._pool, "_call_queue", None)
            _settle_cancelled(self._pool)
            self._pool.shutdown(wait=False, kill_workers=True)
            _wait_killed(manager, calls)
        super().close(kill)


def _settle_cancelled(pool: Any) -> None:
    """Before a loky pool's ``shutdown(kill_workers=True)``: its manager thread fails
    every task still pending with ``set_exception``, unguarded, and a task this process
    cancelled raises ``InvalidStateError`` there, which loky prints as a traceback of
    its crashed thread (after a Ctrl-C, say).  A cancelled future stays cancelled; only
    that call on it now does nothing (its class becomes ``_cancelled_class``'s)."""
    for item in list(getattr(pool, "_pending_work_items", {}).values()):
        future = getattr(item, "future", None)
        if isinstance(future, cf.Future) and future.cancelled():
            future.__class__ = _cancelled_class(type(future))


_CANCELLED: dict[type[cf.Future[Any]], type[cf.Future[Any]]] = {}


def _cancelled_class(kind: type[cf.Future[Any]]) -> type[cf.Future[Any]]:
    """``kind`` (a future's class: loky's own) with a ``set_exception`` that does
    nothing once the future is cancelled."""
    if kind not in _CANCELLED:
        def set_exception(self: Any, exception: BaseException | None) -> None:
            if not self.cancelled():
                kind.set_exception(self, exception)

        _CANCELLED[kind] = type(f"Cancelled{kind.__name__}", (kind,),
                                {"set_exception": set_exception})
    return _CANCELLED[kind]


def _wait_killed(manager: Any, calls: Any) -> None:
    """After a loky pool's ``shutdown(kill_workers=True)``: wait for its manager thread
    (``manager``) to kill the workers, then for the thread feeding its task queue
    (``calls``) to end, each up to ``KILL_WAIT``."""
    if manager is not None:
        manager.join(KILL_WAIT)
        if manager.is_alive():  # the workers may still run: the queue stays loky's
            return
    feeder = getattr(calls, "_thread", None)
    if feeder is not None and feeder.is_alive():
        # The workers are gone: a feeder blocked on the full pipe to them would wait
        # forever.  With the pipe's last reading end closed its write fails (loky
        # ignores that error) and it ends.
        calls._reader.close()
        feeder.join(KILL_WAIT)


class ForkExecutor(LokyExecutor):
    """A process pool whose workers are forked from this process (Linux only): they
    start with every module and compiled kernel the parent has already loaded, in
    milliseconds instead of the second a fresh interpreter needs.  One pool per
    worker count is kept for the next run, like loky's."""

    name = "fork"
    start_method = "fork"

    def _reusable(self) -> Any:
        pool = _FORK_POOLS.get(self.workers)
        if pool is None or pool._broken or pool._shutdown_thread:
            context = multiprocessing.get_context("fork")
            pool = _FORK_POOLS[self.workers] = cf.ProcessPoolExecutor(self.workers,
                                                                       mp_context=context)
        return pool

    @property
    def start_cost(self) -> float:  # type: ignore[override]
        return WARM_START_COST

    def restart(self) -> None:
        self._kill()
        self._pool = self._reusable()

    def _kill(self) -> None:
        _FORK_POOLS.pop(self.workers, None)
        for process in list((self._pool._processes or {}).values()):
            process.kill()
        self._pool.shutdown(wait=False, cancel_futures=True)

    def close(self, kill: bool = False) -> None:
        if kill:
            self._kill()
        Executor.close(self, kill)


def _close_fork_pools() -> None:
    # At exit, before the interpreter tears modules down under the pools' callbacks.
    while _FORK_POOLS:
        _, pool = _FORK_POOLS.popitem()
        pool.shutdown(wait=True, cancel_futures=True)


atexit.register(_close_fork_pools)


def make_executor(workers: int = 1, backend: str | None = None, **options: Any) -> Executor:
    """The executor for ``workers`` and ``backend`` (None: serial for 1, else loky)."""
    count = resolve_workers(workers)
    if backend is None:
        backend = "serial" if count == 1 else "loky"
    check_name("backend", backend, known_names())
    chosen = backend_named(backend)
    assert chosen is not None  # a built-in name registers when its module loads
    for option, value in options.items():
        if value is not None and option not in chosen.options:
            takers = [name for name in backend_names() if option in REGISTRY[name].options]
            if not takers:
                raise TypeError(f"make_executor() got an unknown option {option!r}")
            raise ValueError(f"a scheduler {option} needs backend {takers[0]!r}, "
                             f"got backend {backend!r}")
    return chosen.factory(count, **{k: v for k, v in options.items() if v is not None})


def check_pool(executor: object, backend: object, address: object) -> str | None:
    """The backend a search's pool is made with (None: the default), once its
    arguments are checked: ``executor`` an ``Executor`` or None (TypeError), ``backend``
    a name or None, ``address`` a Dask scheduler's or None and not with ``executor``
    (ValueError); an address with no backend named means ``"dask"``."""
    if executor is not None and not isinstance(executor, Executor):
        hint = (f"; to name a backend, pass backend={executor!r}"
                if isinstance(executor, str) else "")
        raise TypeError(f"executor must be an Executor (engine.make_executor(...)) or "
                        f"None, got {short_repr(executor)}{hint}")
    if backend is not None and not isinstance(backend, str):
        raise TypeError(f"backend must be a backend's name, one of "
                        f"{list(backend_names())}, or None, got {short_repr(backend)}")
    if address is None:
        return backend
    if not isinstance(address, str) or not address:
        raise TypeError(f"address must be a Dask scheduler's address such as "
                        f"'tcp://host:8786', got {short_repr(address)}")
    if executor is not None:
        raise ValueError("pass executor or address, not both: an address is where the "
                         "pool this call makes joins a Dask cluster")
    return "dask" if backend is None else backend


class OwnTime:
    """A parent's own seconds on ``executor``'s clock (``Executor.now``), its waits for
    tasks left out: over the tasks it sent, what each costs it.  ``wait_any`` waits
    uncounted; ``resume`` leaves out the time since the last look (the caller's own
    business, such as a consumer of streamed solutions); ``update`` counts up to now."""

    def __init__(self, executor: Executor) -> None:
        self.executor, self.seconds = executor, 0.0
        self._mark = executor.now()

    def update(self) -> float:
        now = self.executor.now()
        self.seconds += now - self._mark
        self._mark = now
        return self.seconds

    def resume(self) -> None:
        self._mark = self.executor.now()

    def wait_any(self, futures: Iterable[Any], timeout: float | None = None) -> set[Any]:
        self.update()
        done = self.executor.wait_any(futures, timeout=timeout)
        self.resume()
        return done


@overload
def default_workers(workers: int | None, executor: None, default: int = 1) -> int: ...
@overload
def default_workers(workers: int | None, executor: Executor | None,
                    default: int = 1) -> int | None: ...
def default_workers(workers: int | None, executor: Executor | None,
                    default: int = 1) -> int | None:
    """``workers``, or a function's documented ``default`` when neither it nor an
    ``executor`` is given (a borrowed executor brings its own count: None stays None).
    Example: ``default_workers(None, None, 2) == 2``."""
    return default if workers is None and executor is None else workers


def check_borrowed(executor: Executor | None, workers: object = None,
                   backend: object = None, **options: object) -> None:
    """Nothing when ``executor`` is None or every other argument is None (not given)
    or agrees with it (``workers`` its number of workers, -1 resolved; ``backend`` its
    name); else a ValueError naming what would be ignored: ``workers=4 and
    backend='loky' are ignored with executor=VirtualExecutor(2): pass one or the
    other``.  A ``workers`` of the wrong type is a WrongTypeError first."""
    if executor is None:
        return
    given = []
    if workers is not None and resolve_workers(workers) != executor.workers:  # type: ignore[arg-type]
        given.append(f"workers={workers!r}")
    if backend is not None and backend != executor.name:
        given.append(f"backend={backend!r}")
    given += [f"{name}={value!r}" for name, value in options.items() if value is not None]
    if given:
        verb = "is" if len(given) == 1 else "are"
        raise ValueError(f"{' and '.join(given)} {verb} ignored with executor="
                         f"{type(executor).__name__}({executor.workers}): the executor is "
                         "the pool; pass one or the other")


def pool_arguments(executor: Executor | None, workers: int | None = None,
                   backend: str | None = None, **options: Any) -> dict[str, Any]:
    """The keywords of ``pool_for_run`` for a call that checks its pool's arguments
    before the pool opens (work comes first, or a ``with`` later): ``executor`` alone
    once ``check_borrowed`` has refused what it would ignore, else ``workers``,
    ``backend`` and ``options``.  The check is made here, once: ``pool_for_run``
    then has nothing left to check."""
    check_borrowed(executor, workers, backend, **options)
    if executor is not None:
        return {"executor": executor}
    return {"workers": workers, "backend": backend, **options}


@contextmanager
def pool_for_run(executor: Executor | None = None, workers: int | None = None,
                 backend: str | None = None, *, owned: bool = False,
                 **options: Any) -> Iterator[Executor]:
    """The pool of one run: ``executor`` when given (released at the end: its owner
    keeps it; ``owned``: made for this run, closed as a new one is), else a new one
    from ``make_executor`` (``workers`` None: 1; closed at the end; killed when the run
    ends in an error or Ctrl-C, so no task outlives it).  With ``executor``, a
    ``workers``, ``backend`` or option it would ignore is a ValueError
    (``check_borrowed``).  The heap the run finds is frozen while it runs
    (``heap.frozen``)."""
    check_borrowed(executor, workers, backend, **options)
    owned = owned or executor is None
    pool = (make_executor(default_workers(workers, None), backend, **options)
            if executor is None else executor)
    try:
        with heap.frozen():
            yield pool
    except BaseException:
        pool.close(kill=True) if owned else pool.release()
        raise
    pool.close() if owned else pool.release()


def run_shipped(fn: Callable[..., Any], handle: Any, *args: Any) -> Any:
    """In a worker: ``fn(obj, *args)`` with ``obj`` the object behind ``handle`` (what
    ``executor.ship`` returned), so a problem's task function gets it unpickled."""
    return fn(unship(handle), *args)


def _fork(workers: int) -> ForkExecutor:
    if "fork" not in multiprocessing.get_all_start_methods():
        raise ValueError("backend 'fork' needs the fork start method (Linux); use 'loky'")
    return ForkExecutor(workers)


register_built_in("serial", lambda workers: Executor(1))
register_built_in("threads", ThreadExecutor)
register_built_in("loky", LokyExecutor)
register_built_in("fork", _fork)
