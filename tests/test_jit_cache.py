"""numba's on-disk cache shared by every copy of the sources, the notice before a
compile, and the commands' small jobs that never load numba."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from parallel_backtrack import _jit_cache
from parallel_backtrack.sudoku.kernel import search
from parallel_backtrack.sudoku.space import is_valid_solution

ROOT = Path(__file__).resolve().parents[1]
KERNEL_DIR = ROOT / "parallel_backtrack" / "sudoku" / "kernel"
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_a_copy_of_the_sources_has_the_same_stamp_and_an_edit_a_new_one(tmp_path: Path) -> None:
    copy = tmp_path / "kernel"
    shutil.copytree(KERNEL_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert _jit_cache.directory_stamp(copy) == _jit_cache.directory_stamp(KERNEL_DIR)
    (copy / "bits.py").write_text((copy / "bits.py").read_text() + "\n# edited\n")
    _jit_cache.directory_stamp.cache_clear()
    assert _jit_cache.directory_stamp(copy) != _jit_cache.directory_stamp(KERNEL_DIR)


def test_the_cache_lives_in_one_place_named_by_directory_and_stamp() -> None:
    place = _jit_cache.cache_dir(KERNEL_DIR)
    assert place.parent == _jit_cache.cache_root()
    assert place.name == "sudoku.kernel-" + _jit_cache.directory_stamp(KERNEL_DIR)[:16]
    assert not place.is_relative_to(ROOT)  # not next to the sources of this copy


def test_kernel_functions_use_the_shared_locator() -> None:
    locator = search.explore_roots._cache._impl.locator
    assert isinstance(locator, _jit_cache.SharedCacheLocator | _jit_cache.PackageInTreeLocator)
    assert locator.get_source_stamp() == _jit_cache.directory_stamp(KERNEL_DIR)


def _fake(index_path: Path, signatures: tuple[str, ...] = ()) -> SimpleNamespace:
    files = SimpleNamespace(_index_path=str(index_path))
    return SimpleNamespace(signatures=signatures, _cache=SimpleNamespace(
        _cache_file=files, _cache_path=str(index_path.parent)))


def test_a_compile_is_announced_once_and_a_cached_kernel_not_at_all(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cached = tmp_path / "cached.nbi"
    cached.write_bytes(b"")
    with _jit_cache.compile_notice("test kernel A", [_fake(cached)], "1 s"):
        pass
    with _jit_cache.compile_notice("test kernel B", [_fake(tmp_path / "missing.nbi")], "9 s"):
        pass
    with _jit_cache.compile_notice("test kernel B", [_fake(tmp_path / "missing.nbi")], "9 s"):
        pass
    err = capsys.readouterr().err
    assert "test kernel A" not in err
    assert err.count("compiling test kernel B (once; about 9 s)") == 1
    assert _jit_cache.is_cached(_fake(tmp_path / "missing.nbi", ("int64",)))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("argv", [
    ["parallel_backtrack.nqueens", "--help"],
    ["parallel_backtrack.nqueens", "--n", "8", "--json"],
    ["parallel_backtrack.sudoku", "--help"],
    ["parallel_backtrack.sudoku", "-"],
])
def test_help_and_small_jobs_never_import_numba_or_numpy(argv: list[str]) -> None:
    code = ("import runpy, sys\n"
            f"sys.argv = {['x', *argv[1:]]!r}\n"
            "try:\n"
            f"    runpy.run_module({argv[0] + '.__main__'!r}, run_name='__main__')\n"
            "except SystemExit:\n"
            "    pass\n"
            "loaded = sorted(m for m in ('numba', 'numpy') if m in sys.modules)\n"
            "sys.__stderr__.write(repr(loaded))\n")
    done = subprocess.run([sys.executable, "-c", code], input=EASY + "\n", capture_output=True,
                          text=True, cwd=ROOT, timeout=100)
    assert done.stderr.endswith("[]"), done.stderr[-300:]
    if "--json" in argv:
        assert json.loads(done.stdout)["count"] == 92
    if argv[-1] == "-":
        assert "solved 1" in done.stdout


@pytest.mark.timeout(300)
def test_one_puzzle_continues_in_the_kernel_with_the_same_answer_and_nodes() -> None:
    # an empty grid: its count up to 3,000 needs more nodes than the Python head takes
    from parallel_backtrack.sudoku.runner import PYTHON_SLICE

    def run(kernel: str) -> dict[str, object]:
        done = subprocess.run(
            [sys.executable, "-m", "parallel_backtrack.sudoku", "-", "--count", "--limit",
             "3000", "--json", "--kernel", kernel], input="." * 81 + "\n",
            capture_output=True, text=True, cwd=ROOT, timeout=250)
        return json.loads(done.stdout)  # type: ignore[no-any-return]

    fast, reference = run("fast"), run("reference")
    assert fast["nodes"] == reference["nodes"] > PYTHON_SLICE
    assert fast["count"] == reference["count"] == 3000
    assert fast["solution"] == reference["solution"]
    assert is_valid_solution("." * 81, str(fast["solution"]))
