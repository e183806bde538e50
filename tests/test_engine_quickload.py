"""Loading cached kernels without numba's compiler set-up: the kernels still give the
right answers, the set-up is really skipped, and compiling still works."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import numba
import numpy as np

from parallel_backtrack.engine import quickload
from parallel_backtrack.engine.quickload import quick_loads

ROOT = Path(__file__).resolve().parents[1]
# numba imports this module only in the refresh that quick_loads skips.
SKIPPED = "numba.np.linalg"

COUNT_8_QUEENS = f"""
import sys
from parallel_backtrack.engine import count, sequential_count
from parallel_backtrack.nqueens.board import ImmutableQueenLocations
from parallel_backtrack.nqueens.space import QueensSpace
board = ImmutableQueenLocations(8)
fast = count(QueensSpace(board), workers=1).count  # the compiled kernels
reference = sequential_count(QueensSpace(board, kernel="reference")).count  # pure Python
print(fast, reference, {SKIPPED!r} in sys.modules)
"""


def _run(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=True)
    return done.stdout.split()


def test_a_fresh_process_loads_the_kernels_without_numbas_compiler_set_up():
    _run(COUNT_8_QUEENS)  # compiles into the cache if it is not there yet
    fast, reference, set_up = _run(COUNT_8_QUEENS)
    assert fast == reference
    assert set_up == "False"


def test_without_the_block_numba_sets_its_compiler_up_as_usual():
    plain = ("import contextlib\nimport parallel_backtrack.engine.worker as worker\n"
             "worker.quick_loads = contextlib.nullcontext\n")
    _run(COUNT_8_QUEENS)
    fast, reference, set_up = _run(plain + COUNT_8_QUEENS)
    assert fast == reference
    assert set_up == "True"


def test_a_function_compiled_inside_the_block_is_compiled_in_full():
    with quick_loads():
        @numba.njit
        def spread(values):  # sorting and array methods need numba's full compiler
            ordered = np.sort(values)
            return ordered[-1] - ordered[0] + len([1, 2, 3])

        data = np.array([5, 1, 9, 3])
        assert spread(data) == 9 - 1 + 3


def test_blocks_in_several_threads_leave_numba_as_it_was():
    barrier = threading.Barrier(4)

    def enter_and_leave():
        barrier.wait()
        for _ in range(50):
            with quick_loads():
                pass

    threads = [threading.Thread(target=enter_and_leave) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert quickload._state["active"] == 0
