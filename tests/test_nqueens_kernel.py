import pytest

from parallel_backtrack.engine import sequential_count
from parallel_backtrack.nqueens import ImmutableQueenLocations, QueensSpace, from_columns
from parallel_backtrack.nqueens.kernel.subtree import count_subtree


@pytest.mark.parametrize("n", range(1, 12))
def test_kernel_counts_and_nodes_match_the_reference_search(n):
    board = ImmutableQueenLocations(n)
    count, nodes, leftover = count_subtree(board, budget=10**12)
    reference = sequential_count(QueensSpace(board, kernel="reference"))
    assert (count, nodes, leftover) == (reference.count, reference.nodes, [])


@pytest.mark.parametrize("budget", [1, 2, 3, 10, 333])
def test_budgeted_kernel_runs_add_up_to_the_full_count(budget):
    board = ImmutableQueenLocations(9)
    pending, count, nodes = [board], 0, 0
    while pending:
        got, visited, leftover = count_subtree(pending.pop(0), budget)
        assert visited <= budget + 1
        count, nodes = count + got, nodes + visited
        pending = leftover + pending
    assert (count, nodes) == (352, 8394)


def test_leftover_boards_are_legal_and_in_search_order():
    board = from_columns([2, 0, -1, -1, -1, -1, -1])
    _, _, leftover = count_subtree(board, budget=4)
    assert leftover, "a budget of 4 cannot finish this subtree"
    for state in leftover:
        assert all(state.queens[r] == board.queens[r] for r in (0, 1))
        assert state.queen_count > board.queen_count


def test_kernel_refuses_boards_beyond_its_masks():
    with pytest.raises(ValueError, match="up to 32"):
        count_subtree(ImmutableQueenLocations(33), 10)


def test_the_kernel_lets_other_threads_run():
    """A parent's loky threads keep working while it counts (see gil_probe)."""
    from gil_probe import releases_the_gil

    board = ImmutableQueenLocations(16)
    count_subtree(board, budget=1)  # loaded: only the search is timed below
    released, figures = releases_the_gil(lambda: count_subtree(board, budget=10_000_000))
    assert released, figures
