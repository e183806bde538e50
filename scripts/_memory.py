"""Peak resident memory of a command and of every process it starts (psutil).

Glossary
--------
role
    ``parent`` (the command itself), ``worker`` (a loky or Dask worker process,
    also one forked by the fork server), ``server`` (the fork server loky's
    workers are forked from) or ``helper`` (resource trackers and the like).
peak RSS
    The largest resident set size seen over the samples, in MB (10^6 bytes).
peak USS
    The same for the unique set size: memory no other process shares, what one
    more worker costs.  Forked workers share their parent's loaded pages.

Example: ``measure_memory(["-m", "parallel_backtrack.nqueens", "--n", "18",
"--timeout", "60"], 0.5, 180)`` returns one row per process (and the output).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

import psutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _role(process: psutil.Process, root: psutil.Process) -> str:
    """parent, server (the fork server: started fresh, or forked from the parent, so
    its command line is the parent's), worker (loky's, Dask's, or one the server
    forked: a grandchild) or helper (resource trackers)."""
    if process.pid == root.pid:
        return "parent"
    try:
        line, own = " ".join(process.cmdline()), " ".join(root.cmdline())
        child = process.ppid() == root.pid
    except psutil.Error:
        return "helper"
    if "popen_loky" in line or "distributed" in line and "tracker" not in line:
        return "worker"
    if child and ("forkserver" in line or line == own):
        return "server"
    return "helper" if child else "worker"


def _sample(root: psutil.Process, peaks: dict[int, dict[str, Any]]) -> None:
    for process in [root, *root.children(recursive=True)]:
        try:
            memory = process.memory_full_info()
        except psutil.Error:
            continue
        row = peaks.setdefault(process.pid, {"pid": process.pid,
                                             "role": _role(process, root),
                                             "peak_rss_mb": 0.0, "peak_uss_mb": 0.0,
                                             "samples": 0})
        row["peak_rss_mb"] = max(row["peak_rss_mb"], memory.rss / 1e6)
        row["peak_uss_mb"] = max(row["peak_uss_mb"], memory.uss / 1e6)
        row["samples"] += 1


def _stop(root: psutil.Process) -> None:
    """Ctrl-C first (the CLIs stop cleanly on it), then kill whatever is left; the
    workers too, or they would hold the output pipe open."""
    family = [root, *root.children(recursive=True)]
    root.send_signal(signal.SIGINT)
    _, alive = psutil.wait_procs(family, timeout=10)
    for process in alive:
        try:
            process.kill()
        except psutil.Error:
            pass


def measure_memory(argv: Sequence[str], interval: float,
                   timeout: float) -> tuple[list[dict], str]:
    """Run ``python argv...`` and sample every ``interval`` seconds until it ends (or
    ``timeout`` passes: then it is killed); the rows and what it printed."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = subprocess.Popen([sys.executable, *argv], stdout=subprocess.PIPE, text=True,
                             env=env, cwd=ROOT)
    root = psutil.Process(child.pid)
    peaks: dict[int, dict[str, Any]] = {}
    deadline = time.monotonic() + timeout
    while child.poll() is None and time.monotonic() < deadline:
        try:
            _sample(root, peaks)
        except psutil.NoSuchProcess:
            break
        time.sleep(interval)
    if child.poll() is None:
        _stop(root)
    out, _ = child.communicate()
    return sorted(peaks.values(), key=lambda row: (row["role"], row["pid"])), out
