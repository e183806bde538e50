"""The one command, ``parallel-backtrack FAMILY ...`` (and ``python -m parallel_backtrack
FAMILY ...``): installed with the package, each family's answers as its own ``python -m``
gives them, under its own name in messages; usage errors are one line and exit 2; Ctrl-C
stops it as it stops the family's command; it takes the lean start-up."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sliding_check import solves
from test_robust_interrupt import assert_all_gone, interrupt

from parallel_backtrack import __version__, _cli, _lean
from parallel_backtrack.__main__ import FAMILIES

# pip writes the console script beside the interpreter of the environment it installs into.
SCRIPT = Path(sys.executable).with_name(_lean.SCRIPT)
ROOT = Path(__file__).resolve().parents[1]
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EIGHT = "8 1 3 4 0 2 7 6 5"


def run(argv: list[str], stdin: str = "", module: bool = False) -> subprocess.CompletedProcess:
    launch = [sys.executable, "-m", "parallel_backtrack"] if module else [str(SCRIPT)]
    return subprocess.run([*launch, *argv], input=stdin, capture_output=True, text=True,
                          timeout=120)


def run_family(family: str, argv: list[str], stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", f"parallel_backtrack.{family}", *argv],
                          input=stdin, capture_output=True, text=True, timeout=120)


def sudoku_ok(puzzle: str, grid: str) -> bool:
    """Every row, column and box holds 1-9 once, and the givens are kept."""
    cells = [int(c) for c in grid]
    units = [[r * 9 + c for c in range(9)] for r in range(9)]
    units += [[r * 9 + c for r in range(9)] for c in range(9)]
    units += [[(br + r) * 9 + bc + c for r in range(3) for c in range(3)]
              for br in (0, 3, 6) for bc in (0, 3, 6)]
    return (len(cells) == 81 and all(sorted(cells[i] for i in unit) == list(range(1, 10))
                                     for unit in units)
            and all(g in ".0" or int(g) == v for g, v in zip(puzzle, cells)))


def test_the_package_installs_the_script() -> None:
    assert SCRIPT.is_file() and os.access(SCRIPT, os.X_OK), \
        f"{SCRIPT} missing: reinstall the package (pip install -e .)"


@pytest.mark.parametrize("module", [False, True], ids=["script", "python-m"])
def test_help_lists_every_family_under_the_commands_own_name(module: bool) -> None:
    done = run(["--help"], module=module)
    name = "python -m parallel_backtrack" if module else "parallel-backtrack"
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith(f"usage: {name} FAMILY")
    for family in ("nqueens", "sudoku", "sliding", "games"):
        assert f"\n  {family} " in done.stdout
    assert set(FAMILIES) == {"nqueens", "sudoku", "sliding", "games"}
    version = run(["--version"], module=module)
    assert version.returncode == 0 and version.stdout == f"{name} {__version__}\n"


@pytest.mark.parametrize("argv, message", [
    ([], "parallel-backtrack: error: a family is required: nqueens, sudoku, sliding, games"),
    (["nqeens"], "parallel-backtrack: error: unknown family 'nqeens'"),
    (["--n", "8"], "parallel-backtrack: error: unknown option '--n': a family comes first"),
    (["nqueens", "--n", "0"], "parallel-backtrack nqueens: error: argument --n:"),
    (["sudoku", "/no/such/file"], "parallel-backtrack sudoku: error: cannot read"),
    (["games", "chess"], "parallel-backtrack games: error: argument COMMAND: invalid choice"),
    (["sliding", "pdb", "bogus"], "parallel-backtrack sliding pdb: error:"),
])
def test_usage_errors_are_one_line_with_exit_2(argv: list[str], message: str) -> None:
    done = run(argv)
    assert done.returncode == _cli.EXIT_USAGE, done.stderr
    assert done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(message), done.stderr
    if argv == ["nqeens"]:
        assert "(did you mean 'nqueens'?)" in done.stderr


def test_a_family_gets_its_own_options_help() -> None:
    done = run(["sliding", "--help"])
    assert done.returncode == 0
    assert done.stdout.startswith("usage: parallel-backtrack sliding ")
    assert "--heuristic" in done.stdout


def test_nqueens_counts_as_its_own_command() -> None:
    argv = ["--n", "9", "--workers", "2", "--json", "--no-progress"]
    done, own = run(["nqueens", *argv]), run_family("nqueens", argv)
    assert done.returncode == own.returncode == 0, done.stderr
    mine, theirs = json.loads(done.stdout), json.loads(own.stdout)
    assert mine["count"] == theirs["count"] and mine["nodes"] == theirs["nodes"]
    assert mine["complete"] is True


def test_sudoku_solves_as_its_own_command() -> None:
    done = run(["sudoku", "-", "--json"], stdin=EASY + "\n")
    own = run_family("sudoku", ["-", "--json"], stdin=EASY + "\n")
    assert done.returncode == own.returncode == 0, done.stderr
    mine, theirs = json.loads(done.stdout), json.loads(own.stdout)
    assert mine["solution"] == theirs["solution"]
    assert sudoku_ok(EASY, mine["solution"])


def test_sliding_solves_as_its_own_command() -> None:
    done = run(["sliding", "-", "--json"], stdin=EIGHT + "\n")
    own = run_family("sliding", ["-", "--json"], stdin=EIGHT + "\n")
    assert done.returncode == own.returncode == 0, done.stderr
    mine, theirs = json.loads(done.stdout), json.loads(own.stdout)
    assert mine["solution"] == theirs["solution"] and mine["moves"] == theirs["moves"]
    assert len(mine["solution"]) == mine["moves"]
    assert solves([int(t) for t in EIGHT.split()], mine["solution"])


def test_games_answer_as_their_own_command() -> None:
    argv = ["nim", "--sticks", "22", "--json"]
    done, own = run(["games", *argv], module=True), run_family("games", argv)
    assert done.returncode == own.returncode == 0, done.stderr
    mine, theirs = json.loads(done.stdout), json.loads(own.stdout)
    assert mine["value"] == theirs["value"] and mine["best_move"] == theirs["best_move"]


def examples(help_text: str) -> list[str]:
    """The command lines under a help's "examples" heading, a trailing "(also: ...)"
    note dropped."""
    lines = help_text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("examples"))
    found = []
    for line in lines[start + 1:]:
        if not line.startswith("  "):
            break
        found.append(re.sub(r"\s{2,}\(also: .*\)$", "", line.strip()))
    return found


@pytest.mark.timeout(400)
@pytest.mark.parametrize("help_argv", [
    [str(SCRIPT), "--help"],
    *([sys.executable, "-m", f"parallel_backtrack.{family}", "--help"]
      for family in ("nqueens", "sudoku", "sliding", "games")),
], ids=["parallel-backtrack", "nqueens", "sudoku", "sliding", "games"])
def test_every_help_example_runs_as_pasted_in_seconds(help_argv: list[str]) -> None:
    """Each example a --help gives runs as pasted in the repository's root (its files are
    in tests/data) and exits 0 well within a first minute (each kernel it needs is
    compiled already: conftest's warm-up)."""
    shown = subprocess.run(help_argv, capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    pasted = examples(shown.stdout)
    assert len(pasted) >= 3, shown.stdout
    env = {**os.environ, "PATH": os.pathsep.join([str(SCRIPT.parent), os.environ["PATH"]])}
    for line in pasted:
        started = time.monotonic()
        done = subprocess.run(["bash", "-c", line], capture_output=True, text=True,
                              timeout=60, cwd=ROOT, env=env)
        assert done.returncode == 0, (line, done.stderr[-500:])
        assert done.stdout.strip() and "Traceback" not in done.stderr, (line, done.stderr)
        assert time.monotonic() - started < 30, line


@pytest.mark.parametrize("argv", [
    ["python", "/venv/bin/parallel-backtrack", "nqueens"],
    ["python", "-m", "parallel_backtrack", "nqueens"],
    ["python", "-I", "-m", "parallel_backtrack"],
])
def test_the_one_command_is_one_of_ours(argv: list[str]) -> None:
    assert _lean.started_as_command(argv)


@pytest.mark.parametrize("argv", [
    ["python", "/home/u/parallel-backtrack.py", "nqueens"],
    ["python", "-m", "parallel_backtrack_extra"],
    ["python", "-c", "x", "parallel-backtrack"],
])
def test_other_programs_are_not_ours(argv: list[str]) -> None:
    assert not _lean.started_as_command(argv)


@pytest.mark.timeout(120)
def test_the_script_takes_the_lean_start_up(tmp_path: Path) -> None:
    """A real script process keeps cffi out and passes the setting to its workers."""
    (tmp_path / "sitecustomize.py").write_text(
        "import atexit, os, sys\n"
        "atexit.register(lambda: print('lean:', os.environ.get('PARALLEL_BACKTRACK_LEAN'),"
        " sys.modules.get('cffi', 'absent'), file=sys.stderr))\n")
    env = {k: v for k, v in os.environ.items() if k != _lean.ENV}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    done = subprocess.run([str(SCRIPT), "nqueens", "--n", "6", "--workers", "1",
                           "--no-progress"], capture_output=True, text=True, timeout=100,
                          env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("6-queens: 4 solutions")
    assert done.stderr.splitlines()[-1] == "lean: 1 None", done.stderr


@pytest.mark.timeout(150)
def test_ctrl_c_stops_the_script_with_the_partial_count() -> None:
    code, out, stopped, seen = interrupt(
        ["nqueens", "--n", "18", "--workers", "2", "--json", "--no-progress"],
        launch=[str(SCRIPT)])
    assert code == _cli.EXIT_INTERRUPTED
    report = json.loads(out)
    assert report["complete"] is False and report["stop_reason"] == "interrupted"
    assert 0 < report["count"] < 666_090_624
    assert len(seen) >= 2
    assert_all_gone(seen)
