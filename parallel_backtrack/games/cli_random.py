"""``games random``: parallel alpha-beta (Young Brothers Wait) on a seeded random tree,
checked against the sequential alpha-beta.

Glossary
--------
overhead
    Parallel nodes over sequential nodes (1.00: no extra work).
speedup
    Sequential seconds over parallel seconds, both measured in this run.

interrupted
    A Ctrl-C prints what was found: nothing but the time during the parallel search,
    the parallel result during the sequential one (``--json``: ``complete`` false,
    ``stop_reason`` ``interrupted``); exit 130.

Example: ``random --branching 6 --depth 8 --workers 2`` prints both values (always
equal), the times, the speedup and the overhead.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any, TextIO

from .. import _cli
from . import cli_options


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "random", help="parallel alpha-beta on a seeded random tree",
        description="Young Brothers Wait alpha-beta on a uniform random tree whose leaf "
        "values hash the path (the same tree in every process), against the sequential "
        "alpha-beta: the same value, the time of each and the extra nodes.")
    parser.add_argument("--branching", "-b", type=_cli.int_in("branching", 1, 64), default=6,
                        help="children per node (default 6)")
    parser.add_argument("--depth", "-d", type=_cli.int_in("depth", 1, 40), default=8,
                        help="plies to the leaves (default 8)")
    parser.add_argument("--seed", type=_cli.int_in("seed", 0, 2**63 - 1), default=1,
                        help="the tree's seed (default 1)")
    parser.add_argument("--split-depth", type=_cli.int_in("split depth", 1, 6), default=3,
                        help="plies the parent splits (default 3)")
    parser.add_argument("--no-sequential", action="store_true",
                        help="skip the sequential search (no check, no speedup)")
    cli_options.add(parser, 2, "worker processes; -1 = all cores (default 2)",
                    unused=tuple(cli_options.ALPHABETA_UNUSED))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, prog: str) -> int:
    from .randomtree import RandomTree

    refused = cli_options.refuse_unused(args, prog, "random")
    if refused is not None:
        return refused
    problem = split_problem(args.branching, args.depth, args.split_depth)
    if problem:
        return _cli.usage_error(prog, problem)
    game = RandomTree(args.branching, args.depth, args.seed)
    payload: dict[str, Any] = {"branching": args.branching, "depth": args.depth,
                               "seed": args.seed}
    pool = cli_options.make_pool(args, prog)
    if isinstance(pool, int):
        return pool
    started = time.perf_counter()
    try:
        code = _search(args, game, pool, payload)
    except (KeyboardInterrupt, SystemError) as error:  # Ctrl-C: what was found so far
        if not _cli.interrupted(error):
            raise
        code = _cli.EXIT_INTERRUPTED
        payload.update(complete=False, stop_reason="interrupted",
                       seconds=round(time.perf_counter() - started, 6))
    if args.json:
        print(json.dumps(payload, sort_keys=True), file=out)
    else:
        _print(payload, out)
    return code


def split_problem(branching: int, depth: int, split_depth: int) -> str | None:
    """Too many split nodes for the parent's bound slots (``ybw.MAX_SPLIT_NODES``),
    or None.  A split depth that reaches the leaves is fine: they are evaluated in
    the parent."""
    from .ybw import MAX_SPLIT_NODES

    plies = min(split_depth, depth)
    nodes = branching ** plies
    if nodes <= MAX_SPLIT_NODES:
        return None
    return (f"--split-depth too deep: {branching}^{plies} = {nodes:,} nodes at the split "
            f"depth, at most {MAX_SPLIT_NODES:,} split nodes (lower --split-depth)")


def _search(args: argparse.Namespace, game: Any, pool: Any, payload: dict[str, Any]) -> int:
    """The parallel search, then the sequential one, each result put in ``payload`` as
    it ends; the exit status (4: the values differ)."""
    from ..engine.executors import pool_for_run
    from .search import alphabeta
    from .ybw import parallel_alphabeta

    with pool_for_run(pool, owned=True):
        found = parallel_alphabeta(game, executor=pool, split_depth=args.split_depth)
    payload["parallel"] = found.as_dict()
    code = 0
    if not args.no_sequential:
        start = time.perf_counter()
        plain = alphabeta(game, game.initial)
        seconds = time.perf_counter() - start
        payload["sequential"] = {"value": plain.value, "nodes": plain.nodes,
                                 "seconds": seconds}
        payload["speedup"] = seconds / found.seconds if found.seconds else None
        payload["overhead"] = found.nodes / plain.nodes
        code = 0 if plain.value == found.value else _cli.EXIT_ERROR
    payload["complete"] = True
    return code


def _print(payload: dict[str, Any], out: TextIO) -> None:
    tree = (f"random tree b={payload['branching']} d={payload['depth']} "
            f"seed={payload['seed']}")
    par = payload.get("parallel")
    if par is None:  # a Ctrl-C during the parallel search: no value yet
        print(f"{tree}: interrupted after {payload['seconds']:.3f} s, during the parallel "
              "search (partial: interrupted; no value)", file=out)
        return
    print(f"{tree}: value {par['value']} (best action {par['best_action']})", file=out)
    print(f"  parallel:   {par['seconds']:.3f} s, {par['workers']} worker(s), "
          f"{par['nodes']:,} nodes, {par['tasks']} tasks", file=out)
    seq = payload.get("sequential")
    if seq:
        same = "same value" if seq["value"] == par["value"] else "VALUES DIFFER"
        print(f"  sequential: {seq['seconds']:.3f} s, {seq['nodes']:,} nodes ({same}); "
              f"speedup {payload['speedup']:.2f}, overhead {payload['overhead']:.3f}",
              file=out)
    elif not payload["complete"]:
        print("  sequential: interrupted (partial: interrupted; no check, no speedup)",
              file=out)
