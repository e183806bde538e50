"""Compile (or load from numba's cache) the Sudoku kernel's entry points ahead of a timing.

Glossary
--------
warm
    Every entry point called once on a tiny input, so numba compiles it or
    loads it from its on-disk cache now rather than inside a measurement.
"""

from __future__ import annotations

from collections.abc import Sequence

from .batch import solve_batch
from .calls import check_box
from .kernel.bits import full_mask
from .kernel.read import broken_rows, read_clean
from .masks import explore_masks


def warm_up(boxes: Sequence[int] = (3,)) -> None:
    """Compile (or load from numba's cache) every kernel entry point, so timings
    leave it out.  The compiled code does not depend on the box size; ``boxes``
    only picks the tables to build."""
    for box in boxes:
        size = check_box(box) ** 2
        explore_masks(box, [full_mask(size)] * size**2, mode="first", budget=4)
        clean = read_clean(("." * size**2 + "\n").encode(), size**2)
        if clean is None:  # one line of blanks is clean by construction
            raise RuntimeError("internal error: the bulk reader refused a line of blanks")
        broken_rows(box, clean[1])
        solve_batch(clean[1])
