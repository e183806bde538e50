"""The watchdog that ends a worker with the process it works for: who counts as alive."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from parallel_backtrack.engine import watchdog

ROOT = Path(__file__).resolve().parents[1]


def test_a_running_process_is_alive():
    assert watchdog.alive(os.getpid())
    assert watchdog.alive(1)  # not ours to signal, but there


def test_a_reaped_process_is_gone():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert not watchdog.alive(child.pid)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="zombies are told apart via /proc")
def test_a_zombie_is_gone():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 30
    while watchdog.alive(child.pid):  # ended, not reaped yet: a zombie
        assert time.monotonic() < deadline, "the child never ended"
        time.sleep(0.02)
    assert child.poll() == 0  # now reaped; it was there all along as a zombie


def test_a_worker_ends_soon_after_its_owner(tmp_path):
    # A grandchild watches its parent; the parent exits at once; the grandchild,
    # left to sleep for a minute, must be gone within the watch interval.
    marker = tmp_path / "pid"
    program = (
        "import os, sys, time\n"
        "from parallel_backtrack.engine import watchdog\n"
        "owner = os.getpid()\n"
        "if os.fork() == 0:\n"
        "    watchdog.end_with(owner)\n"
        f"    open({str(marker)!r}, 'w').write(str(os.getpid()))\n"
        "    time.sleep(60)\n"
        "    os._exit(0)\n"
        "time.sleep(0.5)\n"
    )
    subprocess.run([sys.executable, "-c", program], check=True, timeout=60,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})
    pid = int(marker.read_text())
    deadline = time.monotonic() + watchdog.WATCH_SECONDS + 5
    while watchdog.alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not watchdog.alive(pid)
