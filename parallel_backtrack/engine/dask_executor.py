"""Running the scheduler's tasks on a Dask ``distributed`` cluster.

Glossary
--------
address
    ``tcp://HOST:PORT`` of a running ``dask scheduler``: the executor joins that
    cluster and uses every worker thread it has.  Without one it starts a
    ``LocalCluster`` of ``workers`` processes (one thread each, loopback only,
    no dashboard) when the first task is shipped, and closes it at the end.
shipping
    The Space is scattered to every worker once (``broadcast=True``); tasks
    carry the small future that stands for it and Dask hands them the object.
    Should every copy be lost (the workers that held it died), the next task
    submitted scatters it again.
crash
    Dask itself re-runs a task whose worker died, up to its
    ``distributed.scheduler.allowed-failures``; after that the task fails with
    ``KilledWorker``, which the scheduler treats as a crash of that task only.
    So is a task Dask cancelled that this executor did not (its input, the
    scattered Space, was lost with a worker): the scheduler queues it again.
bounds and stop flags
    Pushed to every worker while tasks run (``dask_bounds``): a running task sees a
    raised window bound or stop flag within milliseconds, as on a local pool,
    instead of the values it was submitted with.

Example: ``DaskExecutor(2)`` is a private two-process cluster on 127.0.0.1;
``DaskExecutor(1, address="tcp://10.0.0.5:8786")`` joins a shared one.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError
from typing import Any

from .backends import MissingExtraError, missing_extra, register_built_in
from .dask_bounds import DaskBounds, DaskStopFlag, Pusher, new_stop_flag, push_stop
from .executors import Executor
from .report import ClusterRefusedError, PoolLostError
from .worker import StopFlag

# A host is a name, an IPv4 address or a bracketed IPv6 one (tcp://[::1]:8786).
ADDRESS = re.compile(r"^([a-z]+://)?(\[[0-9a-fA-F:.]+\]|[^\s/:\[\]]+)(:\d+)?$")
CONNECT_TIMEOUT = "20s"
# Every worker answers the version check within this many seconds, or the command
# stops: a worker stopped or hung (its process paused, its machine unreachable with the
# connection still open) would hold its tasks until Dask's worker-ttl, 5 minutes.
CHECK_SECONDS = 10.0
# A joined cluster's worker threads are counted again this often during a run (one
# message to the scheduler), so workers that join later are fed too.
RECOUNT_SECONDS = 1.0
# The scheduler's small HTTP server (health checks) on a free loopback port, so it
# never fights over 8787 with a cluster someone else runs.
QUIET_HTTP = {"dashboard_address": "127.0.0.1:0"}


def _distributed() -> Any:
    try:
        import distributed
    except ImportError as error:  # not installed, or installed and broken
        raise MissingExtraError(missing_extra("dask") or "the dask backend needs "
                                f"dask.distributed, which is installed but does not import "
                                f"({error}): pip install --force-reinstall "
                                '"parallel_backtrack[dask]"') from None
    return distributed


def check_address(address: str) -> str:
    if not isinstance(address, str) or not ADDRESS.match(address):
        raise ValueError(f"scheduler address must look like tcp://HOST:PORT, got {address!r}")
    return address


def _joined_client(distributed: Any, address: str) -> Any:
    """A client of the scheduler at ``address``.  Dask warns of machines that run other
    versions of Python or of its packages with a table of many lines on stderr; the
    command says it in one (``version_note``) and goes on, as Dask does."""
    import sys
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            client = distributed.Client(address, timeout=CONNECT_TIMEOUT)
        except TypeError as error:  # a worker's or nanny's port greets as a scheduler's
            if "identity()" not in str(error):
                raise
            raise ClusterRefusedError(
                f"{address} is a Dask worker's or nanny's address, not a scheduler's; give "
                "the one 'dask scheduler' prints ('Scheduler at: ...')") from None
    for found in caught:
        if type(found.message).__name__ == "VersionMismatchWarning":
            print(f"parallel_backtrack: warning: {version_note(str(found.message), address)}",
                  file=sys.stderr, flush=True)
        else:
            warnings.warn_explicit(found.message, found.category, found.filename,
                                   found.lineno)
    return client


def version_note(table: str, address: str) -> str:
    """Dask's table of mismatched versions as one line: each package, then its version
    here, on the scheduler and on the workers."""
    rows = re.findall(r"^\|\s*(\S+)\s*\|\s*(.*?)\s*\|\s*(.*?)\s*\|\s*(.*?)\s*\|$", table,
                      re.MULTILINE)
    found = [f"{name} {here} here, {scheduler} on the scheduler, {workers} on the workers"
             for name, here, scheduler, workers in rows if name != "Package"]
    return (f"the Dask cluster at {address} runs other versions ({'; '.join(found) or table}"
            "); every machine needs the same Python minor version and package versions "
            "(docs/cluster.md)")


def package_version() -> str:
    """This package's version, where it runs (a worker: ``DaskExecutor._check_workers``)."""
    import parallel_backtrack

    return str(parallel_backtrack.__version__)


def version_mismatch(found: dict[str, str], here: str) -> str | None:
    """None when every worker (address -> version) runs version ``here``; else what the
    others run, e.g. ``parallel_backtrack 0.0.9 (2 of 3 workers)``."""
    others = sorted({v for v in found.values() if v != here})
    if not others:
        return None
    count = sum(v != here for v in found.values())
    return (f"parallel_backtrack {', '.join(others)} ({count} of {len(found)} worker"
            f"{'s' if len(found) > 1 else ''})")


def _first_line(message: str) -> str:
    """An error's message as one line, less the connection Dask names first."""
    return re.sub(r"^in <[^>]*>: ", "", (message.splitlines() or [""])[0])


class DaskExecutor(Executor):
    """Tasks as Dask futures; the cluster is joined or started (and then closed)."""

    name = "dask"
    runs_inline = False
    handle_as_argument = True
    crash_loses_all = False
    slow_start = True

    def __init__(self, workers: int, address: str | None = None) -> None:
        super().__init__(workers)
        self._distributed = _distributed()
        self._cluster: Any = None
        self._client: Any = None
        self._shipped: dict[str, tuple[Any, Any]] = {}  # first key -> (object, future now)
        self._cancelled: set[str] = set()  # keys of the tasks this executor cancelled
        self._send: Pusher | None = None  # pushes bounds and stop flags to the workers
        self.address = None if address is None else check_address(address)
        if self.address is not None:
            # Joining is cheap and tells how many workers there really are.
            self._client = _joined_client(self._distributed, self.address)
            self.workers = self._joined_threads()
            self._check_workers()
        self._counted = time.monotonic()

    def _joined_threads(self) -> int:
        """The worker threads of the joined cluster, waiting up to ``CONNECT_TIMEOUT``
        for a first worker (a cluster may still be starting)."""
        threads = sum(self._client.nthreads().values())
        if threads == 0:
            try:
                self._client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
            except TimeoutError:
                self.close()
                raise ClusterRefusedError(
                    f"the Dask scheduler at {self.address} has no workers (waited "
                    f"{CONNECT_TIMEOUT}); start some with 'dask worker {self.address}'"
                ) from None
            threads = sum(self._client.nthreads().values())
        return max(1, threads)

    def _check_workers(self) -> None:
        """Every worker of the joined cluster loads this package at this command's
        version; otherwise the cluster is left, with a one-line error saying what to
        install where (tasks would fail one by one, or search with other code)."""
        here = package_version()
        try:
            found = self._client.run(package_version, callback_timeout=CHECK_SECONDS)
        except TimeoutError:
            self.close()
            raise ClusterRefusedError(
                f"the workers of the Dask scheduler at {self.address} did not all answer "
                f"within {CHECK_SECONDS:g} s (a worker stopped, hung or cut off?); check its "
                "'dask worker' process") from None
        except Exception as error:  # noqa: BLE001 - whatever the worker's import raised
            self.close()
            # Dask hands a worker's error over as it can: the class, or wrapped in one.
            named = type(error) is not Exception
            reason = _first_line(f"{type(error).__name__}: {error}" if named else str(error))
            raise ClusterRefusedError(
                f"a worker of the Dask scheduler at {self.address} cannot load "
                f"parallel_backtrack ({reason}); install version {here} on every worker "
                "machine") from None
        other = version_mismatch(found, here)
        if other is not None:
            self.close()
            raise ClusterRefusedError(
                f"the Dask workers at {self.address} run {other}, this command "
                f"parallel_backtrack {here}; install the same version on every machine"
            ) from None

    @property
    def client(self) -> Any:
        """The client, starting a private LocalCluster on first use."""
        if self._client is None:
            import logging  # only here: importing this module stays cheap

            self._cluster = self._distributed.LocalCluster(
                n_workers=self.workers, threads_per_worker=1, processes=True,
                host="127.0.0.1", dashboard_address=None, worker_dashboard_address=None,
                silence_logs=logging.ERROR, scheduler_kwargs=QUIET_HTTP)
            self._client = self._distributed.Client(self._cluster)
        return self._client

    @contextlib.contextmanager
    def _talking(self) -> Iterator[None]:
        """A call to the scheduler: losing it (a closed connection, or no answer to the
        client's reconnects, ``CONNECT_TIMEOUT``) ends the run as ``PoolLostError``."""
        try:
            yield
        except TimeoutError:  # a wait's own time-out: the caller's
            raise
        except OSError as error:  # distributed's CommClosedError and connect time-outs
            where = self.address or "the private cluster"
            reason = _first_line(str(error)) or type(error).__name__
            raise PoolLostError(f"lost the Dask scheduler at {where} in the middle of the "
                                f"run ({reason}); the run stopped") from error

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        with self._talking():
            return self.client.submit(fn, *(self._present(arg) for arg in args), pure=False)

    def _present(self, arg: Any) -> Any:
        """A shipped object's future, scattered again if every copy of it was lost."""
        entry = self._shipped.get(getattr(arg, "key", None))  # type: ignore[arg-type]
        if entry is None:
            return arg
        obj, current = entry
        if current.status in ("lost", "cancelled", "error"):
            current = self.client.scatter(obj, broadcast=True, hash=False)
            self._shipped[arg.key] = (obj, current)
        return current

    def _recount(self) -> None:
        """A joined cluster's worker threads now (``RECOUNT_SECONDS`` apart): workers
        that join in the middle of a run (a cluster still starting, or scaled up) are
        fed too, as every search reads ``workers`` when it fills the pool."""
        now = time.monotonic()
        if self.address is None or now - self._counted < RECOUNT_SECONDS:
            return
        self._counted = now
        with self._talking():
            threads = sum(self._client.nthreads().values())
        if threads > 0:
            self.workers = threads

    def wait_any(self, futures: Iterable[Any], timeout: float | None = None) -> set[Any]:
        self._recount()
        futures = list(futures)
        if not futures:
            return set()
        try:
            with self._talking():
                done, _ = self._distributed.wait(futures, timeout=timeout,
                                                 return_when="FIRST_COMPLETED")
        except TimeoutError:
            return set()
        except CancelledError:  # some were cancelled (by us, or lost with a worker):
            # they are done too; the caller's ``result()`` tells which (``is_crash``)
            return {future for future in futures if future.status != "pending"}
        return set(done)

    def result(self, future: Any) -> Any:
        """The result is fetched through the scheduler: losing it then ends the run
        (``PoolLostError``), as in ``wait_any``; a task's own error (an ``OSError``
        too) is raised as the task raised it."""
        if future.status == "error":
            return future.result()
        with self._talking():
            return future.result()

    def ship(self, obj: Any) -> Any:
        with self._talking():
            future = self.client.scatter(obj, broadcast=True, hash=False)
        self._shipped[future.key] = (obj, future)
        return future

    def cancel(self, futures: Iterable[Any]) -> None:
        futures = list(futures)
        if futures and self._client is not None:
            self._cancelled.update(future.key for future in futures)
            self._client.cancel(futures)

    def stop_flag(self) -> StopFlag:
        """A flag that reaches running tasks on every worker (``dask_bounds``)."""
        return new_stop_flag()

    def raise_flag(self, flag: StopFlag) -> None:
        if isinstance(flag, DaskStopFlag) and self._client is not None:
            push_stop(self._sender(), flag)

    def remote_bounds(self, slots: int, initial: int) -> DaskBounds:
        """Window bounds whose raises reach running tasks (``window.shared_bounds``)."""
        return DaskBounds(slots, initial, self._sender())

    def _sender(self) -> Pusher:
        if self._send is None:
            self._send = Pusher(self.client)
        return self._send

    def is_crash(self, error: BaseException) -> bool:
        """A worker died under the task, or Dask cancelled it (lost input), not us."""
        if isinstance(error, self._distributed.KilledWorker):
            return True
        if not isinstance(error, CancelledError):
            return False
        groups = getattr(error, "error_groups", None) or [error]
        keys = [getattr(e, "key", None) for g in groups for e in getattr(g, "errors", [g])]
        return not any(key in self._cancelled for key in keys)

    def close(self, kill: bool = False) -> None:
        """Close the client, and the cluster if this executor started it (never a
        cluster it joined)."""
        super().close(kill)
        self._shipped.clear()
        if self._send is not None:
            self._send.flush()  # the last run's pushes reach the workers first
            self._send = None
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


register_built_in("dask", DaskExecutor, options=("address",))
