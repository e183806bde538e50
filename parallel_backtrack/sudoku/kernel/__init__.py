"""The compiled Sudoku path (numba): search, propagation and bulk reading on candidate masks.

numba's on-disk cache of a kernel directory is stamped with all its sources
(``parallel_backtrack._jit_cache``): only the compiled code and what it reads live
here; the Python that calls it (``sudoku/calls.py``, ``masks.py``, ``batch.py``,
``warm.py``) lives one level up, so that editing it does not recompile the kernel.
Import the module you need; this package file imports nothing, so that loading one
part (``tables``, ``read``) does not compile or load the others.

Glossary
--------
search, propagate, matching, bits
    The compiled search loop, the propagators, the all-different matching and
    the bit helpers they share.
read
    The compiled pass of bulk reading.
tables
    Per-box index arrays, the layout every kernel here indexes.
"""
