"""Parallel alpha-beta on the engine: Young Brothers Wait with a shared window.

The parent expands the top ``split_depth`` plies as *split nodes* (the leftmost
path, whose eldest children every brother waits for, ``pv_depth`` plies).  At each split
node the eldest child is searched first; only when its value is known are the
younger brothers released, with the bound it gave.  Below the split plies each
child is a task (alpha-beta on a worker); released tasks wait in the parent,
leftmost (the sequential order) first, and go out as workers free up.  Every improved alpha goes
to the engine's shared bounds (``engine.window``): running tasks read it every
few hundred nodes and narrow their window, pending ones start from it.  A
cut-off at a split node cancels its remaining brothers.

Glossary
--------
chain
    ``[(slot, sign), ...]`` from the root to a task (``games.chain``).
task runner
    ``fn(game, state, chain, root_window, bounds[, variant]) -> (value, nodes,
    pv)``, run in a worker (the game shipped once, unpickled there by the
    engine's ``run_shipped``): ``search_task`` (generic alpha-beta on any Game)
    or a compiled one (Connect-Four).
hooks
    The game's optional methods (``game.BaseGame``): ``value_bounds(state)``
    answers a child whose bounds close its window without a task;
    ``record(state, value, alpha, beta)`` receives each split node's proved
    value (for a shared table).
helper
    With ``helpers=True`` (pools sharing this machine's files), a worker that would
    idle gets a twin of the leftmost running task: the same subtree and window in
    another move order (the runner's ``variant``, 1); the first to answer gives the
    value, the other is stopped through its own bound slot ("lazy SMP", useful with a
    shared table).  A twin gives way when a real task waits.
kind
    What a split node is expected to be (``chain.child_kind``: PV, CUT, ALL).  With
    ``by_kind``, a CUT node whose eldest did not cut sends its younger brothers
    ``cut_width`` at a time until ``cut_tries`` more failed, then all: sent at once,
    the brothers of the one that cuts are work thrown away.
speculative
    A worker that would idle takes the younger brothers of the leftmost split node
    still waiting for its eldest child (``speculate``); with ``by_kind``, ALL first.
heavy
    States whose task searched at least ``heavy_nodes`` nodes, a set kept across runs
    (the probes of one solve): met again, they are split rather than sent whole.
overhead
    Nodes searched in parallel (tasks plus split nodes) over the nodes of the
    sequential alpha-beta: the work YBW spends on brothers it cannot prune yet.

Example: ``parallel_alphabeta(RandomTree(6, 7, seed=1), workers=2).value ==
alphabeta(RandomTree(6, 7, seed=1), (0, 0)).value``.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from typing import Any

from ..engine.checks import check_int
from ..engine.executors import (
    Executor,
    OwnTime,
    check_pool,
    default_workers,
    pool_for_run,
    run_shipped,
)
from ..engine.window import UNBOUNDED, shared_bounds
from ..engine.worker import call_pickled, pickled
from .chain import ALL, CUT, ParallelResult, SplitNode, Task, chain_window, search_task, task_bounds
from .game import Game, check_game, hooks_of
from .search import check_depth, check_window
from .twins import Twins

MAX_SPLIT_NODES = 4096
# Tasks sent beyond one per worker: one waits in the pool so a worker that finishes
# starts the next at once, not after the round trip through the parent.
IN_FLIGHT_EXTRA = 1
# The eldest line (the leftmost path) is split this many plies deeper: its eldest
# children run alone (their brothers wait), so keeping them small keeps workers busy.
PV_EXTRA = 3
# From this many workers on, ``parallel_alphabeta`` speculates and searches ``by_kind``
# (random tree b=8 d=10, 64 simulated workers: 1.3x fewer nodes; docs/results.md).
SPECULATE_WORKERS = 8
CUT_WIDTH, CUT_TRIES = 2, 2
TaskRunner = Callable[..., tuple[int, int, list[Any]]]


class YoungBrothersWait(Twins):
    """One parallel alpha-beta run over ``game`` from ``state`` (see the module doc)."""

    def __init__(self, game: Game, executor: Executor, *, split_depth: int = 2,
                 pv_depth: int | None = None, runner: TaskRunner = search_task,
                 shipped: Any = None, fail_soft: bool = False, helpers: bool = False) -> None:
        check_int("split_depth", split_depth, low=1)
        check_depth("pv_depth", pv_depth)
        self.game, self.executor, self.split_depth, self.runner = (
            game, executor, split_depth, runner)
        self.fail_soft = fail_soft  # answer bounds beyond the window (as Pons' negamax)
        self.hooks = hooks_of(game)  # value_bounds and record (see the module doc)
        self.pv_depth = max(split_depth, split_depth + PV_EXTRA if pv_depth is None
                            else pv_depth)
        self.handle = shipped if shipped is not None else executor.ship(game)
        # A pool that ran a task before a raise it would have read times it again
        # (``Executor.renew``); not for runners that share a table, whose second run
        # would find the first one's entries.
        self.renewing = executor.renews and runner is search_task
        self.futures: dict[Any, Task] = {}
        self.helpers = helpers  # idle workers run twins (see the module doc)
        # Tasks wait here, leftmost (the sequential order) first, until a worker is
        # free: a cut-off then finds its brothers still unsent, not queued in the pool.
        self.ready: list[tuple[tuple[int, ...], SplitNode, Any, Any, int]] = []
        # States whose task searched at least ``heavy_nodes`` nodes (a set kept across
        # runs, e.g. the probes of one solve): split one ply deeper when met again.
        self.heavy: set[Any] | None = None
        self.heavy_nodes = 0
        # With ``speculative``, an idle worker takes the younger brothers of the leftmost
        # split node still waiting for its eldest child (``speculate``).
        self.speculative = False
        self.waiting: list[tuple[bool, tuple[int, ...], int, SplitNode]] = []
        # Tasks in flight on the pool: this run's, or those of every run sharing it.
        self.occupied: Callable[[], int] = lambda: len(self.futures)
        self.split_nodes = self.task_nodes = self.tasks = self.twins = self.sent = 0
        self.parent = 0.0  # its own seconds in ``run`` on the pool's clock, waits left out
        self.answer: tuple[int, Any, list[Any]] | None = None
        self.by_kind = False  # see ``kind`` and ``speculative``
        self.cut_width, self.cut_tries = CUT_WIDTH, CUT_TRIES
        self.launching: list[SplitNode] = []  # split nodes with children to start (``_drain``)
        self.draining = False

    def run(self, state: Any, alpha: int = -UNBOUNDED, beta: int = UNBOUNDED) -> ParallelResult:
        own = OwnTime(self.executor)
        self.start(state, alpha, beta)
        try:
            while self.answer is None:
                self.pump()
                self.speculate()
                if self.answer is None:
                    self.take(own.wait_any(self._need_futures()))
        finally:
            self.close()
            self.parent += own.update()
        return self.result()

    def start(self, state: Any, alpha: int = -UNBOUNDED, beta: int = UNBOUNDED) -> None:
        """Begin the run (``run`` drives it to its end; ``probes`` drives several)."""
        self.started = time.perf_counter()
        self.root_window = (alpha, beta)
        self.bounds = shared_bounds(self.executor, MAX_SPLIT_NODES)
        # Twins only where a twin can be stopped at once (the bounds in a shared file).
        self.twinning = self.helpers and self.executor.shares_files
        self.next_slot = 0
        if self.game.is_terminal(state):
            value = int(self.game.utility(state, self.game.to_move(state)))
            self.answer = (min(max(value, alpha), beta), None, [])
            self.split_nodes = 1
        else:
            self._launch(self._node(state, None, None, 1, ()))

    def close(self, stop: bool = False) -> None:
        """End the run: tasks left are not needed, pending ones go, running ones see
        their closed window (``stop``: the run is abandoned, its root window closed
        too).  Not after an error: the pool is then killed, and loky trips over
        futures cancelled just before."""
        try:
            if stop and self.next_slot > 0:
                self.bounds.raise_to(0, UNBOUNDED)  # slot 0: the root's alpha
            self.executor.cancel(list(self.futures))
        finally:
            self.futures.clear()
            self.ready.clear()
            self.waiting.clear()
            self.bounds.close()

    def result(self) -> ParallelResult:
        if self.answer is None:
            raise RuntimeError("the run has no answer yet")
        value, action, pv = self.answer
        alpha, beta = self.root_window
        exact = alpha < value < beta or (alpha <= -UNBOUNDED and beta >= UNBOUNDED)
        return ParallelResult(value, action, pv, self.split_nodes + self.task_nodes,
                              self.tasks, self.split_nodes,
                              time.perf_counter() - self.started,
                              self.executor.workers, self.twins,
                              self.parent / max(self.sent, 1), exact)

    def _node(self, state: Any, parent: SplitNode | None, action: Any, sign: int,
              path: tuple[int, ...]) -> SplitNode:
        """A split node for a state that is not terminal."""
        chain = (parent.chain if parent else []) + [(self._slot(), sign)]
        node = SplitNode(state, self.game.to_move(state), list(self.game.actions(state)), chain,
                     parent, action, sign, path)
        if parent is not None:
            parent.children.append(node)
        heapq.heappush(self.waiting, (self.by_kind and node.kind != ALL, path, node.slot, node))
        return node

    def _slot(self) -> int:
        """A fresh bound slot (a split node's alpha, or a task's stop switch)."""
        if self.next_slot >= MAX_SPLIT_NODES:
            raise ValueError(f"more than {MAX_SPLIT_NODES} split nodes and tasks: "
                             "lower split_depth")
        self.next_slot += 1
        return self.next_slot - 1

    def _depth(self, node: SplitNode) -> int:
        return len(node.chain)

    def _launch(self, node: SplitNode) -> None:
        """Start ``node``'s next children (``_drain``).  Called again while they start
        (a child that is a split node, or a leaf answered at once), it only stacks the
        node: the parent's stack stays a few frames deep however many split nodes and
        leaves it walks (a split depth that reaches the leaves walks them all)."""
        if not self.launching or self.launching[-1] is not node:
            self.launching.append(node)
        if not self.draining:
            self._drain()

    def _drain(self) -> None:
        """Launch children one at a time, the top of the stack first (a new split node
        starts its eldest before its parent's next child, a recursion's order); a node
        with nothing more to start now leaves the stack, finished if it has every
        answer."""
        self.draining = True
        try:
            while self.launching:
                node = self.launching[-1]
                if not node.dead and node.launched < self._stop(node):
                    action = node.actions[node.launched]
                    node.launched += 1
                    node.pending += 1
                    self._child(node, action, node.path + (node.launched - 1,))
                    continue
                self.launching.pop()
                if not node.dead and node.pending == 0 and node.launched == len(node.actions):
                    self._finish(node)
        finally:
            self.draining = False
            self.launching.clear()  # empty, unless an error abandons the run

    def _stop(self, node: SplitNode) -> int:
        """How many of ``node``'s children may have started: the eldest alone, or the
        younger brothers too (at a node expected to cut, ``cut_width`` at a time while
        it may still cut)."""
        stop = 1 if not node.eldest_done else len(node.actions)
        if self.by_kind and node.eldest_done and node.kind == CUT \
                and node.answered <= self.cut_tries:
            stop = min(stop, node.launched + max(0, self.cut_width - node.pending))
        return stop

    def _child(self, node: SplitNode, action: Any, path: tuple[int, ...]) -> None:
        state = self.game.result(node.state, action)
        self.split_nodes += 1
        if self.game.is_terminal(state):
            self._deliver(node, action, int(self.game.utility(state, node.mover)), [])
            return
        sign = 1 if self.game.to_move(state) == node.mover else -1
        known = self._bounded(state, node, sign)
        if known is not None:
            self._deliver(node, action, sign * known, [])
            return
        eldest_line = node.eldest_line and action == node.actions[0]
        deeper = (self.heavy is not None and state in self.heavy
                  and self.next_slot < MAX_SPLIT_NODES // 2)
        if deeper or self._depth(node) < (self.pv_depth if eldest_line else self.split_depth):
            child = self._node(state, node, action, sign, path)
            child.eldest_line = eldest_line
            self._launch(child)
            return
        heapq.heappush(self.ready, (path, node, action, state, sign))

    def _bounded(self, state: Any, node: SplitNode, sign: int) -> int | None:
        """A value for ``state`` without searching it, when the game's optional
        ``value_bounds(state) -> (low, high)`` (bounds on its value for its player to
        move) close the window it would be searched in; else None."""
        known = self.hooks.value_bounds(state)
        if known is None:
            return None
        low, high = known
        alpha, beta = chain_window(node.chain + [(-1, sign)], self.root_window, self.bounds)
        if high <= alpha:
            return high  # an upper bound (the node clamps it, unless fail-soft)
        if low >= beta:
            return low
        return None

    def pump(self) -> None:
        """Send the leftmost waiting tasks while a worker is free (a task of a split
        node answered meanwhile is dropped)."""
        while self.ready and self.answer is None:
            # A real task never queues behind a twin: the twin gives way first.
            if self.occupied() >= self.executor.workers and self._yield_twin():
                continue
            if self.occupied() >= self.executor.workers + IN_FLIGHT_EXTRA:
                break
            path, node, action, state, sign = heapq.heappop(self.ready)
            if not node.dead:
                self._submit(Task(node, action, sign, state, path))
        if self.twinning and not self.ready and self.answer is None:
            while self.occupied() < self.executor.workers and self._twin():
                pass

    def speculate(self) -> None:
        """While a worker idles and no task waits: release the younger brothers of the
        leftmost split node still waiting for its eldest child, before its value is
        known (as if the node needed every child; a cut-off still cancels them).
        With ``by_kind``, nodes expected to need every child (ALL) go first: there,
        brothers sent early are rarely wasted."""
        while (self.speculative and self.answer is None and not self.ready
               and self.waiting and self.occupied() < self.executor.workers):
            _, _, _, node = heapq.heappop(self.waiting)
            if not node.dead and not node.eldest_done:
                node.eldest_done = True
                self._launch(node)
                self.pump()

    def _submit(self, task: Task) -> None:
        slot = self._slot() if self.twinning else -1
        task.chain = task.node.chain + [(slot, task.sign)]
        if self.renewing:
            task.window = chain_window(task.chain, self.root_window, self.bounds)
        future = self.executor.submit(*self._args(task))
        self.sent += 1
        task.future = future
        self.futures[future] = task
        task.node.futures.add(future)

    def _args(self, task: Task) -> tuple[Any, ...]:
        """What ``executor.submit`` takes to run ``task`` with the latest bounds."""
        chain, bounds = task_bounds(task.chain, self.bounds)
        args: tuple[Any, ...] = (self.runner, self.handle, task.state, chain,
                                 self.root_window, bounds)
        if task.variant:
            args = (*args, task.variant)
        if self.executor.handle_as_argument:  # Dask swaps the handle only out here
            return (run_shipped, *args)
        return call_pickled, pickled((run_shipped, args))

    def _drop(self, task: Task) -> None:
        """Forget a running task and close its window (it stops at its next look)."""
        self.futures.pop(task.future, None)
        task.node.futures.discard(task.future)
        self.executor.cancel([task.future])
        slot = task.chain[-1][0]
        if slot >= 0:
            self.bounds.raise_to(slot, UNBOUNDED)

    def _need_futures(self) -> list[Any]:
        if not self.futures:
            raise RuntimeError("no task in flight and no answer (a bug)")
        return list(self.futures)

    def take(self, done: Any) -> None:
        """Take the finished futures of this run (others are ignored)."""
        for future in done:
            task = self.futures.pop(future, None)
            if task is None:  # not this run's, or dropped (``_drop``)
                continue
            node = task.node
            node.futures.discard(future)
            try:
                value, nodes, pv = self.executor.result(future)
            except Exception as error:  # a task lost with its worker runs again
                if not self.executor.lost_alone(error):
                    raise
                self._submit(task)
                continue
            self.task_nodes += nodes
            self.tasks += 1
            if self.heavy is not None and nodes >= self.heavy_nodes:
                self.heavy.add(task.state)
            if task.twin is not None:  # the first of two twins answers for both
                self._drop(task.twin)
            if not node.dead:
                self._deliver(node, task.action, task.sign * value, pv)

    def _deliver(self, node: SplitNode, action: Any, value: int, pv: list[Any]) -> None:
        """A child's value (for ``node``'s player) arrived."""
        node.pending -= 1
        if value > node.best:
            node.best, node.best_action, node.pv = value, action, [action, *pv]
        if self.bounds.raise_to(node.slot, value):
            self._sweep(node)
        if node.dead:
            return
        node.answered += 1
        node.eldest_done = True
        self._launch(node)  # its next children; finished there once all have answered

    def _sweep(self, top: SplitNode) -> None:
        """Cut every live split node at or below ``top`` whose window closed."""
        stack = [top]
        while stack:
            node = stack.pop()
            if node.dead:
                continue
            alpha, beta = chain_window(node.chain, self.root_window, self.bounds)
            if alpha >= beta:
                self._finish(node)
            else:
                stack.extend(node.children)
                if self.renewing:
                    self._renew(node)

    def _renew(self, node: SplitNode) -> None:
        """Tell a pool that ran ``node``'s tasks before this raise (the virtual one)
        the windows they would see now (``Executor.renew``)."""
        for future in list(node.futures):
            task = self.futures.get(future)
            if task is None:
                continue
            window = chain_window(task.chain, self.root_window, self.bounds)
            if window != task.window:
                task.window = window
                self.executor.renew(future, *self._args(task))

    def _finish(self, node: SplitNode) -> None:
        if node.dead:
            return
        alpha, beta = chain_window(node.chain, self.root_window, self.bounds)
        value = min(max(node.best, alpha), beta)
        complete = node.pending == 0 and node.launched == len(node.actions)
        if node.best >= beta or (complete and alpha < beta):  # proved by its own children
            if self.fail_soft:
                value = node.best
            self.hooks.record(node.state, node.best, alpha, beta)
        self._kill(node)
        if node.parent is None:
            self.answer = (value, node.best_action, node.pv)
        elif not node.parent.dead:
            self._deliver(node.parent, node.action, node.sign * value, node.pv)

    def _kill(self, node: SplitNode) -> None:
        """``node`` is answered: its remaining subtrees are not needed."""
        stack = [node]
        while stack:
            below = stack.pop()
            below.dead = True
            for future in list(below.futures):
                task = self.futures.get(future)
                if task is not None:
                    self._drop(task)
            below.futures.clear()
            stack.extend(below.children)


def parallel_alphabeta(game: Game, state: Any = None, *, workers: int | None = None,
                       backend: str | None = None, split_depth: int = 2,
                       pv_depth: int | None = None,
                       alpha: int = -UNBOUNDED, beta: int = UNBOUNDED,
                       executor: Executor | None = None, speculative: bool | None = None,
                       **pool_options: Any) -> ParallelResult:
    """Young Brothers Wait alpha-beta from ``state`` (None: ``game.initial``); the
    value equals the sequential alpha-beta's.  ``executor``: a pool to borrow (else
    one is made from ``workers`` (None: 2), ``backend`` and ``pool_options``, e.g.
    ``address`` for Dask, and closed at the end; with ``executor`` a ``workers`` other
    than its own, a ``backend`` other than its name or a pool option is a
    ValueError).  ``speculative``: idle workers take younger brothers early, and the
    search goes ``by_kind`` (None: both from ``SPECULATE_WORKERS`` workers on).

    ``split_depth`` (an integer >= 1): the plies the parent splits (it may reach the
    leaves: a split node's leaf children are evaluated in the parent; a run that needs
    more than ``MAX_SPLIT_NODES`` split nodes raises ValueError); ``pv_depth`` (None:
    ``split_depth + PV_EXTRA``, else an integer >= 0, at least ``split_depth`` in
    effect): the plies split along the eldest line; ``alpha < beta``: the window
    (numbers, default unbounded), as ``alphabeta``'s.  Every argument is checked
    before a pool is made (TypeError / ValueError).  Returns a ``ParallelResult``
    (fail-hard: ``exact`` False when the value is a bound, at most ``alpha`` or at
    least ``beta``)."""
    check_game(game, initial=state is None)
    workers = default_workers(workers, executor, 2)
    check_pool(executor, backend, None)
    check_int("split_depth", split_depth, low=1)
    check_depth("pv_depth", pv_depth)
    check_window(alpha, beta)
    if speculative is not None and not isinstance(speculative, bool):
        raise TypeError(f"speculative must be True, False or None, got {speculative!r}")
    state = game.initial if state is None else state
    # pool_for_run refuses what a borrowed executor would ignore, before any work
    with pool_for_run(executor, workers, backend, **pool_options) as pool:
        search = YoungBrothersWait(game, pool, split_depth=split_depth, pv_depth=pv_depth)
        search.speculative = (pool.workers >= SPECULATE_WORKERS if speculative is None
                              else speculative)
        search.by_kind = search.speculative
        return search.run(state, alpha, beta)
