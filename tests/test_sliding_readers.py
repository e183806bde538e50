"""Readers: CS61B files, one-line rows, Korf rows, stdin; one-line errors; fuzzing."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sliding_check import read_cs61b

from parallel_backtrack.sliding.readers import (
    Entry,
    Failure,
    PuzzleFormatError,
    detect,
    parse_text,
    read_boards,
    read_source,
)


def test_cs61b_file(data_dir: Path) -> None:
    folder = data_dir / "search" / "cs61b_puzzles"
    for path in sorted(folder.glob("puzzle*.txt")):
        [entry] = read_boards(str(path))
        assert isinstance(entry, Entry)
        assert list(entry.tiles) == read_cs61b(path)


def test_formats_detected(data_dir: Path) -> None:
    search = data_dir / "search"
    assert detect((search / "korf100.txt").read_text()) == "korf"
    assert detect((search / "8puzzle_graded.txt").read_text()) == "rows"
    assert detect((search / "15puzzle_80moves.txt").read_text()) == "rows"
    assert detect((search / "cs61b_puzzles" / "puzzle04.txt").read_text()) == "cs61b"


def test_korf_rows(data_dir: Path) -> None:
    entries = read_boards(str(data_dir / "search" / "korf100.txt"))
    assert len(entries) == 100
    first = entries[0]
    assert first.tiles[:4] == (14, 13, 15, 7) and first.expected == 57


def test_rows_with_annotations(data_dir: Path) -> None:
    graded = read_boards(str(data_dir / "search" / "8puzzle_graded.txt"))
    assert [e.expected for e in graded][:3] == [0, 1, 2]
    hard = read_boards(str(data_dir / "search" / "15puzzle_80moves.txt"))
    assert len(hard) == 17 and all(e.expected == 80 for e in hard)
    misc = read_boards(str(data_dir / "search" / "15puzzle_misc.txt"))
    assert [e.expected for e in misc] == [52, 80]


def test_several_cs61b_blocks_and_comments() -> None:
    text = "# two boards\n2\n1 2\n3 0\n\n3\n1 2 3\n4 5 6\n7 0 8\n"
    entries = parse_text(text)
    assert [e.line for e in entries] == [2, 6]
    assert entries[1].tiles == (1, 2, 3, 4, 5, 6, 7, 0, 8)


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = io.TextIOWrapper(io.BytesIO(b"1 2 3 0\n0 1 2 3\n"))
    monkeypatch.setattr(sys, "stdin", fake)
    assert [e.tiles for e in read_boards("-")] == [(1, 2, 3, 0), (0, 1, 2, 3)]


@pytest.mark.parametrize("text, message", [
    ("1 2 3 4 5\n", r"line 1: 5 numbers is not a square tile count"),
    ("1 2 3 4 5 6 7 8 8\n", r"line 1: no blank"),
    ("0 2 3 4 5 6 7 8 8\n", r"line 1: tile 8 appears twice"),
    ("1 2 3 4 5 6 7 8 9\n", r"line 1: no blank"),
    ("0 1 2 3 4 5 6 7 12\n", r"line 1: tile 12 is out of range 0..8"),
    (" ".join(map(str, range(121))) + "\n", r"line 1: 121 numbers: n = 11 is more than 10"),
    ("11\n" + " ".join(map(str, range(121))) + "\n", r"line 1: board size N = 11"),
    ("3\n1 2 3\n4 x 6\n", r"line 3: expected a tile number, got 'x'"),
    ("3\n1 2 3\n4 0 6\n", r"line 1: N = 3 needs 9 tiles; the file ends after 6"),
    ("# ok\n1 2 3 0\nhello\n", r"line 3: expected tile numbers, got 'hello'"),
    ("1 2 3 4 x 6 7 8 0\n", r"line 1: no blank \(0\) among the 4 tiles \(the numbers end "
     r"at word 5, 'x'\)"),
])
def test_bad_input_names_line_and_reason(text: str, message: str) -> None:
    failures = [f for f in parse_text(text) if isinstance(f, Failure)]
    assert failures and failures[0].message.startswith("line ")
    with pytest.raises(PuzzleFormatError, match=message):
        for item in parse_text(text):
            if isinstance(item, Failure):
                raise PuzzleFormatError(item.message)


def test_a_bad_line_fails_that_line_only() -> None:
    found = parse_text("1 2 3 0\n1 1 3 0\n0 1 2 3\n")
    assert [type(f).__name__ for f in found] == ["Entry", "Failure", "Entry"]


def test_empty_and_binary_files(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    with pytest.raises(PuzzleFormatError, match="no puzzles"):
        read_source(str(empty))
    comments = tmp_path / "comments.txt"
    comments.write_text("# nothing\n\n")
    with pytest.raises(PuzzleFormatError, match="no puzzles"):
        read_source(str(comments))
    binary = tmp_path / "binary.bin"
    binary.write_bytes(b"\x00\x01\xff\xfe garbage")
    with pytest.raises(PuzzleFormatError, match="binary data"):
        read_source(str(binary))
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"1 2 3 \xe9\n")
    with pytest.raises(PuzzleFormatError, match="not UTF-8"):
        read_source(str(latin))
    with pytest.raises(PuzzleFormatError, match="is a directory"):
        read_source(str(tmp_path))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_fuzz_text_never_crashes(text: str) -> None:
    for item in parse_text(text):
        if isinstance(item, Failure):
            assert item.message.startswith("line ") and "\n" not in item.message
        else:
            assert sorted(item.tiles) == list(range(len(item.tiles)))


numbers = st.lists(st.integers(min_value=-3, max_value=30), max_size=30)


@settings(max_examples=300, deadline=None)
@given(st.lists(numbers, min_size=1, max_size=5), st.sampled_from(["auto", "rows", "korf",
                                                                   "cs61b"]))
def test_fuzz_number_lines(lines: list[list[int]], fmt: str) -> None:
    text = "\n".join(" ".join(map(str, line)) for line in lines)
    for item in parse_text(text, fmt):
        if isinstance(item, Failure):
            assert item.message.startswith("line ")
        else:
            assert sorted(item.tiles) == list(range(len(item.tiles)))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_bytes(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "data.txt"
    path.write_bytes(data)
    try:
        found = read_source(str(path))
    except PuzzleFormatError as error:
        assert "\n" not in str(error)
        return
    assert found


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["1 2 3 0", "0 1 2 3", "3", "1 2", "3 0", "# c", "", " ",
                                 "1 1 2 3", "x", "é", "\r", "\r\n", "\x0c", "\u2028",
                                 "\x00", "\udcff", "1 2 3 4 5 6 7 0 8 1"]),
                max_size=40).map("\n".join))
def test_reading_in_small_blocks_gives_what_the_whole_text_gives(text: str) -> None:
    """Blocks of 5 bytes cut lines, CRLF pairs and characters anywhere: the lines, their
    numbers and their errors stay those of the whole text."""
    import tempfile

    from parallel_backtrack.sliding import readers

    data = (readers.BOM + b"1 2 3 0\n" * 1100  # past the bytes judged for binary data
            + text.encode("utf-8", "surrogateescape"))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.txt"
        path.write_bytes(data)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(readers, "BLOCK_BYTES", 5)
            for fmt in ("auto", "cs61b"):
                whole = parse_text(readers.decode(data, str(path)), fmt)
                assert read_source(str(path), fmt) == whole


def test_a_line_too_long_fails_alone_and_the_next_keeps_its_number(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from parallel_backtrack.sliding import readers

    monkeypatch.setattr(readers, "MAX_LINE_BYTES", 100)
    monkeypatch.setattr(readers, "BLOCK_BYTES", 7)
    path = tmp_path / "long.txt"
    path.write_text("1 2 3 0\n" * 1100 + "1 " * 500 + "\n0 1 2 3\n")
    found = read_source(str(path))
    assert len(found) == 1102
    assert isinstance(found[1100], Failure) and found[1100].message.startswith("line 1101: ")
    assert found[1101] == Entry(1102, (0, 1, 2, 3))
