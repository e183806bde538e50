"""Connect-Four batch files, read as they go (``connect4.batchfile``) and solved in
chunks with a bounded look-ahead (``connect4.batch``): every score against the file's
known one, the rows in the file's order with the bad lines among them, and the same
answers from a small window on two workers as from one worker."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parallel_backtrack.engine import VirtualExecutor
from parallel_backtrack.games.__main__ import main
from parallel_backtrack.games.connect4 import batch
from parallel_backtrack.games.connect4.batch import solve_rows
from parallel_backtrack.games.connect4.batchfile import BatchFile, read_batch
from parallel_backtrack.games.connect4.board import Board

ROOT = Path(__file__).resolve().parents[1]
EASY = ROOT / "tests" / "data" / "search" / "connect4" / "Test_L3_R1.txt"  # end, easy
BAD = ["4453 x", "8", "44444444", "1 2 3", "4455667"]  # each one fails its line


def _file(tmp_path: Path, count: int) -> tuple[Path, dict[int, str]]:
    """``count`` known positions with a bad line after every 17th and blank and comment
    lines, CRLF ends and a byte order mark; the known score of each line by number."""
    known = EASY.read_text().splitlines()[:count]
    lines, scores = ["# positions", ""], {}
    for k, line in enumerate(known):
        lines.append(line)
        scores[len(lines)] = line.split()[1]
        if k % 17 == 4:
            lines.append(BAD[k % len(BAD)])
    path = tmp_path / "positions.txt"
    path.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).encode() + b"\r\n")
    return path, scores


class Counted:
    """Rows given one at a time, counting how many were taken."""

    def __init__(self, rows: Iterator[dict[str, Any]]) -> None:
        self.rows, self.taken = rows, 0

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for row in self.rows:
            self.taken += 1
            yield row


@pytest.mark.timeout(120)
def test_a_small_look_ahead_holds_few_rows_and_keeps_scores_and_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "MAX_CHUNK", 3)
    monkeypatch.setattr(batch, "CHUNKS_PER_WORKER", 2)  # 4 chunks of 3 out at a time
    path, scores = _file(tmp_path, 200)
    board = Board()
    source = BatchFile(str(path), board)
    rows = Counted(source.rows())
    answered = []
    for row in solve_rows(board, rows, False, 8, VirtualExecutor(2)):
        held = rows.taken - len(answered)
        assert held <= 2 * 4 * 3 + 2 * 4  # a look-ahead and the chunks out, bad rows too
        answered.append(row)
    source.close()
    numbers = [row["line"] for row in answered]
    assert numbers == sorted(numbers) and len(answered) == 200 + len(range(4, 200, 17))
    for row in answered:
        if row["line"] in scores:
            assert row["status"] == "solved" and str(row["score"]) == scores[row["line"]]
        else:
            assert row["status"] == "invalid" and row["error"]


def test_the_reader_takes_lines_as_they_are_asked_for(tmp_path: Path) -> None:
    path, _ = _file(tmp_path, 1000)
    source = BatchFile(str(path), Board())
    rows = source.rows()
    first = next(rows)
    assert first["line"] == 3 and "position" in first
    assert source.stream.tell() < 16_384  # the head judged, not the file
    assert source.count_rest() == 1000 + len(range(4, 1000, 17)) - 1
    source.close()
    good, bad = read_batch(str(path), Board())
    assert len(good) == 1000 and len(bad) == len(range(4, 1000, 17))


@pytest.mark.timeout(240)
@pytest.mark.parametrize("as_json", [False, True])
def test_the_command_line_on_two_workers_with_small_chunks_answers_as_one_worker(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], as_json: bool) -> None:
    path, scores = _file(tmp_path, 300)
    argv = ["connect4", "--file", str(path), *(["--json"] * as_json)]

    def answers(workers: str) -> tuple[int, list[Any], str]:
        out = io.StringIO()
        code = main([*argv, "--workers", workers], out=out)
        err = capsys.readouterr().err
        if not as_json:
            return code, out.getvalue().splitlines()[:-1], err  # the summary's times differ
        rows = [json.loads(line) for line in out.getvalue().splitlines()]
        for row in rows:  # a worker's table holds other positions: other node counts
            row.pop("seconds", None), row.pop("nodes", None)
        return code, rows, err.split("\n300 positions")[0]

    alone = answers("1")
    monkeypatch.setattr(batch, "MAX_CHUNK", 5)  # chunks of 5, 8 a worker out at a time
    spread = answers("2")
    assert spread == alone and alone[0] == 1  # the bad lines: exit 1
    bad = [line for line in alone[2].splitlines() if line]
    assert len(bad) == len(range(4, 300, 17))
    if as_json:
        assert [row["line"] for row in alone[1]] == sorted(
            [*scores, *(int(line.split(":")[2]) for line in bad)])
        for row in alone[1]:
            if row["line"] in scores:
                assert str(row["score"]) == scores[row["line"]]
    else:
        assert [line.split()[1] for line in alone[1]] == list(scores.values())
