"""--find-one on a minimal parser of our own, then once through the real CLI."""

from __future__ import annotations

import argparse
import json

import pytest

from parallel_backtrack import _cli
from parallel_backtrack.nqueens.local.cli import (
    METHOD_OPTIONS,
    add_local_arguments,
    run_find_one,
)
from parallel_backtrack.nqueens.local.search import is_queens_solution


def parser() -> argparse.ArgumentParser:
    """What the lead's CLI provides around ours: --n, --workers, --backend, --json, --show."""
    p = _cli.Parser(prog="test")
    p.add_argument("--n", type=int, default=8)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--backend", default=None)
    p.add_argument("--json", action="store_true")
    p.add_argument("--show", type=int, default=None)
    add_local_arguments(p)
    return p


def run(argv, capsys):
    code = run_find_one(parser().parse_args(["--find-one", *argv]))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_human_output_has_a_summary_and_the_columns(capsys):
    code, out, err = run(["--n", "8", "--seed", "1"], capsys)
    summary, columns = out.splitlines()
    assert code == 0 and err == ""
    assert summary.startswith("8-queens: solved by min-conflicts (repair) in ")
    assert "seed 1, worker 0 of 1" in summary
    cols = json.loads(columns.removeprefix("columns: "))
    assert is_queens_solution(cols)


def test_show_draws_the_board(capsys):
    code, out, _ = run(["--n", "6", "--method", "constructive", "--show", "1"], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[1] == "columns: [1, 3, 5, 0, 2, 4]"
    assert lines[2:] == [". Q . . . .", ". . . Q . .", ". . . . . Q",
                         "Q . . . . .", ". . Q . . .", ". . . . Q ."]


def test_big_boards_print_a_note_instead_of_columns(capsys):
    code, out, _ = run(["--n", "5000", "--seed", "2", "--show", "1"], capsys)
    summary, note = out.splitlines()
    assert code == 0 and "5,000-queens: solved by min-conflicts (swaps)" in summary
    assert note == "(columns not printed for n > 64; --json has them)"


def test_json(capsys):
    code, out, _ = run(["--n", "20", "--method", "annealing", "--seed", "4", "--json",
                        "--temperature", "2"], capsys)
    payload = json.loads(out)
    assert code == 0
    assert {"n", "method", "solution", "steps", "restarts", "seconds", "seed",
            "workers"} <= set(payload)
    assert payload["n"] == 20 and payload["method"] == "annealing" and payload["seed"] == 4
    assert payload["workers"] == 1 and is_queens_solution(payload["solution"])


@pytest.mark.parametrize("n", [2, 3])
def test_no_solution_for_2_and_3(n, capsys):
    code, out, err = run(["--n", str(n)], capsys)
    assert code == 1 and out.startswith(f"{n}-queens: no solution")
    assert f"no solution: {n} queens cannot be placed" in err
    code, out, err = run(["--n", str(n), "--json"], capsys)
    payload = json.loads(out)
    assert code == 1 and payload["solution"] is None and "cannot be placed" in payload["reason"]


def test_hitting_the_cap_says_how_to_go_on(capsys):
    code, out, err = run(["--n", "50", "--method", "genetic", "--max-steps", "2"], capsys)
    assert code == 1 and "no solution" in out
    assert "reached 2 steps in every search" in err and "raise --max-steps" in err


def test_an_option_for_another_method_is_a_usage_error(capsys):
    code, out, err = run(["--n", "8", "--temperature", "2"], capsys)
    assert code == 2 and out == ""
    assert "--temperature applies to --method annealing, not min-conflicts" in err
    code, _, err = run(["--n", "8", "--method", "hill-climbing", "--restart-after", "5"],
                       capsys)
    assert "--restart-after applies to --method min-conflicts or genetic" in err


def test_bad_values_are_usage_errors(capsys):
    code, _, err = run(["--n", "8", "--method", "annealing", "--cooling", "1.5"], capsys)
    assert code == 2 and "cooling must be a number in (0.0, 1.0), got 1.5" in err
    code, _, err = run(["--n", "8", "--workers", "0"], capsys)
    assert code == 2 and "got 0" in err


def test_a_misspelt_method_is_refused_by_the_parser(capsys):
    with pytest.raises(SystemExit) as stop:
        parser().parse_args(["--find-one", "--method", "anealing"])
    assert stop.value.code == 2
    assert "did you mean 'annealing'" in capsys.readouterr().err


def test_every_method_option_belongs_to_some_method():
    assert METHOD_OPTIONS["restart_after"] == ("min-conflicts", "genetic")
    assert all(METHOD_OPTIONS.values())
    options = {a.dest for a in parser()._actions}
    assert set(METHOD_OPTIONS) <= options


@pytest.mark.timeout(120)
def test_portfolio_from_the_command_line(capsys):
    code, out, _ = run(["--n", "100", "--workers", "2", "--seed", "3", "--json"], capsys)
    payload = json.loads(out)
    assert code == 0 and payload["workers"] == 2 and payload["worker"] in (0, 1)
    assert is_queens_solution(payload["solution"])


def test_through_the_real_cli(capsys):
    from parallel_backtrack.nqueens.__main__ import main

    code = main(["--n", "10", "--find-one", "--method", "hill-climbing", "--workers", "1",
                 "--seed", "5", "--json"])
    payload = json.loads(capsys.readouterr().out)
    assert code == 0 and payload["method"] == "hill-climbing"
    assert is_queens_solution(payload["solution"])
