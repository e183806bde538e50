"""The package's temporary files carry their maker's process id and scope, and a
process's first file in a folder sweeps the files there whose maker is gone
(``engine.tempfiles``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from parallel_backtrack.engine import tempfiles
from parallel_backtrack.engine.executors import Executor
from parallel_backtrack.engine.window import SharedBounds

ROOT = Path(__file__).resolve().parents[1]


def _gone_pid() -> int:
    """The id of a process that has ended."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    pid = int(done.stdout)
    assert not tempfiles.alive(pid)
    return pid


def test_files_are_named_after_their_kind_and_process(tmp_path: Path) -> None:
    handle, path = tempfiles.make("window", ".bin", str(tmp_path))
    os.close(handle)
    name = os.path.basename(path)
    own = f"{os.getpid()}-{tempfiles.scope()}"
    assert name.startswith(f"pb-window-{own}-") and name.endswith(".bin")
    assert os.path.dirname(path) == str(tmp_path)
    with pytest.raises(ValueError, match="unknown kind"):
        tempfiles.make("other", ".bin", str(tmp_path))
    fixed = tempfiles.named("dask", "k3y", ".bin")  # a name the caller chose
    assert os.path.basename(fixed) == f"pb-dask-{own}-k3y.bin"
    assert not os.path.exists(fixed)  # the caller makes it
    assert tempfiles.alive(os.getpid())


def test_a_sweep_removes_only_the_files_of_processes_gone(tmp_path: Path) -> None:
    gone, scope = _gone_pid(), tempfiles.scope()
    other = f"{int(scope, 16) ^ 1:08x}"  # another machine's or namespace's
    dead = [tmp_path / f"pb-{kind}-{gone}-{scope}-abc.bin" for kind in tempfiles.KINDS]
    kept = [tmp_path / f"pb-space-{os.getpid()}-{scope}-abc.pkl",  # this process's
            tmp_path / f"pb-space-{gone}-{other}-abc.pkl",  # its id means another's
            tmp_path / f"pb-other-{gone}-{scope}-abc.bin",  # not a kind of ours
            tmp_path / f"pb-space-{gone}-abc.pkl",  # no scope
            tmp_path / f"pb-space-{gone}.pkl",  # not our name
            tmp_path / "notes.txt"]
    for path in dead + kept:
        path.write_bytes(b"x")
    assert tempfiles.sweep(str(tmp_path)) == len(dead)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in kept)
    assert tempfiles.sweep(str(tmp_path / "missing")) == 0


KILLED = """
import sys, time
from parallel_backtrack.engine import tempfiles
handle, path = tempfiles.make("c4table", ".bin", sys.argv[1])
print(path, flush=True)
time.sleep(60)
"""


@pytest.mark.timeout(60)
def test_a_process_killed_outright_leaves_files_the_next_one_sweeps(tmp_path: Path) -> None:
    child = subprocess.Popen([sys.executable, "-c", KILLED, str(tmp_path)],
                             stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert child.stdout is not None
    left = Path(child.stdout.readline().strip())
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    assert left.exists()  # nothing could remove it
    handle, path = tempfiles.make("c4table", ".bin", str(tmp_path))  # the next run's
    os.close(handle)
    assert not left.exists() and Path(path).exists()


def test_shipped_problems_bounds_and_stop_flags_use_the_named_files() -> None:
    from parallel_backtrack.engine.executors import ThreadExecutor

    pool = Executor(1)
    bounds = SharedBounds(4, shared=True)
    threads = ThreadExecutor(1)
    paths = [pool.ship_to_file([1, 2, 3]).path, bounds.path, threads.stop_flag().path]
    threads.close()
    assert paths[2] is not None and not os.path.exists(paths[2])  # made when raised
    own = f"{os.getpid()}-{tempfiles.scope()}"
    assert os.path.basename(paths[2]).startswith(f"pb-stop-{own}-")
    paths = paths[:2]
    try:
        for path, kind in zip(paths, ("space", "window")):
            assert path is not None and os.path.exists(path)
            assert os.path.basename(path).startswith(f"pb-{kind}-{own}-")
    finally:
        pool.close()
        bounds.close()
    assert not any(os.path.exists(path) for path in paths if path is not None)


SCOPE = "from parallel_backtrack.engine import tempfiles; print(tempfiles.scope())"


def test_the_scope_is_a_machines_namespace_not_a_process() -> None:
    child = subprocess.run([sys.executable, "-c", SCOPE], capture_output=True, text=True,
                           check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    scope = tempfiles.scope()
    assert child.stdout.strip() == scope and len(scope) == 8
    int(scope, 16)
