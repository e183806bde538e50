"""The compiled N-Queens counters (numba), in a directory of their own.

numba's on-disk cache of a kernel directory is stamped with all its sources
(``parallel_backtrack._jit_cache``): the kernels live here, apart from the command
line and the lab API, so that editing those does not recompile them.  Import the
module you need; this package file imports nothing.

Glossary
--------
subtree
    ``subtree.py``: ``count_subtree``, the bitboard counter for the
    first-available-row order, with a node budget and leftover subtrees.
canonical
    ``canonical.py``: ``count_canonical`` over the canonical tree of
    ``nqueens/symmetry.py``, and ``count_rotation_symmetric`` for Burnside's count.
"""
