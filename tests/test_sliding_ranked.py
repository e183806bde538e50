"""Compact (ranked) pattern databases: the rank, the parallel build and the kernel lookup,
all on small patterns checked against the sparse build; the real 7-8 tables only under
``-m slow`` (a first build takes minutes and gigabytes)."""

from __future__ import annotations

import itertools
import random
from math import perm
from pathlib import Path

import numpy as np
import pytest
from sliding_check import CACHE, replay, solves

from parallel_backtrack.sliding import Board, heuristics, tables
from parallel_backtrack.sliding import pdb as pdb_module
from parallel_backtrack.sliding.heuristics import tables_for
from parallel_backtrack.sliding.ida import Pass, solve
from parallel_backtrack.sliding.kernel import ranked
from parallel_backtrack.sliding.kernel import search as kernel
from parallel_backtrack.sliding.kernel.builds import build_pattern
from parallel_backtrack.sliding.pdb import partition_tables
from parallel_backtrack.sliding.tables import neighbors_table

assert CACHE


def sparse_index(cells: tuple[int, ...], size: int) -> int:
    return sum(c * size**i for i, c in enumerate(cells))


@pytest.mark.parametrize("size, k", [(4, 4), (9, 3), (16, 3)])
def test_rank_numbers_every_placement_once(size: int, k: int) -> None:
    select = ranked.select_table(size)
    seen = set()
    for cells in itertools.permutations(range(size), k):
        rank = int(kernel.rank_cells(np.array(cells, np.int64), k, size))
        assert int(kernel.rank_index(sparse_index(cells, size), k, size)) == rank
        back = np.zeros(k, np.int64)
        mask = ranked.unrank_cells(rank, k, size, select, back)
        assert tuple(back) == cells and mask == sum(1 << c for c in cells)
        seen.add(rank)
    assert seen == set(range(perm(size, k)))


@pytest.mark.parametrize("n, pattern", [(3, (1, 2, 3, 4)), (3, (8, 6, 7)), (4, (1, 2, 3)),
                                        (4, (15, 12, 13))])
def test_ranked_build_equals_the_sparse_build(n: int, pattern: tuple[int, ...]) -> None:
    neighbors = neighbors_table(n)
    size, k = n * n, len(pattern)
    compact = ranked.build_ranked(n, pattern, neighbors)
    sparse = build_pattern(n, pattern, neighbors)
    assert compact.shape == (perm(size, k),) and compact.max() > 0
    for cells in itertools.permutations(range(size), k):
        rank = int(kernel.rank_cells(np.array(cells, np.int64), k, size))
        assert compact[rank] == sparse[sparse_index(cells, size)], cells


def small_tables(ranked_kind: bool) -> tables.Tables:
    patterns = ((1, 2, 3, 4), (5, 6, 7, 8))
    neighbors = neighbors_table(3)
    build = ranked.build_ranked if ranked_kind else build_pattern
    table = np.concatenate([build(3, p, neighbors) for p in patterns])
    name = "test-ranked" if ranked_kind else "test-sparse"
    return partition_tables(3, name, patterns, table, ranked_kind, neighbors)


def test_the_kernel_looks_ranked_tables_up_like_sparse_ones(
        monkeypatch: pytest.MonkeyPatch) -> None:
    compact, sparse = small_tables(True), small_tables(False)
    assert compact.kind == kernel.RANKED and sparse.kind == kernel.PATTERN
    monkeypatch.setitem(heuristics._CACHE, (3, "test-ranked"), compact)
    monkeypatch.setitem(heuristics._CACHE, (3, "test-sparse"), sparse)
    rng = random.Random(78)
    for _ in range(30):
        tiles = list(range(9))
        for _ in range(rng.randrange(5, 60)):
            try:
                tiles = replay(tiles, rng.choice("UDLR"))
            except ValueError:
                pass
        board = Board(tuple(tiles), "blank-first")
        exact = solve(board, "manhattan")  # optimal, with no pattern database
        one, two = solve(board, "test-ranked"), solve(board, "test-sparse")
        assert Pass(compact, tuple(tiles)).h0 == Pass(sparse, tuple(tiles)).h0
        assert Pass(compact, tuple(tiles)).h0 <= len(exact.moves or "")
        assert one.nodes == two.nodes  # the same heuristic values all along the search
        assert len(one.moves or "") == len(exact.moves or "")
        assert solves(tiles, one.moves or "", "blank-first")


@pytest.fixture
def tables_78() -> tables.Tables:
    """The 7-8 tables; taken from the user's cache when a valid copy is there (linked
    into the test cache; its CRC is checked on load), else built (15 minutes)."""
    from platformdirs import user_cache_dir

    here = pdb_module._paths(4, "pdb-78")
    user = Path(user_cache_dir("parallel_backtrack")) / "pdb"
    for path in here:
        if not path.exists() and (user / path.name).exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.symlink_to(user / path.name)
    return tables_for(4, "pdb-78")


@pytest.mark.slow
def test_80_move_positions(data_dir: Path, tables_78: tables.Tables) -> None:
    # All 17 with the 7-8 databases: about 2 s each.
    lines = [line for line in (data_dir / "search" / "15puzzle_80moves.txt").read_text()
             .splitlines() if line and not line.startswith("#")]
    assert len(lines) == 17
    for line in lines:
        tiles = [int(w) for w in line.split()[:16]]
        result = solve(Board(tuple(tiles)), "pdb-78")
        assert len(result.moves or "") == 80 and solves(tiles, result.moves or "")


@pytest.mark.slow
def test_78_solves_korf_instances(data_dir: Path, tables_78: tables.Tables) -> None:
    rows = [[int(w) for w in line.split()] for line in (data_dir / "search" / "korf100.txt")
            .read_text().splitlines() if line and not line.startswith("#")]
    tables = tables_78
    assert tables.tables.shape == (57_657_600 + 518_918_400,)
    for row in rows[:10]:
        tiles = tuple(row[1:17])
        result = solve(Board(tiles, "blank-first"), "pdb-78")
        assert len(result.moves or "") == row[17]
        assert solves(list(tiles), result.moves or "", "blank-first")
        assert Pass(tables, tiles).h0 <= row[17]
