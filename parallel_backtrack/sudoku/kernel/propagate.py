"""Constraint propagation for the compiled Sudoku kernel (numba, in place).

The propagators mirror the reference ones by name and by their fixed point:
propagation only removes candidates, and every rule here stays true once it
fires, so whatever order the rules run in, a state that survives ends in the
same masks as the reference path.  A state that does not survive is a dead end
the moment a contradiction shows, and is never looked at again.

Glossary
--------
masks, row
    ``masks[row]`` holds one ``uint64`` candidate mask per square, row-major
    (see ``kernel_bits``); the kernel keeps a whole search stack in one 2-D
    array and passes row indices, since every 1-D view would cost reference
    counting in the hot loop.
queue
    Squares that just became single and whose value has not yet been removed
    from their peers.  A square turns single at most once per propagation (a
    second change empties it), so ``n * n`` slots always suffice.
dead
    A state with a contradiction: an empty square, or (with hidden singles) a
    value with no place left in a unit, or a square that must hold two values.
propagation codes
    ``NONE`` (0): plain backtracking; nothing is stored but the filled squares,
    candidates are computed when a square is chosen (``lazy_candidates``).
    ``PEERS`` (1): a single's value leaves its peers, in a cascade.
    ``UNITS`` (2): peers plus hidden singles (a value with one place in a unit
    goes there).  ``TWINS`` (3): units plus naked twins (two squares of a unit
    holding the same two values take them from the rest of the unit).
    ``LOCKED`` (4): units plus locked candidates; ``MATCHING`` (5): every unit
    domain consistent, plus locked candidates (both in ``kernel_matching``).
scratch
    ``uint64 [SCRATCH_ROWS, SCRATCH_COLUMNS]`` (``kernel_matching``): working
    rows for those two rules.
"""

from __future__ import annotations

from .bits import U64_ZERO, has_many, hot_njit, is_single, popcount
from .matching import locked_candidates, match_dirty_units

NONE, PEERS, UNITS, TWINS, LOCKED, MATCHING = 0, 1, 2, 3, 4, 5
PROPAGATION_CODES = {"none": NONE, "peers": PEERS, "units": UNITS, "twins": TWINS,
                     "locked": LOCKED, "matching": MATCHING}
DEAD = -1


@hot_njit
def mark_dirty(dirty, square_units, square):  # type: ignore[no-untyped-def]
    """The square's row, column and box must be scanned again for hidden singles."""
    dirty[square_units[square, 0]] = True
    dirty[square_units[square, 1]] = True
    dirty[square_units[square, 2]] = True


@hot_njit
def drain_singles(masks, row, queue, head, tail, peers, square_units, dirty):  # type: ignore[no-untyped-def]
    """Remove each queued single's value from its peers, queueing new singles.

    Marks the units of every changed square dirty.  Returns the new queue
    tail, or ``DEAD`` when a square runs out of values.
    """
    width = peers.shape[1]
    while head < tail:
        square = queue[head]
        head += 1
        value = masks[row, square]
        for k in range(width):
            peer = peers[square, k]
            cands = masks[row, peer]
            if cands & value:
                cands ^= value
                masks[row, peer] = cands
                if cands == U64_ZERO:
                    return DEAD
                mark_dirty(dirty, square_units, peer)
                if not has_many(cands):
                    queue[tail] = peer
                    tail += 1
    return tail


@hot_njit
def place_hidden_singles(masks, row, queue, tail, units, square_units, dirty, full):  # type: ignore[no-untyped-def]
    """Put every value that has one place left in a dirty unit there, queueing it.

    A clean unit has not changed since it was last scanned, so it cannot hold a
    new hidden single.  Returns the new queue tail (unchanged when nothing was
    placed), or ``DEAD``.
    """
    size = units.shape[1]
    for unit in range(units.shape[0]):
        if not dirty[unit]:
            continue
        dirty[unit] = False
        once = U64_ZERO
        twice = U64_ZERO
        placed = U64_ZERO
        for k in range(size):
            cands = masks[row, units[unit, k]]
            twice |= once & cands
            once |= cands
            if not has_many(cands):
                placed |= cands
        if once != full:
            return DEAD
        hidden = once & ~twice & ~placed
        if hidden == U64_ZERO:
            continue
        for k in range(size):
            square = units[unit, k]
            cands = masks[row, square]
            only_here = cands & hidden
            if only_here == U64_ZERO:
                continue
            if has_many(only_here):
                return DEAD
            if only_here != cands:
                masks[row, square] = only_here
                mark_dirty(dirty, square_units, square)
                queue[tail] = square
                tail += 1
    return tail


@hot_njit
def _strip_from_unit(masks, row, queue, tail, units, square_units, dirty,
                     unit, pair, first, second):  # type: ignore[no-untyped-def]
    """Remove the twins' two values from the rest of one unit."""
    changed = False
    for k in range(units.shape[1]):
        if k == first or k == second:
            continue
        square = units[unit, k]
        cands = masks[row, square]
        if cands & pair:
            cands &= ~pair
            masks[row, square] = cands
            changed = True
            if cands == U64_ZERO:
                return DEAD, changed
            mark_dirty(dirty, square_units, square)
            if not has_many(cands):
                queue[tail] = square
                tail += 1
    return tail, changed


@hot_njit
def eliminate_naked_twins(masks, row, queue, tail, units, square_units, dirty):  # type: ignore[no-untyped-def]
    """Apply every naked twin; returns (tail or DEAD, whether any mask changed)."""
    size = units.shape[1]
    changed = False
    for unit in range(units.shape[0]):
        for first in range(size - 1):
            pair = masks[row, units[unit, first]]
            if popcount(pair) != 2:
                continue
            for second in range(first + 1, size):
                if masks[row, units[unit, second]] == pair:
                    tail, stripped = _strip_from_unit(
                        masks, row, queue, tail, units, square_units, dirty,
                        unit, pair, first, second,
                    )
                    changed = changed or stripped
                    if tail == DEAD:
                        return DEAD, changed
    return tail, changed


@hot_njit
def _box_of(size):  # type: ignore[no-untyped-def]
    box = 1
    while box * box < size:
        box += 1
    return box


@hot_njit
def _any(flags):  # type: ignore[no-untyped-def]
    for k in range(flags.shape[0]):
        if flags[k]:
            return True
    return False


@hot_njit
def propagate(masks, row, queue, tail, propagation, units, peers, square_units, full, dirty,
              all_dirty, scratch):  # type: ignore[no-untyped-def]
    """Run the propagator to its fixed point; False when the state is dead.

    ``queue[:tail]`` holds the squares that just became single; their units
    (or every unit, with ``all_dirty``) are scanned for hidden singles.
    """
    if propagation == NONE:
        return True
    for unit in range(dirty.shape[0]):
        dirty[unit] = all_dirty
    for k in range(tail):
        mark_dirty(dirty, square_units, queue[k])
    head = 0
    while True:
        tail = drain_singles(masks, row, queue, head, tail, peers, square_units, dirty)
        if tail == DEAD:
            return False
        head = tail
        if propagation == PEERS:
            return True
        if propagation == MATCHING:
            tail = match_dirty_units(masks, row, queue, tail, units, square_units, dirty,
                                     scratch, full)
        else:
            tail = place_hidden_singles(masks, row, queue, tail, units, square_units, dirty,
                                        full)
        if tail == DEAD:
            return False
        if tail != head or (propagation == MATCHING and _any(dirty)):
            continue
        if propagation == TWINS:
            tail, changed = eliminate_naked_twins(
                masks, row, queue, tail, units, square_units, dirty
            )
            if tail == DEAD:
                return False
            if changed:
                continue
        if propagation >= LOCKED:
            size = units.shape[1]
            tail, changed = locked_candidates(masks, row, queue, tail, size, _box_of(size),
                                              square_units, dirty, scratch)
            if tail == DEAD:
                return False
            if changed:
                continue
        return True


@hot_njit
def propagate_root(masks, row, queue, propagation, units, peers, square_units, full, dirty,
                   scratch):  # type: ignore[no-untyped-def]
    """Check and propagate a state given from outside; False when it is dead.

    Every single is queued (re-propagating a fixed point changes nothing); an
    empty square, or two peers holding the same single value, is a dead end.
    """
    tail = 0
    for square in range(masks.shape[1]):
        cands = masks[row, square]
        if cands == U64_ZERO:
            return False
        if is_single(cands):
            for k in range(peers.shape[1]):
                if masks[row, peers[square, k]] == cands:
                    return False
            queue[tail] = square
            tail += 1
    return propagate(masks, row, queue, tail, propagation, units, peers, square_units, full,
                     dirty, True, scratch)


@hot_njit
def lazy_candidates(masks, row, square, peers, full):  # type: ignore[no-untyped-def]
    """``NONE`` propagation: the values not used by the square's filled peers."""
    used = U64_ZERO
    for k in range(peers.shape[1]):
        cands = masks[row, peers[square, k]]
        if is_single(cands):
            used |= cands
    return full & ~used
