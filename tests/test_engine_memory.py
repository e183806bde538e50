"""Bounded memory: the parent and each worker stay under 300 MB during a large count."""

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("psutil")
SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "_memory.py"


@pytest.mark.slow
@pytest.mark.ci
@pytest.mark.timeout(300)
def test_nqueens_18_for_ten_seconds_stays_under_300_mb():
    spec = importlib.util.spec_from_file_location("_memory", SCRIPT)
    memory = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(memory)
    rows, out = memory.measure_memory(
        ["-m", "parallel_backtrack.nqueens", "--n", "18", "--workers", "2", "--timeout", "10",
         "--json", "--no-progress"], interval=0.5, timeout=200)
    assert {"parent", "worker"} <= {row["role"] for row in rows}, rows
    assert sum(row["role"] == "worker" for row in rows) == 2, rows
    assert all(row["peak_rss_mb"] < 300 for row in rows), rows
    payload = json.loads([line for line in out.splitlines() if line.startswith("{")][-1])
    assert payload["peak_pending"] < 1000


def test_the_memory_probe_runs():
    spec = importlib.util.spec_from_file_location("_memory", SCRIPT)
    memory = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(memory)
    rows, out = memory.measure_memory(["-c", "print('hi')"], interval=0.01, timeout=30)
    assert out.strip() == "hi" and all(row["role"] == "parent" for row in rows)
