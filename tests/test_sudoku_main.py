"""The CLI: python -m parallel_backtrack.sudoku FILE|- [options]."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sudoku_data import DATA, HARDEST

from parallel_backtrack.sudoku.__main__ import main
from parallel_backtrack.sudoku.space import is_valid_solution

ROOT = Path(__file__).resolve().parents[1]
MIXED = str(ROOT / "tests" / "data" / "sudoku_mixed.txt")
GRIDS = str(ROOT / "tests" / "data" / "sudoku_grids.txt")
EMPTY = str(ROOT / "tests" / "data" / "sudoku_empty.txt")
SOLVED = "859612437723854169164379528986147352375268914241593786432981675617425893598736241"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_one_puzzle_prints_its_solution_as_a_grid(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(HARDEST + "\n"))
    code, out, err = run(capsys, "-")
    lines = out.splitlines()
    assert code == 0 and err == ""
    assert lines[0] == "8 5 9 | 6 1 2 | 4 3 7" and len(lines) == 12
    assert lines[-1].startswith("solved 1, unsolvable 0, invalid 0 in ")


def test_one_line_per_puzzle_then_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, MIXED, "--order", "row-major", "--propagation", "twins")
    lines = out.splitlines()
    assert code == 1
    assert lines[0] == SOLVED
    assert lines[1].startswith("invalid: line 3: 80 cells;")
    assert lines[3] == (
        "invalid: line 6: givens contradict each other: A1 and A2 both hold 1 (same row, box)"
    )
    assert lines[4] == "unsolvable: line 7"
    assert lines[5].startswith("invalid: line 8: cannot read '*' (cell 81)")
    assert lines[6].startswith("solved 2, unsolvable 1, invalid 3 in ")
    assert "puzzles/s" in lines[6] and lines[6].endswith(" nodes")


def test_counting_with_stats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, GRIDS, "--count", "--limit", "3", "--stats")
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith(SOLVED + "\tcount=1\tnodes=")
    assert "\tcount=1\t" in lines[1] and "\tseconds=" in lines[1]
    assert "\tcount>=3 (limit reached)\t" in lines[2]  # it has more than 3
    assert lines[-1].endswith("solutions counted")


def test_counting_leaves_the_count_off_a_line_never_counted(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, MIXED, "--count")
    lines = out.splitlines()
    assert code == 1
    assert lines[0] == SOLVED + "\tcount=1"
    assert lines[1].startswith("invalid: line 3: 80 cells;") and "count" not in lines[1]
    assert lines[4] == "unsolvable: line 7\tcount=0"


def test_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, MIXED, "--json", "--count")
    objects = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and err == ""
    assert [o["index"] for o in objects] == list(range(6))
    assert [o["status"] for o in objects] == [
        "solved", "invalid", "solved", "invalid", "unsolvable", "invalid",
    ]
    assert [o["count"] for o in objects] == [1, None, 1, None, 0, None]
    assert objects[0]["solution"] == SOLVED and is_valid_solution(HARDEST, SOLVED)
    assert objects[4]["solution"] is None
    assert objects[3]["error"].startswith("line 6: givens contradict each other")
    assert all({"nodes", "seconds"} <= set(o) for o in objects)
    assert "error" not in objects[0]


def test_json_stats_summary_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, GRIDS, "--json", "--stats")
    assert code == 0 and len(out.splitlines()) == 3
    assert err.startswith("solved 3, unsolvable 0, invalid 0 in ")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nothere.txt"], "cannot read 'nothere.txt': No such file or directory"),
        ([EMPTY], f"no puzzle in {EMPTY!r}"),
        ([MIXED, "--order", "fewset"],
         "argument --order: unknown order 'fewset'; expected one of ['fewest', 'row-major']"
         " (did you mean 'fewest'?)"),
        ([MIXED, "--propagation", "unit"],
         "argument --propagation: unknown propagation 'unit'; expected one of"
         " ['locked', 'matching', 'none', 'peers', 'twins', 'units'] (did you mean 'units'?)"),
        ([MIXED, "--workers", "0"],
         "argument --workers: workers must be a positive integer or -1 (all cores), got 0"),
        ([MIXED, "--workers", "-2"],
         "argument --workers: workers must be a positive integer or -1 (all cores), got -2"),
        ([MIXED, "--workers", "two"], "argument --workers: workers must be an integer, got 'two'"),
        ([MIXED, "--limit", "3"], "--limit needs --count"),
        ([MIXED, "--trace-limit", "5"], "--trace-limit applies to --html"),
        ([MIXED, "--count", "--checkpoint-every", "5"],
         "--checkpoint-every applies to --checkpoint"),
        ([MIXED, "--count", "--limit", "0"],
         "argument --limit: expected a positive integer, got 0"),
        ([], "the following arguments are required: FILE|-"),
        ([MIXED, "--frobnicate"], "unrecognized arguments: --frobnicate"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err == f"python -m parallel_backtrack.sudoku: error: {message}\n"


def test_a_file_of_one_puzzle_at_most_never_loads_the_bulk_reader(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from parallel_backtrack.sudoku import cli_input

    def refused(raw: bytes) -> None:
        raise AssertionError("the bulk reader's kernel was loaded")

    monkeypatch.setattr(cli_input, "parse_batch", refused)
    comments = tmp_path / "comments.txt"
    comments.write_bytes(b"# nothing here\n\n   \n# still nothing\n")
    code, _, err = run(capsys, str(comments))
    assert code == 2 and "no puzzle in" in err
    one = tmp_path / "one.txt"
    one.write_text("# one puzzle\n" + HARDEST + "\n")
    code, out, _ = run(capsys, str(one))
    grid = "".join(ch for line in out.splitlines()[:11] for ch in line if ch.isdigit())
    assert code == 0 and is_valid_solution(HARDEST, grid)


def test_a_directory_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, str(ROOT / "tests"))
    assert code == 2 and err.startswith("python -m parallel_backtrack.sudoku: error: cannot read")
    assert len(err.splitlines()) == 1


@pytest.mark.timeout(120)
def test_workers_give_the_same_output(capsys: pytest.CaptureFixture[str]) -> None:
    path = DATA / "norvig_top95.txt"
    _, one, _ = run(capsys, str(path), "--json", "--count", "--limit", "2")
    code, two, _ = run(capsys, str(path), "--json", "--count", "--limit", "2", "--workers", "2",
                       "--progress")
    strip = [{k: v for k, v in json.loads(line).items() if k != "seconds"}
             for line in one.splitlines()]
    assert code == 0
    assert [{k: v for k, v in json.loads(line).items() if k != "seconds"}
            for line in two.splitlines()] == strip
    assert len(strip) == 95 and all(o["count"] == 1 for o in strip)


@pytest.mark.timeout(120)
def test_one_puzzle_split_across_workers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    puzzle = tmp_path / "many.txt"
    puzzle.write_text(
        "...4......5..8.2.6.....3...2...4....3......1...5.3.8.25...6.3.8..6....95..8......\n"
    )
    code, out, _ = run(capsys, str(puzzle), "--count", "--workers", "2")
    assert code == 0 and "count=847" in out


@pytest.mark.timeout(120)
def test_the_runner_returns_the_reports_of_its_own_run() -> None:
    """A count on two workers is a solve, then a count: both reports come back, and their
    nodes are the nodes the result gives (the --html timeline draws these)."""
    from parallel_backtrack.sudoku.formats import PuzzleEntry
    from parallel_backtrack.sudoku.runner import Job, solve_entry_reported

    cells = tuple(int(c) if c != "." else 0 for c in
                  "...4......5..8.2.6.....3...2...4....3......1...5.3.8.25...6.3.8..6....95..8......")
    entry = PuzzleEntry(1, cells=cells)
    result, reports = solve_entry_reported(0, entry, Job(count=True), workers=2)
    assert result.count == 847 and is_valid_solution(cells, result.solution)
    assert [r.mode for r in reports] == ["first", "count"]
    assert reports[1].count == 847 and reports[1].workers == 2
    assert sum(r.nodes for r in reports) == result.nodes
    alone, none = solve_entry_reported(0, entry, Job(count=True), workers=1)
    assert none == [] and alone.count == 847


@pytest.mark.timeout(120)
def test_runs_as_a_module_without_a_traceback() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    ok = subprocess.run([sys.executable, "-m", "parallel_backtrack.sudoku", GRIDS],
                        capture_output=True, text=True, env=env, cwd=ROOT, timeout=100)
    assert ok.returncode == 0 and ok.stdout.splitlines()[-1].startswith("solved 3")
    bad = subprocess.run([sys.executable, "-m", "parallel_backtrack.sudoku", "nothere.txt"],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=100)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert len(bad.stderr.splitlines()) == 1


UNSOLVABLE_LINE = "12345678." + "........9" + "." * 63  # consistent givens, A9 left empty


def _without_seconds(text: str) -> list[str]:
    """The answer lines, the seconds taken out (the summary line dropped)."""
    lines = []
    for line in text.splitlines():
        if line.startswith("solved "):
            continue
        if line.startswith("{"):
            data = json.loads(line)
            data.pop("seconds")
            line = json.dumps(data)
        lines.append(line.split("\tseconds=")[0])
    return lines


@pytest.mark.timeout(300)
def test_bulk_blocks_print_as_each_result_would(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    from parallel_backtrack.sudoku.batch_io import parse_batch
    from parallel_backtrack.sudoku.results import ResultBlock
    from parallel_backtrack.sudoku.runner import Job, kernel_results

    puzzles = (DATA / "norvig_top95.txt").read_text().split()
    text = "\n".join([*puzzles[:40], UNSOLVABLE_LINE, *puzzles[40:]]) + "\n"
    path = tmp_path / "96.txt"
    path.write_text(text)
    for options in ([], ["--count"], ["--stats"], ["--count", "--limit", "2", "--stats"],
                    ["--count", "--limit", "1"], ["--json", "--count", "--limit", "1"],
                    ["--json"], ["--json", "--count", "--stats"]):
        code, bulk, _ = run(capsys, str(path), *options)
        again, each, _ = run(capsys, str(path), *options, "--verify")  # one result a puzzle
        assert code == again == 1  # one unsolvable
        assert _without_seconds(bulk) == _without_seconds(each) and len(bulk.splitlines()) >= 96
        if "--json" not in options:
            assert bulk.splitlines()[40].startswith("unsolvable: line 41")
        if options == ["--count", "--limit", "1"]:  # every solved puzzle reached its limit
            assert bulk.splitlines()[0].endswith("\tcount>=1 (limit reached)")
    found = list(kernel_results(parse_batch(text), Job(), slice_puzzles=7))
    assert all(isinstance(item, ResultBlock) for item in found) and len(found) == 14
    assert sum(len(item) for item in found if isinstance(item, ResultBlock)) == 96


def cli(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The command line as a user runs it: a whole process."""
    return subprocess.run([sys.executable, "-m", "parallel_backtrack.sudoku", *argv],
                          input=stdin, capture_output=True, text=True, timeout=120, cwd=ROOT)


OPEN = "...4......5..8.2.6.....3...2...4....3......1...5.3.8.25...6.3.8..6....95..8......"


@pytest.mark.timeout(120)
def test_an_unsolvable_puzzle_names_its_line() -> None:
    done = cli("-", stdin=f"{HARDEST}\n# a comment\n{UNSOLVABLE_LINE}\n")
    lines = done.stdout.splitlines()
    assert (done.returncode, done.stderr) == (1, "")
    assert lines[:2] == [SOLVED, "unsolvable: line 3"]
    done = cli("-", "--count", stdin=f"{UNSOLVABLE_LINE}\n")  # alone: no grid to draw
    assert (done.returncode, done.stdout.splitlines()[0]) == (1, "unsolvable: line 1\tcount=0")


@pytest.mark.timeout(120)
def test_a_value_too_big_is_quoted_as_typed_at_its_line() -> None:
    text = f"{HARDEST}\n{HARDEST}\n\nx{HARDEST[1:]}\n"
    done = cli("-", stdin=text)
    assert done.returncode == 1
    assert done.stdout.splitlines()[2] == "invalid: line 4: values must be 1..9: A1 holds 'x'"
    grid = "12|34\n34|12\n--+--\n21|43\n43|Z1\n"  # the Z on the file's 5th line
    done = cli("-", "--json", stdin=grid)
    result = json.loads(done.stdout)
    assert (done.returncode, result["status"], result["line"]) == (1, "invalid", 5)
    assert result["error"] == "line 5: values must be 1..4: D3 holds 'Z'"


@pytest.mark.timeout(120)
def test_a_count_that_reached_its_limit_says_so() -> None:
    done = cli("-", "--count", "--limit", "100", stdin=OPEN + "\n")  # 847 solutions
    assert (done.returncode, done.stderr) == (0, "")  # the limit asked for: no error
    assert done.stdout.splitlines()[11] == "count>=100 (limit reached)"
    done = cli("-", "--count", "--limit", "100", "--json", stdin=f"{OPEN}\n{HARDEST}\n")
    first, second = map(json.loads, done.stdout.splitlines())
    assert done.returncode == 0
    assert (first["status"], first["count"], first["complete"], first["stop_reason"]) == (
        "solved", 100, False, "limit")
    assert (second["count"], second["complete"], "stop_reason" in second) == (1, True, False)
    done = cli("-", "--count", "--limit", "1000", "--json", stdin=OPEN + "\n")
    whole = json.loads(done.stdout)
    assert (done.returncode, whole["count"], whole["complete"]) == (0, 847, True)


def test_a_second_ctrl_c_while_the_rest_is_counted_leaves_it_uncounted(
        capsys: pytest.CaptureFixture[str]) -> None:
    from parallel_backtrack.sudoku import __main__ as command
    from parallel_backtrack.sudoku.batch_io import FileSlices
    from parallel_backtrack.sudoku.results import Summary

    def interrupted(size: int) -> bytes:
        raise KeyboardInterrupt

    assert command._rest_counted(FileSlices(io.BytesIO(f"{HARDEST}\n".encode() * 3).read)) == 3
    assert command._rest_counted(FileSlices(interrupted)) is None
    args = command.build_parser().parse_args(["-"])
    assert command._finish(Summary(solved=2), "interrupted", None, 1.0, args) == 130
    assert capsys.readouterr().out.endswith(
        "; partial (interrupted): 0 stopped, the rest of the file not counted\n")
