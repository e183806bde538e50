"""--html and --trace-limit on the command lines: pages written, bad input refused."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from viz_helpers import HARDEST

pytestmark = pytest.mark.timeout(120)


def run_cli(module: str, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", f"parallel_backtrack.{module}", *argv],
                          capture_output=True, text=True, timeout=100)


def refused(done: subprocess.CompletedProcess[str], pattern: str) -> None:
    """Exit 2, one line on stderr matching ``pattern``, nothing searched or printed."""
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert re.search(pattern, lines[0]), lines[0]


@pytest.fixture
def one_puzzle(tmp_path: Path) -> Path:
    path = tmp_path / "one.txt"
    path.write_text(HARDEST + "\n")
    return path


@pytest.mark.parametrize("module", ["nqueens", "sudoku"])
def test_unwritable_targets_fail_before_the_search(module: str, tmp_path: Path,
                                                   one_puzzle: Path) -> None:
    first = ["--n", "12"] if module == "nqueens" else [str(one_puzzle)]
    refused(run_cli(module, *first, "--html", str(tmp_path / "no" / "p.html")),
            r"--html: .*does not exist")
    refused(run_cli(module, *first, "--html", str(tmp_path)), "is a directory")
    refused(run_cli(module, *first, "--html", str(tmp_path / "p.html"), "--trace-limit", "0"),
            "--trace-limit: expected a positive integer")
    refused(run_cli(module, *first, "--html", str(tmp_path / "p.html"), "--trace-limit",
                    "999999999"), "at most 200,000 steps")
    assert not (tmp_path / "p.html").exists()


def test_too_big_to_show(tmp_path: Path) -> None:
    page = str(tmp_path / "p.html")
    refused(run_cli("nqueens", "--n", "17", "--workers", "1", "--html", page),
            "at most 16 queens")
    refused(run_cli("nqueens", "--n", "8", "--metrics", "--html", page), "counting search")
    big = tmp_path / "big.txt"
    big.write_text("." * 36**2 + "\n")
    refused(run_cli("sudoku", str(big), "--html", page), "36x36 puzzle is too big")
    two = tmp_path / "two.txt"
    two.write_text(HARDEST + "\n" + HARDEST + "\n")
    refused(run_cli("sudoku", str(two), "--html", page), "one puzzle")
    assert not (tmp_path / "p.html").exists()


def test_pages_written_small_and_offline(tmp_path: Path, one_puzzle: Path) -> None:
    queens, sudoku = tmp_path / "q.html", tmp_path / "s.html"
    done = run_cli("nqueens", "--n", "8", "--workers", "1", "--html", str(queens))
    assert done.returncode == 0 and "8-queens: 92 solutions" in done.stdout
    assert re.search(r"wrote .*q\.html \(\d+ KB\): 4,849 steps", done.stderr)
    done = run_cli("sudoku", str(one_puzzle), "--trace-limit", "5", "--propagation", "peers",
                   "--html", str(sudoku))
    assert done.returncode == 0 and "(capped)" in done.stderr
    for page in (queens, sudoku):
        text = page.read_text()
        assert page.stat().st_size < 2_000_000
        assert not re.search(r"(src|href)=\"?(https?:)?//", text)
        assert "<title>" in text and 'class="legend"' in text
    assert "Trace capped at 5 steps" in sudoku.read_text()


def test_help_mentions_the_page() -> None:
    for module in ("nqueens", "sudoku"):
        done = run_cli(module, "--help")
        assert done.returncode == 0 and "--html FILE" in done.stdout
        assert "--trace-limit N" in done.stdout


def page_data(page: Path, key: str) -> dict:
    found = re.search(rf'<script type="application/json" id="data-{key}">(.*?)</script>',
                      page.read_text())
    assert found, f"no {key} data in the page"
    return json.loads(found.group(1))


def test_sudoku_page_with_a_timeline(tmp_path: Path, one_puzzle: Path) -> None:
    page = tmp_path / "s.html"
    done = run_cli("sudoku", str(one_puzzle), "--workers", "2", "--json", "--html", str(page))
    assert done.returncode == 0 and "the run's timeline" in done.stderr
    timeline = page_data(page, "timeline")
    assert timeline["lanes"][0] == "parent" and len(timeline["lanes"]) == 3
    assert len(timeline["bars"]) == timeline["tasks"] >= 1
    # The timeline is the command's own run: its nodes are the nodes the command printed,
    # and the tasks' nodes add up to them.
    printed = json.loads(done.stdout)
    assert timeline["summary"]["nodes"] == printed["nodes"]
    assert sum(bar[3] for bar in timeline["bars"]) == printed["nodes"]
    assert "second run" not in page.read_text()
    assert page_data(page, "sudoku")["kinds"][-1] == "solved"
