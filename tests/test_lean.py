"""The lean start-up: only our command lines (and their workers) keep scipy and cffi out."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from parallel_backtrack import _lean


@pytest.mark.parametrize("argv, expected", [
    (["python", "-m", "parallel_backtrack.nqueens", "--n", "8"], True),
    (["python", "-X", "importtime", "-m", "parallel_backtrack.sudoku", "f.txt"], True),
    (["python", "-m", "pytest"], False),
    (["python", "script.py", "-m", "parallel_backtrack.nqueens"], True),
    (["python", "-c", "import parallel_backtrack"], False),
    (["python"], False),
])
def test_started_as_command(argv: list[str], expected: bool) -> None:
    assert _lean.started_as_command(argv) is expected


def test_a_library_import_is_not_touched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(_lean.ENV, raising=False)
    monkeypatch.setattr(sys, "orig_argv", ["python", "-m", "pytest"])
    monkeypatch.delitem(sys.modules, "cffi", raising=False)
    assert _lean.apply() is False
    assert "cffi" not in sys.modules


def test_off_switch_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_lean.ENV, "0")
    monkeypatch.setattr(sys, "orig_argv", ["python", "-m", "parallel_backtrack.nqueens"])
    monkeypatch.delitem(sys.modules, "cffi", raising=False)
    assert _lean.apply() is False
    assert "cffi" not in sys.modules


def test_a_worker_of_ours_keeps_them_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_lean.ENV, "1")
    monkeypatch.delitem(sys.modules, "cffi", raising=False)
    assert _lean.apply() is True
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

