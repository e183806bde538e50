import json
import os
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


PROG = "python -m parallel_backtrack.nqueens: error: "


@pytest.mark.timeout(120)
@pytest.mark.parametrize("argv,message", [
    (["--n", "8", "--temperature", "2"],
     "--temperature applies to --find-one with --method annealing"),
    (["--n", "20", "--temperature", "2"],  # a full count, had it been ignored
     "--temperature applies to --find-one with --method annealing"),
    (["--n", "8", "--population", "50"],
     "--population applies to --find-one with --method genetic"),
    (["--n", "8", "--sideways", "3"],
     "--sideways applies to --find-one with --method hill-climbing"),
    (["--n", "8", "--variant", "swaps"],
     "--variant applies to --find-one with --method min-conflicts"),
    (["--n", "8", "--restart-after", "4"],
     "--restart-after applies to --find-one with --method min-conflicts or genetic"),
    (["--n", "8", "--seed", "3"], "--seed applies to --find-one"),
    (["--n", "8", "--max-steps", "5"], "--max-steps applies to --find-one"),
    (["--n", "8", "--method", "annealing"], "--method applies to --find-one"),
    (["--n", "8", "--temp", "2"],  # argparse's abbreviations count as given too
     "--temperature applies to --find-one with --method annealing"),
    (["--find-one", "--n", "8", "--unique"], "--unique applies to counting, not --find-one"),
    (["--find-one", "--n", "8", "--order", "fewest"],
     "--order applies to counting and --metrics, not --find-one"),
    (["--find-one", "--n", "8", "--metrics"],
     "--metrics walks the counting tree; it does not go with --find-one"),
    (["--find-one", "--n", "8", "--timeout", "5"],
     "--timeout applies to counting; --find-one stops at --max-steps (or use Ctrl-C)"),
    (["--n", "6", "--metrics", "--workers", "2"],
     "--workers applies to counting and --find-one, not --metrics"),
    (["--n", "4", "--metrics", "--verify"],
     "--verify applies to counting and --find-one, not --metrics"),
    (["--n", "4", "--metrics", "--progress"], "--progress applies to counting, not --metrics"),
    (["--n", "6", "--find-one", "--progress"], "--progress applies to counting, not --find-one"),
    (["--n", "6", "--find-one", "--no-verify"],
     "--no-verify does not go with --find-one: its answer is always checked "
     "(is_queens_solution)"),
    (["--n", "8", "--trace-limit", "10"], "--trace-limit applies to --html"),
    (["--n", "8", "--checkpoint-every", "5"], "--checkpoint-every applies to --checkpoint"),
    (["--n", "8", "--workers", "2", "--backend", "serial"],
     "--backend serial runs one worker, in this process; got --workers 2 (leave --workers "
     "out, or use another --backend)"),
    (["--find-one", "--n", "20", "--max-steps", "0"],
     "argument --max-steps: expected a positive integer, got 0"),
    (["--n", "8", "--timeout", "inf"],
     "argument --timeout: expected at most 10^15 seconds, got 'inf'"),
    (["--n", "8", "--timeout", "1e16"],
     "argument --timeout: expected at most 10^15 seconds, got '1e16'"),
    (["--n", "8", "--timeout", "1e300"],
     "argument --timeout: expected at most 10^15 seconds, got '1e300'"),
])
def test_an_option_the_run_does_not_use_is_refused(argv, message):
    done = run(*argv)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", PROG + message + "\n")


@pytest.mark.timeout(120)
@pytest.mark.parametrize("argv", [
    ["--n", "8", "--backend", "serial"],  # --workers left at its default
    ["--n", "8", "--workers", "1", "--backend", "serial", "--timeout", "1e15"],
    ["--n", "8", "--find-one", "--seed", "1", "--method", "min-conflicts", "--max-steps", "1000"],
    ["--n", "6", "--metrics", "--order", "fewest"],
    # --find-one checks its answer: --verify is honoured; --no-progress turns off a bar
    # no run but a count draws, and --no-verify a check the metrics walk never makes.
    ["--n", "6", "--find-one", "--seed", "1", "--verify", "--no-progress"],
    ["--n", "4", "--metrics", "--no-verify", "--no-progress"],
    ["--n", "6", "--verify", "--progress"],
])
def test_options_the_run_uses_are_accepted(argv):
    done = run(*argv, "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" or "--progress" in argv


@pytest.mark.timeout(120)
@pytest.mark.parametrize("argv", [["--n", "4", "--metrics"], ["--n", "6", "--find-one"]])
def test_the_environments_verify_default_is_never_refused(argv):
    done = subprocess.run([sys.executable, "-m", "parallel_backtrack.nqueens", *argv, "--json"],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PARALLEL_BACKTRACK_VERIFY": "1"})
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout)["complete"] is True


@pytest.mark.timeout(120)
def test_metrics_json_is_complete():
    done = run("--n", "4", "--metrics", "--json")
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout) == {
        "n": 4, "order": "first-available", "complete": True, "stop_reason": None,
        "metrics": {"tasks": 16, "work": 17, "span": 5, "parallelism": 3.4, "solutions": 2}}


FIND_ONE_KEYS = {"n", "method", "seed", "steps", "restarts", "seconds", "worker", "workers",
                 "solution", "complete", "stop_reason"}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("argv,complete,stop_reason,code", [
    (["--n", "8", "--seed", "1"], True, None, 0),
    (["--n", "3"], True, None, 1),  # searched to the end: there is none
    (["--n", "200", "--seed", "1", "--max-steps", "1"], False, "max-steps", 1),
])
def test_find_one_json_says_whether_the_search_is_complete(argv, complete, stop_reason, code):
    done = run(*argv, "--find-one", "--json")
    payload = json.loads(done.stdout)
    assert done.returncode == code, done.stderr
    assert (payload["complete"], payload["stop_reason"]) == (complete, stop_reason)
    solved = payload["solution"] is not None
    assert set(payload) == FIND_ONE_KEYS | ({"reason"} if not solved else set())
    assert payload["worker"] == (0 if solved else -1)
    if not solved:  # the reason is the line on stderr
        assert done.stderr == f"python -m parallel_backtrack.nqueens: {payload['reason']}\n"


def test_ctrl_c_during_find_one_or_metrics_prints_an_interrupted_json(monkeypatch, capsys):
    from parallel_backtrack import _cli
    from parallel_backtrack.nqueens.local import search

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(search, "find_one", stopped)
    assert main(["--n", "50", "--find-one", "--seed", "7", "--json"]) == 130
    out, err = capsys.readouterr()
    payload = json.loads(out)
    assert set(payload) == FIND_ONE_KEYS
    assert (payload["complete"], payload["stop_reason"]) == (False, "interrupted")
    assert (payload["n"], payload["seed"], payload["solution"]) == (50, 7, None)
    assert err == "python -m parallel_backtrack.nqueens: interrupted\n"
    monkeypatch.setattr(_cli, "metrics_command", stopped)
    assert main(["--n", "6", "--metrics", "--json"]) == 130
    out, err = capsys.readouterr()
    assert json.loads(out) == {"n": 6, "order": "first-available", "metrics": None,
                               "complete": False, "stop_reason": "interrupted"}
    assert err == "python -m parallel_backtrack.nqueens: interrupted\n"
