"""Connect-Four against independent answers: a sample of each of Pascal Pons' four
benchmark sets (tests/data/search/connect4, see its SOURCES.txt) solved and compared
with the published scores; every 8th sampled position also by the weak solver, every
20th by the parallel solve.  ``scripts/bench_games.py --pons`` checks every line of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from parallel_backtrack.engine import make_executor
from parallel_backtrack.games.connect4.board import Board
from parallel_backtrack.games.connect4.parallel import parallel_solve
from parallel_backtrack.games.connect4.solver import Solver

DATA = Path(__file__).parent / "data" / "search" / "connect4"
SETS = ["Test_L3_R1.txt", "Test_L2_R1.txt", "Test_L2_R2.txt", "Test_L1_R1.txt"]
STEP = 10  # lines 1, 11, 21, ...: 100 positions of each set


def sample(name: str) -> list[tuple[str, int]]:
    rows = [line.split() for line in (DATA / name).read_text().splitlines() if line.strip()]
    assert len(rows) == 1000 and all(len(row) == 2 for row in rows)
    return [(moves, int(score)) for moves, score in rows[::STEP]]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", SETS)
def test_pons_sample_scores(name):
    board, solver = Board(), Solver(Board(), 16)
    got = [solver.solve(board.parse(moves))[0] for moves, _ in sample(name)]
    assert got == [score for _, score in sample(name)]
    weak = [solver.solve(board.parse(moves), weak=True)[0] for moves, _ in sample(name)[::8]]
    assert weak == [(s > 0) - (s < 0) for _, s in sample(name)[::8]]


@pytest.mark.timeout(300)
def test_pons_sample_in_parallel():
    board, executor = Board(), make_executor(2, "loky")
    try:
        for name in SETS:
            for moves, score in sample(name)[::20]:
                found = parallel_solve(board, board.parse(moves), executor=executor, tt_mb=8)
                assert found.score == score, (name, moves)
    finally:
        executor.close(kill=True)
