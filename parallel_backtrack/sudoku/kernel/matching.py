"""Stronger unit rules for the compiled Sudoku kernel: all-different matching
and locked candidates (numba, in place).

``matching`` makes every unit domain consistent (Régin's all-different
filtering, as Gecode's ``distinct`` with ``IPL_DOM``): a candidate survives only
if some way of giving the unit's n values to its n squares, one each, puts it
there.  That takes in hidden singles, naked and hidden pairs, triples and
every larger subset.  ``locked`` (locked candidates, "pointing" and
"box-line reduction") links a box with a row or a column: a value whose places
in a box all lie in one row leaves the rest of that row, and the other way
round.  Both rules only remove candidates and stay true once they fire, so
their fixed point does not depend on the order they run in, and the reference
path (``propagate_matching``) reaches the same masks.

Glossary
--------
position
    A square's place in its unit, ``0 .. n-1`` (``units[unit, k]``).
matching
    ``owner[v]`` is the position given value ``v`` (a bit index), ``given[k]``
    the value given to position ``k``; a perfect matching gives all n values.
    None exists: the state is dead.
reach
    ``reach[k]``: the positions ``k`` reaches (itself included) in the graph
    with an edge ``k -> owner[v]`` for every candidate ``v`` of ``k`` other than
    ``given[k]``.  Value ``v`` may stay at ``k`` exactly when ``k`` and
    ``owner[v]`` reach each other (the same strongly connected component):
    then the matching can be rotated along the cycle to give ``v`` to ``k``.
    Example: positions 0 and 1 both {1, 2}, matched 0 -> 1, 1 -> 2: each
    reaches the other, so both keep {1, 2}; a third position {1, 2, 3} given 3
    is reached by no one, so 1 and 2 leave it (a naked pair).
segment
    The ``b`` squares a row (or column) shares with a box; ``cover[s]`` the
    candidates of segment ``s`` (``scratch[SEGMENTS]``).
scratch
    ``uint64 [SCRATCH_ROWS, SCRATCH_COLUMNS]`` rows reused by every call: positions' candidates,
    ``owner``, ``given``, a search queue (``parent`` of each value during an
    augmenting search) and ``reach``; the segment covers reuse row 0.
"""

from __future__ import annotations

import numpy as np

from .bits import U64_ONE, U64_ZERO, has_many, hot_njit, low_bit, low_bit_index

DEAD = -1
CANDIDATES, OWNER, GIVEN, QUEUE, REACH = 0, 1, 2, 3, 4
SEGMENTS = 0
UNOWNED = np.uint64(255)


SCRATCH_ROWS, SCRATCH_COLUMNS = 5, 256  # one unit's matching (n <= 36); n * b <= 216 covers


@hot_njit
def _bit(index):  # type: ignore[no-untyped-def]
    return U64_ONE << np.uint64(index)


@hot_njit
def _augment(scratch, start, size, taken):  # type: ignore[no-untyped-def]
    """Give position ``start`` a value, moving others along an augmenting path.

    Breadth-first over positions; ``scratch[QUEUE, v]`` remembers the position
    that reached value ``v``.  Returns the new mask of given values, or
    ``U64_ZERO`` when no path exists (then no perfect matching does either).
    """
    cands, owner, given, parent = (scratch[CANDIDATES], scratch[OWNER], scratch[GIVEN],
                                   scratch[QUEUE])
    order = scratch[REACH]  # free until the matching is complete
    seen = U64_ZERO
    order[0] = np.uint64(start)
    head, tail = 0, 1
    while head < tail:
        position = np.int64(order[head])
        head += 1
        fresh = cands[position] & ~seen
        while fresh != U64_ZERO:
            bit = low_bit(fresh)
            fresh ^= bit
            seen |= bit
            value = low_bit_index(bit)
            parent[value] = np.uint64(position)
            if bit & taken == U64_ZERO:
                while True:  # flip the path back to start
                    holder = np.int64(parent[value])
                    previous = given[holder]
                    owner[value] = np.uint64(holder)
                    given[holder] = np.uint64(value)
                    if holder == start:
                        return taken | bit
                    value = np.int64(previous)
            order[tail] = owner[value]
            tail += 1
    return U64_ZERO


@hot_njit
def _match(scratch, size, full):  # type: ignore[no-untyped-def]
    """A perfect matching of the unit loaded in ``scratch``; False when none exists."""
    cands, owner, given = scratch[CANDIDATES], scratch[OWNER], scratch[GIVEN]
    taken = U64_ZERO
    for k in range(size):
        given[k] = UNOWNED
    for rounds in range(2):  # greedy: filled squares first, then the lowest free value
        for k in range(size):
            free = cands[k] & ~taken
            if given[k] != UNOWNED or free == U64_ZERO or (rounds == 0 and has_many(cands[k])):
                continue
            bit = low_bit(free)
            value = low_bit_index(bit)
            taken |= bit
            owner[value] = np.uint64(k)
            given[k] = np.uint64(value)
    for k in range(size):
        if given[k] == UNOWNED:
            taken = _augment(scratch, k, size, taken)
            if taken == U64_ZERO:
                return False
    return taken == full


@hot_njit
def _close_reach(scratch, size):  # type: ignore[no-untyped-def]
    """``reach`` := the transitive closure of the alternating graph (bitset Warshall)."""
    cands, owner, given, reach = scratch[CANDIDATES], scratch[OWNER], scratch[GIVEN], scratch[REACH]
    open_positions = U64_ZERO
    for k in range(size):
        edges = _bit(k)
        others = cands[k] & ~_bit(given[k])
        if others != U64_ZERO:
            open_positions |= _bit(k)
        while others != U64_ZERO:
            bit = low_bit(others)
            others ^= bit
            edges |= _bit(owner[low_bit_index(bit)])
        reach[k] = edges
    middles = open_positions
    while middles != U64_ZERO:
        bit = low_bit(middles)
        middles ^= bit
        through = reach[low_bit_index(bit)]
        starts = open_positions
        while starts != U64_ZERO:
            start_bit = low_bit(starts)
            starts ^= start_bit
            start = low_bit_index(start_bit)
            if reach[start] & bit != U64_ZERO:
                reach[start] |= through
    return open_positions


@hot_njit
def all_different_unit(masks, row, queue, tail, units, unit, square_units, dirty, scratch, full):  # type: ignore[no-untyped-def]
    """Make one unit domain consistent; returns the new queue tail, or ``DEAD``."""
    size = units.shape[1]
    cands, given, reach = scratch[CANDIDATES], scratch[GIVEN], scratch[REACH]
    for k in range(size):
        cands[k] = masks[row, units[unit, k]]
    if not _match(scratch, size, full):
        return DEAD
    open_positions = _close_reach(scratch, size)
    while open_positions != U64_ZERO:
        bit = low_bit(open_positions)
        open_positions ^= bit
        k = low_bit_index(bit)
        allowed = U64_ZERO
        others = reach[k]
        while others != U64_ZERO:
            other_bit = low_bit(others)
            others ^= other_bit
            other = low_bit_index(other_bit)
            if reach[other] & bit != U64_ZERO:
                allowed |= _bit(given[other])
        kept = cands[k] & allowed
        if kept != cands[k]:
            square = units[unit, k]
            masks[row, square] = kept
            dirty[square_units[square, 0]] = True
            dirty[square_units[square, 1]] = True
            dirty[square_units[square, 2]] = True
            if not has_many(kept):
                queue[tail] = square
                tail += 1
    dirty[unit] = False  # consistent now; only a later change can spoil it
    return tail


@hot_njit
def match_dirty_units(masks, row, queue, tail, units, square_units, dirty, scratch, full):  # type: ignore[no-untyped-def]
    """``all_different_unit`` on every dirty unit; the new tail, or ``DEAD``."""
    for unit in range(units.shape[0]):
        if dirty[unit]:
            tail = all_different_unit(masks, row, queue, tail, units, unit, square_units, dirty,
                                      scratch, full)
            if tail == DEAD:
                return DEAD
    return tail


@hot_njit
def _strip(masks, row, queue, tail, square, values, square_units, dirty):  # type: ignore[no-untyped-def]
    """Remove ``values`` from one square; returns (tail or DEAD, changed)."""
    cands = masks[row, square]
    if cands & values == U64_ZERO:
        return tail, False
    cands &= ~values
    masks[row, square] = cands
    if cands == U64_ZERO:
        return DEAD, True
    dirty[square_units[square, 0]] = True
    dirty[square_units[square, 1]] = True
    dirty[square_units[square, 2]] = True
    if not has_many(cands):
        queue[tail] = square
        tail += 1
    return tail, True


@hot_njit
def _segment_square(size, box, line, seg, t, by_rows):  # type: ignore[no-untyped-def]
    """Square ``t`` of segment ``seg`` of row (or column) ``line``."""
    if by_rows:
        return line * size + seg * box + t
    return (seg * box + t) * size + line


@hot_njit
def _locked_lines(masks, row, queue, tail, size, box, square_units, dirty, cover, by_rows):  # type: ignore[no-untyped-def]
    """Locked candidates between every box and the rows (or columns) through it."""
    changed = False
    for line in range(size):
        for seg in range(box):
            union = U64_ZERO
            for t in range(box):
                union |= masks[row, _segment_square(size, box, line, seg, t, by_rows)]
            cover[line * box + seg] = union
    for line in range(size):
        band = line - line % box
        for seg in range(box):
            here = cover[line * box + seg]
            line_rest = U64_ZERO
            for other in range(box):
                if other != seg:
                    line_rest |= cover[line * box + other]
            box_rest = U64_ZERO
            for other in range(band, band + box):
                if other != line:
                    box_rest |= cover[other * box + seg]
            pointing = here & ~box_rest  # the box's only places for these lie on this line
            claiming = here & ~line_rest  # the line's only places lie in this box
            if pointing & line_rest != U64_ZERO:
                for other in range(box):
                    if other == seg:
                        continue
                    for t in range(box):
                        square = _segment_square(size, box, line, other, t, by_rows)
                        tail, stripped = _strip(masks, row, queue, tail, square, pointing,
                                                square_units, dirty)
                        changed = changed or stripped
                        if tail == DEAD:
                            return DEAD, changed
            if claiming & box_rest != U64_ZERO:
                for other in range(band, band + box):
                    if other == line:
                        continue
                    for t in range(box):
                        square = _segment_square(size, box, other, seg, t, by_rows)
                        tail, stripped = _strip(masks, row, queue, tail, square, claiming,
                                                square_units, dirty)
                        changed = changed or stripped
                        if tail == DEAD:
                            return DEAD, changed
    return tail, changed


@hot_njit
def locked_candidates(masks, row, queue, tail, size, box, square_units, dirty, scratch):  # type: ignore[no-untyped-def]
    """Apply locked candidates to every box and line once; (tail or DEAD, changed)."""
    cover = scratch[SEGMENTS]
    tail, by_rows = _locked_lines(masks, row, queue, tail, size, box, square_units, dirty, cover,
                                  True)
    if tail == DEAD:
        return DEAD, by_rows
    tail, by_cols = _locked_lines(masks, row, queue, tail, size, box, square_units, dirty, cover,
                                  False)
    return tail, by_rows or by_cols
