"""Bulk reading in slices: a file read slice by slice gives what reading it whole gives."""

from __future__ import annotations

import io
import random

import numpy as np
import pytest
from sudoku_data import HARDEST

from parallel_backtrack.sudoku import batch_io
from parallel_backtrack.sudoku.batch_io import FileSlices, parse_batch
from parallel_backtrack.sudoku.formats import parse_puzzles

BOM = b"\xef\xbb\xbf"
EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
NO_SOLUTION = "12345678" + "." * 72 + "9"  # A9 can only be 9, and I9 holds one


def grid(puzzle: str) -> str:
    """A 9x9 puzzle as nine lines of spaced cells, with box separators."""
    rows = [" ".join(puzzle[r * 9:r * 9 + 9]) for r in range(9)]
    return "\n".join(f"{row[:5]} | {row[6:11]} | {row[12:]}" for row in rows)


def mixed_file(seed: int, items: int) -> bytes:
    """Puzzle lines, grids (each between two bad lines), comments, blank lines, CRLF
    lines, tails, values out of range, contradictions, a cut grid and a 4x4 line."""
    rng = random.Random(seed)
    parts = []
    for k in range(items):
        pick = rng.randrange(12)
        parts.append([
            HARDEST, EASY, f"{EASY}\r", f"{HARDEST}\tname {k}", f"# comment {k}", "",
            f"bad line {k}\n{grid(EASY)}\nx{k}", EASY[:-1] + "A", "11" + EASY[2:],
            "\n".join(grid(HARDEST).splitlines()[:4]), "1234" * 4, NO_SOLUTION,
        ][pick])
    return BOM + ("\n".join(parts) + "\n").encode()


def flat(batches: list[batch_io.Batch]) -> tuple[list[tuple[int, ...]], list[int],
                                                 list[tuple[int, str]]]:
    """The givens, lines and errors of consecutive batches, as plain lists."""
    givens = [tuple(row) for batch in batches for row in batch.givens.tolist()]
    lines = [int(line) for batch in batches for line in batch.lines]
    return givens, lines, [error for batch in batches for error in batch.errors]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_file_in_slices_reads_as_the_whole_file(monkeypatch: pytest.MonkeyPatch,
                                                  seed: int) -> None:
    text = mixed_file(seed, 600)
    whole = parse_batch(text)
    expected = flat([whole])
    entries = parse_puzzles(text.decode("utf-8-sig"))  # the general reader, whole
    assert sorted([*expected[1], *(line for line, _ in expected[2])]) == sorted(
        e.line for e in entries)
    carried = []  # the slices that left a grid open at their end to the next one
    slice_of = batch_io.read_slice

    def spied(data: bytes, place: object, last: bool) -> object:
        found = slice_of(data, place, last)  # type: ignore[arg-type]
        carried.append(found[1] < len(data))
        return found

    monkeypatch.setattr(batch_io, "read_slice", spied)
    for size in (1, 97, 500, 1024, 4096, 1 << 20):
        slices = FileSlices(io.BytesIO(text).read, size)
        batches = list(slices)
        assert flat(batches) == expected, size
        assert slices.entries == len(whole.givens) + len(whole.errors)
        if size < len(text):
            assert len(batches) > 1
    assert any(carried)  # some grid did straddle a slice's end
    assert expected[2] and all(reason for _, reason in expected[2])


@pytest.mark.parametrize("read", [0, 1, 3, 100])
def test_the_total_counts_the_slices_not_read(read: int) -> None:
    text = mixed_file(3, 400) + (EASY + "\n").encode() * 3000  # a tail of plain lines
    slices = FileSlices(io.BytesIO(text).read, 700)
    batches = iter(slices)
    for _ in range(read):
        next(batches, None)
    assert slices.total() == len(parse_puzzles(text.decode("utf-8-sig"))) > 3000


def test_a_plain_9x9_file_in_slices_needs_no_compiled_reader(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: object) -> None:
        raise AssertionError("the compiled reader was used")

    monkeypatch.setattr(batch_io, "read_clean", refused)
    lines = [HARDEST, "# comment", "", EASY + "\r", "11" + EASY[2:], EASY[:-1] + "A",
             NO_SOLUTION] * 300
    text = BOM + ("\n".join(lines) + "\n").encode()
    batches = list(FileSlices(io.BytesIO(text).read, 1000))
    givens, numbers, errors = flat(batches)
    entries = [e for e in parse_puzzles(text.decode("utf-8-sig")) if e.cells is not None]
    contradictions = [line for line, reason in errors if "contradict" in reason]
    assert len(batches) > 10 and len(contradictions) == 300
    assert numbers == [e.line for e in entries if e.line not in contradictions]
    assert givens == [e.cells for e in entries if e.line not in contradictions]
    assert [line for line, reason in errors if reason.startswith("values must be 1..9")] == [
        7 * k + 6 for k in range(300)]
    assert np.array_equal(np.array(numbers), np.sort(np.array(numbers)))
