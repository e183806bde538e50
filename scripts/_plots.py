"""The scaling plots: small PNGs for docs/results.md (matplotlib, from the ``plot`` extra).

Glossary
--------
measured
    Whole-process medians, as points joined by a solid line.
predicted
    The list-scheduling simulation of the measured tasks, dashed (and, when
    given, the whole process with its serial start, dotted).

Example: ``speedup_plot(rows, predicted, None, path, "N-Queens n = 17")``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 - the backend must be chosen first

SIZE = (6.4, 3.4)
DPI = 100


def _save(figure: Any, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.tight_layout()
    figure.savefig(path, dpi=DPI)
    plt.close(figure)
    return path


def speedup_plot(measured: Sequence[dict[str, Any]], predicted: Sequence[dict[str, Any]],
                 whole: Sequence[dict[str, Any]] | None, path: Path, title: str,
                 virtual: Sequence[dict[str, Any]] | None = None) -> Path:
    """Speedup and efficiency against workers: measured points, the simulated
    scheduling dashed, the simulated whole process dotted and the real scheduler on
    virtual workers dash-dotted (as run, and with the tasks replayed so the parent's
    caches stay warm)."""
    figure, (left, right) = plt.subplots(1, 2, figsize=SIZE)
    top = max([r["workers"] for r in predicted] + [r["workers"] for r in measured]
              + [r["workers"] for r in virtual or []])
    left.plot([1, top], [1, top], color="0.8", lw=1, label="ideal")
    for axis, key in ((left, "speedup"), (right, "efficiency")):
        axis.plot([r["workers"] for r in predicted], [r[key] for r in predicted], "--",
                  color="C1", label="simulated scheduling")
        if whole:
            axis.plot([r["workers"] for r in whole], [r[key] for r in whole], ":",
                      color="C2", label="simulated whole process")
        if virtual:
            axis.plot([r["workers"] for r in virtual], [r[key] for r in virtual], "-.",
                      color="C3", label="scheduler on virtual workers")
            warm = [r for r in virtual if f"{key}_warm" in r]
            if warm:
                axis.plot([r["workers"] for r in warm], [r[f"{key}_warm"] for r in warm],
                          "-.", color="C4", label="the same, parent's caches warm")
        axis.plot([r["workers"] for r in measured], [r[key] for r in measured], "o-",
                  color="C0", label="measured")
        axis.set_xscale("log", base=2)
        axis.set_xlabel("workers")
        axis.grid(alpha=0.3)
    left.set_yscale("log", base=2)
    left.set_ylabel("speedup")
    right.set_ylabel("efficiency")
    right.set_ylim(0, 1.05)
    left.legend(fontsize=7, loc="upper left")
    figure.suptitle(title, fontsize=10)
    return _save(figure, path)


def histogram_plot(seconds: Sequence[float], path: Path, title: str) -> Path:
    """How long the tasks ran (log-spaced bins, so tiny and budget-long tasks both show)."""
    import numpy as np

    figure, axis = plt.subplots(figsize=SIZE)
    positive = [s for s in seconds if s > 0] or [1e-6]
    bins = np.logspace(np.log10(min(positive)), np.log10(max(positive)) + 1e-9, 40)
    axis.hist(positive, bins=bins, color="C0")
    axis.set_xscale("log")
    axis.set_xlabel("task duration (s)")
    axis.set_ylabel("tasks")
    axis.set_title(title, fontsize=10)
    axis.grid(alpha=0.3)
    return _save(figure, path)


def granularity_plot(rows: Sequence[dict[str, Any]], path: Path, title: str) -> Path:
    """Wall time and overhead share against the subtrees per worker of the first cut."""
    figure, axis = plt.subplots(figsize=SIZE)
    xs = [r["per_worker"] for r in rows]
    axis.plot(xs, [r["wall_s"] for r in rows], "o-", color="C0", label="wall time")
    axis.set_xscale("log")
    axis.set_xlabel("subtrees per worker in the first cut (--per-worker)")
    axis.set_ylabel("wall time (s)", color="C0")
    axis.set_ylim(bottom=0)
    other = axis.twinx()
    other.plot(xs, [100 * r["overhead"] for r in rows], "s--", color="C3", label="overhead")
    other.set_ylabel("overhead (% of worker time)", color="C3")
    other.set_ylim(bottom=0)
    axis.set_title(title, fontsize=10)
    axis.grid(alpha=0.3)
    return _save(figure, path)
