"""Where the shared Sudoku sets live, and the lab's puzzle: one place for every test."""

from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "sudoku"
# Norvig's "hardest" givens, the lab's running example.
HARDEST = "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4."
