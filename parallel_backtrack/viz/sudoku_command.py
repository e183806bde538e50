"""What ``--html FILE`` does in the Sudoku command line.

The page shows the reference search of the file's one puzzle with the chosen
propagation and order, step by step (``sudoku_trace``).  With ``--workers`` 2 or
more it also shows the timeline of a parallel run: the command's own run keeps
no report, so the page runs the same search once more through the engine (same
puzzle, order, kernel and workers) and draws that run, saying so.

Glossary
--------
args
    The parsed command line: ``html``, ``trace_limit``, ``propagation``,
    ``order``, ``kernel``, ``workers``, ``count`` (and the engine's ``backend``,
    ``budget``, ``budget_seconds``, ``per_worker``, ``scheduler_address`` where the
    command has them).

Example: ``sudoku_html(args, entries)`` returns ``None`` and leaves the page
written, or returns the one-line reason it cannot (the caller exits 2).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import engine
from ..sudoku.formats import PuzzleEntry
from ..sudoku.puzzle import ImmutableSudokuPuzzle, InvalidPuzzleError
from ..sudoku.search import space_for
from .page import PageError, Section, render_page, write_page
from .sudoku_page import sudoku_section, sudoku_title
from .sudoku_trace import MAX_TRACE_SIZE, record_sudoku
from .timeline import timeline_section


def _one_puzzle(entries: list[PuzzleEntry] | None) -> tuple[int, ...] | str:
    if entries is None or len(entries) != 1:
        found = "several" if entries is None else f"{len(entries)}"
        return f"--html shows one puzzle; the file holds {found} (keep one line or grid)"
    entry = entries[0]
    if entry.cells is None:
        return f"--html: line {entry.line}: {entry.error}"
    box = int(round(len(entry.cells) ** 0.25))
    if box * box > MAX_TRACE_SIZE:
        return (f"--html: a {box * box}x{box * box} puzzle is too big to show (the page "
                f"draws up to {MAX_TRACE_SIZE}x{MAX_TRACE_SIZE})")
    return entry.cells


def _timeline(args: argparse.Namespace, cells: tuple[int, ...]) -> Section | None:
    if engine.resolve_workers(args.workers) < 2:
        return None
    space = space_for(ImmutableSudokuPuzzle(cells, args.propagation), args.order, args.kernel)
    mode: Any = engine.count if args.count else engine.solve
    options: dict[str, Any] = {"workers": args.workers}
    for name in ("backend", "budget", "budget_seconds", "per_worker"):
        if getattr(args, name, None) is not None:  # the engine options the command has
            options[name] = getattr(args, name)
    if getattr(args, "scheduler_address", None) is not None:
        options.update(backend="dask", address=args.scheduler_address)
    if args.count and args.limit is not None:
        options["limit"] = args.limit
    report = mode(space, **options)
    section = timeline_section(report, f"{'count' if args.count else 'solve'} on "
                               f"{report.workers} workers")
    section.notes.insert(0, "The command keeps no report of its own run: this timeline is "
                         "of a second run of the same search (same puzzle, order, kernel "
                         "and workers), made to draw it.")
    return section


def sudoku_html(args: argparse.Namespace, entries: list[PuzzleEntry] | None) -> str | None:
    """Write the page for the file's one puzzle; the reason it cannot, or None."""
    cells = _one_puzzle(entries)
    if isinstance(cells, str):
        return cells
    try:
        trace = record_sudoku(cells, args.propagation, args.order, args.trace_limit)
    except InvalidPuzzleError as error:
        return f"--html: {error}"
    sections = [sudoku_section(trace)]
    timeline = _timeline(args, cells)
    if timeline is not None:
        sections.append(timeline)
    try:
        size = write_page(args.html, render_page(sudoku_title(trace), sections))
    except PageError as error:
        return str(error)
    steps = f"{len(trace.kinds):,} steps" + (" (capped)" if trace.capped else "")
    print(f"wrote {args.html} ({size / 1000:,.0f} KB): {steps}"
          + (", a timeline" if timeline is not None else ""), file=sys.stderr)
    return None
