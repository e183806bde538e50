import json
import subprocess
import sys

import pytest

from parallel_backtrack.nqueens import is_queens_solution
from parallel_backtrack.nqueens.__main__ import main


def run(*argv):
    return subprocess.run([sys.executable, "-m", "parallel_backtrack.nqueens", *argv],
                          capture_output=True, text=True, timeout=120)


def test_human_summary(capsys):
    assert main(["--n", "10", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("10-queens: 724 solutions")
    assert "worker(s) (serial)" in out and "nodes" in out


def test_json_has_the_promised_fields(capsys):
    assert main(["--n", "9", "--workers", "2", "--backend", "threads", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["count"] == 352 and payload["n"] == 9
    assert payload["workers"] == 2 and payload["backend"] == "threads"
    for key in ("seconds", "tasks", "nodes", "complete", "worker_stats"):
        assert key in payload


def test_show_draws_checked_solutions(capsys):
    assert main(["--n", "6", "--workers", "1", "--show", "3", "--json"]) == 0
    boards = json.loads(capsys.readouterr().out)["solutions"]
    assert len(boards) == 3 and all(is_queens_solution(b) for b in boards)
    assert main(["--n", "5", "--workers", "1", "--show", "1"]) == 0
    assert "Q . . . ." in capsys.readouterr().out


def test_stats_table(capsys):
    assert main(["--n", "9", "--workers", "2", "--backend", "threads", "--stats",
                 "--budget", "50"]) == 0
    out = capsys.readouterr().out
    assert "busy s" in out and "nodes %" in out


@pytest.mark.parametrize("argv,message", [
    (["--n", "0"], "n must be at least 1, got 0"),
    (["--n", "x"], "n must be an integer, got 'x'"),
    (["--n", "40"], "n = 40 is too large to count"),
    (["--workers", "0"], "workers must be a positive integer or -1"),
    (["--workers", "-5"], "got -5"),
    (["--workers", "two"], "workers must be an integer, got 'two'"),
    (["--backend", "lokky"], "did you mean 'loky'"),
    (["--kernel", "fsat"], "did you mean 'fast'"),
    (["--order", "firts-available"], "did you mean 'first-available'"),
    (["--budget", "0"], "expected a positive integer"),
])
def test_usage_errors_are_one_line_and_exit_2(capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        code = main(argv)
        raise SystemExit(code)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


@pytest.mark.timeout(120)
def test_whole_process_with_a_pool():
    done = run("--n", "11", "--workers", "2", "--json", "--no-progress")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["count"] == 2680


@pytest.mark.timeout(60)
def test_help_explains():
    done = run("--help")
    assert done.returncode == 0
    assert "--workers" in done.stdout and "examples:" in done.stdout
