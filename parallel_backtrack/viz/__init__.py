"""Self-contained HTML pages of a search and of a parallel run (``--html FILE``).

Glossary
--------
page
    One HTML file with its CSS, JavaScript and data inline: it opens from
    ``file://`` and makes no network request (see ``page``).
trace
    A step-by-step record of a reference search, as plain data: the problem
    packages record it (``nqueens.trace``, ``sudoku.trace``), capped at
    ``--trace-limit`` steps, and viz draws it (``queens_page``, ``sudoku_page``).
timeline
    A Gantt chart of a parallel run drawn from its ``SearchReport``.
options
    ``--html`` and ``--trace-limit`` (``viz.options``), which a command line adds.

viz draws plain data and imports no problem package: a problem's command line
calls viz, never the reverse (``tests/test_engine_imports.py`` checks it).

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
