"""Options given to an N-Queens run that does not use them: a usage error, never ignored.

The command runs one of three things: a count (the default), ``--metrics`` (one walk
of the tree in Python) or ``--find-one`` (local search).  ``RUNS`` says which of
them use an option (options every run uses are not listed); ``unused_option`` names
the first option the command line gave (``_cli.given_options``: typed, whatever its
value, so an option left at its default is never refused) to a run that ignores it.

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
STEPPED = ("seed", "max_steps")  # what every method but constructive uses
NAMES = {"scheduler_address": "--scheduler-address (or --scheduler-file)"}
SAID = {("timeout", FIND_ONE): "--timeout applies to counting; --find-one stops at "
        "--max-steps (or use Ctrl-C)"}


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
        if dest in method_options and not find_one:
            methods = " or ".join(method_options[dest])
            return f"{option_name(dest)} applies to --find-one with --method {methods}"
        if dest in STEPPED and find_one and getattr(args, "method", None) == "constructive":
            return (f"{option_name(dest)} does nothing with --method constructive (it places "
                    "the queens by a formula: no steps, no random choices)")
    return companion_problem(args, given) or _serial(args, given)


def _not_here(dest: str, runs: tuple[str, ...], run: str) -> str:
    if runs == (FIND_ONE,):
        return f"{option_name(dest)} applies to --find-one"
    return f"{option_name(dest)} applies to {' and '.join(runs)}, not {run}"


def _serial(args: argparse.Namespace, given: Set[str]) -> str | None:
    """``--backend serial`` runs one worker: more ``--workers`` would be ignored."""
    from ..engine import resolve_workers

    if "workers" not in given or args.backend != "serial" or resolve_workers(args.workers) == 1:
        return None
    return (f"--backend serial runs one worker, in this process; got --workers "
            f"{args.workers} (leave --workers out, or use another --backend)")
