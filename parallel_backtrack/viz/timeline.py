"""The timeline of a parallel run: one lane per worker, one bar per task.

Everything drawn comes from the run's ``SearchReport`` (what ``--stats`` prints).

Glossary
--------
lane
    A row of the chart: ``parent`` (the parent's own probe rounds, run before the
    pool is warm) and one per worker process, in natural order of their labels.
    A worker that ran no task still gets an empty lane, so there are always
    ``report.workers`` worker lanes.
bar
    One task: it starts at ``task_starts[i]`` seconds into the run and lasts
    ``task_seconds[i]``.  A report without start times (older, or replayed) has
    its bars packed back to back in each lane, and the page says so.
handed back
    A task whose budget ran out hands its unexplored rest back to the parent;
    the tasks that continued it name it in ``task_parents``.
speedup, efficiency
    Busy seconds of all tasks over the wall-clock seconds of the run (the
    speedup over one core doing the same tasks, dispatch not counted), and
    that divided by the number of workers.
parent's own time
    Dispatch, collect and setup: the serial part (Amdahl's) of the run.

Example: ``timeline_data(report)["lanes"]`` is ``["parent", "pid101", "pid102"]``
for a two-worker loky run.
"""

from __future__ import annotations

import re
from typing import Any

from ..engine import SearchReport
from .page import Section, render_page, write_page

MAX_BARS = 20_000
LEGEND = (
    ("#7a8699", "the parent's own search (probe rounds before the pool is warm)"),
    ("#3b82c4", "a task on a subtree of the initial cut"),
    ("#8e5cc4", "a task continuing a leftover another task handed back"),
    ("#f08c00", "orange edge: this task ran out of budget and handed back leftovers"),
)
BODY = (
    '<div class="row2"><div id="timeline-chart" class="chart"></div>'
    '<div id="timeline-side"></div></div><div id="timeline-tip" class="tip"></div>'
)


def _natural(label: str) -> list[Any]:
    """``virtual10`` after ``virtual9``: digits compare as numbers."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", label)]


def _lanes(report: SearchReport) -> list[str]:
    workers = sorted({w for w in report.task_workers if w != "parent"}, key=_natural)
    missing = max(0, report.workers - len(workers))
    return ["parent"] + workers + [f"worker {len(workers) + k + 1} (no task)"
                                   for k in range(missing)]


def _starts(report: SearchReport) -> tuple[list[float], bool]:
    """Each task's start, and whether they were measured (else packed per lane)."""
    starts = list(report.task_starts)
    if len(starts) == report.tasks and all(s >= 0 for s in starts):
        return starts, True
    ends: dict[str, float] = {}
    packed = []
    for seconds, worker in zip(report.task_seconds, report.task_workers):
        packed.append(ends.get(worker, 0.0))
        ends[worker] = packed[-1] + seconds
    return packed, False


def timeline_data(report: SearchReport) -> dict[str, Any]:
    """The chart's data: lanes, bars and the figures shown beside it."""
    lanes = _lanes(report)
    starts, measured = _starts(report)
    continued: dict[int, list[int]] = {}
    for index, parent in enumerate(report.task_parents):
        if parent >= 0:
            continued.setdefault(parent, []).append(index)
    subtrees = report.task_subtrees if len(report.task_subtrees) == report.tasks else []
    bars = [
        [lanes.index(worker), round(start, 6), round(seconds, 6), nodes, parent,
         continued.get(index, []), subtrees[index] if subtrees else ""]
        for index, (start, seconds, worker, nodes, parent) in enumerate(zip(
            starts, report.task_seconds, report.task_workers, report.task_nodes,
            report.task_parents))
    ][:MAX_BARS]
    return {"lanes": lanes, "bars": bars, "measured": measured, "summary": _summary(report),
            "shown": len(bars), "tasks": report.tasks}


def _summary(report: SearchReport) -> dict[str, Any]:
    busy = sum(s for s, w in zip(report.task_seconds, report.task_workers) if w != "parent")
    wall = report.seconds
    speedup = busy / wall if wall > 0 else 0.0
    return {
        "mode": report.mode, "workers": report.workers, "backend": report.backend,
        "seconds": wall, "tasks": report.tasks, "nodes": report.nodes,
        "count": report.count, "frontier": report.frontier, "depth": report.split_depth,
        "speedup": speedup, "efficiency": speedup / report.workers if report.workers else 0.0,
        "dispatch": report.dispatch_seconds, "collect": report.collect_seconds,
        "setup": report.setup_seconds, "complete": report.complete,
        "parent_search": sum(s for s, w in zip(report.task_seconds, report.task_workers)
                             if w == "parent"),
        "idle": {s.worker: round(s.idle_seconds, 6) for s in report.worker_stats()},
        "busy": {s.worker: round(s.busy_seconds, 6) for s in report.worker_stats()},
    }


def timeline_section(report: SearchReport, what: str = "") -> Section:
    """The timeline section of a page."""
    data = timeline_data(report)
    notes = []
    if not data["measured"]:
        notes.append("This report holds no task start times: each lane's bars are packed "
                     "back to back (their lengths are measured, their places are not).")
    if data["shown"] < report.tasks:
        notes.append(f"Only the first {data['shown']:,} of {report.tasks:,} tasks are drawn.")
    if report.task_workers and all(w == "parent" for w in report.task_workers):
        notes.append("The parent's own search (its probe rounds) finished the run before "
                     "any task reached a worker: the worker lanes are empty and the "
                     "speedup is 0.")
    if not report.complete:
        why = f" ({report.stop_reason})" if report.stop_reason else ""
        found = (f": its count of {report.count:,} is a lower bound"
                 if report.mode == "count" else "")
        notes.append(f"The run stopped before its search ended{why}{found}; the chart "
                     "shows the tasks that ran until then.")
    heading = f"Timeline of the parallel run{': ' + what if what else ''}"
    return Section(heading, BODY, "timeline", data, ("player.js", "timeline.js"), LEGEND, notes)


def write_timeline_page(path: str, report: SearchReport, what: str = "") -> int:
    """Write a page holding the timeline alone (any problem's report); returns its size."""
    title = "Timeline of a parallel run" + (f": {what}" if what else "")
    return write_page(path, render_page(title, [timeline_section(report, what)]))
