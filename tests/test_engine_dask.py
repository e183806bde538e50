"""The Dask backend on a real LocalCluster on loopback: the same answers as local runs."""

import json

import pytest

import parallel_backtrack
from parallel_backtrack.engine import (
    ClusterRefusedError,
    count,
    make_executor,
    scheduler,
    sequential_count,
    sequential_solutions,
    solutions,
    solve,
)
from parallel_backtrack.engine.dask_executor import (
    QUIET_HTTP,
    check_address,
    package_version,
    version_mismatch,
    version_note,
)
from parallel_backtrack.engine.examples import NoAdjacentOnes, SubsetSum
from parallel_backtrack.nqueens.__main__ import main

distributed = pytest.importorskip("distributed")
psutil = pytest.importorskip("psutil")

pytestmark = [pytest.mark.dask, pytest.mark.timeout(180)]


@pytest.fixture(autouse=True)
def no_probe(monkeypatch):
    # Otherwise the parent searches these small trees itself while the cluster warms.
    monkeypatch.setattr(scheduler, "PROBE_BUDGETS", 0)


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=40,
                                  scheduler_kwargs=QUIET_HTTP) as running:
        yield running


def test_joined_cluster_gives_the_local_answers(cluster):
    address = cluster.scheduler_address
    space = SubsetSum(tuple(range(1, 17)), 40)
    report = count(space, backend="dask", address=address, budget=200, per_worker=5)
    assert report.count == sequential_count(space).count
    assert report.backend == "dask" and report.workers == 2
    assert any(w != "parent" for w in report.task_workers)
    stream = SubsetSum(tuple(range(1, 12)), 20)
    found = solutions(stream, address=address, budget=30, per_worker=3)  # dask implied
    assert list(found) == sequential_solutions(stream) and found.report.backend == "dask"
    hit = solve(SubsetSum(tuple(range(2, 40, 3)), 61), backend="dask", address=address,
                budget=20)
    assert sum(hit.solution[2] and [2 + 3 * i for i in hit.solution[2]]) == 61
    # Joining never closes the cluster it joined.
    assert cluster.status.name == "running"


def test_cli_scheduler_address_runs_on_the_cluster(cluster, capsys):
    assert main(["--n", "10", "--scheduler-address", cluster.scheduler_address,
                 "--budget", "20000", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["count"] == 724 and payload["backend"] == "dask"


def test_private_local_cluster_starts_and_is_closed():
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    report = count(NoAdjacentOnes(18), workers=2, backend="dask", budget=300)
    assert report.count == 6765 and report.backend == "dask"
    assert any(w != "parent" for w in report.task_workers)
    left = [p for p in psutil.Process().children(recursive=True) if p.pid not in before]
    gone, alive = psutil.wait_procs(left, timeout=10)
    assert not alive


def test_bad_addresses_are_named():
    with pytest.raises(ValueError, match="scheduler address must look like tcp://HOST:PORT"):
        make_executor(1, "dask", address="tcp://a b")
    with pytest.raises(ValueError, match="scheduler address must look like tcp://HOST:PORT"):
        check_address("tcp://[::1:8786")
    # An IPv6 host is bracketed, as Dask writes it.
    assert check_address("tcp://[::1]:8786") == "tcp://[::1]:8786"
    assert check_address("tcp://[fe80::1]") == "tcp://[fe80::1]"
    with pytest.raises(ValueError, match="needs backend 'dask', got backend 'loky'"):
        count(NoAdjacentOnes(3), workers=2, backend="loky", address="tcp://127.0.0.1:1")
    # An address with no backend named means Dask (it was refused as for 'serial').
    with pytest.raises(ValueError, match="scheduler address must look like tcp://HOST:PORT"):
        count(NoAdjacentOnes(3), address="tcp://a b")
    executor = make_executor(2, "threads")
    try:
        with pytest.raises(ValueError, match="pass executor or address, not both"):
            count(NoAdjacentOnes(3), executor=executor, address="tcp://127.0.0.1:1")
    finally:
        executor.close()


def test_a_future_the_cluster_cancelled_is_done_and_a_crash(cluster):
    """Dask's ``wait`` raises when a future it waits on was cancelled (a worker died and
    the scheduler forgot its key): ``wait_any`` returns it as done instead, and its
    error counts as a crash (sent again) unless this executor cancelled it itself."""
    import time

    executor = make_executor(2, "dask", address=cluster.scheduler_address)
    try:
        theirs = executor.submit(time.sleep, 30)
        ours = executor.submit(time.sleep, 30)
        executor.client.cancel([theirs])  # as the cluster does with a lost task
        executor.cancel([ours])
        done = executor.wait_any([theirs, ours], timeout=10)
        assert done == {theirs, ours}
        errors = {}
        for future in done:
            with pytest.raises(Exception) as caught:
                future.result()
            errors[future.key] = executor.is_crash(caught.value)
        assert errors == {theirs.key: True, ours.key: False}
    finally:
        executor.close()


def test_workers_of_another_version_are_named():
    assert version_mismatch({"tcp://a:1": "0.1.0", "tcp://b:1": "0.1.0"}, "0.1.0") is None
    found = {"tcp://a:1": "0.1.0", "tcp://b:1": "0.0.9", "tcp://c:1": "0.0.8"}
    assert version_mismatch(found, "0.1.0") == ("parallel_backtrack 0.0.8, 0.0.9 "
                                                "(2 of 3 workers)")
    assert version_mismatch({"tcp://a:1": "0.2"}, "0.1.0") == ("parallel_backtrack 0.2 "
                                                                "(1 of 1 worker)")
    assert package_version() == parallel_backtrack.__version__


def test_dask_s_table_of_other_versions_is_one_line():
    """Workers on another Python: Dask's warning (a table of many lines) said in one."""
    from distributed.versions import error_message

    here = {"packages": {"python": "3.11.7.final.0", "numpy": "2.4.6", "dask": "1"}}
    there = {"packages": {"python": "3.12.1.final.0", "numpy": "2.5.5", "dask": "1"}}
    table = error_message(here, {"tcp://w:1": there}, here)["warning"]
    assert len(table.splitlines()) > 3
    line = version_note(table, "tcp://a:8786")
    assert "\n" not in line and line.startswith("the Dask cluster at tcp://a:8786 runs "
                                                 "other versions (numpy 2.4.6 here, 2.4.6 on "
                                                 "the scheduler, 2.5.5 on the workers; python "
                                                 "3.11.7.final.0 here"), line
    assert "3.12.1.final.0 on the workers" in line and "dask" not in line.split(";")[0]


def test_a_joined_cluster_checks_its_workers_version(cluster, monkeypatch):
    """The command's version against the workers' (here the command pretends to be
    another): the cluster is left at once, with a one-line error."""
    monkeypatch.setattr(parallel_backtrack, "__version__", "0.0.0-other")
    with pytest.raises(ClusterRefusedError, match=r"run parallel_backtrack \S+ \(2 of 2 workers\), "
                       r"this command parallel_backtrack 0\.0\.0-other; install the same"):
        make_executor(2, "dask", address=cluster.scheduler_address)


def test_a_lost_scheduler_is_named_and_a_wait_time_out_is_not():
    from distributed.comm.core import CommClosedError

    from parallel_backtrack.engine import PoolLostError
    from parallel_backtrack.engine.dask_executor import DaskExecutor

    executor = DaskExecutor(1)  # nothing started until its client is used
    closed = CommClosedError("in <TCP (closed) ConnectionPool.scatter local=tcp://"
                             "127.0.0.1:1 remote=tcp://127.0.0.1:2>: ConnectionResetError: "
                             "[Errno 104] Connection reset by peer")
    with pytest.raises(PoolLostError, match=r"^lost the Dask scheduler at the private "
                       r"cluster in the middle of the run \(ConnectionResetError: \[Errno "
                       r"104\] Connection reset by peer\); the run stopped$"):
        with executor._talking():
            raise closed
    with pytest.raises(TimeoutError):
        with executor._talking():
            raise TimeoutError("a wait's own")
    executor.close()


def test_a_scheduler_lost_while_a_result_is_fetched_is_named():
    # A finished task's result comes through the scheduler: losing it then (between
    # wait_any and result) ends the run as PoolLostError, not as a raw OSError that a
    # command line would call a usage error; a task's own OSError stays what it is.
    from distributed.comm.core import CommClosedError

    from parallel_backtrack.engine import PoolLostError
    from parallel_backtrack.engine.dask_executor import DaskExecutor

    class Fetched:
        def __init__(self, status, error):
            self.status, self.error = status, error

        def result(self):
            raise self.error

    executor = DaskExecutor(1)  # nothing started until its client is used
    closed = CommClosedError("in <TCP (closed) ConnectionPool.gather local=tcp://"
                             "127.0.0.1:1 remote=tcp://127.0.0.1:2>: ConnectionResetError: "
                             "[Errno 104] Connection reset by peer")
    with pytest.raises(PoolLostError, match=r"^lost the Dask scheduler at the private "
                       r"cluster in the middle of the run \(ConnectionResetError: "):
        executor.result(Fetched("finished", closed))
    with pytest.raises(FileNotFoundError):
        executor.result(Fetched("error", FileNotFoundError("the task's own")))
    executor.close()


def test_dask_and_its_event_loop_log_no_traceback_in_a_command(caplog):
    # A Ctrl-C at the start of one of Dask's calls makes its cancel callback fail
    # (NameError in distributed.utils.sync), which tornado logs with a traceback.
    import logging

    from parallel_backtrack import _cli

    names = ["distributed", "distributed.client", "tornado", "tornado.application"]
    levels = {name: logging.getLogger(name).level for name in names}
    try:
        _cli.quiet_dask_logs()
        with caplog.at_level(logging.DEBUG):
            try:
                raise NameError("cannot access free variable 'future'")
            except NameError:
                logging.getLogger("tornado.application").exception("Exception in callback")
            logging.getLogger("distributed.client").error("reconnecting")
        assert caplog.records == []
    finally:
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)
