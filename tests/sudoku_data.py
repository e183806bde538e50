"""Where the shared Sudoku sets live, and the lab's puzzle: one place for every test."""

from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "sudoku"
FIXTURES = Path(__file__).resolve().parent / "data"
# Norvig's "hardest" givens, the lab's running example.
HARDEST = "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4."


def data_file(name: str) -> Path:
    """The shared copy of a data set when it exists, else the small copy in tests/data."""
    shared = DATA / name
    return shared if shared.is_file() else FIXTURES / name


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
