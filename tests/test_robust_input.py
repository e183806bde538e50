"""Hostile input: every bad file, line, puzzle or argument gets one clear line, never a
traceback; usage errors exit 2, a file with some bad puzzles still solves the good ones
(exit 1), a closed stdout exits 141 quietly."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sudoku_data import HARDEST

from parallel_backtrack import _cli
from parallel_backtrack.nqueens.__main__ import main as nqueens_main
from parallel_backtrack.sudoku.__main__ import main as sudoku_main
from parallel_backtrack.sudoku.files import PuzzleFileError, read_puzzles
from parallel_backtrack.sudoku.formats import MAX_LINE_LENGTH, parse_puzzles
from parallel_backtrack.sudoku.space import is_valid_solution

ROOT = Path(__file__).resolve().parents[1]
SUDOKU = "python -m parallel_backtrack.sudoku: error: "
NQUEENS = "python -m parallel_backtrack.nqueens: error: "


def sudoku(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = sudoku_main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def nqueens(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = nqueens_main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, data: bytes, name: str = "puzzles.txt") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "byte 0x89 (not UTF-8) on line 1, column 1"),
        (b"1234\n\x00\x00\x00\rIHDR", "a NUL byte on line 2, column 1"),
        (HARDEST.encode("utf-16"), "byte 0xff (not UTF-8) on line 1, column 1"),
        ("85...24..é".encode("latin-1"), "byte 0xe9 (not UTF-8) on line 1, column 10"),
    ],
)
def test_binary_and_non_utf8_files_are_usage_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: bytes, reason: str
) -> None:
    path = write(tmp_path, data)
    code, out, err = sudoku(capsys, path)
    assert code == 2 and out == ""
    assert err == (f"{SUDOKU}cannot read {path!r}: binary data or not UTF-8 text: {reason};"
                   " a puzzle file is UTF-8 text\n")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda tmp: str(tmp / "missing.txt"), "cannot read {!r}: No such file or directory"),
        (lambda tmp: str(tmp), "cannot read {!r}: Is a directory"),
        (lambda tmp: write(tmp, b""), "no puzzle in {!r}"),
        (lambda tmp: write(tmp, b"# only comments\n\n  \n"), "no puzzle in {!r}"),
    ],
)
def test_missing_empty_and_directory(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, make, message: str
) -> None:
    path = make(tmp_path)
    code, out, err = sudoku(capsys, path)
    assert (code, out) == (2, "") and err == SUDOKU + message.format(path) + "\n"


def test_garbage_on_stdin_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(b"\xff\xfe\x00garbage"), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", stdin)
    code, out, err = sudoku(capsys, "-")
    assert (code, out) == (2, "")
    assert err.startswith(SUDOKU + "cannot read stdin: binary data or not UTF-8 text: byte 0xff")


def test_a_file_with_some_bad_puzzles_solves_the_good_ones(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = [
        HARDEST,                                    # 1 good
        HARDEST[:40] + "*" + HARDEST[41:],          # 2 a character that is no cell
        HARDEST[:-1],                               # 3 80 cells
        "88" + HARDEST[2:],                         # 4 givens that contradict each other
        "1...............",                         # 5 another size
        "x" * (MAX_LINE_LENGTH + 1),                # 6 a line too long
        HARDEST.replace("8", "Z", 1),               # 7 a value too large for 9x9
        "." * 2401,                                 # 8 a 49x49 puzzle
        HARDEST,                                    # 9 good
    ]
    data = "\n".join(["# nine puzzles, seven of them bad", *lines]).encode() + b"\n"
    code, out, err = sudoku(capsys, write(tmp_path, data))
    rows = out.splitlines()
    assert code == 1 and err == ""
    assert rows[0] == rows[8] and is_valid_solution(HARDEST, rows[0])
    assert rows[1].startswith("invalid: line 3: cannot read '*' (cell 41) as a cell")
    assert rows[2].startswith("invalid: line 4: 80 cells; a puzzle line has 16, 81, 256")
    assert rows[3] == ("invalid: line 5: givens contradict each other: A1 and A2 both hold 8"
                       " (same row, box)")
    assert rows[4] == ("invalid: line 6: a 4x4 puzzle, but this file's first puzzle (line 2)"
                       " is 9x9; one size per file")
    assert rows[5].startswith(f"invalid: line 7: line of {MAX_LINE_LENGTH + 1:,} characters;"
                              f" lines stop at {MAX_LINE_LENGTH:,}")
    assert rows[6] == "invalid: line 8: values must be 1..9: A1 holds 'Z'"
    assert rows[7].startswith("invalid: line 9: 2401 cells;")
    assert rows[7].endswith("(a 49x49 grid is too large: boxes of 2..6, up to 36x36)")
    assert rows[9].startswith("solved 2, unsolvable 0, invalid 7 in ")


def test_a_bad_byte_after_the_start_spoils_only_its_line(tmp_path: Path) -> None:
    data = (HARDEST + "\n") * 200 + "85\udcff..\n" + HARDEST + "\n"
    path = write(tmp_path, data.encode("utf-8", "surrogateescape"))
    entries = read_puzzles(path)
    assert len(entries) == 202 and entries[-1].cells is not None
    assert entries[200].error == "byte 0xff (not UTF-8) at column 3; a puzzle file is UTF-8 text"


def test_binary_data_from_an_open_stream() -> None:
    with pytest.raises(PuzzleFileError, match="a NUL byte on line 1, column 1"):
        read_puzzles(io.BytesIO(b"\x00" * 100_000))
    assert isinstance(PuzzleFileError("x"), ValueError)
    too_long = read_puzzles(io.StringIO("1" * 50_000))
    assert too_long[0].error is not None and "50,000 characters" in too_long[0].error


def test_long_numbers_are_not_cells() -> None:
    # int() refuses strings of more than 4,300 digits; the reader must not ask it.
    [entry] = parse_puzzles("9" * 5000 + " 1 2 3")
    assert entry.error is not None
    assert entry.error.startswith("cannot read '999999999999'.. (5000 long) (cell 1)")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--n", "٣"], "argument --n: n must be an integer, got '٣'"),
        (["--n", "1_000"], "argument --n: n must be an integer, got '1_000'"),
        (["--n", "1e3"], "argument --n: n must be an integer, got '1e3'"),
        (["--n", "-4"], "argument --n: n must be at least 1, got -4"),
        (["--n", "33"], "n = 33 is too large to count: the kernel's diagonal masks hold n <= 32"),
        (["--budget", str(10**16)],
         "argument --budget: 10000000000000000 is too large: at most 10^15 (the compiled "
         "kernels count nodes in 64-bit integers)"),
        (["--workers", "100000", "--backend", "threads"],
         "--workers 100000 is more than this machine can run: at most"),
        (["--wokers", "2"], "unrecognized arguments: --wokers 2 (did you mean --workers?)"),
        (["--backend", "lokky"],
         "argument --backend: unknown backend 'lokky'; expected one of ['dask', 'fork', "
         "'loky', 'serial', 'threads'] (did you mean 'loky'?)"),
        (["--timeout", "nan"], "argument --timeout: expected a positive number, got 'nan'"),
        (["--timeout", "-1"], "argument --timeout: expected a positive number, got '-1'"),
        (["--n", "8", "--find-one", "--timeout", "3"], "--timeout applies to counting"),
        (["--n", str(10**12), "--find-one", "--workers", "1"],
         "n = 1,000,000,000,000 is too large for --find-one here"),
        (["--n", "14", "--metrics"], "--metrics walks every node in Python: n <= 13"),
    ],
)
def test_nqueens_usage_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = nqueens(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.startswith(NQUEENS + message) and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--workers", "99999"], "--workers 99999 is more than this machine can run: at most"),
        (["--workers", "٢"], "argument --workers: workers must be an integer, got '٢'"),
        (["--count", "--limit", str(10**16)], "argument --limit: 10000000000000000 is too large"),
        (["--timeout", "0"], "argument --timeout: expected a positive number, got '0'"),
        (["--timeout", "inf"], "argument --timeout: expected at most 10^15 seconds, got 'inf'"),
        (["--timeout", "1e16"],
         "argument --timeout: expected at most 10^15 seconds, got '1e16'"),
        (["--cuont"], "unrecognized arguments: --cuont (did you mean --count?)"),
        (["--order", "fewset"], "argument --order: unknown order 'fewset'; expected one of"),
    ],
)
def test_sudoku_usage_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    code, out, err = sudoku(capsys, write(tmp_path, HARDEST.encode()), *argv)
    assert (code, out) == (2, "")
    assert err.startswith(SUDOKU + message) and len(err.splitlines()) == 1


def test_the_public_api_names_what_arrived() -> None:
    from parallel_backtrack.nqueens import ImmutableQueenLocations
    from parallel_backtrack.sudoku import ImmutableSudokuPuzzle, InvalidPuzzleError

    with pytest.raises(InvalidPuzzleError, match="line 1: line of 20,000 characters"):
        ImmutableSudokuPuzzle("1" * 20_000)
    with pytest.raises(InvalidPuzzleError, match="values must be 1..9: A1 holds 10"):
        ImmutableSudokuPuzzle([10] + [0] * 80)
    with pytest.raises(ValueError, match="board size must be between 1 and 64, got 65"):
        ImmutableQueenLocations(65)


def test_an_internal_error_is_one_line_with_status_4(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.delenv(_cli.TRACEBACK_ENV, raising=False)
    monkeypatch.setattr("parallel_backtrack.sudoku.__main__.solve_entry", broken)
    code, out, err = sudoku(capsys, write(tmp_path, HARDEST.encode()))
    assert code == _cli.EXIT_ERROR == 4
    assert err == (f"{SUDOKU}internal error: ZeroDivisionError: division by zero (a bug; "
                   "PARALLEL_BACKTRACK_TRACEBACK=1 shows where)\n")
    monkeypatch.setattr("parallel_backtrack.nqueens.__main__.count_command", broken)
    code, _, err = nqueens(capsys, "--n", "6")
    assert code == 4 and err.startswith(NQUEENS + "internal error: ZeroDivisionError")


@pytest.mark.timeout(120)
@pytest.mark.parametrize("cli", ["sudoku", "nqueens"])
def test_a_closed_stdout_exits_141_quietly(tmp_path: Path, cli: str) -> None:
    if cli == "sudoku":
        argv = [write(tmp_path, (HARDEST + "\n").encode() * 20_000), "--workers", "1"]
    else:
        argv = ["--n", "12", "--workers", "1", "--show", "2000"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", f"parallel_backtrack.{cli}", *argv],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()  # what `| head -1` does
    assert process.wait(timeout=100) == _cli.EXIT_BROKEN_PIPE == 141
    assert first and process.stderr.read() == b""
