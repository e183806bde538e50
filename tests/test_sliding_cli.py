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
from sliding_check import CACHE, ida_iterations, solves

from parallel_backtrack.sliding.__main__ import PROG, main

assert CACHE
ROOT = Path(__file__).resolve().parents[1]

BINARY = "binary data or not UTF-8 text: "  # every reader's words (`_text.not_text`)


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
    assert [o["status"] for o in outcomes] == ["solved", "unsolvable", "invalid", "solved"]
    assert [o["line"] for o in outcomes] == [1, 2, 3, 4]
    assert all(o["complete"] is True and "stop_reason" not in o for o in outcomes)
    assert outcomes[2] == {"source": str(path), "line": 3, "status": "invalid",
                           "error": "line 3: tile 5 appears twice (tile 6 is missing)",
                           "complete": True, "nodes": 0, "seconds": 0.0}
    assert outcomes[3]["moves"] == outcomes[3]["expected"] == 4
    assert outcomes[1]["nodes"] == 0  # no search on an unsolvable board
    for o in outcomes[::3]:
        assert solves(o["tiles"], o["solution"])
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"python -m parallel_backtrack.sliding: error: {path}: line 3: tile 5 "
                   "appears twice (tile 6 is missing)"]


def test_json_gives_each_ida_iteration(tmp_path: Path) -> None:
    boards = [(8, 6, 7, 2, 5, 4, 3, 0, 1), (8, 1, 3, 4, 0, 2, 7, 6, 5)]
    path = tmp_path / "two.txt"
    path.write_text("".join(" ".join(map(str, b)) + "\n" for b in boards))
    code, text = run(str(path), "--json", "--heuristic", "manhattan",
                     "--complete-last-iteration")
    assert code == 0
    outcomes = [json.loads(line) for line in text.splitlines()]
    for board, outcome in zip(boards, outcomes, strict=True):
        assert [tuple(row) for row in outcome["iterations"]] == ida_iterations(board)
        assert sum(nodes for _, nodes in outcome["iterations"]) + 1 == outcome["nodes"]
    code, text = run(str(path), "--json", "--algorithm", "astar")
    assert code == 0 and all("iterations" not in json.loads(line)
                             for line in text.splitlines())


def test_text_output_has_a_line_for_each_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "batch.txt"
    path.write_text("1 2 3 4 5 6 7 0 8\nx y\n1 2 3 4 5 5 7 8 0\n")
    code, text = run(str(path), "--heuristic", "manhattan")
    assert code == 1
    lines = text.splitlines()
    assert lines[0].startswith(f"{path}:1  1 moves ")
    assert lines[1:] == [f"{path}:2  invalid: expected tile numbers, got 'x'",
                         f"{path}:3  invalid: tile 5 appears twice (tile 6 is missing)"]


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
    (b"", "bad.txt: no puzzles (empty, or only comments)"),
    (b"# a comment\n\n", "bad.txt: no puzzles (empty, or only comments)"),
    (b"\x00\x01binary", f"bad.txt: {BINARY}a NUL byte on line 1, column 1"),
    (b"\xff\xfe bad utf8 line\n", f"bad.txt: {BINARY}byte 0xff (not UTF-8) on line 1, column 1"),
    (b"1 2 3 4 5 6 7 0 8\n\xc3(\n", f"bad.txt: {BINARY}byte 0xc3 (not UTF-8) on line 2, column 1"),
])
def test_bad_files_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes,
                          message: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    code, text = run(str(path))
    err = capsys.readouterr().err.splitlines()
    assert code == 2 and text == ""
    assert err == [f"{PROG}: error: {tmp_path / message}"]


@pytest.mark.parametrize("content, message", [
    (b"4\n1 2 3\n", "line 1: N = 4 needs 16 tiles; the file ends after 3"),
    (b"11\n" + b" ".join(str(i).encode() for i in range(121)),
     "line 1: board size N = 11 is out of range 2..10"),
])
def test_bad_blocks_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes,
                           message: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    code, text = run(str(path), "--json")
    err = capsys.readouterr().err.splitlines()
    assert code == 1 and err == [f"{PROG}: error: {path}: {message}"]
    assert [json.loads(line) for line in text.splitlines()] == [
        {"source": str(path), "line": 1, "status": "invalid", "error": message,
         "complete": True, "nodes": 0, "seconds": 0.0}]


def test_bytes_past_the_first_8_kib_fail_their_line_only(tmp_path: Path) -> None:
    path = tmp_path / "late.txt"
    path.write_bytes(b"# padding\n" * 1000 + b"1 2 3 4 5 6 7 0 8\n1 2 3 4 5 6 7 0 8 \xff\n"
                     b"1 2\x003\n")
    code, text = run(str(path), "--heuristic", "manhattan")
    lines = text.splitlines()
    assert code == 1 and lines[0].startswith(f"{path}:1001  1 moves ")
    assert lines[1:] == [
        f"{path}:1002  invalid: byte 0xff (not UTF-8) at column 19; a puzzle file is UTF-8 "
        "text",
        f"{path}:1003  invalid: a NUL byte at column 4; a puzzle file is UTF-8 text"]


def test_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, text = run("/no/such/file.txt")
    err = capsys.readouterr().err.splitlines()
    assert code == 2 and text == ""
    assert err == [f"{PROG}: error: cannot read /no/such/file.txt: No such file or directory"]


def test_a_heuristic_not_for_a_board_size_fails_those_lines(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mixed.txt"
    path.write_text("1 2 3 4 5 6 7 0 8\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n")
    code, text = run(str(path), "--heuristic", "pdb-exact", "--json")
    outcomes = [json.loads(line) for line in text.splitlines()]
    assert code == 1 and [o["status"] for o in outcomes] == ["solved", "invalid"]
    assert outcomes[1]["error"] == "line 2: pdb-exact is for 2x2 or 3x3 boards, not 4x4"
    assert capsys.readouterr().err.splitlines() == [
        f"{PROG}: error: {path}: line 2: pdb-exact is for 2x2 or 3x3 boards, not 4x4"]


def test_a_heuristic_no_board_can_use_is_one_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sl.txt"  # the QA's file: 3x3 boards, three bad lines, a 2x2 board
    path.write_text("1 2 3 4 5 6 7 0 8\n1 2 3\nx\n1 2 3 4 5 5 7 8 0\n"
                    "1 2 3 0 4 5 6 7 8\n\n1 2 3 0\n")
    code, text = run(str(path), "--heuristic", "pdb-78", "--algorithm", "astar")
    assert code == 2 and text == ""
    assert capsys.readouterr().err.splitlines() == [
        f"{PROG}: error: A* does not read pdb-78 (ranked tables); use pdb-663 or pdb-555"]
    code, text = run(str(path), "--heuristic", "pdb-663")
    assert code == 2 and text == ""
    assert capsys.readouterr().err.splitlines() == [
        f"{PROG}: error: pdb-663 is for 4x4 boards, not 3x3"]


def test_max_nodes_exit_3(data_dir: Path) -> None:
    path = data_dir / "search" / "15puzzle_80moves.txt"
    code, text = run(str(path), "--heuristic", "manhattan", "--max-nodes", "1000",
                     "--algorithm", "astar")
    assert code == 3 and "max-nodes" in text.splitlines()[0]
    code, text = run(str(path), "--heuristic", "manhattan", "--max-nodes", "1000", "--json")
    outcomes = [json.loads(line) for line in text.splitlines()]
    assert code == 3 and len(outcomes) == 17
    for outcome in outcomes:
        assert outcome["status"] == outcome["stop_reason"] == "max-nodes"
        assert outcome["complete"] is False


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
                                     "--workers", "2", "--json"],
                          capture_output=True, text=True, env=env, timeout=60)
    outcomes = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 3 and len(outcomes) == 17
    for outcome in outcomes:
        assert outcome["status"] == outcome["stop_reason"] == "timeout"
        assert outcome["complete"] is False


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
    assert child.stdout.read().decode().splitlines() == [f"{hard}:1  interrupted"]
    assert not [line for line in lines if b"Traceback" in line or b"Warning" in line]
    assert lines[-1].startswith(b"python -m parallel_backtrack.sliding: interrupted")
    deadline = time.monotonic() + 10  # the workers end after the parent: wait for it
    while time.monotonic() < deadline and [
            p for p in family if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]:
        time.sleep(0.1)
    assert not [p for p in family if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


@pytest.mark.timeout(60)
def test_a_pipe_is_read_once_and_every_puzzle_of_it_answered(tmp_path: Path) -> None:
    """A named pipe (as ``<(command)`` gives) cannot be opened twice: the reader that
    checked it goes on reading it, past the bytes judged for binary data."""
    import threading

    puzzles = ["1 2 3 4 5 6 0 7 8", "1 2 3 4 5 6 7 0 8", "0 1 2 3 4 5 6 7 8"] * 400
    fifo = tmp_path / "puzzles"
    os.mkfifo(fifo)
    writer = threading.Thread(target=fifo.write_text, args=("\n".join(puzzles) + "\n",))
    writer.start()
    code, text = run(str(fifo), "--heuristic", "manhattan", "--json", "--no-progress")
    writer.join(10)
    rows = [json.loads(line) for line in text.splitlines()]
    assert code == 0 and [row["line"] for row in rows] == list(range(1, 1201))
    for row, tiles in zip(rows, puzzles):
        assert row["tiles"] == [int(t) for t in tiles.split()]
        assert solves(row["tiles"], row["solution"])
