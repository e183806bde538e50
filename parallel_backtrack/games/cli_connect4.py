"""``games connect4``: the exact score of Connect-Four positions.

Glossary
--------
MOVES
    A position as the 1-based columns played from the empty board (``4453``);
    empty (``""``) is the empty board.
batch file
    ``--file FILE``: one ``moves [expected_score]`` per line (Pascal Pons' test
    format); blank lines and lines starting with ``#`` are skipped.  A bad line
    or a score that differs from the expected one fails that line only (exit 1).
weak
    ``--weak``: win (+1), draw (0) or loss (-1) only, a faster search.

Example: ``connect4 44`` prints the score of the position after two stones in
the centre column and the score of each move there.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from .. import _cli
from .c4board import DEFAULT_HEIGHT, DEFAULT_WIDTH, Board, InvalidMoveError

DEFAULT_TT_MB = 64
MAX_TT_MB = 4096


def megabytes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a size in MB, got {text!r}") from None
    if not 0 < value <= MAX_TT_MB:
        raise argparse.ArgumentTypeError(f"--tt-mb must be in (0, {MAX_TT_MB}], got {text}")
    return value


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "connect4", help="the exact score of a Connect-Four position",
        description="Solve Connect-Four positions exactly (Pascal Pons' score: 0 a draw, "
        "positive when the player to move wins, more for a faster win): negamax alpha-beta "
        "on bitboards, compiled with numba, with a transposition table and null-window "
        "probes.")
    parser.add_argument("moves", nargs="?", default=None, metavar="MOVES",
                        help="1-based columns played from the empty board, e.g. 4453222")
    parser.add_argument("--file", metavar="FILE", default=None,
                        help="solve every 'moves [expected_score]' line of FILE")
    parser.add_argument("--width", type=lambda t: _cli.integer(t, "a width"),
                        default=DEFAULT_WIDTH, help=f"columns (default {DEFAULT_WIDTH})")
    parser.add_argument("--height", type=lambda t: _cli.integer(t, "a height"),
                        default=DEFAULT_HEIGHT, help=f"rows (default {DEFAULT_HEIGHT})")
    parser.add_argument("--weak", action="store_true",
                        help="only win / draw / loss (+1 / 0 / -1), faster")
    parser.add_argument("--tt-mb", type=megabytes, default=DEFAULT_TT_MB, metavar="MB",
                        help=f"transposition table size in MB (default {DEFAULT_TT_MB})")
    parser.add_argument("--workers", "-w", type=_cli.workers_type, default=1, metavar="W",
                        help="worker processes for one position (Young Brothers Wait over "
                        "the first plies of each probe); default 1: sequential")
    parser.add_argument("--split-depth", type=_cli.int_in("split depth", 1, 4),
                        default=4, help="plies the parent splits with --workers (default 4)")
    parser.add_argument("--no-helpers", action="store_true",
                        help="with --workers: no helper twins (by default a worker that "
                        "would idle searches a running task's subtree in another order)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--html", type=_cli.html_target, default=None, metavar="PAGE",
                        help="with MOVES: also write a page of the position, each move's "
                        "score and the principal variation")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, prog: str) -> int:
    if (args.moves is None) == (args.file is None):
        return _cli.usage_error(prog, "give either MOVES or --file FILE (not both)")
    if args.html and args.file is not None:
        return _cli.usage_error(prog, "--html draws one position: give MOVES, not --file")
    board = Board(args.width, args.height)
    if args.moves is not None:
        position = board.parse(args.moves)  # InvalidMoveError: a usage error naming the move
        if board.last_mover_won(position):
            raise InvalidMoveError(f"the game is over: the last move of {args.moves!r} won")
    from .c4kernel import Solver

    solver = Solver(board, args.tt_mb)
    if args.file is not None:
        return run_file(args, board, solver, out, prog)
    solver.warm()  # load the compiled kernels before the clock starts
    start = time.perf_counter()
    if args.workers == 1:
        score, nodes = solver.solve(position, args.weak)
    else:
        from .c4parallel import parallel_solve

        found = parallel_solve(board, position, workers=args.workers, tt_mb=args.tt_mb,
                               split_depth=args.split_depth, weak=args.weak,
                               helpers=not args.no_helpers)
        score, nodes = found.score, found.nodes
    seconds = time.perf_counter() - start
    moves = solver.analyze(position, args.weak)
    if args.html:
        from .pages import write_connect4_html
        print(write_connect4_html(args.html, args.moves, board, solver, position, args.weak),
              file=sys.stderr)
    best = [col for col, value in moves.items() if value == max(moves.values())] if moves \
        else []
    payload = {"moves": args.moves, "width": board.width, "height": board.height,
               "score": score, "weak": args.weak, "nodes": nodes, "workers": args.workers,
               "seconds": round(seconds, 6), "move_scores": moves, "best_moves": best}
    if args.json:
        print(json.dumps(payload, sort_keys=True), file=out)
        return 0
    print(board.show(position), file=out)
    print(f"score {score:+d} for the player to move ({_outcome(score)}); {nodes:,} nodes, "
          f"{seconds:.3f} s", file=out)
    print("move scores: " + " ".join(f"{c}:{v:+d}" for c, v in moves.items())
          + f"; best: {', '.join(map(str, best))}", file=out)
    return 0


def _outcome(score: int) -> str:
    return "win" if score > 0 else "loss" if score < 0 else "draw"


def _line(text: str) -> tuple[str, int | None]:
    parts = text.split()
    if len(parts) > 2:
        raise ValueError(f"expected 'moves [expected_score]', got {len(parts)} fields")
    expected = None
    if len(parts) == 2:
        try:
            expected = int(parts[1])
        except ValueError:
            raise ValueError(f"expected score {parts[1]!r} is not an integer") from None
    return parts[0], expected


def run_file(args: argparse.Namespace, board: Board, solver: Any, out: TextIO,
             prog: str) -> int:
    with open(args.file, encoding="utf-8", errors="replace") as stream:
        lines = stream.read().splitlines()
    rows, failed, seconds, nodes = [], 0, 0.0, 0
    solver.warm()
    for number, text in enumerate(lines, 1):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        try:
            moves, expected = _line(text)
            position = board.parse(moves)
            if board.last_mover_won(position):
                raise InvalidMoveError("the game is over: the last move won")
        except ValueError as error:
            print(f"{prog}: {args.file}:{number}: {error}", file=sys.stderr)
            failed += 1
            continue
        start = time.perf_counter()
        score, count = solver.solve(position, args.weak)
        took = time.perf_counter() - start
        seconds, nodes = seconds + took, nodes + count
        if args.weak and expected is not None:
            expected = (expected > 0) - (expected < 0)
        ok = expected is None or expected == score
        if not ok:
            print(f"{prog}: {args.file}:{number}: {moves} scores {score}, expected {expected}",
                  file=sys.stderr)
            failed += 1
        rows.append({"line": number, "moves": moves, "score": score, "expected": expected,
                     "nodes": count, "seconds": round(took, 6), "ok": ok})
    return _print_batch(args, rows, failed, seconds, nodes, out)


def _print_batch(args: argparse.Namespace, rows: list[dict[str, Any]], failed: int,
                 seconds: float, nodes: int, out: TextIO) -> int:
    solved = len(rows)
    summary = {"file": args.file, "positions": solved, "failed": failed,
               "mean_seconds": seconds / solved if solved else 0.0,
               "mean_nodes": nodes / solved if solved else 0.0}
    if args.json:
        print(json.dumps({**summary, "results": rows}, sort_keys=True), file=out)
    else:
        for row in rows:
            print(f"{row['moves']} {row['score']}", file=out)
        print(f"{solved} positions, mean {summary['mean_seconds'] * 1e3:.3f} ms and "
              f"{summary['mean_nodes']:,.0f} nodes per position, {failed} failed",
              file=out)
    return 1 if failed or not solved else 0
