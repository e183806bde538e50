"""Both command lines as users run them: ``--verify`` off (its default), every answer
checked here by the test's own plain checkers.

The rest of the suite sets ``PARALLEL_BACKTRACK_VERIFY=1`` (see conftest), so the CLIs
it starts re-check what they print; these tests take that away again.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sudoku_data import HARDEST

from parallel_backtrack import _cli
from parallel_backtrack.nqueens.__main__ import main as nqueens_main
from parallel_backtrack.sudoku.__main__ import main as sudoku_main

ROOT = Path(__file__).resolve().parents[1]
A000170 = {1: 1, 6: 4, 8: 92, 9: 352, 10: 724}  # all solutions (OEIS)
A002562 = {8: 12, 9: 46}  # up to rotation and reflection (OEIS)
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
OPEN = "." * 75 + "1" + "." * 5  # thousands of solutions
FOUR = "1...\n..3.\n.4..\n...2"  # a 4x4 grid


def queens_ok(columns: list[int]) -> bool:
    """One queen per row and column, no two on a diagonal."""
    n = len(columns)
    return (sorted(columns) == list(range(n))
            and len({r + c for r, c in enumerate(columns)}) == n
            and len({r - c for r, c in enumerate(columns)}) == n)


def sudoku_ok(givens: str, solution: str) -> bool:
    """Every row, column and box holds 1..side once, and the givens are kept."""
    cells = [int(ch, 36) for ch in solution]
    side = int(len(cells) ** 0.5)
    box = int(side ** 0.5)
    if side * side != len(cells) or box * box != side:
        return False
    units = [[r * side + c for c in range(side)] for r in range(side)]
    units += [[r * side + c for r in range(side)] for c in range(side)]
    units += [[(br + r) * side + bc + c for r in range(box) for c in range(box)]
              for br in range(0, side, box) for bc in range(0, side, box)]
    given = [ch for ch in givens if not ch.isspace()]
    return (all(sorted(cells[i] for i in unit) == list(range(1, side + 1)) for unit in units)
            and all(g in "._0" or g == s for g, s in zip(given, solution)))


@pytest.fixture(autouse=True)
def users_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(_cli.VERIFY_ENV, raising=False)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("argv", [
    ["--n", "8", "--show", "3", "--workers", "1"],
    ["--n", "10", "--show", "2", "--workers", "2"],  # the default loky pool
    ["--n", "9", "--show", "1", "--workers", "2", "--backend", "threads", "--order", "fewest"],
    ["--n", "6", "--show", "4", "--kernel", "reference", "--workers", "1"],
    ["--n", "9", "--unique", "--workers", "1"],
    ["--n", "1", "--show", "1"],
])
def test_nqueens_counts(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert nqueens_main([*argv, "--json", "--no-progress"]) == _cli.EXIT_OK
    result = json.loads(capsys.readouterr().out)
    n = result["n"]
    assert result["count"] == A000170[n] and result["complete"]
    if "--unique" in argv:
        assert result["unique"] == A002562[n]
    shown = result.get("solutions", [])
    wanted = int(argv[argv.index("--show") + 1]) if "--show" in argv else 0
    assert len(shown) == min(wanted, A000170[n])
    assert len({tuple(s) for s in shown}) == len(shown)
    assert all(len(s) == n and queens_ok(s) for s in shown)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("argv", [
    ["--n", "2000", "--workers", "1", "--seed", "1"],
    ["--n", "5000", "--workers", "1", "--seed", "2"],  # past the greedy start: swaps
    ["--n", "60", "--method", "annealing", "--seed", "3", "--workers", "2"],
    ["--n", "40", "--method", "hill-climbing", "--seed", "4", "--workers", "1"],
    ["--n", "30", "--method", "genetic", "--seed", "5", "--workers", "1"],
    ["--n", "100000", "--method", "constructive"],
])
def test_nqueens_find_one(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert nqueens_main([*argv, "--find-one", "--json", "--no-progress"]) == _cli.EXIT_OK
    result = json.loads(capsys.readouterr().out)
    assert len(result["solution"]) == result["n"] == int(argv[1])
    assert queens_ok(result["solution"])


@pytest.mark.timeout(120)
@pytest.mark.parametrize("options", [
    [],
    ["--workers", "2"],
    ["--kernel", "reference", "--order", "row-major", "--propagation", "peers"],
    ["--solver", "cdcl"],
    ["--propagation", "matching"],
])
def test_sudoku_solves(options: list[str], tmp_path: Path,
                       capsys: pytest.CaptureFixture[str]) -> None:
    puzzles = [HARDEST, EASY, OPEN]
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join([*puzzles, "12" * 40]) + "\n")  # the last line is no puzzle
    code = sudoku_main([str(path), *options, "--json", "--no-progress"])
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == _cli.EXIT_NO  # the bad line
    assert [r["status"] for r in results] == ["solved"] * 3 + ["invalid"]
    assert results[3]["error"].startswith("line 4: ")
    for givens, result in zip(puzzles, results):
        assert sudoku_ok(givens, result["solution"]), result


@pytest.mark.timeout(120)
@pytest.mark.parametrize("options", [
    ["--limit", "3"],
    ["--limit", "3", "--workers", "2"],
    ["--kernel", "reference"],
])
def test_sudoku_counts(options: list[str], tmp_path: Path,
                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "puzzles.txt"
    path.write_text(f"{HARDEST}\n{OPEN}\n" if "--limit" in options else f"{HARDEST}\n{FOUR}\n")
    code = sudoku_main([str(path), "--count", *options, "--json", "--no-progress"])
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    if "--limit" in options:  # HARDEST has one solution, OPEN more than three
        assert code == _cli.EXIT_OK and [r["count"] for r in results] == [1, 3]
        assert sudoku_ok(HARDEST, results[0]["solution"])
        assert sudoku_ok(OPEN, results[1]["solution"])
    else:  # a 4x4 grid in a 9x9 file: one size per file
        assert code == _cli.EXIT_NO and results[0]["count"] == 1
        assert sudoku_ok(HARDEST, results[0]["solution"])
        assert results[1]["status"] == "invalid"


@pytest.mark.timeout(120)
@pytest.mark.parametrize("command, argv", [
    ("parallel_backtrack.nqueens", ["--n", "8", "--show", "2", "--json"]),
    ("parallel_backtrack.sudoku", ["-", "--json"]),
])
def test_the_real_command_lines(command: str, argv: list[str]) -> None:
    """As a user's shell starts them: a fresh process, nothing in the environment."""
    env = {k: v for k, v in os.environ.items() if k != _cli.VERIFY_ENV}
    done = subprocess.run([sys.executable, "-m", command, *argv], capture_output=True,
                          text=True, timeout=100, env=env, input=f"{HARDEST}\n{EASY}\n")
    assert done.returncode == _cli.EXIT_OK and done.stderr == "", done.stderr
    if command.endswith("nqueens"):
        result = json.loads(done.stdout)
        assert result["count"] == 92 and all(queens_ok(s) for s in result["solutions"])
        assert len(result["solutions"]) == 2
    else:
        results = [json.loads(line) for line in done.stdout.splitlines()]
        assert [r["status"] for r in results] == ["solved", "solved"]
        assert all(sudoku_ok(g, r["solution"]) for g, r in zip([HARDEST, EASY], results))
