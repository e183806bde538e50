"""The command line: output, --show, --json, batches, errors and exit codes."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sliding_check import CACHE, solves

from parallel_backtrack.sliding.__main__ import PROG, main

assert CACHE
ROOT = Path(__file__).resolve().parents[1]


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_cs61b_file_with_moves(data_dir: Path) -> None:
    path = data_dir / "search" / "cs61b_puzzles" / "puzzle3x3-20.txt"
    code, text = run(str(path), "--show", "moves")
    assert code == 0
    head, moves = text.splitlines()
    assert " 20 moves " in head
    tiles = [int(w) for w in path.read_text().split()[1:]]
    assert solves(tiles, moves.replace(" ", ""))


def test_json_batch_and_bad_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "batch.txt"
    path.write_text("1 2 3 4 5 6 7 0 8\n1 2 3 4 5 6 8 7 0\n1 2 3 4 5 5 7 8 0\n"
                    "0 1 3 4 2 5 7 8 6 4\n")
    code, text = run(str(path), "--json", "--heuristic", "manhattan")
    assert code == 1  # one unsolvable, one invalid
    outcomes = [json.loads(line) for line in text.splitlines()]
    assert [o["status"] for o in outcomes] == ["solved", "unsolvable", "solved"]
    assert [o["line"] for o in outcomes] == [1, 2, 4]
    assert outcomes[2]["moves"] == outcomes[2]["expected"] == 4
    assert outcomes[1]["nodes"] == 0  # no search on an unsolvable board
    for o in outcomes[::2]:
        assert solves(o["tiles"], o["solution"])
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"python -m parallel_backtrack.sliding: error: {path}: line 3: tile 5 "
                   "appears twice (tile 6 is missing)"]


@pytest.mark.parametrize("argv, message", [
    (["--algorithm", "bfs"], "unknown algorithm 'bfs'"),
    (["--heuristic", "manhatan"], "did you mean 'manhattan'"),
    (["--goal", "middle"], "unknown goal"),
    (["--workers", "0"], "workers must be a positive integer"),
    (["--timeout", "-1"], "expected a positive number"),
    (["--heuristic", "pdb", "--goal", "blank-first"], "no pattern database for 5x5"),
])
def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                             argv: list[str], message: str) -> None:
    path = tmp_path / "five.txt"
    path.write_text(" ".join(map(str, range(25))) + "\n")
    code, _ = run(str(path), *argv)
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("content, message", [
    (b"", "no puzzles"),
    (b"\x00\x01binary", "binary data"),
    (b"4\n1 2 3\n", "N = 4 needs 16 tiles"),
    (b"11\n" + b" ".join(str(i).encode() for i in range(121)), "N = 11 is out of range"),
])
def test_bad_files_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes,
                          message: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    code, text = run(str(path))
    err = capsys.readouterr().err
    assert code == 1 and text == "" and message in err and len(err.strip().splitlines()) == 1


def test_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("/no/such/file.txt")
    err = capsys.readouterr().err.splitlines()
    assert code == 1
    assert err == [f"{PROG}: error: cannot read /no/such/file.txt: No such file or directory"]


def test_max_nodes_exit_3(data_dir: Path) -> None:
    path = data_dir / "search" / "15puzzle_80moves.txt"
    code, text = run(str(path), "--heuristic", "manhattan", "--max-nodes", "1000",
                     "--algorithm", "astar")
    assert code == 3 and "max-nodes" in text.splitlines()[0]


@pytest.mark.timeout(120)
def test_process_stdin_timeout_and_workers(data_dir: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "parallel_backtrack.sliding"]
    done = subprocess.run(command + ["-", "--show", "boards", "--algorithm", "astar"],
                          input="1 2 3\n4 0 5\n7 8 6\n", capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 1  # rows of 3 numbers: not one-line 3x3 boards
    done = subprocess.run(command + ["-", "--show", "boards", "--algorithm", "astar"],
                          input="1 2 3 4 0 5 7 8 6\n", capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-3:] == ["1 2 3", "4 5 6", "7 8 _"]
    hard = data_dir / "search" / "15puzzle_80moves.txt"
    done = subprocess.run(command + [str(hard), "--heuristic", "manhattan", "--timeout", "1",
                                     "--workers", "2"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 3 and "timeout" in done.stdout


def test_help_does_not_load_numba() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = ("import sys; from parallel_backtrack.sliding.__main__ import main; "
            "main(['--help']); print('numba' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.stdout.strip().endswith("False")
    assert "--complete-last-iteration" in done.stdout


HARD_KORF = ("15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4\n"    # Korf #88, 6.3 billion nodes
             "14 10 2 1 13 9 8 11 7 3 6 12 15 5 4 0\n"   # #82, 5.5 billion
             "11 14 13 1 2 3 12 4 15 7 9 5 10 6 8 0\n")  # #60, 3.3 billion


def _started(child: subprocess.Popen, workers: int, deadline: float,  # type: ignore[type-arg]
             lines: list[bytes]) -> tuple[list, Any]:  # type: ignore[type-arg]
    """Wait until the run is under way: an IDA* iteration line on stderr and, with
    workers, that many worker processes alive; returns the child's process family and
    the thread that collects its stderr into ``lines``, on to the end."""
    import threading
    import time

    import psutil

    reader = threading.Thread(target=lambda: lines.extend(iter(child.stderr.readline, b"")),
                              daemon=True)
    reader.start()
    while time.monotonic() < deadline:
        family = psutil.Process(child.pid).children(recursive=True)
        alive = [p for p in family if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        if any(b"bound " in line for line in lines) and len(alive) >= workers:
            return family, reader
        time.sleep(0.05)
    raise AssertionError(f"the run did not start: {lines}")


@pytest.mark.timeout(120)
@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_exits_130_without_strays(tmp_path: Path, workers: str) -> None:
    import signal
    import time

    import psutil

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    hard = tmp_path / "hard.txt"
    hard.write_text(HARD_KORF)
    child = subprocess.Popen([sys.executable, "-m", "parallel_backtrack.sliding", str(hard),
                              "--heuristic", "manhattan", "--goal", "blank-first", "--workers",
                              workers, "--progress"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    lines: list[bytes] = []
    family, reader = _started(child, 0 if workers == "1" else 2, time.monotonic() + 90,
                              lines)
    child.send_signal(signal.SIGINT)
    child.wait(timeout=30)
    reader.join(timeout=10)  # stderr's last lines (it ends once the workers' copies close)
    assert child.returncode == 130
    assert not [line for line in lines if b"Traceback" in line or b"Warning" in line]
    assert lines[-1].startswith(b"python -m parallel_backtrack.sliding: interrupted")
    deadline = time.monotonic() + 10  # the workers end after the parent: wait for it
    while time.monotonic() < deadline and [
            p for p in family if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]:
        time.sleep(0.1)
    assert not [p for p in family if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
