"""Files to batches and batches to text: the compiled reader with the general one behind it.

A file is read in slices of some ``SLICE_BYTES`` of whole lines (``FileSlices``), so
memory does not grow with its length; ``parse_batch`` reads a text whole.  A slice of
81-symbol lines (and blank or ``#`` comment lines) is read in numpy alone
(``_plain_9x9``), so a first run on 9x9 puzzles compiles no reader; any other slice of
clean puzzle lines is read by ``kernel.read`` in one compiled pass; any other slice
(grids, spaced numbers, unreadable or over-long lines, mixed sizes, binary data) goes
through ``files.read_slice``, so every layout it reads is read here too and every
message about a bad line is its own.  Line numbers and the file's first puzzle (whose
size is the file's) carry from slice to slice, and a grid open at a slice's end goes to
the next one whole, so a file reads the same in slices as whole.  Givens that
contradict each other are found in bulk and worded by ``puzzle.check_givens``, values
out of range by ``formats.range_problem`` (the symbol as typed).

Glossary
--------
slice, place
    Whole lines of a file, and where they start (``files.SlicePlace``: the bytes and
    lines before them, the file's first puzzle so far).
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

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from .._output import held_signals
from .._text import without_bom
from .files import SlicePlace, read_slice
from .formats import MAX_LINE_LENGTH, PuzzleEntry, cell_symbols, format_line, range_problem
from .kernel.read import SYMBOLS, Batch, broken_rows, read_clean, symbol_lines
from .puzzle import InvalidPuzzleError, check_givens

__all__ = ["Batch", "FileSlices", "parse_batch", "parse_slice", "puzzle_lines", "read_batch"]
SLICE_ROWS = 4096  # rows of a file read or checked at once (small temporaries)
SLICE_BYTES = 1 << 21  # bytes of a file read, solved and written at once (25,000 9x9 lines)


# The bytes of a slice of puzzle lines: cell symbols, CR and LF.
_LINE_BYTES = bytes(byte for byte in range(256) if SYMBOLS[byte] >= 0 or byte in b"\r\n")


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
        symbols = cell_symbols(text.decode("utf-8", "replace"))
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
    if raw.isascii():  # the common file, checked without decoding it
        return b"\0" not in raw
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
    """Puzzles from the whole text of a file, in memory; see ``read_batch``."""
    raw = text.encode() if isinstance(text, str) else bytes(text)
    return parse_slice(without_bom(raw), SlicePlace(), True)[0]


def parse_slice(data: bytes, place: SlicePlace, last: bool) -> tuple[Batch, int, SlicePlace]:
    """The puzzles of ``data``, whole lines of a file from ``place`` on (``last``: to its
    end, else a grid open at its end is left to the next slice: ``files.read_slice``),
    numbered and worded as if the whole file were read at once; the bytes taken and the
    place after them.  The fast readers take a slice whose puzzles are of the file's size.
    """
    fast = _fast(data) if _decodes(data) else None
    if fast is not None and (place.first is None or place.first.box == fast.box):
        return _after_fast(fast, data, place)
    entries, used, after = read_slice(data, place, last)
    return _from_entries(entries), used, after


def _fast(raw: bytes) -> Batch | None:
    """The batch of a slice of clean puzzle lines (numbered from 1), or None."""
    plain = _plain_9x9(raw)
    if plain is not None:
        return plain
    clean = read_clean(raw, MAX_LINE_LENGTH)
    if clean is None:
        return None
    box, givens, lines = clean
    return _validated(box, givens, lines, [], raw)


def _after_fast(batch: Batch, data: bytes, place: SlicePlace) -> tuple[Batch, int, SlicePlace]:
    """A fast reader's batch of a whole slice, its lines counted on from ``place``."""
    first = min([*batch.lines[:1].tolist(), *(line for line, _ in batch.errors[:1])])
    shifted = Batch(batch.box, batch.givens, batch.lines + place.line,
                    [(line + place.line, reason) for line, reason in batch.errors])
    return shifted, len(data), _place_after(data, place, batch.box, first)


def _place_after(data: bytes, place: SlicePlace, box: int, first: int) -> SlicePlace:
    """The place after a slice of puzzle lines (a fast reader's), its first puzzle at line
    ``first`` of it: the file's first, unless one came before (only its line and size
    matter)."""
    lines = int(np.count_nonzero(np.frombuffer(data, np.uint8) == 10)) + (
        not data.endswith(b"\n"))
    return SlicePlace(place.offset + len(data), place.physical + lines, place.line + lines,
                      place.first or PuzzleEntry(place.line + first, cells=(0,) * box**4))


def _plain_count(raw: bytes) -> tuple[int, int] | None:
    """(puzzles, the line of the first) of a slice of only 81-symbol and blank lines (as
    ``_plain_9x9`` reads them), counted without reading them; None for any other."""
    data = np.frombuffer(raw, dtype=np.uint8)
    returns = np.flatnonzero(data == 13)
    if not raw or raw.translate(None, _LINE_BYTES) or (
            len(returns) and (returns[-1] + 1 == len(data) or (data[returns + 1] != 10).any())):
        return None  # another byte, or a CR that ends no line
    ends = np.flatnonzero(data == 10)
    if not raw.endswith(b"\n"):
        ends = np.append(ends, len(data))
    lengths = ends - np.concatenate(([0], ends[:-1] + 1))
    lengths -= (lengths > 0) & (data[np.maximum(ends - 1, 0)] == 13)
    full = lengths > 0
    if not full.any() or (lengths[full] != 81).any():
        return None
    return int(full.sum()), int(np.argmax(full)) + 1


def _from_entries(entries: list[PuzzleEntry]) -> Batch:
    """The general reader's entries (grids, spaced cells, bad lines) as a batch.

    ``files.PuzzleFileError`` (a binary or non-UTF-8 file) passes through.
    """
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


class FileSlices:
    """The puzzles of a file (``read(size)``: its next bytes), one batch per slice of some
    ``slice_bytes`` bytes of whole lines (more for a grid or a line that does not fit), numbered and
    worded as ``parse_batch`` would the whole file: memory stays bounded however long the
    file.  ``entries`` counts the puzzles and bad lines of the slices read so far."""

    def __init__(self, read: Callable[[int], bytes], slice_bytes: int = SLICE_BYTES) -> None:
        self._read, self._slice_bytes = read, slice_bytes
        self._place, self._buffer, self._ended, self._fresh = SlicePlace(), b"", False, True
        self._want, self.entries = slice_bytes, 0

    def __iter__(self) -> Iterator[Batch]:
        while (data := self._next_slice()) is not None:
            batch, used, place = parse_slice(data, self._place, self._last(data))
            with held_signals():  # a Ctrl-C leaves the count right (``total``)
                self._place = place
                self._take(used)
                self.entries += (len(batch.givens) + len(batch.errors)) if used else 0
            if used:
                yield batch

    def total(self) -> int:
        """The puzzles and bad lines of the whole file: those of the slices not read yet
        are counted (a file of 81-symbol lines without solving or checking them)."""
        while (data := self._next_slice()) is not None:
            plain = _plain_count(data)
            if plain is None:
                batch, used, self._place = parse_slice(data, self._place, self._last(data))
                self.entries += (len(batch.givens) + len(batch.errors)) if used else 0
            else:
                used, self._place = len(data), _place_after(data, self._place, 3, plain[1])
                self.entries += plain[0]
            self._take(used)
        return self.entries

    def _next_slice(self) -> bytes | None:
        """Whole lines, some ``slice_bytes`` of them (all the rest at the end of the file);
        None once it is all read."""
        parts = [self._buffer]
        while not self._ended and (sum(map(len, parts)) < self._want or b"\n" not in parts[-1]):
            chunk = self._read(self._slice_bytes)
            self._ended = not chunk
            parts.append(chunk)
        self._buffer = b"".join(parts)
        if self._fresh:
            self._buffer, self._fresh = without_bom(self._buffer), False
        if not self._buffer:
            return None
        return self._buffer[:len(self._buffer) if self._ended else self._buffer.rfind(b"\n") + 1]

    def _last(self, data: bytes) -> bool:
        return self._ended and len(data) == len(self._buffer)

    def _take(self, used: int) -> None:
        """Drop the bytes read; none taken (a grid that starts the slice): read more."""
        self._want = self._slice_bytes if used else len(self._buffer) + self._slice_bytes
        self._buffer = self._buffer[used:]


def read_batch(path: str | os.PathLike[str]) -> Batch:
    """Every puzzle of a file as one array, with the lines that hold none (in memory:
    ``FileSlices`` reads a file slice by slice).

    One-line puzzles (``puzzle``, ``puzzle:count``, ``puzzle<TAB>name``) are
    read in one compiled pass; other layouts fall back to ``formats``.  The
    batch takes the size of the file's first puzzle.
    """
    return parse_batch(Path(path).read_bytes())
