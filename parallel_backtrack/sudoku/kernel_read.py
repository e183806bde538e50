"""Reading Sudoku files in bulk for the compiled kernel: bytes to one givens array.

A file of clean puzzle lines (one size, cell symbols only, any tail after a
``:`` or a tab) becomes one ``uint8`` array in a single compiled pass over its
bytes, with no Python code per line.  Any other file (grids, spaced numbers,
unreadable or over-long lines, mixed sizes, binary data) goes through
``formats.read_puzzles``, so every layout it reads is read here too and every
message about a bad line is its own.  Givens that contradict each other are
found in bulk and worded by ``puzzle.check_givens``.

Glossary
--------
givens
    ``uint8 [puzzles, n*n]``: one puzzle per row, 0 for a blank, else the value.
lines
    ``int64 [puzzles]``: the 1-based file line each row came from.
errors
    ``[(line, reason), ...]`` for every line that holds no usable puzzle
    (unreadable, a different size than the file's first puzzle, or givens that
    contradict each other).  Nothing is dropped silently.
symbol
    ``.``, ``0`` or ``_`` for a blank, ``1``..``9``, then ``A``.. (either case)
    for 10 and up, as ``formats`` reads them.  Example: the line
    ``"85...24..72......9..."`` starts the row ``8 5 0 0 0 2 4 0 0``.
line kinds
    ``CELLS`` (symbols only), ``COMMENT`` (``#``), ``SPACED`` (spaces or grid
    separators ``| + - =``: a job for ``formats``), ``BAD_SYMBOL``.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

from .formats import MAX_LINE_LENGTH
from .kernel_tables import BOX_SIZES, kernel_tables

PUZZLE_CELLS = tuple(b**4 for b in BOX_SIZES)
CELLS, COMMENT, SPACED, BAD_SYMBOL = 0, 1, 2, 3


def _symbol_table() -> np.ndarray:
    """Byte -> value (0 for a blank), -1 for a byte that is no cell symbol."""
    table = np.full(256, -1, dtype=np.int16)
    for blank in b"._0":
        table[blank] = 0
    for digit in range(1, 10):
        table[ord(str(digit))] = digit
    for index in range(26):
        table[ord("A") + index] = table[ord("a") + index] = 10 + index
    return table


SYMBOLS = _symbol_table()


LINE_SYMBOLS = np.frombuffer(b".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", dtype=np.uint8)


def puzzle_lines(values: np.ndarray) -> list[str]:
    """Each row as one line of symbols (``.`` for 0), like ``formats.format_line``.

    Vectorised for up to 35 values; 36x36 rows (values past ``Z``) go through
    ``format_line`` as space-separated numbers.
    """
    array = np.asarray(values)
    if array.size and array.max() >= len(LINE_SYMBOLS):
        from .formats import format_line

        return [format_line(row.tolist()) for row in array]
    symbols = np.ascontiguousarray(LINE_SYMBOLS[array])
    return [line.decode() for line in symbols.view(f"S{max(1, array.shape[-1])}").ravel()]


class Batch(NamedTuple):
    """Puzzles read in bulk: ``box``, ``givens``, ``lines`` and ``errors``."""

    box: int
    givens: np.ndarray
    lines: np.ndarray
    errors: list[tuple[int, str]]


@njit(cache=True)
def _is_space(byte):  # type: ignore[no-untyped-def]
    return byte == 32 or byte == 9 or byte == 13


@njit(cache=True)
def _index_lines(data, symbols):  # type: ignore[no-untyped-def]
    """One record per non-blank, non-comment line: number, cell span and kind;
    and the length of the longest line.

    The cells of a line end at a tab or ``:``; what follows is its tail.
    """
    n_lines = 1
    for byte in data:
        n_lines += byte == 10
    numbers = np.empty(n_lines, np.int64)
    starts = np.empty(n_lines, np.int64)
    stops = np.empty(n_lines, np.int64)
    kinds = np.empty(n_lines, np.int8)
    longest = 0
    found = 0
    line_start = 0
    number = 0
    for end in range(data.shape[0] + 1):
        if end < data.shape[0] and data[end] != 10:
            continue
        number += 1
        start = line_start
        line_start = end + 1
        longest = max(longest, end - start)
        while start < end and _is_space(data[start]):
            start += 1
        if start == end:
            continue
        stop = start
        while stop < end and data[stop] != 9 and data[stop] != 58:
            stop += 1
        while stop > start and _is_space(data[stop - 1]):
            stop -= 1
        kind = COMMENT if data[start] == 35 else CELLS
        for pos in range(start, stop):
            if kind != CELLS:
                break
            byte = data[pos]
            if byte == 32 or byte == 124 or byte == 43 or byte == 45 or byte == 61:
                kind = SPACED  # spaces, or grid separators (| + - =)
            elif symbols[byte] < 0:
                kind = BAD_SYMBOL
        if kind == COMMENT:
            continue
        numbers[found], starts[found], stops[found], kinds[found] = number, start, stop, kind
        found += 1
    return numbers[:found], starts[:found], stops[:found], kinds[:found], longest


@njit(cache=True)
def _fill_givens(data, starts, symbols, givens):  # type: ignore[no-untyped-def]
    for row in range(givens.shape[0]):
        for square in range(givens.shape[1]):
            givens[row, square] = symbols[data[starts[row] + square]]


@njit(cache=True)
def _broken_rows(givens, square_units, units, size):  # type: ignore[no-untyped-def]
    """True for rows with a value above ``size`` or a value twice in a unit.

    One pass over each row's givens (blanks cost one load), keeping the values
    seen so far in each unit as a mask.
    """
    broken = np.zeros(givens.shape[0], np.bool_)
    seen = np.zeros(units, np.uint64)
    for row in range(givens.shape[0]):
        seen[:] = 0
        for square in range(givens.shape[1]):
            value = givens[row, square]
            if value == 0:
                continue
            if value > size:
                broken[row] = True
                break
            bit = np.uint64(1) << np.uint64(value - 1)
            for k in range(3):
                unit = square_units[square, k]
                if seen[unit] & bit:
                    broken[row] = True
                seen[unit] |= bit
            if broken[row]:
                break
    return broken


def _givens_error(cells: np.ndarray) -> str:
    """The reference's own words for givens that contradict each other."""
    from .puzzle import InvalidPuzzleError, check_givens

    try:
        check_givens(tuple(int(v) for v in cells))
    except InvalidPuzzleError as error:
        return str(error)
    return "givens contradict each other"


def _validated(box: int, givens: np.ndarray, lines: np.ndarray,
               errors: list[tuple[int, str]]) -> Batch:
    """Move rows with out-of-range or repeated givens from ``givens`` to ``errors``."""
    tables = kernel_tables(box)
    broken = _broken_rows(givens, tables.square_units, tables.units.shape[0], box * box)
    errors = errors + [(int(lines[i]), _givens_error(givens[i])) for i in np.flatnonzero(broken)]
    keep = ~broken
    return Batch(box, givens[keep], lines[keep], sorted(errors))


def _needs_general_reader(data: np.ndarray, starts: np.ndarray, widths: np.ndarray,
                          kinds: np.ndarray, longest: int) -> bool:
    """Anything but clean puzzle lines of one size: a job for ``formats``.

    That covers grids, spaced numbers, unreadable symbols, wrong or mixed sizes
    and over-long lines, so every message about a bad line is the reader's own.
    """
    if longest > MAX_LINE_LENGTH or (kinds != CELLS).any() or len(widths) == 0:
        return True
    if (widths != widths[0]).any() or int(widths[0]) not in PUZZLE_CELLS:
        return True
    if widths[0] == 16:  # a 16x16 grid's row, unless every value fits a 4x4 puzzle
        return any(SYMBOLS[data[start:start + 16]].max() > 4 for start in starts)
    return False


def _decodes(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return b"\0" not in raw


def parse_batch(text: bytes | str) -> Batch:
    """Puzzles from the text of a file; see ``read_batch``."""
    raw = text.encode() if isinstance(text, str) else bytes(text)
    data = np.frombuffer(raw, dtype=np.uint8)
    numbers, starts, stops, kinds, longest = _index_lines(data, SYMBOLS)
    widths = stops - starts
    if _needs_general_reader(data, starts, widths, kinds, longest) or not _decodes(raw):
        return _from_entries(raw)
    box = round(int(widths[0]) ** 0.25)
    givens = np.empty((len(starts), box**4), dtype=np.uint8)
    _fill_givens(data, starts, SYMBOLS, givens)
    return _validated(box, givens, numbers, [])


def _from_entries(raw: bytes) -> Batch:
    """The general reader's entries (grids, spaced cells, bad lines) as a batch.

    ``formats.PuzzleFileError`` (a binary or non-UTF-8 file) passes through.
    """
    from .formats import read_puzzles

    entries = read_puzzles(io.BytesIO(raw))
    errors = [(e.line, e.error or "") for e in entries if e.cells is None]
    readable = [e for e in entries if e.cells is not None and e.box is not None]
    if not readable:
        return Batch(3, np.zeros((0, 81), np.uint8), np.zeros(0, np.int64), sorted(errors))
    box = readable[0].box or 3
    same = [e for e in readable if e.box == box]
    errors += [(e.line, f"a {e.box}-box puzzle in a batch of box {box}")
               for e in readable if e.box != box]
    givens = np.array([e.cells for e in same], dtype=np.int64).clip(0, 255).astype(np.uint8)
    lines = np.array([e.line for e in same], dtype=np.int64)
    return _validated(box, givens, lines, errors)


def read_batch(path: str | os.PathLike[str]) -> Batch:
    """Every puzzle of a file as one array, with the lines that hold none.

    One-line puzzles (``puzzle``, ``puzzle:count``, ``puzzle<TAB>name``) are
    read in one compiled pass; other layouts fall back to ``formats``.  The
    batch takes the size of the file's first puzzle.
    """
    return parse_batch(Path(path).read_bytes())
