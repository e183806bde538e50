"""The lean start-up: only our command lines (and their workers) keep scipy and cffi out
and OpenBLAS to one thread."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from parallel_backtrack import _lean


@pytest.mark.parametrize("argv, expected", [
    (["python", "-m", "parallel_backtrack.nqueens", "--n", "8"], True),
    (["python", "-X", "importtime", "-m", "parallel_backtrack.sudoku", "f.txt"], True),
    (["python", "-Ximporttime", "-W", "ignore", "-I", "-m", "parallel_backtrack.nqueens"], True),
    (["python", "-Bm", "parallel_backtrack.sudoku"], True),
    (["python", "-mparallel_backtrack.nqueens"], True),
    (["python", "--check-hash-based-pycs", "never", "-m", "parallel_backtrack.nqueens"], True),
    (["python", "-m", "pytest"], False),
    (["python", "-m", "pytest", "-m", "parallel_backtrack.nqueens"], False),
    # A user's program with our command's name among its own arguments is not ours.
    (["python", "script.py", "-m", "parallel_backtrack.nqueens"], False),
    (["python", "-u", "script.py", "-m", "parallel_backtrack.sudoku"], False),
    (["python", "-c", "import x", "-m", "parallel_backtrack.nqueens"], False),
    (["python", "-Sc", "-m", "parallel_backtrack.nqueens"], False),
    (["python", "-", "-m", "parallel_backtrack.nqueens"], False),
    (["python", "--", "script.py", "-m", "parallel_backtrack.nqueens"], False),
    (["python", "-W", "-m", "script.py", "-m", "parallel_backtrack.nqueens"], False),
    (["python", "-c", "import parallel_backtrack"], False),
    (["python", "-m"], False),
    (["python"], False),
])
def test_started_as_command(argv: list[str], expected: bool) -> None:
    assert _lean.started_as_command(argv) is expected


# Prints, as the process ends, whether it took the lean start-up: the setting its
# workers inherit and what ``import cffi`` finds.
SITECUSTOMIZE = """\
import atexit, os, sys
atexit.register(lambda: print("lean:", os.environ.get("PARALLEL_BACKTRACK_LEAN"),
                              sys.modules.get("cffi", "absent"), file=sys.stderr))
"""


@pytest.mark.timeout(120)
@pytest.mark.parametrize("ours", [True, False], ids=["our-command", "a-user-script"])
def test_only_our_real_command_line_takes_the_lean_start(tmp_path, ours: bool) -> None:
    """Real processes with their real ``sys.orig_argv``: ``python -m
    parallel_backtrack.nqueens`` is lean; a user's script that runs the same command
    (and has ``-m parallel_backtrack.nqueens`` among its own arguments) is not."""
    (tmp_path / "sitecustomize.py").write_text(SITECUSTOMIZE)
    script = tmp_path / "script.py"
    script.write_text("import runpy, sys\n"
                      "sys.argv = ['nqueens', '--n', '6', '--workers', '1', '--no-progress']\n"
                      "runpy.run_module('parallel_backtrack.nqueens', run_name='__main__')\n")
    start = ["-m", "parallel_backtrack.nqueens", "--n", "6", "--workers", "1",
             "--no-progress"] if ours else [str(script), "-m", "parallel_backtrack.nqueens"]
    env = {k: v for k, v in os.environ.items() if k != _lean.ENV}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, *start], capture_output=True, text=True,
                          timeout=100, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("6-queens: 4 solutions")
    expected = "lean: 1 None" if ours else "lean: None absent"
    assert done.stderr.splitlines()[-1] == expected, done.stderr


def test_a_library_import_is_not_touched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(_lean.ENV, raising=False)
    monkeypatch.delenv(_lean.BLAS_THREADS, raising=False)
    monkeypatch.setattr(sys, "orig_argv", ["python", "-m", "pytest"])
    monkeypatch.delitem(sys.modules, "cffi", raising=False)
    assert _lean.apply() is False
    assert "cffi" not in sys.modules
    assert _lean.BLAS_THREADS not in os.environ


def test_a_users_blas_setting_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_lean.ENV, "1")
    monkeypatch.setenv(_lean.BLAS_THREADS, "4")
    monkeypatch.delitem(sys.modules, "cffi", raising=False)
    assert _lean.apply() is True
    assert os.environ[_lean.BLAS_THREADS] == "4"
    monkeypatch.delitem(sys.modules, "cffi")


def test_off_switch_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_lean.ENV, "0")
    monkeypatch.setattr(sys, "orig_argv", ["python", "-m", "parallel_backtrack.nqueens"])
    monkeypatch.delitem(sys.modules, "cffi", raising=False)
    assert _lean.apply() is False
    assert "cffi" not in sys.modules


def test_a_worker_of_ours_keeps_them_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_lean.ENV, "1")
    monkeypatch.delenv(_lean.BLAS_THREADS, raising=False)
    monkeypatch.delitem(sys.modules, "cffi", raising=False)
    assert _lean.apply() is True
    assert os.environ[_lean.BLAS_THREADS] == "1"
    assert sys.modules["cffi"] is None
    with pytest.raises(ImportError):
        import cffi  # noqa: F401
    monkeypatch.delitem(sys.modules, "cffi")


def test_the_command_line_runs_its_kernels_without_them() -> None:
    # The command line's kernels load and count correctly with scipy and cffi kept out,
    # and its process really kept them out (the environment tells its workers to).
    code = ("import runpy, sys; sys.argv = ['nqueens', '--n', '9', '--json', '--no-progress'];"
            "sys.orig_argv = ['python', '-m', 'parallel_backtrack.nqueens'];"
            "import parallel_backtrack, os;"
            "print(sys.modules.get('scipy', 'absent'), os.environ.get('PARALLEL_BACKTRACK_LEAN'));"
            "runpy.run_module('parallel_backtrack.nqueens', run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120,
                          env={k: v for k, v in os.environ.items() if k != _lean.ENV})
    assert done.returncode == 0, done.stderr
    first, json_line = done.stdout.splitlines()[0], done.stdout.splitlines()[-1]
    assert first == "None 1"
    assert '"count": 352' in json_line


def test_quiet_start_only_in_a_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import signal

    before = signal.getsignal(signal.SIGINT)
    try:
        monkeypatch.setattr(sys, "orig_argv", ["python", "-m", "pytest"])
        assert _lean.quiet_start() is False
        assert signal.getsignal(signal.SIGINT) is before
        monkeypatch.setattr(sys, "orig_argv", ["python", "-m", "parallel_backtrack.sudoku"])
        assert _lean.quiet_start() is True
        assert signal.getsignal(signal.SIGINT) is _lean._interrupted_while_starting
    finally:
        signal.signal(signal.SIGINT, before)

