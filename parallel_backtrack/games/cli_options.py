"""The engine's shared options (``_cli.add_engine_options``) for the games commands
that search in parallel, and a refusal of the ones a command has no use for.

Glossary
--------
unused option
    An engine option a games search cannot honour (Young Brothers Wait has no node
    budgets; only ``connect4``, whose null-window probes leave a range of scores, has
    a time limit and a progress bar): given, it is a usage error naming it, never
    silently ignored.

pool
    ``make_pool`` makes the executor before the search, so that a bad
    ``--scheduler-address`` (malformed, unreachable) or ``--backend dask``
    without the extra is a usage error (2), not a fault in the search.

Example: ``refuse_unused(args, prog, "random")`` returns 2 for ``--timeout 5``.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .. import _cli

if TYPE_CHECKING:
    from ..engine.executors import Executor

# option flag -> its attribute and what parallel alpha-beta lacks for it
ALPHABETA_UNUSED = {"--timeout": ("timeout", "time limit"),
                    "--progress": ("progress", "progress bar")}


def add(parser: argparse.ArgumentParser, default_workers: int, workers_help: str,
        unused: tuple[str, ...] = ()) -> None:
    """The shared engine options, less the node budgets and the per-worker table, which
    parallel alpha-beta has no use for; the ``unused`` flags (``ALPHABETA_UNUSED``'s)
    say in --help that they are refused."""
    helps = {flag: f"refused here (exit 2): parallel alpha-beta has no "
                   f"{ALPHABETA_UNUSED[flag][1]} yet" for flag in unused}
    _cli.add_engine_options(parser, default_workers,
                            helps={"--workers": workers_help, **helps},
                            budgets=False, stats=False)


def refuse_unused(args: argparse.Namespace, prog: str, what: str,
                  takes: tuple[str, ...] = ()) -> int | None:
    """A usage error (2) for the first engine option given that ``what`` ignores
    (``takes``: the flags it honours after all, e.g. connect4's ``--timeout``)."""
    for flag, (name, lacking) in ALPHABETA_UNUSED.items():
        if flag not in takes and vars(args).get(name) not in (None, False):
            return _cli.usage_error(prog, f"{flag} does not apply to {what} (parallel "
                                    f"alpha-beta has no {lacking})")
    return None


def make_pool(args: argparse.Namespace, prog: str) -> Executor | int:
    """The executor the options ask for, or the usage error's exit status."""
    options = _cli.engine_options(args)
    backend, address = options["backend"], options.get("address")
    try:
        from ..engine import make_executor  # the pools load only when one is asked for

        extra = {} if address is None else {"address": address}
        return make_executor(args.workers, backend, **extra)
    except (ValueError, ImportError, OSError, TimeoutError) as error:
        return _cli.usage_error(prog, str(error))
