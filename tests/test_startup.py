"""A quick start: ``--help`` and usage errors load neither numba, numpy nor the engine's
pools, and the lazy packages still hand out every name they list."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
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


def _check_usage(code: int, status: int, err: str) -> None:
    assert code == status, err
    if status == 2:
        assert len(err.strip().splitlines()) == 1 and "error:" in err, err
        assert "Traceback" not in err


@pytest.mark.timeout(120)
@pytest.mark.parametrize("module, args, status", [
    ("parallel_backtrack.sudoku", ["--help"], 0),
    ("parallel_backtrack.sudoku", ["--order", "fewset", "x.txt"], 2),
    ("parallel_backtrack.sudoku", ["--workers", "0", "x.txt"], 2),
    ("parallel_backtrack.nqueens", ["--help"], 0),
    ("parallel_backtrack.nqueens", ["--n", "x"], 2),
    ("parallel_backtrack.sliding", ["--help"], 0),
    ("parallel_backtrack.sliding", ["--heuristic", "foo", "x.txt"], 2),
    ("parallel_backtrack.sliding", ["--workers", "0", "x.txt"], 2),
])
def test_help_and_usage_errors_load_nothing_heavy(module: str, args: list[str],
                                                   status: int) -> None:
    code, loaded, err = _loaded_after(module, args)
    _check_usage(code, status, err)
    assert loaded == [], loaded


GAMES_CASES = [
    (["--help"], 0),
    (["bogus"], 2),
    (["connect4", "--help"], 0),
    (["connect4", "--width", "0", "44"], 2),
    (["alphabeta", "--help"], 0),
    (["nim", "--sticks", "x"], 2),
    (["random", "--depth", "x"], 2),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("args, status", GAMES_CASES)
def test_games_help_and_usage_errors_load_no_numba(args: list[str], status: int) -> None:
    code, loaded, err = _loaded_after("parallel_backtrack.games", args)
    _check_usage(code, status, err)
    assert not {"numba", "numpy", "loky"} & set(loaded), loaded


@pytest.mark.timeout(120)
def test_games_help_loads_nothing_heavy() -> None:
    code, loaded, err = _loaded_after("parallel_backtrack.games", ["connect4", "--help"])
    _check_usage(code, 0, err)
    assert loaded == [], loaded


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


# forum_hardest line 358: the 9x9 puzzle of the hardest sets that needs the most nodes
# (2,383 with units propagation and fewest-first).
HARD = "..3......4...8..36..8...1...4..6..73...9..........2.....4.7..686...2....7..6..5.."


def test_the_numba_free_paths_agree_with_the_cache_and_see_a_compile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from numba.core import config

    from parallel_backtrack import _jit_cache, _jit_paths

    kernel = _jit_paths.PACKAGE / "sudoku" / "kernel"
    # Both name the same place for numba's setting, whether NUMBA_CACHE_DIR is set or not.
    for setting in ("", str(tmp_path / "elsewhere")):
        monkeypatch.setattr(config, "CACHE_DIR", setting)
        assert _jit_cache.cache_dir(kernel) == _jit_paths.cache_dir(kernel, setting)
    assert _jit_paths.cache_dir(kernel, "").parent == _jit_paths.user_cache_dir() / "numba"
    assert _jit_paths.cache_dir(kernel, str(tmp_path)).parent == tmp_path / "parallel_backtrack"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    place = _jit_paths.cache_dir(kernel)
    assert place.parent == tmp_path / "parallel_backtrack"
    assert not _jit_paths.is_compiled(kernel, "search.explore_roots")
    place.mkdir(parents=True)
    version = f"py{sys.version_info.major}{sys.version_info.minor}"
    (place / f"search.explore_roots-1.{version}.nbi").write_bytes(b"")
    assert _jit_paths.is_compiled(kernel, "search.explore_roots")
    assert not _jit_paths.is_compiled(kernel, "search.explore_roots", "search.search_many")


EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.mark.timeout(120)
@pytest.mark.parametrize("lines, statuses", [
    ([HARD], ["solved"]),
    ([HARD, EASY, "4" * 81], ["solved", "solved", "invalid"]),
], ids=["one", "a-few"])
def test_with_nothing_compiled_hard_9x9s_are_answered_without_numba(
        tmp_path: Path, lines: list[str], statuses: list[str]) -> None:
    """An empty numba cache: no compile (20-60 s), no numba, the Python path answers."""
    from parallel_backtrack.sudoku.space import is_valid_solution

    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text("\n".join(lines) + "\n")
    code = ("import runpy, sys\n"
            f"sys.argv = ['x', {str(puzzles)!r}, '--json']\n"
            "try:\n"
            "    runpy.run_module('parallel_backtrack.sudoku.__main__', run_name='__main__')\n"
            "except SystemExit:\n"
            "    pass\n"
            "sys.__stderr__.write(repr(sorted(m for m in ('numba', 'numpy') "
            "if m in sys.modules)))\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "empty"))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=100, env=env)
    assert done.stderr == "[]", done.stderr[-500:]  # and so no compile notice either
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [result["status"] for result in results] == statuses
    for line, result in zip(lines, results):
        if result["status"] == "solved":
            assert is_valid_solution(line, result["solution"])
    assert results[0]["nodes"] == 2383


class _Clock:
    """``runner``'s clock: the Python path's time is up after ``looks`` looks (the
    first reading, when ``solve_entry`` starts, is not one)."""

    def __init__(self, looks: int) -> None:
        self.looks = looks + 1

    def perf_counter(self) -> float:
        self.looks -= 1
        return 0.0 if self.looks >= 0 else 1e12


@pytest.mark.timeout(300)
@pytest.mark.parametrize("count", [False, True], ids=["solve", "count"])
def test_the_kernel_takes_over_from_the_python_path_with_the_same_answer_and_nodes(
        monkeypatch: pytest.MonkeyPatch, count: bool) -> None:
    from parallel_backtrack.sudoku import runner
    from parallel_backtrack.sudoku.formats import PuzzleEntry
    from parallel_backtrack.sudoku.space import SudokuSpace, is_valid_solution

    entry = PuzzleEntry(1, cells=tuple(0 if ch == "." else int(ch) for ch in HARD))
    limit = 5 if count else None
    alone = [runner.solve_entry(0, entry, runner.Job(count=count, limit=limit, kernel=kernel))
             for kernel in ("reference", "fast")]
    assert alone[0].nodes >= 2383
    kernel_calls: list[int] = []
    explore_fast = SudokuSpace.explore_fast

    def counted(self: SudokuSpace, *args: object, **options: object) -> object:
        kernel_calls.append(1)
        return explore_fast(self, *args, **options)

    monkeypatch.setattr(SudokuSpace, "explore_fast", counted)
    monkeypatch.setattr(runner, "PYTHON_SLICE", 300)
    for looks in (1, 3):  # 300 or 900 nodes on the Python path, the rest in the kernel
        monkeypatch.setattr(runner, "time", _Clock(looks))
        both = runner.solve_entry(0, entry, runner.Job(count=count, limit=limit,
                                                       python_until=0.5))
        for one in alone:
            assert (both.status, both.solution, both.count, both.nodes) == (
                one.status, one.solution, one.count, one.nodes)
        assert both.solution is not None and is_valid_solution(HARD, both.solution)
        assert kernel_calls, "the kernel never took over"
        kernel_calls.clear()


@pytest.mark.timeout(300)
@pytest.mark.parametrize("count", [False, True], ids=["solve", "count"])
def test_one_puzzle_for_two_workers_before_the_first_compile_tries_the_python_path_first(
        monkeypatch: pytest.MonkeyPatch, count: bool) -> None:
    """Answered there, no pool is started; not answered in its time, the pool searches
    from the start and its findings alone count (the same answer and nodes as a pool
    run with no Python path before it)."""
    from parallel_backtrack.sudoku import runner
    from parallel_backtrack.sudoku.formats import PuzzleEntry
    from parallel_backtrack.sudoku.space import is_valid_solution

    entry = PuzzleEntry(1, cells=tuple(0 if ch == "." else int(ch) for ch in HARD))
    limit = 5 if count else None
    threads = (("backend", "threads"),)
    pooled = runner.solve_entry(0, entry, runner.Job(count=count, limit=limit,
                                                     engine_options=threads), workers=2)
    real_pool, pools = runner._search_pool, []

    def pool(*args: object, **options: object) -> None:
        pools.append(1)
        real_pool(*args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "_search_pool", pool)
    here = runner.solve_entry(0, entry, runner.Job(count=count, limit=limit,
                                                   python_until=1e12, engine_options=threads),
                              workers=2)
    assert not pools and here.solution is not None and is_valid_solution(HARD, here.solution)
    assert (here.status, here.solution, here.count) == (pooled.status, pooled.solution,
                                                        pooled.count)
    monkeypatch.setattr(runner, "PYTHON_SLICE", 300)
    monkeypatch.setattr(runner, "time", _Clock(1))  # 300 nodes there, then the pool
    late = runner.solve_entry(0, entry, runner.Job(count=count, limit=limit, python_until=0.5,
                                                   engine_options=threads), workers=2)
    assert pools == [1]
    assert late.solution is not None and is_valid_solution(HARD, late.solution)
    assert (late.status, late.solution, late.count, late.nodes) == (
        pooled.status, pooled.solution, pooled.count, pooled.nodes)


@pytest.mark.parametrize("argv, compiled, address, python_first", [
    (["-", "--workers", "2"], False, None, True),
    (["-", "--workers", "2"], True, None, False),  # compiled: the pool at once
    (["-", "--workers", "2", "--kernel", "reference"], False, None, False),
    (["-", "--workers", "2"], False, "tcp://127.0.0.1:8786", False),  # a cluster's
])
def test_only_one_uncompiled_puzzle_for_several_workers_takes_the_python_path_first(
        monkeypatch: pytest.MonkeyPatch, argv: list[str], compiled: bool,
        address: str | None, python_first: bool) -> None:
    from parallel_backtrack.sudoku import __main__ as command

    monkeypatch.setattr(command, "is_compiled", lambda *names: compiled)
    args = command.build_parser().parse_args(argv)
    args.scheduler_address = address  # (the parser would check that it answers)
    assert (command._python_until(args, 1) is not None) == python_first
    assert command._python_until(args, 2) is None  # a file: each puzzle on one worker


def _first_stderr_line(argv: list[str], stdin: str, env: dict[str, str],
                       wait: float) -> str:
    """The first line the command writes on stderr within ``wait`` seconds ("" if none);
    the process is stopped then, so a compile that prints nothing costs ``wait`` only."""
    process = subprocess.Popen([sys.executable, *argv], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               cwd=ROOT, env=env)
    assert process.stdin is not None and process.stderr is not None
    process.stdin.write(stdin)
    process.stdin.close()
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(process.stderr.readline()),
                              daemon=True)
    reader.start()
    reader.join(wait)
    process.kill()
    process.wait(30)
    return lines[0] if lines else ""


@pytest.mark.timeout(180)
@pytest.mark.parametrize("argv, stdin", [
    (["-m", "parallel_backtrack.sliding", "-", "--heuristic", "manhattan"],
     "8 1 3 4 0 2 7 6 5\n"),
    (["-m", "parallel_backtrack.games", "connect4", "4453"], ""),
], ids=["sliding", "games"])
def test_a_first_compile_is_announced_before_it_starts(tmp_path: Path, argv: list[str],
                                                       stdin: str) -> None:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "empty"))
    first = _first_stderr_line(argv, stdin, env, wait=15)
    assert first.startswith("parallel_backtrack: compiling "), first
