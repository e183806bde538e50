"""Faster start-up for the processes our command lines own.

The first time numba loads a compiled kernel it imports scipy (to look for BLAS)
and cffi (to type cffi functions).  Our kernels use neither, and the two imports
cost 0.2-0.3 s per process: a tenth of a short run, paid again by every worker
a process pool starts.  Importing numpy starts OpenBLAS's thread pool, one thread
per core, which nothing here uses: 0.05-0.06 s of CPU per process (and of wall
time when the other cores are busy).  ``apply()`` keeps scipy and cffi out and
asks for one OpenBLAS thread (unless ``OPENBLAS_NUM_THREADS`` is set), but only
where nothing else can want them:

* in a process started as one of our command lines
  (``python -m parallel_backtrack.nqueens``, ``...sudoku`` and the rest, or the
  ``parallel-backtrack`` script), and
* in the processes those start (their worker pools), through the environment
  variable ``PARALLEL_BACKTRACK_LEAN=1`` that they inherit.

A program that imports ``parallel_backtrack`` as a library is never touched, and
``PARALLEL_BACKTRACK_LEAN=0`` turns this off everywhere.

Glossary
--------
kept out
    ``sys.modules[name] = None``: ``import name`` then fails at once with
    ImportError, which numba treats as "not installed".
"""

from __future__ import annotations

import os
import signal
import sys

ENV = "PARALLEL_BACKTRACK_LEAN"
COMMANDS = ("parallel_backtrack", "parallel_backtrack.nqueens", "parallel_backtrack.sudoku",
            "parallel_backtrack.sliding", "parallel_backtrack.games")
SCRIPT = "parallel-backtrack"  # the console script of ``parallel_backtrack.__main__``
KEPT_OUT = ("scipy", "cffi")
BLAS_THREADS = "OPENBLAS_NUM_THREADS"


def started_as_command(argv: list[str] | None = None) -> bool:
    """Is this process ``python [options] -m parallel_backtrack[.<family>]``, or the
    ``parallel-backtrack`` script?

    Only the interpreter's own options count: a script (``python script.py -m ...``),
    ``-c`` or ``-`` ends them, and whatever follows belongs to that program; the
    script is ours when its file is named ``parallel-backtrack``."""
    words = list(getattr(sys, "orig_argv", []) if argv is None else argv)[1:]
    index = 0
    while index < len(words) and words[index].startswith("-") and words[index] != "-":
        word = words[index]
        index += 1
        if word == "--":  # the end of the options: a script follows
            return False
        if word.startswith("--"):  # --version, --check-hash-based-pycs MODE, ...
            index += word == "--check-hash-based-pycs"
            continue
        for at, flag in enumerate(word[1:], start=2):  # bundled flags: -Bm, -Ximporttime
            if flag == "m":
                module = word[at:] or (words[index] if index < len(words) else "")
                return module in COMMANDS
            if flag == "c":
                return False
            if flag in "XW":  # their value is the rest of the word or the next word
                index += not word[at:]
                break
    return index < len(words) and os.path.basename(words[index]) == SCRIPT


def apply() -> bool:
    """Keep scipy and cffi out of this process, and OpenBLAS to one thread, if it is one
    of ours; True if so."""
    setting = os.environ.get(ENV)
    if setting == "0" or (setting != "1" and not started_as_command()):
        return False
    os.environ[ENV] = "1"  # the worker processes we start inherit it
    os.environ.setdefault(BLAS_THREADS, "1")  # read when numpy loads OpenBLAS
    for name in KEPT_OUT:
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]
    return True


def quiet_start() -> bool:
    """In a command line: a Ctrl-C while it is still importing ends it quietly with
    status 130, not with a traceback, until ``_cli.run_process`` puts Python's own
    handler back.  True if this is a command line."""
    if not started_as_command():
        return False
    signal.signal(signal.SIGINT, _interrupted_while_starting)
    return True


def _interrupted_while_starting(signum: int, frame: object) -> None:
    os._exit(130)  # nothing has started yet: no pool, no output to flush
