"""Compiled Sudoku search: solve, count and budgeted runs on candidate masks.

This is the fast path behind ``--kernel fast``.  It takes the same states as
``ImmutableSudokuPuzzle`` (a box size and one candidate mask per square),
runs the same propagator and square order in numba, and reports the same
answers and the same node counts as the engine's generic search over the
reference puzzle.

Glossary
--------
box, size
    ``box`` is 2..6; the grid is ``size x size`` with ``size = box * box``.
masks
    ``size * size`` ints, row-major: bit ``v - 1`` is set when value ``v`` is a
    candidate (``puzzle.masks``).  A single bit is a filled square, no bit a
    dead one.  Example (4x4): ``0b0101`` means {1, 3}.
roots
    Several states as rows of a 2-D array, explored in order.
order, propagation
    By name, as in ``orders`` and ``propagate``: ``fewest`` or ``row-major``;
    ``none``, ``peers``, ``units``, ``twins``, ``locked`` or ``matching``.
node
    One state taken off the search stack, the root included; each guess makes
    one.  Counts equal the engine's ``sequential_count`` over the reference.
budget
    Stop after this many nodes and hand back the open frontier (``leftover``)
    in search order, to be explored later: the states the engine's ``explore``
    leaves on its stack.  A child already dead there comes back as a row of
    zeros, which any search (and ``ImmutableSudokuPuzzle.from_masks``) takes
    for a dead end.

Example::

    >>> values, nodes = solve_masks(2, [15] * 16)
    >>> values[:4], nodes
    ((1, 2, 3, 4), 8)
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from parallel_backtrack.engine.arguments import check_count
from parallel_backtrack.engine.checks import UnknownNameError, did_you_mean

from .calls import call_kernel, check_box, order_code, propagation_code
from .kernel.bits import full_mask
from .kernel.search import UNWATCHED, explore_roots
from .kernel.tables import kernel_tables

MODES = ("count", "first")
T = TypeVar("T")
MaskRows = np.ndarray | Sequence[int] | Sequence[Sequence[int]]
# ``(values, slot, ticket)``: stop once ``values[slot] >= ticket`` (``explore_rows``).
Watch = tuple[np.ndarray, int, int]
NO_WATCH: Watch = (np.zeros(1, dtype=np.int64), 0, UNWATCHED)


@dataclass(frozen=True, slots=True)
class KernelRun:
    """What one kernel run found: ``solutions`` and ``leftover`` are mask rows;
    ``started`` roots were begun (``leftover`` is the open rest of the last of them,
    then the roots after it)."""

    count: int
    nodes: int
    solutions: np.ndarray
    leftover: np.ndarray
    started: int = 0


def _check_count(name: str, value: int | None, smallest: int) -> int:
    """0 for None (no limit), else ``value`` when it is an int >= ``smallest``
    (``engine.arguments.check_count``: WrongTypeError or ValueError otherwise)."""
    return check_count(name, value, low=smallest) or 0


def mask_rows(box: int, masks: MaskRows) -> np.ndarray:
    """Masks (one state, or one state per row) as a ``uint64 [states, n*n]`` array.

    ValueError says what is wrong: the shape, a non-integer, or a mask outside
    ``0 .. 2**n - 1``.
    """
    size = check_box(box) ** 2
    try:
        rows = np.asarray(masks)
    except (TypeError, ValueError, OverflowError) as error:
        raise ValueError(f"masks must be integers, got {type(masks).__name__}: {error}") from None
    if rows.ndim == 1:
        rows = rows.reshape(1, -1)
    if rows.ndim != 2 or rows.shape[1] != size * size:
        raise ValueError(
            f"a {size}x{size} state has {size * size} masks; got an array of shape {rows.shape}"
        )
    if rows.size and rows.dtype.kind not in "iu":
        raise ValueError(f"masks must be integers, got dtype {rows.dtype}")
    if rows.size and (rows.min() < 0 or rows.max() > full_mask(size)):
        raise ValueError(
            f"masks of a {size}x{size} puzzle lie in 0..{full_mask(size)};"
            f" got {rows.min()}..{rows.max()}"
        )
    return np.ascontiguousarray(rows, dtype=np.uint64)


def trusted_rows(masks: Sequence[Sequence[int]]) -> np.ndarray:
    """Rows of masks known to be valid (a puzzle's own) as ``mask_rows`` gives them,
    without its checks: some 2 us for a 16x16 state instead of 7."""
    flat = array("Q")
    for row in masks:
        flat.extend(row)
    return np.frombuffer(flat, dtype=np.uint64).reshape(len(masks), -1)


def masks_from_cells(box: int, cells: Sequence[int]) -> np.ndarray:
    """Givens (0 for a blank) as one row of masks: all values for a blank."""
    size = check_box(box) ** 2
    values = np.asarray(cells, dtype=np.int64)
    if values.shape != (size * size,) or values.min() < 0 or values.max() > size:
        raise ValueError(f"a {size}x{size} puzzle has {size * size} cells in 0..{size}")
    full = np.uint64(full_mask(size))
    shifted = np.left_shift(np.uint64(1), (values - 1).clip(0).astype(np.uint64))
    return np.where(values == 0, full, shifted).astype(np.uint64)


def values_of(masks: np.ndarray | Sequence[int]) -> tuple[int, ...]:
    """A solved state's values (``0`` where a square is not single)."""
    return tuple(
        int(m).bit_length() if m and not int(m) & (int(m) - 1) else 0 for m in masks
    )


def explore_masks(
    box: int,
    roots: MaskRows,
    order: str = "fewest",
    propagation: str = "units",
    *,
    mode: str = "count",
    budget: int | None = None,
    limit: int | None = None,
    keep: int = 0,
) -> KernelRun:
    """Depth-first search below ``roots`` (in order), as the engine's ``explore``.

    ``mode="count"`` counts (stopping at ``limit`` solutions when given);
    ``mode="first"`` stops at the first solution and keeps it.  ``budget``
    bounds the nodes; the rest comes back as ``leftover`` rows, which explored
    later give the remaining count and nodes exactly.  The first ``keep``
    solutions (at most ``limit``) are returned as mask rows; room for them is
    set aside up front, so keep it small.
    """
    if mode not in MODES:
        raise UnknownNameError(did_you_mean("mode", mode, MODES))
    rows = mask_rows(box, roots)
    codes = (propagation_code(propagation), order_code(order))
    return explore_rows(box, rows, codes, first=mode == "first",
                        budget=_check_count("budget", budget, 1),
                        limit=_check_count("limit", limit, 1), keep=_check_count("keep", keep, 0))


def explore_rows(box: int, rows: np.ndarray, codes: tuple[int, int], *, first: bool,
                 budget: int, limit: int, keep: int, watch: Watch | None = None) -> KernelRun:
    """``explore_masks`` on rows already checked (a C-contiguous ``uint64`` array of
    valid masks, as a puzzle's own or the kernel's), with the propagation and order
    codes and the counts already turned into the kernel's (0: no limit): the path of
    the engine's many small calls, some 20 us cheaper each.

    ``watch`` is ``(values, slot, ticket)``, ``values`` a C-contiguous ``int64`` array
    another process may raise: the run also stops, as on its budget, once
    ``values[slot] >= ticket``, looked at every ``search.WATCH_EVERY`` nodes."""
    if first:
        limit, keep = 1, max(keep, 1)
    if limit:
        keep = min(keep, limit)  # never more rows than solutions wanted
    values, slot, ticket = watch or NO_WATCH
    count, nodes, solutions, leftover, firsts = call_kernel(
        explore_roots, rows, codes[0], codes[1], kernel_tables(box).as_tuple(), limit,
        budget, keep, False, values, slot, ticket)
    return KernelRun(int(count), int(nodes), solutions, leftover, int(firsts[0]))


def branch_masks(
    box: int, roots: MaskRows, order: str = "fewest", propagation: str = "units"
) -> tuple[np.ndarray, np.ndarray]:
    """Every root's children in one call: ``(rows, firsts)``, root ``i``'s children
    (the states ``explore_masks(box, root, budget=1)`` leaves) being
    ``rows[firsts[i]:firsts[i + 1]]``."""
    return branch_rows(box, mask_rows(box, roots),
                       (propagation_code(propagation), order_code(order)))


def branch_rows(box: int, rows: np.ndarray, codes: tuple[int, int]) -> tuple[
        np.ndarray, np.ndarray]:
    """``branch_masks`` on rows already checked, with the codes looked up (as
    ``explore_rows``)."""
    _, _, _, children, firsts = call_kernel(
        explore_roots, rows, codes[0], codes[1], kernel_tables(box).as_tuple(), 0, 1, 0, True,
        *NO_WATCH)
    return children, firsts


def solve_masks(
    box: int, masks: MaskRows, order: str = "fewest", propagation: str = "units"
) -> tuple[tuple[int, ...] | None, int]:
    """The first solution's values (None when there is none) and the nodes visited."""
    run = explore_masks(box, masks, order, propagation, mode="first")
    return (values_of(run.solutions[0]) if run.count else None), run.nodes


def count_masks(
    box: int,
    masks: MaskRows,
    order: str = "fewest",
    propagation: str = "units",
    limit: int | None = None,
) -> tuple[int, int]:
    """How many solutions (at most ``limit``) and the nodes visited."""
    run = explore_masks(box, masks, order, propagation, limit=limit)
    return run.count, run.nodes
