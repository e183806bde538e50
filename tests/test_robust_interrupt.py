"""Ctrl-C, --timeout and --verify: a stopped run prints its partial result, marked as such,
exits 130 (Ctrl-C) or 3 (--timeout) within moments, and leaves no process behind; a
solution that fails the independent check is an error (exit 4), never printed as an
answer."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sudoku_data import DATA, HARDEST

from parallel_backtrack import _cli
from parallel_backtrack.engine import forkserver, watchdog
from parallel_backtrack.nqueens import __main__ as nqueens_cli
from parallel_backtrack.sudoku import __main__ as sudoku_cli
from parallel_backtrack.sudoku import runner as batch

psutil = pytest.importorskip("psutil")

ROOT = Path(__file__).resolve().parents[1]
# Nearly empty: about 10^21 solutions, a count that never ends.
OPEN = "1" + "." * 80
STOP_WITHIN = 2.0


def write(tmp_path: Path, text: str, name: str = "puzzles.txt") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def busy_workers(process: psutil.Process, seen: set[int], cpu: float) -> bool:
    """Have two pool workers each used ``cpu`` seconds?  Records every descendant.  A
    worker runs loky's entry point, or was forked by the fork server (a grandchild;
    the server's own CPU time, loading the kernels, does not count)."""
    busy = 0
    for child in process.children(recursive=True):
        seen.add(child.pid)
        try:
            worker = "loky" in " ".join(child.cmdline()) or child.ppid() != process.pid
            if worker and sum(child.cpu_times()[:2]) >= cpu:
                busy += 1
        except psutil.Error:
            continue
    return busy >= 2


def start_busy(argv: list[str], group: bool = False, launch: list[str] | None = None,
               **env: str) -> tuple[subprocess.Popen, set[int]]:
    """Start a CLI (``launch``, default ``python -m``, then ``argv``) and wait until its
    pool is busy; returns it and every process it had started by then."""
    launch = [sys.executable, "-m"] if launch is None else launch
    child = subprocess.Popen([*launch, *argv], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT), **env},
                             start_new_session=group)
    process, seen = psutil.Process(child.pid), set()
    deadline = time.monotonic() + 90
    while not busy_workers(process, seen, cpu=1.0):
        assert child.poll() is None and time.monotonic() < deadline, "the pool never got busy"
        time.sleep(0.1)
    return child, seen


def interrupt(argv: list[str], group: bool = False, sig: int = signal.SIGINT,
              launch: list[str] | None = None) -> tuple[int, str, float, set[int]]:
    """Start a CLI (as ``start_busy``), wait until its pool is busy, send ``sig`` (to the
    process, or to its whole process group as a terminal's Ctrl-C does); returns the
    exit status, stdout, the seconds from the signal to exit, and every process it had
    started."""
    child, seen = start_busy(argv, group, launch)
    sent = time.monotonic()
    if group:
        os.killpg(child.pid, sig)
    else:
        child.send_signal(sig)
    out, err = child.communicate(timeout=60)
    stopped = time.monotonic() - sent
    assert "Traceback" not in err and "Exception" not in err, err
    return child.returncode, out, stopped, seen


def assert_all_gone(pids: set[int], within: float = 5.0) -> None:
    deadline = time.monotonic() + within
    alive = pids
    while alive and time.monotonic() < deadline:
        alive = {pid for pid in alive if psutil.pid_exists(pid)
                 and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE}
        time.sleep(0.1)
    assert not alive, f"processes left behind: {alive}"


@pytest.mark.timeout(150)
def test_ctrl_c_stops_an_nqueens_count_with_its_partial_result() -> None:
    code, out, stopped, seen = interrupt(
        ["parallel_backtrack.nqueens", "--n", "18", "--workers", "2", "--json", "--no-progress"])
    assert code == _cli.EXIT_INTERRUPTED == 130
    assert stopped < STOP_WITHIN, stopped
    report = json.loads(out)
    assert report["complete"] is False and report["stop_reason"] == "interrupted"
    assert 0 < report["count"] < 666_090_624 and report["nodes"] > 0
    assert len(seen) >= 2
    assert_all_gone(seen)


@pytest.mark.timeout(150)
def test_sigterm_stops_a_count_as_ctrl_c_does_with_exit_143() -> None:
    """What ``kill`` and batch schedulers send: the partial result, the pool's workers
    gone (the fork server's children keep SIGTERM's default action), exit 128 + 15."""
    code, out, stopped, seen = interrupt(
        ["parallel_backtrack.nqueens", "--n", "18", "--workers", "2", "--json", "--no-progress"],
        sig=signal.SIGTERM)
    assert code == _cli.EXIT_TERMINATED == 143
    assert stopped < STOP_WITHIN, stopped
    report = json.loads(out)
    assert report["complete"] is False and report["stop_reason"] == "interrupted"
    assert 0 < report["count"] < 666_090_624
    assert len(seen) >= 2
    assert_all_gone(seen)


@pytest.mark.timeout(150)
@pytest.mark.parametrize("server", ["1", "0"], ids=["fork-server", "loky-start"])
def test_a_command_killed_outright_leaves_no_workers_behind(server: str) -> None:
    # SIGKILL (or the kernel's out-of-memory killer): no chance to stop the pool, so
    # the workers notice themselves that the process they work for is gone.
    child, seen = start_busy(["parallel_backtrack.nqueens", "--n", "18", "--workers", "2",
                              "--no-progress"], **{forkserver.ENV: server})
    child.kill()
    try:  # its pipes stay open (and it a zombie) until every worker is gone
        child.communicate(timeout=watchdog.WATCH_SECONDS + 10)
    except subprocess.TimeoutExpired:
        for pid in seen:
            with contextlib.suppress(psutil.Error):
                psutil.Process(pid).kill()
        pytest.fail("the workers outlived the killed command")
    assert len(seen) >= 2
    assert_all_gone(seen)


@pytest.mark.timeout(150)
def test_ctrl_c_stops_a_sudoku_count_with_its_partial_result(tmp_path: Path) -> None:
    path = write(tmp_path, OPEN + "\n")
    code, out, stopped, seen = interrupt(
        ["parallel_backtrack.sudoku", path, "--count", "--workers", "2", "--no-progress"])
    assert code == 130 and stopped < STOP_WITHIN, stopped
    lines = out.splitlines()
    assert lines[-2].startswith("stopped (interrupted), partial: count>=")
    assert int(lines[-2].rpartition(">=")[2]) > 0
    assert lines[-1].startswith("solved 0, unsolvable 0, invalid 0, stopped 1 in ")
    assert lines[-1].endswith("; partial (interrupted): 1 stopped, 0 of 1 puzzles not searched")
    assert_all_gone(seen)


@pytest.mark.timeout(150)
def test_ctrl_c_from_a_terminal_stops_a_batch_of_puzzles(tmp_path: Path) -> None:
    path = DATA / "tdoku_puzzles7_serg_benchmark.txt"
    code, out, stopped, seen = interrupt(
        ["parallel_backtrack.sudoku", str(path), "--count", "--workers", "2", "--no-progress",
         "--kernel", "reference"],  # the per-puzzle path on loky workers
        group=True)
    assert code == 130 and stopped < STOP_WITHIN, stopped
    summary = out.splitlines()[-1]
    assert "; partial (interrupted): " in summary and "of 10000 puzzles not searched" in summary
    assert_all_gone(seen)


# Ctrl-C 50 ms into a count whose parent is still in its probe (nothing queued yet).
EARLY = """
import os, signal, threading
from parallel_backtrack.engine import SearchInterrupted, count
from parallel_backtrack.nqueens.board import ImmutableQueenLocations
from parallel_backtrack.nqueens.space import QueensSpace

if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)  # as the command lines do
    # A small count first: the engine's modules load now, not under the interrupt.
    assert count(QueensSpace(ImmutableQueenLocations(6)), workers=2, backend="threads").count == 4
    space = QueensSpace(ImmutableQueenLocations(18))
    threading.Timer(0.05, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    try:
        report = count(space, workers=2, backend="threads")
        print("returned", report.complete)
    except SearchInterrupted as stop:
        print("interrupted", stop.report.complete, stop.report.stop_reason)
"""


@pytest.mark.timeout(120)
def test_ctrl_c_in_the_parents_probe_is_never_a_complete_answer(tmp_path: Path) -> None:
    script = write(tmp_path, EARLY, "early.py")
    done = subprocess.run([sys.executable, script], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=100)
    assert done.stdout.split() == ["interrupted", "False", "interrupted"], done


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs /proc")
@pytest.mark.timeout(60)
def test_ctrl_c_while_a_command_is_still_importing_exits_quietly() -> None:
    child = subprocess.Popen([sys.executable, "-m", "parallel_backtrack.nqueens", "--n", "18"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    maps = Path(f"/proc/{child.pid}/maps")
    deadline = time.monotonic() + 30
    while "numpy" not in maps.read_text() and time.monotonic() < deadline:
        time.sleep(0.002)  # numpy loads after the package's own start-up code ran
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 130 and "Traceback" not in err, err


def test_nqueens_timeout_reports_a_partial_count(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.monotonic()
    code = nqueens_cli.main(["--n", "18", "--workers", "1", "--timeout", "0.5"])
    out = capsys.readouterr().out
    assert code == _cli.EXIT_TIMEOUT == 3 and time.monotonic() - started < 5
    assert out.startswith("18-queens: ") and "(partial: timeout; a lower bound)" in out


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.timeout(120)
def test_sudoku_timeout_reports_what_it_found(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, workers: str
) -> None:
    path = write(tmp_path, OPEN + "\n")
    started = time.monotonic()
    code = sudoku_cli.main([path, "--count", "--timeout", "0.5", "--json", "--workers", workers])
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert code == 3
    assert time.monotonic() - started < (3 if workers == "1" else 30)
    assert result["status"] == "stopped" and result["stop_reason"] == "timeout"
    assert result["complete"] is False and result["count"] >= 1 and result["solution"]
    assert err == ("python -m parallel_backtrack.sudoku: partial (timeout): 1 stopped, 0 of 1"
                   " puzzles not searched\n")


def test_a_timeout_ends_a_batch_at_the_puzzle_in_progress(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, f"{HARDEST}\n{OPEN}\n{HARDEST}\n")
    code = sudoku_cli.main([path, "--count", "--timeout", "0.5"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 3 and len(lines) == 3
    assert lines[0].endswith("\tcount=1")
    assert lines[1].startswith("stopped (timeout): ") and "\tcount>=" in lines[1]
    assert lines[2].endswith("; partial (timeout): 1 stopped, 1 of 3 puzzles not searched")


def test_verify_failure_is_an_error_not_an_answer(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = write(tmp_path, f"{HARDEST}\n{HARDEST}\n")
    assert sudoku_cli.main([path, "--verify"]) == 0
    capsys.readouterr()
    monkeypatch.setattr(batch, "is_valid_solution", lambda givens, cells: False)
    assert sudoku_cli.main([path, "--no-verify"]) == 0  # unchecked, printed as found
    capsys.readouterr()
    code = sudoku_cli.main([path, "--verify", "--json"])
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == _cli.EXIT_ERROR == 4
    assert [(r["status"], r["solution"]) for r in results] == [("failed", None)] * 2
    assert results[0]["error"] == ("line 1: internal error: the solution found is wrong "
                                   "(is_valid_solution disagrees); not printed as solved")


def test_nqueens_verify_checks_counts_against_oeis(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert nqueens_cli.main(["--n", "8", "--workers", "1", "--verify"]) == 0
    capsys.readouterr()
    wrong = list(nqueens_cli.KNOWN_COUNTS)
    wrong[7] = 93
    monkeypatch.setattr(nqueens_cli, "KNOWN_COUNTS", tuple(wrong))
    code = nqueens_cli.main(["--n", "8", "--workers", "1", "--verify"])
    out, err = capsys.readouterr()
    assert code == 4 and out == ""
    assert err == ("python -m parallel_backtrack.nqueens: error: --verify: the count for n = 8 "
                   "is 92, but OEIS A000170 says 93\n")
    monkeypatch.setattr(nqueens_cli, "is_queens_solution", lambda columns: False)
    code = nqueens_cli.main(["--n", "6", "--workers", "1", "--show", "1", "--verify"])
    assert code == 4 and "is not a solution (is_queens_solution)" in capsys.readouterr().err


def test_verify_is_on_in_the_test_suite() -> None:
    assert os.environ.get(_cli.VERIFY_ENV) == "1"
    assert nqueens_cli.build_parser().parse_args([]).verify is True
    assert sudoku_cli.build_parser().parse_args(["-"]).verify is True


def test_ctrl_c_inside_a_compiled_kernel_still_carries_the_partial_report() -> None:
    # Nearly all of a serial 18-queens count runs inside numba, which turns a Ctrl-C into
    # a SystemError; the scheduler must still see an interrupt.
    import threading

    from parallel_backtrack.engine import SearchInterrupted, count
    from parallel_backtrack.nqueens import ImmutableQueenLocations
    from parallel_backtrack.nqueens.space import QueensSpace

    space = QueensSpace(ImmutableQueenLocations(18))
    count(QueensSpace(ImmutableQueenLocations(8)))  # the kernel compiled or loaded
    # Python's own handler, as in the command lines: a test run started in the background
    # by a non-interactive shell inherits SIGINT ignored, and Python keeps it so.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(SearchInterrupted) as stop:
            count(space, workers=1)
    finally:
        timer.join()
        signal.signal(signal.SIGINT, previous)
    report = stop.value.report
    assert not report.complete and report.stop_reason == "interrupted"
    assert report.nodes > 0 and 0 < report.count < 666_090_624


def busy_process(process: psutil.Process, cpu: float) -> bool:
    """Has the process itself (threads included) used ``cpu`` seconds?"""
    return sum(process.cpu_times()[:2]) >= cpu


def interrupt_when_busy(argv: list[str], cpu: float = 3.0) -> tuple[int, str, str]:
    """Start ``python -m ARGV...``, send SIGINT once the process itself (no pool: one
    worker) has used ``cpu`` seconds, and check it exits within ``STOP_WITHIN``;
    returns its exit status, stdout and stderr."""
    child = subprocess.Popen([sys.executable, "-m", *argv], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    process, deadline = psutil.Process(child.pid), time.monotonic() + 90
    while not busy_process(process, cpu=cpu):
        assert child.poll() is None and time.monotonic() < deadline, "it never got busy"
        time.sleep(0.1)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert time.monotonic() - sent < STOP_WITHIN, err
    return child.returncode, out, err


@pytest.mark.timeout(150)
def test_ctrl_c_stops_a_kernel_batch_with_its_partial_result(tmp_path: Path) -> None:
    path = write(tmp_path, "\n".join([HARDEST, OPEN, OPEN]) + "\n")
    warm = write(tmp_path, f"{HARDEST}\n{HARDEST}\n", "warm.txt")
    assert sudoku_cli.main([warm, "--count", "--no-progress"]) == 0  # numba's cache is warm
    code, out, err = interrupt_when_busy(["parallel_backtrack.sudoku", path, "--count",
                                          "--no-progress"])
    assert code == 130, err
    lines = out.splitlines()
    assert lines[0].endswith("\tcount=1") and lines[1].startswith("stopped (interrupted): ")
    assert "partial (interrupted): 1 stopped, 1 of 3 puzzles not searched" in lines[-1]


GAMES = ["parallel_backtrack.games"]
EMPTY_BOARD_SCORE = 1  # Connect-Four's empty board: the first player wins with their last stone


@pytest.mark.timeout(150)
def test_ctrl_c_stops_a_connect4_solve_with_the_range_its_probes_left() -> None:
    code, out, stopped, seen = interrupt(GAMES + ["connect4", "", "--workers", "2", "--json"])
    assert code == 130 and stopped < STOP_WITHIN, stopped
    report = json.loads(out)
    assert report["complete"] is False and report["stop_reason"] == "interrupted"
    assert report["score"] is None and report["workers"] == 2
    assert report["score_low"] <= EMPTY_BOARD_SCORE <= report["score_high"]
    assert len(seen) >= 2
    assert_all_gone(seen)


@pytest.mark.timeout(150)
def test_ctrl_c_stops_a_connect4_solve_on_one_worker_with_its_range() -> None:
    code, out, err = interrupt_when_busy([*GAMES, "connect4", ""])  # the probes running
    assert code == 130, err
    assert "Traceback" not in err
    last = out.splitlines()[-1]
    assert last.startswith("score between -") and " for the player to move (partial: " \
        "interrupted); " in last, last
    low, high = (int(word) for word in last.split()[2:5:2])
    assert low <= EMPTY_BOARD_SCORE <= high


def interrupt_when_said(argv: list[str], said: str) -> tuple[int, str, str]:
    """Start ``python -m ARGV...``, send SIGINT once its stderr holds ``said`` (a
    progress bar's text), and check it exits within ``STOP_WITHIN``; returns its exit
    status, stdout and stderr."""
    child = subprocess.Popen([sys.executable, "-m", *argv], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    err = bytearray()

    def read() -> None:  # the bar never ends a line: read what comes, as it comes
        while chunk := os.read(child.stderr.fileno(), 4096):
            err.extend(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + 90
    while said.encode() not in err:
        assert child.poll() is None and time.monotonic() < deadline, bytes(err[-500:])
        time.sleep(0.05)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out = child.stdout.read()
    child.wait(timeout=60)
    reader.join(timeout=60)
    assert time.monotonic() - sent < STOP_WITHIN, bytes(err[-500:])
    return child.returncode, out.decode(), err.decode(errors="replace")


# Solved in about 0.6 s on one core, then its columns scored: 1 in about 0.9 s, 2 in
# 2.5 s more; every column's score (the position's, +4, is column 3's).
SCORED_LATE = "4453111"
SCORED_LATE_MOVES = {1: 2, 2: -1, 3: 4, 4: 2, 5: 2, 6: 2, 7: 2}


@pytest.mark.timeout(150)
def test_ctrl_c_while_connect4_scores_the_moves_prints_the_columns_scored() -> None:
    code, out, err = interrupt_when_said(
        [*GAMES, "connect4", SCORED_LATE, "--progress"], said="1/7 columns")
    assert code == 130, err[-500:]
    assert "Traceback" not in err
    *_, score, moves = out.splitlines()
    assert score.startswith("score +4 for the player to move (win); ") and " nodes, " in score
    assert re.fullmatch(r"move scores: 1:\+2 2:\? 3:\? 4:\? 5:\? 6:\? 7:\?; scored in "
                        r"\d+\.\d{3} s \(partial: interrupted; \? not scored\)", moves), out


@pytest.mark.timeout(150)
def test_ctrl_c_while_connect4_scores_the_moves_gives_json_with_the_columns_scored() -> None:
    code, out, err = interrupt_when_said(
        [*GAMES, "connect4", SCORED_LATE, "--progress", "--json"], said="1/7 columns")
    assert code == 130, err[-500:]
    report = json.loads(out)
    assert report["complete"] is False and report["stop_reason"] == "interrupted"
    assert report["score"] == report["score_low"] == report["score_high"] == 4
    assert report["move_scores"] == {"1": 2} and report["unscored_moves"] == [2, 3, 4, 5, 6, 7]
    assert report["best_moves"] == [] and report["nodes"] > 0
    assert report["scores_seconds"] > 0  # the columns' own time, apart from the solve's


@pytest.mark.timeout(150)
def test_a_timeout_while_connect4_scores_the_moves_prints_the_columns_scored() -> None:
    # The solve is done well within the 3 s on a loaded machine; the columns take 5 s.
    done = subprocess.run([sys.executable, "-m", *GAMES, "connect4", SCORED_LATE,
                           "--timeout", "3", "--json"], capture_output=True, text=True,
                          cwd=ROOT, timeout=100)
    assert done.returncode == _cli.EXIT_TIMEOUT == 3, done.stderr[-500:]
    report = json.loads(done.stdout)
    assert report["complete"] is False and report["stop_reason"] == "timeout"
    assert report["score"] == 4 and report["unscored_moves"], report
    scored = {int(col): value for col, value in report["move_scores"].items()}
    assert scored == {col: SCORED_LATE_MOVES[col] for col in scored}
    assert sorted([*scored, *report["unscored_moves"]]) == list(range(1, 8))
    # The solve and the scoring, each timed, end near the limit together.
    assert 2.0 < report["seconds"] + report["scores_seconds"] < 10.0, report


@pytest.mark.timeout(150)
@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
def test_ctrl_c_stops_parallel_alpha_beta_saying_so(as_json: bool) -> None:
    code, out, stopped, seen = interrupt(
        GAMES + ["random", "-b", "10", "-d", "12", "--workers", "2"]
        + (["--json"] if as_json else []))
    assert code == 130 and stopped < STOP_WITHIN, stopped
    if as_json:
        report = json.loads(out)
        assert report["complete"] is False and report["stop_reason"] == "interrupted"
        assert "parallel" not in report and report["seconds"] > 0
    else:
        assert out.startswith("random tree b=10 d=12 seed=1: interrupted after ")
        assert out.endswith(" s, during the parallel search (partial: interrupted; no "
                            "value)\n")
    assert_all_gone(seen)
