"""Stronger unit rules for the reference path: all-different matching and locked candidates.

The compiled twins of these rules live in ``kernel.matching``; both reach the
same fixed point, so the two paths keep equal node counts.

Glossary
--------
unit masks
    The candidate masks of one unit's n squares, in unit order (positions
    ``0 .. n-1``); bit ``v`` is value ``v + 1``.
matching
    ``given[k]``: the value (a bit index) given to position ``k`` so that all n
    positions hold different values.  No such matching: the state is dead.
reach
    ``reach[k]``: the positions ``k`` reaches (itself included) moving from a
    position to the owner of any other candidate of it.  Value ``v`` stays at
    ``k`` exactly when ``k`` and the owner of ``v`` reach each other (Régin's
    all-different filtering).  Example: ``[0b011, 0b011, 0b111]`` becomes
    ``[0b011, 0b011, 0b100]`` (a naked pair).
segment
    The ``b`` squares a box shares with a row or a column.  Locked
    candidates: a value whose places in the box all lie in the segment leaves
    the rest of the line ("pointing"), and a value whose places on the line
    all lie in the segment leaves the rest of the box ("box-line reduction").
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from .candidates import bits
from .grid import Grid, grid_for


def _augment(cands: Sequence[int], k: int, owner: dict[int, int], seen: set[int]) -> bool:
    """Kuhn's augmenting path from position ``k``; updates ``owner`` (value -> position)."""
    for bit in bits(cands[k]):
        value = bit.bit_length() - 1
        if value in seen:
            continue
        seen.add(value)
        if value not in owner or _augment(cands, owner[value], owner, seen):
            owner[value] = k
            return True
    return False


def perfect_matching(cands: Sequence[int]) -> list[int] | None:
    """A value (bit index) for every position, all different; None when there is none."""
    owner: dict[int, int] = {}
    for k in range(len(cands)):
        if not _augment(cands, k, owner, set()):
            return None
    given = [0] * len(cands)
    for value, k in owner.items():
        given[k] = value
    return given


def consistent_unit(cands: Sequence[int]) -> list[int] | None:
    """The unit's masks with every candidate no matching uses removed; None if dead."""
    given = perfect_matching(cands)
    if given is None:
        return None
    owner = {value: k for k, value in enumerate(given)}
    size = len(cands)
    reach = [1 << k for k in range(size)]
    for k, mask in enumerate(cands):
        for bit in bits(mask & ~(1 << given[k])):
            reach[k] |= 1 << owner[bit.bit_length() - 1]
    for middle in range(size):
        for start in range(size):
            if reach[start] >> middle & 1:
                reach[start] |= reach[middle]
    return [
        mask & sum(1 << given[j] for j in range(size) if reach[k] >> j & 1 and reach[j] >> k & 1)
        for k, mask in enumerate(cands)
    ]


def match_units(
    masks: list[int], grid: Grid, before: Sequence[int] | None = None
) -> tuple[bool, list[int]] | None:
    """``consistent_unit`` on every unit in turn: (anything removed, squares filled), or None.

    Units whose masks equal those in ``before`` (a state every unit was
    consistent in) are skipped.
    """
    changed, filled = False, list[int]()
    for unit, get in zip(grid.units, grid.unit_getters, strict=True):
        unit_masks = get(masks)
        if before is not None and unit_masks == get(before):
            continue
        kept = consistent_unit(unit_masks)
        if kept is None:
            return None
        for s, old, new in zip(unit, unit_masks, kept, strict=True):
            if new != old:
                masks[s] = new
                changed = True
                if not new & (new - 1):
                    filled.append(s)
    return changed, filled


@cache
def segments(box: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
    """``(segment, rest of the line, rest of the box)`` for every box and line through it."""
    grid = grid_for(box)
    found = []
    for square_box in grid.boxes:
        inside = set(square_box)
        for line in grid.rows + grid.cols:
            common = tuple(s for s in line if s in inside)
            if common:
                found.append((common, tuple(s for s in line if s not in common),
                              tuple(s for s in square_box if s not in common)))
    return tuple(found)


def remove_locked_candidates(masks: list[int], grid: Grid) -> tuple[bool, list[int]] | None:
    """Apply locked candidates everywhere once: (anything removed, squares filled), or None."""
    changed, filled = False, list[int]()
    for common, line_rest, box_rest in segments(grid.box):
        here = line_union = box_union = 0
        for s in common:
            here |= masks[s]
        for s in line_rest:
            line_union |= masks[s]
        for s in box_rest:
            box_union |= masks[s]
        for values, squares in ((here & ~box_union, line_rest), (here & ~line_union, box_rest)):
            stripped = strip(masks, squares, values, filled)
            if stripped is None:
                return None
            changed = changed or stripped
    return changed, filled


def strip(masks: list[int], squares: Sequence[int], values: int,
          filled: list[int]) -> bool | None:
    """Remove ``values`` from each of ``squares``: whether any changed, or None when a
    square runs out of candidates.  Squares left with one candidate go to ``filled``."""
    changed = False
    for s in squares:
        mask = masks[s]
        if mask & values:
            mask &= ~values
            if not mask:
                return None
            masks[s] = mask
            changed = True
            if not mask & (mask - 1):
                filled.append(s)
    return changed
