"""scripts/bench_pool_cost.py runs and reports what it measures, and the virtual pool's
``dispatch`` moves its clock as a real pool's cost per task would (no timing asserted
but the virtual clock's own arithmetic)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from parallel_backtrack.engine import VirtualExecutor, count
from parallel_backtrack.nqueens import ImmutableQueenLocations
from parallel_backtrack.nqueens.space import QueensSpace

ROOT = Path(__file__).resolve().parents[1]


def test_the_script_reports_each_pool_and_the_virtual_charge(tmp_path: Path) -> None:
    out = tmp_path / "cost.json"
    done = subprocess.run([sys.executable, "scripts/bench_pool_cost.py", "--backends",
                           "fork", "virtual", "--tasks", "60", "--rounds", "1", "--json",
                           str(out)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]
    rows = json.loads(out.read_text())["rows"]
    assert out.with_suffix(".csv").exists()
    assert [row["backend"] for row in rows] == ["fork", "virtual"]
    assert all(row["parent_cpu_us"] > 0 and row["wall_us"] > 0 for row in rows)
    assert rows[0]["charged_us"] is None and rows[1]["charged_us"] > 0
    assert "| fork |" in done.stdout and "| virtual |" in done.stdout


def test_dispatch_charges_the_parent_for_every_task() -> None:
    """The one parent sends the tasks one after another: with ``dispatch`` a task the
    clock passes ``dispatch`` times the tasks, and the count stays exact (OEIS
    A000170: 724 for n = 10). The charge is a whole second, far above what the plain
    run measures even on a loaded host."""
    space = QueensSpace(ImmutableQueenLocations(10))
    plain, charged = VirtualExecutor(2), VirtualExecutor(2, dispatch=1.0)
    assert count(space, executor=plain).count == count(space, executor=charged).count == 724
    assert charged.tasks > 1 and plain.clock < 1.0 * charged.tasks <= charged.clock
