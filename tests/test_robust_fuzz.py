"""Property-based fuzzing of the puzzle reader and both CLIs' argument handling: every
outcome is an answer or one of the documented errors, never an unexpected exception."""

from __future__ import annotations

import io
import os
import tempfile
import time

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from sudoku_data import HARDEST

from parallel_backtrack import _cli
from parallel_backtrack.nqueens.__main__ import main as nqueens_main
from parallel_backtrack.sudoku.__main__ import main as sudoku_main
from parallel_backtrack.sudoku.files import PuzzleFileError, read_puzzles
from parallel_backtrack.sudoku.formats import (
    PUZZLE_CELLS,
    format_line,
    parse_one,
    parse_puzzles,
)
from parallel_backtrack.sudoku.puzzle import ImmutableSudokuPuzzle, InvalidPuzzleError
from parallel_backtrack.sudoku.results import FAILED, INVALID, SOLVED, STOPPED, UNSOLVABLE
from parallel_backtrack.sudoku.runner import Job, solve_entry
from parallel_backtrack.sudoku.space import is_valid_solution

FUZZ = settings(max_examples=200, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
DOCUMENTED = {_cli.EXIT_OK, _cli.EXIT_NO, _cli.EXIT_USAGE, _cli.EXIT_TIMEOUT}

# Text that looks like puzzle files: cell symbols, separators, comments, tails, junk.
SYMBOLS = ".0_123456789ABCDEFGZaz |+-#:\t*é²\x00"
lines = st.one_of(
    st.text(alphabet=SYMBOLS, max_size=90),
    st.sampled_from([HARDEST, HARDEST[:-1], "1" + "." * 15, "1 2 3 4", "12 . . .", "-" * 9,
                     "# comment", HARDEST + "\tname", HARDEST + ":1", "1234\n3412\n2143\n4321"]),
    st.text(max_size=40),
)
texts = st.one_of(
    st.lists(lines, max_size=12).map("\n".join),
    st.lists(st.sampled_from([HARDEST, HARDEST.replace("8", ".", 3), "# c", ""]), min_size=1,
             max_size=4).map("\n".join),
)


@FUZZ
@given(texts)
def test_the_reader_returns_entries_for_any_text(text: str) -> None:
    entries = parse_puzzles(text)
    sizes = {entry.box for entry in entries if entry.cells is not None}
    assert len(sizes) <= 1  # one size per file
    for entry in entries:
        assert (entry.cells is None) != (entry.error is None)
        assert 1 <= entry.line <= max(1, len(text.splitlines()))
        if entry.cells is not None:
            assert len(entry.cells) in PUZZLE_CELLS and min(entry.cells) >= 0
            # A value above the size is the reader's own error, quoted as typed.
            assert max(entry.cells) <= (entry.box or 0) ** 2
            assert parse_one(format_line(entry.cells)) == entry.cells
        else:
            assert isinstance(entry.error, str) and entry.error and "\n" not in entry.error
            if entry.error.startswith("values must be"):
                assert " holds '" in entry.error


nine_by_nine = st.lists(st.sampled_from(".123456789abxZ"), min_size=81, max_size=81).map("".join)


@FUZZ
@given(st.lists(st.one_of(nine_by_nine, st.just(HARDEST), st.just("# c")), min_size=1,
                max_size=6), st.sampled_from(["", ":1", "\tname"]))
def test_bulk_reading_quotes_a_value_as_the_reader_does(rows: list[str], tail: str) -> None:
    from parallel_backtrack.sudoku.batch_io import parse_batch

    text = "\n".join(row if row.startswith("#") else row + tail for row in rows) + "\n"
    by_line = {entry.line: entry.error for entry in parse_puzzles(text)}
    quoted = {line: error for line, error in by_line.items()
              if error and error.startswith("values must be")}
    assert {line: error for line, error in parse_batch(text).errors
            if error.startswith("values must be")} == quoted


@FUZZ
@given(st.binary(max_size=300), st.booleans())
def test_the_reader_takes_any_bytes(data: bytes, text_mode: bool) -> None:
    try:
        if text_mode:
            entries = read_puzzles(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        else:
            entries = read_puzzles(io.BytesIO(data))
    except PuzzleFileError as error:
        assert "UTF-8" in str(error)
        return
    assert all((e.cells is None) != (e.error is None) for e in entries)


@FUZZ
@given(texts)
@example("11" + "." * 79 + "\n" + "1" + "." * 8 + "1" + "." * 71 + "\n" + HARDEST)  # row, column
@example("1" + "." * 9 + "1" + "." * 70)  # box
@example("1..." * 4)  # a 4x4 column
def test_every_entry_gets_an_answer_or_a_reason(text: str) -> None:
    job = Job(count=True, limit=2, deadline=time.perf_counter() + 2, verify=True)
    for index, entry in enumerate(parse_puzzles(text)[:3]):
        result = solve_entry(index, entry, job)
        assert result.status in {SOLVED, UNSOLVABLE, INVALID, STOPPED}
        assert result.status != FAILED
        # Invalid exactly when the line is unreadable or the puzzle refuses its givens,
        # and givens that clash or lie out of range are always refused.
        assert (result.status == INVALID) == rejected(entry.cells, job.propagation)
        if entry.cells is not None and givens_clash(entry.cells, entry.box or 0):
            assert result.status == INVALID
        if result.status == SOLVED:
            assert result.solution and is_valid_solution(entry.cells or (), result.solution)
        if result.status == INVALID:
            assert result.error and result.error.startswith(f"line {entry.line}: ")


def rejected(cells: tuple[int, ...] | None, propagation: str) -> bool:
    if cells is None:
        return True
    try:
        ImmutableSudokuPuzzle(cells, propagation)
    except InvalidPuzzleError:
        return True
    return False


def givens_clash(cells: tuple[int, ...], box: int) -> bool:
    """A given out of 1..side, or one value twice in a row, column or box (plain
    arithmetic, independent of the package)."""
    side = box * box
    if any(value > side for value in cells):
        return True
    units = [[r * side + c for c in range(side)] for r in range(side)]
    units += [[r * side + c for r in range(side)] for c in range(side)]
    units += [[(br + r) * side + bc + c for r in range(box) for c in range(box)]
              for br in range(0, side, box) for bc in range(0, side, box)]
    for unit in units:
        values = [cells[i] for i in unit if cells[i]]
        if len(values) != len(set(values)):
            return True
    return False


def check_outcome(code: int, out: str, err: str) -> None:
    event(f"exit {code}")
    assert code in DOCUMENTED, (code, err)
    assert "Traceback" not in err
    if code == _cli.EXIT_USAGE:
        assert out == "" and len(err.splitlines()) <= 1, err


# Values any option may get.  No valid worker count above 1: pools would make it slow.
WORDS = ["", "-", "--", "x", "0", "1", "-7", "1.5", "1e3", "nan", "inf", "٣", "99999",
         "10" * 20, "1_0", "--help"]


def option(name: str, values: list[str]) -> st.SearchStrategy[list[str]]:
    """``[name, value]``, the value mostly one of ``values`` (mostly sensible)."""
    value = st.one_of(st.sampled_from(values), st.sampled_from(values), st.sampled_from(WORDS))
    return st.tuples(st.just(name), value).map(list)


NQUEENS_OPTIONS = st.one_of(
    option("--n", ["1", "4", "6", "8", "33", "-3"]),
    option("--workers", ["1", "0", "-2", "two", "99999"]),
    option("--backend", ["serial", "threads", "lokky", "Serial"]),
    option("--kernel", ["fast", "reference", "fsat"]),
    option("--order", ["first-available", "middle-out", "firts"]),
    option("--show", ["1", "3", "0"]),
    option("--timeout", ["5", "0", "-1"]),
    option("--budget", ["10", "1000000000000000000"]),
    option("--budget-seconds", ["0.01", "0"]),
    option("--per-worker", ["2", "0"]),
    option("--method", ["min-conflicts", "annealing", "genetic", "hill-climbing", "anealing"]),
    option("--seed", ["1", "-1"]),
    option("--max-steps", ["100", "0"]),
    option("--variant", ["swaps", "repair", "auto", "swap"]),
    option("--temperature", ["0.5", "-1"]),
    option("--population", ["10", "0"]),
    st.sampled_from([["--json"], ["--stats"], ["--unique"], ["--metrics"], ["--find-one"],
                     ["--verify"], ["--no-verify"], ["--no-progress"], ["--frobnicate"],
                     ["--wokers", "2"], ["8"], ["--n"]]),
)


@FUZZ
@given(st.lists(NQUEENS_OPTIONS, max_size=6).map(lambda parts: sum(parts, [])))
def test_nqueens_arguments(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    # Defaults that keep examples fast: n = 6 (not 8), one worker (not every core).
    argv = ["--n", "6", "--workers", "1", *argv]
    code = nqueens_main(argv)
    out, err = capsys.readouterr()
    check_outcome(code, out, err)


SUDOKU_OPTIONS = st.one_of(
    option("--workers", ["1", "0", "-2", "two", "99999"]),
    option("--order", ["fewest", "row-major", "fewset"]),
    option("--propagation", ["none", "peers", "units", "twins", "unit"]),
    option("--limit", ["1", "2", "0"]),
    option("--timeout", ["5", "0", "-1"]),
    st.sampled_from([["--count"], ["--json"], ["--stats"], ["--verify"], ["--no-verify"],
                     ["--progress"], ["--no-progress"], ["--cuont"], ["-"], ["extra.txt"]]),
)


@FUZZ
@given(texts, st.lists(SUDOKU_OPTIONS, max_size=5).map(lambda parts: sum(parts, [])))
def test_sudoku_files_and_arguments(
    capsys: pytest.CaptureFixture[str], text: str, argv: list[str]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "puzzles.txt")
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as handle:
            handle.write(text)
        # Counting a nearly empty grid never ends: a time limit keeps every example short.
        code = sudoku_main([path, *argv, "--timeout", "0.5"])
    out, err = capsys.readouterr()
    check_outcome(code, out, err)
    if code in (_cli.EXIT_OK, _cli.EXIT_NO) and "--help" not in argv:
        assert out or "--json" in argv
