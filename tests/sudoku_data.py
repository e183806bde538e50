"""Where the Sudoku sets live, and the lab's puzzle: one place for every test.

DATA is tests/data/sudoku (the sets the tests read, see tests/data/SOURCES); ``sudoku_file``
also looks in the optional folder PARALLEL_BACKTRACK_DATA names, for the sets too big to keep.
"""

from pathlib import Path

import data_paths

FIXTURES = data_paths.DATA
DATA = FIXTURES / "sudoku"
# Norvig's "hardest" givens, the lab's running example.
HARDEST = "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4."


def sudoku_file(name: str) -> Path:
    """``sudoku/<name>`` in tests/data or the optional folder; skips the test, naming the
    file and the variable, when neither holds it."""
    return data_paths.data_file(f"sudoku/{name}")


def data_file(name: str) -> Path:
    """The optional folder's copy of a set when there is one, else the copy in tests/data
    (Gecode's 25x25 set is kept at the top of tests/data)."""
    optional = data_paths.optional_folder()
    if optional is not None and (optional / "sudoku" / name).is_file():
        return optional / "sudoku" / name
    return FIXTURES / name


def _indexed_lines(path: Path) -> list[tuple[str, str]]:
    """``(text after the tab, line before it)`` for each line that is no comment."""
    found = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            puzzle, _, note = line.partition("\t")
            found.append((note.strip(), puzzle.strip()))
    return found


def gecode_25x25() -> list[tuple[str, str]]:
    """Gecode's 25x25 instances as ``(gecode index, puzzle line)``, in file order."""
    return _indexed_lines(data_file("gecode_25x25.txt"))


def gecode_25x25_solutions() -> dict[str, str]:
    """The unique solution of each Gecode 25x25 instance (found by a SAT solver), by index."""
    return dict(_indexed_lines(FIXTURES / "gecode_25x25_solutions.txt"))
