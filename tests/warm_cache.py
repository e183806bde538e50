"""Compile every kernel the tests use, and build the 15-puzzle's 6-6-3 databases, once.

Many tests run a command line and read its stderr: a kernel compiled inside such a
test adds its compile notice there (and half a minute to the test's time limit). So
the kernels are compiled first, through the command lines, and a marker file in the
cache root records that they were for these sources.  ``tests/conftest.py`` runs this
at the start of a pytest session when the marker is missing (the first run after an
install or a kernel edit, a few minutes), and ``.ci/run`` runs it as a script.

Glossary
--------
marker
    ``<cache root>/tests-warm-<16 hex>``: the hash names the kernel directories'
    stamps, the Python and numba versions and the pattern-database folder; the
    6-6-3 databases must be there as well for the cache to count as warm.

Run: ``python tests/warm_cache.py`` (the compile notices go to stderr; exit 1 when a
command failed, naming it).
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EIGHT = "8 1 3 4 0 2 7 6 5"
KORF12 = "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15"  # Korf's #12: 45 moves, 546,344 nodes
SUDOKU17 = "...4......5..8.2.6.....3...2...4....3......1...5.3.8.25...6.3.8..6....95..8......"
C4 = "37234435274221627173"
NQUEENS = "parallel_backtrack.nqueens"
SLIDING = "parallel_backtrack.sliding"
SUDOKU = "parallel_backtrack.sudoku"
# (arguments after ``python``, standard input): every compiled kernel the tests use.
COMMANDS: list[tuple[list[str], str]] = [
    (["-m", NQUEENS, "--n", "12", "--workers", "1", "--no-progress"], ""),
    *((["-m", NQUEENS, "--n", "40", "--find-one", "--method", method, "--seed", "1",
        "--workers", "1"], "")
      for method in ("min-conflicts", "hill-climbing", "annealing", "genetic", "constructive")),
    (["-c", "from parallel_backtrack.sudoku.warm import warm_up; warm_up()"], ""),
    (["-c", "from parallel_backtrack.sudoku.cdcl import warm_up; warm_up()"], ""),
    # the 9x9 band kernel (the default for plain 9x9 files), solving and counting
    (["-m", SUDOKU, "-"], SUDOKU17),
    (["-m", SUDOKU, "-", "--count"], SUDOKU17),
    # the IDA* kernel with each heuristic, the exact 8-puzzle databases and the
    # 15-puzzle's 6-6-3 ones (under a minute to build), the parallel pass and A*
    *((["-m", SLIDING, "-", "--heuristic", heuristic], EIGHT)
      for heuristic in ("hamming", "manhattan", "linear", "pdb")),
    *((["-m", SLIDING, "-", "--goal", "blank-first", "--heuristic", heuristic,
        "--workers", "2"], KORF12) for heuristic in ("manhattan", "pdb-663")),
    (["-m", SLIDING, "-", "--goal", "blank-first", "--algorithm", "astar"], KORF12),
    # Connect-Four: the compiled solver, alone and split over 2 workers
    (["-m", "parallel_backtrack.games", "connect4", C4], ""),
    (["-m", "parallel_backtrack.games", "connect4", C4, "--workers", "2"], ""),
]


def marker() -> Path:
    """The marker file of these sources, this Python and numba, and this database folder."""
    from parallel_backtrack import _jit_paths
    from parallel_backtrack.sliding.pdbfiles import cache_dir

    digest = hashlib.sha256()
    for directory in _jit_paths.kernel_directories():
        digest.update(f"{directory.name}:{_jit_paths.directory_stamp(directory)}\n".encode())
    digest.update(f"{sys.version}\n{version('numba')}\n{cache_dir()}\n".encode())
    return _jit_paths.cache_root() / f"tests-warm-{digest.hexdigest()[:16]}"


def is_warm() -> bool:
    """Were the kernels compiled for these sources, and are the 6-6-3 databases there?"""
    from parallel_backtrack.sliding.pdbfiles import paths

    return marker().is_file() and all(path.is_file() for path in paths(4, "pdb-663"))


def warm(quiet: bool = False) -> list[str]:
    """Run every command (``quiet``: their stderr kept, not shown); write the marker
    when all succeed.  Returns a line for each command that failed."""
    failed = []
    for arguments, stdin in COMMANDS:
        done = subprocess.run([sys.executable, *arguments], input=stdin + "\n", text=True,
                              stdout=subprocess.DEVNULL, cwd=ROOT,
                              stderr=subprocess.PIPE if quiet else None)
        if done.returncode != 0:
            tail = (done.stderr or "").strip().splitlines()[-1:]
            failed.append(f"python {' '.join(arguments)}: exit {done.returncode}"
                          + (f": {tail[0]}" if tail else ""))
    if not failed:
        place = marker()
        try:
            place.parent.mkdir(parents=True, exist_ok=True)
            place.touch()
        except OSError:  # a cache root that cannot be written: warmed again next time
            pass
    return failed


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))  # (``python tests/warm_cache.py`` from a checkout)
    problems = warm()
    for line in problems:
        print(f"warm_cache: failed: {line}", file=sys.stderr)
    sys.exit(1 if problems else 0)
