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


def gecode_25x25() -> list[tuple[str, str]]:
    """Gecode's 25x25 instances as ``(gecode index, puzzle line)``, in file order."""
    found = []
    for line in data_file("gecode_25x25.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            puzzle, _, note = line.partition("\t")
            found.append((note.strip(), puzzle.strip()))
    return found
