"""Shared test helpers: the shared data folder and independent checkers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"

# Both CLIs re-check every printed answer with the independent checkers (--verify on
# by default), in this process and in every CLI the tests start.
os.environ.setdefault("PARALLEL_BACKTRACK_VERIFY", "1")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data folder {SHARED_DATA} is absent")
    return SHARED_DATA


def _drop_process_pools() -> None:
    from parallel_backtrack.engine import make_executor

    for backend in ("loky", "fork"):  # the pools kept from one run to the next
        make_executor(2, backend).close(kill=True)


@pytest.fixture
def own_pools():
    """Process pools of the test's own, for tests that kill or break workers: the
    kept pools are shut down before the test (it starts fresh ones, whatever ran
    before) and after it (the next test does not inherit what it broke)."""
    _drop_process_pools()
    yield
    _drop_process_pools()
