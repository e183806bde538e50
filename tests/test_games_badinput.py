"""Bad input to every games command, in real processes: the exit code (2 usage, 1 bad
data, 4 internal error), exactly one line on stderr that says what is wrong, and
never a traceback; hostile tree lines in bounded memory; the readers fuzzed."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parallel_backtrack.games import TreeFormatError, parse_tree
from parallel_backtrack.games.__main__ import main
from parallel_backtrack.games.connect4.board import Board, InvalidMoveError
from parallel_backtrack.games.trees import TreeReader

ROOT = Path(__file__).resolve().parents[1]
COMMAND = [sys.executable, "-m", "parallel_backtrack.games"]
CLASSIC = "{(A,MAX),(B,MIN),(C,MIN)} {(A,B),(A,C),(B,4),(B,3),(C,2),(C,7)}"
MEMORY_CAP = 1200 * 2**20  # address space for a hostile line: far below its size x 6


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run(argv: list[str], cap_memory: bool = False) -> tuple[int, list[str]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(COMMAND + argv, capture_output=True, text=True, env=env,
                          timeout=120, preexec_fn=_limit_memory if cap_memory else None)
    assert "Traceback" not in done.stderr
    return done.returncode, done.stderr.strip().splitlines()


def one_line(code: int, lines: list[str], expected: int, *words: str) -> None:
    assert code == expected, lines
    assert len(lines) == 1, lines
    assert all(word in lines[0] for word in words), lines[0]


TREES = [
    ("{(A,MAX),(B,MIN)} {(A,B),(B,1)", "unbalanced"),
    ("{(A,MAX)} {(A,1),(Z,2)}", "undeclared node 'Z'"),
    ("{(A,MAX),(B,MIN)} {(A,B),(B,A)}", "a cycle"),
    ("{(A,MAX),(B,MIN)} {(A,B),(A,3)}", "internal node 'B' has no children"),
    ("{(A,MAX)} {(A,1.5)}", "neither an integer"),
    ("{(A,MOX)} {(A,1)}", "expected MAX or MIN"),
    ("hello", "expected two sets"),
    ("{(A,MAX)} {(A,1)} {(A,2)}", "after the edge set"),
    ("{(A,MAX)} {((A,1))}", "edge set"),
    ("{(A,MAX)} {(A," + "9" * 31 + ")}", "neither an integer"),
]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("text,reason", TREES)
def test_bad_tree_files(tmp_path, text, reason):
    path = tmp_path / "t.txt"
    path.write_text(text + "\n")
    one_line(*run(["alphabeta", str(path)]), 1, f"{path}:1: graph 1:", reason)


@pytest.mark.timeout(120)
def test_tree_file_usage_errors(tmp_path):
    one_line(*run(["alphabeta", str(tmp_path / "nope.txt")]), 2, "cannot read", "nope.txt")
    one_line(*run(["alphabeta", str(tmp_path)]), 2, "cannot read", "directory")
    (tmp_path / "empty.txt").write_text("\n\n")
    one_line(*run(["alphabeta", str(tmp_path / "empty.txt")]), 2,
             "no trees (only blank lines and comments)")
    good = tmp_path / "good.txt"
    good.write_text(CLASSIC + "\n")
    one_line(*run(["alphabeta", str(good), "-o", str(tmp_path)]), 2, "cannot write")


PROG = "python -m parallel_backtrack.games"
NOT_TEXT = [
    (b"", "no trees (the file is empty)"),
    (b"\n \n", "no trees (only blank lines and comments)"),
    (b"\x00\x01\x02abc\n", "cannot read {name}: binary data or not UTF-8 text: a NUL byte on "
     "line 1, column 1; a tree file is UTF-8 text"),
    (b"\xff\xfe bad utf8 line\n", "cannot read {name}: binary data or not UTF-8 text: byte "
     "0xff (not UTF-8) on line 1, column 1; a tree file is UTF-8 text"),
    (CLASSIC.encode() + b"\n{(A,MAX)} {(A,\xe9)}\n" + bytes(range(256)) * 40,
     "cannot read {name}: binary data or not UTF-8 text: byte 0xe9 (not UTF-8) on line 2, "
     "column 15; a tree file is UTF-8 text"),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("data,message", NOT_TEXT)
def test_an_empty_or_binary_tree_file_is_one_usage_error(tmp_path, data, message):
    path = tmp_path / "t.bin"
    path.write_bytes(data)
    empty = message.startswith("no trees")
    code, lines = run(["alphabeta", str(path)])
    expected = f"{path}: {message}" if empty else message.format(name=path)
    assert (code, lines) == (2, [f"{PROG} alphabeta: error: {expected}"])
    done = subprocess.run(COMMAND + ["alphabeta", "-"], input=data, capture_output=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    expected = f"stdin: {message}" if empty else message.format(name="stdin")
    assert (done.returncode, done.stderr.decode()) == (
        2, f"{PROG} alphabeta: error: {expected}\n")


@pytest.mark.timeout(120)
def test_trees_from_stdin():
    done = subprocess.run(COMMAND + ["alphabeta", "-"], input=CLASSIC + "\n", text=True,
                          capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "Graph 1: Score: 3; Leaf Nodes Examined: 3\n", "")


@pytest.mark.timeout(120)
@pytest.mark.parametrize("where", ["a directory", "a missing folder"])
def test_an_output_that_cannot_be_written_is_refused_before_the_search(tmp_path, where):
    trees = tmp_path / "bad.txt"
    trees.write_text("{(A,MAX)} {(A,B)}\nfoo\n{(A,MAX),(B,MIN)} {(A,B)}\n")
    target = tmp_path if where == "a directory" else tmp_path / "nope" / "o.txt"
    reason = "Is a directory" if where == "a directory" else "No such file or directory"
    assert run(["alphabeta", str(trees), "-o", str(target)]) == (
        2, [f"{PROG} alphabeta: error: cannot write {target}: {reason}"])
    made = tmp_path / "made.txt"  # refused input: no output file left behind
    assert run(["alphabeta", str(tmp_path / "empty"), "-o", str(made)])[0] == 2
    assert not made.exists()


@pytest.mark.timeout(300)
@pytest.mark.parametrize("kind", ["garbage", "parentheses", "nesting"])
def test_hostile_lines_fail_in_bounded_memory(tmp_path, kind):
    path = tmp_path / "hostile.txt"
    with open(path, "wb") as stream:
        if kind == "garbage":  # 200 MB, one line, no newline at all
            block = bytes(range(33, 123)) * 11650
            for _ in range(200):
                stream.write(block[:1 << 20])
        elif kind == "parentheses":
            stream.write(b"{(A,MAX)} {" + b"(A,1)," * 10**6 + b"(A,1)))))}\n")
        else:  # 10^6-deep nesting
            stream.write(b"{" + b"(" * 10**6 + b"A,MAX" + b")" * 10**6 + b"} {(A,1)}\n")
        stream.write(b"\n" + CLASSIC.encode() + b"\n")  # the next tree is still answered
    code, lines = run(["alphabeta", str(path)], cap_memory=True)
    one_line(code, lines, 1, "graph 1:")


def test_a_tree_fed_byte_by_byte_is_the_tree():
    text = (b"{(A,MAX),(B,MIN),(C,MIN)} {(A,B),(A,C),(B,4),(B,3),(C,2),(C,7)}")
    whole = parse_tree(text).game
    for size in (1, 2, 3, 9, 10):  # chunks ending after every kind of character
        reader = TreeReader()
        for start in range(0, len(text), size):
            reader.feed(text[start:start + size])
        reader.feed(b"", final=True)
        game = reader.tree().game
        assert (game.first, game.targets, game.leaf_values) == (
            whole.first, whole.targets, whole.leaf_values)


def test_hostile_lines_are_read_in_chunks():
    reader = TreeReader()
    reader.feed(b"{(A,MAX),(B,MIN),(C")  # a cut pair waits for the next chunk
    assert reader.buffer[reader.pos:] == b"(C" and reader.sets[0] == [b"A", b"MAX", b"B", b"MIN"]
    with pytest.raises(TreeFormatError, match="node set"):
        reader.feed(b"(" * 10**6)  # refused at once, whatever follows
    with pytest.raises(TreeFormatError, match="longer than 1,000"):
        parse_tree("{(" + "N" * 1001 + ",MAX)} {(A,1)}")


CONNECT4 = [
    (["connect4", "448"], 2, "move 3 ('8') of '448' is not a column 1..7"),
    (["connect4", "1212121"], 2, "the game is over"),
    (["connect4", "12121212"], 2, "after the game was won"),
    (["connect4", "4444444"], 2, "which is full"),
    (["connect4", "4x"], 2, "move 2 ('x')"),
    (["connect4"], 2, "give either MOVES or --file FILE, e.g. 'connect4 4453222'"),
    (["connect4", "44", "--file", "p.txt"], 2, "give either MOVES or --file FILE (not both)"),
    (["connect4", "44", "--width", "10"], 2, "width must be at most 9"),
    (["connect4", "44", "--tt-mb", "0"], 2, "--tt-mb must be in"),
    (["connect4", "--file", "/nonexistent/p.txt"], 2, "cannot read"),
    (["nim"], 2, "--sticks"),
    (["nim", "--sticks", "0"], 2, "sticks must be 1..10,000,000"),
    (["nim", "--sticks", "abc"], 2, "--sticks"),
    (["nim", "--sticks", "50", "--no-tt"], 2, "N <= 40"),
    (["tictactoe", "--workers", "0"], 2, "workers must be a positive integer"),
    (["random", "--branching", "0"], 2, "branching must be 1..64"),
    (["random", "--depth", "41"], 2, "depth must be 1..40"),
    (["random", "--branching", "64", "--split-depth", "3"], 2, "--split-depth too deep"),
    (["random", "--seed", "-1"], 2, "seed"),
    (["chess"], 2, "invalid choice"),
    (["random", "--timeout", "5"], 2, "--timeout does not apply to random"),
    (["connect4", "--file", "p.txt", "--progress"], 2, "--progress follows one position"),
    (["random", "--progress"], 2, "--progress does not apply to random"),
    (["connect4", "--file", "p.txt", "--timeout", "5"], 2, "--timeout limits one position"),
    (["connect4", "44", "--scheduler-address", "nonsense"], 2, "tcp://nonsense:8786"),
    (["random", "--backend", "nope"], 2, "backend"),
    (["tictactoe", "--budget", "0"], 2, "--budget"),
]


def test_random_help_says_the_options_it_refuses_are_refused(capsys):
    """--timeout and --progress are taken for uniformity but refused (exit 2): its --help
    says so, where it said they stop the run and exit 3."""
    assert main(["random", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for flag in ("--timeout SECONDS", "--progress, --no-progress"):
        assert f"{flag} refused here (exit 2): parallel alpha-beta has no" in text, text
    assert "exit 3" not in text


@pytest.mark.timeout(300)
@pytest.mark.parametrize("argv,code,message", CONNECT4)
def test_bad_options_and_moves(argv, code, message):
    one_line(*run(argv), code, message)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("moves,message", [
    ("999", "move 1 ('9') of '999' is not a column 1..7"),
    ("abc", "move 1 ('a') of 'abc' is not a column 1..7"),
    ("4444444", "move 7 (4) of '4444444' plays in column 4, which is full"),
    ("1212121", "the game is over: the last move of '1212121' won")])
def test_a_bad_moves_argument_is_a_usage_error(moves, message):
    assert run(["connect4", moves]) == (2, [f"{PROG} connect4: error: {message}"])


BATCH_NOT_TEXT = [
    (b"", "no positions (the file is empty)"),
    (b"# only a comment\n\n", "no positions (only blank lines and comments)"),
    (b"\x00\x01\x02abc\n", "binary data or not UTF-8 text: a NUL byte on line 1, column 1; "
     "a batch file is UTF-8 text"),
    (b"\xff\xfe bad utf8 line\n", "binary data or not UTF-8 text: byte 0xff (not UTF-8) on "
     "line 1, column 1; a batch file is UTF-8 text"),
    (b"44\n4\xe94\n", "binary data or not UTF-8 text: byte 0xe9 (not UTF-8) on line 2, "
     "column 2; a batch file is UTF-8 text"),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("data,message", BATCH_NOT_TEXT)
def test_an_empty_or_binary_batch_file_is_one_usage_error(tmp_path, data, message):
    path = tmp_path / "p.txt"
    path.write_bytes(data)
    assert run(["connect4", "--file", str(path)]) == (
        2, [f"{PROG} connect4: error: cannot read {path}: {message}"])
    done = subprocess.run(COMMAND + ["connect4", "--file", "-"], input=data,
                          capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          timeout=120)
    assert (done.returncode, done.stderr.decode()) == (
        2, f"{PROG} connect4: error: cannot read stdin: {message}\n")


@pytest.mark.timeout(120)
def test_bytes_that_are_no_text_past_the_first_8_kib_fail_their_line(tmp_path):
    path = tmp_path / "p.txt"
    path.write_bytes(b"#" * 9000 + b"\n7422341735647741166133573473242566 1\n4\xff4\n")
    assert run(["connect4", "--file", str(path)]) == (1, [
        f"{PROG} connect4: {path}:3: binary data or not UTF-8 text: byte 0xff (not UTF-8) at "
        "column 2"])


@pytest.mark.timeout(120)
def test_connect4_file_with_bad_lines(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("7422341735647741166133573473242566 1\n449 3\n")
    one_line(*run(["connect4", "--file", str(path)]), 1, f"{path}:2:", "move 3 ('9')")
    path.write_text("7422341735647741166133573473242566 2\n")
    one_line(*run(["connect4", "--file", str(path)]), 1, f"{path}:1:", "scores 1, expected 2")
    path.write_text("44 x\n")
    one_line(*run(["connect4", "--file", str(path)]), 1, "expected score 'x' is not")
    path.write_text("44 1 2\n")
    one_line(*run(["connect4", "--file", str(path)]), 1, "got 3 fields")


def test_a_fault_inside_the_solver_is_an_internal_error(monkeypatch, capsys):
    from parallel_backtrack.games.connect4 import solver

    def broken(self, position, weak=False):
        raise ValueError("a bug in the solver")

    monkeypatch.setattr(solver.Solver, "solve", broken)
    monkeypatch.delenv("PARALLEL_BACKTRACK_TRACEBACK", raising=False)
    assert main(["connect4", "7422341735647741166133573473242566"]) == 4
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "internal error" in lines[0] and "a bug in the solver" in lines[0]


TOKENS = st.sampled_from(["{", "}", "(", ")", ",", "A", "B", "MAX", "MIN", "max", "1", "-7",
                          " ", "\t", "\r", "\x00", "é", "99999999999999999999999999999999"])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(TOKENS, max_size=40).map("".join), st.integers(1, 7))
def test_tree_reader_fuzz(text, cut):
    """Any text parses or raises TreeFormatError; fed in chunks, the same outcome."""
    data = text.encode()
    try:
        whole = parse_tree(data)
    except TreeFormatError as error:
        whole = error
    reader = TreeReader()
    try:
        for start in range(0, max(len(data), 1), cut):
            reader.feed(data[start:start + cut])
        reader.feed(b"", final=True)
        chunked = reader.tree()
    except TreeFormatError as error:
        chunked = error
    assert type(chunked) is type(whole)
    if not isinstance(whole, TreeFormatError):
        assert isinstance(chunked, type(whole))
        assert (chunked.game.first, chunked.game.targets, chunked.game.leaf_values) == (
            whole.game.first, whole.game.targets, whole.game.leaf_values)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789 x\t-", max_size=50), st.integers(1, 9), st.integers(1, 7))
def test_move_string_fuzz(moves, width, height):
    """Any move string is a position (replayed stone by stone) or InvalidMoveError."""
    if (height + 1) * width > 64:
        return
    board = Board(width, height)
    try:
        position = board.parse(moves)
    except InvalidMoveError as error:
        assert "move" in str(error)
        return
    assert position.moves == len(moves.strip())
    assert bin(position.mask).count("1") == position.moves


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.binary(max_size=30), TOKENS.map(str.encode),
                          st.just(b"\n"), st.just(CLASSIC.encode())), max_size=30).map(b"".join))
def test_tree_file_fuzz(data):
    """Any bytes: answered (0), some trees bad (1, a line each), or one usage error (2);
    never anything raised.  A file is binary exactly when ``_cli.not_text`` says so."""
    import contextlib
    import io
    import tempfile

    from parallel_backtrack import _cli
    from parallel_backtrack.games.cli_alphabeta import answer_file

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.txt"
        path.write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err):
            code = main(["alphabeta", str(path)], out=out)
    lines = err.getvalue().splitlines()
    binary = _cli.not_text(data, True)
    answers = answer_file(data)
    if binary or not answers:
        assert code == 2 and len(lines) == 1, lines
        assert ("binary data or not UTF-8" if binary else "no trees") in lines[0]
    else:
        assert code == (1 if any(a.error for a in answers) else 0)
        assert len(lines) == sum(1 for a in answers if a.error)
        assert out.getvalue().count("\n") == sum(1 for a in answers if not a.error)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=12), st.sampled_from(
    [b"44", b"4453", b" 3", b"#", b"\n", b"\r\n", b"\xff", b"\x00", b"\xc3\xa9", b"x"])),
    max_size=25).map(b"".join))
def test_batch_file_fuzz(data):
    """Any bytes: a batch (every line a position or an invalid row) or BatchFileError;
    never anything else raised."""
    import tempfile

    from parallel_backtrack.games.connect4.batchfile import BatchFileError, read_batch

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.txt"
        path.write_bytes(data)
        try:
            good, bad = read_batch(str(path), Board())
        except BatchFileError as error:
            assert "binary data" in str(error) or "no positions" in str(error)
            return
    assert good or bad
    assert all(row["status"] == "invalid" and row["error"] for row in bad)
