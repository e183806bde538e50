"""Every family's command line on a real Dask cluster of separate processes: the same
answers as a local run, also when a worker is killed mid-run; the workers compile
their own kernels on first use; bad scheduler options are one-line usage errors."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from dask_cluster import (
    CASES,
    KORF_4,
    KORF_6,
    KORF_52,
    ROOT,
    SUDOKU_LONG,
    Case,
    Cluster,
    blank_first_replay,
    finish,
    run_case,
    start_cluster,
)

import parallel_backtrack

pytest.importorskip("distributed")
pytestmark = [pytest.mark.dask, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Cluster:
    with start_cluster(tmp_path_factory.mktemp("cluster")) as running:
        yield running


@pytest.fixture(scope="module")
def local_answers() -> dict[tuple[str, bool], object]:
    """Each case's answer on one local worker, short and long runs."""
    answers = {}
    for family, case in CASES.items():
        for long in (False, True):
            code, out, err = finish(run_case(case, long=long, family=family))
            assert code == 0, err[-500:]
            answers[family, long] = case.answer(out)
    return answers


@pytest.mark.parametrize("long", [False, True], ids=["short", "long"])
@pytest.mark.parametrize("family", sorted(CASES))
def test_the_cluster_gives_the_local_answer(family: str, long: bool, cluster: Cluster,
                                             local_answers: dict) -> None:
    """A short run may end in the parent's own search while the workers warm up; a long
    one runs tasks on the workers (the N-Queens report names them)."""
    case = CASES[family]
    code, out, err = finish(run_case(case, cluster.address, long=long, family=family))
    assert code == 0, err[-500:]
    assert case.answer(out) == local_answers[family, long]
    check_solution(family, long, out)
    if family in ("connect4", "random"):  # the cluster's worker threads, not --workers
        report = json.loads(out.splitlines()[-1])
        assert (report["parallel"] if family == "random" else report)["workers"] == 2
        part = report["parallel"] if family == "random" else report
        assert part["tasks"] > 0 and part["task_cost"] > 0, report  # a task's cost there
    if family == "sliding" and long:  # IDA*'s tasks went to the cluster
        report = json.loads(out.splitlines()[-1])
        assert report["tasks"] > 0 and report["task_cost"] > 0, report
    if family == "nqueens":
        report = json.loads(out)
        assert report["backend"] == "dask" and report["workers"] == 2
        if long:
            assert sum(s["tasks"] for s in report["worker_stats"]
                       if s["worker"] != "parent") > 0, report["worker_stats"]


def check_solution(family: str, long: bool, out: str) -> None:
    """A sliding answer's path, replayed move by move by the test's own checker."""
    if family == "sliding":
        report = json.loads(out.splitlines()[-1])
        assert report["status"] == "solved" and len(report["solution"]) == report["moves"]
        assert blank_first_replay(KORF_4 if long else KORF_6, report["solution"]), report


KNOWN = {("nqueens", False): 2680, ("nqueens", True): 14772512, ("sudoku", False): 847,
         ("sudoku", True): 2267438,
         # Connect-Four scores, Pons' scale (the solver matches Pons' four published sets)
         ("connect4", False): 10, ("connect4", True): -4,
         # Korf's optimal lengths (tests/data/search/korf100.txt)
         ("sliding", False): 52, ("sliding", True): 56}


def test_the_local_answers_are_the_known_ones(local_answers: dict) -> None:
    for key, value in KNOWN.items():
        assert local_answers[key] == value, key


@pytest.mark.parametrize("family", sorted(f for f, c in CASES.items() if c.long))
def test_a_worker_killed_mid_run_changes_no_answer(family: str, cluster: Cluster,
                                                   local_answers: dict) -> None:
    """Kill a worker process while it runs a task of the command: its nanny restarts
    it, Dask runs the lost tasks again, and the answer is the same."""
    cluster.wait_for_workers(2)
    pids = cluster.worker_pids()
    process = run_case(CASES[family], cluster.address, long=True, family=family)
    killed = None
    deadline = time.monotonic() + 120
    while killed is None and process.poll() is None and time.monotonic() < deadline:
        pid = cluster.busy_worker(pids)
        if pid is not None:
            os.kill(pid, 9)
            killed = pid
        time.sleep(0.01)
    running_when_killed = process.poll() is None
    code, out, err = finish(process)
    assert killed in pids.values() and running_when_killed, (killed, err[-300:])
    assert code == 0, err[-500:]
    assert CASES[family].answer(out) == local_answers[family, True]
    check_solution(family, True, out)
    cluster.wait_for_workers(2)  # the nanny started a new one
    assert killed not in cluster.worker_pids().values()


def test_workers_compile_their_kernels_into_their_own_cache(tmp_path: Path) -> None:
    """A worker on another machine has no numba cache: its warm-up task compiles the
    kernel there on first use, into its own user cache (here NUMBA_CACHE_DIR, which the
    parent does not use; the parent searches meanwhile), and later runs load it."""
    cache = tmp_path / "worker-cache" / "parallel_backtrack"
    case = CASES["nqueens"]
    with start_cluster(tmp_path, env={"NUMBA_CACHE_DIR": str(cache.parent)}) as fresh:
        code, out, err = finish(run_case(case, fresh.address, long=True))
        assert code == 0 and case.answer(out) == KNOWN["nqueens", True], err[-500:]
        deadline = time.monotonic() + 180  # the compile may outlast the first run
        while not list(cache.glob("nqueens.kernel-*/*.nbc")) and time.monotonic() < deadline:
            time.sleep(0.5)
        written = sorted(p.name for p in cache.glob("nqueens.kernel-*/*"))
        assert any(name.endswith(".nbi") for name in written), written
        code, out, err = finish(run_case(case, fresh.address, long=True))
        assert code == 0 and case.answer(out) == KNOWN["nqueens", True], err[-500:]
    assert not list(Path(ROOT / "parallel_backtrack" / "nqueens" / "kernel").glob("*.nbi"))


def test_workers_build_pattern_databases_in_their_own_cache(tmp_path: Path) -> None:
    """A worker on another machine sees none of the command's files: the space names
    its pattern database, and each worker process maps it from its own machine's
    ``PARALLEL_BACKTRACK_CACHE`` or builds it there.  Here that folder starts empty and
    apart from the command's; the table appears in both, and the answer is right."""
    worker_cache, client_cache = tmp_path / "worker-cache", tmp_path / "client-cache"
    case = Case("parallel_backtrack.sliding", ("-", "--goal", "blank-first", "--heuristic",
                                               "pdb-555", "--json"), "moves",
                stdin=KORF_52 + "\n")
    with start_cluster(tmp_path, env={"PARALLEL_BACKTRACK_CACHE": str(worker_cache)}) as fresh:
        code, out, err = finish(run_case(case, fresh.address,
                                         env={"PARALLEL_BACKTRACK_CACHE": str(client_cache)}))
    assert code == 0, err[-500:]
    report = json.loads(out.splitlines()[-1])
    assert report["moves"] == 56 and blank_first_replay(KORF_52, report["solution"]), report
    for cache in (worker_cache, client_cache):
        built = sorted(p.suffix for p in (cache / "pdb").glob("pdb-555-4x4-*"))
        assert built == [".json", ".npy"], (cache, built)


# Each command line with the arguments of a small run, before the engine options.
COMMANDS = {"nqueens": ("parallel_backtrack.nqueens", ["--n", "8"]),
            "sliding": ("parallel_backtrack.sliding", ["-"]),
            "connect4": ("parallel_backtrack.games", ["connect4", "4453"]),
            "random": ("parallel_backtrack.games", ["random", "-b", "2", "-d", "2"])}


def refused(argv: list[str], pattern: str, env: dict[str, str] | None = None,
            code: str | None = None, command: str = "nqueens") -> float:
    """Exit 2 and one line on stderr matching ``pattern``; returns the seconds taken.
    ``argv`` follows the small run of ``command`` (``COMMANDS``); ``code``: run that
    Python text instead of the module (``sys.argv[1]`` is then the module)."""
    import re

    module, small = COMMANDS[command]
    started = time.monotonic()
    run = [sys.executable, "-m", module] if code is None else [sys.executable, "-c", code,
                                                               module]
    done = subprocess.run([*run, *small, *argv], capture_output=True, text=True, cwd=ROOT,
                          timeout=60, env={**os.environ, **(env or {})}, input="")
    seconds = time.monotonic() - started
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr[-500:]
    assert "Traceback" not in done.stderr and re.search(pattern, lines[0]), lines[0]
    return seconds


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_malformed_address_is_a_usage_error(command: str) -> None:
    bad = ("tcp://a b:8786", "tcp://127.0.0.1:99999", "http://127.0.0.1:8786", "")
    for address in bad if command == "nqueens" else bad[:2]:
        refused(["--scheduler-address", address], r"--scheduler-address: expected "
                r"tcp://HOST:PORT", command=command)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_unreachable_scheduler_fails_fast(command: str) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    seconds = refused(["--scheduler-address", f"tcp://127.0.0.1:{port}"],
                      r"no Dask scheduler answers at tcp://127\.0\.0\.1:\d+ \(Connection "
                      r"refused\)", command=command)
    assert seconds < 20


def test_a_port_that_is_not_a_scheduler_fails_fast() -> None:
    """A port that accepts and says nothing (not a Dask greeting): refused within the
    connect timeout, not a hang."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        accepted = []
        threading.Thread(target=lambda: accepted.append(server.accept()), daemon=True).start()
        seconds = refused(["--scheduler-address", f"127.0.0.1:{server.getsockname()[1]}"],
                          r"no Dask scheduler answers at tcp://127\.0\.0\.1:\d+ \(the port "
                          r"answers, but not as Dask\)")
    assert seconds < 20 and accepted


def test_a_scheduler_without_workers_is_refused_and_a_ctrl_c_while_waiting_is_one_line(
        tmp_path: Path) -> None:
    """A scheduler with no workers: each command waits for one (a cluster may still be
    starting), then stops with one usage line; a Ctrl-C while it waits ends it at once
    with exit 130 and one line, whichever command."""
    from parallel_backtrack.engine.dask_executor import CONNECT_TIMEOUT

    waiting = {"sudoku": JOINERS["sudoku"], "tictactoe": JOINERS["tictactoe"],
               "connect4": CASES["connect4"], "nqueens": CASES["nqueens"]}
    with start_cluster(tmp_path, nworkers=0) as bare:
        refusing = run_case(CASES["nqueens"], bare.address)
        started = {name: run_case(case, bare.address) for name, case in waiting.items()}
        time.sleep(4)  # all past their imports, waiting for a worker
        for process in started.values():
            process.send_signal(signal.SIGINT)
        stopped = {name: finish(process) for name, process in started.items()}
        code, out, err = finish(refusing)
    for name, (stop_code, _, stop_err) in stopped.items():
        lines = stop_err.strip().splitlines()
        assert stop_code == 130 and len(lines) == 1, (name, stop_err[-800:])
        assert "interrupted" in lines[0] and "Traceback" not in stop_err, lines
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1, err[-800:]
    assert f"has no workers (waited {CONNECT_TIMEOUT})" in lines[0], lines[0]


def test_a_worker_s_address_is_not_a_scheduler_s(cluster: Cluster) -> None:
    """A worker's address (a worker's log prints it too) greets as a scheduler's does:
    refused when joined, in one line naming the mistake, not a TypeError from Dask."""
    worker = next(iter(cluster.worker_pids()))
    refused(["--scheduler-address", worker], rf"{worker} is a Dask worker's or nanny's "
            r"address, not a scheduler's; give the one 'dask scheduler' prints")


def test_a_tls_address_needs_tls_settings_and_a_tls_scheduler(cluster: Cluster) -> None:
    """``tls://`` without Dask's client certificate is a usage error naming the settings
    (not Dask's TypeError deep in the first connection); ``tls://`` to a plain tcp://
    scheduler names the tcp:// address to use."""
    from parallel_backtrack._cluster import _no_scheduler

    no_tls = {name: "" for name in os.environ if name.startswith("DASK_DISTRIBUTED__COMM")}
    refused(["--scheduler-address", cluster.address.replace("tcp://", "tls://")],
            r"a tls:// scheduler needs Dask's TLS settings for the client: set "
            r"DASK_DISTRIBUTED__COMM__TLS__CA_FILE", env=no_tls)
    host, port = cluster.address.removeprefix("tcp://").split(":")
    assert _no_scheduler(host, int(port), tls=True) == (
        f"a tcp:// scheduler answers there: use {cluster.address}")
    assert _no_scheduler(host, int(port), tls=False) is None


NO_DASK = """
import importlib.abc, runpy, sys
class NoDask(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "distributed":
            raise ModuleNotFoundError(f"No module named {name!r}")
sys.meta_path.insert(0, NoDask())
module = sys.argv[1]
sys.argv = [module, *sys.argv[2:]]
runpy.run_module(module, run_name="__main__")
"""


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("argv", [["--backend", "dask"],
                                  ["--scheduler-address", "tcp://127.0.0.1:8786"]])
def test_dask_without_the_extra_names_the_install(argv: list[str], command: str) -> None:
    refused(argv, r'the dask backend needs dask\.distributed: pip install '
            r'"parallel_backtrack\[dask\]"', code=NO_DASK, command=command)


@pytest.mark.parametrize("command", ["nqueens", "connect4", "random"])
def test_dask_installed_but_broken_is_a_usage_error(command: str, tmp_path: Path) -> None:
    """A ``distributed`` that is found but fails to import (a half-upgraded install) is
    the same one-line usage error in every command, naming the reinstall."""
    broken = tmp_path / "distributed"
    broken.mkdir()
    (broken / "__init__.py").write_text('raise ImportError("cannot import name x")\n')
    path = os.pathsep.join([str(tmp_path), str(ROOT), os.environ.get("PYTHONPATH", "")])
    refused(["--backend", "dask"], r"the dask backend needs dask\.distributed, which is "
            r"installed but does not import \(cannot import name x\): pip install "
            r'--force-reinstall "parallel_backtrack\[dask\]"',
            env={"PYTHONPATH": path}, command=command)


def test_a_backend_name_resolves_without_a_prior_import() -> None:
    code = ("import sys\n"
            "from parallel_backtrack.engine.backends import backend_named, backend_names\n"
            "assert 'parallel_backtrack.engine.dask_executor' not in sys.modules\n"
            "print(backend_named('dask').factory.__name__, backend_names())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.stdout.split(" ", 1)[0] == "DaskExecutor", done.stderr[-500:]
    assert "'dask'" in done.stdout


def test_scheduler_address_with_another_backend_is_a_usage_error(cluster: Cluster) -> None:
    for command in COMMANDS:
        refused(["--backend", "loky", "--scheduler-address", cluster.address],
                "does not go with --backend loky", command=command)


def test_one_set_of_engine_options_for_every_command_line() -> None:
    """What sliding and games take from ``_cli.add_engine_options``: the same names, the
    budgets and --stats left out on request."""
    from parallel_backtrack import _cli

    parser = _cli.Parser(prog="x")
    _cli.add_engine_options(parser, 1, budgets=False, stats=False)
    args = parser.parse_args(["--workers", "2", "--backend", "dask", "--timeout", "2.5",
                              "--json", "--no-progress"])
    options = _cli.engine_options(args)
    assert options["workers"] == 2 and options["backend"] == "dask"
    assert options["timeout"] == 2.5 and options["progress"] is False and args.json
    assert options["budget"] is None and not hasattr(args, "stats")
    assert _cli.check_engine_options(args) is None
    with pytest.raises(SystemExit):
        parser.parse_args(["--budget", "5"])


# A task that polls bounds and a stop flag, as a search polls them, until slot 0 reaches
# 5 and the flag is up (or ``seconds`` pass): what it saw, and when.  Made in a module
# called __main__ so that it travels by value (the workers cannot import tests/).
WAIT_FOR_RAISE = """
import time

def wait_for_raise(bounds, flag, seconds):
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if bounds.read(0) >= 5 and flag.is_set():
            break
        time.sleep(0.005)
    return bounds.read(0), flag.is_set(), time.monotonic() - started
"""


def test_a_raise_reaches_tasks_running_on_the_cluster(cluster: Cluster) -> None:
    """Bounds and a stop flag raised after two tasks started on the workers (one each)
    reach both within a fraction of a second: not the values they were sent with."""
    from parallel_backtrack.engine import make_executor, shared_bounds

    namespace: dict[str, object] = {"__name__": "__main__"}
    exec(WAIT_FOR_RAISE, namespace)  # noqa: S102 - the test's own text
    wait_for_raise = namespace["wait_for_raise"]
    cluster.wait_for_workers(2)
    executor = make_executor(1, "dask", address=cluster.address)
    try:
        bounds, flag = shared_bounds(executor, 2), executor.stop_flag()
        futures = [executor.submit(wait_for_raise, bounds, flag, 60.0) for _ in range(2)]
        deadline = time.monotonic() + 60
        while sum(map(len, executor.client.processing().values())) < 2:
            assert time.monotonic() < deadline, "the tasks did not start"
            time.sleep(0.05)
        time.sleep(0.5)
        raised = time.monotonic()
        bounds.raise_to(0, 5)
        executor.raise_flag(flag)
        seen = [future.result(timeout=60) for future in futures]
        assert [s[:2] for s in seen] == [(5, True), (5, True)], seen
        assert time.monotonic() - raised < 10, seen
        bounds.close()
    finally:
        executor.close()


def test_a_connect4_time_limit_stops_the_cluster_s_probes(cluster: Cluster) -> None:
    """``connect4 --timeout`` on the cluster: exit 3 soon after the limit, with a range
    of scores that holds the empty board's +1 (Allis; Pons' score of a win with the
    first player's 21st stone)."""
    case = Case("parallel_backtrack.games", ("connect4", "", "--timeout", "1", "--json"),
                "score")
    started = time.monotonic()
    code, out, err = finish(run_case(case, cluster.address))
    assert code == 3, err[-500:]
    report = json.loads(out)
    assert report["score"] is None and report["stop_reason"] == "timeout"
    assert report["score_low"] <= 1 <= report["score_high"] and report["workers"] == 2
    assert report["seconds"] < 3.0 and time.monotonic() - started < 60


def _blocker(folder: Path) -> dict[str, str]:
    """Workers' environment in which importing the package fails, as on a machine
    without it: a package of that name first on their path raises."""
    blocker = folder / "blocker" / "parallel_backtrack"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text('raise ImportError("not installed here")\n')
    return {"PYTHONPATH": str(blocker.parent)}


# Command lines that join a cluster each their own way (the engine's count, Sudoku's
# runner, the tic-tac-toe count): each must refuse a bad cluster as a usage error.  The
# Sudoku puzzle is one the parent cannot count alone in its first seconds (before the
# kernel's first compile it tries that, and an easy puzzle never reaches the cluster).
JOINERS = {"nqueens": CASES["nqueens"],
           "sudoku": Case("parallel_backtrack.sudoku", ("-", "--count", "--json"), "count",
                          stdin=SUDOKU_LONG + "\n"),
           "tictactoe": Case("parallel_backtrack.games", ("tictactoe", "--json"), "games")}


def test_workers_without_the_package_are_named_before_any_task(tmp_path: Path) -> None:
    """A worker machine without the package is found when the command joins: exit 2 and
    one line saying what to install, not one failed task after another."""
    with start_cluster(tmp_path, env=_blocker(tmp_path), nworkers=1) as bare:
        runs = {name: finish(run_case(case, bare.address)) for name, case in JOINERS.items()}
    for name, (code, out, err) in runs.items():
        lines = err.strip().splitlines()
        assert code == 2 and out == "" and len(lines) == 1, (name, err[-800:])
        assert "cannot load parallel_backtrack" in lines[0], (name, lines[0])
        assert "not installed here" in lines[0] and "internal error" not in lines[0], lines[0]
        assert f"install version {parallel_backtrack.__version__} on every" in lines[0]


def test_a_stopped_worker_is_named_before_any_task(tmp_path: Path) -> None:
    """A worker whose process is paused (or hung, or cut off with its connection open)
    never answers: the command stops after the version check's time-out with one line,
    instead of waiting forever (or, with its tasks sent, for Dask's worker-ttl)."""
    from parallel_backtrack.engine.dask_executor import CHECK_SECONDS

    with start_cluster(tmp_path, nworkers=2) as cluster:
        paused = next(iter(cluster.worker_pids().values()))
        os.kill(paused, signal.SIGSTOP)
        try:
            started = time.monotonic()
            code, out, err = finish(run_case(CASES["nqueens"], cluster.address))
            took = time.monotonic() - started
        finally:
            os.kill(paused, signal.SIGCONT)
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1, err[-800:]
    assert f"did not all answer within {CHECK_SECONDS:g} s" in lines[0]
    assert CHECK_SECONDS <= took < CHECK_SECONDS + 30, took


@pytest.mark.parametrize("family", ["nqueens", "connect4", "sliding"])
def test_a_scheduler_gone_mid_run_ends_the_command_in_one_line(family: str,
                                                               tmp_path: Path) -> None:
    """Kill the scheduler while the command's tasks run (a count, alpha-beta, IDA*):
    once the client's reconnects give up the command exits 4 with one line naming the
    scheduler lost, and prints no answer and no traceback."""
    with start_cluster(tmp_path, nworkers=2) as doomed:
        pids = doomed.worker_pids()
        process = run_case(CASES[family], doomed.address, long=True, family=family)
        deadline = time.monotonic() + 120
        while (doomed.busy_worker(pids) is None and process.poll() is None
               and time.monotonic() < deadline):
            time.sleep(0.01)
        running = process.poll() is None
        doomed.processes[0].kill()  # the scheduler
        code, out, err = finish(process)
    lines = err.strip().splitlines()
    assert running and code == 4 and len(lines) == 1, (code, err[-800:])
    assert f"lost the Dask scheduler at {doomed.address}" in lines[0]
    assert "{" not in out  # no answer


def test_workers_that_join_mid_run_are_fed(tmp_path: Path) -> None:
    """A run that joined a cluster of one worker, which two more join a moment later
    (a cluster still starting, or scaled up): the run counts them and keeps all three
    busy, more tasks in flight than two (what one worker's run sends), and the count is
    n = 17's."""
    from parallel_backtrack.engine import count
    from parallel_backtrack.engine.dask_executor import DaskExecutor
    from parallel_backtrack.nqueens import ImmutableQueenLocations
    from parallel_backtrack.nqueens.space import QueensSpace

    with start_cluster(tmp_path, nworkers=1) as growing:
        executor = DaskExecutor(1, growing.address)
        assert executor.workers == 1
        peak, running = [0], [True]

        def watch() -> None:  # the most tasks the scheduler had on its workers at once
            while running[0]:
                busy = sum(len(tasks) for tasks in growing.client.processing().values())
                peak[0] = max(peak[0], busy)
                time.sleep(0.02)

        def grow() -> None:
            time.sleep(1.0)
            growing.add_workers(2, tmp_path / "more-workers.log")

        threads = [threading.Thread(target=watch), threading.Thread(target=grow)]
        for thread in threads:
            thread.start()
        try:
            report = count(QueensSpace(ImmutableQueenLocations(17)), executor=executor)
        finally:
            running[0] = False
            for thread in threads:
                thread.join()
            executor.close()
        used = {stats.worker for stats in report.worker_stats() if stats.tasks}
    assert report.count == 95_815_104 and report.complete
    assert executor.workers == 3, executor.workers
    assert peak[0] > 2, peak[0]
    assert len(used - {"parent"}) == 3, used


def test_a_scheduler_file_stands_for_its_address(cluster: Cluster) -> None:
    """``--scheduler-file`` with the file the scheduler wrote: the local answer; with
    ``--scheduler-address`` as well: a usage error."""
    written = cluster.folder / "scheduler.json"
    assert json.loads(written.read_text())["address"] == cluster.address
    for family in ("nqueens", "sliding"):
        case = CASES[family]
        done = subprocess.run([sys.executable, "-m", case.module, *case.argv,
                               "--scheduler-file", str(written)], input=case.stdin or "",
                              capture_output=True, text=True, cwd=ROOT, timeout=240)
        assert done.returncode == 0, done.stderr[-500:]
        assert case.answer(done.stdout) == KNOWN[family, False]
        check_solution(family, False, done.stdout)
    refused(["--scheduler-file", str(written), "--scheduler-address", cluster.address],
            "not allowed with argument --scheduler-file")


def test_a_worker_without_the_package_that_joins_mid_run_changes_no_answer(
        tmp_path: Path) -> None:
    """One that joins after the check leaves the cluster at its first task (Dask cannot
    unpickle it there), which runs elsewhere: the count is n = 17's."""
    from parallel_backtrack.engine import count
    from parallel_backtrack.engine.dask_executor import DaskExecutor
    from parallel_backtrack.nqueens import ImmutableQueenLocations
    from parallel_backtrack.nqueens.space import QueensSpace

    with start_cluster(tmp_path, nworkers=1) as cluster:
        executor = DaskExecutor(1, cluster.address)
        joined = threading.Timer(1.0, cluster.add_workers,
                                 (1, tmp_path / "bare.log", _blocker(tmp_path)))
        joined.start()
        try:
            report = count(QueensSpace(ImmutableQueenLocations(17)), executor=executor)
        finally:
            joined.join()
            executor.close()
        log = (tmp_path / "bare.log").read_text()
    assert report.count == 95_815_104 and report.complete
    assert "not installed here" in log  # it met a task, and could not load it


def test_a_count_goes_on_from_its_checkpoint_on_a_new_cluster(tmp_path: Path) -> None:
    """The scheduler killed under an N-Queens count with ``--checkpoint``: exit 4, and a
    note of what the file holds; the same command on a new cluster goes on from it and
    gives the whole count."""
    path = tmp_path / "q16.ckpt"
    (tmp_path / "first").mkdir()
    (tmp_path / "second").mkdir()
    case = Case("parallel_backtrack.nqueens", ("--n", "16", "--json", "--checkpoint",
                                               str(path), "--checkpoint-every", "0.1"),
                "count")
    with start_cluster(tmp_path / "first", nworkers=2) as doomed:
        process = run_case(case, doomed.address)
        deadline = time.monotonic() + 120
        while not path.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        running = process.poll() is None
        doomed.processes[0].kill()  # the scheduler
        code, out, err = finish(process)
    assert running and code == 4, (code, err[-800:])
    assert f"checkpoint {path} holds" in err and "lost the Dask scheduler" in err
    with start_cluster(tmp_path / "second", nworkers=2) as fresh:
        code, out, err = finish(run_case(case, fresh.address))
    assert code == 0, err[-800:]
    assert case.answer(out) == KNOWN["nqueens", True] and not path.exists()
    assert json.loads(out.splitlines()[-1])["resumed_from"] is not None
