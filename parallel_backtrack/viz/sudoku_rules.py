"""Sudoku propagation with the rule behind every eliminated candidate.

The propagators of ``sudoku.propagate`` are compositions of a few steps (peer
elimination, hidden singles, naked twins, locked candidates, unit matching).
Here the same steps run in the same order, each wrapped so that the candidates
it removes are logged with its rule; the masks that come out are the ones the
real propagator makes (``sudoku_trace`` checks that on every step).

Glossary
--------
rule
    An int code: ``ASSIGNED`` (the other values of a square given a value),
    ``PEER`` (peer elimination), ``HIDDEN`` (a hidden single's square losing its
    other values), ``TWINS`` (naked twins), ``LOCKED`` (locked candidates),
    ``MATCHING`` (a unit's all-different matching) and ``OTHER`` (none of these:
    only if the copy ever disagrees with the real propagator).
log
    A list of ``(square, value, rule)`` triples, in the order they happened.

Example: after ``A1 = 4`` under ``peers``, the log holds ``(1, 4, PEER)`` when
A2 had 4 as a candidate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..sudoku.grid import Grid
from ..sudoku.matching import match_units, remove_locked_candidates
from ..sudoku.propagate import (
    all_open_candidates,
    eliminate_from_peers,
    place_hidden_singles,
    remove_naked_twins,
)

ASSIGNED, PEER, HIDDEN, TWINS, LOCKED, MATCHING, OTHER = range(7)
RULE_NAMES = ("assigned", "peer elimination", "hidden single", "naked twins",
              "locked candidates", "unit matching", "other")
Log = list[tuple[int, int, int]]


def log_diff(log: Log, old: Sequence[int], new: Sequence[int], rule: int,
             only: int | None = None, skip: int | None = None) -> None:
    """Append every candidate present in ``old`` and gone in ``new`` (of square ``only``,
    or of every square but ``skip``)."""
    for square, (was, now) in enumerate(zip(old, new)):
        if (only is not None and square != only) or square == skip:
            continue
        gone = was & ~now
        while gone:
            bit = gone & -gone
            log.append((square, bit.bit_length(), rule))
            gone ^= bit


def _tagged(log: Log, rule: int, step: Callable[..., Any], masks: list[int],
            *args: Any) -> Any:
    old = list(masks)
    result = step(masks, *args)
    log_diff(log, old, masks, rule)
    return result


def _units(masks: list[int], filled: list[int], grid: Grid, before: Sequence[int] | None,
           log: Log) -> bool:
    """``propagate_units``, step by step."""
    while True:
        if not _tagged(log, PEER, eliminate_from_peers, masks, filled, grid.peers):
            return False
        scanned = tuple(masks)
        found = _tagged(log, HIDDEN, place_hidden_singles, masks, grid, before)
        if found is None:
            return False
        if not found:
            return True
        filled, before = found, scanned


def _units_plus(rule: int, remover: Callable[[list[int], Grid], Any], masks: list[int],
                filled: list[int], grid: Grid, before: Sequence[int] | None,
                log: Log) -> bool:
    """``propagate._units_plus``, step by step."""
    while True:
        if not _units(masks, filled, grid, before, log):
            return False
        before = tuple(masks)
        found = _tagged(log, rule, remover, masks, grid)
        if found is None:
            return False
        changed, filled = found
        if not changed:
            return True


def _matching(masks: list[int], filled: list[int], grid: Grid, before: Sequence[int] | None,
              log: Log) -> bool:
    """``propagate_matching``, step by step."""
    while True:
        if not _tagged(log, PEER, eliminate_from_peers, masks, filled, grid.peers):
            return False
        scanned = tuple(masks)
        found = _tagged(log, MATCHING, match_units, masks, grid, before)
        if found is None:
            return False
        changed, filled = found
        before = scanned
        if changed:
            continue
        found = _tagged(log, LOCKED, remove_locked_candidates, masks, grid)
        if found is None:
            return False
        changed, filled = found
        if not changed:
            return True


def propagate_logged(name: str, masks: list[int], filled: list[int], grid: Grid,
                     before: Sequence[int] | None, log: Log) -> bool:
    """Run the propagator called ``name`` in place, logging each elimination's rule.
    Under ``none`` nothing is removed from the masks (see ``shown_masks``)."""
    if name == "none":
        return all(masks[s] for s in filled)
    if name == "peers":
        return bool(_tagged(log, PEER, eliminate_from_peers, masks, filled, grid.peers))
    if name == "units":
        return _units(masks, filled, grid, before, log)
    if name == "twins":
        return _units_plus(TWINS, lambda m, g: remove_naked_twins(m, g.units), masks, filled,
                           grid, before, log)
    if name == "locked":
        return _units_plus(LOCKED, remove_locked_candidates, masks, filled, grid, before, log)
    if name == "matching":
        return _matching(masks, filled, grid, before, log)
    raise ValueError(f"unknown propagation {name!r}")


def shown_masks(name: str, masks: Sequence[int], grid: Grid) -> list[int]:
    """The candidates a person sees: under ``none`` an open square's values not used by
    its filled peers (the masks stay full there), else the masks themselves."""
    return all_open_candidates(masks, grid) if name == "none" else list(masks)
