"""Puzzle files: one-line and grid formats, tails, comments, errors with line numbers."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from sudoku_data import HARDEST, sudoku_file

from parallel_backtrack.sudoku.files import read_puzzles
from parallel_backtrack.sudoku.formats import (
    format_grid,
    format_line,
    parse_one,
    parse_puzzles,
    symbol_value,
    value_symbol,
)

HERE = Path(__file__).resolve().parent

# File -> puzzles in it (SOURCES.txt: non-comment, non-empty lines).
SHARED_FILES = {
    "norvig_easy50.txt": 50,
    "norvig_top95.txt": 95,
    "norvig_hardest11.txt": 11,
    "norvig_essay_special.txt": 2,
    "plb_hard20.txt": 20,
    "gecode_9x9.txt": 18,
    "gecode_16x16.txt": 55,
    "tdoku_test_puzzles.txt": 43,
    "tdoku_puzzles6_forum_hardest_1106.txt": 375,
    "tdoku_puzzles3_magictour_top1465.txt": 1465,
    "tdoku_puzzles7_serg_benchmark.txt": 10000,
}


def shared(name: str) -> Path:
    return sudoku_file(name)


def test_symbols() -> None:
    assert [symbol_value(s) for s in ".0_19AaGP"] == [0, 0, 0, 1, 9, 10, 10, 16, 25]
    assert symbol_value("12") == 12 and symbol_value("*") is None and symbol_value("²") is None
    assert [value_symbol(v) for v in (0, 1, 9, 10, 16, 35)] == [".", "1", "9", "A", "G", "Z"]
    with pytest.raises(ValueError, match="value 36 has no one-character symbol"):
        value_symbol(36)


def test_blanks_may_be_dot_zero_or_underscore() -> None:
    cells = parse_one(HARDEST)
    assert cells[:9] == (8, 5, 0, 0, 0, 2, 4, 0, 0)
    assert parse_one(HARDEST.replace(".", "0")) == cells == parse_one(HARDEST.replace(".", "_"))


def test_text_after_the_cells_is_kept_as_the_tail() -> None:
    text = f"# comment\n{HARDEST}\thardest one\n{HARDEST}:847\n{HARDEST}:1:{HARDEST}\n"
    entries = parse_puzzles(text)
    assert [(e.line, e.tail) for e in entries] == [
        (2, "hardest one"), (3, "847"), (4, f"1:{HARDEST}"),
    ]
    assert all(e.cells == parse_one(HARDEST) and e.box == 3 for e in entries)


def test_grids_with_separators() -> None:
    grid = format_grid(parse_one(HARDEST))
    assert parse_one(grid) == parse_one(HARDEST)
    compact = "\n".join(HARDEST[r * 9 : r * 9 + 9] for r in range(9))
    assert parse_one(compact) == parse_one(HARDEST)
    piped = "\n".join("|".join([HARDEST[r * 9 + c : r * 9 + c + 3] for c in (0, 3, 6)])
                      for r in range(9))
    assert parse_one(piped) == parse_one(HARDEST)


def test_the_size_follows_the_number_of_cells() -> None:
    entries = read_puzzles(HERE / "data" / "sudoku_grids.txt")
    assert [(e.line, e.box) for e in entries] == [(2, 3), (14, 3), (24, 3)]
    assert entries[0].cells == entries[1].cells == parse_one(HARDEST)
    entries = read_puzzles(HERE / "data" / "sudoku_grids_4x4.txt")
    assert [(e.line, e.box) for e in entries] == [(2, 2), (8, 2)]
    assert entries[0].cells == (1, 0, 0, 0, 0, 0, 2, 0, 0, 3, 0, 0, 0, 0, 0, 4)


def test_one_size_per_file() -> None:
    entries = parse_puzzles(f"{HARDEST}\n1...............\n{HARDEST}\n")
    assert [e.error for e in entries] == [
        None, "a 4x4 puzzle, but this file's first puzzle (line 1) is 9x9; one size per file", None,
    ]


def test_sixteen_cells_are_a_4x4_puzzle_unless_a_value_is_above_4() -> None:
    assert [e.box for e in parse_puzzles("1.......2..3...4")] == [2]
    grid = "\n".join(("123456789ABCDEFG"[r:] + "123456789ABCDEFG"[:r]) for r in range(16))
    entries = parse_puzzles(grid)
    assert len(entries) == 1 and entries[0].box == 4 and entries[0].cells[:3] == (1, 2, 3)
    # After a 16x16 puzzle a 16-cell line of small values is a grid row, not a 4x4 puzzle.
    low = "\n".join(["1234" + "." * 12] + ["." * 16] * 15)
    entries = parse_puzzles(grid + "\n" + low)
    assert [e.box for e in entries] == [4, 4]


def test_unreadable_lines_are_reported_with_number_and_reason() -> None:
    entries = read_puzzles(HERE / "data" / "sudoku_mixed.txt")
    assert [e.line for e in entries] == [2, 3, 5, 6, 7, 8]
    errors = {e.line: e.error for e in entries if e.error is not None}
    assert set(errors) == {3, 8}
    assert errors[3] is not None and errors[3].startswith("80 cells; a puzzle line has 16, 81")
    assert errors[8] == (
        "cannot read '*' (cell 81) as a cell; expected 1-9, A.. for 10 and up,"
        " or '.', '0', '_' for a blank"
    )


def test_an_unfinished_grid_is_reported_and_the_rest_still_read() -> None:
    text = "8 5 . | . . 2 | 4 . .\n7 2 . | . . . | . . 9\n" + HARDEST + "\n"
    entries = parse_puzzles(text)
    assert entries[0].error == "grid of 9-cell lines ends after 2 of its 9 lines"
    assert entries[0].line == 1 and entries[1].cells == parse_one(HARDEST)
    assert parse_puzzles("1 2 3 4\n")[0].error == "grid of 4-cell lines ends after 1 of its 4 lines"


def test_a_blank_line_ends_a_grid_cut_short() -> None:
    """A grid missing a row is reported at its first line; it does not take the first
    row of the grid after the blank line (a puzzle nobody wrote)."""
    rows = ["1 . | . .", ". . | 2 .", ". 3 | . .", ". . | . 4"]
    text = "\n".join(rows[:3] + [""] + ["4 . | . ."] + rows[1:3] + [". . | . 1"]) + "\n"
    entries = parse_puzzles(text)
    assert [(e.line, e.error) for e in entries] == [
        (1, "grid of 4-cell lines ends after 3 of its 4 lines"), (5, None)]
    assert entries[1].cells == (4, 0, 0, 0, 0, 0, 2, 0, 0, 3, 0, 0, 0, 0, 0, 1)
    # A comment between a grid's rows is still skipped.
    assert parse_one("\n".join(rows[:2] + ["# band 2"] + rows[2:])) == parse_one("\n".join(rows))


def test_a_hash_after_the_cells_starts_a_comment() -> None:
    entries = parse_puzzles(f"{HARDEST}  # the lab's puzzle\n{HARDEST}#x\n1 . | . . # row A\n")
    assert [e.cells for e in entries[:2]] == [parse_one(HARDEST)] * 2
    assert entries[0].tail == "the lab's puzzle"
    words = parse_puzzles(f"{HARDEST} hardest\n")[0].error
    assert words is not None and words.endswith("; words after a puzzle go after a tab, ':' or '#'")


def test_nothing_is_dropped_silently() -> None:
    text = "\n".join(["# c", "", "------+------", "abc", HARDEST, "12 13"])
    entries = parse_puzzles(text)
    assert [(e.line, e.cells is None) for e in entries] == [(4, True), (5, False), (6, True)]


def test_parse_one_wants_exactly_one_puzzle() -> None:
    with pytest.raises(ValueError, match="expected one puzzle, found 0"):
        parse_one("# only a comment")
    with pytest.raises(ValueError, match="line 1: 3 cells"):
        parse_one("123")


def test_read_puzzles_from_a_path_an_open_file_or_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    path = HERE / "data" / "sudoku_grids.txt"
    from_path = read_puzzles(path)
    assert read_puzzles(str(path)) == from_path
    with open(path) as handle:
        assert read_puzzles(handle) == from_path
    monkeypatch.setattr("sys.stdin", io.StringIO(path.read_text()))
    assert read_puzzles("-") == from_path


@pytest.mark.parametrize("box", [2, 3, 4, 5, 6])
def test_writing_round_trips(box: int) -> None:
    n = box * box
    cells = tuple(((r * box + r // box + c) % n + 1) if (r + c) % 3 else 0
                  for r in range(n) for c in range(n))
    assert parse_one(format_line(cells)) == cells
    assert parse_one(format_grid(cells)) == cells
    assert len(format_grid(cells).splitlines()) == n + box - 1


def test_a_36x36_line_is_written_with_numbers() -> None:
    cells = tuple(range(1, 37)) * 36
    line = format_line(cells)
    assert line.startswith("1 2 3 ") and " 36 " in line
    with pytest.raises(ValueError, match="80 cells is no Sudoku size"):
        format_line((0,) * 80)


@pytest.mark.parametrize(("name", "puzzles"), sorted(SHARED_FILES.items()))
def test_every_shared_file_reads_cleanly(name: str, puzzles: int) -> None:
    entries = read_puzzles(shared(name))
    assert len(entries) == puzzles
    assert all(entry.error is None for entry in entries)
    assert {entry.box for entry in entries} == {4 if "16x16" in name else 3}


def test_windows_line_ends_and_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "windows.txt"
    path.write_bytes(("\ufeff" + HARDEST + "\r\n" + HARDEST + "\r\n").encode("utf-8"))
    entries = read_puzzles(path)
    assert [e.cells for e in entries] == [parse_one(HARDEST)] * 2
