"""The arguments the search functions share, checked once at their entry point.

``count``, ``solve``, ``solutions`` (``modes``), ``sequential_*`` (``space``) and
``threshold_search`` take the same few arguments; each is checked here, before any
work, so a bad one is a clear ``ValueError`` or ``TypeError`` naming it, never a hang
or an error from deep inside a search.

Glossary
--------
space
    An object with the methods a search calls (``SPACE_METHODS``; a threshold
    search needs ``THRESHOLD_METHODS``); anything else is a ``TypeError``.
budgets
    ``budget`` and ``per_worker`` (positive integers), ``budget_seconds`` and
    ``timeout`` (positive numbers of seconds), ``limit`` (an integer >= 0); None
    means "not limited" (or "the default").

The pool's arguments (``executor``, ``backend``, ``address``) are checked by
``executors.check_pool``, a checkpoint by ``checkpoint.checkpoint_for``: this module
imports no other module of the engine but the small ``checks``, so the plain ``space``
module can use it.  A value of the wrong type is a ``checks.WrongTypeError`` (a
TypeError that is also a ValueError), one out of range a ``ValueError``.

Example: ``check_budgets(budget=0)`` raises
``ValueError("budget must be a positive integer or None, got 0")``.
"""

from __future__ import annotations

import math
import numbers

from .checks import WrongTypeError, is_integer

SPACE_METHODS = ("root", "branch", "is_solution")
THRESHOLD_METHODS = ("root", "f", "branch", "is_solution", "search_below")
_CALLS = {"root": "root()", "f": "f(state)", "branch": "branch(state)",
          "is_solution": "is_solution(state)",
          "search_below": "search_below(state, bound, complete, stop)"}


def check_space(space: object, methods: tuple[str, ...] = SPACE_METHODS,
                kind: str = "a search space (engine.Space)") -> None:
    """TypeError unless ``space`` has every one of ``methods``, callable."""
    missing = [name for name in methods if not callable(getattr(space, name, None))]
    if missing:
        calls = [_CALLS.get(name, name + "()") for name in methods]
        wanted = ", ".join(calls[:-1]) + " and " + calls[-1]
        raise TypeError(f"expected {kind}: an object with {wanted}; got "
                        f"{short_repr(space)} ({type(space).__name__}), which has no "
                        f"{', '.join(missing)}")


def short_repr(value: object) -> str:
    """``repr(value)``, cut to 60 characters: what arrived, in a message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_count(kind: str, value: object, *, low: int = 1,
                none: bool = True) -> int | None:
    """``value`` as an int when it is an integer (not a bool) >= ``low``, or None when
    ``none`` allows it; else WrongTypeError (another type) or ValueError (too small)
    naming ``kind``."""
    if value is None and none:
        return None
    if is_integer(value) and int(value) >= low:  # type: ignore[call-overload]
        return int(value)  # type: ignore[call-overload]
    what = {0: "a non-negative integer", 1: "a positive integer"}.get(
        low, f"an integer >= {low}")
    message = f"{kind} must be {what}{' or None' if none else ''}, got {value!r}"
    raise (ValueError if is_integer(value) else WrongTypeError)(message)


def check_seconds(kind: str, value: object, *, positive: bool = True) -> float | None:
    """``value`` when it is None or a number of seconds (not a bool, not NaN; > 0 when
    ``positive``); else WrongTypeError (not a number) or ValueError naming ``kind``."""
    if value is None:
        return None
    what = "a positive number" if positive else "a number"
    message = f"{kind} must be {what} (seconds) or None, got {value!r}"
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise WrongTypeError(message)
    seconds = float(value)
    if math.isnan(seconds) or (positive and seconds <= 0):
        raise ValueError(message)
    return seconds


def check_limit(limit: object) -> int | None:
    """``limit`` of a count or a stream: None (no limit) or an integer >= 0."""
    return check_count("limit", limit, low=0)


def check_budgets(*, budget: object = None, budget_seconds: object = None,
                  per_worker: object = None, timeout: object = None,
                  limit: object = None) -> None:
    """The budgets of a run (see the glossary); WrongTypeError or ValueError naming a
    bad one."""
    check_count("budget", budget)
    check_seconds("budget_seconds", budget_seconds)
    check_count("per_worker", per_worker)
    check_seconds("timeout", timeout)
    check_limit(limit)
