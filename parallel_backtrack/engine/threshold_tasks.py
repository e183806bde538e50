"""The tasks of one dispatched threshold iteration: ranges of the frontier on node budgets.

An iteration's frontier (``frontier.py``) is packed into contiguous ranges of subtrees
(``pack``).  Each task gets a node budget: ``SLACK`` times the nodes its range is
expected to take.  A task stops between two subtrees once its budget is spent and
hands back the range it did not start (the leftover); the parent queues that first
again, in pieces, so a task whose subtrees grew more than predicted is shared out
while other workers would idle.  A subtree is never interrupted by its budget: it is
either searched whole or handed back untouched, so node counts stay exact.

Glossary
--------
weight
    A subtree's expected size, relative (``Frontier.weights``); ``scale`` turns it
    into expected nodes: the larger of the plan's (the iteration's expected nodes over
    the frontier's weight) and the one measured on this iteration's finished tasks.
budget
    The nodes a task may generate before it starts no further subtree.
least
    The least weight worth a task of its own (what the parent can send while the
    workers end theirs); a leftover is cut into pieces no lighter than that, at most
    one per worker.
BudgetSpace
    A ``CutSpace`` whose ``search_part`` takes the budget as a fifth argument and
    ``asked``, a callable, as a sixth: once it returns True the task starts no
    further subtree, as when its budget is spent.  ``search_budgeted`` is the same
    for any other ``ThresholdSpace``.
ask
    A running task may be asked for its rest while workers idle (``handback``): it
    looks between two subtrees, having searched one at least, and hands back the
    ones it did not start, as a task over budget does; a space that can
    (``splits_subtrees``) also looks inside a subtree and hands back its open part
    (``Part.rest``).  ``AskAt`` is the ask the virtual pool's rerun meets at a node count.
piece
    Roots a task handed back of subtree ``index``, queued as ranges of their own
    (``Piece``); their nodes count to that subtree, and their solutions rank after the
    asked task's own and before the next subtree's (``solution_key``).
run_part
    What a task runs in a worker: the subtrees of one range, on its budget.
Iteration, Round
    The parent's side: one iteration's reduction (nodes, next bound, the winning
    solution), and one dispatched iteration (its frontier, ``Tasks``, the nodes each
    subtree took, the tasks running; ``threshold.py`` runs two at once, see "ahead").

Example: ``Tasks([1.0] * 8, [(0, 4), (4, 8)], 10.0, 2, 1.0).next()`` is
``(0, 4, 60)``: four subtrees expected at 10 nodes each, times 1.5.
"""

from __future__ import annotations

import math
import pickle
import time
from collections import deque
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import Any, Protocol

from .frontier import INFINITE, CutSpace, Frontier, Part, Rest, ThresholdSpace, pack
from .worker import unship

SLACK = 1.5  # a task's budget over its expected nodes
LEAST_BUDGET = 10_000


class BudgetSpace(Protocol):
    def search_part(self, part: Any, bound: float, complete: bool,
                    stop: Callable[[int], bool], budget: int | None = None,
                    asked: Callable[[int], bool] | None = None) -> Part: ...


def search_budgeted(space: ThresholdSpace, states: list[Any], bound: float, complete: bool,
                    stop: Callable[[int], bool], budget: int | None,
                    asked: Callable[[int], bool] | None = None) -> Part:
    """``search_part`` of any space: ``search_below`` each state in turn, starting no
    state once ``budget`` nodes are spent (None: no budget) or ``asked(nodes spent)``
    says so."""
    nodes: list[int] = []
    least, found, spent = INFINITE, None, 0
    for offset, state in enumerate(states):
        if (not complete and stop(0)) or (offset and (
                (budget is not None and spent >= budget) or (asked is not None and asked(spent)))):
            break
        result = space.search_below(state, bound, complete, stop)
        nodes.append(result.nodes)
        spent += result.nodes
        least = min(least, result.next_bound)
        if result.solution is not None and found is None:
            found = (offset, result.solution)
            if not complete:
                break
    return Part(nodes, least, found)


class Piece:
    """Open roots a task handed back of subtree ``index`` (``Rest``): ``key`` orders
    their solutions after that task's own and before the next subtree's."""

    __slots__ = ("index", "key", "rest")

    def __init__(self, index: int, key: tuple[int, ...], rest: Rest) -> None:
        self.index, self.key, self.rest = index, key, rest

    def solution_key(self, root: int) -> tuple[int, ...]:
        return (self.index, 1, *self.key, root)


class Tasks:
    """The queue of one iteration's ranges (of the frontier, or of a piece's roots),
    their budgets and the leftovers."""

    def __init__(self, weights: Sequence[float], ranges: list[tuple[int, int]],
                 scale: float, workers: int, least: float) -> None:
        self.weights = weights
        self.cumulative = [0.0, *accumulate(weights)]
        self.queue: deque[tuple[int, int, Piece | None]] = deque(
            (start, stop, None) for start, stop in ranges)
        self.prior, self.workers, self.least = scale, workers, least
        self.done_nodes, self.done_weight = 0, 0.0
        self.handed_back = 0

    def __bool__(self) -> bool:
        return bool(self.queue)

    def weight(self, start: int, stop: int) -> float:
        return self.cumulative[stop] - self.cumulative[start]

    def scale(self) -> float:
        """Expected nodes per unit of weight."""
        if self.done_weight > 0:
            return max(self.prior, self.done_nodes / self.done_weight)
        return self.prior

    def next(self) -> tuple[int, int, int | None, Piece | None]:
        """The next range to send, its budget (None for a piece's: asks split those)
        and its piece (None: the frontier's)."""
        start, stop, piece = self.queue.popleft()
        if piece is not None:
            return start, stop, None, piece
        expected = self.scale() * self.weight(start, stop)
        return start, stop, max(LEAST_BUDGET, math.ceil(SLACK * expected)), None

    def returned(self, start: int, stop: int, nodes: Sequence[int], solved: bool,
                 idle: int = 0, piece: Piece | None = None, rest: Rest | None = None
                 ) -> None:
        """A task on ``start..stop`` (of ``piece``'s roots, or of the frontier) searched
        ``len(nodes)`` subtrees, the last of them only up to ``rest`` when it was asked
        inside it; queue what is left first (unless ``solved``: a solution that ends
        the iteration, nothing is owed).  What a task asked while ``idle`` workers had
        nothing to do hands back goes out in a piece for each of them, whatever its
        weight: it ran longer than its weights said."""
        searched = start + len(nodes)
        if piece is None:  # a split subtree tells nothing of its weight
            whole = len(nodes) - (rest is not None)
            self.done_nodes += sum(nodes[:whole])
            self.done_weight += self.weight(start, start + whole)
        if solved:
            return
        items: list[tuple[int, int, Piece | None]] = []
        if rest is not None:
            key = () if piece is None else (*piece.key, searched - 1)
            split = Piece(searched - 1 if piece is None else piece.index, key, rest)
            count = min(len(rest), self.workers, max(1, idle))
            items += [(first, last, split) for first, last in pack(rest.weights, [1.0] * count)]
            idle = 0  # the idle workers are the rest's; what follows is a leftover
        if searched < stop:
            self.handed_back += 1
            weights = self.weights if piece is None else piece.rest.weights
            if idle > 0 or piece is not None:
                count = max(1, idle)
            else:
                count = max(1, int(self.weight(searched, stop) / max(self.least, 1e-12)))
            ranges = pack(weights[searched:stop], [1.0] * min(stop - searched, self.workers,
                                                               count))
            items += [(searched + first, searched + last, piece) for first, last in ranges]
        self.queue.extendleft(reversed(items))


class AskAt:
    """An ask a task meets once it has spent ``nodes``: how the virtual pool reruns an
    asked task (``threshold._Search._rerun``)."""

    __slots__ = ("nodes",)

    def __init__(self, nodes: int) -> None:
        self.nodes = nodes

    def __reduce__(self) -> tuple[Any, ...]:
        return (AskAt, (self.nodes,))

    def asked(self, spent: int = 0) -> bool:
        return spent >= self.nodes


def run_part(context: bytes, start: int, part: Any, bound: float, complete: bool,
             budget: int | None = None, ask: Any = None, handle: Any = None
             ) -> tuple[int, Part, float]:
    """A task: search the subtrees of ``part``; (their first index, Part, seconds).
    ``context``: the pickled (space handle, stop flag) of its round, made once.
    ``budget``: start no subtree once that many nodes are spent (``threshold_tasks``).
    ``ask``: the task's ``handback.Ask`` (or ``AskAt``), when it may be asked for its
    rest: ``ask.asked(nodes spent)``.
    ``handle``: the shipped space, when the pool sends it apart from the context (Dask)."""
    began = time.perf_counter()
    packed, flag = pickle.loads(context)
    space = unship(packed if handle is None else handle)
    found = search_range(space, flag, part, bound, complete, budget, ask)
    return start, found, time.perf_counter() - began


def search_range(space: Any, flag: Any, part: Any, bound: float, complete: bool,
                 budget: int | None = None, ask: Any = None) -> Part:
    """The search of one range's subtrees (``part``) in a worker, as ``run_part``'s."""

    def stop(nodes: int = 0) -> bool:
        return bool(flag.is_set())

    asked: Callable[[int], bool] | None = None if ask is None else ask.asked
    if cuts(space):
        budgeted: BudgetSpace = space  # type: ignore[assignment]
        return budgeted.search_part(part, bound, complete, stop, budget, asked)
    return search_budgeted(space, part, bound, complete, stop, budget, asked)


def rerun(arguments: tuple[Any, ...], share: float, result: tuple[int, Part, float],
          splits: bool) -> tuple[Any, ...] | None:
    """The call of a task (``run_part``'s ``arguments``, its stop last but the handle)
    as it would end, asked once ``share`` of its nodes were spent: it splits the
    subtree it is in (``splits``: the space can), or ends it; None when it would
    search the same subtrees anyway."""
    nodes = result[1].nodes
    asked_at = max(1, math.ceil(share * sum(nodes)))
    spent, searched = 0, 0
    while searched < len(nodes) and (searched == 0 or spent < asked_at):
        spent += nodes[searched]
        searched += 1
    if searched >= len(nodes) and not (splits and asked_at < sum(nodes)):
        return None
    return (run_part, *arguments[:6], AskAt(asked_at), *arguments[7:])


CUT_KINDS: dict[type, bool] = {}


def cuts(space: Any) -> bool:
    """Is ``space`` a CutSpace?  Asked once per type: a protocol's isinstance takes some
    40 us, which every task paid."""
    kind = type(space)
    if kind not in CUT_KINDS:
        CUT_KINDS[kind] = isinstance(space, CutSpace)
    return CUT_KINDS[kind]


class Iteration:
    """The reduction of one iteration: nodes, next bound, the solution that wins."""

    def __init__(self, complete: bool) -> None:
        self.complete = complete
        self.nodes = 0
        self.next_bound = INFINITE
        self.best: tuple[tuple[int, ...], Any] | None = None

    def add(self, key: tuple[int, ...], nodes: int, next_bound: float, solution: Any) -> None:
        self.nodes += nodes
        self.next_bound = min(self.next_bound, next_bound)
        if solution is not None and (self.best is None or (self.complete
                                                            and key < self.best[0])):
            self.best = (key, solution)

    def done(self) -> bool:
        return self.best is not None and not self.complete


class Round:
    """One dispatched iteration: its bound, reduction, frontier, task queue, the nodes
    each subtree took (-1: not back yet), the tasks running, and their stop flag and
    context (the pickled space handle and that flag)."""

    def __init__(self, bound: float, it: Iteration, frontier: Frontier, tasks: Tasks,
                 flag: Any = None, context: bytes = b"") -> None:
        self.bound, self.it, self.frontier, self.tasks = bound, it, frontier, tasks
        self.flag, self.context = flag, context  # its tasks' stop flag; what they unpickle
        self.taken = [-1] * len(frontier)
        self.running, self.busy = 0, 0.0
        self.spawned = False  # has it started the next iteration (``_Search._ahead_of``)?
        self.askable = False  # may its tasks be asked for their rest (``threshold.py``)?
        self.dropped = False  # started on a wrong guess of its bound: results ignored
        self.pulls: Any = None  # its ranges' list, when its workers pull them (``Pulls``)

    def unclaimed(self) -> int:
        """Ranges in its list that no pull has taken yet."""
        return 0 if self.pulls is None else self.pulls.unclaimed()

    def left(self) -> bool:
        """Has it ranges to send, tasks running or ranges no pull has taken yet?"""
        return bool(self.tasks) or self.running > 0 or self.unclaimed() > 0

    def sizes(self) -> list[float]:
        """Nodes per subtree: as taken, or as expected for those not back yet."""
        scale, weights = self.tasks.scale(), self.tasks.weights
        return [t if t >= 0 else w * scale for t, w in zip(self.taken, weights)]

    def estimate(self) -> float:
        """The iteration's nodes: those counted, and those expected of the rest."""
        scale, weights = self.tasks.scale(), self.tasks.weights
        return self.it.nodes + scale * sum(w for t, w in zip(self.taken, weights) if t < 0)
