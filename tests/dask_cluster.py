"""A real Dask cluster of separate processes on 127.0.0.1 for the tests, and the command
lines run on it.

``start_cluster`` runs ``dask scheduler`` and ``dask worker --nworkers 2 --nthreads 1``
as processes of their own, over TCP on free ports (the scheduler picks its port and
the address is read from its log; it also writes ``scheduler.json``, its scheduler
file, in the cluster's folder), waits until the workers are registered, and at the
end stops everything it started and checks that no process of it is left.

Glossary
--------
case
    One command line run on the cluster and locally (``Case``): the module and its
    arguments, the JSON field that holds the answer, and a longer variant for the
    run in which a worker is killed.  ``CASES`` holds them by family; adding a
    family is two lines, e.g.::

        CASES["sliding"] = Case("parallel_backtrack.sliding", SLIDING, "moves",
                                stdin=KORF_6 + "\n", long=SLIDING)

    (``LONG_STDIN`` holds a long run's input when it differs).
answer
    ``Case.answer(stdout)``: the field ``field`` of the last JSON line printed.
replay
    ``blank_first_replay(tiles, moves)``: a sliding solution checked move by move,
    independently of the package's board code.

Example: ``with start_cluster() as cluster: run_case(CASES["nqueens"], cluster.address)``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parents[1]
DASK = shutil.which("dask", path=str(Path(sys.executable).parent)) or shutil.which("dask")
START_SECONDS = 90
RUN_SECONDS = 240
SUDOKU_847 = ("...4......5..8.2.6.....3...2...4....3......1...5.3.8.25...6.3.8..6....95..8"
              "......")
SUDOKU_LONG = ("...4......5..8.2.6.....3...2...4....3......1...5.3.8..5...6.3....6........8"
               "......")  # 2,267,438 solutions
# Korf's 15-puzzle instances #6 (52 moves, 32M nodes with Manhattan) and #4 (56 moves,
# 63M nodes), tests/data/search/korf100.txt; the goal has the blank first.
KORF_6 = "14 7 1 9 12 3 6 15 8 11 2 5 10 0 4 13"
KORF_4 = "5 12 10 7 15 11 14 0 8 2 1 13 3 4 9 6"
KORF_52 = "10 8 0 12 3 7 6 2 1 14 4 11 15 13 9 5"  # 56 moves; 3M nodes with pdb-555
SLIDING = ("-", "--goal", "blank-first", "--heuristic", "manhattan", "--json")


@dataclass(frozen=True)
class Case:
    """A command line whose answer must be the same on the cluster and locally."""

    module: str
    argv: tuple[str, ...]
    field: str
    stdin: str | None = None
    long: tuple[str, ...] | None = None  # a run long enough to kill a worker in

    def answer(self, stdout: str) -> Any:
        lines = [line for line in stdout.splitlines() if line.startswith("{")]
        found = json.loads(lines[-1])
        for key in self.field.split("."):  # "parallel.value": a field of a field
            found = found[key]
        return found


CASES: dict[str, Case] = {
    "nqueens": Case("parallel_backtrack.nqueens", ("--n", "11", "--json"), "count",
                    long=("--n", "16", "--json")),
    "sudoku": Case("parallel_backtrack.sudoku", ("-", "--count", "--json"), "count",
                   stdin=SUDOKU_847 + "\n", long=("-", "--count", "--json")),
    "connect4": Case("parallel_backtrack.games", ("connect4", "4453222", "--json"), "score",
                     long=("connect4", "445322", "--json")),
    "random": Case("parallel_backtrack.games", ("random", "-b", "6", "-d", "6", "--json",
                                                "--no-sequential"), "parallel.value",
                   long=("random", "-b", "8", "-d", "8", "--json", "--no-sequential")),
    "sliding": Case("parallel_backtrack.sliding", SLIDING, "moves", stdin=KORF_6 + "\n",
                    long=SLIDING),
}
LONG_STDIN = {"sudoku": SUDOKU_LONG + "\n", "sliding": KORF_4 + "\n"}


def blank_first_replay(tiles: str, moves: str) -> bool:
    """An independent check of a sliding solution: the blank's moves (``U D L R``)
    applied one by one to the board ``tiles`` (rows of a square, 0 the blank) end at
    ``0 1 2 ... n*n-1``, and none leaves the board."""
    board = [int(word) for word in tiles.split()]
    side = round(len(board) ** 0.5)
    step = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
    for move in moves:
        blank = board.index(0)
        row, col = blank // side + step[move][0], blank % side + step[move][1]
        if not (0 <= row < side and 0 <= col < side):
            return False
        board[blank], board[row * side + col] = board[row * side + col], 0
    return board == list(range(side * side))


@dataclass
class Cluster:
    """The running cluster: its address, its processes, and a client to watch it."""

    address: str
    client: Any
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    folder: Path = Path(".")  # the workers' local directory; the scheduler's file in it
    env: dict[str, str] = field(default_factory=dict)  # the workers' environment

    def add_workers(self, count: int, log: Path, env: dict[str, str] | None = None) -> None:
        """Start ``dask worker`` with ``count`` processes of one thread (stopped with
        the cluster), ``env`` added to the workers' environment."""
        assert DASK is not None
        self.processes.append(_spawn(
            [DASK, "worker", self.address, "--nworkers", str(count), "--nthreads", "1",
             "--host", "127.0.0.1", "--no-dashboard", "--local-directory", str(self.folder)],
            log, {**self.env, **(env or {})}))

    def worker_pids(self) -> dict[str, int]:
        """Each registered worker's address and process id."""
        return dict(self.client.run(os.getpid))

    def busy_worker(self, pids: dict[str, int]) -> int | None:
        """The process id of a worker (of ``pids``) running a task now, or None."""
        for address, tasks in self.client.processing().items():
            if tasks and address in pids:
                return pids[address]
        return None

    def wait_for_workers(self, count: int = 2) -> None:
        self.client.wait_for_workers(count, timeout=START_SECONDS)


def _read_address(log: Path, process: subprocess.Popen[bytes]) -> str:
    """The scheduler's ``tcp://127.0.0.1:PORT``, from its log, once it is listening."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        found = re.search(r"Scheduler at:\s+(tcp://127\.0\.0\.1:\d+)", log.read_text())
        if found:
            return found.group(1)
        if process.poll() is not None:
            raise RuntimeError(f"dask scheduler exited: {log.read_text()[-800:]}")
        time.sleep(0.1)
    raise TimeoutError(f"dask scheduler did not start: {log.read_text()[-800:]}")


def _spawn(argv: Sequence[str], log: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    with open(log, "wb") as out:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(list(argv), stdout=out, stderr=subprocess.STDOUT, env=env,
                                cwd=ROOT, start_new_session=True)


def _stop(processes: list[subprocess.Popen[bytes]]) -> list[int]:
    """Stop the processes (workers first) and every process they started; the ids of
    any that had to be killed after 20 s."""
    family = []
    for process in processes:
        try:
            family += [process.pid] + [p.pid for p in
                                       psutil.Process(process.pid).children(recursive=True)]
        except psutil.NoSuchProcess:
            pass
    for process in reversed(processes):  # the workers were started last
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    killed = []
    deadline = time.monotonic() + 20
    for pid in family:
        while psutil.pid_exists(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        try:
            proc = psutil.Process(pid)
            if proc.status() != psutil.STATUS_ZOMBIE:
                proc.kill()
                killed.append(pid)
        except psutil.NoSuchProcess:
            pass
    return killed


@contextmanager
def start_cluster(tmp: Path, env: dict[str, str] | None = None,
                  nworkers: int = 2) -> Iterator[Cluster]:
    """A scheduler and ``nworkers`` worker processes (one thread each; none: the
    scheduler alone) on 127.0.0.1;
    ``env`` is added to the workers' environment.  Everything is stopped at the end,
    and a process left behind fails the test."""
    import distributed

    if DASK is None:
        raise RuntimeError("the dask command is not installed (pip install '.[dask]')")
    base = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    scheduler_log, worker_log = tmp / "scheduler.log", tmp / "workers.log"
    processes = [_spawn([DASK, "scheduler", "--host", "127.0.0.1", "--port", "0",
                         "--dashboard-address", "127.0.0.1:0", "--scheduler-file",
                         str(tmp / "scheduler.json")], scheduler_log, base)]
    client = None
    try:
        address = _read_address(scheduler_log, processes[0])
        cluster = Cluster(address, None, processes, tmp, {**base, **(env or {})})
        if nworkers:  # none: a scheduler alone
            cluster.add_workers(nworkers, worker_log)
        client = cluster.client = distributed.Client(address, timeout=START_SECONDS)
        if nworkers:
            cluster.wait_for_workers(nworkers)
        yield cluster
    finally:
        if client is not None:
            client.close()
        killed = _stop(processes)
    assert killed == [], f"processes left behind and killed: {killed}"


def run_case(case: Case, address: str | None = None, long: bool = False,
             family: str = "", env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """Start the case's command line (on the cluster at ``address``, else locally on
    one worker: the sequential answer), ``env`` added to its environment; the caller
    waits for it (``finish``)."""
    argv = list(case.long if long and case.long else case.argv)
    argv += ["--scheduler-address", address] if address else ["--workers", "1"]
    process = subprocess.Popen([sys.executable, "-m", case.module, *argv], cwd=ROOT,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               env={**os.environ, **(env or {})})
    stdin = LONG_STDIN.get(family, case.stdin) if long else case.stdin
    if process.stdin is not None:
        process.stdin.write(stdin or "")
        process.stdin.close()
        process.stdin = None  # written and closed: ``communicate`` leaves it alone
    return process


def finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    """Wait for a started command line: its exit status, stdout and stderr."""
    try:
        out, err = process.communicate(timeout=RUN_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
    return process.returncode, out, err
