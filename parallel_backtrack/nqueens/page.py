"""What ``--html FILE`` does in the N-Queens command line: build the page from the run.

The step trace (``nqueens.trace``) and the run's report go to viz as plain data.

Glossary
--------
args
    The parsed command line (``html``, ``trace_limit``, ``n``, ``order``,
    ``workers``, ``find_one``, ``metrics``).
report
    The run's ``SearchReport``; its timeline is drawn when the run used more
    than one worker (or handed tasks to a pool).

Example: ``queens_html(args, report)`` writes the page and returns
``"wrote q.html (141 KB): 4,849 steps of the search"``.
"""

from __future__ import annotations

import argparse

from ..engine import SearchReport
from ..viz.page import Section, render_page, write_page
from ..viz.queens_page import queens_section, queens_title
from ..viz.timeline import timeline_section
from .orders import order_named
from .trace import MAX_TRACE_QUEENS, record_queens


def has_timeline(report: SearchReport | None) -> bool:
    return report is not None and (report.workers > 1 or report.backend != "serial")


def queens_html(args: argparse.Namespace, report: SearchReport | None) -> str:
    """Write the N-Queens page (the search trace, and the run's timeline); returns the
    line to print on stderr."""
    sections: list[Section] = []
    told = []
    if args.n <= MAX_TRACE_QUEENS:
        trace = record_queens(args.n, order_named(args.order), args.trace_limit)
        data = trace.as_data()
        sections.append(queens_section(data))
        told.append(f"{len(trace.kinds):,} steps of the search"
                    + (" (capped)" if trace.capped else ""))
        title = queens_title(data)
    else:
        told.append(f"no step trace: it shows at most {MAX_TRACE_QUEENS} queens, "
                    f"n = {args.n}")
        title = f"{args.n}-queens: the parallel count"
    if report is not None and has_timeline(report):
        sections.append(timeline_section(report, f"{args.n}-queens count"))
        told.append(f"the timeline of {report.tasks:,} tasks")
    if not sections:
        sections.append(Section("Nothing to draw", "", "empty", {}, (), (), [
            f"The step trace shows at most {MAX_TRACE_QUEENS} queens (n = {args.n}), and a "
            "one-worker run has no timeline: use --workers 2 or more."]))
    size = write_page(args.html, render_page(title, sections))
    return f"wrote {args.html} ({size / 1000:,.0f} KB): {', '.join(told)}"


def queens_html_problem(args: argparse.Namespace) -> str | None:
    """Why ``--html`` cannot draw this N-Queens command, or None (asked before the run)."""
    from ..engine import resolve_workers

    if getattr(args, "find_one", False) or args.metrics:
        return "--html draws the counting search; it does not go with --find-one or --metrics"
    if args.n > MAX_TRACE_QUEENS and resolve_workers(args.workers) == 1:
        return (f"--html: the step trace shows at most {MAX_TRACE_QUEENS} queens (n = "
                f"{args.n} would make a huge page), and a one-worker count has no timeline; "
                "use --workers 2 or more for the timeline alone")
    return None
