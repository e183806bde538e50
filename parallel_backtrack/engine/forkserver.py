"""Start loky's workers from a fork server that has the run's kernels loaded.

loky's own start method gives each worker a fresh interpreter, which then imports
numpy, numba and the package and loads the compiled kernels: 0.5-0.7 s of CPU
per worker, paid while the parent wants those cores for the search.  With the
``forkserver`` start method one server process holds all that, and every worker
is forked from it in milliseconds, warm.

The server itself is forked from this process once its kernels are loaded, when
this process runs on Linux with a single Python thread: it is then a copy that has everything
already, ready in milliseconds, and single-threaded, so forking it again is safe
(forking a parent that runs loky's or tqdm's threads is not).  Otherwise the
stdlib starts it as a fresh interpreter, which imports and loads everything
itself (some 0.7 s) while the parent goes on searching.

The catch: like ``spawn``, a forked-from-server worker imports the main module
again, so a script without the ``if __name__ == "__main__":`` guard would start
itself over.  That is why it is the default only in our command lines, whose
main modules have the guard.  ``PARALLEL_BACKTRACK_FORKSERVER=1`` turns it on
for any program, ``=0`` off everywhere.

Glossary
--------
server
    The one fork server of this process (``multiprocessing.forkserver``): it
    lives until this process ends (at exit it is stopped at once).
forked server
    A server that is a fork of this process (``_fork_server``): the stdlib's
    own server loop, run in the copy instead of in a fresh interpreter.
preload
    What the server imports before it forks anything: ``_preload``, which loads
    the shipped space named in ``SPACE_ENV`` and warms its kernels, then leaves
    the ready file.
ready file
    Appears when the server has finished its preload: until then starting a
    worker would block the parent, so the parent goes on searching.
resource tracker
    The stdlib's process that unlinks the semaphores of processes that died
    without doing it; the server starts it.  Workers are killed when a run ends
    (a Ctrl-C, a timeout), so at exit it may find such semaphores, or ones their
    owner unlinked already, and warn about each after the command's last line:
    it starts with those warnings off (``QUIET_TRACKER``, passed as ``-W``).

Example: ``start(handle)`` in the parent, then ``context()`` as loky's context;
``ready()`` turns true milliseconds later (a forked server) or some 0.7 s later
(a fresh one).
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import json
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
import time
import uuid
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .._lean import started_as_command

ENV = "PARALLEL_BACKTRACK_FORKSERVER"
SPACE_ENV = "PARALLEL_BACKTRACK_FORKSERVER_SPACE"
PRELOAD = "parallel_backtrack.engine._preload"
# A server not ready after this long (it died, or its preload hangs) is used anyway.
BOOT_LIMIT = 10.0
_state: dict[str, Any] = {"ready": None, "pid": None, "started": 0.0}
# The tracker's shutdown warnings all begin "resource_tracker:" (see the glossary).
QUIET_TRACKER = "ignore:resource_tracker:UserWarning"


def wanted() -> bool:
    """Should loky start workers from a fork server in this process?"""
    setting = os.environ.get(ENV)
    if setting == "0" or (setting != "1" and not started_as_command()):
        return False
    return "forkserver" in multiprocessing.get_all_start_methods()


def context() -> Any:
    return multiprocessing.get_context("forkserver")


def _server() -> Any:
    from multiprocessing import forkserver

    return forkserver._forkserver  # the stdlib keeps the one server here


def start(handle: Any) -> None:
    """Boot the server now (it returns at once), preloading the shipped space behind
    ``handle`` (a ``Shipped``; anything else: numba and the package only).  Does
    nothing once a server runs, ours or someone else's."""
    server = _server()
    if server._forkserver_pid is not None or _state["pid"] is not None:
        return
    ready = os.path.join(tempfile.gettempdir(), f"pb-forkserver-{uuid.uuid4().hex}")
    key, path = getattr(handle, "key", None), getattr(handle, "path", None)
    os.environ[SPACE_ENV] = json.dumps([key, path, ready])
    # The server starts with SIGINT blocked (the mask survives exec), so a Ctrl-C to
    # the whole process group while it is still importing cannot print a traceback
    # from it; ``_preload`` ignores it, then unblocks.
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    if QUIET_TRACKER not in sys.warnoptions:  # the stdlib passes these to the tracker
        sys.warnoptions.append(QUIET_TRACKER)
    try:
        context().set_forkserver_preload([PRELOAD])
        with _forking_here():
            server.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        del os.environ[SPACE_ENV]  # only the server needs it
    _state.update(ready=ready, pid=server._forkserver_pid, started=time.monotonic())


def _forks_here() -> bool:
    """Would the server be forked from this process?  On Linux, with one Python
    thread (macOS's system libraries are not safe to use in a forked copy)."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


@contextlib.contextmanager
def _forking_here() -> Iterator[None]:
    """While the stdlib starts its server: fork it from this process instead of
    running a fresh interpreter, when that is safe (``_forks_here``)."""
    from multiprocessing import util

    if not _forks_here():
        yield
        return
    spawn = util.spawnv_passfds

    def spawnv_passfds(path: Any, args: Sequence[Any], passfds: Sequence[int]) -> int:
        return _fork_server(spawn, path, args, passfds)

    util.spawnv_passfds = spawnv_passfds
    try:
        yield
    finally:
        util.spawnv_passfds = spawn


def _fork_server(spawn: Callable[..., int], path: Any, args: Sequence[Any],
                 passfds: Sequence[int]) -> int:
    """``util.spawnv_passfds`` for the server: fork, and in the copy run the command
    the stdlib would give ``python -c`` (its server loop), with only the file
    descriptors a fresh interpreter would get.  Returns the server's pid."""
    if len(args) < 2 or args[-2] != "-c":  # not the stdlib's usual command: spawn it
        return spawn(path, args, passfds)
    for stream in (sys.stdout, sys.stderr):  # or the copies would write it again
        with contextlib.suppress(Exception):
            stream.flush()
    with warnings.catch_warnings():  # 3.12+ warns about native (BLAS) threads
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        gc.freeze()  # objects of this process that hold closed descriptors stay put
        _close_all_but({0, 1, 2, *passfds})
        warnings.filterwarnings("ignore", "resource_tracker", UserWarning)  # QUIET_TRACKER
        exec(args[-1], {"__name__": "__pb_forkserver__"})  # noqa: S102 - the stdlib's command
        code = 0
    except SystemExit as stop:  # the server loop ends so when its clients are gone
        code = stop.code if isinstance(stop.code, int) else 0
    finally:
        os._exit(code)  # never this process's atexit handlers or buffers
    return pid  # not reached


def _close_all_but(keep: set[int]) -> None:
    low = 0
    for fd in sorted(keep) + [os.sysconf("SC_OPEN_MAX")]:
        if fd > low:
            os.closerange(low, fd)
        low = fd + 1


def ready() -> bool:
    """Has the server finished its preload (or is it not ours to wait for)?"""
    path = _state["ready"]
    if path is None:
        return True
    if not os.path.exists(path) and time.monotonic() - _state["started"] < BOOT_LIMIT:
        return False
    _remove(path)
    _state["ready"] = None
    return True


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def _stop() -> None:
    """At exit: the server would only notice this process is gone after its
    preload; stop it now so nothing outlives us."""
    pid = _state["pid"]
    if pid is not None:
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:
            pass
    if _state["ready"] is not None:
        _remove(_state["ready"])


atexit.register(_stop)
