"""Files to batches and batches to text: the compiled reader with the general one behind it.

A file of 81-symbol lines (and blank or ``#`` comment lines) is read in numpy
alone (``_plain_9x9``), so a first run on 9x9 puzzles compiles no reader; any
other file of clean puzzle lines is read by ``kernel.read`` in one compiled pass;
any other file (grids, spaced numbers, unreadable or over-long lines, mixed
sizes, binary data) goes through ``formats.read_puzzles``, so every layout it
reads is read here too and every message about a bad line is its own.  Givens
that contradict each other are found in bulk and worded by
``puzzle.check_givens``, values out of range by ``formats.range_problem`` (the
symbol as typed).

Glossary
--------
batch
    ``kernel.read.Batch``: ``box``, ``givens`` (``uint8 [puzzles, n*n]``, 0 for
    a blank), ``lines`` (the 1-based file line of each row) and ``errors``
    (``[(line, reason), ...]`` for every line that holds no usable puzzle:
    unreadable, a different size than the file's first puzzle, or givens that
    contradict each other).  Nothing is dropped silently.
symbol
    ``.``, ``0`` or ``_`` for a blank, ``1``..``9``, then ``A``.. (either case)
    for 10 and up, as ``formats`` reads them.  Example: the line
    ``"85...24..72......9..."`` starts the row ``8 5 0 0 0 2 4 0 0``.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np

from .formats import MAX_LINE_LENGTH, cell_symbols, format_line, range_problem, read_puzzles
from .kernel.read import SYMBOLS, Batch, broken_rows, read_clean, symbol_lines
from .puzzle import InvalidPuzzleError, check_givens

__all__ = ["Batch", "parse_batch", "puzzle_lines", "read_batch"]
SLICE_ROWS = 4096  # rows of a file read or checked at once (small temporaries)


def puzzle_lines(values: np.ndarray) -> list[str]:
    """Each row as one line of symbols (``.`` for 0), like ``formats.format_line``.

    Vectorised for up to 35 values; 36x36 rows (values past ``Z``) go through
    ``format_line`` as space-separated numbers.
    """
    lines = symbol_lines(values)
    if lines is None:
        return [format_line(row.tolist()) for row in np.asarray(values)]
    return lines


def _givens_error(cells: np.ndarray, text: bytes | None = None) -> str:
    """The reference's own words for givens out of range (``formats.range_problem``: the
    symbols as typed on the puzzle's line ``text``) or that contradict each other."""
    values = tuple(int(v) for v in cells)
    if text is not None:
        symbols = cell_symbols(text.decode("utf-8", "replace").lstrip("\ufeff"))
        problem = range_problem(values, symbols, [0])
        if problem is not None:
            return problem[1]
    try:
        check_givens(values)
    except InvalidPuzzleError as error:
        return str(error)
    return "givens contradict each other"


def _validated(box: int, givens: np.ndarray, lines: np.ndarray,
               errors: list[tuple[int, str]], raw: bytes | None = None) -> Batch:
    """Move rows with out-of-range or repeated givens from ``givens`` to ``errors``
    (``raw``: the file, to quote a value out of range as typed)."""
    broken = broken_rows(box, givens)
    rows = np.flatnonzero(broken)
    ends = None
    if raw is not None and len(rows) and (givens[rows] > box * box).any():
        ends = np.flatnonzero(np.frombuffer(raw, dtype=np.uint8) == 10)
    errors = errors + [(int(lines[i]), _givens_error(givens[i], _line(raw, ends, int(lines[i]))))
                       for i in rows]
    keep = ~broken
    return Batch(box, givens[keep], lines[keep], sorted(errors))


def _line(raw: bytes | None, ends: np.ndarray | None, number: int) -> bytes | None:
    """Line ``number`` (1-based) of ``raw``, given the offsets of its newlines ``ends``."""
    if raw is None or ends is None:
        return None
    start = 0 if number == 1 else int(ends[number - 2]) + 1
    return raw[start:int(ends[number - 1]) if number <= len(ends) else len(raw)]


def _decodes(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return b"\0" not in raw


def _broken_9x9(givens: np.ndarray) -> np.ndarray:
    """``broken_rows`` for 9x9 in numpy (nothing to compile): a value above 9, or a
    value twice in a unit (the sum of a unit's value bits differs from their union).
    In slices of ``SLICE_ROWS`` rows, so the temporaries stay small."""
    broken = np.zeros(len(givens), dtype=bool)
    for top in range(0, len(givens), SLICE_ROWS):
        broken[top:top + SLICE_ROWS] = _broken_slice(givens[top:top + SLICE_ROWS])
    return broken


def _broken_slice(givens: np.ndarray) -> np.ndarray:
    values = givens.astype(np.int16)
    bits = np.left_shift(np.int16(1), np.clip(values - 1, 0, 14), dtype=np.int16)
    bits[values == 0] = 0
    broken: np.ndarray = np.asarray((values > 9).any(axis=1))
    grids = bits.reshape(-1, 9, 9)
    boxes = grids.reshape(-1, 3, 3, 3, 3)  # band, row in band, stack, column in stack
    parts = ([grids[:, :, k] for k in range(9)], [grids[:, k, :] for k in range(9)],
             [boxes[:, :, k // 3, :, k % 3] for k in range(9)])
    for unit_cells in parts:  # the 9 cells of every row, of every column, of every box
        union, total = np.zeros_like(unit_cells[0]), np.zeros_like(unit_cells[0])
        for held in unit_cells:
            union |= held
            total += held
        broken |= (union != total).reshape(len(givens), -1).any(axis=1)
    return broken


def _plain_9x9(raw: bytes) -> Batch | None:
    """The common file in numpy alone: every line blank, a ``#`` comment, or exactly 81
    cell symbols (then a first run compiles no reader).  None for anything else."""
    if not raw:
        return None
    data = np.frombuffer(raw, dtype=np.uint8)
    ends = np.flatnonzero(data == 10)
    if not raw.endswith(b"\n"):
        ends = np.append(ends, len(data))
    starts = np.concatenate(([0], ends[:-1] + 1))
    lengths = ends - starts
    if not len(ends) or lengths.max() > MAX_LINE_LENGTH:
        return None
    lengths -= (lengths > 0) & (data[np.maximum(ends - 1, 0)] == 13)  # a CR before the LF
    opening = data[np.minimum(starts, max(len(data) - 1, 0))]
    cells = (lengths > 0) & (opening != 35)  # not blank, not a comment
    if not cells.any() or (lengths[cells] != 81).any():
        return None
    where = starts[cells]
    givens = np.empty((len(where), 81), dtype=np.uint8)
    for top in range(0, len(where), SLICE_ROWS):  # in slices: no 8-byte index per cell at once
        values = SYMBOLS[data[where[top:top + SLICE_ROWS, None] + np.arange(81)]]
        if (values < 0).any():
            return None
        givens[top:top + SLICE_ROWS] = values
    numbers = np.flatnonzero(cells).astype(np.int64) + 1
    broken = _broken_9x9(givens)
    errors = [(int(numbers[i]), _givens_error(givens[i], raw[where[i]:where[i] + 81]))
              for i in np.flatnonzero(broken)]
    return Batch(3, givens[~broken], numbers[~broken], sorted(errors))


def parse_batch(text: bytes | str) -> Batch:
    """Puzzles from the text of a file; see ``read_batch``."""
    raw = text.encode() if isinstance(text, str) else bytes(text)
    plain = _plain_9x9(raw) if _decodes(raw) else None
    if plain is not None:
        return plain
    clean = read_clean(raw, MAX_LINE_LENGTH)
    if clean is None or not _decodes(raw):
        return _from_entries(raw)
    box, givens, lines = clean
    return _validated(box, givens, lines, [], raw)


def _from_entries(raw: bytes) -> Batch:
    """The general reader's entries (grids, spaced cells, bad lines) as a batch.

    ``formats.PuzzleFileError`` (a binary or non-UTF-8 file) passes through.
    """
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
