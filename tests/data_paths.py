"""Where the tests find their data: the copies in tests/data, and the optional big sets.

Glossary:
  data folder      tests/data: the public sets the tests read, each named in tests/data/SOURCES,
                   laid out as ``search/...`` and ``sudoku/...``
  optional folder  a folder laid out the same way holding the sets too big to keep in the
                   repository (Tdoku's 49,158 17-clue puzzles); named by the environment
                   variable PARALLEL_BACKTRACK_DATA. Tests that need only such a set skip,
                   saying which file and which variable, when it is not set.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data"
OPTIONAL_VARIABLE = "PARALLEL_BACKTRACK_DATA"
# The sets too big for the repository (tests/data/SOURCES says where they come from).
OPTIONAL_SETS = frozenset({"sudoku/tdoku_puzzles2_17_clue.txt"})


def optional_folder() -> Path | None:
    """The folder PARALLEL_BACKTRACK_DATA names, or None when it is unset or empty."""
    named = os.environ.get(OPTIONAL_VARIABLE, "").strip()
    return Path(named) if named else None


def data_file(relative: str) -> Path:
    """``relative`` (e.g. ``"sudoku/norvig_top95.txt"``) in tests/data, else, for an optional
    set, in the optional folder. A missing optional set skips the test, naming the file and
    the variable; any other missing file is an error (the repository must hold it)."""
    if relative not in OPTIONAL_SETS:
        path = DATA / relative
        if not path.is_file():
            raise FileNotFoundError(f"{path} is missing: tests/data must hold it")
        return path
    folder = optional_folder()
    if folder is not None and (folder / relative).is_file():
        return folder / relative
    pytest.skip(f"optional data set {relative} not found: set {OPTIONAL_VARIABLE} to a folder "
                f"holding it (laid out like tests/data; sources in tests/data/SOURCES)")
