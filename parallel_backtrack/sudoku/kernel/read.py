"""The compiled pass of bulk reading: the bytes of a file to one givens array.

A file of clean puzzle lines (one size, cell symbols only, any tail after a
``:`` or a tab) becomes one ``uint8`` array in a single compiled pass over its
bytes, with no Python code per line (``read_clean``); it answers None for any
other file, which ``batch_io`` hands to the general reader.  ``broken_rows``
finds givens that contradict each other in bulk.  Nothing here imports the
reference layer: the words of every message are ``batch_io``'s.

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

from typing import NamedTuple

import numpy as np
from numba import njit

from ..._jit_cache import compile_notice  # (registers the cache locators before any @njit)
from ..boxes import BOX_SIZES
from .tables import kernel_tables

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


def broken_rows(box: int, givens: np.ndarray) -> np.ndarray:
    """True for every row of ``givens`` with a value above ``n`` or a value twice in a unit."""
    tables = kernel_tables(box)
    return _broken_rows(givens, tables.square_units, tables.units.shape[0], box * box)


def _clean_lines_only(data: np.ndarray, starts: np.ndarray, widths: np.ndarray,
                      kinds: np.ndarray, longest: int, max_line: int) -> bool:
    """Only clean puzzle lines of one size, none longer than ``max_line``?"""
    if longest > max_line or (kinds != CELLS).any() or len(widths) == 0:
        return False
    if (widths != widths[0]).any() or int(widths[0]) not in PUZZLE_CELLS:
        return False
    if widths[0] == 16:  # a 16x16 grid's row, unless every value fits a 4x4 puzzle
        return not any(SYMBOLS[data[start:start + 16]].max() > 4 for start in starts)
    return True


def read_clean(raw: bytes, max_line: int) -> tuple[int, np.ndarray, np.ndarray] | None:
    """``(box, givens, lines)`` when ``raw`` holds clean puzzle lines only, else None.

    None covers grids, spaced numbers, unreadable symbols, wrong or mixed sizes
    and lines longer than ``max_line``: a job for the general reader, so that
    every message about a bad line is its own.  The givens are not validated.
    """
    data = np.frombuffer(raw, dtype=np.uint8)
    with compile_notice("the Sudoku file reader", [_index_lines, _fill_givens], "5-10 s"):
        numbers, starts, stops, kinds, longest = _index_lines(data, SYMBOLS)
    widths = stops - starts
    if not _clean_lines_only(data, starts, widths, kinds, longest, max_line):
        return None
    box = round(int(widths[0]) ** 0.25)
    givens = np.empty((len(starts), box**4), dtype=np.uint8)
    _fill_givens(data, starts, SYMBOLS, givens)
    return box, givens, numbers


def symbol_lines(values: np.ndarray) -> list[str] | None:
    """Each row as one line of symbols (``.`` for 0); None when a value is past ``Z``."""
    array = np.asarray(values)
    if array.size and array.max() >= len(LINE_SYMBOLS):
        return None
    symbols = np.ascontiguousarray(LINE_SYMBOLS[array])
    return [line.decode() for line in symbols.view(f"S{max(1, array.shape[-1])}").ravel()]
