"""The 9x9 band kernel (``sudoku/kernel9``): the same answers and counts as the general
kernel, every solution through an independent checker, in any orientation."""

from __future__ import annotations

import numpy as np
import pytest
from sudoku_data import DATA, HARDEST

from parallel_backtrack.sudoku.__main__ import main
from parallel_backtrack.sudoku.batch import UNFINISHED, count_batch, solve_batch
from parallel_backtrack.sudoku.batch_io import read_batch
from parallel_backtrack.sudoku.kernel9.search import scratch, search_many9
from parallel_backtrack.sudoku.kernel9.tables import BAND_KEEP, KEEP9, PEERS
from parallel_backtrack.sudoku.space import is_valid_solution

HARD_SETS = ("tdoku_puzzles6_forum_hardest_1106.txt", "norvig_top95.txt", "plb_hard20.txt",
             "tdoku_puzzles3_magictour_top1465.txt")


def givens_of(name: str) -> np.ndarray:
    batch = read_batch(DATA / name)
    assert batch.errors == []
    return np.asarray(batch.givens)


def valid_9x9(givens: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Independent checker: every row, column and box holds 1..9 once, givens kept."""
    grids = values.reshape(-1, 9, 9)
    boxes = grids.reshape(-1, 3, 3, 3, 3).transpose(0, 1, 3, 2, 4).reshape(-1, 9, 9)
    want = np.arange(1, 10)
    ok = [(np.sort(units, axis=2) == want).all(axis=(1, 2))
          for units in (grids, grids.transpose(0, 2, 1), boxes)]
    return ok[0] & ok[1] & ok[2] & ((givens == 0) | (givens == values)).all(axis=1)


def transformed(givens: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Each puzzle relabelled (one digit permutation per row) and transposed; also the
    permutations, to map answers back."""
    rng = np.random.default_rng(seed)
    labels = np.zeros((len(givens), 10), dtype=np.uint8)
    for row in labels:
        row[1:] = rng.permutation(9) + 1
    relabelled = np.take_along_axis(labels, givens.astype(np.int64), axis=1)
    return relabelled.reshape(-1, 9, 9).transpose(0, 2, 1).reshape(-1, 81).copy(), labels


def tdoku_rows() -> list[tuple[str, int, str | None]]:
    rows = []
    for text in (DATA / "tdoku_test_puzzles.txt").read_text().split():
        puzzle, count, *rest = text.split(":")
        rows.append((puzzle, int(count), rest[0] if rest else None))
    return rows


def test_tables() -> None:
    assert KEEP9[0b100010001] == 0b100010001 and KEEP9[0b111111111] == 0b111111111
    assert KEEP9[0b000000111] == 0  # one row with every box, two empty rows
    assert KEEP9[0b011011100] == 0b011011100  # row 0 takes box 2; rows 1, 2 share 0, 1
    assert KEEP9[0b111110100] == 0b001010100  # row 0 box 2, so row 1 box 1, row 2 box 0
    assert BAND_KEEP[0b111111111] == (1 << 27) - 1
    assert all(sum(bin(int(w)).count("1") for w in PEERS[cell]) == 20 for cell in range(81))


@pytest.mark.parametrize("limit", (None, 1, 2))
def test_every_tdoku_test_count(limit: int | None) -> None:
    rows = tdoku_rows()
    givens = np.array([[0 if ch == "." else int(ch) for ch in p] for p, _, _ in rows],
                      dtype=np.uint8)
    result = count_batch(givens, propagation="bands", limit=limit)
    assert list(result.counts) == [min(count, limit or count) for _, count, _ in rows]
    assert list(result.counts) == list(count_batch(givens, propagation="units",
                                                   limit=limit).counts)
    for (puzzle, count, solution), values in zip(rows, result.values):
        if count:
            assert is_valid_solution(givens[rows.index((puzzle, count, solution))].tolist(),
                                     "".join(map(str, values)))
        if solution is not None:
            assert "".join(map(str, values)) == solution


@pytest.mark.parametrize("name", HARD_SETS)
def test_hard_sets_equal_the_general_kernel(name: str) -> None:
    givens = givens_of(name)
    bands, units = solve_batch(givens, propagation="bands"), solve_batch(givens)
    general = solve_batch(givens, propagation="units")
    assert (bands.values == units.values).all() and (bands.nodes == units.nodes).all()
    assert bands.solved.all() and valid_9x9(givens, bands.values).all()
    assert (bands.values == general.values).all()
    unique = count_batch(givens, propagation="bands", limit=2)
    assert (unique.counts == count_batch(givens, propagation="units", limit=2).counts).all()


def test_17_clue_sample_equals_the_general_kernel() -> None:
    givens = givens_of("tdoku_puzzles2_17_clue_head3000.txt")
    bands = solve_batch(givens)
    assert (bands.values == solve_batch(givens, propagation="units").values).all()
    assert valid_9x9(givens, bands.values).all()
    assert (count_batch(givens, limit=2).counts == 1).all()


def test_puzzles_of_many_solutions_count_like_the_general_kernel() -> None:
    givens = givens_of("tdoku_puzzles7_serg_benchmark.txt")[:300]
    for limit in (2, 5):
        bands = count_batch(givens, propagation="bands", limit=limit)
        assert (bands.counts == count_batch(givens, propagation="units", limit=limit).counts).all()
        assert valid_9x9(givens, bands.values).all()
    assert (count_batch(givens, limit=2).counts == 2).all()


def test_relabelled_and_transposed_puzzles_have_the_transformed_answers() -> None:
    givens = givens_of("tdoku_puzzles6_forum_hardest_1106.txt")
    plain = solve_batch(givens)
    moved, labels = transformed(givens, seed=25)
    result = solve_batch(moved)
    expected = np.take_along_axis(labels, plain.values.astype(np.int64), axis=1)
    assert (result.values == expected.reshape(-1, 9, 9).transpose(0, 2, 1).reshape(-1, 81)).all()
    assert valid_9x9(moved, result.values).all()


def test_blank_dead_and_contradictory_grids() -> None:
    blank = np.zeros((1, 81), dtype=np.uint8)
    assert list(count_batch(blank, limit=3000).counts) == [3000]
    clash = blank.copy()
    clash[0, [0, 1]] = 5  # one row, the same digit twice
    dead = blank.copy()
    dead[0, :8] = np.arange(1, 9)
    dead[0, 9 + 8] = 9  # r0c8 can hold nothing: 1..8 in its row, 9 in its column
    assert list(count_batch(np.vstack([clash, dead])).counts) == [0, 0]
    result = solve_batch(np.vstack([clash, dead]))
    assert (result.values == 0).all() and list(result.nodes) == [1, 1]


def test_a_node_budget_and_the_stop_flag() -> None:
    givens = givens_of("tdoku_puzzles6_forum_hardest_1106.txt")[:20]
    full = count_batch(givens, propagation="bands")
    guessed = full.nodes > 1
    assert guessed.any()
    short = count_batch(givens, propagation="bands", budget=1)
    assert (short.counts[guessed] == UNFINISHED).all() and (short.values[guessed] == 0).all()
    assert (short.nodes == 1).all()
    again = count_batch(givens, propagation="bands", budget=int(full.nodes.max()) + 1)
    assert (again.counts == full.counts).all()
    values = np.zeros(givens.shape, np.uint8)
    counts, nodes = np.zeros(20, np.int64), np.zeros(20, np.int64)
    search_many9(givens, 1, 0, np.ones(1, np.uint8), values, counts, nodes, *scratch())
    assert (counts == UNFINISHED).all() and (nodes == 0).all()


@pytest.mark.parametrize("backend", ("threads", "loky"))
def test_two_workers_give_the_same_answers(backend: str) -> None:
    givens = givens_of("norvig_top95.txt")
    one = count_batch(givens, limit=2)
    two = count_batch(givens, limit=2, workers=2, backend=backend)
    assert (one.values == two.values).all() and (one.counts == two.counts).all()
    assert (one.nodes == two.nodes).all()


def test_bands_is_for_9x9_and_auto_falls_back_to_units() -> None:
    givens = givens_of("gecode_16x16.txt")[:3]
    with pytest.raises(ValueError, match="'bands' is for 9x9 puzzles only"):
        solve_batch(givens, propagation="bands")
    auto, units = solve_batch(givens), solve_batch(givens, propagation="units")
    assert (auto.nodes == units.nodes).all() and (auto.values == units.values).all()
    nine = givens_of("norvig_top95.txt")[:5]
    row_major = solve_batch(nine, order="row-major")
    assert (row_major.nodes == solve_batch(nine, "row-major", "units").nodes).all()


def test_the_command_line_uses_the_band_kernel_by_default(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    givens = givens_of("norvig_top95.txt")[:10]
    path = tmp_path / "ten.txt"
    path.write_text("\n".join("".join(map(str, row)) for row in givens) + "\n")
    bands = solve_batch(givens, propagation="bands").nodes
    units = solve_batch(givens, propagation="units").nodes
    assert list(bands) != list(units)
    for options, nodes in (([], bands), (["--propagation", "units"], units),
                           (["--order", "fewest"], units)):
        assert main([str(path), "--stats", "--verify", *options]) == 0
        lines = capsys.readouterr().out.splitlines()[:-1]
        assert [int(line.split("nodes=")[1].split()[0]) for line in lines] == list(nodes)
    assert main([str(path), "--count", "--limit", "2"]) == 0
    assert capsys.readouterr().out.count("count=1") == 10


def test_hardest_line_is_solved_at_the_root() -> None:
    givens = np.array([[0 if ch == "." else int(ch) for ch in HARDEST]], dtype=np.uint8)
    result = count_batch(givens)
    assert list(result.counts) == [1] and valid_9x9(givens, result.values).all()


@pytest.mark.parametrize("name", ["tdoku_puzzles2_17_clue_head3000.txt", "norvig_top95.txt",
                                  "tdoku_puzzles7_serg_benchmark.txt"])
def test_the_numpy_reader_equals_the_compiled_one(name: str) -> None:
    from parallel_backtrack.sudoku.batch_io import _plain_9x9
    from parallel_backtrack.sudoku.kernel.read import read_clean

    raw = (DATA / name).read_bytes()
    plain, clean = _plain_9x9(raw), read_clean(raw, 10**6)
    assert plain is not None and clean is not None
    assert (plain.givens == clean[1]).all() and (plain.lines == clean[2]).all()


@pytest.mark.parametrize("text, lines, errors", [
    (b"", None, None), (b"\n\n", None, None), (b"#c\n", None, None),
    (b"." * 81, [1], 0), (b"." * 81 + b"\r\n#x\n\n" + b"1" * 81 + b"\n", [1], 1),
    (b" " + b"." * 80 + b"\n", None, None), (b"." * 81 + b":1\n", None, None),
    (b"." * 80 + b"\n", None, None), (b"." * 81 + b"\n" + b"." * 16 + b"\n", None, None),
])
def test_the_numpy_reader_takes_only_plain_files(text: bytes, lines: list[int] | None,
                                                 errors: int | None) -> None:
    from parallel_backtrack.sudoku.batch_io import _plain_9x9, parse_batch

    plain = _plain_9x9(text)
    if lines is None:
        assert plain is None
    else:
        assert plain is not None and plain.lines.tolist() == lines
        parsed = parse_batch(text)
        assert len(plain.errors) == errors and parsed.errors == plain.errors
        assert (parsed.givens == plain.givens).all() and (parsed.lines == plain.lines).all()


def test_the_numpy_givens_check_equals_the_compiled_one() -> None:
    from parallel_backtrack.sudoku.batch_io import _broken_9x9, broken_rows

    rng = np.random.default_rng(3)
    for keep, rows in ((3, 3000), (6, 9000), (10, 3000)):  # 9000: in three slices
        givens = rng.integers(1, 12, (rows, 81)).astype(np.uint8)
        givens[rng.random((rows, 81)) > keep / 81] = 0
        broken = _broken_9x9(givens)
        assert 0 < broken.mean() < 1
        assert (broken == broken_rows(3, givens)).all()


COMPILE_ONCE = """
import numpy as np
from parallel_backtrack.sudoku.batch import count_batch, solve_batch
from parallel_backtrack.sudoku.kernel9 import band, search
givens = np.zeros((2, 81), np.uint8)
givens[1, :9] = np.arange(1, 10)
solve_batch(givens)
count_batch(givens, limit=2)
helpers = (band.propagate, band.choose_cell, band.digits_of, band.load_givens,
           search._store_values, search.search_one, search.search_many9)
print(*(len(f.signatures) for f in helpers))
"""


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_first_run_compiles_each_band_helper_once(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import os
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}  # an empty cache: all compiled
    out = subprocess.run([sys.executable, "-c", COMPILE_ONCE], env=env, capture_output=True,
                         text=True, timeout=590, check=True).stdout
    assert out.split() == ["1"] * 7
