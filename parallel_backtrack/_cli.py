"""Command-line pieces shared by every problem's CLI.

Glossary
--------
usage error
    Anything wrong with what the user typed or pointed at: one line on stderr,
    exit status 2, never a traceback.
exit codes
    0 done, 1 the answer is "no" for some input (unsolvable, invalid puzzle),
    2 usage error, 3 stopped by ``--timeout`` (partial result printed),
    4 no trustworthy answer: a solution failed ``--verify``, worker processes
    kept dying, memory ran out, or a bug (one line on stderr),
    130 interrupted by Ctrl-C (partial result printed), 141 stdout closed
    early (``| head``): the rest of the output is dropped quietly.
partial
    A run stopped by ``--timeout`` or Ctrl-C prints what it had, marked
    ``partial``: counts are then lower bounds.
verify
    ``--verify`` re-checks every printed solution with an independent checker;
    it is on by default when the environment has ``PARALLEL_BACKTRACK_VERIFY=1``
    (the test suite sets it).  ``PARALLEL_BACKTRACK_TRACEBACK=1`` shows the
    traceback of an internal error instead of the one line.

Example: ``workers_type("0")`` raises ``ArgumentTypeError("workers must be a
positive integer or -1 (all cores), got 0")``.
"""

from __future__ import annotations

import argparse
import difflib
import gc
import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence, Set
from typing import Any, NoReturn, TextIO

from ._cluster import backend_type, scheduler_address, scheduler_file
from ._output import deferring, guard_stdout, write_whole
from ._text import SNIFF_BYTES, not_text  # noqa: F401 - what the command lines read them as
from .engine import (
    BACKENDS,
    ClusterRefusedError,
    PoolLostError,
    SearchReport,
    WorkerCrashError,
    resolve_workers,
)
from .engine.backends import MissingExtraError
from .engine.checks import did_you_mean, is_interrupt

EXIT_OK, EXIT_NO, EXIT_USAGE, EXIT_TIMEOUT, EXIT_ERROR = 0, 1, 2, 3, 4
EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = 130, 141
EXIT_TERMINATED = 143  # SIGTERM (128 + 15): stopped as a Ctrl-C stops (``run_process``)
_TERMINATED: list[int] = []  # the SIGTERM received, if any
VERIFY_ENV, TRACEBACK_ENV = "PARALLEL_BACKTRACK_VERIFY", "PARALLEL_BACKTRACK_TRACEBACK"
# The metrics walk visits every node in Python (a few hundred thousand per second).
METRICS_MAX_NODES = 10_000_000
# Node budgets, limits and counts go to compiled kernels as 64-bit integers, and the
# scheduler multiplies budgets by small factors; 10^15 nodes is weeks of search anyway.
MAX_INT = 10**15
# Local worker processes per core beyond which a machine only thrashes.
WORKERS_PER_CORE, MIN_WORKERS_CAP = 8, 16
# How this process was started, for the names in its messages and help (``prog``):
# None for ``python -m parallel_backtrack.<family>``; ``parallel_backtrack.__main__``
# sets it to ``parallel-backtrack`` or ``python -m parallel_backtrack``.
LAUNCHER: str | None = None


def prog(family: str) -> str:
    """``python -m parallel_backtrack.nqueens``, or ``parallel-backtrack nqueens`` when
    the one command started it: what a family's usage lines and errors call it."""
    return (f"python -m parallel_backtrack.{family}" if LAUNCHER is None
            else f"{LAUNCHER} {family}")


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2, and an
    unknown option gets a "did you mean"."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {self._suggest(message)}\n")

    def parse_known_args(self, args: Any = None, namespace: Any = None  # type: ignore[override]
                         ) -> tuple[argparse.Namespace, list[str]]:
        """argparse's, then the engine options' combinations (``check_engine_options``),
        for every command line and subcommand that takes them."""
        parsed, extras = super().parse_known_args(args, namespace)
        if hasattr(parsed, "scheduler_address") and hasattr(parsed, "backend"):
            problem = check_engine_options(parsed)
            if problem:
                self.error(problem)
        return parsed, extras

    def parse_or_status(self, argv: Sequence[str] | None) -> argparse.Namespace | int:
        """The parsed arguments, or the exit status of a usage error or ``--help``
        (already printed): a command's ``main`` returns it instead of raising."""
        try:
            return self.parse_args(argv)
        except SystemExit as stop:
            return stop.code if isinstance(stop.code, int) else EXIT_USAGE

    def _suggest(self, message: str) -> str:
        found = re.match(r"unrecognized arguments: (--?[\w-]+)", message)
        if not found:
            return message.replace("\n", " ")
        options = [o for action in self._actions for o in action.option_strings]
        close = difflib.get_close_matches(found.group(1), options, n=1)
        return message + (f" (did you mean {close[0]}?)" if close else "")


def usage_error(prog: str, message: str) -> int:
    print(f"{prog}: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def cannot_read(name: str, error: BaseException) -> str:
    """The line for a file ``name`` that could not be read: the system's reason when
    there is one (``No such file or directory``), else the error's own text."""
    return f"cannot read {name}: {getattr(error, 'strerror', None) or error}"


def workers_type(text: str) -> int:
    try:
        value = integer(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"workers must be an integer, got {text!r}") from None
    try:
        resolve_workers(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return value


def too_many_workers(workers: int, hint: str = "") -> str | None:
    """Why ``workers`` local processes are too many for this machine, or None."""
    from .engine import cpu_count

    if 1 <= workers <= MIN_WORKERS_CAP:  # within the cap on any machine: no need to ask loky
        return None
    cores = cpu_count()
    cap = max(MIN_WORKERS_CAP, WORKERS_PER_CORE * cores)
    if resolve_workers(workers) <= cap:
        return None
    return (f"--workers {workers} is more than this machine can run: at most {cap} local "
            f"worker processes ({WORKERS_PER_CORE} per core, {cores} cores){hint}")


def integer(text: str, what: str = "an integer") -> int:
    """``int(text)`` for digits only (no ``1_000``, no 5,000-digit numbers)."""
    digits = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,30}", digits):
        shown = repr(text) if len(text) <= 40 else f"{text[:40]!r}.. ({len(text)} characters)"
        raise argparse.ArgumentTypeError(f"expected {what}, got {shown}")
    return int(digits)


def int_in(name: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer ``name`` in ``low..high`` (a usage error otherwise)."""

    def parse(text: str) -> int:
        value = integer(text, f"{name} as an integer")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{name} must be {low:,}..{high:,}, got {value:,}")
        return value

    parse.__name__ = name
    return parse


def positive_int(text: str) -> int:
    value = integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    if value > MAX_INT:
        raise argparse.ArgumentTypeError(
            f"{value} is too large: at most 10^15 (the compiled kernels count nodes in 64-bit"
            " integers)")
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    if not value <= MAX_INT:  # inf too: deadlines are finite
        raise argparse.ArgumentTypeError(f"expected at most 10^15 seconds, got {text!r}")
    return value


# Options that only go with another (the option's dest -> the other's dest and name).
COMPANIONS = {"trace_limit": ("html", "--html"), "checkpoint_every": ("checkpoint", "--checkpoint")}


def companion_problem(args: argparse.Namespace, given: Set[str]) -> str | None:
    """An option in ``given`` (``given_options``) without the option it goes with
    (``COMPANIONS``: ``--trace-limit`` without ``--html``), or None."""
    for dest, (other, name) in COMPANIONS.items():
        if dest in given and getattr(args, other, None) is None:
            return f"--{dest.replace('_', '-')} applies to {name}"
    return None


def given_options(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> set[str]:
    """The ``dest`` of every option ``argv`` gives (already parsed without error), whatever
    its value: parsed again with every default suppressed, so what is left was typed."""
    saved = [(action, action.default) for action in parser._actions]
    try:
        for action, _ in saved:
            action.default = argparse.SUPPRESS
        given, _ = parser.parse_known_args(argv)
    finally:
        for action, default in saved:
            action.default = default
    return set(vars(given))


def add_verify_option(parser: argparse.ArgumentParser) -> None:
    default = os.environ.get(VERIFY_ENV, "").strip().lower() in ("1", "true", "yes", "on")
    parser.add_argument("--verify", action=argparse.BooleanOptionalAction, default=default,
                        help="re-check every printed solution with the independent checker; a "
                        f"failed check exits {EXIT_ERROR} (default: on when {VERIFY_ENV}=1)")


def add_checkpoint_options(parser: argparse.ArgumentParser) -> None:
    """--checkpoint FILE and --checkpoint-every SECONDS, for a command that counts."""
    group = parser.add_argument_group("checkpoints")
    group.add_argument("--checkpoint", default=None, metavar="FILE",
                       help="go on from this checkpoint of the same count if it exists, write "
                       "it every --checkpoint-every seconds and when --timeout stops the run; "
                       "a complete count removes it (a pickle: load only files you wrote)")
    group.add_argument("--checkpoint-every", type=positive_float, default=60.0,
                       metavar="SECONDS", help="seconds between checkpoints (default: 60)")


def checkpoint_note(prog: str, checkpoint: Any, report: SearchReport | None) -> None:
    """One line on stderr after a count with a ``Checkpoint`` stopped early (``report``
    None: by an error): what the file holds (Ctrl-C or an error leaves its last one)."""
    if checkpoint is None or (report is not None and report.complete):
        return
    from .engine.checkpoint import CheckpointError

    try:
        saved = checkpoint.load()
    except CheckpointError:
        saved = None
    if saved is None:
        print(f"{prog}: no checkpoint was written to {checkpoint.path} (the run stopped "
              "before its first)", file=sys.stderr)
        return
    print(f"{prog}: checkpoint {checkpoint.path} holds {saved.count:,} solutions counted; "
          "the same command goes on from it", file=sys.stderr)


def choice_type(kind: str, choices: Iterable[str]) -> Callable[[str], str]:
    """An argparse type that accepts one of ``choices`` and suggests near misses."""
    names = tuple(choices)

    def parse(text: str) -> str:
        if text not in names:
            raise argparse.ArgumentTypeError(did_you_mean(kind, text, names))
        return text

    parse.__name__ = kind
    return parse


def add_engine_options(parser: argparse.ArgumentParser, default_workers: int | None = -1, *,
                       helps: dict[str, str] | None = None, short_workers: bool = True,
                       budgets: bool = True, stats: bool = True,
                       per_worker: bool | None = None) -> None:
    """--workers, --backend, --scheduler-address (or --scheduler-file), --timeout, --json,
    --progress (and,
    with ``budgets``, --budget, --budget-seconds, --per-worker; with ``stats``,
    --stats): the same options in every CLI.  ``per_worker`` (default: as
    ``budgets``) offers --per-worker on its own, for searches that cut a first
    frontier but take no task budgets (IDA*).

    ``default_workers`` None leaves the choice to the command (after parsing);
    ``helps`` replaces the help text of an option by its name (``"--json"``), for
    commands whose output differs; ``short_workers`` adds ``-w``.  After parsing,
    ``check_engine_options(args)`` finds what the parser cannot see, and
    ``engine_options(args)`` gives the engine's keywords."""
    helps = helps or {}
    group = parser.add_argument_group("parallel run")
    flags = ("--workers", "-w") if short_workers else ("--workers",)
    group.add_argument(*flags, type=workers_type, default=default_workers,
                       metavar="W", help=helps.get("--workers", "worker processes; -1 = all "
                                                   f"cores (default: {default_workers})"))
    group.add_argument("--backend", type=backend_type, default=None,
                       metavar="|".join(BACKENDS),
                       help="where tasks run (default: serial for 1 worker, else loky; dask: "
                       "a private Dask cluster on this machine)")
    where = group.add_mutually_exclusive_group()
    where.add_argument("--scheduler-address", type=scheduler_address, default=None,
                       metavar="tcp://HOST:PORT",
                       help="run the tasks on the Dask cluster of this scheduler (implies "
                       "--backend dask; --workers is then the cluster's worker threads)")
    where.add_argument("--scheduler-file", type=scheduler_file, default=None,
                       dest="scheduler_address", metavar="PATH",
                       help="the same, the address read from the file that 'dask scheduler "
                       "--scheduler-file PATH' writes")
    group.add_argument("--timeout", type=positive_float, default=None, metavar="SECONDS",
                       help=helps.get("--timeout", "stop at this wall-clock limit, print the "
                                      "partial result, exit 3 (default: no limit)"))
    if budgets:
        _add_budget_options(group)
    if budgets if per_worker is None else per_worker:
        group.add_argument("--per-worker", type=positive_int, default=None, metavar="K",
                           help=helps.get("--per-worker",
                                          "subtrees per worker in the initial split "
                                          "(default 50)"))
    out = parser.add_argument_group("output")
    out.add_argument("--json", action="store_true",
                     help=helps.get("--json", "print one JSON object"))
    if stats:
        out.add_argument("--stats", action="store_true",
                         help=helps.get("--stats", "print a per-worker table: tasks, "
                                        "busy/idle seconds, node share"))
    out.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help=helps.get("--progress", "progress bar on stderr (default: only "
                                    "when stderr is a terminal)"))


def _add_budget_options(group: Any) -> None:
    group.add_argument("--budget", type=positive_int, default=None, metavar="NODES",
                       help="nodes per task before it hands back its unexplored rest (default: "
                       "the kernel's)")
    group.add_argument("--budget-seconds", type=positive_float, default=None, metavar="S",
                       help="seconds per task before it hands back its unexplored rest "
                       "(alone: no node limit; with --budget: whichever comes first)")


def check_engine_options(args: argparse.Namespace) -> str | None:
    """A usage problem among the engine options the parser cannot see, or None."""
    if args.scheduler_address is not None and args.backend not in (None, "dask"):
        return (f"--scheduler-address (or --scheduler-file) runs on a Dask cluster; it "
                f"does not go with --backend {args.backend}")
    return None


def engine_options(args: argparse.Namespace) -> dict[str, Any]:
    """The engine keywords the shared options stand for."""
    options: dict[str, Any] = {
        "workers": args.workers, "backend": args.backend, "timeout": args.timeout,
        "progress": args.progress,
    }
    for name in ("budget", "budget_seconds", "per_worker"):
        options[name] = getattr(args, name, None)
    if args.scheduler_address is not None:
        options["backend"] = "dask"
        options["address"] = args.scheduler_address
    if options["backend"] == "dask":
        quiet_dask_logs()
    return options


def quiet_dask_logs() -> None:
    """A command speaks in one line: Dask's client logs its reconnects to a scheduler
    gone mid-run, with tracebacks, and the command says what happened
    (``engine.PoolLostError``); its event loop, tornado's, logs the errors of its
    callbacks with tracebacks too (Dask's own ``sync`` cancel callback fails so when a
    Ctrl-C lands at the start of a call), and the command says it was interrupted."""
    import logging

    try:  # it sets its loggers' levels as it loads: load it first
        import distributed  # noqa: F401
    except ImportError:  # the engine names the missing extra
        return
    for name in ["distributed", "tornado", *logging.root.manager.loggerDict]:
        if name.startswith(("distributed", "tornado")):
            logging.getLogger(name).setLevel(logging.CRITICAL)


def print_stats(report: SearchReport, out: TextIO) -> None:
    """The per-worker table, then where the parent's own time went."""
    print(f"{'worker':<24} {'tasks':>6} {'busy s':>9} {'idle s':>9} {'nodes %':>8}", file=out)
    for stats in report.worker_stats():
        print(f"{stats.worker:<24} {stats.tasks:>6} {stats.busy_seconds:>9.3f} "
              f"{stats.idle_seconds:>9.3f} {100 * stats.node_share:>7.1f}%", file=out)
    cost = f" ({1e3 * report.task_cost:.2f} ms a task in all)" if report.task_cost else ""
    print(f"frontier {report.frontier} subtrees (depth {report.split_depth}), "
          f"peak pending {report.peak_pending}, parent dispatch "
          f"{report.dispatch_seconds + report.collect_seconds:.3f} s{cost}, worker setup "
          f"{report.setup_seconds:.3f} s, pool restarts {report.restarts}", file=out)



def add_metrics_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--metrics", action="store_true",
                        help="instead of counting in parallel, walk the tree once and print "
                        "the lab's abstract metrics: tasks, work, span, parallelism")


def metrics_command(space: Any, out: TextIO, as_json: bool, extra: dict[str, Any],
                    max_nodes: int = METRICS_MAX_NODES) -> int:
    """Print ``engine.metrics(space)``: one JSON object, or a few lines for people."""
    from .engine import metrics

    found = metrics(space, max_nodes=max_nodes)
    if as_json:
        print_json({**extra, "metrics": found.as_dict()}, out)
        return EXIT_OK
    print(f"tasks spawned  {found.tasks:,}  (one per valid child)", file=out)
    print(f"work (T1)      {found.work:,} nodes", file=out)
    print(f"span (T_inf)   {found.span:,} nodes  (critical path)", file=out)
    print(f"parallelism    {found.parallelism:,.2f}  (work / span: no schedule beats "
          "min(workers, parallelism) speedup)", file=out)
    print(f"solutions      {found.solutions:,}", file=out)
    return EXIT_OK


def print_json(payload: dict[str, Any], out: TextIO) -> None:
    """One JSON object on one line, written whole (``_output``: a Ctrl-C waits for it)."""
    write_whole(out, json.dumps(payload, sort_keys=True) + "\n")


def exit_code(report: SearchReport) -> int:
    return stop_code(report.stop_reason)


def stop_code(stop_reason: str | None) -> int:
    """The exit status for how a run ended: 0, 3 (timeout), 130 (interrupted) or 143
    (terminated: a SIGTERM asked a checkpointed count to stop)."""
    if stop_reason == "timeout":
        return EXIT_TIMEOUT
    if stop_reason == "interrupted":
        return EXIT_INTERRUPTED
    if stop_reason == "terminated":
        return EXIT_TERMINATED
    return EXIT_OK


def interrupted(error: BaseException) -> bool:
    """A Ctrl-C, also one that landed inside a compiled kernel (numba then raises a
    SystemError caused by the KeyboardInterrupt)."""
    return is_interrupt(error)


def failure(prog: str, error: BaseException) -> int:
    """The one line and the exit status for an error no CLI check foresaw."""
    if isinstance(error, BrokenPipeError):
        return quiet_stdout()
    if interrupted(error):
        print(f"{prog}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    # --backend dask without a working extra; a cluster refused as the command joins it
    if isinstance(error, (MissingExtraError, ClusterRefusedError)):
        return usage_error(prog, " ".join(str(error).split()))
    if isinstance(error, MemoryError):
        message = "out of memory; try a smaller problem or fewer workers"
    elif isinstance(error, (WorkerCrashError, PoolLostError)):
        message = str(error)
    elif isinstance(error, RuntimeError) and "no locator available" in str(error):
        message = (f"{error}: no folder for the compiled kernels can be written (the user "
                   "cache, the package, the temporary one); set NUMBA_CACHE_DIR to one")
    else:
        if os.environ.get(TRACEBACK_ENV):
            raise error
        message = (f"internal error: {type(error).__name__}: {error} (a bug; "
                   f"{TRACEBACK_ENV}=1 shows where)")
    print(f"{prog}: error: {' '.join(message.split())}", file=sys.stderr)
    return EXIT_ERROR


def quiet_stdout() -> int:
    """stdout was closed by its reader (``| head``): drop the rest of the output quietly
    (also what Python would flush at exit) and exit 141, like a process killed by
    SIGPIPE."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (captured in tests)
        pass
    return EXIT_BROKEN_PIPE


def kill_worker_pools() -> None:
    """The process is ending: kill the pool workers (loky's, for the engine and for
    joblib) now.  At exit loky would wait for every task in flight, and a worker still
    loading its compiled kernels (a run cut short by --timeout) sees no stop flag: that
    wait took seconds.  loky's manager thread then finds its workers gone and ends."""
    multiprocessing = sys.modules.get("multiprocessing")
    if multiprocessing is None:  # never imported: no pool was started (and --help stays quick)
        return
    import signal

    for child in multiprocessing.active_children():
        if child.pid is None:  # never started
            continue
        try:
            os.kill(child.pid, getattr(signal, "SIGKILL", signal.SIGTERM))
        except (OSError, TypeError):  # gone already, or never started
            pass


def _terminate(signum: int, frame: Any) -> None:
    """SIGTERM (``kill``, a batch scheduler's notice): the first stops the run as a
    Ctrl-C does, so it prints its partial result, removes its files and stops its
    workers; one more, while it cleans up, is ignored.  A count that keeps a checkpoint
    is asked to stop at its next step instead, its checkpoint written there
    (``engine.checkpoint.ask_stop``); a second SIGTERM then stops it at once."""
    if not _TERMINATED:
        _TERMINATED.append(signum)
        checkpoints = sys.modules.get("parallel_backtrack.engine.checkpoint")
        if checkpoints is not None and checkpoints.ask_stop():
            _TERMINATED.append(0)  # asked, not stopped yet
            return
        raise KeyboardInterrupt
    if _TERMINATED[-1] == 0:
        _TERMINATED.append(signum)
        raise KeyboardInterrupt


def _default_term() -> None:
    """In a process forked from this one (a pool's worker, the fork server): SIGTERM
    ends it, as the pools that send it expect."""
    import signal

    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    except ValueError:  # not the main thread: nothing was inherited there to undo
        pass


def run_process(main: Callable[[], int]) -> NoReturn:
    """``sys.exit(main())`` for ``python -m``: even a Ctrl-C, a SIGTERM or a closed pipe
    that lands outside ``main``'s own handlers ends with an exit status, never a
    traceback, and no worker process outlives the run."""
    import signal

    # Imports done (see _lean).  Held while an answer is written (``_output``).
    signal.signal(signal.SIGINT, deferring(signal.default_int_handler))
    signal.signal(signal.SIGTERM, deferring(_terminate))
    guard_stdout()  # a reader that never reads cannot hold a Ctrl-C (``_output``)
    os.register_at_fork(after_in_child=_default_term)
    try:
        code = main()  # kernels it loads skip numba's compiler set-up: see _jit_cache
        sys.stdout.flush()
    except BrokenPipeError:
        code = quiet_stdout()
    except KeyboardInterrupt:
        code = EXIT_INTERRUPTED
    finally:
        kill_worker_pools()
    if _TERMINATED and code == EXIT_INTERRUPTED:
        code = EXIT_TERMINATED
    # Tearing the interpreter down runs the cycle collector over every object left,
    # numba's many typing objects included: 0.13 s of a Sudoku command's exit, the
    # same for one worker or 64.  Frozen objects are skipped; nothing here needs its
    # cycles finalized, and atexit handlers still run.
    gc.freeze()
    sys.exit(code)
