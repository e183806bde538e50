"""The Sudoku Space for the engine, node counting, and the independent checker."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest
from sudoku_data import HARDEST

from parallel_backtrack.engine import Space, sequential_count, sequential_solutions
from parallel_backtrack.sudoku import space as space_module
from parallel_backtrack.sudoku.orders import FewestOptionsFirst, RowMajor
from parallel_backtrack.sudoku.puzzle import ImmutableSudokuPuzzle
from parallel_backtrack.sudoku.space import SudokuSpace, is_valid_solution

SOLVED = "859612437723854169164379528986147352375268914241593786432981675617425893598736241"
# tdoku test puzzle with 13 solutions.
THIRTEEN = "8.........59.......67..........3.265...4.6198......437...753916...891742...624583"


def test_is_an_engine_space_and_pickles() -> None:
    space = SudokuSpace(ImmutableSudokuPuzzle(HARDEST), FewestOptionsFirst())
    assert isinstance(space, Space)
    assert pickle.loads(pickle.dumps(space)) == space


def test_a_puzzle_solved_by_propagation_is_one_node() -> None:
    tally = sequential_count(SudokuSpace(ImmutableSudokuPuzzle(SOLVED), RowMajor()))
    assert (tally.count, tally.nodes) == (1, 1)


def test_nodes_count_every_state_visited_root_and_dead_ends_included() -> None:
    space = SudokuSpace(ImmutableSudokuPuzzle(HARDEST, "peers"), FewestOptionsFirst())
    visited, stack = 0, [space.root()]
    while stack:
        state = stack.pop()
        visited += 1
        stack.extend(space.branch(state))
    tally = sequential_count(space)
    assert tally.nodes == visited and tally.count == 1


def test_branch_gives_one_child_per_candidate_in_ascending_order() -> None:
    puzzle = ImmutableSudokuPuzzle(HARDEST, "peers")
    children = SudokuSpace(puzzle, RowMajor()).branch(puzzle)
    assert [child.value("A3") for child in children] == [1, 3, 6, 9]


@pytest.mark.parametrize("propagation", ["none", "peers", "units", "twins", "locked",
                                         "matching"])
@pytest.mark.parametrize("order", [RowMajor(), FewestOptionsFirst()])
def test_the_kernel_branches_into_the_same_children_as_the_reference(
        propagation: str, order: object) -> None:
    # The fast space branches in the kernel (the parent's cut and splits); its
    # children must be the reference's, state for state, three levels down.
    compared = 0
    for givens in (HARDEST, THIRTEEN, "." * 81):
        puzzle = ImmutableSudokuPuzzle(givens, propagation)
        fast = SudokuSpace(puzzle, order)  # type: ignore[arg-type]
        reference = SudokuSpace(puzzle, order, "reference")  # type: ignore[arg-type]
        assert fast.fast and not reference.fast
        level = [puzzle]
        for _ in range(3):
            below = []
            for state in level[:20]:
                mine, theirs = fast.branch(state), reference.branch(state)
                assert [c.is_dead() for c in mine] == [c.is_dead() for c in theirs]
                for child, expected in zip(mine, theirs):
                    if not expected.is_dead():
                        assert child.masks == expected.masks
                        compared += 1
                below.extend(theirs)
            level = below
    assert compared > 50


def _dead_at_a3(puzzle: ImmutableSudokuPuzzle) -> ImmutableSudokuPuzzle:
    """``puzzle`` with no candidate left in A3: a dead end."""
    masks = list(puzzle.masks)
    masks[2] = 0
    return ImmutableSudokuPuzzle.from_masks(puzzle.box, masks, puzzle.propagation)


@pytest.mark.parametrize("propagation", ["peers", "units", "matching"])
def test_branch_all_gives_every_state_s_children_in_one_kernel_call(propagation: str) -> None:
    space = SudokuSpace(ImmutableSudokuPuzzle("." * 81, propagation), FewestOptionsFirst())
    states = [space.root()]
    for _ in range(3):
        states = [child for state in states[:30] for child in space.branch(state)]
    assert len(states) > 10
    hardest = ImmutableSudokuPuzzle(HARDEST, propagation)
    dead = _dead_at_a3(hardest) if propagation == "peers" else None
    states = states[:60] + [ImmutableSudokuPuzzle(SOLVED)] + ([dead] if dead else [])
    assert dead is None or dead.is_dead()
    branched = space.branch_all(states)
    assert len(branched) == len(states)
    for state, children in zip(states, branched):
        assert [c.masks for c in children] == [c.masks for c in space.branch(state)]
    assert sum(map(len, branched)) > len(states)
    assert branched[-1] == [] and branched[-1 - (dead is not None)] == []  # dead, solved
    reference = SudokuSpace(space.root(), FewestOptionsFirst(), "reference")
    assert reference.branch_all(states) is None  # the engine branches one at a time


def test_dead_and_solved_states_have_no_children() -> None:
    space = SudokuSpace(ImmutableSudokuPuzzle(HARDEST, "peers"), RowMajor())
    dead = _dead_at_a3(space.root())
    assert dead.is_dead() and space.branch(dead) == []
    solved = ImmutableSudokuPuzzle(SOLVED)
    assert space.branch(solved) == [] and space.is_solution(solved)
    assert not space.is_solution(dead)


@pytest.mark.parametrize("propagation", ["none", "peers", "units", "twins"])
@pytest.mark.parametrize("order", [RowMajor(), FewestOptionsFirst()])
def test_every_strategy_finds_the_same_solutions(propagation: str, order: object) -> None:
    space = SudokuSpace(ImmutableSudokuPuzzle(THIRTEEN, propagation), order)  # type: ignore[arg-type]
    found = sequential_solutions(space)
    assert len(found) == 13 == sequential_count(space).count
    assert all(is_valid_solution(THIRTEEN, state.cells) for state in found)
    assert len({state.line() for state in found}) == 13


def test_the_checker_accepts_a_solution_in_any_spelling() -> None:
    cells = [int(ch) for ch in SOLVED]
    assert is_valid_solution(HARDEST, SOLVED)
    assert is_valid_solution([0 if ch == "." else int(ch) for ch in HARDEST], cells)
    assert is_valid_solution("." * 81, SOLVED)


def test_the_checker_rejects_broken_grids() -> None:
    swapped = SOLVED[1] + SOLVED[0] + SOLVED[2:]
    assert not is_valid_solution("." * 81, swapped)
    assert not is_valid_solution(HARDEST, SOLVED.replace("8", "9", 1))
    assert not is_valid_solution("." * 81, SOLVED[:-1] + ".")
    assert not is_valid_solution("." * 81, SOLVED[:-1])
    assert not is_valid_solution("." * 81, SOLVED[:-1] + "*")
    assert not is_valid_solution("." * 80, SOLVED[:-1])
    # A Latin square that breaks the boxes.
    latin = "".join(str((r + c) % 9 + 1) for r in range(9) for c in range(9))
    assert not is_valid_solution("." * 81, latin)
    assert not is_valid_solution([None] * 3, [1, 2, 3])


def test_the_checker_reads_letters_for_big_grids() -> None:
    n, b = 16, 4
    cells = [(r * b + r // b + c) % n + 1 for r in range(n) for c in range(n)]
    line = "".join("123456789ABCDEFG"[v - 1] for v in cells)
    assert is_valid_solution("." * 256, line) and is_valid_solution([0] * 256, cells)


def test_the_checker_shares_no_code_with_the_puzzle() -> None:
    tree = ast.parse(Path(space_module.__file__).read_text())
    checker = next(node for node in tree.body
                   if isinstance(node, ast.FunctionDef) and node.name == "is_valid_solution")
    called = {node.func.id for node in ast.walk(checker)
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert called <= {"_as_cells", "_units", "len", "set", "range", "all", "any", "zip"}


def test_the_node_budget_shrinks_with_the_cost_of_a_node() -> None:
    # A task should take about the same time whatever the board and the propagator.
    from parallel_backtrack.sudoku.puzzle import ImmutableSudokuPuzzle
    from parallel_backtrack.sudoku.search import space_for

    nine = [0] * 81
    budgets = {name: space_for(ImmutableSudokuPuzzle(nine, name)).node_budget
               for name in ("units", "locked", "matching")}
    assert budgets["units"] == 2 * budgets["locked"] == 20 * budgets["matching"]
    big = space_for(ImmutableSudokuPuzzle([0] * 625)).node_budget
    assert big < budgets["units"] // 7
