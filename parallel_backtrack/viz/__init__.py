"""Self-contained HTML pages of a search and of a parallel run (``--html FILE``).

Glossary
--------
page
    One HTML file with its CSS, JavaScript and data inline: it opens from
    ``file://`` and makes no network request (see ``page``).
trace
    A step-by-step record of a reference search (``queens_trace``,
    ``sudoku_trace``), capped at ``--trace-limit`` steps.
timeline
    A Gantt chart of a parallel run drawn from its ``SearchReport``.

This module re-exports only what imports no problem package (so a command line
pays for nothing it does not draw); the N-Queens and Sudoku pages live in
``viz.queens_page`` and ``viz.sudoku_page``.

Example: ``write_sliding_page("p.html", path, 3)`` animates a 3x3 solution path.
"""

from .connect4_page import write_connect4_page
from .page import DEFAULT_TRACE_LIMIT, PageError, check_target
from .sliding_page import check_path, write_sliding_page
from .timeline import timeline_data, write_timeline_page

__all__ = [
    "DEFAULT_TRACE_LIMIT",
    "PageError",
    "check_path",
    "check_target",
    "timeline_data",
    "write_connect4_page",
    "write_sliding_page",
    "write_timeline_page",
]
