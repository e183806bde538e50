"""The compiled Sudoku kernel: answers, node counts and frontiers equal the reference path's."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from sudoku_data import HARDEST, sudoku_file

from parallel_backtrack.engine import explore, sequential_count
from parallel_backtrack.sudoku.batch import UNFINISHED, count_batch, solve_batch
from parallel_backtrack.sudoku.batch_io import parse_batch, read_batch
from parallel_backtrack.sudoku.calls import call_kernel, check_box
from parallel_backtrack.sudoku.kernel.bits import low_bit, low_bit_index, popcount
from parallel_backtrack.sudoku.kernel.search import explore_roots, search_many
from parallel_backtrack.sudoku.kernel.tables import kernel_tables
from parallel_backtrack.sudoku.masks import (
    branch_masks,
    count_masks,
    explore_masks,
    mask_rows,
    masks_from_cells,
    solve_masks,
    trusted_rows,
    values_of,
)
from parallel_backtrack.sudoku.orders import order_named
from parallel_backtrack.sudoku.puzzle import ImmutableSudokuPuzzle
from parallel_backtrack.sudoku.space import SudokuSpace

ORDERS = ("fewest", "row-major")
PROPAGATIONS = ("none", "peers", "units", "twins")
THIRTEEN = "8.........59.......67..........3.265...4.6198......437...753916...891742...624583"
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def shared(name: str) -> Path:
    return sudoku_file(name)


def valid_solution(givens: list[int] | np.ndarray, solution: list[int] | np.ndarray) -> bool:
    """Independent checker: every unit holds 1..n once, and every given is kept."""
    cells = [int(v) for v in solution]
    n = int(round(len(cells) ** 0.5))
    b = int(round(n**0.5))
    if b * b != n or n * n != len(cells):
        return False
    if any(g and g != v for g, v in zip((int(g) for g in givens), cells)):
        return False
    want = set(range(1, n + 1))
    rows = [cells[r * n:(r + 1) * n] for r in range(n)]
    cols = [cells[c::n] for c in range(n)]
    boxes = [[cells[(br + i // b) * n + bc + i % b] for i in range(n)]
             for br in range(0, n, b) for bc in range(0, n, b)]
    return all(set(unit) == want for unit in rows + cols + boxes)


def cells_of(line: str) -> list[int]:
    return [0 if ch in ".0_" else int(ch, 36) for ch in line]


def reference_count(line: str, order: str, propagation: str) -> tuple[int, int]:
    tally = sequential_count(SudokuSpace(ImmutableSudokuPuzzle(line, propagation),
                                         order_named(order)))
    return tally.count, tally.nodes


def tdoku_rows() -> list[tuple[str, int, str | None]]:
    rows = []
    for text in shared("tdoku_test_puzzles.txt").read_text().split():
        puzzle, count, *rest = text.split(":")
        rows.append((puzzle, int(count), rest[0] if rest else None))
    return rows


def solved_grid(box: int, seed: int) -> list[int]:
    """A shuffled solved grid: the pattern ``(b * (r % b) + r // b + c) % n`` permuted."""
    rng, n = random.Random(seed), box * box

    def shuffled_lines() -> list[int]:
        bands = rng.sample(range(box), box)
        return [band * box + line for band in bands for line in rng.sample(range(box), box)]

    rows, cols, digits = shuffled_lines(), shuffled_lines(), rng.sample(range(1, n + 1), n)
    return [digits[(box * (r % box) + r // box + c) % n] for r in rows for c in cols]


def remove_clues(box: int, grid: list[int], seed: int, tries: int,
                 check_budget: int | None = None) -> list[int]:
    """Blank up to ``tries`` squares in random order while the solution provably stays unique.

    A uniqueness check that needs more than ``check_budget`` nodes keeps its clue.
    """
    cells, rng = list(grid), random.Random(seed)
    for square in rng.sample(range(len(cells)), tries):
        kept, cells[square] = cells[square], 0
        run = explore_masks(box, masks_from_cells(box, cells), limit=2, budget=check_budget)
        if run.count != 1 or len(run.leftover):
            cells[square] = kept
    return cells


# --- bits and tables ---------------------------------------------------------------


def test_bit_helpers() -> None:
    mask = np.uint64(0b100100)
    assert (popcount(mask), low_bit_index(mask), int(low_bit(mask))) == (2, 2, 0b100)
    top = np.uint64(1 << 35)
    assert (popcount(top), low_bit_index(top), int(low_bit(np.uint64(0)))) == (1, 35, 0)


@pytest.mark.parametrize("box", [2, 3, 4, 5, 6])
def test_tables(box: int) -> None:
    tables, n = kernel_tables(box), box * box
    assert tables.peers.shape == (n * n, 3 * n - 2 * box - 1)
    assert sorted(np.bincount(tables.units.ravel())) == [3] * (n * n)
    for square in (0, n * n // 2, n * n - 1):
        assert square not in tables.peers[square]
        assert all(square in tables.peers[peer] for peer in tables.peers[square])
        for unit in tables.square_units[square]:
            assert square in tables.units[unit]
    assert kernel_tables(box) is tables


# --- validation --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: solve_masks(7, [1]), r"box size must be one of \[2, 3, 4, 5, 6\], got 7"),
        (lambda: solve_masks(True, [1]), "box size must be one of"),
        (lambda: solve_masks(2, [15] * 15), r"a 4x4 state has 16 masks; got .*\(1, 15\)"),
        (lambda: solve_masks(2, [16] * 16), r"lie in 0..15; got 16..16"),
        (lambda: solve_masks(2, [-1] + [15] * 15), r"lie in 0..15; got -1..15"),
        (lambda: solve_masks(2, ["a"] * 16), "masks must be integers"),
        (lambda: solve_masks(2, [15] * 16, "fewset"),
         r"unknown order 'fewset'.*did you mean 'fewest'"),
        (lambda: solve_masks(2, [15] * 16, "fewest", "unit"), r"did you mean 'units'"),
        (lambda: count_masks(2, [15] * 16, limit=0),
         "limit must be a positive integer or None, got 0"),
        (lambda: explore_masks(2, [15] * 16, budget=0),
         "budget must be a positive integer or None"),
        (lambda: explore_masks(2, [15] * 16, mode="all"), r"unknown mode 'all'"),
        (lambda: solve_batch(np.zeros((2, 80), np.uint8)), "2-D array with 16, 81, 256"),
        (lambda: solve_batch(np.full((1, 16), 5, np.uint8)), r"lie in 0..4"),
        (lambda: count_batch(np.zeros((1, 16), np.uint8), limit=0),
         "limit must be a positive integer or None"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=message):
        call()


def test_a_ctrl_c_inside_the_kernel_comes_out_as_itself() -> None:
    def interrupted() -> None:  # what numba raises when Ctrl-C lands in a compiled call
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as stop:
            try:
                raise SystemError("returned a result with an exception set") from stop
            except SystemError as inner:
                raise SystemError("returned a result with an exception set") from inner

    def broken() -> None:
        raise SystemError("something else")

    with pytest.raises(KeyboardInterrupt):
        call_kernel(interrupted)
    with pytest.raises(SystemError, match="something else"):
        call_kernel(broken)
    assert call_kernel(max, 2, 3) == 3


def test_the_engine_s_kernel_lets_other_threads_run() -> None:
    """A parent's loky threads keep working while it probes or splits (see gil_probe).
    The check can fail: a C loop that holds the GIL (as the kernel did before it was
    compiled with ``nogil``) lets the other thread run about as little as the probe's
    holding reference does (``sum(range(...))``), which the probe measures each time."""
    from gil_probe import releases_the_gil

    empty = masks_from_cells(3, [0] * 81)
    explore_masks(3, empty, budget=1)  # loaded: only the search is timed below
    released, figures = releases_the_gil(lambda: explore_masks(3, empty, budget=200_000))
    assert released, figures


def test_branch_masks_is_each_root_s_one_node_frontier_from_the_same_entry() -> None:
    roots = [masks_from_cells(3, cells_of(line)) for line in (THIRTEEN, EASY, "." * 81)]
    start = explore_masks(3, roots[2], budget=40)  # deeper states, and a dead row or two
    rows = np.vstack([np.vstack(roots), start.leftover])
    children, firsts = branch_masks(3, rows)
    assert firsts[0] == 0 and len(firsts) == len(rows) + 1
    for i, row in enumerate(rows):
        alone = explore_masks(3, row, budget=1)
        assert np.array_equal(children[firsts[i]:firsts[i + 1]], alone.leftover)
    assert firsts[-1] > len(rows)
    # The cut's batches run the search's own compiled entry: no second one to load.
    assert len(explore_roots.signatures) == 1


def test_mask_helpers() -> None:
    row = masks_from_cells(2, [1, 0, 0, 4] + [0] * 12)
    assert list(row[:4]) == [1, 15, 15, 8]
    assert mask_rows(2, row).shape == (1, 16) and mask_rows(2, [row, row]).shape == (2, 16)
    assert values_of([1, 2, 4, 8, 3]) == (1, 2, 3, 4, 0)
    assert check_box(np.int64(3)) == 3


# --- answers -----------------------------------------------------------------------


@pytest.mark.parametrize("propagation", PROPAGATIONS)
@pytest.mark.parametrize("order", ORDERS)
def test_empty_4x4_has_288_solutions_and_reference_nodes(order: str, propagation: str) -> None:
    blank = "." * 16
    assert count_masks(2, [15] * 16, order, propagation) == reference_count(blank, order,
                                                                           propagation)
    assert count_masks(2, [15] * 16, order, propagation)[0] == 288


@pytest.mark.parametrize("propagation", ("peers", "units", "twins"))
@pytest.mark.parametrize("order", ORDERS)
def test_every_tdoku_test_count(order: str, propagation: str) -> None:
    rows = tdoku_rows()
    givens = np.array([cells_of(p) for p, _, _ in rows], dtype=np.uint8)
    result = count_batch(givens, order, propagation)
    assert list(result.counts) == [count for _, count, _ in rows]
    for (puzzle, count, solution), values in zip(rows, result.values):
        if count:
            assert valid_solution(cells_of(puzzle), values)
        if solution is not None:
            assert "".join(map(str, values)) == solution


def test_tdoku_counts_with_limits_and_plain_backtracking() -> None:
    rows = tdoku_rows()
    givens = np.array([cells_of(p) for p, _, _ in rows], dtype=np.uint8)
    limited = count_batch(givens, limit=100)
    assert list(limited.counts) == [min(count, 100) for _, count, _ in rows]
    few = [i for i, (_, count, _) in enumerate(rows) if count <= 13]
    plain = count_batch(givens[few], "fewest", "none")
    assert list(plain.counts) == [rows[i][1] for i in few]


@pytest.mark.parametrize("propagation", PROPAGATIONS)
@pytest.mark.parametrize("order", ORDERS)
def test_nodes_equal_the_reference_search(order: str, propagation: str) -> None:
    rows = tdoku_rows()
    sample = [THIRTEEN] + [p for p, count, _ in rows if count <= 3][::6]
    if propagation == "none":
        sample = [EASY, THIRTEEN] if order == "fewest" else [EASY]
    for line in sample:
        box_masks = ImmutableSudokuPuzzle(line, propagation).masks
        assert count_masks(3, box_masks, order, propagation) == reference_count(
            line, order, propagation), line


@pytest.mark.parametrize("order", ORDERS)
def test_solve_nodes_equal_the_reference_first_solution(order: str) -> None:
    for line in (HARDEST, THIRTEEN):
        puzzle = ImmutableSudokuPuzzle(line)
        space = SudokuSpace(puzzle, order_named(order))
        reference = explore(space, [puzzle], stop_after=1, keep=True)
        values, nodes = solve_masks(3, puzzle.masks, order)
        assert nodes == reference.nodes
        assert values == reference.solutions[0].cells
        assert valid_solution(cells_of(line), values)


def test_dead_and_solved_roots_are_one_node() -> None:
    root = ImmutableSudokuPuzzle(HARDEST).masks
    values, nodes = solve_masks(3, root)
    assert nodes >= 1 and values is not None
    filled = masks_from_cells(3, values)
    assert count_masks(3, filled) == (1, 1)
    dead = filled.copy()
    dead[0] = 0
    assert count_masks(3, dead) == (0, 1)
    clash = filled.copy()
    clash[1] = clash[0]
    assert solve_masks(3, clash) == (None, 1)


# --- budgets and frontiers ---------------------------------------------------------


@pytest.mark.parametrize("budget", [1, 2, 7, 50])
def test_budgeted_runs_add_up_to_the_full_count(budget: int) -> None:
    root = ImmutableSudokuPuzzle(THIRTEEN, "peers").masks
    full = count_masks(3, root, "fewest", "peers")
    count = nodes = 0
    pending = mask_rows(3, root)
    while len(pending):
        run = explore_masks(3, pending, "fewest", "peers", budget=budget)
        assert run.nodes <= budget
        count, nodes, pending = count + run.count, nodes + run.nodes, run.leftover
    assert (count, nodes) == full == (13, full[1])


def test_the_frontier_is_the_reference_stack_without_dead_ends() -> None:
    puzzle = ImmutableSudokuPuzzle(HARDEST, "peers")
    space = SudokuSpace(puzzle, order_named("fewest"))
    for budget in (1, 3, 10):
        reference = explore(space, [puzzle], budget=budget)
        run = explore_masks(3, puzzle.masks, "fewest", "peers", budget=budget)
        expected = [(0,) * 81 if state.is_dead() else state.masks for state in reference.leftover]
        assert [tuple(int(m) for m in row) for row in run.leftover] == expected
        assert any(state.is_dead() for state in reference.leftover) or budget < 10
        assert (run.count, run.nodes) == (reference.count, reference.nodes)
        for row, state in zip(run.leftover, reference.leftover):
            again = ImmutableSudokuPuzzle.from_masks(3, row, "peers")
            assert again.is_dead() == state.is_dead()
            if not state.is_dead():
                assert again == state


def test_trusted_rows_are_mask_rows_and_several_roots_explore_as_the_reference() -> None:
    puzzle = ImmutableSudokuPuzzle(HARDEST, "peers")
    space = SudokuSpace(puzzle, order_named("fewest"))
    reference = SudokuSpace(puzzle, order_named("fewest"), "reference")
    states = list(explore(reference, [puzzle], budget=6).leftover)
    assert any(state.is_dead() for state in states) and len(states) >= 3
    masks = [state.masks for state in states]
    assert np.array_equal(trusted_rows(masks), mask_rows(3, masks))
    assert trusted_rows(masks).dtype == np.uint64 and trusted_rows(masks).flags.c_contiguous
    for budget in (1, 5, 40, None):
        fast = space.explore_fast(states, budget=budget)
        generic = explore(reference, states, budget=budget)
        assert (fast.count, fast.nodes) == (generic.count, generic.nodes)
        assert [s.is_dead() or s.masks for s in fast.leftover] == [
            s.is_dead() or s.masks for s in generic.leftover]


def test_first_mode_keeps_the_solution_and_stops() -> None:
    run = explore_masks(3, ImmutableSudokuPuzzle(THIRTEEN).masks, mode="first")
    assert run.count == 1 and run.solutions.shape == (1, 81)
    assert valid_solution(cells_of(THIRTEEN), values_of(run.solutions[0]))
    assert len(run.leftover) > 0
    kept = explore_masks(3, ImmutableSudokuPuzzle(THIRTEEN).masks, keep=20)
    assert kept.count == 13 and kept.solutions.shape == (13, 81)
    assert len({tuple(row) for row in kept.solutions}) == 13


@pytest.mark.timeout(120)
def test_space_hooks_equal_the_reference_path() -> None:
    from parallel_backtrack import engine

    for order, propagation in (("fewest", "units"), ("row-major", "peers")):
        puzzle = ImmutableSudokuPuzzle(THIRTEEN, propagation)
        fast = SudokuSpace(puzzle, order_named(order))
        reference = SudokuSpace(puzzle, order_named(order), "reference")
        for budget in (3, 40):
            hooked = fast.count_below(puzzle, budget)
            generic = explore(reference, [puzzle], budget=budget)
            assert (hooked.count, hooked.nodes) == (generic.count, generic.nodes)
            assert [s.masks for s in hooked.leftover if not s.is_dead()] == [
                s.masks for s in generic.leftover if not s.is_dead()]
            assert [s.is_dead() for s in hooked.leftover] == [
                s.is_dead() for s in generic.leftover]
        first = fast.first_below(puzzle, 10**6)
        assert first.count == 1 and first.solutions[0].is_solved()
        tally = sequential_count(reference)
        report = engine.count(fast, workers=2)
        assert (report.count, report.nodes) == (tally.count, tally.nodes) == (13, tally.nodes)


# --- files and batches -------------------------------------------------------------


def test_parse_batch_reads_lines_tails_and_reports_bad_ones() -> None:
    text = "\n".join([
        "# a comment",
        HARDEST + ":1",
        "",
        THIRTEEN + "\tthirteen",
        HARDEST[:-1] + "x",  # a letter is a value (33), too big for 9x9
        HARDEST[:-1] + "*",
        HARDEST[:-2],
        "." * 256,
        "11" + "." * 79,
    ])
    batch = parse_batch(text)
    assert batch.box == 3 and list(batch.lines) == [2, 4]
    assert list(batch.givens[0]) == cells_of(HARDEST)
    reasons = dict(batch.errors)
    assert sorted(reasons) == [5, 6, 7, 8, 9]
    assert "values must be 1..9" in reasons[5]
    assert "cannot read '*' (cell 81)" in reasons[6]
    assert reasons[7].startswith("79 cells; a puzzle line has 16, 81")
    assert "one size per file" in reasons[8]
    assert "A1 and A2 both hold 1" in reasons[9]


def test_parse_batch_falls_back_to_grids() -> None:
    grid = "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 .\n"
    batch = parse_batch(grid)
    assert batch.box == 2 and batch.errors == [] and list(batch.lines) == [1]
    assert list(batch.givens[0]) == [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0]


def test_read_batch_of_a_file(tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    path.write_text(HARDEST + "\n" + HARDEST.lower().replace(".", "0") + "\n")
    batch = read_batch(path)
    assert batch.givens.shape == (2, 81) and (batch.givens[0] == batch.givens[1]).all()
    assert parse_batch("").givens.shape == (0, 81)


def test_gecode_16x16_all_solved() -> None:
    batch = read_batch(shared("gecode_16x16.txt"))
    assert batch.box == 4 and len(batch.givens) == 55 and batch.errors == []
    result = solve_batch(batch.givens)
    assert result.solved.all()
    assert all(valid_solution(g, v) for g, v in zip(batch.givens, result.values))


def test_serg_puzzles_have_at_least_two_solutions() -> None:
    batch = read_batch(shared("tdoku_puzzles7_serg_benchmark.txt"))
    result = count_batch(batch.givens[:500], limit=2)
    assert (result.counts == 2).all()


@pytest.mark.parametrize(("box", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5)])
def test_generated_puzzles_of_every_size(box: int, seed: int) -> None:
    grid = solved_grid(box, seed)
    assert valid_solution([0] * len(grid), grid)
    tries = {2: 16, 3: 81, 4: 160, 5: 250, 6: 300}[box]
    givens = remove_clues(box, grid, seed, tries) if box < 6 else [
        0 if random.Random(seed + i).random() < 0.3 else v for i, v in enumerate(grid)]
    values, _ = solve_masks(box, masks_from_cells(box, givens))
    assert values is not None and valid_solution(givens, values)
    if box < 6:
        assert list(values) == grid


def test_a_node_budget_leaves_hard_puzzles_unfinished() -> None:
    """The general kernel (``units``; the band kernel solves HARDEST at the root)."""
    givens = np.array([cells_of(HARDEST), cells_of(THIRTEEN)], dtype=np.uint8)
    full = count_batch(givens, propagation="units")
    assert list(full.counts) == [1, 13] and full.finished.all()
    short = count_batch(givens, propagation="units", budget=1)
    assert list(short.counts) == [UNFINISHED, UNFINISHED] and not short.finished.any()
    assert (short.values == 0).all() and list(short.nodes) == [1, 1]
    most = int(full.nodes.max())
    assert list(count_batch(givens, propagation="units", limit=1, budget=most).counts) == [1, 1]
    assert list(solve_batch(givens, propagation="units", budget=most).counts) == [1, 1]
    with pytest.raises(ValueError, match="budget must be a positive integer or None, got 0"):
        solve_batch(givens, budget=0)


def test_a_raised_stop_flag_leaves_the_rest_unfinished() -> None:
    givens = np.array([cells_of(HARDEST)] * 3, dtype=np.uint8)
    values = np.zeros((3, 81), np.uint8)
    counts, nodes = np.zeros(3, np.int64), np.zeros(3, np.int64)
    search_many(givens, 2, 1, kernel_tables(3).as_tuple(), 1, 0, np.ones(1, np.uint8),
                values, counts, nodes)
    assert list(counts) == [UNFINISHED] * 3 and (nodes == 0).all()


@pytest.mark.timeout(120)
def test_two_workers_give_the_same_answers() -> None:
    batch = read_batch(shared("tdoku_puzzles2_17_clue_head3000.txt"))
    sample = batch.givens[:3000]
    assert len(sample) == 3000
    one = solve_batch(sample, workers=1)
    for backend in ("threads", "loky"):
        two = solve_batch(sample, workers=2, backend=backend)
        assert two.workers == 2
        assert (one.values == two.values).all() and (one.nodes == two.nodes).all()
        counted = count_batch(sample[:200], limit=2, workers=2, backend=backend)
        assert (counted.counts == 1).all()
    with pytest.raises(ValueError, match=r"unknown backend 'thread'.*did you mean 'threads'"):
        solve_batch(sample, workers=2, backend="thread")


@pytest.mark.parametrize(
    "name",
    ["tdoku_puzzles2_17_clue.txt", "tdoku_puzzles6_forum_hardest_1106.txt",
     "tdoku_puzzles3_magictour_top1465.txt", "norvig_top95.txt", "plb_hard20.txt"],
)
def test_large_sets_all_solved_and_valid(name: str) -> None:
    batch = read_batch(shared(name))
    assert batch.errors == []
    result = solve_batch(batch.givens)
    assert result.solved.all()
    assert valid_9x9_solutions(np.asarray(batch.givens), np.asarray(result.values)).all()


def valid_9x9_solutions(givens: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Independent checker for many 9x9 solutions at once (rows of 81 cells): every
    row, column and box holds 1..9 once, and every given is kept."""
    grids = values.reshape(-1, 9, 9)
    boxes = grids.reshape(-1, 3, 3, 3, 3).transpose(0, 1, 3, 2, 4).reshape(-1, 9, 9)
    want = np.arange(1, 10)
    units_ok = [(np.sort(units, axis=2) == want).all(axis=(1, 2))
                for units in (grids, grids.transpose(0, 2, 1), boxes)]
    kept = ((givens == 0) | (givens == values)).all(axis=1)
    return units_ok[0] & units_ok[1] & units_ok[2] & kept


def test_the_many_solutions_checker_agrees_with_the_plain_one() -> None:
    rows = [masks_from_cells(3, cells_of(line)) for line in (HARDEST, EASY)]
    givens = np.array([cells_of(line) for line in (HARDEST, EASY)])
    values = np.array([solve_masks(3, row)[0] for row in rows])
    broken = [values.copy() for _ in range(4)]
    broken[0][0, 0], broken[0][0, 1] = values[0, 1], values[0, 0]  # a given moved
    broken[1][1, [3, 30]] = values[1, [30, 3]]  # two cells of a column swapped
    broken[2][1, [0, 4]] = values[1, [4, 0]]  # within a row: its columns and boxes break
    broken[3][0, 80] = 0
    for candidate in (values, *broken):
        plain = [valid_solution(g, v) for g, v in zip(givens, candidate)]
        assert valid_9x9_solutions(givens, candidate).tolist() == plain
    assert all(valid_9x9_solutions(givens, values))
    assert not any(valid_9x9_solutions(givens, b).all() for b in broken)


@pytest.mark.slow
@pytest.mark.ci  # about 20 s
def test_a_near_minimal_25x25_puzzle() -> None:
    grid = solved_grid(5, 25)
    givens = remove_clues(5, grid, 25, 625, check_budget=20_000)
    assert sum(1 for v in givens if v) < 300
    values, nodes = solve_masks(5, masks_from_cells(5, givens))
    assert values is not None and list(values) == grid and nodes >= 1
