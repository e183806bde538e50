"""loky workers forked from a warm fork server: when it is used, that its workers start
with the run's space and kernels already loaded, exact answers, and that nothing
outlives the program."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from parallel_backtrack.engine import forkserver

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif("forkserver" not in __import__("multiprocessing")
                                .get_all_start_methods(), reason="no forkserver here")

# Run as a program (a fork server's workers import the main module again, so it has
# the guard): start a pool from a server preloaded with an 11-queens space, ask a
# worker whether the space was there before its first task, count through it.
PROGRAM = """
import json, os, sys, time
from parallel_backtrack.engine import count, forkserver, make_executor, worker
from parallel_backtrack.engine.worker import warm_task
from parallel_backtrack.nqueens.board import ImmutableQueenLocations
from parallel_backtrack.nqueens.space import QueensSpace


def preloaded(key):
    return key in worker._SHIPPED, os.getpid()


def cmdline(pid):
    with open(f"/proc/{pid}/cmdline", "rb") as stream:
        return stream.read()


if __name__ == "__main__":
    print("said once")  # a pipe: still in the buffer when the server is forked
    if os.environ.get("THREAD") == "1":  # a second thread: forking here is unsafe
        import threading
        threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
    space = QueensSpace(ImmutableQueenLocations(11))
    executor = make_executor(2)
    handle = executor.ship(space)
    executor.boot(handle)
    server = forkserver._state["pid"]
    forked = server is not None and cmdline(server) == cmdline(os.getpid())
    deadline = time.monotonic() + 60
    while not executor.booted() and time.monotonic() < deadline:
        time.sleep(0.01)
    there, pid = executor.submit(preloaded, handle.key).result()  # before any task
    setup = [executor.submit(warm_task, handle).result() for _ in range(2)]
    report = count(space, executor=executor)
    print(json.dumps({"method": executor.start_method, "server": server, "forked": forked,
                      "there": there, "worker": pid, "setup": setup,
                      "count": report.count, "backend": report.backend}))
"""


def run_program(tmp_path: Path, setting: str, thread: bool = False) -> dict:
    script = tmp_path / "program.py"
    script.write_text(PROGRAM)
    env = {**os.environ, "PYTHONPATH": str(ROOT), forkserver.ENV: setting,
           "THREAD": "1" if thread else "0", "PYTHONUNBUFFERED": ""}  # buffered stdout
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=env, timeout=180)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.count("said once") == 1  # no copy flushed it again
    return json.loads(done.stdout.splitlines()[-1])


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True


@pytest.fixture(scope="module")
def own_start(tmp_path_factory) -> dict:
    """The program on loky's own start: its workers load the space and its kernels."""
    return run_program(tmp_path_factory.mktemp("own_start"), "0")


@pytest.mark.parametrize("thread", [False, True], ids=["forked", "fresh"])
def test_workers_start_with_the_space_loaded_and_count_exactly(tmp_path, thread, own_start):
    seen = run_program(tmp_path, "1", thread)
    assert seen["method"] == "forkserver" and seen["backend"] == "loky"
    # One thread: the server is a copy of this process; two: a fresh interpreter.
    assert seen["forked"] is not thread
    assert seen["there"], "the worker had to load the space itself"
    # No kernel to load, a dictionary look-up: a small part of what a worker of loky's
    # own start spends loading them (measured: under 1 ms against 0.1-0.3 s).
    assert max(seen["setup"]) < max(own_start["setup"]) / 5, (seen["setup"], own_start)
    assert seen["count"] == 2680  # A000170(11)
    deadline = time.monotonic() + 10
    while (alive(seen["server"]) or alive(seen["worker"])) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(seen["server"]) and not alive(seen["worker"])


def test_turned_off_it_is_loky_s_own_start(own_start):
    seen = own_start
    assert seen["method"] == "loky" and seen["server"] is None
    assert not seen["there"]
    assert seen["count"] == 2680


def test_wanted_follows_the_setting_and_the_command(monkeypatch):
    monkeypatch.setenv(forkserver.ENV, "0")
    assert not forkserver.wanted()
    monkeypatch.setenv(forkserver.ENV, "1")
    assert forkserver.wanted()
    monkeypatch.delenv(forkserver.ENV)
    monkeypatch.setattr(forkserver, "started_as_command", lambda: False)
    assert not forkserver.wanted()  # a library import keeps loky's own start
    monkeypatch.setattr(forkserver, "started_as_command", lambda: True)
    assert forkserver.wanted()


def test_a_server_that_never_says_ready_is_used_after_the_limit(monkeypatch, tmp_path):
    monkeypatch.setitem(forkserver._state, "ready", str(tmp_path / "never"))
    monkeypatch.setitem(forkserver._state, "started", time.monotonic())
    assert not forkserver.ready()
    monkeypatch.setitem(forkserver._state, "started", time.monotonic() - forkserver.BOOT_LIMIT)
    assert forkserver.ready()
    assert forkserver._state["ready"] is None


def test_the_parent_searches_until_the_workers_can_start_without_waiting():
    from parallel_backtrack.engine import count
    from parallel_backtrack.engine.executors import ThreadExecutor
    from parallel_backtrack.engine.worker import warm_task
    from parallel_backtrack.nqueens.board import ImmutableQueenLocations
    from parallel_backtrack.nqueens.space import QueensSpace

    events = []

    class SlowBoot(ThreadExecutor):
        slow_start = True

        def boot(self, handle):
            events.append(("boot", handle))

        def booted(self):
            events.append(("asked",))
            return sum(e == ("asked",) for e in events) > 3

        def submit(self, fn, *args):
            events.append(("submit", fn))
            return super().submit(fn, *args)

    space = QueensSpace(ImmutableQueenLocations(9), kernel="reference")
    report = count(space, executor=SlowBoot(2), budget=20)
    assert report.count == 352  # A000170(9)
    assert events[0][0] == "boot" and events[0][1] is not None
    first_submit = next(i for i, e in enumerate(events) if e[0] == "submit")
    assert events[first_submit] == ("submit", warm_task)
    assert sum(e == ("asked",) for e in events[:first_submit]) == 4  # three "not yet"
    parent = next(w for w in report.worker_stats() if w.worker == "parent")
    assert parent.tasks >= 4  # a first round, then one per "not yet"


LEAK = """
import sys
from multiprocessing import resource_tracker
from parallel_backtrack.engine import forkserver
forkserver.start(None)
# A semaphore this process "dies" holding, unlinked already: what a worker killed at
# the end of a run leaves the tracker, which at exit warned after the command's last line.
resource_tracker.register("/pb-test-gone-%d" % id(sys), "semaphore")
print("last line", file=sys.stderr, flush=True)
"""


@pytest.mark.timeout(120)
@pytest.mark.skipif(sys.platform != "linux", reason="the server is forked only on Linux")
@pytest.mark.parametrize("forked", [True, False])
def test_the_resource_tracker_says_nothing_after_the_last_line(forked):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    busy = ("import threading, time\n"  # a second thread: the server starts fresh
            "threading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n")
    code = LEAK if forked else busy + LEAK
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env, timeout=100)
    assert done.returncode == 0, done.stderr
    assert done.stderr.decode().strip().splitlines()[-1] == "last line"
