"""Bad input to the sliding command line in real processes (exit code, exactly one stderr
line per problem with its message, no traceback), and the readers fuzzed."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sliding_check import CACHE, solves

from parallel_backtrack._text import SNIFF_BYTES
from parallel_backtrack.sliding.board import check_tiles
from parallel_backtrack.sliding.readers import (
    FORMATS,
    Entry,
    Failure,
    PuzzleFormatError,
    decode,
    parse_text,
)

assert CACHE
ROOT = Path(__file__).resolve().parents[1]
PROG = "python -m parallel_backtrack.sliding"
FUZZ = settings(max_examples=200, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

BINARY = "binary data or not UTF-8 text: "  # every reader's words (`_text.not_text`)


def cli(*argv: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "parallel_backtrack.sliding", *argv],
                          input=stdin, capture_output=True, env=env, timeout=120)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(),
                                       done.stderr.decode("utf-8", "replace"))


@pytest.mark.timeout(300)
@pytest.mark.parametrize("stdin, message", [
    (b"1 2 3 4 5 6 7 0 8\n1 2 3 4 5 5 7 8 0\n",
     "line 2: tile 5 appears twice (tile 6 is missing)"),
    (b"1 2 3 4 5 6 7 0 8\n1 2 3 4 5 6 7 8\n", "line 2: 8 numbers is not a square tile count "
     "(n*n tiles, then at most 3 annotation numbers)"),
    (b"1 2 3 4 5 6 7 0 8\nx y z\n", "line 2: expected tile numbers, got 'x'"),
    (b"3\n1 2 3\n4 5 6\n", "line 1: N = 3 needs 9 tiles; the file ends after 6"),
    (b"12\n1\n", "line 1: board size N = 12 is out of range 2..10"),
])
def test_bad_stdin_fails_its_line_only(stdin: bytes, message: str) -> None:
    done = cli("-", "--json", "--heuristic", "manhattan", stdin=stdin)
    err = done.stderr.strip().splitlines()
    assert done.returncode == 1, done.stderr
    assert err == [f"{PROG}: error: -: {message}"]
    outcomes = [json.loads(line) for line in done.stdout.splitlines()]
    good = stdin.startswith(b"1 2 3 4 5 6 7 0 8")
    for outcome in outcomes[:good]:  # the good line is still solved, and checked here
        assert outcome["status"] == "solved" and solves(outcome["tiles"], outcome["solution"])
    line = int(message.split(":")[0].split()[1])
    assert outcomes[good:] == [{"source": "-", "line": line, "status": "invalid",
                                "error": message, "complete": True, "nodes": 0,
                                "seconds": 0.0}]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("stdin, message", [
    (b"", "-: no puzzles (empty, or only comments)"),
    (b"# only a comment\n", "-: no puzzles (empty, or only comments)"),
    (b"\x00\x01\x02", f"-: {BINARY}a NUL byte on line 1, column 1"),
    (b"\xff\xfe 1 2 3", f"-: {BINARY}byte 0xff (not UTF-8) on line 1, column 1"),
    (b"1 2 3 4 5 6 7 0 8\n\xe2\x82", f"-: {BINARY}byte 0xe2 (not UTF-8) on line 2, column 1"),
])
def test_a_stdin_with_no_puzzles_is_a_usage_error(stdin: bytes, message: str) -> None:
    done = cli("-", "--json", stdin=stdin)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [f"{PROG}: error: {message}"]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name, content, message", [
    ("missing.txt", None, "cannot read {path}: No such file or directory"),
    ("adir", "dir", "{path}: is a directory, not a puzzle file"),
    ("empty.txt", b"", "{path}: no puzzles (empty, or only comments)"),
    ("garbage.bin", b"ab\x00cd", "{path}: " + BINARY + "a NUL byte on line 1, column 3"),
    ("nonutf8.txt", b"\xff\xfe bad utf8 line\n",
     "{path}: " + BINARY + "byte 0xff (not UTF-8) on line 1, column 1"),
])
def test_every_file_is_checked_before_any_search(tmp_path: Path, name: str,
                                                 content: bytes | str | None,
                                                 message: str) -> None:
    """A bad file among good ones: one usage-error line, exit 2, nothing solved."""
    good, path = tmp_path / "good.txt", tmp_path / name
    good.write_text("3\n1 2 3\n4 5 6\n7 0 8\n")
    if content == "dir":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    done = cli(str(good), str(path), str(good))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [f"{PROG}: error: {message.format(path=path)}"]


@pytest.mark.timeout(300)
def test_bad_lines_in_several_files_in_one_run(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text("3\n1 2 3\n4 5 6\n7 0 8\n")
    bad.write_text("1 2 3 4 5 6 7 8\n")
    done = cli(str(good), str(bad), str(good))
    err = done.stderr.strip().splitlines()
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert err == [f"{PROG}: error: {bad}: line 1: 8 numbers is not a square tile count "
                   "(n*n tiles, then at most 3 annotation numbers)"]
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{good}:1  1 moves") and lines[2].startswith(f"{good}:1  1 ")
    assert lines[1] == (f"{bad}:1  invalid: 8 numbers is not a square tile count (n*n "
                        "tiles, then at most 3 annotation numbers)")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("argv, message", [
    (["-", "--workers", "x"], "--workers"),
    (["-", "--backend", "nowhere"], "unknown backend 'nowhere'"),
    (["-", "--budget", "10"], "unrecognized arguments: --budget"),
    (["-", "--algorithm", "astar", "--heuristic", "pdb-78"], "A* does not read pdb-78"),
    (["-", "--heuristic", "pdb-663"], "pdb-663 is for 4x4 boards, not 3x3"),
    (["pdb", "build", "pdb-99"], "unknown database 'pdb-99'"),
    (["pdb", "remove"], "remove takes database names or --all"),
    (["pdb"], "the following arguments are required"),
    (["pdb", "build", "pdb-exact", "--size", "9"],
     "pdb build: error: pdb-exact is for --size 2 or 3, got 9"),
    (["pdb", "build", "pdb-663", "--size", "3"],
     "pdb build: error: pdb-663 is for --size 4, got 3"),
])
def test_usage_errors_exit_2_in_one_line(argv: list[str], message: str) -> None:
    board = b"1 2 3 4 5 6 7 0 8\n"
    if "astar" in argv:
        board = b"5 1 2 3 9 6 7 4 13 10 11 8 0 14 15 12\n"
    done = cli(*argv, stdin=board)
    err = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(err) == 1 and message in err[0], done.stderr
    assert err[0].startswith(PROG) and "Traceback" not in done.stderr


@pytest.mark.timeout(300)
def test_pdb_subcommands_explain_themselves() -> None:
    built = cli("pdb", "build", "--help")
    assert built.returncode == 0 and built.stderr == ""
    text = " ".join(built.stdout.split())
    assert "Build a pattern database now" in text
    assert "pdb-exact|pdb-555|pdb-663|pdb-78 the database: the heuristic name" in text
    assert "--size N board width: pdb-exact 2 or 3 (default 3); the others 4 only" in text
    removed = cli("pdb", "remove", "--help")
    text = " ".join(removed.stdout.split())
    assert removed.returncode == 0 and "Delete cached pattern databases' files" in text
    assert "NAME a database to delete: pdb-exact, pdb-555, pdb-663, pdb-78" in text


@pytest.mark.timeout(300)
def test_pdb_build_list_remove(tmp_path: Path) -> None:
    env_cache = os.environ.get("PARALLEL_BACKTRACK_CACHE")
    os.environ["PARALLEL_BACKTRACK_CACHE"] = str(tmp_path)
    try:
        assert "no pattern databases cached" in cli("pdb", "list").stdout
        built = cli("pdb", "build", "pdb-exact", "--size", "2")
        assert built.returncode == 0 and "pdb-exact (2x2): built in" in built.stdout
        again = cli("pdb", "build", "pdb-exact", "--size", "2")
        assert "already cached" in again.stdout
        listed = [json.loads(line) for line in cli("pdb", "list", "--json").stdout.splitlines()]
        assert [(e["name"], e["n"], e["complete"]) for e in listed] == [("pdb-exact", 2, True)]
        assert listed[0]["bytes"] == sum(Path(f).stat().st_size for f in listed[0]["files"])
        gone = cli("pdb", "remove", "pdb-663")
        assert gone.returncode == 1 and gone.stderr.count("\n") == 1
        assert "pdb-663: not cached" in gone.stderr
        assert "removed pdb-exact (2x2" in cli("pdb", "remove", "--all").stdout
        assert not list((tmp_path / "pdb").iterdir())
    finally:
        if env_cache is None:
            del os.environ["PARALLEL_BACKTRACK_CACHE"]
        else:
            os.environ["PARALLEL_BACKTRACK_CACHE"] = env_cache


# Text that looks like puzzle files: numbers, separators, comments, words, junk.
WORDS = st.one_of(st.integers(-3, 130).map(str), st.sampled_from(["#", "x", "3", "0", "", "-1",
                                                                   "1e3", "٣", "\t"]))
LINES = st.one_of(st.lists(WORDS, max_size=20).map(" ".join),
                  st.sampled_from(["1 2 3 4 5 6 7 0 8", "3", "0 1 3", "4 2 5 7 8 6",
                                   "1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 57 41",
                                   "# comment", ""]),
                  st.text(max_size=30))
TEXTS = st.lists(LINES, max_size=12).map("\n".join)


@FUZZ
@given(TEXTS, st.sampled_from(FORMATS))
def test_the_reader_returns_entries_or_failures_for_any_text(text: str, fmt: str) -> None:
    found = parse_text(text, fmt)
    last = max(1, len(text.splitlines()) + 1)
    for item in found:
        assert isinstance(item, (Entry, Failure))
        assert 1 <= item.line <= last
        if isinstance(item, Entry):
            assert check_tiles(item.tiles) ** 2 == len(item.tiles)
            assert sorted(item.tiles) == list(range(len(item.tiles)))
        else:
            said = re.match(r"line (\d+): \S", item.message)  # a block's bad line may follow
            assert said and item.line <= int(said.group(1)) <= last, item
            assert "\n" not in item.message


@FUZZ
@given(st.binary(max_size=200), st.binary(max_size=60), st.sampled_from([0, SNIFF_BYTES - 3]),
       st.sampled_from(FORMATS))
def test_the_file_reader_returns_entries_failures_or_its_own_error(
        head: bytes, tail: bytes, padding: int, fmt: str) -> None:
    """Any bytes, the odd ones in the sniffed head or past it: ``decode`` raises only
    ``PuzzleFormatError`` (one line), and what it lets through parses to entries and
    failures, a failure for each line past the head that is no UTF-8 text."""
    data = b"#" * padding + b"\n" + head + b"\n1 2 3 4 5 6 7 0 8\n" + tail
    try:
        text = decode(data, "f")
    except PuzzleFormatError as error:
        assert padding == 0 or not head.isascii() or b"\0" in head
        assert re.fullmatch(r"f: binary data or not UTF-8 text: (a NUL byte|byte 0x[0-9a-f]{2} "
                            r"\(not UTF-8\)) on line \d+, column \d+", str(error)), error
        return
    for item in parse_text(text, fmt):
        assert isinstance(item, (Entry, Failure))
        if isinstance(item, Failure):
            assert re.match(r"line \d+: \S", item.message) and "\n" not in item.message
            assert "\\udc" not in repr(item.message)  # a byte's stand-in is never shown
        else:
            assert sorted(item.tiles) == list(range(len(item.tiles)))


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS)
@pytest.mark.timeout(900)
def test_the_command_line_answers_any_text_in_one_line_per_problem(text: str) -> None:
    done = cli("-", "--json", "--heuristic", "manhattan", "--max-nodes", "200000",
               stdin=text.encode())
    assert done.returncode in (0, 1, 2, 3) and "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines()
              if not line.startswith("parallel_backtrack:")]
    for line in errors:
        assert line.startswith(f"{PROG}: error: -: "), line
    outcomes = [json.loads(line) for line in done.stdout.splitlines()]
    if done.returncode == 2:  # nothing to solve: one line, nothing printed
        assert len(errors) == 1 and not outcomes
    invalid = [o for o in outcomes if o["status"] == "invalid"]
    assert [f"{PROG}: error: -: {o['error']}" for o in invalid] == errors[:len(invalid)]
    for outcome in outcomes:
        assert outcome["status"] in ("solved", "unsolvable", "max-nodes", "invalid")
        assert outcome["complete"] is (outcome["status"] != "max-nodes")
        if outcome["status"] == "solved":
            assert solves(outcome["tiles"], outcome["solution"], outcome["goal"])


@pytest.mark.dask
@pytest.mark.timeout(300)
def test_backend_dask_reaches_the_engine() -> None:
    """``--backend dask``: a batch runs on a private Dask cluster; one puzzle's IDA*
    iterations too (``--per-worker`` small so they are cut into tasks)."""
    pytest.importorskip("distributed")
    batch = b"8 6 7 2 5 4 3 0 1\n6 4 7 8 5 0 3 2 1\n"  # 31 moves each
    done = cli("-", "--backend", "dask", "--workers", "2", "--json", stdin=batch)
    assert done.returncode == 0, done.stderr
    outcomes = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["moves"] for o in outcomes] == [31, 31]
    assert all(solves(o["tiles"], o["solution"]) for o in outcomes)
    hard = b"5 1 2 3 9 6 7 4 13 10 11 8 0 14 15 12\n"
    done = cli("-", "--backend", "dask", "--workers", "2", "--json", "--heuristic",
               "manhattan", "--complete-last-iteration", stdin=hard)
    local = cli("-", "--json", "--heuristic", "manhattan", "--complete-last-iteration",
                stdin=hard)
    there, here = json.loads(done.stdout), json.loads(local.stdout)
    assert there["moves"] == here["moves"] == 9 and there["nodes"] == here["nodes"]
