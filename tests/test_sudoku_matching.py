"""All-different matching and locked candidates: sound, as strong as claimed, and the
kernel's node counts equal the reference path's."""

from __future__ import annotations

import itertools
import random
import time

import pytest
from sudoku_data import DATA, FIXTURES, gecode_25x25, gecode_25x25_solutions

from parallel_backtrack.engine import sequential_count
from parallel_backtrack.sudoku.files import read_puzzles
from parallel_backtrack.sudoku.formats import parse_one
from parallel_backtrack.sudoku.masks import count_masks, solve_masks
from parallel_backtrack.sudoku.matching import consistent_unit, perfect_matching
from parallel_backtrack.sudoku.orders import order_named
from parallel_backtrack.sudoku.puzzle import ImmutableSudokuPuzzle, check_givens
from parallel_backtrack.sudoku.space import SudokuSpace, is_valid_solution

STRONG = ("locked", "matching")


def lines_of(name: str, count: int) -> list[str]:
    path = DATA / name
    found = [line.split()[0] for line in path.read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    return found[:count]


def brute_force_unit(cands: list[int]) -> list[int] | None:
    """Every candidate some all-different assignment uses; None when there is none."""
    kept = [0] * len(cands)
    for values in itertools.permutations(range(len(cands))):
        if all(cands[k] >> v & 1 for k, v in enumerate(values)):
            for k, v in enumerate(values):
                kept[k] |= 1 << v
    return kept if all(kept) else None


def test_a_naked_pair_leaves_the_third_square() -> None:
    assert consistent_unit([0b011, 0b011, 0b111]) == [0b011, 0b011, 0b100]


def test_a_hidden_pair_keeps_only_its_two_values() -> None:
    # values 3 and 4 (bits 2, 3) fit only in positions 0 and 1
    assert consistent_unit([0b1111, 0b1101, 0b0011, 0b0011]) == [0b1100, 0b1100, 0b0011, 0b0011]


def test_three_squares_sharing_two_values_have_no_matching() -> None:
    assert perfect_matching([0b011, 0b011, 0b011]) is None
    assert consistent_unit([0b011, 0b011, 0b011]) is None


@pytest.mark.parametrize("seed", range(6))
def test_matching_keeps_exactly_what_some_assignment_uses(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        size = rng.choice((4, 5, 6))
        cands = [rng.randrange(1, 1 << size) | (1 << rng.randrange(size)) for _ in range(size)]
        assert consistent_unit(cands) == brute_force_unit(cands), cands


def solved_pairs() -> list[tuple[str, str]]:
    path = DATA / "tdoku_test_puzzles.txt"
    pairs = []
    for text in path.read_text().split():
        puzzle, count, *rest = text.split(":")
        if count == "1" and rest:
            pairs.append((puzzle, rest[0]))
    return pairs


@pytest.mark.parametrize("propagation", STRONG)
def test_no_solution_value_is_ever_removed(propagation: str) -> None:
    pairs = solved_pairs()
    assert len(pairs) >= 10
    for puzzle, solution in pairs:
        masks = ImmutableSudokuPuzzle(puzzle, propagation).masks
        assert is_valid_solution(puzzle, solution)
        assert all(mask >> (int(v) - 1) & 1 for mask, v in zip(masks, solution, strict=True))
    for line in lines_of("gecode_16x16.txt", 6):
        values, _ = solve_masks(4, ImmutableSudokuPuzzle(line, "units").masks)
        assert values is not None and is_valid_solution(line, values)
        masks = ImmutableSudokuPuzzle(line, propagation).masks
        assert all(mask >> (v - 1) & 1 for mask, v in zip(masks, values, strict=True))


def test_each_rule_keeps_no_more_than_the_weaker_ones() -> None:
    fewer_locked = fewer_matching = 0
    for line in lines_of("norvig_top95.txt", 40):
        units, twins, locked, matching = (
            ImmutableSudokuPuzzle(line, p).masks for p in ("units", "twins", "locked", "matching")
        )
        for weak, strong in ((units, locked), (locked, matching), (twins, matching)):
            assert all(s & ~w == 0 for w, s in zip(weak, strong, strict=True)), line
        fewer_locked += locked != units
        fewer_matching += matching != locked
    assert fewer_locked > 0 and fewer_matching > 0


def reference(line: str, order: str, propagation: str) -> tuple[int, int]:
    tally = sequential_count(SudokuSpace(ImmutableSudokuPuzzle(line, propagation),
                                         order_named(order), "reference"))
    return tally.count, tally.nodes


@pytest.mark.parametrize("order", ("fewest", "row-major"))
@pytest.mark.parametrize("propagation", STRONG)
def test_kernel_counts_and_nodes_equal_the_reference(order: str, propagation: str) -> None:
    lines = ["." * 16, "1..." + "." * 12, "12..34.." + "." * 8]
    lines += lines_of("norvig_top95.txt", 12) + lines_of("norvig_hardest11.txt", 4)
    lines += lines_of("gecode_16x16.txt", 3)
    many = "...4......5..8.2.6.....3...2...4....3......1...5.3.8.25...6.3.8..6....95..8......"
    for line in [*lines, many]:
        puzzle = ImmutableSudokuPuzzle(line, propagation)
        assert count_masks(puzzle.box, puzzle.masks, order, propagation) == reference(
            line, order, propagation), line
    assert count_masks(2, [15] * 16, order, propagation)[0] == 288
    assert count_masks(3, ImmutableSudokuPuzzle(many, propagation).masks, order,
                       propagation)[0] == 847


GECODE_25 = [f"gecode {i}" for i in [*range(18, 34), 89, 90]]


def test_the_gecode_25x25_fixture_is_read_and_consistent() -> None:
    found = gecode_25x25()
    assert [index for index, _ in found] == GECODE_25
    fixture = read_puzzles(FIXTURES / "gecode_25x25.txt")
    assert len(fixture) == len(found) == 18
    for (_, line), entry in zip(found, fixture, strict=True):
        assert entry.cells is not None and len(entry.cells) == 625
        assert entry.cells == parse_one(line)  # the shared copy, when used, is the same
        check_givens(entry.cells)  # raises on a repeated given
        assert 265 <= sum(1 for v in entry.cells if v) <= 285


def test_every_gecode_25x25_instance_has_its_known_solution() -> None:
    solutions = gecode_25x25_solutions()
    assert list(solutions) == GECODE_25
    for index, line in gecode_25x25():
        assert is_valid_solution(line, solutions[index]), index  # keeps every given, too


@pytest.mark.parametrize("propagation", STRONG)
def test_no_solution_value_is_removed_on_gecode_25x25(propagation: str) -> None:
    solutions = gecode_25x25_solutions()
    for index, line in gecode_25x25():
        masks = ImmutableSudokuPuzzle(line, propagation).masks
        values = parse_one(solutions[index])
        assert all(mask >> (v - 1) & 1 for mask, v in zip(masks, values, strict=True)), index


def solve_gecode(index: str) -> tuple[float, int]:
    line = dict(gecode_25x25())[index]
    puzzle = ImmutableSudokuPuzzle(line, "matching")
    started = time.perf_counter()
    values, nodes = solve_masks(5, puzzle.masks, "fewest", "matching")
    seconds = time.perf_counter() - started
    assert values is not None and is_valid_solution(line, values)
    assert tuple(map(int, values)) == parse_one(gecode_25x25_solutions()[index])  # unique
    return seconds, nodes


@pytest.mark.timeout(120)
@pytest.mark.parametrize("index", ["gecode 89", "gecode 90"])
def test_gecode_25x25_with_extra_givens_solve_with_matching(index: str) -> None:
    _, nodes = solve_gecode(index)
    assert nodes < 20_000


@pytest.mark.slow
@pytest.mark.timeout(600)
# CI runs #20 (some 6 s); #19, #24 and #28 take 30-40 s each (python scripts/bench_sudoku.py
# --sets '' --generated 0 --gecode-budget 1000000 --gecode-propagations matching: all of them).
@pytest.mark.parametrize("index", ["gecode 19", pytest.param("gecode 20", marks=pytest.mark.ci),
                                   "gecode 24", "gecode 28"])
def test_gecode_minimal_25x25_solve_with_matching(index: str) -> None:
    _, nodes = solve_gecode(index)
    assert nodes < 1_000_000
