"""Options given to an N-Queens run that does not use them: a usage error, never ignored.

The command runs one of three things: a count (the default), ``--metrics`` (one walk
of the tree in Python) or ``--find-one`` (local search).  ``RUNS`` says which of
them use an option (options every run uses are not listed); ``unused_option`` names
the first option the command line gave (``_cli.given_options``: typed, whatever its
value, so an option left at its default is never refused) to a run that ignores it.

The two switches, ``--verify`` and ``--progress``, are refused for the value a run cannot
honour (``SWITCHES``): ``--progress`` draws a bar only while counting, ``--verify`` checks
counts and boards (a ``--find-one`` answer is always checked, so ``--verify`` is honoured
there and ``--no-verify`` is refused); their ``--no-`` form where there is nothing to
turn off is accepted.  Only a typed switch is looked at: ``--verify``'s default from
``PARALLEL_BACKTRACK_VERIFY=1`` is never refused.

Example: ``--n 8 --temperature 2`` gives "--temperature applies to --find-one with
--method annealing".
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Set

from .._cli import companion_problem

COUNT, METRICS, FIND_ONE = "counting", "--metrics", "--find-one"
RUNS: dict[str, tuple[str, ...]] = {
    "kernel": (COUNT,), "unique": (COUNT,), "stats": (COUNT,), "timeout": (COUNT,),
    "budget": (COUNT,), "budget_seconds": (COUNT,), "per_worker": (COUNT,),
    "scheduler_address": (COUNT,), "order": (COUNT, METRICS),
    "show": (COUNT, FIND_ONE), "workers": (COUNT, FIND_ONE), "backend": (COUNT, FIND_ONE),
    "method": (FIND_ONE,), "seed": (FIND_ONE,), "max_steps": (FIND_ONE,),
}
# (dest, value) -> the runs that honour that value of the switch; a pair not listed
# (``--no-progress``, ``--no-verify`` with --metrics) is accepted everywhere.
SWITCHES: dict[tuple[str, bool], tuple[str, ...]] = {
    ("progress", True): (COUNT,), ("verify", True): (COUNT, FIND_ONE),
    ("verify", False): (COUNT, METRICS),
}
NAMES = {"scheduler_address": "--scheduler-address (or --scheduler-file)"}
SAID = {("timeout", FIND_ONE): "--timeout applies to counting; --find-one stops at "
        "--max-steps (or use Ctrl-C)",
        ("--no-verify", FIND_ONE): "--no-verify does not go with --find-one: its answer is "
        "always checked (is_queens_solution)"}


def option_name(dest: str) -> str:
    return NAMES.get(dest, "--" + dest.replace("_", "-"))


def unused_option(args: argparse.Namespace, given: Set[str],
                  method_options: Mapping[str, tuple[str, ...]]) -> str | None:
    """Why an option in ``given`` (parsed dests) does nothing in this run, or None.

    ``method_options``: each method option's dest -> the methods it tunes."""
    find_one = getattr(args, "find_one", False)
    if find_one and args.metrics:
        return "--metrics walks the counting tree; it does not go with --find-one"
    run = FIND_ONE if find_one else METRICS if args.metrics else COUNT
    for dest in sorted(given, key=option_name):
        runs = RUNS.get(dest)
        if runs is not None and run not in runs:
            return SAID.get((dest, run)) or _not_here(dest, runs, run)
        problem = _switch(dest, getattr(args, dest, None), run)
        if problem:
            return problem
        if dest in method_options and not find_one:
            methods = " or ".join(method_options[dest])
            return f"{option_name(dest)} applies to --find-one with --method {methods}"
    return companion_problem(args, given) or _serial(args, given)


def _not_here(dest: str, runs: tuple[str, ...], run: str, name: str | None = None) -> str:
    name = name or option_name(dest)
    if runs == (FIND_ONE,):
        return f"{name} applies to --find-one"
    return f"{name} applies to {' and '.join(runs)}, not {run}"


def _switch(dest: str, value: object, run: str) -> str | None:
    """A typed ``--verify``/``--progress`` (or ``--no-`` form) this run cannot honour."""
    runs = SWITCHES.get((dest, value)) if isinstance(value, bool) else None
    if runs is None or run in runs:
        return None
    name = option_name(dest) if value else "--no-" + dest
    return SAID.get((name, run)) or _not_here(dest, runs, run, name)


def _serial(args: argparse.Namespace, given: Set[str]) -> str | None:
    """``--backend serial`` runs one worker: more ``--workers`` would be ignored."""
    from ..engine import resolve_workers

    if "workers" not in given or args.backend != "serial" or resolve_workers(args.workers) == 1:
        return None
    return (f"--backend serial runs one worker, in this process; got --workers "
            f"{args.workers} (leave --workers out, or use another --backend)")
