"""``games connect4``: the exact score of Connect-Four positions.

Glossary
--------
MOVES
    A position as the 1-based columns played from the empty board (``4453``);
    empty (``""``) is the empty board.
batch file
    ``--file FILE``: one ``moves [expected_score]`` per line (Pascal Pons' test
    format); blank lines and lines starting with ``#`` are skipped, and so is a UTF-8
    byte order mark at the start.  A bad line
    or a score that differs from the expected one fails that line only (exit 1);
    an empty file, one with no position, or a binary one is a usage error (exit 2),
    as is a bad MOVES.  ``-`` reads stdin.
    With ``--workers`` the positions are shared out over the workers (each
    searches its share sequentially, one table per worker); with ``--json`` each
    position is one JSON line (``line``, ``moves``, ``status``, ``score``,
    ``expected``, ``nodes``, ``seconds``), the summary goes to stderr.  Each line's
    answer is printed in the file's order as soon as it is known; a Ctrl-C keeps
    those printed and says in the summary how many lines were not answered (exit 130).
weak
    ``--weak``: win (+1), draw (0) or loss (-1) only, a faster search.
time limit
    ``--timeout``: with MOVES, the probes stop at the deadline and the range of
    scores they left is printed (exit 3); see ``limited``.  Past the solve, the
    columns scored in time are printed, the rest as ``?``.  A Ctrl-C prints the same
    (``partial: interrupted``, exit 130): ``progress.Known`` follows the solve.
progress
    ``--progress`` (default: when stderr is a terminal), with MOVES: a bar that fills
    as the probes narrow the range of scores, the range beside it; then one over the
    columns scored (``progress.ScoreBar``).

Example: ``connect4 44`` prints the score of the position after two stones in
the centre column and the score of each move there.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Generator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TextIO

from ... import _cli
from ..._output import held_signals, write_whole
from ...viz.options import html_target
from .. import cli_options

if TYPE_CHECKING:
    from ...engine.executors import Executor
    from .limited import Limited
    from .parallel import ParallelSolve

from .board import DEFAULT_HEIGHT, DEFAULT_WIDTH, Board, InvalidMoveError, Position
from .progress import Found, Known, ScoreBar, Watchers

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


def add_parser(commands: Any) -> argparse.ArgumentParser:
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
    parser.add_argument("--split-depth", type=_cli.int_in("split depth", 1, 4),
                        default=4, help="plies the parent splits with --workers (default 4)")
    parser.add_argument("--no-helpers", action="store_true",
                        help="with --workers: no helper twins (by default a worker that "
                        "would idle searches a running task's subtree in another order)")
    cli_options.add(parser, 1, "worker processes: for one position, Young Brothers Wait "
                    "over the first plies of each probe; with --file, the positions "
                    "shared out; -1 = all cores (default 1: sequential)")
    parser.add_argument("--html", type=html_target, default=None, metavar="PAGE",
                        help="with MOVES: also write a page of the position, each move's "
                        "score and the principal variation")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, out: TextIO, prog: str) -> int:
    if (args.moves is None) == (args.file is None):
        return _cli.usage_error(prog, "give either MOVES or --file FILE" + (
            " (not both)" if args.moves is not None else ", e.g. 'connect4 4453222'"))
    refused = cli_options.refuse_unused(args, prog, "connect4",
                                        takes=("--timeout", "--progress"))
    if refused is not None:
        return refused
    if args.file is not None and (args.timeout is not None or args.progress):
        flag = "--timeout limits" if args.timeout is not None else "--progress follows"
        return _cli.usage_error(prog, f"{flag} one position: give MOVES, not --file")
    try:
        board = Board(args.width, args.height)
    except ValueError as error:
        return _cli.usage_error(prog, str(error))
    if args.html and args.file is not None:
        return _cli.usage_error(prog, "--html draws one position: give MOVES, not --file")
    if args.file is not None:
        return run_file(args, board, out, prog)
    try:
        position = board.parse(args.moves)
        if board.last_mover_won(position):
            raise InvalidMoveError(f"the game is over: the last move of {args.moves!r} won")
    except InvalidMoveError as error:  # a bad value on the command line: usage
        return _cli.usage_error(prog, str(error))
    pool = _pool(args, prog)
    if isinstance(pool, int):
        return pool
    known = Known.before(board, position, args.weak)
    try:
        found = solve_and_analyze(args, board, position, pool, known)
    except (KeyboardInterrupt, SystemError) as error:  # numba's SystemError wraps a Ctrl-C
        if not _cli.interrupted(error):
            raise
        found = known.found()  # the pool is gone, the kernel's thread left to die
    return _print_position(args, board, position, pool, found, out)


def _print_position(args: argparse.Namespace, board: Board, position: Position,
                    pool: Executor | None, found: Found, out: TextIO) -> int:
    """The board, the score (or the range left) and the move scores; the exit status."""
    if args.html and found.complete:
        from ..pages import write_connect4_html
        from .solver import Solver

        print(write_connect4_html(args.html, args.moves, board, Solver(board, args.tt_mb),
                                  position, args.weak), file=sys.stderr)
    moves, best = found.moves, _best(found)
    unscored = [col for col in playable(board, position) if col not in moves]
    code = _cli.stop_code(found.stop_reason)
    if args.json:
        payload = {"moves": args.moves, "width": board.width, "height": board.height,
                   "score": found.low if found.low == found.high else None,
                   "weak": args.weak, "nodes": found.nodes,
                   "workers": 1 if pool is None else pool.workers,  # a cluster's, -1's count
                   "seconds": round(found.seconds, 6), "move_scores": moves,
                   "best_moves": best, "complete": found.complete}
        if found.scoring_seconds is not None:
            payload["scores_seconds"] = round(found.scoring_seconds, 6)
        if pool is not None and found.stop_reason != "interrupted":  # what the probes sent,
            payload.update(tasks=found.tasks, task_cost=round(found.task_cost, 9))  # a cost
        if not found.complete:  # the range of scores left, the columns not scored
            payload.update(score_low=found.low, score_high=found.high,
                           stop_reason=found.stop_reason, unscored_moves=unscored)
        print(json.dumps(payload, sort_keys=True), file=out)
        return code
    print(board.show(position), file=out)
    spent = ("" if found.nodes is None else f"{found.nodes:,} nodes, ") + \
        f"{found.seconds:.3f} s"
    stopped = "time is up" if found.stop_reason == "timeout" else "partial: interrupted"
    if found.low != found.high:  # the probes did not finish: no move scored
        print(f"score between {found.low:+d} and {found.high:+d} for the player to move "
              f"({stopped}); {spent}", file=out)
        return code
    print(f"score {found.low:+d} for the player to move ({_outcome(found.low)}); {spent}",
          file=out)
    scores = [f"{col}:{moves[col]:+d}" if col in moves else f"{col}:?"
              for col in sorted([*moves, *unscored])]
    took = ("" if found.scoring_seconds is None
            else f"; scored in {found.scoring_seconds:.3f} s")
    print("move scores: " + " ".join(scores) + (f"; best: {', '.join(map(str, best))}"
                                                if best else "") + took
          + ("" if found.complete else f" ({stopped}; ? not scored)"), file=out)
    return code


def _best(found: Found) -> list[int]:
    """The columns whose score is the position's: all the best moves when every column
    was scored, else those of the columns scored (more may be among the rest)."""
    if found.low != found.high:
        return []
    return [col for col, value in found.moves.items() if value == found.low]


def solve_and_analyze(args: argparse.Namespace, board: Board, position: Position,
                      pool: Executor | None, known: Known | None = None) -> Found:
    """The score and the score of each move: the move scores are searched on the table
    the solve filled (with a pool: the run's shared table).  With ``--timeout`` both
    stop at the deadline (``limited``); with a progress bar the probes and the columns
    scored show on it; ``known`` follows both (what a Ctrl-C prints)."""
    from .solver import Solver

    Solver.warm()  # load the compiled kernels before the clock starts
    bar = ScoreBar.wanted(args.progress)
    watch = Watchers(known, bar)
    try:
        return _solve_and_analyze(args, board, position, pool,
                                  watch if watch.watchers else None)
    finally:
        if bar is not None:
            bar.close()


def _solve_and_analyze(args: argparse.Namespace, board: Board, position: Position,
                       pool: Executor | None, watch: Watchers | None) -> Found:
    from .limited import Limited, analyze_until, solve_until
    from .solver import Solver

    start = time.perf_counter()
    deadline = None if args.timeout is None else start + args.timeout
    on_probe = None if watch is None else watch.update
    on_score = None if watch is None else watch.scored
    if pool is None:
        solver = Solver(board, args.tt_mb)
        if deadline is None and on_probe is None:  # nothing to stop or follow: compiled
            score, nodes = solver.solve(position, args.weak)
            solved = Limited(score, score, nodes)
        else:
            solved = solve_until(solver, position, args.weak, deadline, on_probe)
        return _found(solved, time.perf_counter() - start, board, position, watch,
                      lambda: analyze_until(solver, position, args.weak, deadline, on_score))
    from ...engine.executors import pool_for_run
    from .parallel import ParallelSolver

    with pool_for_run(pool, owned=True), \
            ParallelSolver(board, executor=pool, tt_mb=args.tt_mb,
                           split_depth=args.split_depth, helpers=not args.no_helpers) as run:
        found = run.solve(position, args.weak, deadline, on_probe)
        return replace(_found(found, found.seconds, board, position, watch,
                              lambda: run.analyze_until(position, args.weak, deadline,
                                                        on_score)),
                       tasks=found.tasks, task_cost=found.task_cost)


def _found(solved: Limited | ParallelSolve, seconds: float, board: Board, position: Position,
           watch: Watchers | None,
           analyze: Callable[[], tuple[dict[int, int], bool]]) -> Found:
    """``Found`` for a solve and ``seconds``, with the move scores ``analyze`` gives
    (``limited.analyze_until``) when the solve finished in time; ``watch`` hears that
    it did before the columns are scored."""
    found = Found(solved.low, solved.high, solved.nodes, seconds, {}, False,
                  stop_reason="timeout")
    if not solved.complete:
        return found
    if watch is not None:
        watch.solved(found, len(playable(board, position)))
    scoring = time.perf_counter()
    moves, complete = analyze()
    return replace(found, moves=moves, complete=complete,
                   stop_reason=None if complete else "timeout",
                   scoring_seconds=time.perf_counter() - scoring)


def playable(board: Board, position: Position) -> list[int]:
    """The columns (1-based) a stone can go in."""
    return [col + 1 for col in range(board.width) if board.can_play(position, col)]


def _pool(args: argparse.Namespace, prog: str) -> Executor | None | int:
    """None: solve here; else the pool the options ask for, or a usage error's status."""
    if args.workers == 1 and args.backend is None and args.scheduler_address is None:
        return None
    return cli_options.make_pool(args, prog)


def _outcome(score: int) -> str:
    return "win" if score > 0 else "loss" if score < 0 else "draw"


def run_file(args: argparse.Namespace, board: Board, out: TextIO, prog: str) -> int:
    """Answer every line of ``--file`` in the file's order, each as soon as it is
    solved, the file read as it goes (``batchfile``); a Ctrl-C prints what was answered
    and how many lines were not (exit 130)."""
    from .batch import solve_rows
    from .batchfile import BatchFile, BatchFileError

    name = "stdin" if args.file == "-" else args.file
    try:
        batch = BatchFile(args.file, board)
    except BatchFileError as error:
        return _cli.usage_error(prog, f"cannot read {name}: {error}")
    except (OSError, ValueError) as error:  # ValueError: a NUL in the path
        return _cli.usage_error(prog, _cli.cannot_read(name, error))
    try:
        pool = _pool(args, prog)
        if isinstance(pool, int):
            return pool
        return _answer_rows(args, batch, solve_rows(board, batch.rows(), args.weak,
                                                    args.tt_mb, pool), out, f"{prog}: {name}")
    finally:
        batch.close()


def _answer_rows(args: argparse.Namespace, batch: Any, rows: Generator[dict[str, Any]],
                 out: TextIO, where: str) -> int:
    """Print each row as it comes, then the summary; the exit status."""
    tally = _Tally()
    try:
        for row in rows:
            with held_signals():  # printed and counted together, or neither
                _print_row(args, row, where, out)
                tally.add(row)
    except (KeyboardInterrupt, SystemError) as error:  # numba's SystemError wraps a Ctrl-C
        if not _cli.interrupted(error):
            raise
        tally.stop = "interrupted"
    finally:
        rows.close()  # stops the pool's workers
    if tally.stop is not None:
        try:
            tally.left = batch.read - tally.answered + batch.count_rest()
        except KeyboardInterrupt:  # a second Ctrl-C: the rows read so far
            tally.left = batch.read - tally.answered
    return tally.finish(args, out)


def _print_row(args: argparse.Namespace, row: dict[str, Any], where: str, out: TextIO) -> None:
    """A row's line on stdout (JSON: every row; text: the solved ones) and, for a bad line
    or a wrong expected score, one on stderr."""
    if row["status"] != "solved":
        problem = row.get("error") or (f"{row['moves']} scores {row['score']}, expected "
                                       f"{row['expected']}")
        write_whole(sys.stderr, f"{where}:{row['line']}: {problem}\n")
    if args.json:
        _cli.print_json(row, out)
    elif row["status"] != "invalid":
        write_whole(out, f"{row['moves']} {row['score']}\n")


class _Tally:
    """The lines answered so far, for the summary."""

    def __init__(self) -> None:
        self.answered, self.solved, self.failed = 0, 0, 0
        self.left = 0  # lines not answered (when stopped)
        self.seconds, self.nodes = 0.0, 0
        self.stop: str | None = None

    def add(self, row: dict[str, Any]) -> None:
        self.answered += 1
        self.failed += row["status"] != "solved"
        if row["status"] != "invalid":
            self.solved += 1
            self.seconds += row["seconds"]
            self.nodes += row["nodes"]

    def finish(self, args: argparse.Namespace, out: TextIO) -> int:
        """Print the summary (stdout, or stderr with ``--json``); the exit status."""
        solved = max(self.solved, 1)
        summary = (f"{self.solved} positions, mean {self.seconds / solved * 1e3:.3f} ms and "
                   f"{self.nodes / solved:,.0f} nodes per position, {self.failed} failed")
        if self.stop is not None:
            summary += (f"; partial ({self.stop}): {self.left} of "
                        f"{self.answered + self.left} lines not answered")
        print(summary, file=sys.stderr if args.json else out)
        if self.stop is not None:
            return _cli.stop_code(self.stop)
        return 1 if self.failed or not self.solved else 0
