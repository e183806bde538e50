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
    (["--n", "8", "--trace-limit", "10"], "--trace-limit applies to --html"),
    (["--n", "8", "--checkpoint-every", "5"], "--checkpoint-every applies to --checkpoint"),
    (["--n", "8", "--workers", "2", "--backend", "serial"],
     "--backend serial runs one worker, in this process; got --workers 2 (leave --workers "
     "out, or use another --backend)"),
    (["--find-one", "--n", "20", "--method", "constructive", "--seed", "3"],
     "--seed does nothing with --method constructive (it places the queens by a formula: "
     "no steps, no random choices)"),
    (["--find-one", "--n", "20", "--method", "constructive", "--max-steps", "3"],
     "--max-steps does nothing with --method constructive (it places the queens by a "
     "formula: no steps, no random choices)"),
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
])
def test_options_the_run_uses_are_accepted(argv):
    done = run(*argv, "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
