"""Constraint propagators: what follows from putting values in squares.

A propagator works in place on a *list* of masks that a puzzle has just copied,
so the puzzle itself stays immutable.  It is told which squares were just
filled, and optionally the masks of the fixed point they came from (the parent
puzzle's, to skip unchanged units), and returns False as soon as it meets a
contradiction; the half-done masks then belong to a dead end and are never
propagated further.

Glossary
--------
masks
    One int per square (row-major): bit v - 1 is set when value v is still a
    candidate.  A square with one bit is filled; with no bit it is a dead end.
    Example: ``masks[2] == 0b100100101`` means square A3 may be 1, 3, 6 or 9.
filled
    The squares just given a single value, whose consequences are pending.
peer elimination
    A filled square's value is removed from all its peers; a peer left with
    one candidate is filled in turn (a cascade).
hidden single
    A value with one place left in a unit goes there.
naked twins
    Two squares of a unit with the same two candidates: those two values are
    removed from the rest of the unit (three such squares: a contradiction).

The propagators, by name (``propagator_named``):

``none``
    Nothing is propagated; a square's candidates are the values not yet used
    by its filled peers, worked out when asked (``open_candidates``).
``peers``
    Peer elimination.
``units`` (the default)
    Peer elimination plus hidden singles, to a fixed point.
``twins``
    ``units`` plus naked twins, to a fixed point.
``locked``
    ``units`` plus locked candidates (see ``matching``), to a fixed point.
``matching``
    Every unit domain consistent (Régin's all-different filtering, as
    Gecode's ``distinct`` with domain propagation: a candidate stays only if
    some assignment of the unit's values uses it), plus locked candidates, to
    a fixed point.  It implies peer elimination, hidden singles and naked or
    hidden subsets of every size.

observer
    An optional ``observer(square, value, rule)`` every propagator takes as its
    last argument: it is told each candidate removed (``value`` 1-based) and the
    rule that removed it, one of ``RULES`` (the step's name above).  When it is
    None (the search) the steps run as they are; the page's trace
    (``sudoku.trace``) passes one.  Example: after ``A1 = 4`` under ``peers``
    it hears ``(1, 4, "peer elimination")`` when A2 still had 4.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from parallel_backtrack.engine.checks import UnknownNameError, did_you_mean

from .grid import Grid
from .matching import match_units, remove_locked_candidates, strip

Observer = Callable[[int, int, str], None]
Propagator = Callable[..., bool]  # (masks, filled, grid, before=None, observer=None)

DEFAULT_PROPAGATION = "units"
PEER, HIDDEN, TWINS, LOCKED, MATCHING = RULES = (
    "peer elimination", "hidden single", "naked twins", "locked candidates", "unit matching")


def report_removals(observer: Observer, rule: str, old: Sequence[int],
                    new: Sequence[int]) -> None:
    """Tell ``observer`` every candidate set in ``old`` and gone in ``new``, square by
    square, smallest value first."""
    for square, (was, now) in enumerate(zip(old, new, strict=True)):
        gone = was & ~now
        while gone:
            bit = gone & -gone
            observer(square, bit.bit_length(), rule)
            gone ^= bit


def observed(observer: Observer | None, rule: str, step: Callable[..., Any]
             ) -> Callable[..., Any]:
    """``step`` itself without an observer (no cost to the search); else ``step``
    reporting what it removes from the masks (its first argument) as ``rule``."""
    if observer is None:
        return step

    def run(masks: list[int], *args: Any) -> Any:
        old = tuple(masks)
        result = step(masks, *args)
        report_removals(observer, rule, old, masks)
        return result

    return run


def propagate_none(
    masks: list[int], filled: list[int], grid: Grid, before: Sequence[int] | None = None,
    observer: Observer | None = None,
) -> bool:
    """Plain backtracking: nothing follows, unless a filled square is empty."""
    return all(masks[s] for s in filled)


def open_candidates(masks: Sequence[int], square: int, grid: Grid) -> int:
    """For ``none``: the values of ``square`` not used by its filled peers, as a mask."""
    used = 0
    for p in grid.peers[square]:
        mask = masks[p]
        if not mask & (mask - 1):
            used |= mask
    return grid.full & ~used


def all_open_candidates(masks: Sequence[int], grid: Grid) -> list[int]:
    """For ``none``: every square's candidates at once (filled squares keep their value)."""
    used = []
    for get in grid.unit_getters:
        unit_used = 0
        for mask in get(masks):
            if not mask & (mask - 1):
                unit_used |= mask
        used.append(unit_used)
    return [
        mask & ~(used[r] | used[c] | used[b]) if mask & (mask - 1) else mask
        for mask, (r, c, b) in zip(masks, grid.unit_ids, strict=True)
    ]


def eliminate_from_peers(masks: list[int], filled: list[int], peers: tuple) -> bool:
    """Peer elimination with a cascade; empties ``filled``.  False on a contradiction."""
    pop, push = filled.pop, filled.append
    while filled:
        s = pop()
        bit = masks[s]
        if not bit:
            return False
        for p in peers[s]:
            mask = masks[p]
            if mask & bit:
                mask ^= bit
                if not mask:
                    return False
                masks[p] = mask
                if not mask & (mask - 1):
                    push(p)
    return True


def propagate_peers(
    masks: list[int], filled: list[int], grid: Grid, before: Sequence[int] | None = None,
    observer: Observer | None = None,
) -> bool:
    """Peer elimination only."""
    return bool(observed(observer, PEER, eliminate_from_peers)(masks, filled, grid.peers))


def place_hidden_singles(
    masks: list[int], grid: Grid, before: Sequence[int] | None = None
) -> list[int] | None:
    """Fill every hidden single; the squares filled, or None on a contradiction.

    A value missing from a unit, or two hidden singles wanting one square, is a
    contradiction.  Units whose masks equal those in ``before`` (masks with no
    hidden single left) are skipped: nothing in them can have changed.
    """
    full = grid.full
    filled: list[int] = []
    for unit, get in zip(grid.units, grid.unit_getters, strict=True):
        unit_masks = get(masks)
        if before is not None and unit_masks == get(before):
            continue
        once = twice = 0
        for mask in unit_masks:
            twice |= once & mask
            once |= mask
        if once != full:
            return None
        singles = once & ~twice
        if singles:
            for s, mask in zip(unit, unit_masks, strict=True):
                bit = mask & singles
                if bit:
                    if bit & (bit - 1):
                        return None
                    if bit != mask:
                        masks[s] = bit
                        filled.append(s)
    return filled


def propagate_units(
    masks: list[int], filled: list[int], grid: Grid, before: Sequence[int] | None = None,
    observer: Observer | None = None,
) -> bool:
    """Peer elimination and hidden singles, until nothing changes.

    ``before``, when given, is a fixed point these masks were derived from
    (the parent puzzle); it lets the first hidden-singles pass skip the units
    that did not change.
    """
    peers = grid.peers
    eliminate = observed(observer, PEER, eliminate_from_peers)
    place = observed(observer, HIDDEN, place_hidden_singles)
    while True:
        if not eliminate(masks, filled, peers):
            return False
        # Snapshot before this pass places anything: a unit touched by a placement,
        # even one made while scanning another unit, differs from it and is rescanned.
        scanned = tuple(masks)
        found = place(masks, grid, before)
        if found is None:
            return False
        if not found:
            return True
        filled, before = found, scanned


def remove_naked_twins(masks: list[int], units: tuple) -> tuple[bool, list[int]] | None:
    """Apply naked twins once to every unit: (anything removed, squares filled), or None.

    Three squares of a unit sharing the same two candidates are a contradiction.
    """
    filled: list[int] = []
    changed = False
    for unit in units:
        pairs = [masks[s] for s in unit if masks[s].bit_count() == 2]
        for twin in {m for m in pairs if pairs.count(m) >= 2}:
            if pairs.count(twin) > 2:
                return None
            stripped = strip(masks, [s for s in unit if masks[s] != twin], twin, filled)
            if stripped is None:
                return None
            changed = changed or stripped
    return changed, filled


def _units_plus(remover: Callable[[list[int], Grid], tuple[bool, list[int]] | None],
                masks: list[int], filled: list[int], grid: Grid,
                before: Sequence[int] | None, observer: Observer | None) -> bool:
    """``units``, then ``remover``, in turn until nothing changes (False: a dead end)."""
    while True:
        if not propagate_units(masks, filled, grid, before, observer):
            return False
        before = tuple(masks)
        found = remover(masks, grid)
        if found is None:
            return False
        changed, filled = found
        if not changed:
            return True


def _twins_in_units(masks: list[int], grid: Grid) -> tuple[bool, list[int]] | None:
    return remove_naked_twins(masks, grid.units)


def propagate_twins(
    masks: list[int], filled: list[int], grid: Grid, before: Sequence[int] | None = None,
    observer: Observer | None = None,
) -> bool:
    """``units`` plus naked twins, until nothing changes."""
    return _units_plus(observed(observer, TWINS, _twins_in_units), masks, filled, grid, before,
                       observer)


def propagate_locked(
    masks: list[int], filled: list[int], grid: Grid, before: Sequence[int] | None = None,
    observer: Observer | None = None,
) -> bool:
    """``units`` plus locked candidates, until nothing changes."""
    return _units_plus(observed(observer, LOCKED, remove_locked_candidates), masks, filled,
                       grid, before, observer)


def propagate_matching(
    masks: list[int], filled: list[int], grid: Grid, before: Sequence[int] | None = None,
    observer: Observer | None = None,
) -> bool:
    """Peer elimination, domain-consistent units and locked candidates, until nothing changes.

    ``before``, when given, is a fixed point these masks were derived from; units
    equal to it there are not matched again.
    """
    eliminate = observed(observer, PEER, eliminate_from_peers)
    match = observed(observer, MATCHING, match_units)
    lock = observed(observer, LOCKED, remove_locked_candidates)
    while True:
        if not eliminate(masks, filled, grid.peers):
            return False
        scanned = tuple(masks)
        found = match(masks, grid, before)
        if found is None:
            return False
        changed, filled = found
        before = scanned
        if changed:
            continue
        found = lock(masks, grid)
        if found is None:
            return False
        changed, filled = found
        if not changed:
            return True


PROPAGATORS: dict[str, Propagator] = {
    "none": propagate_none,
    "peers": propagate_peers,
    "units": propagate_units,
    "twins": propagate_twins,
    "locked": propagate_locked,
    "matching": propagate_matching,
}


def check_propagation(name: object) -> str:
    """Return ``name`` when it names a propagator, else raise with a "did you mean"
    (UnknownNameError); TypeError when ``name`` is no string at all."""
    if not isinstance(name, str):
        raise TypeError(f"propagation must be a propagator name {sorted(PROPAGATORS)}, "
                        f"got {name!r}")
    if name not in PROPAGATORS:
        raise UnknownNameError(did_you_mean("propagation", name, PROPAGATORS))
    return name


def propagator_named(name: str) -> Propagator:
    """The propagator called ``name``: ``none``, ``peers``, ``units``, ``twins``, ``locked``
    or ``matching``."""
    return PROPAGATORS[check_propagation(name)]
