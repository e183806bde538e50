"""The compiled sliding-puzzle code (numba), in a directory of its own.

numba's on-disk cache of a kernel directory is stamped with all its sources
(``parallel_backtrack._jit_cache``): the kernels live here, apart from the command
line, the readers and the solvers' drivers, so that editing those does not
recompile them.  Import the module you need; this package file imports nothing.

Glossary
--------
search
    ``search.py``: the IDA* depth-first pass below a bound (``search`` for every
    heuristic kind, ``search_tile`` for Hamming / Manhattan), resumable on a node
    budget; the heuristic's root value and the rank helpers.
cut
    ``cut.py``: the frontier of subtrees below a bound at one depth, for the
    parallel IDA* (the parent's cut, with the pass's node count).
builds
    ``builds.py``: the sparse pattern-database builds (breadth-first over pattern
    placements) and the exact 3x3 table.
ranked
    ``ranked.py``: the compact 7-8 databases (one entry per placement, by rank),
    built over threads.
"""
