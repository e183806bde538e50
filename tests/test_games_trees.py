"""The alpha-beta text format: reference files byte for byte, bad trees, fuzz, the CLI."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parallel_backtrack.games import TreeFormatError, minimax, parse_tree
from parallel_backtrack.games.__main__ import main
from parallel_backtrack.games.cli_alphabeta import answer_file

ROOT = Path(__file__).resolve().parents[1]
CLASSIC = ("{(A,MAX),(B,MIN),(C,MIN),(D,MAX),(E,MAX),(F,MAX),(G,MAX)} "
           "{(A,B),(A,C),(B,D),(B,E),(C,F),(C,G),(D,4),(D,3),(E,2),(E,7),(F,3),(F,2),(G,2),(G,8)}")


def reference_inputs(data_dir: Path) -> list[Path]:
    folder = data_dir / "search" / "alphabeta"
    found = sorted(p for p in folder.glob("*_alphabeta.txt"))
    assert len(found) == 6, f"tests/data must hold the six alpha-beta files, found {found}"
    return found


def test_every_reference_file_byte_for_byte(data_dir, tmp_path):
    for source in reference_inputs(data_dir):
        out = tmp_path / "out.txt"
        assert main(["alphabeta", str(source), "-o", str(out)]) == 0
        expected = source.with_name(source.stem + "_out.REFERENCE.txt").read_bytes()
        assert out.read_bytes() == expected, source.name


def test_minimax_counts_match_the_verbose_files(data_dir):
    for source in reference_inputs(data_dir):
        verbose = source.with_name(source.stem + "_out.REFERENCE_verbose.txt").read_text()
        expected = [(int(a), int(b)) for a, b in
                    re.findall(r"\| minimax (-?\d+) over (\d+) leaves", verbose)]
        got = [(a.score, a.leaves) for a in answer_file(source.read_bytes(), use_minimax=True)]
        assert got == expected, source.name


def test_format_variants_give_the_same_answer():
    base = answer_file(CLASSIC.encode())[0]
    assert (base.score, base.leaves) == (4, 6)
    depth_first = ("{(A,MAX),(B,MIN),(C,MIN),(D,MAX),(E,MAX),(F,MAX),(G,MAX)} "
                   "{(A,B),(B,D),(D,4),(D,3),(B,E),(E,2),(E,7),(A,C),(C,F),(F,3),(F,2),(C,G),"
                   "(G,2),(G,8)}")
    spaced = CLASSIC.replace(",", ", ").replace("(", " ( ")
    renamed = CLASSIC.replace("B", "BB").replace("C", "CAB")
    for text in (depth_first, spaced, renamed):
        found = answer_file(f"\r\n\n{text}\r\n\r\n".encode())
        assert [(a.score, a.leaves, a.error) for a in found] == [(4, 6, None)]


def test_repeated_leaf_values_are_distinct_leaves():
    parsed = parse_tree("{(A,MAX),(B,MIN)} {(A,B),(B,11),(B,11),(A,3)}")
    assert parsed.game.leaf_count == 3
    assert minimax(parsed.game, 0).leaves == 3


BAD = [
    ("{(A,MAX),(B,MIN)} {(A,B),(B,1)", "unbalanced"),
    ("{(A,MAX)} {(A,1),(Z,2)}", "undeclared node 'Z'"),
    ("{(A,MAX),(B,MIN)} {(A,B),(B,A)}", "cycle"),
    ("{(A,MAX),(B,MIN)} {(A,B),(A,3)}", "internal node 'B' has no children"),
    ("{(A,MAX)} {(A,1.5)}", "neither an integer"),
    ("{(A,MAX)} {(A,x)}", "neither an integer"),
    ("{(A,MOX)} {(A,1)}", "expected MAX or MIN"),
    ("hello", "expected two sets"),
]


@pytest.mark.parametrize("text,reason", BAD)
def test_bad_trees_name_the_reason(text, reason):
    with pytest.raises(TreeFormatError, match=re.escape(reason)):
        parse_tree(text)


def test_parse_tree_takes_text_or_bytes_only():
    for bad, name in ((None, "NoneType"), (42, "int"), (["{(A,MAX)} {(A,1)}"], "list")):
        with pytest.raises(TypeError, match=f"parse_tree takes the text or bytes of a tree "
                                            f"file's line, got {name}"):
            parse_tree(bad)
    line = "{(A,MAX)} {(A,1),(A,2)}"
    for form in (line, line.encode(), bytearray(line.encode())):
        assert minimax(parse_tree(form).game, 0).value == 2
    with pytest.raises(TreeFormatError, match="not UTF-8"):  # a lone surrogate: no text
        parse_tree("{(A,MAX)} {(A,\ud800)}")


def test_a_bad_tree_fails_alone(tmp_path, capsys):
    path = tmp_path / "mixed.txt"
    # binary bytes past the first 8 KiB fail their line only (before: a binary file)
    text = f"{CLASSIC}\n\n{BAD[2][0]}\n" + "\n" * 8192 + f"\x00\xff\xfe garbage\n{CLASSIC}\n"
    path.write_bytes(text.encode("latin-1"))
    assert main(["alphabeta", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ("Graph 1: Score: 4; Leaf Nodes Examined: 6\n"
                            "Graph 4: Score: 4; Leaf Nodes Examined: 6\n")
    errors = captured.err.strip().splitlines()
    assert len(errors) == 2
    assert f"{path}:3: graph 2: a cycle" in errors[0]
    assert f"{path}:8196: graph 3: binary data" in errors[1]


def test_empty_file_and_missing_file(tmp_path, capsys):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n")
    assert main(["alphabeta", str(empty)]) == 2
    assert capsys.readouterr().err == (f"python -m parallel_backtrack.games alphabeta: error: "
                                       f"{empty}: no trees (only blank lines and comments)\n")
    assert main(["alphabeta", str(tmp_path / "nope.txt")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nope.txt" in err[0]


def test_json_output(tmp_path, capsys):
    path = tmp_path / "t.txt"
    path.write_text(CLASSIC + "\n")
    assert main(["alphabeta", str(path), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["graphs"][0]["score"] == 4 and payload["graphs"][0]["leaves"] == 6


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_bytes_never_crash(data):
    for found in answer_file(data):
        assert (found.error is None) == (found.score is not None)


TOKENS = st.sampled_from(["{", "}", "(", ")", ",", "A", "B", "AB", "MAX", "MIN", "1", "-2",
                          " ", "\r", "x", "1.5"])


@settings(max_examples=300, deadline=None)
@given(st.lists(TOKENS, max_size=40))
def test_fuzz_tokens_parse_or_raise_format_error(tokens):
    text = "".join(tokens)
    try:
        parsed = parse_tree(text)
    except TreeFormatError as error:
        assert str(error) and "\n" not in str(error)
        return
    from parallel_backtrack.games import alphabeta

    assert alphabeta(parsed.game, 0).value == minimax(parsed.game, 0).value


@pytest.mark.timeout(60)
def test_cli_process_usage_error_and_help(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "parallel_backtrack.games"]
    done = subprocess.run(command + ["alphabeta"], capture_output=True, text=True, env=env)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    done = subprocess.run(command + ["alphabta", "x"], capture_output=True, text=True, env=env)
    assert done.returncode == 2 and "alphabeta" in done.stderr
    done = subprocess.run(command + ["alphabeta", "--help"], capture_output=True, text=True,
                          env=env)
    assert done.returncode == 0 and "--minimax" in done.stdout


@pytest.mark.timeout(120)
def test_a_million_leaf_line_is_answered(tmp_path):
    """One line of 1,000,000 leaves (no length cap): the score equals minimax computed
    independently with numpy over the leaves, level by level."""
    import numpy as np

    rng = np.random.default_rng(5)
    values = rng.integers(-999, 1000, 10**6)
    names, edges, level, count = [], [], ["R"], 1
    for ply in range(6):
        names += [f"({n},{'MAX' if ply % 2 == 0 else 'MIN'})" for n in level]
        if ply == 5:
            edges += [f"({n},{v})" for n, v in zip(np.repeat(level, 10), values.tolist())]
            break
        below = [f"N{count + i}" for i in range(10 * len(level))]
        count += len(below)
        edges += [f"({n},{c})" for n, c in zip(np.repeat(level, 10), below)]
        level = below
    path = tmp_path / "million.txt"
    path.write_text("{" + ",".join(names) + "} {" + ",".join(edges) + "}\n")
    grid = values.reshape((10,) * 6)
    for ply in range(5, -1, -1):  # the leaves' parents are MIN (ply 5): min, max, ...
        grid = grid.max(axis=-1) if ply % 2 == 0 else grid.min(axis=-1)
    found = answer_file(path.read_bytes())
    assert len(path.read_bytes()) > 10_000_000  # longer than the old cap
    assert [(a.score, a.error) for a in found] == [(int(grid), None)]
