"""Validation at the boundary, written once: names, integers, a Ctrl-C from a kernel.

A value of the wrong type (``workers="2"``, ``limit=2.5``, a bool where an int is
wanted) is a ``WrongTypeError``, a ``TypeError`` that is also a ``ValueError`` (so code
that catches ``ValueError`` for a bad argument still catches it); a value of the right
type out of its range (``workers=0``) is a ``ValueError``.

Glossary
--------
kind
    What a name or value is called in a message: ``"backend"``, ``"order"``, ``"n"``.
choices
    The accepted names; an unknown one gets ``did you mean`` with the closest.
interrupt
    A ``KeyboardInterrupt`` anywhere down an error's chain of causes: numba reports a
    Ctrl-C that lands inside a compiled call as a ``SystemError`` caused by it.

Example: ``check_int("workers", 0, low=1)`` raises
``ValueError("workers must be an integer >= 1, got 0")``; ``check_int("workers", "2",
low=1)`` raises ``WrongTypeError("workers must be an integer >= 1, got '2'")``.
"""

from __future__ import annotations

import difflib
import numbers
from collections.abc import Callable, Iterable, Mapping
from typing import Any


class UnknownNameError(ValueError):
    """A name (backend, order, kernel, ...) that is not one of the choices."""


class WrongTypeError(TypeError, ValueError):
    """An argument of the wrong type (``workers="2"``, ``limit=2.5``, ``n=True``): a
    TypeError, and a ValueError for code written when these were ValueErrors."""


def is_integer(value: object) -> bool:
    """An int (numpy's too), not a bool: what an integer argument accepts."""
    return type(value) is int or (isinstance(value, numbers.Integral)
                                  and not isinstance(value, bool))


def did_you_mean(kind: str, name: object, choices: Iterable[str]) -> str:
    """``unknown backend 'lokky'; expected one of [...] (did you mean 'loky'?)``."""
    choices = sorted(choices)
    text = f"unknown {kind} {name!r}; expected one of {choices}"
    close = difflib.get_close_matches(str(name), choices, n=1)
    return text + (f" (did you mean {close[0]!r}?)" if close else "")


def check_name(kind: str, name: str, choices: Iterable[str]) -> str:
    """``name`` when it is one of ``choices``; UnknownNameError with a "did you mean"."""
    choices = tuple(choices)
    if name not in choices:
        raise UnknownNameError(did_you_mean(kind, name, choices))
    return name


def object_or_name(kind: str, value: object, choices: Mapping[str, Callable[[], Any]],
                   method: str, what: str, or_none: bool = False) -> Any:
    """``value`` when it has a callable ``method``, or a new ``choices[value]()`` when it
    is one of their names (UnknownNameError with a "did you mean" for a near miss); any
    other value is a TypeError saying what is accepted: ``what`` (``a row order (an
    object with select_next_unplaced_row, such as FirstAvailableRow())``), a name, and
    None when the caller takes None (``or_none``) for its default."""
    if isinstance(value, str):
        return choices[check_name(kind, value, choices)]()
    if not callable(getattr(value, method, None)):
        names = f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} name {sorted(choices)}"
        accepted = f", {names} or None" if or_none else f" or {names}"
        raise TypeError(f"{kind} must be {what}{accepted}, got {value!r}")
    return value


def _bounds_text(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f" in {low}..{high}"
    if low is not None:
        return f" >= {low}"
    if high is not None:
        return f" <= {high}"
    return ""


def check_int(kind: str, value: object, *, low: int | None = None,
              high: int | None = None) -> int:
    """``value`` as an int when it is an integer (numpy's too, not a bool) within
    ``low..high``: else WrongTypeError for another type, ValueError out of range."""
    if not is_integer(value):
        raise WrongTypeError(f"{kind} must be an integer{_bounds_text(low, high)}, "
                             f"got {value!r}")
    number = int(value)  # type: ignore[call-overload]
    if (low is not None and number < low) or (high is not None and number > high):
        raise ValueError(f"{kind} must be an integer{_bounds_text(low, high)}, got {value!r}")
    return number


def check_workers(workers: object) -> int:
    """``workers`` as joblib's ``n_jobs`` takes it: a positive integer, or -1 for every
    core; else WrongTypeError (not an integer) or ValueError (0 or below -1)."""
    message = f"workers must be a positive integer or -1 (all cores), got {workers!r}"
    if not is_integer(workers):
        raise WrongTypeError(message)
    count = int(workers)  # type: ignore[call-overload]
    if count < 1 and count != -1:
        raise ValueError(message)
    return count


def is_interrupt(error: BaseException) -> bool:
    """Is a KeyboardInterrupt this error or somewhere down its chain of causes?"""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False
