"""The shared boundary checks: names with a "did you mean", integers, a Ctrl-C's cause chain."""

from __future__ import annotations

import pytest

from parallel_backtrack.engine.checks import (
    UnknownNameError,
    WrongTypeError,
    check_int,
    check_name,
    did_you_mean,
    is_interrupt,
)


def test_did_you_mean_names_the_closest_choice() -> None:
    text = did_you_mean("backend", "lokky", ["serial", "loky", "dask"])
    assert text == ("unknown backend 'lokky'; expected one of ['dask', 'loky', 'serial']"
                    " (did you mean 'loky'?)")
    assert "did you mean" not in did_you_mean("order", "zzz", ["fewest", "row-major"])


def test_check_name_accepts_a_choice_and_refuses_others() -> None:
    assert check_name("order", "fewest", ("fewest", "row-major")) == "fewest"
    with pytest.raises(UnknownNameError, match="did you mean 'fewest'"):
        check_name("order", "fewset", ("fewest", "row-major"))


@pytest.mark.parametrize("value, low, high, error, message", [
    (0, 1, None, ValueError, r"workers must be an integer >= 1, got 0"),
    (True, None, None, WrongTypeError, r"workers must be an integer, got True"),
    ("3", None, None, WrongTypeError, r"workers must be an integer, got '3'"),
    (3.0, 1, None, WrongTypeError, r"workers must be an integer >= 1, got 3.0"),
    (33, 1, 32, ValueError, r"workers must be an integer in 1\.\.32, got 33"),
    (-1, None, 5, None, None),
])
def test_check_int(value: object, low: int | None, high: int | None,
                   error: type[Exception] | None, message: str | None) -> None:
    """A wrong type is a WrongTypeError (a TypeError and a ValueError), a value out of
    range a plain ValueError."""
    if error is None:
        assert check_int("workers", value, low=low, high=high) == value
    else:
        with pytest.raises(error, match=message) as caught:
            check_int("workers", value, low=low, high=high)
        assert isinstance(caught.value, ValueError)
        assert isinstance(caught.value, TypeError) == (error is WrongTypeError)


def test_is_interrupt_follows_the_chain_of_causes() -> None:
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as inner:
            raise SystemError("returned a result with an exception set") from inner
    except SystemError as outer:
        assert is_interrupt(outer)
    assert not is_interrupt(SystemError("plain"))
    loop = ValueError("a")
    loop.__context__ = ValueError("b")
    loop.__context__.__context__ = loop
    assert not is_interrupt(loop)


def test_the_shared_argument_checks_name_what_arrived_and_what_is_accepted() -> None:
    from parallel_backtrack.engine.arguments import (
        check_count,
        check_limit,
        check_seconds,
        check_space,
    )

    assert check_count("budget", None) is None and check_count("budget", 7) == 7
    assert check_limit(0) == 0 and check_seconds("timeout", 0, positive=False) == 0.0
    for call, message in [
        (lambda: check_count("per_worker", 0), "per_worker must be a positive integer or "
                                               "None, got 0"),
        (lambda: check_count("per_worker", None, none=False), "per_worker must be a "
                                                              "positive integer, got None"),
    ]:
        with pytest.raises(ValueError, match=message):
            call()
    for call, message in [
        (lambda: check_limit(True), "limit must be a non-negative integer or None, got True"),
        (lambda: check_seconds("timeout", "1"), r"timeout must be a positive number "
                                                r"\(seconds\) or None, got '1'"),
        (lambda: check_count("per_worker", 2.0), "per_worker must be a positive integer or "
                                                 "None, got 2.0"),
    ]:
        with pytest.raises(TypeError, match=message):
            call()
    with pytest.raises(TypeError, match=r"an object with root\(\), branch\(state\) and "
                                        r"is_solution\(state\); got 42 \(int\), which has "
                                        r"no root, branch, is_solution"):
        check_space(42)


def test_threshold_search_checks_its_arguments_as_count_does() -> None:
    """``per_worker=0`` and ``-1`` were silently ignored; a plain Space failed deep in."""
    from parallel_backtrack.engine import threshold_search
    from parallel_backtrack.engine.examples import NoAdjacentOnes
    from parallel_backtrack.sliding.board import Board, to_frame
    from parallel_backtrack.sliding.space import SlidingSpace

    space = SlidingSpace(to_frame(Board((1, 2, 3, 4, 5, 6, 7, 0, 8))), 3, "manhattan")
    for arguments, match in [
        ({"per_worker": 0}, "per_worker must be a positive integer, got 0"),
        ({"per_worker": -1}, "per_worker must be a positive integer, got -1"),
        ({"max_nodes": 0}, "max_nodes must be a positive integer or None, got 0"),
        ({"parent_nodes": -1}, "parent_nodes must be a non-negative integer or None"),
    ]:
        with pytest.raises(ValueError, match=match) as caught:
            threshold_search(space, **arguments)
        assert not isinstance(caught.value, TypeError)
    for arguments, match in [
        ({"per_worker": None}, "per_worker must be a positive integer, got None"),
        ({"max_nodes": "9"}, "max_nodes must be a positive integer or None, got '9'"),
        ({"timeout": "x"}, r"timeout must be a number \(seconds\) or None, got 'x'"),
        ({"workers": "2"}, r"workers must be a positive integer or -1 \(all cores\), got '2'"),
    ]:
        with pytest.raises(TypeError, match=match):
            threshold_search(space, **arguments)
    with pytest.raises(TypeError, match="executor must be an Executor"):
        threshold_search(space, executor="threads")
    with pytest.raises(TypeError, match="stop must be a function or None, got True"):
        threshold_search(space, stop=True)
    with pytest.raises(TypeError, match=r"expected a threshold search space \(ThresholdSpace\)"
                                        r": .* which has no f, search_below"):
        threshold_search(NoAdjacentOnes(3))
    assert threshold_search(space, timeout=0).stop_reason == "timeout"  # no time left
    assert threshold_search(space, per_worker=1).solution is not None
