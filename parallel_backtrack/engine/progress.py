"""The progress bar of a long search: a tqdm bar on stderr.

Glossary
--------
done / pending
    Tasks collected so far / work items waiting in the parent or running.  The
    bar's total is their sum, so it grows while tasks hand back leftovers and
    fills up as the tail drains.
rate
    Nodes per second since the search started (tqdm's own rate counts tasks).

Example line: ``search  41%|####   | 830/2010 [00:12<00:17, 66 task/s,
pending=1180, nodes=1.2e+09, solutions=4.1e+06, nodes/s=9.8e+07]``.
"""

from __future__ import annotations

import sys
import time
from typing import Any

# Seconds between redraws: cheap for the scheduler loop, lively enough for people.
MININTERVAL = 0.5


class ProgressBar:
    """Shows done and pending tasks, nodes, solutions, nodes/s and elapsed time."""

    def __init__(self) -> None:
        self._bar: Any = None
        self._started = time.perf_counter()

    def update(self, done: int, pending: int, nodes: int, solutions: int) -> None:
        if self._bar is None:  # tqdm starts a thread: only now, after any fork server
            from tqdm import tqdm  # type: ignore[import-untyped]

            self._bar = tqdm(desc="search", unit="task", file=sys.stderr,
                             mininterval=MININTERVAL, leave=False, total=0)
        self._bar.total = done + pending
        self._bar.update(done - self._bar.n)
        elapsed = max(time.perf_counter() - self._started, 1e-9)
        self._bar.set_postfix(pending=pending, nodes=f"{nodes:.3g}",
                              solutions=f"{solutions:.3g}",
                              **{"nodes/s": f"{nodes / elapsed:.3g}"}, refresh=False)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def wanted(progress: bool | None) -> bool:
    """A bar when asked, or (None) when stderr is a terminal."""
    return sys.stderr.isatty() if progress is None else progress


def progress_bar(progress: bool | None) -> ProgressBar | None:
    """A bar when asked, or (None) when stderr is a terminal; else no bar."""
    return ProgressBar() if wanted(progress) else None
