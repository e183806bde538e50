"""Shared test fixtures: the data folder (tests/data) and the process pools."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from data_paths import DATA
from viz_helpers import browser  # noqa: F401 - the headless Chromium of the page tests

# Both CLIs re-check every printed answer with the independent checkers (--verify on
# by default), in this process and in every CLI the tests start.
os.environ.setdefault("PARALLEL_BACKTRACK_VERIFY", "1")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the kernels the tests use before the first test, when they are not yet
    compiled for these sources (``warm_cache``): a compile inside a test would add its
    notice to the stderr the test reads."""
    import warm_cache

    if session.config.option.collectonly or warm_cache.is_warm():
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    say = reporter.write_line if reporter is not None else print
    say("compiling the kernels the tests use, and building the 6-6-3 databases (once for "
        "these sources: a few minutes; tests/warm_cache.py)")
    for line in warm_cache.warm(quiet=True):
        say(f"warm-up failed: {line}")


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """tests/data, laid out as ``search/...`` and ``sudoku/...`` (see tests/data/SOURCES)."""
    return DATA


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The old name of ``data_dir``, kept for tests written against it."""
    return DATA


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


@pytest.fixture
def queued(monkeypatch):
    """Counts keep their cut in the parent's queue, as on Dask, whatever the workers
    (no pulls: ``engine.pull``)."""
    from parallel_backtrack.engine import scheduler

    monkeypatch.setattr(scheduler, "PULL_FROM", 10**9)
    monkeypatch.setattr(scheduler, "PULL_MANY_FROM", 10**9)
