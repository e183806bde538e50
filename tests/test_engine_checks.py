"""The shared boundary checks: names with a "did you mean", integers, a Ctrl-C's cause chain."""

from __future__ import annotations

import pytest

from parallel_backtrack.engine.checks import (
    UnknownNameError,
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


@pytest.mark.parametrize("value, low, high, message", [
    (0, 1, None, r"workers must be an integer >= 1, got 0"),
    (True, None, None, r"workers must be an integer, got True"),
    ("3", None, None, r"workers must be an integer, got '3'"),
    (33, 1, 32, r"workers must be an integer in 1\.\.32, got 33"),
    (-1, None, 5, None),
])
def test_check_int(value: object, low: int | None, high: int | None,
                   message: str | None) -> None:
    if message is None:
        assert check_int("workers", value, low=low, high=high) == value
    else:
        with pytest.raises(ValueError, match=message):
            check_int("workers", value, low=low, high=high)


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
