"""``--find-one``: the local-search side of ``python -m parallel_backtrack.nqueens``.

``add_local_arguments(parser)`` adds the options; ``run_find_one(args, out)`` runs
``local.search.find_one`` and prints the answer, returning the exit status.

Glossary
--------
method options
    ``--variant``, ``--restart-after``, ``--sideways``, ``--temperature``,
    ``--cooling``, ``--min-temperature``, ``--population``, ``--mutation``: each
    belongs to some methods (``METHOD_OPTIONS``); given to another, it is a usage
    error rather than silently ignored.
exit status
    0 solved; 1 no solution (n = 2 or 3, or the step cap was reached); 2 usage error;
    130 Ctrl-C.
JSON
    ``LocalResult.as_dict()`` plus ``complete`` (the search ended: a placement, or
    none for n = 2 or 3) and ``stop_reason`` (None, ``"max-steps"`` or
    ``"interrupted"``); with no solution also ``reason``, the stderr line.  Ctrl-C
    prints the same keys (``steps`` and ``restarts`` None) before it exits 130.

Example::

    python -m parallel_backtrack.nqueens --n 1000000 --find-one --seed 1 --workers 1
    python -m parallel_backtrack.nqueens --n 12 --find-one --method annealing --show 1
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from typing import TYPE_CHECKING, Any, TextIO

from ... import _cli
from ..board import MAX_BOARD_SIZE
from .options import METHODS, PARAMETERS, VARIANTS, resolve_variant

if TYPE_CHECKING:
    from .search import LocalResult

PROG = _cli.prog("nqueens")
# The option (by argparse dest) -> the methods it tunes, straight from the defaults table.
METHOD_OPTIONS = {
    name: tuple(method for method in METHODS if name in PARAMETERS[method])
    for params in PARAMETERS.values() for name in params
}


def non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {value}")
    return value


def number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None


def add_local_arguments(parser: argparse.ArgumentParser) -> None:
    """--find-one, --method, --seed, --max-steps and the per-method options."""
    group = parser.add_argument_group(
        "one solution by local search (--find-one)",
        "Boards far beyond counting: min-conflicts reaches n = 10^7. With --workers W, "
        "W differently seeded searches race and the first answer wins.")
    add = group.add_argument
    add("--find-one", action="store_true",
        help="find one solution by local search instead of counting")
    add("--method", type=_cli.choice_type("method", METHODS), default="min-conflicts",
        metavar="|".join(METHODS), help="search method (default: min-conflicts)")
    add("--seed", type=non_negative_int, default=None, metavar="S",
        help="root seed; the same seed repeats the run (default: a fresh one, reported)")
    add("--max-steps", type=_cli.positive_int, default=None, metavar="K",
        help="give up after K >= 1 steps per search (default: unlimited for min-conflicts, "
        "a method-specific cap for the others)")
    add("--variant", type=_cli.choice_type("variant", VARIANTS), default=None,
        metavar="|".join(VARIANTS), help="min-conflicts: repair (greedy start, O(n^2)), "
        "swaps (QS-style, linear) or auto (repair up to n = 2000)")
    add("--restart-after", type=_cli.positive_int, default=None, metavar="K",
        help="min-conflicts: repairs (swaps: attempts) before a restart; "
        "genetic: generations without progress before a restart (default: min-conflicts "
        "100 + n, swaps 10,000 + n; genetic 1,000)")
    add("--sideways", type=non_negative_int, default=None, metavar="K",
        help="hill-climbing: consecutive sideways moves allowed (default: 100)")
    add("--temperature", type=number, default=None, metavar="T",
        help="annealing: starting temperature (default: 1.0)")
    add("--cooling", type=number, default=None, metavar="R",
        help="annealing: temperature factor per proposal, 0 < R < 1 (default: 0.9999)")
    add("--min-temperature", type=number, default=None, metavar="T",
        help="annealing: restart below this temperature (default: 0.01)")
    add("--population", type=_cli.positive_int, default=None, metavar="P",
        help="genetic: population size (default: 100)")
    add("--mutation", type=number, default=None, metavar="P",
        help="genetic: probability of a swap mutation per child (default: 0.3)")


def method_params(args: argparse.Namespace) -> dict[str, Any]:
    """The per-method options given on the command line; ValueError if misapplied."""
    params = {}
    for name, methods in METHOD_OPTIONS.items():
        value = getattr(args, name, None)
        if value is None:
            continue
        if args.method not in methods:
            option = "--" + name.replace("_", "-")
            raise ValueError(f"{option} applies to --method {' or '.join(methods)}, "
                             f"not {args.method}")
        params[name] = value
    return params


def run_find_one(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Find one solution for ``args.n`` and print it (to ``out``, default stdout).

    Returns the exit status: 0 solved, 1 no solution, 2 usage error.
    """
    from .search import find_one  # numpy and the compiled methods: only to run one

    out = out or sys.stdout  # looked up now, so a redirected stdout is honoured
    as_json = getattr(args, "json", False)
    # Drawn here (as find_one would) so that an interrupted run can report it too.
    seed = secrets.randbits(32) if args.seed is None else args.seed
    start = time.perf_counter()
    try:
        params = method_params(args)
        result = find_one(args.n, args.method, seed=seed, workers=args.workers,
                          backend=getattr(args, "backend", None),
                          max_steps=args.max_steps, **params)
    except ValueError as error:
        return _cli.usage_error(PROG, str(error))
    except (KeyboardInterrupt, SystemError) as error:  # numba wraps a Ctrl-C in SystemError
        if as_json and _cli.interrupted(error):
            _cli.print_json(interrupted_payload(args, seed, time.perf_counter() - start), out)
        raise  # main says "interrupted" and exits 130
    reason = None if result.solved else why_unsolved(result, args.max_steps)
    if as_json:
        payload = result.as_dict()
        # n = 2, 3: the search is complete, its answer is "none"; else the cap stopped it.
        payload["complete"] = result.solved or result.n in (2, 3)
        payload["stop_reason"] = None if payload["complete"] else "max-steps"
        if reason:
            payload["reason"] = reason
        _cli.print_json(payload, out)
    else:
        print_human(result, params, getattr(args, "show", None), out)
    if reason:
        print(f"{PROG}: {reason}", file=sys.stderr)
        return _cli.EXIT_NO
    return _cli.EXIT_OK


def interrupted_payload(args: argparse.Namespace, seed: int, seconds: float) -> dict[str, Any]:
    """The JSON of a search stopped by Ctrl-C: the same keys, nothing found."""
    from ...engine import resolve_workers

    return {"n": args.n, "method": args.method, "solution": None, "steps": None,
            "restarts": None, "seconds": seconds, "seed": seed, "worker": -1,
            "workers": resolve_workers(args.workers), "complete": False,
            "stop_reason": "interrupted"}


def why_unsolved(result: LocalResult, max_steps: int | None) -> str:
    if result.n in (2, 3):
        return (f"no solution: {result.n} queens cannot be placed on a {result.n} x "
                f"{result.n} board without two attacking each other")
    cap = "the default cap" if max_steps is None else f"{max_steps:,} steps"
    return (f"no solution found: {result.method} reached {cap} in every search "
            f"({result.steps:,} steps in all); raise --max-steps or try another --method")


def print_human(result: LocalResult, params: dict[str, Any], show: Any, out: TextIO) -> None:
    """A summary line; the columns (and, with --show, the board) when n <= 64."""
    name = result.method
    if name == "min-conflicts":
        name += f" ({resolve_variant(result.n, params.get('variant', 'auto'))})"
    if not result.solved:
        print(f"{result.n}-queens: no solution ({name}, {result.seconds:.3f} s)", file=out)
        return
    print(f"{result.n:,}-queens: solved by {name} in {result.seconds:.3f} s: "
          f"{result.steps:,} steps, {result.restarts:,} restarts, seed {result.seed}, "
          f"worker {result.worker} of {result.workers}", file=out)
    if result.n > MAX_BOARD_SIZE:
        print(f"(columns not printed for n > {MAX_BOARD_SIZE}; --json has them)", file=out)
        return
    print(f"columns: {list(result.solution or ())}", file=out)
    if show:
        print(result.board(), file=out)
