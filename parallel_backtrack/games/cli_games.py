"""``games nim`` and ``games tictactoe``: the small games' commands.

Glossary
--------
value
    For the player to move at the start: +1 a win, -1 a loss, 0 a draw.
nodes with / without the table
    ``nim`` searches with the transposition table and, for at most
    ``NO_TT_MAX`` sticks, again without it (the plain tree grows like the
    tribonacci numbers, about 1.84 times per stick).

Example: ``nim --sticks 10`` prints ``value +1 (win) for MAX; best move: take 1``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from .. import _cli
from ..viz.options import html_target
from .nim import Nim, nim_theory
from .search import alphabeta
from .table import DEFAULT_CAPACITY, TranspositionTable

NO_TT_MAX = 40
NO_TT_AUTO = 26
MAX_STICKS = 10**7
OUTCOME = {1: "win", 0: "draw", -1: "loss"}


def add_parsers(commands: Any) -> None:
    nim = commands.add_parser(
        "nim", help="single-heap Nim (take 1-3, the player facing one stick loses)",
        description="Single-heap Nim: a move takes 1, 2 or 3 sticks "
        "and must leave at least one; the player facing a single stick loses; MAX moves "
        "first. Negamax alpha-beta with a transposition table; the player to move loses "
        "exactly when sticks = 1 (mod 4).")
    nim.add_argument("--sticks", "-n", type=_cli.int_in("sticks", 1, MAX_STICKS), required=True,
                     metavar="N",
                     help=f"sticks on the heap at the start, 1..{MAX_STICKS:,}")
    nim.add_argument("--no-tt", action="store_true",
                     help=f"search without the transposition table only (N <= {NO_TT_MAX}: "
                     "the tree is exponential)")
    nim.add_argument("--json", action="store_true", help="print one JSON object")
    nim.add_argument("--html", type=html_target, default=None, metavar="PAGE",
                     help="also write a page of the search tree (at most 30 sticks)")
    nim.set_defaults(run=run_nim)
    ttt = commands.add_parser(
        "tictactoe", help="tic-tac-toe: the value, and every game counted in parallel",
        description="Solve tic-tac-toe (a draw) with alpha-beta and a transposition table, "
        "and count the 255,168 possible games with the engine's parallel count.")
    _cli.add_engine_options(ttt, 1, helps={"--workers": "worker processes for the count; "
                                           "-1 = all cores (default: 1)"})
    ttt.add_argument("--html", type=html_target, default=None, metavar="PAGE",
                     help="also write a page of the search tree and each first move's value")
    ttt.set_defaults(run=run_tictactoe)


def nim_payload(sticks: int, no_tt: bool) -> dict[str, Any]:
    game = Nim(sticks)
    payload: dict[str, Any] = {"sticks": sticks, "theory": nim_theory(sticks)}
    if not no_tt:
        start, cpu = time.perf_counter(), time.process_time()
        # a slot per position is enough: the table holds at most ``sticks`` of them
        table = TranspositionTable(min(DEFAULT_CAPACITY, 2 * sticks + 1))
        found = alphabeta(game, game.initial, table=table)
        payload.update(value=found.value, best_move=found.best_action, nodes_tt=found.nodes,
                       tt_hits=found.tt_hits, seconds_tt=round(time.perf_counter() - start, 6),
                       cpu_seconds_tt=round(time.process_time() - cpu, 6))
    if no_tt or sticks <= NO_TT_AUTO:
        start = time.perf_counter()
        plain = alphabeta(game, game.initial)
        payload.update(value=plain.value, best_move=plain.best_action, nodes_no_tt=plain.nodes,
                       seconds_no_tt=round(time.perf_counter() - start, 6))
    return payload


def run_nim(args: argparse.Namespace, out: TextIO, prog: str) -> int:
    if args.no_tt and args.sticks > NO_TT_MAX:
        return _cli.usage_error(prog, f"--no-tt searches a tree of about 1.84^N nodes: N <= "
                                f"{NO_TT_MAX}, got {args.sticks}")
    if args.html:
        from .pages import nim_page_problem
        if nim_page_problem(args.sticks):
            return _cli.usage_error(prog, str(nim_page_problem(args.sticks)))
    payload = nim_payload(args.sticks, args.no_tt)
    if args.html:
        from .pages import write_nim_page
        print(write_nim_page(args.html, args.sticks), file=sys.stderr)
    if args.json:
        print(json.dumps({**payload, "complete": True}, sort_keys=True), file=out)
        return 0
    value = payload["value"]
    move = payload["best_move"]
    print(f"nim {args.sticks} sticks: value {value:+d} ({OUTCOME[value]}) for MAX, the "
          f"player to move; best move: " + (f"take {move}" if move else "none (one stick)"),
          file=out)
    if "nodes_tt" in payload:
        print(f"  with the table:    {payload['nodes_tt']:,} nodes, {payload['tt_hits']:,} "
              f"table hits, {payload['seconds_tt']:.3f} s ({payload['cpu_seconds_tt']:.3f} s "
              "CPU)", file=out)
    if "nodes_no_tt" in payload:
        print(f"  without the table: {payload['nodes_no_tt']:,} nodes, "
              f"{payload['seconds_no_tt']:.3f} s", file=out)
    else:
        print(f"  without the table: not searched (N > {NO_TT_AUTO}; --no-tt searches it up "
              f"to N = {NO_TT_MAX})", file=out)
    return 0


def run_tictactoe(args: argparse.Namespace, out: TextIO, prog: str) -> int:
    from ..engine import SearchInterrupted, count
    from .tictactoe import GameHistories, TicTacToe

    game = TicTacToe()
    found = alphabeta(game, game.initial, table=TranspositionTable())
    try:
        report = count(GameHistories(), **_cli.engine_options(args))
    except SearchInterrupted as stop:  # Ctrl-C: the games counted so far
        report = stop.report
    if args.html:
        from .pages import write_tictactoe_page

        print(write_tictactoe_page(args.html), file=sys.stderr)
    seconds = round(report.seconds, 3)
    # count_seconds: the name before seconds, kept for scripts that read it
    payload = {"value": found.value, "best_move": found.best_action, "nodes": found.nodes,
               "games": report.count, "seconds": seconds, "count_seconds": seconds,
               "workers": report.workers, "complete": report.complete}
    if not report.complete:
        payload["stop_reason"] = report.stop_reason
    if args.json:
        print(json.dumps(payload, sort_keys=True), file=out)
    else:
        partial = "" if report.complete else f" (partial: {report.stop_reason}; a lower bound)"
        print(f"tic-tac-toe: value {found.value:+d} ({OUTCOME[int(found.value)]}) for X; "
              f"{found.nodes:,} nodes with the table", file=out)
        print(f"  {report.count:,} possible games{partial}, counted in {report.seconds:.2f} s "
              f"on {report.workers} worker(s)", file=out)
    if args.stats:
        _cli.print_stats(report, out)
    return _cli.exit_code(report)
