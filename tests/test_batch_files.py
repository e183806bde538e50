"""Files of many problems, read by every command line that takes one: a byte order mark
and comment lines, answers streamed as they are found, and a Ctrl-C that keeps the
answers printed so far, each line whole (also when the reader of stdout lags behind).

Every answer read back here goes through a checker of this file's own: a Sudoku grid's
rows, columns, boxes and givens; a sliding path replayed move by move
(``sliding_check``); a game tree's value by plain minimax and its leaf count by a
fail-hard alpha-beta written out here; a Connect-Four score against the expected
score Pascal Pons' test file carries.
"""

from __future__ import annotations

import fcntl
import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest
from sliding_check import solves
from sudoku_data import DATA, HARDEST

from parallel_backtrack import _output
from parallel_backtrack.games.__main__ import main as games_main
from parallel_backtrack.sliding.__main__ import main as sliding_main
from parallel_backtrack.sudoku.__main__ import main as sudoku_main

ROOT = Path(__file__).resolve().parents[1]
BOM = b"\xef\xbb\xbf"
EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
CLASSIC = "{(A,MAX),(B,MIN),(C,MIN)} {(A,B),(A,C),(B,4),(B,3),(C,2),(C,7)}"
C4_LINES = ["2252576253462244111563365343671351441 -1", "7422341735647741166133573473242566 1"]
C4_HARD = ROOT / "tests" / "data" / "search" / "connect4" / "Test_L1_R1.txt"


# --- independent checkers -----------------------------------------------------------

def check_sudoku(puzzle: str, solution: str) -> None:
    """A 9x9 solution: every row, column and box holds 1..9 once, and it keeps the givens."""
    assert len(solution) == 81 and set(solution) <= set("123456789"), solution
    rows = [solution[r * 9:r * 9 + 9] for r in range(9)]
    units = rows + ["".join(row[c] for row in rows) for c in range(9)]
    units += ["".join(rows[r][c] for r in range(br, br + 3) for c in range(bc, bc + 3))
              for br in (0, 3, 6) for bc in (0, 3, 6)]
    assert all(sorted(unit) == list("123456789") for unit in units)
    assert all(p in ".0" or p == s for p, s in zip(puzzle, solution))


def tree_parts(line: str) -> tuple[str, dict[str, str], dict[str, list[str]]]:
    declared, edges = line.strip().split("} {")
    kinds = dict(re.findall(r"\(([^,()]+),(MAX|MIN)\)", declared))
    children: dict[str, list[str]] = {}
    for parent, child in re.findall(r"\(([^,()]+),([^,()]+)\)", edges):
        children.setdefault(parent, []).append(child)
    return next(iter(kinds)), kinds, children


def minimax(node: str, kinds: dict[str, str], children: dict[str, list[str]]) -> int:
    if node not in kinds:
        return int(node)
    values = [minimax(child, kinds, children) for child in children[node]]
    return max(values) if kinds[node] == "MAX" else min(values)


def leaves_examined(node: str, kinds: dict[str, str], children: dict[str, list[str]],
                    alpha: float = -1e9, beta: float = 1e9) -> tuple[float, int]:
    """Fail-hard alpha-beta, children left to right, a cut at alpha >= beta."""
    if node not in kinds:
        return int(node), 1
    seen = 0
    for child in children[node]:
        value, below = leaves_examined(child, kinds, children, alpha, beta)
        seen += below
        if kinds[node] == "MAX":
            alpha = max(alpha, value)
        else:
            beta = min(beta, value)
        if alpha >= beta:
            return (beta if kinds[node] == "MAX" else alpha), seen
    return (alpha if kinds[node] == "MAX" else beta), seen


def check_answer_lines(trees: list[str], lines: list[str]) -> int:
    """Every ``Graph k: Score: s; Leaf Nodes Examined: m`` line against tree k."""
    for line in lines:
        graph, score, leaves = map(int, re.fullmatch(
            r"Graph (\d+): Score: (-?\d+); Leaf Nodes Examined: (\d+)", line).groups())
        root, kinds, children = tree_parts(trees[graph - 1])
        assert minimax(root, kinds, children) == score, line
        assert leaves_examined(root, kinds, children)[1] == leaves, line
    return len(lines)


def random_tree(rng: random.Random) -> str:
    declared, edges, names = [], [], iter(f"N{i}" for i in range(10_000))

    def grow(depth: int, kind: str) -> str:
        name = next(names)
        declared.append(f"({name},{kind})")
        for _ in range(rng.randint(1, 3)):
            child = (str(rng.randint(-50, 50)) if depth == 1
                     else grow(depth - 1, "MIN" if kind == "MAX" else "MAX"))
            edges.append(f"({name},{child})")
        return name

    grow(rng.randint(1, 4), "MAX")
    return "{" + ",".join(declared) + "} {" + ",".join(edges) + "}"


def start(argv: list[str], path: Path) -> subprocess.Popen[bytes]:
    """A command line on ``path`` in its own process (its own signal handlers)."""
    return subprocess.Popen([sys.executable, "-m", *argv, str(path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


def interrupt_after_first_line(child: subprocess.Popen[bytes],
                               lag: float = 0.0) -> tuple[list[str], str]:
    """Read the first answer line, wait ``lag`` seconds without reading (a reader that
    falls behind: the pipe fills up), send Ctrl-C; stdout's lines and stderr."""
    assert child.stdout is not None
    first = child.stdout.readline()
    assert first, "no output"
    time.sleep(lag)
    child.send_signal(signal.SIGINT)
    out = child.stdout.read()  # not communicate(): it would skip what readline buffered
    assert child.stderr is not None
    err = child.stderr.read()
    child.wait(timeout=60)
    text = (first + out).decode()
    assert text.endswith("\n"), text[-200:]
    return text.splitlines(), err.decode()


# --- a byte order mark, comment lines -------------------------------------------------

def test_every_reader_skips_a_byte_order_mark(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    sudoku = tmp_path / "sudoku.txt"
    sudoku.write_bytes(BOM + f"{EASY}\r\n{HARDEST}\r\n".encode())
    assert sudoku_main([str(sudoku), "--json", "--workers", "1"]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [a["line"] for a in answers] == [1, 2]
    for puzzle, answer in zip([EASY, HARDEST], answers):
        check_sudoku(puzzle, answer["solution"])

    for text in ("1 2 3 4 0 5 7 8 6\n8 1 3 4 0 2 7 6 5\n", "3\n1 2 3\n4 0 5\n7 8 6\n"):
        sliding = tmp_path / "sliding.txt"
        sliding.write_bytes(BOM + text.encode())
        out = io.StringIO()
        assert sliding_main([str(sliding), "--json"], out=out) == 0
        answers = [json.loads(line) for line in out.getvalue().splitlines()]
        assert answers and all(solves(a["tiles"], a["solution"]) for a in answers)

    trees = tmp_path / "trees.txt"
    trees.write_bytes(BOM + f"{CLASSIC}\n{CLASSIC}\n".encode())
    out = io.StringIO()
    assert games_main(["alphabeta", str(trees)], out=out) == 0
    assert check_answer_lines([CLASSIC] * 2, out.getvalue().splitlines()) == 2

    positions = tmp_path / "positions.txt"
    positions.write_bytes(BOM + "\n".join(C4_LINES).encode() + b"\n")
    out = io.StringIO()
    assert games_main(["connect4", "--file", str(positions)], out=out) == 0
    assert out.getvalue().splitlines()[:2] == C4_LINES  # each scores what Pons' file expects


def test_a_tree_file_skips_comment_lines(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(5)
    trees = [random_tree(rng) for _ in range(4)]
    path = tmp_path / "trees.txt"
    path.write_text(f"# trees\n{trees[0]}\n\n  # another comment\n{trees[1]}\n"
                    f"{{(A,MAX)}} {{(A,B)}}\n{trees[2]}\n#\n{trees[3]}")
    out = io.StringIO()
    assert games_main(["alphabeta", str(path)], out=out) == 1  # the bad tree on line 6
    lines = out.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines] == ["Graph 1", "Graph 2", "Graph 4",
                                                      "Graph 5"]
    assert check_answer_lines([trees[0], trees[1], "", trees[2], trees[3]], lines) == 4
    assert f"{path}:6: graph 3: " in capsys.readouterr().err
    path.write_text("# nothing but comments\n\n   # and blank lines\n")
    assert games_main(["alphabeta", str(path)], out=io.StringIO()) == 2
    assert "no trees (only blank lines and comments)" in capsys.readouterr().err


def test_the_bulk_reader_takes_comments_and_grids_as_the_general_one_does() -> None:
    from parallel_backtrack.sudoku.batch_io import parse_batch
    from parallel_backtrack.sudoku.formats import parse_puzzles

    text = (f"{HARDEST}  # the lab's\n{EASY}#x\n{HARDEST}\n" * 3
            + "1 . | . .\n. . | 2 .\n. 3 | . .\n\n")
    batch = parse_batch(text)
    entries = parse_puzzles(text)
    assert list(batch.lines) == [e.line for e in entries if e.cells is not None]
    assert [tuple(row) for row in batch.givens] == [e.cells for e in entries if e.cells]
    assert batch.errors == [(10, "grid of 4-cell lines ends after 3 of its 4 lines")]


# --- streaming and Ctrl-C ---------------------------------------------------------------

@pytest.mark.timeout(120)
@pytest.mark.parametrize("as_json", [False, True])
def test_a_tree_file_streams_and_a_ctrl_c_keeps_the_answers(tmp_path: Path,
                                                            as_json: bool) -> None:
    rng = random.Random(11)
    trees = [random_tree(rng) for _ in range(200)]
    path = tmp_path / "trees.txt"
    path.write_text("".join(f"{trees[k % 200]}\n" for k in range(60_000)))  # 10 s or so
    child = start(["parallel_backtrack.games", "alphabeta"] + ["--json"] * as_json, path)
    if as_json:  # one object for the file, printed when the search ends or stops
        time.sleep(3)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
        found = json.loads(out)
        assert child.returncode == 130 and not found["complete"]
        assert found["stop_reason"] == "interrupted" and 0 < len(found["graphs"]) < 60_000
        lines = [f"Graph {g['graph']}: Score: {g['score']}; Leaf Nodes Examined: {g['leaves']}"
                 for g in found["graphs"]]
        said = err.decode()
    else:  # the first answer comes long before the last tree is read
        lines, said = interrupt_after_first_line(child)
        assert child.returncode == 130
    assert 0 < len(lines) < 60_000
    assert said.endswith(f"interrupted after {len(lines):,} trees\n"), said
    assert check_answer_lines(trees * 300, lines) == len(lines)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_connect4_file_streams_and_a_ctrl_c_keeps_the_answers(tmp_path: Path,
                                                                workers: str) -> None:
    expected = dict(line.split() for line in C4_HARD.read_text().splitlines())
    path = tmp_path / "positions.txt"
    path.write_text(C4_HARD.read_text() * 20)  # 20,000 positions: tens of seconds
    child = start(["parallel_backtrack.games", "connect4", "--workers", workers, "--file"],
                  path)
    lines, err = interrupt_after_first_line(child)
    assert child.returncode == 130, err
    *answers, summary = lines
    assert 0 < len(answers) < 20_000
    assert all(expected[moves] == score for moves, score in map(str.split, answers))
    assert summary.startswith(f"{len(answers)} positions, ")
    assert summary.endswith(f", 0 failed; partial (interrupted): {20_000 - len(answers)} "
                            "of 20000 lines not answered")


@pytest.mark.timeout(120)
def test_a_ctrl_c_while_the_reader_lags_leaves_whole_json_lines(tmp_path: Path) -> None:
    """The Sudoku command writes its answers in blocks of up to 4,096 puzzles; a Ctrl-C
    while such a write waits on a full pipe lets the block finish: no half line, and
    the summary counts what was printed."""
    ctrl_c_keeps_whole_answers(tmp_path, 20_000)  # 1.6 MB: read whole


@pytest.mark.timeout(120)
def test_a_ctrl_c_while_the_reader_lags_answers_each_puzzle_once(tmp_path: Path) -> None:
    """A sliding batch that fills the pipe: after the Ctrl-C each puzzle printed has one
    whole answer (the one being printed is not also reported as interrupted)."""
    rng = random.Random(3)
    boards = []
    for _ in range(5000):  # random walks from the goal: solvable 8-puzzles
        tiles, blank = [1, 2, 3, 4, 5, 6, 7, 8, 0], 8
        for _ in range(40):
            row, col = divmod(blank, 3)
            steps = [(row + dr) * 3 + col + dc for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                     if 0 <= row + dr < 3 and 0 <= col + dc < 3]
            other = rng.choice(steps)
            tiles[blank], tiles[other], blank = tiles[other], 0, other
        boards.append(tiles)
    path = tmp_path / "boards.txt"
    path.write_text("".join(" ".join(map(str, tiles)) + "\n" for tiles in boards))
    child = start(["parallel_backtrack.sliding", "--show", "moves", "--no-progress"], path)
    lines, err = interrupt_after_first_line(child, lag=2.0)
    assert child.returncode == 130, err
    if re.fullmatch(rf"{re.escape(str(path))}:\d+  interrupted", lines[-1]):
        lines.pop()  # the Ctrl-C came while a puzzle was searched, not printed
    labels = lines[0::2]
    assert len(lines) % 2 == 0 and 0 < len(labels) < 5000
    numbers = [int(re.fullmatch(rf"{re.escape(str(path))}:(\d+)  \d+ moves  .* s",
                                label).group(1)) for label in labels]
    assert numbers == list(range(1, len(labels) + 1))  # none twice, none lost
    for number, moves in zip(numbers, lines[1::2]):
        assert solves(boards[number - 1], moves.replace(" ", "").replace("(alreadysolved)", ""))


def wait_for_a_full_pipe(child: subprocess.Popen[bytes]) -> None:
    """Until the child's stdout pipe holds 30 KB or more that nobody reads, unchanged for
    a second (full: a pipe of 64 KiB holds less when its writes are whole lines)."""
    assert child.stdout is not None
    held, since, deadline = -1, time.monotonic(), time.monotonic() + 90
    while time.monotonic() < deadline and child.poll() is None:
        now = int.from_bytes(fcntl.ioctl(child.stdout.fileno(), termios.FIONREAD, b"\0" * 4),
                             sys.byteorder)
        if now != held:
            held, since = now, time.monotonic()
        elif held >= 30_000 and time.monotonic() - since > 1.0:
            return
        time.sleep(0.05)
    raise AssertionError(f"the pipe never filled ({held} bytes), exit {child.poll()}")


@pytest.mark.timeout(120)
@pytest.mark.parametrize("as_json", [False, True])
def test_one_ctrl_c_stops_a_command_whose_reader_never_reads(tmp_path: Path,
                                                              as_json: bool) -> None:
    """A reader that keeps the pipe open and reads nothing (``| less`` not scrolled):
    one Ctrl-C to the process group, as a terminal sends it, stops the command within
    a few seconds, quietly, with no process left, and the pipe holds whole lines (it
    took three Ctrl-Cs: the held write, then the summary, each waited on the pipe)."""
    puzzles = [line.split()[0] for line in
               (DATA / "tdoku_puzzles2_17_clue_head3000.txt").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    path = tmp_path / "puzzles.txt"
    path.write_text("".join(f"{puzzles[k % len(puzzles)]}\n" for k in range(40_000)))
    argv = ["parallel_backtrack.sudoku", "--no-progress", *(["--json"] if as_json else [])]
    child = subprocess.Popen([sys.executable, "-m", *argv, str(path)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        wait_for_a_full_pipe(child)
        sent = time.monotonic()
        os.killpg(child.pid, signal.SIGINT)
        child.wait(timeout=10)
        took = time.monotonic() - sent
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    assert child.stdout is not None and child.stderr is not None
    out, err = child.stdout.read().decode(), child.stderr.read().decode()
    assert child.returncode == 130, err
    assert took < 4, took
    assert "Traceback" not in err, err
    assert out.endswith("\n") and len(out) >= 30_000
    lines = out.splitlines()
    answers = [json.loads(line)["solution"] for line in lines] if as_json else lines
    for index, solution in enumerate(answers):
        check_sudoku(puzzles[index % len(puzzles)], solution)
    for _ in range(100):  # the workers go with it
        try:
            os.killpg(child.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("a process of the command outlived it")


def test_a_held_write_loses_nothing_when_a_signal_lands_in_it() -> None:
    """A signal caught while a write waits on a full pipe makes the buffered ``write``
    return short; ``write_whole`` writes the rest, then delivers the Ctrl-C."""
    read_end, write_end = os.pipe()
    out = io.TextIOWrapper(io.BufferedWriter(io.FileIO(write_end, "w")), encoding="utf-8")
    text = "".join(f"{k:09d}\n" for k in range(200_000))  # 2 MB: many pipes' worth
    got: list[bytes] = []

    def reader() -> None:
        time.sleep(0.3)  # the write is waiting on the full pipe by now
        os.kill(os.getpid(), signal.SIGINT)
        with open(read_end, "rb") as stream:
            got.append(stream.read())

    before = signal.signal(signal.SIGINT, _output.deferring(signal.default_int_handler))
    thread = threading.Thread(target=reader)
    try:
        thread.start()
        with pytest.raises(KeyboardInterrupt):
            _output.write_whole(out, text)
        out.close()
        thread.join(timeout=30)
    finally:
        signal.signal(signal.SIGINT, before)
    assert got == [text.encode()]


# --- a Sudoku file longer than a slice -------------------------------------------------

NO_SOLUTION = "12345678" + "." * 72 + "9"  # A9 can only be 9, and I9 holds one


def ctrl_c_keeps_whole_answers(tmp_path: Path, count: int) -> None:
    """A Ctrl-C while the reader lags on ``count`` 17-clue puzzles with ``--json``: exit
    130, every line printed a whole JSON answer in input order (every 97th checked), and
    the summary counts the rest."""
    puzzles = sudoku_puzzles()
    path = tmp_path / "puzzles.txt"
    path.write_text("".join(f"{puzzles[k % len(puzzles)]}\n" for k in range(count)))
    child = start(["parallel_backtrack.sudoku", "--json", "--no-progress"], path)
    lines, err = interrupt_after_first_line(child, lag=1.0)  # the first block's write waits
    assert child.returncode == 130, err
    answers = [json.loads(line) for line in lines]  # each one whole
    assert 0 < len(answers) < count
    assert [a["index"] for a in answers] == list(range(len(answers)))
    for answer in answers[::97]:
        check_sudoku(puzzles[answer["index"] % len(puzzles)], answer["solution"])
    assert f", {count - len(answers)} of {count} puzzles not searched" in err


def sudoku_puzzles() -> list[str]:
    text = (DATA / "tdoku_puzzles2_17_clue_head3000.txt").read_text()
    return [line.split()[0] for line in text.splitlines()
            if line.strip() and not line.startswith("#")]


def sliced_file(path: Path) -> dict[int, str]:
    """Write puzzle lines (some CRLF, some with no solution), 9x9 grids over 11 lines,
    bad lines, givens that contradict each other, comments and blank lines behind a byte
    order mark; returns the puzzle on each line where a readable puzzle starts."""
    rng, puzzles = random.Random(9), sudoku_puzzles()
    lines: list[str] = []
    starts: dict[int, str] = {}
    for k in range(1500):
        pick, puzzle = rng.randrange(10), puzzles[k % len(puzzles)]
        if pick == 0:
            lines.append(f"bad line {k}")
        elif pick == 1:
            lines.extend(["# a comment", ""])
        elif pick == 2:
            lines.append("11" + puzzle[2:])  # A1 and A2 both hold 1
        elif pick == 3:
            starts[len(lines) + 1] = puzzle
            rows = [" ".join(puzzle[r * 9:r * 9 + 9]) for r in range(9)]
            lines.extend([*rows[:3], "------+------", *rows[3:6], "------+------", *rows[6:]])
        else:
            starts[len(lines) + 1] = NO_SOLUTION if pick == 4 else puzzle
            lines.append(starts[len(lines) + 1] + ("\r" if pick == 5 else ""))
    path.write_bytes(BOM + ("\n".join(lines) + "\n").encode())
    return starts


def check_sudoku_answers(starts: dict[int, str], out: str, as_json: bool) -> None:
    """Each readable puzzle's answer, in file order: a checked solution, or none."""
    if as_json:
        answers = [(a["status"], a["solution"]) for a in map(json.loads, out.splitlines())]
    else:
        answers = [(line.split(":")[0] if ":" in line else "solved", line.split("\t")[0])
                   for line in out.splitlines()[:-1]]
    readable = [answer for answer in answers if answer[0] != "invalid"]
    assert len(readable) == len(starts) and len(answers) > len(starts)
    for (status, solution), (_, puzzle) in zip(readable, sorted(starts.items())):
        assert status == ("unsolvable" if puzzle == NO_SOLUTION else "solved"), puzzle
        if status == "solved":
            check_sudoku(puzzle, solution)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("options", [[], ["--json"], ["--count", "--limit", "2", "--workers",
                                                      "2"]])
def test_a_sudoku_file_longer_than_a_slice_answers_as_when_read_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        options: list[str]) -> None:
    from parallel_backtrack.sudoku import batch_io, cli_input

    path = tmp_path / "puzzles.txt"
    starts = sliced_file(path)
    parse_slice, runs, calls = batch_io.parse_slice, [], []
    monkeypatch.setattr(batch_io, "parse_slice",
                        lambda *args: calls.append(1) or parse_slice(*args))
    for head in (1 << 30, 4000):  # the file whole, then in slices of some 4 KB
        monkeypatch.setattr(cli_input, "HEAD_BYTES", head)
        before = len(calls)
        code = sudoku_main([str(path), "--no-progress", *options])
        out = re.sub(r" in \S+ s \(\S+ puzzles/s\)|\"seconds\": \S+,", "",
                     capsys.readouterr().out)
        runs.append((code, out, len(calls) - before))
    (code, whole, once), (sliced_code, sliced, slices) = runs
    assert once == 1 and slices > 20
    assert code == sliced_code == 1 and sliced == whole
    check_sudoku_answers(starts, sliced, "--json" in options)


@pytest.mark.timeout(120)
def test_a_ctrl_c_on_a_file_read_in_slices_keeps_the_answers_and_counts_the_rest(
        tmp_path: Path) -> None:
    ctrl_c_keeps_whole_answers(tmp_path, 30_000)  # 2.5 MB: more than the first slice


def test_a_long_file_with_a_nul_byte_past_its_first_slice_is_read_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from parallel_backtrack.sudoku import __main__ as command
    from parallel_backtrack.sudoku import cli_input

    def refused(*args: object, **options: object) -> None:
        raise AssertionError("solved in bulk")

    monkeypatch.setattr(cli_input, "HEAD_BYTES", 2000)
    monkeypatch.setattr(command, "batch_results", refused)
    puzzles = sudoku_puzzles()[:110]  # 9,020 bytes: past the 8,192 sniffed for binary data
    path = tmp_path / "puzzles.txt"
    path.write_bytes("".join(f"{p}\n" for p in puzzles).encode() + b"ab\0c\n")
    assert sudoku_main([str(path), "--no-progress"]) == 1  # one puzzle at a time, as before
    *answers, bad, summary = capsys.readouterr().out.splitlines()
    assert bad == "invalid: line 111: a NUL byte at column 3; a puzzle file is UTF-8 text"
    assert summary.startswith("solved 110, unsolvable 0, invalid 1 ")
    for puzzle, answer in zip(puzzles, answers, strict=True):
        check_sudoku(puzzle, answer)
