"""The games command line: nim, tictactoe, exit codes, Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from parallel_backtrack.games import Nim, minimax, nim_theory
from parallel_backtrack.games.__main__ import main
from parallel_backtrack.games.tictactoe import GameHistories

ROOT = Path(__file__).resolve().parents[1]
COMMAND = [sys.executable, "-m", "parallel_backtrack.games"]


@pytest.mark.parametrize("sticks", [1, 2, 5, 9, 14])
def test_nim_cli_value_move_and_counts(sticks, capsys):
    assert main(["nim", "--sticks", str(sticks), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    game = Nim(sticks)
    assert payload["value"] == minimax(game, game.initial).value == nim_theory(sticks)
    assert payload["nodes_tt"] <= payload["nodes_no_tt"]
    if sticks > 1:  # the best move keeps the value: the opponent is left losing or winning
        after = game.result(game.initial, payload["best_move"])
        assert -minimax(game, after).value == payload["value"]


def test_nim_cli_large_and_text(capsys):
    assert main(["nim", "--sticks", "100000"]) == 0
    out = capsys.readouterr().out
    assert "value +1 (win)" in out and "take 3" in out and "not searched" in out


@pytest.mark.parametrize("argv", [["nim"], ["nim", "--sticks", "0"], ["nim", "--sticks", "x"],
                                  ["nim", "--sticks", "50", "--no-tt"], ["nmi"],
                                  ["random", "--depth", "0"]])
def test_usage_errors_are_one_line(argv, capsys):
    assert main(argv) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


PROG = "python -m parallel_backtrack.games"


@pytest.mark.parametrize("argv,line", [
    (["--bogus"], f"{PROG}: error: unrecognized arguments: --bogus (expected a COMMAND "
     "first: alphabeta, nim, tictactoe, random, connect4)"),
    ([], f"{PROG}: error: the following arguments are required: COMMAND (one of alphabeta, "
     "nim, tictactoe, random, connect4)"),
    (["--bogus", "nim", "-n", "3"], f"{PROG}: error: unrecognized arguments: --bogus"),
    (["alphabeta", "t.txt", "--bogus"],
     f"{PROG} alphabeta: error: unrecognized arguments: --bogus"),
    (["alphabeta", "t.txt", "--minimx"],
     f"{PROG} alphabeta: error: unrecognized arguments: --minimx (did you mean --minimax?)"),
    (["nim", "--bogus", "-n", "3"], f"{PROG} nim: error: unrecognized arguments: --bogus"),
])
def test_an_unknown_option_is_named_by_the_command_it_follows(argv, line, capsys):
    assert main(argv) == 2
    assert capsys.readouterr().err == line + "\n"


@pytest.mark.timeout(120)
def test_tictactoe_counts_every_game_in_parallel(capsys):
    from parallel_backtrack.engine import sequential_count

    assert main(["tictactoe", "--workers", "2", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["value"] == 0
    assert payload["games"] == sequential_count(GameHistories()).count == 255_168
    assert payload["complete"] is True and "stop_reason" not in payload
    assert payload["seconds"] == payload["count_seconds"] > 0


@pytest.mark.timeout(120)
def test_a_tictactoe_count_stopped_by_its_timeout_is_marked_partial(capsys):
    assert main(["tictactoe", "--timeout", "0.05", "--no-progress"]) == 3
    lines = capsys.readouterr().out.splitlines()
    games = int(lines[1].split()[0].replace(",", ""))
    assert 0 < games < 255_168
    assert lines[1].startswith(f"  {games:,} possible games (partial: timeout; a lower "
                               "bound), counted in ")
    assert main(["tictactoe", "--timeout", "0.05", "--no-progress", "--json"]) == 3
    payload = json.loads(capsys.readouterr().out)
    assert payload["complete"] is False and payload["stop_reason"] == "timeout"
    assert 0 < payload["games"] < 255_168 and payload["seconds"] == payload["count_seconds"]


def test_every_games_json_result_says_whether_it_is_complete(tmp_path, capsys):
    assert main(["nim", "--sticks", "9", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["complete"] is True
    trees = tmp_path / "t.txt"
    trees.write_text("{(A,MAX)} {(A,1)}\n")
    assert main(["alphabeta", str(trees), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["complete"] is True
    assert main(["connect4", "1122", "--width", "4", "--height", "4", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["complete"] is True and "stop_reason" not in payload
    assert payload["seconds"] > 0 and payload["scores_seconds"] > 0  # each timed apart
    positions = tmp_path / "p.txt"
    positions.write_text("1122\n5\n")
    assert main(["connect4", "--file", str(positions), "--width", "4", "--height", "4",
                 "--json"]) == 1
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(row["status"], row["complete"]) for row in rows] == [("solved", True),
                                                                   ("invalid", True)]
    assert main(["random", "-b", "3", "-d", "4", "--workers", "1", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["complete"] is True and "stop_reason" not in payload


@pytest.mark.timeout(120)
def test_random_reports_the_value_its_tasks_and_what_each_cost_the_parent(capsys):
    from parallel_backtrack.games.randomtree import RandomTree

    assert main(["random", "-b", "5", "-d", "6", "--seed", "3", "--workers", "2",
                 "--backend", "threads", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    tree = RandomTree(5, 6, seed=3)
    assert payload["parallel"]["value"] == minimax(tree, tree.initial).value
    assert payload["parallel"]["tasks"] > 0
    assert 0 < payload["parallel"]["task_cost"] < payload["parallel"]["seconds"]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("branching,depth", [(8, 4), (4, 5), (3, 6)])
def test_random_with_a_split_depth_that_reaches_the_leaves(branching, depth):
    """Every split node's children leaves, evaluated in the parent: it recursed once a
    brother and died of a RecursionError (exit 4)."""
    from parallel_backtrack.games.randomtree import RandomTree

    done = subprocess.run([*COMMAND, "random", "-b", str(branching), "-d", str(depth),
                           "--split-depth", str(depth), "--workers", "1", "--json"],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (done.returncode, done.stderr) == (0, "")
    payload = json.loads(done.stdout)
    tree = RandomTree(branching, depth, seed=1)
    assert payload["parallel"]["value"] == payload["sequential"]["value"] == minimax(
        tree, tree.initial).value
    assert payload["complete"] is True and payload["parallel"]["tasks"] == 0


@pytest.mark.timeout(120)
def test_random_refuses_more_split_nodes_than_the_parent_holds():
    done = subprocess.run([*COMMAND, "random", "-b", "6", "-d", "6", "--split-depth", "5"],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("python -m parallel_backtrack.games random: error: --split-depth "
                           "too deep: 6^5 = 7,776 nodes at the split depth, at most 4,096 "
                           "split nodes (lower --split-depth)\n")


def _session(pid: int) -> list[tuple[int, int, int]]:
    """(pid, parent pid, CPU ticks) of the processes of the session ``pid`` leads."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if entry.name.isdigit() and int(fields[3]) == pid:  # fields[3]: the session id
            found.append((int(entry.name), int(fields[1]), int(fields[11]) + int(fields[12])))
    return found


def _workers_up(pid: int) -> bool:
    """Two workers (forked by the fork server, not by the command) are searching:
    each has used 0.3 s of CPU (a forked worker starts in milliseconds)."""
    ticks = 0.3 * os.sysconf("SC_CLK_TCK")
    return sum(parent != pid and own != pid and cpu >= ticks
               for own, parent, cpu in _session(pid)) >= 2


def _kernel_thread_up(pid: int) -> bool:
    """The solve's kernel thread has run for a while (the warm-up's lasts milliseconds)."""
    for _ in range(10):
        if len(os.listdir(f"/proc/{pid}/task")) < 2:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.timeout(120)
@pytest.mark.parametrize("argv", [["random", "-b", "10", "-d", "12", "--workers", "2"],
                                  ["connect4", ""],
                                  # the probes from Python, the bar's thread beside them
                                  ["connect4", "", "--progress", "--timeout", "60"]])
def test_ctrl_c_stops_with_130(argv):
    # one thread until the kernel's (no BLAS threads): see _kernel_thread_up
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1",
           "OMP_NUM_THREADS": "1"}
    process = subprocess.Popen(COMMAND + argv,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                               start_new_session=True)
    searching = _workers_up if "--workers" in argv else _kernel_thread_up
    deadline = time.monotonic() + 50
    while not searching(process.pid):  # interrupt the search itself, not the start-up
        assert process.poll() is None and time.monotonic() < deadline, "never searched"
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=10)  # promptly, even inside a compiled kernel
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130
    assert b"Traceback" not in err
    deadline = time.monotonic() + 10  # no worker outlives the run
    while time.monotonic() < deadline:
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)
    else:
        pytest.fail("worker processes outlived the interrupted run")


def test_a_ctrl_c_in_the_sequential_check_keeps_the_parallel_result(monkeypatch, capsys):
    from parallel_backtrack.games import search

    plain = search.alphabeta

    def interrupted(game, state, *args, **kwargs):  # the check searches from the root
        if state == game.initial:
            raise KeyboardInterrupt
        return plain(game, state, *args, **kwargs)

    monkeypatch.setattr(search, "alphabeta", interrupted)
    argv = ["random", "-b", "3", "-d", "4", "--workers", "1"]
    assert main(argv) == 130
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("random tree b=3 d=4 seed=1: value ")
    assert lines[2] == "  sequential: interrupted (partial: interrupted; no check, no speedup)"
    assert main(argv + ["--json"]) == 130
    payload = json.loads(capsys.readouterr().out)
    assert payload["complete"] is False and payload["stop_reason"] == "interrupted"
    assert "value" in payload["parallel"] and "sequential" not in payload


@pytest.mark.timeout(120)
def test_alphabeta_keeps_no_printed_answer_memory_follows_a_tree_not_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Answers printed as they come are not held: ten times the trees take about the
    same peak memory (Python's own allocations, ``tracemalloc``; the file read in
    small chunks, so that a chunk's lines weigh little)."""
    import tracemalloc

    from parallel_backtrack.games import cli_alphabeta

    monkeypatch.setattr(cli_alphabeta, "CHUNK", 4096)
    tree = "{(A,MAX),(B,MIN),(C,MIN)} {(A,B),(A,C),(B,3),(B,5),(C,2),(C,9)}\n"
    peaks = []
    for count in (100, 1_000, 10_000):  # the first one loads the modules
        path = tmp_path / f"trees{count}.txt"
        path.write_text(tree * count)
        with open(tmp_path / "out.txt", "w") as out:
            tracemalloc.start()
            code = main(["alphabeta", str(path)], out=out)
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        lines = (tmp_path / "out.txt").read_text().splitlines()
        assert code == 0 and lines == [f"Graph {k}: Score: 3; Leaf Nodes Examined: 3"
                                       for k in range(1, count + 1)]  # C cut after its 2
    assert peaks[2] < peaks[1] + 500_000, peaks  # 9,000 answers more: under 0.5 MB
