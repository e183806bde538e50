"""The list-scheduling simulation behind the predicted speedups (scripts/_scaling.py)."""

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "_scaling.py"


@pytest.fixture(scope="module")
def scaling():
    spec = importlib.util.spec_from_file_location("_scaling", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_equal_tasks_share_out_evenly(scaling):
    assert scaling.simulate([1.0] * 8, overhead=0.0, workers=4) == pytest.approx(2.0)
    assert scaling.simulate([1.0] * 8, overhead=0.0, workers=1) == pytest.approx(8.0)


def test_the_longest_task_bounds_the_makespan(scaling):
    assert scaling.simulate([5.0, 1.0, 1.0, 1.0], overhead=0.0, workers=64) == pytest.approx(5)


def test_one_parent_dispatching_is_the_bottleneck_for_tiny_tasks(scaling):
    assert scaling.simulate([0.0] * 10, overhead=0.1, workers=1000) == pytest.approx(1.0)


def test_leftover_chains_run_one_after_another(scaling):
    assert scaling.simulate([1.0, 1.0, 1.0], 0.0, 3, parents=[-1, 0, 1]) == pytest.approx(3)
    assert scaling.simulate([1.0, 1.0, 1.0], 0.0, 3) == pytest.approx(1)


def test_predicted_speedup_pays_serial_and_boot_only_with_a_pool(scaling):
    rows = scaling.predicted_speedups([1.0] * 8, 0.0, serial=2.0, workers=[1, 8], boot=1.0)
    assert rows[0]["speedup"] == pytest.approx(1.0)
    assert rows[1]["speedup"] == pytest.approx(10 / 4)
