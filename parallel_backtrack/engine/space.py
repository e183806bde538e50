"""The Space protocol and the plain sequential depth-first search over it.

A *space* describes a search tree; the engine knows nothing else about a problem.

Glossary
--------
state
    An immutable, cheaply pickled node of the tree (a queen placement, a puzzle).
branch(state)
    The children of ``state`` in search order.  A state with no children that is
    not a solution is a dead end.
weight
    How many solutions one solution below a root stands for.  Usually 1; a space
    that exploits symmetry hands out weighted roots (``count_roots``), e.g. the
    N-Queens root split into half the first row with weight 2.
subtree
    A ``(state, weight)`` pair: everything below ``state``, counted ``weight`` times.
nodes
    States visited.  Every state taken off the stack counts once, the root included.

Example: ``sequential_count(space)`` walks the whole tree depth-first and returns
``Tally(count=92, nodes=2057)`` for 8-queens with the first-available-row order.

Fast hooks (optional; declared by ``FastSpace``, called through ``hooks.of``)
------------------------------------------------------------------------------
``count_roots() -> list[tuple[State, int]] | None``
    Weighted roots whose weighted counts add up to the count below ``root()``.
``count_below(state, budget) -> Explored | None``
    Count the solutions below one state with a compiled kernel, visiting at most
    about ``budget`` nodes; the unexplored rest comes back as ``leftover`` states.
    ``None`` means "not for this state": the generic search takes over.
``first_below(state, budget) -> Explored | None``
    The same, stopping at the first solution (in ``solutions``).
``count_many(states, budget, watch) -> tuple[Explored, int] | None``
    ``count_below`` of each of ``states`` in turn, in one call within about
    ``budget`` nodes: the ``Explored`` (its leftover the open rest of the last
    state begun) and how many states were begun; those after it were not touched.
    A task of many small subtrees then costs one call, not one per subtree.
    ``watch`` is None or ``(values, slot, ticket)``, ``values`` an ``int64`` numpy
    array another process may raise: stop as on the budget once ``values[slot] >=
    ticket``, looked at every ``handback.LOOK_EVERY`` nodes at most, after the
    first node (a task asked for its rest: ``engine.handback``).
``branch_all(states) -> list[list[State]] | None``
    ``list(branch(state))`` for every state, in one call (a compiled kernel): the
    parent cuts a tree a level at a time with it.  ``None``: branch one by one.
``size_hints(states) -> Sequence[float] | None``
    The expected sizes of the subtrees below ``states``, relative to one another
    (any positive scale), computed cheaply (some microseconds a state): an
    unordered reduction dispatches the cut's biggest subtrees first and packs
    tasks by these sizes (``engine.pending``).  ``None``: no estimate.
``node_budget -> int | None``
    A property: the nodes one task should visit (the cost of a node varies by
    space); None: the engine's default.

Every default means "not offered" (None), so a hook the space leaves out is the
same as one that declines; a space may subclass ``FastSpace`` or simply define
some of these methods (``hooks.of`` gives either the same face).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from .arguments import check_limit, check_space

State = TypeVar("State")
# Asking a clock or a flag costs about a microsecond; a generic node costs several.
UNTIL_EVERY = 256


@runtime_checkable
class Space(Protocol[State]):
    """A search tree: a root, children in search order, and a solution test."""

    def root(self) -> State: ...

    def branch(self, state: State) -> Iterable[State]: ...

    def is_solution(self, state: State) -> bool: ...


class FastSpace(Generic[State]):
    """The optional fast hooks of a space, each with a default that means "not
    offered" (aima's Problem declares its optional methods the same way).

    Subclass it next to the ``Space`` methods and override the hooks a compiled
    kernel backs; the engine calls them only through ``hooks.of(space)``, which
    gives a space that does not subclass this class the same face.  The generic
    path and a hook must give the same answers.
    """

    __slots__ = ()  # subclasses that are slotted dataclasses stay slotted

    def count_roots(self) -> Sequence[tuple[State, int]] | None:
        """Weighted roots for counting (symmetry), or None: just ``(root(), 1)``."""
        return None

    def count_below(self, state: State, budget: int) -> Explored | None:
        """Count below ``state`` within about ``budget`` nodes, or None: not here."""
        return None

    def first_below(self, state: State, budget: int) -> Explored | None:
        """Find the first solution below ``state`` within about ``budget`` nodes, or
        None: not here."""
        return None

    def count_many(self, states: Sequence[State], budget: int,
                   watch: tuple[Any, int, int] | None = None) -> tuple[Explored, int] | None:
        """Count below each of ``states`` in turn within about ``budget`` nodes, and
        stop early once ``watch`` is raised: what was found (its leftover the open
        rest of the last state begun) and how many states were begun; or None: not
        here."""
        return None

    def branch_all(self, states: Sequence[State]) -> Sequence[Sequence[State]] | None:
        """``list(branch(state))`` for each of ``states`` in one call, or None."""
        return None

    def size_hints(self, states: Sequence[State]) -> Sequence[float] | None:
        """Expected subtree sizes below ``states``, relative, or None: no estimate."""
        return None

    @property
    def node_budget(self) -> int | None:
        """The nodes a task should visit before it hands back its rest (None: the
        engine's default)."""
        return None


@dataclass(frozen=True, slots=True)
class Explored:
    """What one bounded depth-first run below some roots found.

    ``leftover`` holds the roots of the unexplored rest, in search order, when
    the node budget ran out (empty when the run finished).
    """

    count: int
    nodes: int
    solutions: tuple[Any, ...] = ()
    leftover: tuple[Any, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Tally:
    """A finished sequential count."""

    count: int
    nodes: int


def depth_first(space: Space[State], start: State) -> Iterator[State]:
    """Yield every state below ``start`` (itself included) in depth-first order."""
    stack = [start]
    while stack:
        state = stack.pop()
        yield state
        stack.extend(reversed(list(space.branch(state))))


def sequential_count(space: Space[State]) -> Tally:
    """Count every solution with the plain generic search: the reference answer,
    ``Tally(count, nodes)``.  ``space``: an object with ``root()``, ``branch(state)``
    and ``is_solution(state)`` (TypeError otherwise)."""
    check_space(space)
    count = nodes = 0
    for state in depth_first(space, space.root()):
        nodes += 1
        if space.is_solution(state):
            count += 1
    return Tally(count, nodes)


def sequential_solutions(space: Space[State], limit: int | None = None) -> list[State]:
    """The first ``limit`` solutions (an integer >= 0; all when None) in depth-first
    order, as a list: the reference answer of ``solutions``."""
    check_space(space)
    limit = check_limit(limit)
    found: list[State] = []
    if limit == 0:
        return found
    for state in depth_first(space, space.root()):
        if space.is_solution(state):
            found.append(state)
            if limit is not None and len(found) >= limit:
                break
    return found


def explore(
    space: Space[State],
    roots: Iterable[State],
    *,
    budget: int | None = None,
    stop_after: int | None = None,
    keep: bool = False,
    until: Callable[[], bool] | None = None,
) -> Explored:
    """Bounded depth-first search below ``roots`` (in order), generic path.

    Stops when ``budget`` nodes have been visited, ``stop_after`` solutions
    found or ``until()`` says so (asked every ``UNTIL_EVERY`` nodes: a deadline
    or a shared stop flag); whatever is still on the stack comes back as
    ``leftover`` (in search order).  With ``keep`` the solutions themselves are
    returned, otherwise only counted.
    """
    stack = list(roots)
    stack.reverse()
    count = nodes = 0
    found: list[State] = []
    while stack:
        if budget is not None and nodes >= budget:
            break
        if stop_after is not None and count >= stop_after:
            break
        if until is not None and nodes % UNTIL_EVERY == 0 and nodes and until():
            break
        state = stack.pop()
        nodes += 1
        if space.is_solution(state):
            count += 1
            if keep:
                found.append(state)
        stack.extend(reversed(list(space.branch(state))))
    stack.reverse()
    return Explored(count, nodes, tuple(found), tuple(stack))
