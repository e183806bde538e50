"""Executors: stop flags, warming kernels, backends and their errors."""

import os

import pytest

from parallel_backtrack.engine import backends, make_executor, worker
from parallel_backtrack.engine import executors as ex


def test_stop_flag_is_a_file_that_appears_and_is_swept(monkeypatch):
    executor = make_executor(2, "threads")
    flag = executor.stop_flag()
    assert flag.path is not None and not flag.is_set()
    executor.raise_flag(flag)
    assert flag.is_set()
    executor.release()  # a fresh flag lingers for the tasks still running
    assert flag.is_set()
    monkeypatch.setattr(ex, "FLAG_LINGER", 0.0)
    executor.close()
    ex._sweep_flags(0.0)
    assert not os.path.exists(flag.path)


def test_serial_runs_need_no_flag():
    flag = make_executor(1).stop_flag()
    assert flag.path is None and not flag.is_set()


def test_warm_calls_each_hook_once_per_space():
    calls = []

    class Hooked:
        def root(self):
            return 0

        def count_below(self, state, budget):
            calls.append(("count", state, budget))

        def first_below(self, state, budget):
            calls.append(("first", state, budget))

    space = Hooked()
    assert worker.warm(space) is space and worker.warm(space) is space
    assert calls == [("count", 0, 1), ("first", 0, 1)]


def test_address_needs_the_dask_backend():
    with pytest.raises(ValueError, match="a scheduler address needs backend 'dask'"):
        make_executor(2, "threads", address="tcp://127.0.0.1:8786")


def test_threads_are_not_crashes():
    executor = make_executor(2, "threads")
    assert not executor.is_crash(RuntimeError("boom"))
    executor.close()


def test_warm_also_loads_the_kernels_of_a_count_s_symmetric_roots():
    calls = []

    class Symmetric:
        def root(self):
            return "root"

        def count_roots(self):
            return [("canonical", 1), ("other", 1)]

        def count_below(self, state, budget):
            calls.append(state)

    worker.warm(Symmetric())
    assert calls == ["root", "canonical"]  # every kernel loaded while Ctrl-C is held


def test_a_ctrl_c_held_while_kernels_load_is_raised_where_the_block_ends():
    import signal

    reached = []
    # Python's own handler (a test run started in the background inherits SIGINT ignored).
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            with worker.interrupts_held():
                os.kill(os.getpid(), signal.SIGINT)
                reached.append("held")
            reached.append("after")  # never: it is raised here, not at some later moment
        assert reached == ["held"]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_ctrl_c_held_under_an_ignoring_handler_stays_ignored():
    import signal

    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with worker.interrupts_held():
            os.kill(os.getpid(), signal.SIGINT)
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.mark.timeout(60)
def test_wait_any_reports_each_finished_future_once_from_the_queue():
    import threading
    import time

    executor = ex.ThreadExecutor(2)
    try:
        release = threading.Event()
        quick = executor.submit(lambda: 1)
        slow = executor.submit(lambda: release.wait(30) and 2)
        aside = executor.submit(lambda: 3)  # finished, but not asked about yet
        asked = {quick: 0, slow: 1}
        assert executor.wait_any(asked, timeout=5) == {quick}
        del asked[quick]
        started = time.perf_counter()
        assert executor.wait_any(asked, timeout=0.05) == set()  # only the slow one left
        assert time.perf_counter() - started >= 0.04
        threading.Timer(0.05, release.set).start()
        assert executor.wait_any(asked, timeout=5) == {slow} and slow.result() == 2
        assert executor.wait_any([aside], timeout=0) == {aside}  # kept until asked
        leftover = executor.submit(lambda: 4)
        leftover.result(timeout=5)
        executor.wait_any([slow], timeout=0.01)  # takes `leftover` off the queue, unasked
        executor.release()  # the end of a run forgets what nobody asked about
        assert executor.wait_any([leftover], timeout=0.01) == set()
    finally:
        release.set()
        executor.close()


def test_backends_come_from_a_registry_each_backend_module_fills():
    from parallel_backtrack.engine import BACKENDS, backend_names, register_backend

    assert BACKENDS == backend_names() == ("dask", "fork", "loky", "serial", "threads")
    made = []

    class Mine(ex.ThreadExecutor):
        name = "mine"

    def factory(workers, address=None):
        made.append((workers, address))
        return Mine(workers)

    register_backend("mine", factory, options=("address",))
    try:
        executor = make_executor(2, "mine", address="tcp://127.0.0.1:1")
        assert isinstance(executor, Mine) and made == [(2, "tcp://127.0.0.1:1")]
        executor.close()
        assert "mine" in backend_names()
    finally:
        del backends.REGISTRY["mine"]
    with pytest.raises(ValueError, match="unknown backend 'mine'"):
        make_executor(2, "mine")


def test_a_bad_registration_is_refused_when_made_not_when_used():
    """``register_backend('mine', 42)`` failed only at use; ``'loky'`` was replaced
    silently."""
    from parallel_backtrack.engine import register_backend

    with pytest.raises(TypeError, match=r"backend 'mine': the factory must be callable "
                                        r"as factory\(workers, \*\*options\) -> Executor, "
                                        r"got 42"):
        register_backend("mine", 42)
    with pytest.raises(TypeError, match="options must be a list of option names"):
        register_backend("mine", ex.ThreadExecutor, options="address")
    with pytest.raises(ValueError, match="a backend's name must be a non-empty string"):
        register_backend("", ex.ThreadExecutor)
    assert "mine" not in backends.REGISTRY
    loky = backends.REGISTRY["loky"] if "loky" in backends.REGISTRY else None
    with pytest.raises(ValueError, match="'loky' is a built-in backend; pass replace=True"):
        register_backend("loky", ex.ThreadExecutor)
    assert backends.backend_named("loky").factory is ex.LokyExecutor
    register_backend("loky", ex.ThreadExecutor, replace=True)
    try:
        executor = make_executor(2, "loky")
        assert isinstance(executor, ex.ThreadExecutor)
        executor.close()
    finally:
        backends.REGISTRY["loky"] = loky or backends.Backend(ex.LokyExecutor)
    assert backends.backend_named("loky").factory is ex.LokyExecutor


def test_an_option_no_backend_takes_is_refused():
    with pytest.raises(TypeError, match="unknown option 'colour'"):
        make_executor(2, "threads", colour="red")


def test_executors_state_what_they_need():
    serial, threads = make_executor(1), make_executor(2, "threads")
    try:
        assert serial.runs_inline and not threads.runs_inline
        assert not serial.handle_as_argument and not threads.handle_as_argument
    finally:
        threads.close()


@pytest.mark.timeout(60)
def test_the_scheduler_reads_capabilities_not_names():
    from parallel_backtrack.engine import count, sequential_count
    from parallel_backtrack.engine.examples import NoAdjacentOnes

    class Renamed(ex.ThreadExecutor):
        name = "serial"  # a pool, whatever it is called

    space = NoAdjacentOnes(18)
    report = count(space, executor=Renamed(2), budget=100)
    assert report.count == sequential_count(space).count
    assert report.frontier > 1  # cut for the pool, as any pool's run is
    assert report.dispatch_seconds > 0

    class Inline(ex.Executor):
        name = "threads"  # runs inline, whatever it is called

    report = count(space, executor=Inline(1), budget=100)
    assert report.count == sequential_count(space).count and report.frontier == 1
    assert report.dispatch_seconds == 0


def _sleep(seconds: float) -> float:
    import time

    time.sleep(seconds)
    return seconds


def _busy_loky_pool() -> ex.Executor:
    """A loky pool of 2 workers, each running a 30 s task."""
    executor = make_executor(2, "loky")
    futures = [executor.submit(_sleep, 30.0) for _ in range(2)]
    executor.wait_any(futures, timeout=0.5)  # the tasks are running
    return executor


@pytest.mark.timeout(60)
def test_a_killed_loky_pool_is_gone_when_close_returns():
    """close(kill=True) returns once loky has killed the workers and closed its queues:
    nothing of the run prints after it, and an exit right then leaks no semaphore."""
    import psutil

    executor = _busy_loky_pool()
    pids = executor.pids()
    manager = executor._pool._executor_manager_thread
    feeder = executor._pool._call_queue._thread
    assert len(pids) == 2 and manager.is_alive() and feeder.is_alive()
    executor.close(kill=True)
    assert not manager.is_alive() and not feeder.is_alive()
    assert not [pid for pid in pids if psutil.pid_exists(pid)
                and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]


def _length(blob: bytes) -> int:
    return len(blob)


@pytest.mark.timeout(60)
def test_a_killed_loky_pool_does_not_wait_on_a_full_task_pipe():
    """Tasks queued behind busy workers fill the pipe to them; once the workers are
    killed nothing reads it, and the thread feeding it must still end at once."""
    import time

    executor = _busy_loky_pool()
    for _ in range(6):
        executor.submit(_length, b"x" * 2_000_000)
    feeder = executor._pool._call_queue._thread
    time.sleep(0.3)  # the feeder is now blocked on the full pipe
    began = time.monotonic()
    executor.close(kill=True)
    assert time.monotonic() - began < ex.KILL_WAIT / 2
    assert not feeder.is_alive()


@pytest.mark.timeout(60)
def test_a_killed_loky_pool_leaves_cancelled_tasks_cancelled_without_a_traceback(caplog):
    """loky's shutdown fails every pending task with ``set_exception``; on a task this
    process cancelled that raised ``InvalidStateError`` in loky's manager thread, which
    printed its traceback (seen after a Ctrl-C of ``games connect4 --workers 2``)."""
    import psutil

    executor = _busy_loky_pool()
    pids = executor.pids()
    queued = [executor.submit(_length, b"x") for _ in range(8)]
    cancelled = [future for future in queued if future.cancel()]
    assert cancelled  # those behind the busy workers were still pending
    executor.close(kill=True)
    logged = [record.getMessage() for record in caplog.records if record.exc_info]
    assert not logged  # loky logs its crashed thread's traceback
    assert all(future.cancelled() for future in cancelled)
    assert not [pid for pid in pids if psutil.pid_exists(pid)
                and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]
