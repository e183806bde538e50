"""The Connect-Four solver against plain minimax, published small-board outcomes,
symmetry, and its command line."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parallel_backtrack.games import minimax
from parallel_backtrack.games.__main__ import main
from parallel_backtrack.games.connect4.board import Board, Connect4Game, InvalidMoveError
from parallel_backtrack.games.connect4.solver import Solver


def random_position(board: Board, stones: int, rng: random.Random) -> str | None:
    """The moves of a random game of ``stones`` stones that is not over, or None."""
    moves, position = "", board.parse("")
    for _ in range(stones):
        cols = [c for c in range(board.width) if board.can_play(position, c)]
        col = rng.choice(cols)
        position = board.play(position, col)
        moves += str(col + 1)
        if board.last_mover_won(position):
            return None
    return moves if position.moves < board.cells else None


def end_games(board: Board, stones: int, count: int, seed: int) -> list[str]:
    rng, found = random.Random(seed), []
    while len(found) < count:
        moves = random_position(board, stones, rng)
        if moves is not None:
            found.append(moves)
    return found


def test_a_tiny_table_on_64_bit_keys_against_plain_minimax():
    # 8 x 7: keys of 64 bits, 56 of them stored; the size (at least 2^8) tells keys apart.
    board = Board(8, 7)
    game, solver = Connect4Game(board), Solver(board, 0.0001)
    size = solver.table.shape[0]
    assert size >= 256 and all(size % d for d in range(2, int(size**0.5) + 1))
    for moves in end_games(board, 49, 8, seed=87):
        position = board.parse(moves)
        assert solver.solve(position)[0] == minimax(game, position).value, moves


@pytest.fixture(scope="module")
def solver_7x6():
    return Solver(Board(), 4)


@pytest.mark.parametrize("width,height,stones", [(7, 6, 34), (4, 4, 9), (5, 4, 12)])
def test_end_games_against_plain_minimax(width, height, stones):
    board = Board(width, height)
    game, solver = Connect4Game(board), Solver(board, 1)
    for moves in end_games(board, stones, 12, seed=width * 100 + stones):
        position = board.parse(moves)
        expected = minimax(game, position).value
        assert solver.solve(position)[0] == expected, moves
        assert solver.solve(position, weak=True)[0] == (expected > 0) - (expected < 0)


def test_pons_end_easy_examples(solver_7x6):
    # Three lines of Pascal Pons' Test_L3_R1 set ("end, easy"), with their scores.
    for moves, score in (("2252576253462244111563365343671351441", -1),
                         ("7422341735647741166133573473242566", 1),
                         ("23163416124767223154467471272416755633", 0)):
        assert solver_7x6.solve(Board().parse(moves))[0] == score


# Who wins from the empty board with perfect play, width x height: the table in
# https://github.com/ChristopheSteininger/c4 (README), which extends John Tromp's
# results (https://tromp.github.io/c4/c4.html): height 4: widths 4, 5 draw, 6 second
# player; height 5: widths 4, 5, 6 draw; height 6: width 6 second player.
PUBLISHED = {(4, 4): 0, (5, 4): 0, (6, 4): -1, (4, 5): 0, (5, 5): 0}


@pytest.mark.parametrize("size", sorted(PUBLISHED))
def test_small_boards_from_empty(size):
    board = Board(*size)
    score, _ = Solver(board, 8).solve(board.parse(""))
    assert (score > 0) - (score < 0) == PUBLISHED[size]


@pytest.mark.slow
@pytest.mark.ci  # about 30 s for both
@pytest.mark.parametrize("size,outcome", [((6, 5), 0), ((6, 6), -1)])
def test_bigger_boards_from_empty(size, outcome):
    board = Board(*size)
    score, _ = Solver(board, 64).solve(board.parse(""), weak=True)
    assert score == outcome


def mirror(moves: str, width: int) -> str:
    return "".join(str(width + 1 - int(c)) for c in moves)


def test_mirror_images_score_alike(solver_7x6):
    board = Board()
    for moves in end_games(board, 24, 6, seed=3):
        assert (solver_7x6.solve(board.parse(moves))[0]
                == solver_7x6.solve(board.parse(mirror(moves, 7)))[0])


def test_best_moves_reach_the_score(solver_7x6):
    board = Board()
    for moves in end_games(board, 30, 4, seed=9):
        position = board.parse(moves)
        scores = solver_7x6.analyze(position)
        assert max(scores.values()) == solver_7x6.solve(position)[0]


@pytest.mark.parametrize("moves,reason", [("448", "move 3 ('8')"), ("4444444", "move 7 (4)"),
                                          ("12121213", "move 8 (3)"), ("4x", "move 2 ('x')"),
                                          ("4\u0663", "move 2 ('\u0663')"),  # Arabic-Indic 3
                                          ("4\uff13", "move 2 ('\uff13')"),  # full-width 3
                                          ("40", "move 2 ('0')")])
def test_invalid_move_strings_name_the_move(moves, reason):
    with pytest.raises(InvalidMoveError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        Board().parse(moves)


def test_a_long_move_string_is_quoted_by_its_start():
    with pytest.raises(InvalidMoveError) as caught:
        Board().parse("4" * 20_000)
    assert str(caught.value) == (f"move 7 (4) of {'4' * 60!r}... (20,000 moves) plays in "
                                 "column 4, which is full")


def test_moves_and_boards_of_the_wrong_type_are_refused():
    for bad, shown in ((None, "NoneType None"), (4453, "int 4453"), (b"44", "bytes b'44'")):
        with pytest.raises(TypeError, match=f"moves must be a string of the digits 1-7, got "
                                            f"{shown}"):
            Board().parse(bad)
    with pytest.raises(TypeError, match="moves must be a string of the digits 1-5"):
        Board(5, 4).parse(12)
    with pytest.raises(TypeError, match="board must be a connect4 Board \\(or None for 7x6\\), "
                                        "got str 'x'"):
        Connect4Game("x")
    assert Connect4Game().board.width == 7 and Connect4Game(Board(5, 4)).board.width == 5


def test_short_reprs():
    assert repr(Board()) == "Board(width=7, height=6)"
    assert repr(Connect4Game(Board(5, 4))) == "Connect4Game(board=Board(width=5, height=4))"


def test_board_limits():
    with pytest.raises(ValueError, match="at most 64"):
        Board(8, 8)
    with pytest.raises(ValueError, match="width"):
        Board(0, 4)


def test_cli_single_and_file(tmp_path, capsys):
    assert main(["connect4", "1122", "--width", "4", "--height", "4", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    board = Board(4, 4)
    expected = minimax(Connect4Game(board), board.parse("1122")).value
    assert payload["score"] == expected
    assert all(payload["move_scores"][str(c)] == expected for c in payload["best_moves"])
    path = tmp_path / "positions.txt"
    path.write_text("# comment\n7422341735647741166133573473242566 1\n"
                    "7422341735647741166133573473242566 3\n448\n\n")
    assert main(["connect4", "--file", str(path)]) == 1
    captured = capsys.readouterr()
    assert "1 positions" not in captured.out and "2 positions" in captured.out
    errors = captured.err.strip().splitlines()
    assert len(errors) == 2 and ":3:" in errors[0] and ":4:" in errors[1]


@pytest.mark.parametrize("argv,code", [(["connect4"], 2), (["connect4", "448"], 2),
                                       (["connect4", "1", "--tt-mb", "0"], 2),
                                       (["connect4", "1", "--width", "12"], 2)])
def test_cli_usage_errors_and_bad_moves(argv, code, capsys):
    assert main(argv) == code  # a bad move string is a bad value on the command line (2)
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789x \t", max_size=45))
def test_fuzz_move_strings(text):
    board = Board()
    try:
        position = board.parse(text)
    except InvalidMoveError as error:
        assert "move" in str(error) and "\n" not in str(error)
        return
    assert position.moves == len(text.strip())
    assert bin(position.mask).count("1") == position.moves


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=120))
def test_fuzz_batch_files(data):
    import contextlib
    import io
    import tempfile

    err = io.StringIO()
    with tempfile.NamedTemporaryFile(suffix=".txt") as stream, contextlib.redirect_stderr(err):
        stream.write(data)
        stream.flush()
        code = main(["connect4", "--file", stream.name, "--width", "4", "--height", "4",
                     "--tt-mb", "1"], out=io.StringIO())
    assert code in (0, 1, 2)
    if code == 2:  # binary, not UTF-8, or no positions: one line, nothing solved
        assert len(err.getvalue().splitlines()) == 1, err.getvalue()
