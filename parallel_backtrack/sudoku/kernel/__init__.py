"""The compiled Sudoku path (numba): search, propagation and bulk runs on candidate masks.

Import the module you need; this package file imports nothing, so that loading
one part (``tables``, ``read``) does not compile or load the others.

Glossary
--------
masks
    ``masks.py``: one state's (or several states') candidate masks through the
    search: ``explore_masks``, ``solve_masks``, ``count_masks``, ``branch_masks``.
batch
    ``batch.py``: many puzzles (a ``uint8`` givens array) solved or counted in
    one compiled call, on threads or loky processes.
search, propagate, matching, bits
    The compiled search loop, the propagators, the all-different matching and
    the bit helpers they share.
tables, read, calls, warm
    Per-box index arrays; the compiled pass of bulk reading; names to kernel
    codes and Ctrl-C handling; compiling ahead of a timing.  numba's on-disk
    cache of this directory is ``parallel_backtrack._jit_cache``'s.
"""
