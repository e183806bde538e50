"""Checkpoints of a count (``engine.checkpoint``): a count stopped again and again goes
on from its file and ends with the exact count and nodes of one uninterrupted run; a
file of another search, or not a checkpoint at all, is refused in one line."""

from __future__ import annotations

import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parallel_backtrack.engine import count, sequential_count
from parallel_backtrack.engine.checkpoint import FORMAT, Checkpoint, CheckpointError
from parallel_backtrack.engine.examples import NoAdjacentOnes
from parallel_backtrack.nqueens import ImmutableQueenLocations
from parallel_backtrack.nqueens.space import QueensSpace

ROOT = Path(__file__).resolve().parents[1]
QUEENS = {12: 14_200, 14: 365_596, 15: 2_279_184}  # OEIS A000170


def _stopped_until_done(space, path: Path, workers: int, **options) -> tuple[object, int]:
    """Count with a short time limit over and over, each run going on from the last
    one's checkpoint, until one is complete: its report and the runs it took.  The runs
    each do a slice of the work, so a machine k times busier takes k times the runs:
    some 100-200 here alone, hence the ample bound."""
    for runs in range(1, 3000):
        report = count(space, workers=workers, checkpoint=Checkpoint(str(path), every=0.02),
                       **options)
        if report.complete:
            return report, runs
        assert path.exists() and report.stop_reason == "timeout"
    raise AssertionError("the count never completed")


@pytest.mark.parametrize("workers", [1, 2])
def test_a_count_stopped_again_and_again_ends_exact(tmp_path: Path, workers: int) -> None:
    space = QueensSpace(ImmutableQueenLocations(15))
    whole = count(space, workers=1)
    path = tmp_path / "q15.ckpt"
    report, runs = _stopped_until_done(space, path, workers, timeout=0.1, budget=3_000)
    assert runs >= 2 and report.resumed_from is not None
    assert report.count == whole.count == QUEENS[15]
    assert report.nodes == whole.nodes
    assert not path.exists()  # a complete count removes it


def test_a_plain_space_is_keyed_by_its_digest(tmp_path: Path) -> None:
    path = tmp_path / "ones.ckpt"
    report, runs = _stopped_until_done(NoAdjacentOnes(24), path, 1, timeout=0.05,
                                       budget=500)
    whole = sequential_count(NoAdjacentOnes(24))
    assert runs >= 2 and (report.count, report.nodes) == (whole.count, whole.nodes)
    count(NoAdjacentOnes(24), timeout=0.05, budget=500, checkpoint=str(path))
    with pytest.raises(CheckpointError, match="is the checkpoint of another search"):
        count(NoAdjacentOnes(23), checkpoint=str(path))


def test_bad_files_and_modes_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.ckpt"
    space = QueensSpace(ImmutableQueenLocations(8))
    for data, message in [(b"not a pickle", "is not a checkpoint of this package"),
                          (pickle.dumps({"format": "other"}), "is not a checkpoint"),
                          (pickle.dumps([1, 2]), "is not a checkpoint"),
                          (pickle.dumps({"format": FORMAT, "version": 99}),
                           "format 99; this version reads 1")]:
        path.write_bytes(data)
        with pytest.raises(CheckpointError, match=message):
            count(space, checkpoint=str(path))
    with pytest.raises(CheckpointError, match="cannot write checkpoint .*: it is a folder"):
        count(space, checkpoint=str(tmp_path))
    with pytest.raises(ValueError, match="checkpoint seconds must be a positive number"):
        Checkpoint(str(path), every=0)
    from parallel_backtrack.engine import make_executor
    from parallel_backtrack.engine.scheduler import Run

    with pytest.raises(ValueError, match="checkpoints are for counts, not for mode 'first'"):
        Run(space, "first", make_executor(1), owns=True, budget=None, budget_seconds=None,
            per_worker=None, limit=None, timeout=None, progress=False,
            checkpoint=Checkpoint(str(path)))


def test_a_checkpoint_that_cannot_be_written_is_refused_before_the_search(
        tmp_path: Path) -> None:
    """It was accepted, and the first write failed a minute in (or at the timeout),
    the partial count lost."""
    space = NoAdjacentOnes(24)
    missing = tmp_path / "no" / "such" / "x.ckpt"
    afile = tmp_path / "plain"
    afile.write_text("")
    for path, problem in [(missing, f"folder {str(missing.parent)!r} does not exist"),
                          (afile / "x.ckpt", f"{str(afile)!r} is not a folder")]:
        message = f"cannot write checkpoint {str(path)!r}: {problem}"
        with pytest.raises(CheckpointError, match=re.escape(message) + "$"):
            count(space, timeout=30, checkpoint=str(path))
        with pytest.raises(CheckpointError, match="does not exist|is not a folder"):
            count(space, timeout=30, checkpoint=Checkpoint(str(path)))
    with pytest.raises(TypeError, match="checkpoint must be a file path or a Checkpoint, "
                                        "got 123"):
        count(space, checkpoint=123)
    report = count(NoAdjacentOnes(10), checkpoint=tmp_path / "as-a-path.ckpt")
    assert report.count == 144 and not (tmp_path / "as-a-path.ckpt").exists()


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_are_a_checkpoint_or_refused(data: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "any.ckpt"
        path.write_bytes(data)
        try:
            saved = Checkpoint(str(path)).load("key")
        except CheckpointError as error:
            assert "\n" not in str(error)
        else:
            assert saved is not None and isinstance(saved.works, list)


def _nqueens(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parallel_backtrack.nqueens", *argv],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_the_command_line_goes_on_from_its_checkpoint(tmp_path: Path) -> None:
    path = str(tmp_path / "q14.ckpt")
    first = _nqueens("--n", "14", "--workers", "2", "--timeout", "0.3", "--budget", "5000",
                     "--checkpoint", path, "--checkpoint-every", "0.05")
    assert first.returncode == 3, first.stderr[-500:]
    assert "partial: timeout" in first.stdout
    assert f"checkpoint {path} holds" in first.stderr
    done = _nqueens("--n", "14", "--workers", "2", "--checkpoint", path, "--json", "--verify")
    assert done.returncode == 0, done.stderr[-500:]
    import json

    report = json.loads(done.stdout)
    assert report["count"] == QUEENS[14] and report["complete"]
    assert report["resumed_from"] is not None and not Path(path).exists()
    other = _nqueens("--n", "12", "--timeout", "0.01", "--checkpoint", path)
    Path(path).write_bytes(b"\x80\x05junk")
    for argv, message in [(("--n", "12", "--checkpoint", path), "is not a checkpoint"),
                          (("--n", "12", "--find-one", "--checkpoint", path),
                           "--checkpoint applies to counting")]:
        refused = _nqueens(*argv)
        lines = refused.stderr.strip().splitlines()
        assert refused.returncode == 2 and len(lines) == 1 and message in lines[0], lines
    assert other.returncode in (0, 3)


def test_ctrl_c_leaves_the_last_checkpoint_and_the_count_goes_on_exact(tmp_path: Path
                                                                       ) -> None:
    """Ctrl-C can land anywhere in the parent's loop, so the run leaves the last
    checkpoint it wrote (between two steps), not its state at the interrupt."""
    import json
    import signal
    import time

    path = str(tmp_path / "q17.ckpt")
    argv = [sys.executable, "-m", "parallel_backtrack.nqueens", "--n", "17", "--workers",
            "2", "--checkpoint", path, "--checkpoint-every", "0.2"]
    running = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=ROOT)
    deadline = time.monotonic() + 120
    while not Path(path).exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    running.send_signal(signal.SIGINT)
    out, err = running.communicate(timeout=60)
    assert running.returncode == 130 and "partial: interrupted" in out, err[-500:]
    assert f"checkpoint {path} holds" in err
    done = subprocess.run([*argv, "--json", "--verify"], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-500:]
    report = json.loads(done.stdout)
    assert report["count"] == 95_815_104 and report["nodes"] == 1_165_216_148
    assert report["resumed_from"] > 0 and not Path(path).exists()


def test_sigterm_stops_a_checkpointed_count_at_its_next_step_with_its_state(
        tmp_path: Path) -> None:
    """A batch scheduler's SIGTERM: the count stops at its loop's next step and writes
    its checkpoint there, so the file holds exactly the partial count printed (the
    minute between checkpoints is not lost); exit 143, and the rest goes on from it."""
    import json
    import re
    import signal
    import time

    path = str(tmp_path / "q17.ckpt")
    argv = [sys.executable, "-m", "parallel_backtrack.nqueens", "--n", "17", "--workers",
            "2", "--checkpoint", path]
    running = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=ROOT)
    time.sleep(2.0)
    sent = time.monotonic()
    running.send_signal(signal.SIGTERM)
    out, err = running.communicate(timeout=60)
    assert running.returncode == 143 and time.monotonic() - sent < 5, err[-500:]
    printed = re.search(r"17-queens: ([\d,]+) solutions \(partial: terminated", out)
    held = re.search(r"checkpoint .* holds ([\d,]+) solutions", err)
    assert printed and held and printed.group(1) == held.group(1), (out, err)
    done = subprocess.run([*argv, "--json", "--verify"], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    report = json.loads(done.stdout)
    assert report["count"] == 95_815_104 and report["nodes"] == 1_165_216_148
    assert report["resumed_from"] == int(printed.group(1).replace(",", ""))


# 2,267,438 solutions; some 1 s on 2 workers (the cluster tests' long Sudoku count).
SUDOKU = "...4......5..8.2.6.....3...2...4....3......1...5.3.8..5...6.3....6........8......"


def _sudoku(*argv: str, stdin: str = SUDOKU + "\n") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parallel_backtrack.sudoku", "-", "--count",
                           *argv], input=stdin, capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_sudoku_count_goes_on_from_its_checkpoint(tmp_path: Path, workers: str) -> None:
    """``sudoku --count --checkpoint``: stopped by its time limit again and again, each
    run going on from the last one's file, the count ends equal to one plain run's (on 1
    worker the checkpointed count runs on the engine, the plain one on the sequential
    path), with a valid grid; the options it refuses, in one line."""
    import json

    from parallel_backtrack.sudoku.space import is_valid_solution

    plain = _sudoku("--workers", workers, "--json")
    assert plain.returncode == 0, plain.stderr[-500:]
    expected = json.loads(plain.stdout.splitlines()[0])["count"]
    path = str(tmp_path / "s.ckpt")
    # Each run starts its workers and solves first (some 0.3-0.5 s on a loaded host),
    # then counts until its time limit: a second a run makes steady progress.
    runs = []
    while len(runs) < 100 and not (runs and runs[-1].returncode == 0):
        runs.append(_sudoku("--workers", workers, "--json", "--timeout", "1.0",
                            "--checkpoint", path, "--checkpoint-every", "0.05"))
    done = runs[-1]
    assert done.returncode == 0, f"not done after {len(runs)} runs: {done.stderr[-300:]}"
    for stopped in runs[:-1]:  # on a loaded host a run may stop before its first one
        assert stopped.returncode == 3, stopped.stderr[-500:]
        assert (f"checkpoint {path} holds" in stopped.stderr
                or f"no checkpoint was written to {path}" in stopped.stderr)
    assert any(f"checkpoint {path} holds" in stopped.stderr for stopped in runs[:-1])
    result = json.loads(done.stdout.splitlines()[0])
    assert result["count"] == expected and result["status"] == "solved"
    assert is_valid_solution(SUDOKU, result["solution"])
    assert len(runs) > 1 and "going on from checkpoint" in done.stderr
    assert not Path(path).exists()
    two = SUDOKU + "\n" + SUDOKU + "\n"
    for argv, stdin, message in [
            (("--limit", "5", "--checkpoint", path), SUDOKU, "--checkpoint applies to"),
            (("--checkpoint", path), two, "--checkpoint counts one puzzle; stdin holds 2")]:
        refused = _sudoku(*argv, stdin=stdin)
        lines = refused.stderr.strip().splitlines()
        assert refused.returncode == 2 and len(lines) == 1 and message in lines[0], lines
    Checkpoint(path, "nqueens n=12").save(0, 0, [], 0.0)  # another search's file
    refused = _sudoku("--checkpoint", path)
    lines = refused.stderr.strip().splitlines()
    assert refused.returncode == 2 and len(lines) == 1, lines
    assert "checkpoint of another search" in lines[0]
