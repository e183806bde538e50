import pytest

from parallel_backtrack.nqueens import lab_count


@pytest.mark.parametrize("n,expected", [(1, 1), (2, 0), (3, 0), (4, 2), (5, 10), (6, 4),
                                        (7, 40), (8, 92), (9, 352)])
def test_lab_warmup_counts(n, expected):
    assert lab_count(n) == expected


@pytest.mark.parametrize("n", [0, -1, 2.0, "8"])
def test_lab_warmup_rejects_bad_sizes(n):
    with pytest.raises(ValueError, match="board size must be an integer >= 1"):
        lab_count(n)
