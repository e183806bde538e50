"""A quick start: ``--help`` and usage errors load neither numba, numpy nor the engine's
pools, and the lazy packages still hand out every name they list."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Modules a command line needs only once it searches.
HEAVY = ("numba", "numpy", "multiprocessing", "cloudpickle", "loky",
         "parallel_backtrack.engine.executors", "parallel_backtrack.engine.dask_executor",
         "parallel_backtrack.engine.scheduler", "parallel_backtrack.engine.worker")


def _loaded_after(module: str, args: list[str]) -> tuple[int, list[str], str]:
    """Run ``python -m module args`` in a fresh interpreter: its exit status, the heavy
    modules it had loaded when it ended, and its stderr."""
    code = ("import runpy, sys\n"
            f"sys.argv = {['x', *args]!r}\n"
            "try:\n"
            f"    runpy.run_module({module + '.__main__'!r}, run_name='__main__')\n"
            "except SystemExit as stop:\n"
            "    status = stop.code\n"
            f"loaded = sorted(m for m in {HEAVY!r} if m in sys.modules)\n"
            "sys.__stdout__.write(f'\\n{status} {loaded!r}')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    status, _, loaded = done.stdout.rstrip().splitlines()[-1].partition(" ")
    return int(status), eval(loaded), done.stderr  # noqa: S307 - our own repr of a list


@pytest.mark.timeout(120)
@pytest.mark.parametrize("module, args, status", [
    ("parallel_backtrack.sudoku", ["--help"], 0),
    ("parallel_backtrack.sudoku", ["--order", "fewset", "x.txt"], 2),
    ("parallel_backtrack.sudoku", ["--workers", "0", "x.txt"], 2),
    ("parallel_backtrack.nqueens", ["--help"], 0),
    ("parallel_backtrack.nqueens", ["--n", "x"], 2),
])
def test_help_and_usage_errors_load_nothing_heavy(module: str, args: list[str],
                                                   status: int) -> None:
    code, loaded, err = _loaded_after(module, args)
    assert code == status, err
    assert loaded == [], loaded
    if status == 2:
        assert len(err.strip().splitlines()) == 1 and "error:" in err, err


def _python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.timeout(120)
def test_importing_the_package_loads_no_pool_and_every_listed_name_resolves() -> None:
    out = _python(
        "import sys, parallel_backtrack, parallel_backtrack.engine as engine\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
        "for name in engine.__all__:\n"
        "    assert getattr(engine, name) is not None, name\n"
        "    assert name in dir(engine), name\n"
        "for name in parallel_backtrack.__all__:\n"
        "    assert getattr(parallel_backtrack, name) is not None, name\n"
        "from parallel_backtrack.engine import count, make_executor, Space\n"
        "assert parallel_backtrack.count is count is engine.count\n"
        "print(engine.BACKENDS == engine.backend_names())\n")
    assert out.splitlines() == ["[]", "True"]


@pytest.mark.timeout(120)
def test_an_unknown_name_is_an_attribute_error() -> None:
    out = _python(
        "import parallel_backtrack, parallel_backtrack.engine as engine\n"
        "for module in (parallel_backtrack, engine):\n"
        "    try:\n"
        "        module.no_such_name\n"
        "    except AttributeError as error:\n"
        "        print(error)\n")
    assert out.splitlines() == [
        "module 'parallel_backtrack' has no attribute 'no_such_name'",
        "module 'parallel_backtrack.engine' has no attribute 'no_such_name'"]


@pytest.mark.timeout(120)
def test_a_mode_from_a_submodule_still_finds_every_backend() -> None:
    # ``make_executor`` through the package imports every backend module first, so a
    # backend registered by another module (dask) is known, whatever was imported before.
    out = _python(
        "from parallel_backtrack.engine import make_executor\n"
        "from parallel_backtrack.engine.backends import backend_names\n"
        "print(backend_names())\n")
    assert out.strip() == "('dask', 'fork', 'loky', 'serial', 'threads')"


@pytest.mark.timeout(120)
def test_metrics_is_the_function_even_after_its_module_is_imported() -> None:
    out = _python(
        "import parallel_backtrack.engine.metrics\n"
        "from parallel_backtrack.engine import metrics\n"
        "from parallel_backtrack.engine.examples import NoAdjacentOnes\n"
        "print(callable(metrics), metrics(NoAdjacentOnes(4)).solutions)\n")
    assert out.split() == ["True", "8"]
