"""Pulled threshold iterations: an iteration's ranges in a file its workers take from.

On a wide pool the parent's sends bound a threshold search as they bound a count
(``pull.py``): at 256 workers an iteration that needs every worker is 256 tasks and
more, sent one after another at 50-100 us each, and its first wave alone is longer
than the work a worker gets of it.  Pulled, the parent sends one task a worker, a
*pull*, which carries the first range of its wave and then claims the next ranges of
the iteration from a list (``pull.PullList``), each with its node budget, until none
is left.

Glossary
--------
piece
    One range of the iteration's frontier as the parent packed it (``Tasks``): its
    first and last subtree, its budget, and (in the list) its subtrees' payload
    (``Frontier.part``).
end
    A pull hands its results back after a piece that handed subtrees back (its budget
    ran out, or the stop flag rose) or found a solution that ends the iteration: the
    parent shares the leftover out, or stops the round; the other pulls go on.
result
    The pieces a pull ran, each ``(index, run_part's result)``, in the order it ran
    them: the parent takes each in as a task of that range (``threshold._Search``).

Example: ``PartPull(arguments)`` in a worker; ``pull.drive(...)`` runs it.
"""

from __future__ import annotations

import pickle
import time
from typing import Any, cast

from .frontier import Part
from .pull import drive
from .threshold_tasks import search_range
from .worker import unship


class PartPull:
    """A threshold iteration's pull (``pull.Puller``), from its arguments ``(context,
    path, pull, first, bound, complete, cap)``: ``context`` the round's pickled (space
    handle, stop flag), ``first`` the piece it carries as ``(index, (start, stop,
    budget, part))`` or None."""

    def __init__(self, arguments: bytes) -> None:
        (context, self.path, self.number, self.carried, self.bound, self.complete,
         self.cap) = pickle.loads(arguments)
        packed, self.stop = pickle.loads(context)
        self.space = unship(packed)
        self._size = 0  # the subtrees of the piece run last

    def run(self, payload: tuple[int, int, int | None, Any]) -> tuple[int, Part, float]:
        began = time.perf_counter()
        start, stop, budget, part = payload
        self._size = stop - start
        found = search_range(self.space, self.stop, part, self.bound, self.complete, budget)
        return start, found, time.perf_counter() - began

    def ends(self, result: tuple[int, Part, float]) -> bool:
        found = result[1]
        return (len(found.nodes) < self._size or found.rest is not None
                or (found.solution is not None and not self.complete))

    def result(self, pieces: list[tuple[int, Any]]) -> tuple[tuple[int, Any], ...]:
        return tuple(pieces)


def run_part_pulled(arguments: bytes) -> tuple[tuple[int, tuple[int, Part, float]], ...]:
    """A threshold iteration's pull (see the glossary), its arguments ``pickled``."""
    return cast(tuple[tuple[int, tuple[int, Part, float]], ...], drive(PartPull(arguments)))
