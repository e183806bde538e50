"""What ``--html FILE`` does in the Sudoku command line.

The page shows the reference search of the file's one puzzle with the chosen
propagation and order, step by step (``sudoku.trace``).  With ``--workers`` 2 or
more it also shows the timeline of the command's own parallel run, drawn from
the engine's report that ``runner.solve_entry_reported`` returns (a count with
several workers is two runs, a solve then a count: the page draws the count).

Glossary
--------
args
    The parsed command line: ``html``, ``trace_limit``, ``propagation``,
    ``order``, ``count``.
trace
    The recorded walk (``SudokuTrace``), made before the run: a puzzle the page
    cannot show is a usage error before any search starts.
reports
    The engine's ``SearchReport`` of each parallel run of the puzzle, in order
    (none for one worker).

Example: ``trace = html_trace(args, entries)`` (or ``PageError``, the one-line reason
it cannot be drawn), then after the run ``write_html(args, trace, reports)`` returns
the line to print on stderr.
"""

from __future__ import annotations

import argparse

from ..engine import SearchReport
from ..viz.page import PageError, render_page, write_page
from ..viz.sudoku_page import sudoku_section, sudoku_title
from ..viz.timeline import timeline_section
from .formats import PuzzleEntry
from .puzzle import InvalidPuzzleError
from .trace import MAX_TRACE_SIZE, SudokuTrace, record_sudoku


def _one_puzzle(entries: list[PuzzleEntry] | None) -> tuple[int, ...]:
    if entries is None or len(entries) != 1:
        found = "several" if entries is None else f"{len(entries)}"
        raise PageError(f"--html shows one puzzle; the file holds {found} (keep one line "
                        "or grid)")
    entry = entries[0]
    if entry.cells is None:
        raise PageError(f"--html: line {entry.line}: {entry.error}")
    box = int(round(len(entry.cells) ** 0.25))
    if box * box > MAX_TRACE_SIZE:
        raise PageError(f"--html: a {box * box}x{box * box} puzzle is too big to show (the "
                        f"page draws up to {MAX_TRACE_SIZE}x{MAX_TRACE_SIZE})")
    return entry.cells


def html_trace(args: argparse.Namespace, entries: list[PuzzleEntry] | None) -> SudokuTrace:
    """The step trace of the file's one puzzle; ``PageError`` (a usage error) when the
    page cannot show it."""
    cells = _one_puzzle(entries)
    try:
        return record_sudoku(cells, args.propagation, args.order, args.trace_limit)
    except InvalidPuzzleError as error:
        raise PageError(f"--html: {error}") from None


def write_html(args: argparse.Namespace, trace: SudokuTrace,
               reports: list[SearchReport]) -> str:
    """Write the page: the trace, and the timeline of the run's last parallel phase.
    Returns the line to print on stderr; raises ``PageError`` when it cannot write."""
    data = trace.as_data()
    sections = [sudoku_section(data)]
    if reports:
        report = reports[-1]
        what = "count" if report.mode != "first" else "solve"
        section = timeline_section(report, f"{what} on {report.workers} workers")
        if len(reports) > 1:
            section.notes.insert(0, f"This run first solved the puzzle ({reports[0].tasks:,} "
                                 f"tasks, {reports[0].seconds:.3f} s), then counted: the "
                                 "timeline shows the count.")
        sections.append(section)
    size = write_page(args.html, render_page(sudoku_title(data), sections))
    steps = f"{len(trace.kinds):,} steps" + (" (capped)" if trace.capped else "")
    return (f"wrote {args.html} ({size / 1000:,.0f} KB): {steps}"
            + (", the run's timeline" if reports else ""))
