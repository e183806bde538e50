"""The compiled clause-learning search (numba), in a directory of its own.

numba's on-disk cache of a kernel directory is stamped with all its sources
(``parallel_backtrack._jit_cache``): the kernel lives here, apart from its driver
(``cdcl/solver.py``: the CNF, deadlines, the CLI's rows), so that editing the
driver does not recompile it.  Import the module you need; this package file
imports nothing.

Glossary
--------
search
    ``search.py``: ``cdcl_search``, the numba CDCL search (watched literals,
    learnt clauses, restarts) on integer arrays, and its counters and tuning.
"""
