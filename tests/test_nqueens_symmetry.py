"""D4 symmetry: the group on explicit solutions, canonical forms, the canonical tree
(generic == kernel), Burnside's unique count and the counts through the engine."""

import itertools
import json
from functools import cache

import pytest

from parallel_backtrack.engine import count, sequential_count, sequential_solutions
from parallel_backtrack.nqueens import ImmutableQueenLocations, QueensSpace, is_queens_solution
from parallel_backtrack.nqueens.__main__ import main
from parallel_backtrack.nqueens.burnside import unique_from_total
from parallel_backtrack.nqueens.kernel.canonical import count_canonical, count_rotation_symmetric
from parallel_backtrack.nqueens.space import count_report, count_unique
from parallel_backtrack.nqueens.symmetry import (
    REFLECTIONS,
    TRANSFORMS,
    CanonicalBoard,
    canonical_form,
    compose,
    is_canonical,
    map_square,
    orbit,
    orbit_key,
    stabilizer,
    top_columns,
    transform,
)

# OEIS A000170 (all solutions) and A002562 (essentially different), n = 1..17
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
           14772512, 95815104]
A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955,
           11977939]
SMALL = range(1, 11)


@cache
def all_solutions(n):
    """Every solution, from brute force over permutations (n <= 8) or the reference search."""
    if n <= 8:
        found = [p for p in itertools.permutations(range(n)) if is_queens_solution(p)]
    else:
        space = QueensSpace(ImmutableQueenLocations(n), kernel="reference")
        found = [board.queens for board in sequential_solutions(space)]
    assert len(found) == A000170[n - 1]
    return tuple(found)


class CanonicalTree:
    """The canonical tree as a plain Space, for the generic sequential search."""

    def __init__(self, n):
        self.space = QueensSpace(ImmutableQueenLocations(n), kernel="reference", symmetry="d4")
        self.n = n

    def root(self):
        return CanonicalBoard(ImmutableQueenLocations(self.n))

    def branch(self, state):
        return self.space.branch(state)

    def is_solution(self, state):
        return self.space.is_solution(state)


# -- the group ---------------------------------------------------------------------
def test_the_eight_transforms_are_distinct_permutations_of_the_squares():
    n = 5
    squares = [(r, c) for r in range(n) for c in range(n)]
    images = {name: tuple(map_square(name, n, s) for s in squares) for name in TRANSFORMS}
    assert len(TRANSFORMS) == 8 == len(set(images.values()))
    assert all(sorted(image) == squares for image in images.values())


def test_the_group_is_closed_with_identity_and_inverses():
    for outer, inner in itertools.product(TRANSFORMS, repeat=2):
        assert compose(outer, inner) in TRANSFORMS
    for name in TRANSFORMS:
        assert compose(name, "identity") == compose("identity", name) == name
        assert any(compose(name, other) == "identity" for other in TRANSFORMS)
    assert compose("rot90", "rot90") == "rot180"
    assert compose("rot90", "rot270") == "identity"
    assert compose("mirror", "flip") == "rot180"


@pytest.mark.parametrize("n", SMALL)
def test_images_of_a_solution_are_solutions(n):
    for solution in all_solutions(n):
        for name in TRANSFORMS:
            assert is_queens_solution(transform(solution, name)), (solution, name)


@pytest.mark.parametrize("n", SMALL)
def test_orbit_sizes_divide_eight(n):
    for solution in all_solutions(n):
        size = len(orbit(solution))
        assert size * len(stabilizer(solution)) == 8  # orbit-stabilizer
        assert size in ((1,) if n == 1 else (2, 4, 8))


@pytest.mark.parametrize("n", range(2, 11))
def test_no_solution_is_fixed_by_a_reflection(n):
    for solution in all_solutions(n):
        assert not set(stabilizer(solution)) & set(REFLECTIONS)


@pytest.mark.parametrize("n", SMALL)
def test_canonical_form_is_the_orbit_minimum(n):
    for solution in all_solutions(n):
        images = orbit(solution)
        form = canonical_form(solution)
        assert form == min(images, key=orbit_key) and form in images
        assert all(canonical_form(image) == form for image in images)
        assert sum(is_canonical(image) for image in images) == 1


@pytest.mark.parametrize("n", SMALL)
def test_unique_is_the_number_of_distinct_canonical_forms(n):
    forms = {canonical_form(s) for s in all_solutions(n)}
    assert len(forms) == A002562[n - 1] == unique_from_total(n, A000170[n - 1])
    assert sum(len(orbit(form)) for form in forms) == A000170[n - 1]


@pytest.mark.parametrize("n", SMALL)
def test_rotation_symmetric_counts_match_the_enumerated_solutions(n):
    solutions = all_solutions(n)
    assert count_rotation_symmetric(n, 1) == sum(transform(s, "rot90") == s for s in solutions)
    assert count_rotation_symmetric(n, 2) == sum(transform(s, "rot180") == s for s in solutions)


def test_unique_from_total_refuses_a_wrong_total():
    with pytest.raises(ArithmeticError, match="not a multiple of 8; the total is wrong"):
        unique_from_total(8, 91)
    assert unique_from_total(8, 92, quarter_turn_fixed=0, half_turn_fixed=4) == 12


@pytest.mark.parametrize("args,message", [
    ((8, 3), "turns must be 1 \\(quarter turn\\) or 2 \\(half turn\\), got 3"),
    ((0, 1), "board size must be an integer in 1..32, got 0"),
])
def test_rotation_symmetric_count_validates(args, message):
    with pytest.raises(ValueError, match=message):
        count_rotation_symmetric(*args)


def test_transform_names_and_placements_are_checked():
    with pytest.raises(ValueError, match="unknown transform 'rot45'; expected one of"):
        transform((1, 3, 0, 2), "rot45")
    with pytest.raises(ValueError, match="is not one queen per row and column"):
        transform((0, 0, 1), "rot90")


# -- the canonical tree: generic == kernel ------------------------------------------
@pytest.mark.parametrize("n", SMALL)
def test_the_canonical_tree_reaches_every_solution_once(n):
    reached = [board.queens for board in sequential_solutions(CanonicalTree(n))]
    assert len(reached) == len(set(reached)) == A000170[n - 1]
    assert set(reached) == set(all_solutions(n))


@pytest.mark.parametrize("n", range(1, 12))
def test_kernel_counts_and_nodes_match_the_generic_canonical_tree(n):
    generic = sequential_count(CanonicalTree(n))
    got, nodes, leftover = count_canonical(ImmutableQueenLocations(n), budget=10**12)
    assert (got, nodes, leftover) == (generic.count, generic.nodes, [])
    assert got == A000170[n - 1]


@pytest.mark.parametrize("budget", [1, 2, 3, 10, 333])
def test_budgeted_kernel_runs_add_up_and_leave_canonical_boards(budget):
    n = 9
    pending, total, nodes = [ImmutableQueenLocations(n)], 0, 0
    while pending:
        board = pending.pop(0)
        got, visited, leftover = count_canonical(board, budget)
        total, nodes = total + got, nodes + visited
        for state in leftover:
            filled = state.filled
            assert filled == (1 << filled.bit_length()) - 1, "rows fill from the top"
            assert state.queens[0] in top_columns(n) or state.is_complete()
        pending = leftover + pending
    assert (total, nodes) == (352, sequential_count(CanonicalTree(n)).nodes)


def test_kernel_refuses_boards_outside_the_canonical_tree():
    board = ImmutableQueenLocations(8)
    with pytest.raises(ValueError, match="row 0's queen must be in one of \\[1, 2, 3\\]"):
        count_canonical(board.place(0, 5), 10)
    with pytest.raises(ValueError, match="canonical boards fill rows from the top"):
        count_canonical(board.place(0, 2).place(3, 0), 10)


# -- counting through the engine ------------------------------------------------------
@pytest.mark.parametrize("n", range(1, 15))
def test_oeis_totals_and_unique_counts_up_to_14(n):
    assert count_unique(n, workers=1) == (A000170[n - 1], A002562[n - 1])


@pytest.mark.parametrize("n", range(1, 13))
def test_the_symmetric_count_equals_the_mirror_only_and_plain_counts(n):
    board = ImmutableQueenLocations(n)
    d4 = count_report(board, symmetry="d4")
    mirror = count_report(board, symmetry="mirror")
    plain = count_report(board, symmetry="none")
    assert d4.count == mirror.count == plain.count == A000170[n - 1]
    if n >= 10:  # each symmetry pays off in nodes
        assert d4.nodes < mirror.nodes / 2.5 and mirror.nodes < plain.nodes / 1.8


@pytest.mark.parametrize("n", range(1, 10))
def test_the_generic_canonical_tree_through_the_engine_matches_the_kernel(n):
    board = ImmutableQueenLocations(n)
    reference = count(QueensSpace(board, kernel="reference", symmetry="d4"), workers=2,
                      backend="threads", budget=7)
    fast = count(QueensSpace(board), workers=2, backend="threads", budget=7)
    assert (reference.count, reference.nodes) == (fast.count, fast.nodes)
    assert fast.count == A000170[n - 1]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("budget", [1, 9, 1000])
@pytest.mark.parametrize("per_worker", [1, 7, 100])
def test_split_and_budget_never_change_the_symmetric_count(budget, per_worker):
    report = count_report(ImmutableQueenLocations(10), workers=2, backend="threads",
                          budget=budget, per_worker=per_worker)
    assert report.count == 724 and report.complete


@pytest.mark.timeout(300)
@pytest.mark.parametrize("workers,backend", [(1, None), (2, "loky"), (3, "threads")])
def test_parallel_symmetric_counts_with_process_pools(workers, backend):
    for n, budget in ((11, 500), (13, 20_000)):
        got = count_unique(n, workers=workers, backend=backend, budget=budget)
        assert got == (A000170[n - 1], A002562[n - 1])


@pytest.mark.timeout(900)
@pytest.mark.parametrize("n", [15, pytest.param(16, marks=[pytest.mark.slow, pytest.mark.ci])])
def test_oeis_totals_and_unique_counts_15_16(n):
    assert count_unique(n, workers=2) == (A000170[n - 1], A002562[n - 1])


def test_symmetry_applies_only_where_it_is_valid():
    empty = ImmutableQueenLocations(8)
    assert QueensSpace(empty).symmetry == "d4"
    assert QueensSpace(empty, kernel="reference").symmetry == "none"
    assert QueensSpace(empty, kernel="reference", symmetry="mirror").symmetry == "mirror"
    assert QueensSpace(empty.place(0, 1)).symmetry == "none"
    with pytest.raises(ValueError, match="unknown symmetry 'mirorr'.*did you mean 'mirror'"):
        QueensSpace(empty, symmetry="mirorr")


# -- the CLI ------------------------------------------------------------------------------
def test_cli_unique_in_human_and_json_output(capsys):
    assert main(["--n", "10", "--workers", "1", "--unique"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("10-queens: 724 solutions")
    assert "unique: 92 essentially different" in out
    assert main(["--n", "12", "--workers", "1", "--unique", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert (payload["count"], payload["unique"], payload["symmetry"]) == (14200, 1787, "d4")
    assert main(["--n", "9", "--workers", "1", "--json"]) == 0
    assert "unique" not in json.loads(capsys.readouterr().out)


def test_cli_unique_is_unknown_for_a_partial_count(capsys):
    code = main(["--n", "16", "--workers", "1", "--timeout", "0.01", "--unique", "--json"])
    payload = json.loads(capsys.readouterr().out)
    assert code == 3 and not payload["complete"] and payload["unique"] is None


def test_count_unique_needs_an_exact_total():
    with pytest.raises(RuntimeError, match="the count stopped early \\(timeout\\)"):
        count_unique(16, workers=1, timeout=0.01)
