"""numba's on-disk cache shared by every copy of the sources, the notice before a
compile, and the commands' small jobs that never load numba."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from parallel_backtrack import _jit_cache, _jit_prune
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


def _version(root: Path, name: str, stamp: int, age: float = 0.0) -> Path:
    """A cache directory ``<name>-<16 hex>`` under ``root``, last modified ``age`` s ago."""
    path = root / f"{name}-{stamp:016x}"
    path.mkdir(parents=True)
    (path / "kernel.f-1.py312.nbi").write_bytes(b"")
    if age:
        when = time.time() - age
        os.utime(path, (when, when))
    return path


def test_a_new_stamp_removes_the_stale_caches_but_the_newest_other(tmp_path: Path) -> None:
    root = tmp_path / "parallel_backtrack"
    oldest, old, newer = (_version(root, "nqueens", i, age) for i, age in
                          ((1, 300.0), (2, 200.0), (3, 100.0)))
    local = _version(root, "nqueens.local", 4, 400.0)  # another kernel directory
    other = _version(root, "sudoku.kernel", 5, 500.0)
    odd = root / "nqueens-notes"  # not a stamp
    odd.mkdir()
    a_file = root / f"nqueens-{6:016x}"
    a_file.write_text("not a directory")
    outside = _version(tmp_path / "elsewhere", "nqueens", 7, 900.0)
    (root / f"nqueens-{8:016x}").symlink_to(outside, target_is_directory=True)
    current = _version(root, "nqueens", 9)
    removed = _jit_prune.prune_siblings(current)
    assert sorted(removed) == sorted([oldest, old])
    assert not oldest.exists() and not old.exists()
    for kept in (current, newer, local, other, odd, a_file, outside / "kernel.f-1.py312.nbi"):
        assert kept.exists(), kept
    assert (root / f"nqueens-{8:016x}").is_symlink()


def test_pruning_ignores_a_vanishing_an_undeletable_and_a_missing_root(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "parallel_backtrack"
    assert _jit_prune.prune_siblings(root / f"nqueens-{0:016x}") == []  # no root yet
    gone, stuck = _version(root, "nqueens", 1, 300.0), _version(root, "nqueens", 2, 200.0)
    newest = _version(root, "nqueens", 3, 100.0)
    current = _version(root, "nqueens", 4)
    real_scandir, real_rmtree = os.scandir, shutil.rmtree

    def scandir_then_vanish(path: Any) -> Any:
        if isinstance(path, int) or Path(path) != root:  # (rmtree lists directories too)
            return real_scandir(path)
        entries = list(real_scandir(path))
        real_rmtree(gone)  # another process removes it after the listing
        return contextlib.nullcontext(entries)

    def rmtree(path: Any, ignore_errors: bool = False) -> None:
        assert ignore_errors
        if Path(path) != stuck:
            real_rmtree(path, ignore_errors=True)  # stuck: as if not permitted

    monkeypatch.setattr(_jit_prune.os, "scandir", scandir_then_vanish)
    monkeypatch.setattr(shutil, "rmtree", rmtree)
    assert _jit_prune.prune_siblings(current) == []
    assert stuck.exists() and newest.exists() and current.exists() and not gone.exists()


def test_the_locator_prunes_when_it_creates_a_cache_directory_only(tmp_path: Path) -> None:
    root = tmp_path / "parallel_backtrack"
    stale, newest = _version(root, "sudoku.kernel", 1, 300.0), _version(root, "sudoku.kernel", 2)
    locator = object.__new__(_jit_cache.SharedCacheLocator)
    locator._cache_path = str(root / f"sudoku.kernel-{3:016x}")
    locator.ensure_cache_path()  # a new stamp: created, stale sibling removed
    assert Path(locator._cache_path).is_dir() and newest.exists() and not stale.exists()
    again = _version(root, "sudoku.kernel", 4, 600.0)
    locator.ensure_cache_path()  # found: nothing else happens
    assert again.exists() and newest.exists()


@pytest.mark.parametrize("problem", ["nqueens", "sudoku"])
def test_kernel_directories_hold_no_command_line(problem: str) -> None:
    """An edit of a command line or lab API file must not recompile a kernel."""
    package = ROOT / "parallel_backtrack" / problem
    kernels = {path.parent for path in package.rglob("*.py") if "@njit(" in path.read_text()}
    assert kernels and package not in kernels
    for directory in kernels:
        assert not (directory / "__main__.py").exists(), directory
