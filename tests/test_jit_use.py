"""Holding a kernel cache while a process uses it, and claiming one to remove it."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from parallel_backtrack import _jit_use

DAY = 86400.0


@pytest.fixture(autouse=True)
def _no_holds() -> Iterator[None]:
    _jit_use.release_all()
    yield
    _jit_use.release_all()


def _cache(tmp_path: Path, age: float = 0.0) -> Path:
    cache = tmp_path / f"sudoku.kernel-{1:016x}"
    cache.mkdir()
    when = time.time() - age
    os.utime(cache, (when, when))
    return cache


def test_hold_marks_the_cache_used_now_and_makes_its_lock_file(tmp_path: Path) -> None:
    cache = _cache(tmp_path, 90 * DAY)
    before = time.time()
    assert _jit_use.hold(cache) is True
    assert cache.stat().st_mtime >= before - 1
    assert (cache / _jit_use.LOCK_NAME).is_file()


def test_a_held_cache_cannot_be_claimed_until_released(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_jit_use, "HOLD_PAUSE", 0.001)
    cache = _cache(tmp_path)
    with _jit_use.claimed(cache) as free:
        assert free  # no lock file: no process has ever held it
    _jit_use.hold(cache)
    with _jit_use.claimed(cache) as free:  # (a second open file: a lock of its own)
        assert not free
    _jit_use.release_all()
    with _jit_use.claimed(cache) as free:
        assert free
        assert _jit_use.hold(cache) is False  # a claim outlasting the holder's tries
    assert _jit_use.hold(cache) is True


def test_a_hold_during_a_removal_holds_the_cache_made_anew(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process starts while a pruner has claimed its cache: it waits for the claim,
    finds the directory renamed away, makes it anew and holds that one."""
    cache = _cache(tmp_path)
    monkeypatch.setattr(_jit_use, "HOLD_PAUSE", 0.01)
    lock_file = cache / _jit_use.LOCK_NAME
    lock_file.touch()
    claim = _jit_use.claimed(cache)
    assert claim.__enter__()
    opened = threading.Event()
    real_open = os.open

    def open_then_rename(path: object, flags: int, mode: int = 0o777) -> int:
        fd = real_open(path, flags, mode)  # type: ignore[arg-type]
        if not opened.is_set():
            opened.set()  # the holder has the old lock file open: now the pruner renames
            os.rename(cache, tmp_path / "trash")
            claim.__exit__(None, None, None)
        return fd

    monkeypatch.setattr(_jit_use.os, "open", open_then_rename)
    assert _jit_use.hold(cache) is True
    held = os.fstat(_jit_use._held[-1])
    assert cache.is_dir() and (held.st_ino == lock_file.stat().st_ino)
    assert (tmp_path / "trash" / _jit_use.LOCK_NAME).exists()
