"""Where the benchmark scripts find their data sets.

Glossary:
  data folder  a folder laid out as ``search/...`` and ``sudoku/...``: the one the
               environment variable PARALLEL_BACKTRACK_DATA names (it may hold the big
               optional sets, such as Tdoku's 49,158 17-clue Sudokus), else tests/data of
               this repository (tests/data/SOURCES names every file and its source).
"""

from __future__ import annotations

import os
from pathlib import Path

VARIABLE = "PARALLEL_BACKTRACK_DATA"
REPOSITORY_DATA = Path(__file__).resolve().parents[1] / "tests" / "data"


def data_folder() -> Path:
    """The folder PARALLEL_BACKTRACK_DATA names, else tests/data."""
    named = os.environ.get(VARIABLE, "").strip()
    return Path(named) if named else REPOSITORY_DATA


def data_path(relative: str) -> Path:
    """``relative`` (e.g. ``"search/korf100.txt"``) in the data folder, else in tests/data."""
    found = data_folder() / relative
    return found if found.exists() else REPOSITORY_DATA / relative
