"""Pruning the numba caches of other versions: recent ones stay, old ones and those
beyond the count go (least recently used first), never the one in use or one held."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parallel_backtrack import _jit_cache, _jit_prune, _jit_use

ROOT = Path(__file__).resolve().parents[1]
DAY = 86400.0
HOUR = 3600.0
NBI = "kernel.f-1.py312.nbi"


@pytest.fixture(autouse=True)
def _no_holds() -> Iterator[None]:
    """Each test starts and ends holding no cache (a hold of this process would keep
    a cache from being claimed, as another process's does)."""
    _jit_use.release_all()
    yield
    _jit_use.release_all()


def _version(root: Path, name: str, stamp: int, age: float = 0.0) -> Path:
    """A cache directory ``<name>-<16 hex>`` under ``root``, last used ``age`` s ago."""
    path = root / f"{name}-{stamp:016x}"
    path.mkdir(parents=True)
    (path / NBI).write_bytes(b"")
    _used(path, age)
    return path


def _used(path: Path, age: float) -> None:
    when = time.time() - age
    os.utime(path, (when, when))


def test_siblings_used_in_the_last_30_days_stay_and_older_ones_go(tmp_path: Path) -> None:
    root = tmp_path / "parallel_backtrack"
    recent = [_version(root, "nqueens", i, age) for i, age in
              ((1, 60.0), (2, 10 * DAY), (3, 29 * DAY))]
    month, quarter = _version(root, "nqueens", 4, 31 * DAY), _version(root, "nqueens", 5, 90 * DAY)
    local = _version(root, "nqueens.local", 6, 400 * DAY)  # another kernel directory
    odd = root / "nqueens-notes"  # not a stamp
    odd.mkdir()
    _used(odd, 400 * DAY)
    a_file = root / f"nqueens-{7:016x}"
    a_file.write_text("not a directory")
    outside = _version(tmp_path / "elsewhere", "nqueens", 8, 400 * DAY)
    (root / f"nqueens-{9:016x}").symlink_to(outside, target_is_directory=True)
    current = _version(root, "nqueens", 10, 400 * DAY)  # in use, however old its time
    assert _jit_prune.prune_siblings(current) == [quarter, month]  # least recent first
    assert not quarter.exists() and not month.exists()
    for kept in (*recent, current, local, odd, a_file, outside / NBI):
        assert kept.exists(), kept
    assert (root / f"nqueens-{9:016x}").is_symlink()
    assert sorted(path.name for path in root.iterdir() if path.name.startswith(".")) == []


def test_beyond_eight_versions_the_least_recently_used_go_first(tmp_path: Path) -> None:
    root = tmp_path / "parallel_backtrack"
    assert _jit_prune.MAX_VERSIONS == 8
    by_age = [_version(root, "sudoku.kernel", i, (2 + i) * HOUR) for i in range(10)]
    current = _version(root, "sudoku.kernel", 99)
    # the current one and the 7 most recently used others stay: 0..6; 9, 8, 7 go, in order
    assert _jit_prune.prune_siblings(current) == [by_age[9], by_age[8], by_age[7]]
    assert [path.exists() for path in by_age] == [True] * 7 + [False] * 3
    assert current.exists()


def test_the_count_spares_caches_used_in_the_last_hour(tmp_path: Path) -> None:
    """Ten versions started within the hour: a process may be loading any of them
    before it holds it, so the count waits; the oldest beyond it go later."""
    root = tmp_path / "parallel_backtrack"
    fresh = [_version(root, "sudoku.kernel", i, 60.0 * (i + 1)) for i in range(9)]
    older = _version(root, "sudoku.kernel", 9, 2 * HOUR)
    current = _version(root, "sudoku.kernel", 99)
    assert _jit_prune.prune_siblings(current) == [older]
    assert all(path.exists() for path in [*fresh, current])


def test_stale_ranks_by_last_use_only() -> None:
    now = 1e9
    siblings = [(now - age, name) for name, age in
                [("a", 5 * HOUR), ("b", 40 * DAY), ("c", 2 * HOUR), ("d", 3 * HOUR),
                 ("e", 4 * HOUR), ("f", 6 * HOUR), ("g", 7 * HOUR), ("h", 8 * HOUR),
                 ("i", 30), ("j", 31 * DAY)]]
    # ranked: i c d e a f g | h j b; h is beyond the 7, j and b also too old
    assert [name for _, name in _jit_prune.stale(siblings, now)] == ["b", "j", "h"]
    young = [item for item in siblings if item[1] not in ("b", "j")]  # 8 of them
    assert _jit_prune.stale(young, now) == [(now - 8 * HOUR, "h")]
    assert _jit_prune.stale([item for item in young if item[1] != "h"], now) == []


def test_three_versions_used_in_turn_keep_each_others_caches(tmp_path: Path) -> None:
    """Three installs of different kernel sources, run one after the other, three
    times over, each through the locator a kernel module uses: after the first round
    every run finds its own compiled kernel (its index file) where it left it."""
    root = tmp_path / "parallel_backtrack"
    versions = [root / f"sudoku.kernel-{stamp:016x}" for stamp in (1, 2, 3)]
    for round_ in range(3):
        for version in versions:
            _jit_use.release_all()  # a new process: it holds nothing yet
            _jit_cache._ensured.discard(str(version))
            found = (version / NBI).exists()
            assert found == (round_ > 0), (round_, version)  # compiled once, then found
            locator = object.__new__(_jit_cache.SharedCacheLocator)
            locator._cache_path = str(version)
            locator.ensure_cache_path()
            if not found:
                (version / NBI).write_bytes(b"compiled")  # what numba would write
    assert all((version / NBI).read_bytes() == b"compiled" for version in versions)


STARTING = """\
import sys, time
from pathlib import Path
from parallel_backtrack import _jit_cache
cache, go = Path(sys.argv[1]), Path(sys.argv[2])
print("ready", flush=True)
while not go.exists():
    time.sleep(0.002)
locator = object.__new__(_jit_cache.SharedCacheLocator)
locator._cache_path = str(cache)
locator.ensure_cache_path()  # as its first kernel module's import does
(cache / sys.argv[3]).write_bytes(b"compiled")
print("compiled", flush=True)
sys.stdin.read()
"""


@pytest.mark.timeout(180)
def test_two_new_versions_starting_at_once_keep_both_caches(tmp_path: Path) -> None:
    """Two processes of two new versions create their caches at the same moment, each
    pruning a root already at the count: each keeps the other's new cache (the most
    recently used) and removes only the least recently used old ones."""
    root = tmp_path / "parallel_backtrack"
    old = [_version(root, "sudoku.kernel", i, (2 + i) * HOUR) for i in range(9)]
    new = [root / f"sudoku.kernel-{stamp:016x}" for stamp in (100, 101)]
    go = tmp_path / "go"
    runs = [subprocess.Popen([sys.executable, "-c", STARTING, str(cache), str(go), NBI],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
            for cache in new]
    try:
        assert all(run.stdout is not None and run.stdout.readline() == "ready\n"
                   for run in runs)
        go.touch()
        assert all(run.stdout is not None and run.stdout.readline() == "compiled\n"
                   for run in runs)
    finally:
        for run in runs:
            run.communicate("", timeout=60)
    assert all((cache / NBI).read_bytes() == b"compiled" for cache in new)
    # each made its cache before it pruned, so one of them saw the other's: that one
    # kept it and the 6 most recent old ones
    assert [path.exists() for path in old] == [True] * 6 + [False] * 3


def test_a_moved_kernel_directorys_new_cache_removes_every_cache_of_its_old_name(
        tmp_path: Path) -> None:
    root = tmp_path / "parallel_backtrack"
    old_caches = [_version(root, "sudoku.cdcl", i, age) for i, age in ((1, 300.0), (2, 100.0))]
    kept = [_version(root, "sudoku.cdcl.kernel", 3, 200.0), _version(root, "sudoku.kernel", 4)]
    current = _version(root, "sudoku.cdcl.kernel", 5)
    assert sorted(_jit_prune.prune_siblings(current)) == sorted(old_caches)
    assert not any(path.exists() for path in old_caches)
    assert all(path.exists() for path in [*kept, current])


def test_a_cache_held_by_a_running_process_is_not_removed(tmp_path: Path) -> None:
    root = tmp_path / "parallel_backtrack"
    held = _version(root, "sliding.kernel", 1)
    current = _version(root, "sliding.kernel", 2)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pathlib import Path; "
         "from parallel_backtrack._jit_use import hold; "
         "print(hold(Path(sys.argv[1])), flush=True); sys.stdin.read()", str(held)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "True\n"
        _used(held, 90 * DAY)  # long unused, by its time: only the hold keeps it
        assert _jit_prune.prune_siblings(current) == []
        assert (held / NBI).exists()
    finally:
        holder.communicate("", timeout=30)  # the holder ends, and its lock with it
    assert _jit_prune.prune_siblings(current) == [held]
    assert not held.exists()


def test_a_cache_used_after_the_listing_is_not_removed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process of that version starts between the prune's listing and its claim:
    it has marked the cache used (before it holds it), so the cache stays."""
    root = tmp_path / "parallel_backtrack"
    starting = _version(root, "nqueens.kernel", 1, 90 * DAY)
    current = _version(root, "nqueens.kernel", 2)
    real_claimed = _jit_use.claimed

    @contextlib.contextmanager
    def claimed_as_it_starts(cache: Path) -> Iterator[bool]:
        os.utime(cache)  # what ``hold`` does first
        with real_claimed(cache) as free:
            yield free

    monkeypatch.setattr(_jit_prune, "claimed", claimed_as_it_starts)
    assert _jit_prune.prune_siblings(current) == []
    assert (starting / NBI).exists()


def test_pruning_ignores_a_vanishing_an_unmovable_and_a_missing_root(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "parallel_backtrack"
    assert _jit_prune.prune_siblings(root / f"nqueens-{0:016x}") == []  # no root yet
    gone, stuck = _version(root, "nqueens", 1, 90 * DAY), _version(root, "nqueens", 2, 80 * DAY)
    recent = _version(root, "nqueens", 3, 100.0)
    current = _version(root, "nqueens", 4)
    real_scandir, real_rename = os.scandir, os.rename

    def scandir_then_vanish(path: Any) -> Any:
        if isinstance(path, int) or Path(path) != root:  # (rmtree lists directories too)
            return real_scandir(path)
        entries = list(real_scandir(path))
        shutil.rmtree(gone)  # another process removes it after the listing
        return contextlib.nullcontext(entries)

    def rename(source: Any, target: Any) -> None:
        if Path(source) == stuck:  # as on Windows while a process has a file open there
            raise PermissionError(13, "in use", str(source))
        real_rename(source, target)

    monkeypatch.setattr(_jit_prune.os, "scandir", scandir_then_vanish)
    monkeypatch.setattr(_jit_prune.os, "rename", rename)
    assert _jit_prune.prune_siblings(current) == []
    assert stuck.exists() and recent.exists() and current.exists() and not gone.exists()


def test_trash_a_removal_left_behind_goes_with_the_next_prune(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "parallel_backtrack"
    old = _version(root, "games.connect4.kernel", 1, 90 * DAY)
    other_trash = root / f".sliding.kernel-{5:016x}{_jit_prune.TRASH}1"
    other_trash.mkdir()
    current = _version(root, "games.connect4.kernel", 2)
    with monkeypatch.context() as patch:  # the removal stops after the rename
        patch.setattr(_jit_prune.shutil, "rmtree", lambda path, ignore_errors=False: None)
        assert _jit_prune.prune_siblings(current) == [old]
    trash = [path for path in root.iterdir() if path.name.startswith(f".{old.name}")]
    assert len(trash) == 1 and (trash[0] / NBI).exists() and not old.exists()
    newer = _version(root, "games.connect4.kernel", 3)
    assert _jit_prune.prune_siblings(newer) == []
    assert not trash[0].exists()
    assert other_trash.exists() and current.exists()  # not this kernel directory's
