"""The compiled local-search methods for N-Queens (numba), in a directory of their own.

numba's on-disk cache of a kernel directory is stamped with all its sources
(``parallel_backtrack._jit_cache``): the kernels live here, apart from the command
line (``local/cli.py``), its options and ``find_one`` (``local/search.py``), so that
editing those does not recompile them.  Import the module you need; this package
file imports nothing.

Glossary
--------
min_conflicts
    ``min_conflicts.py``: the min-conflicts kernels (repairs, and the linear-time
    swaps), the random number generator and the board helpers, with a pure-Python
    reference of the repairs.
methods
    ``methods.py``: hill climbing, simulated annealing, the genetic algorithm and
    the constructive method, built on those helpers.
"""
