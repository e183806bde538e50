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
