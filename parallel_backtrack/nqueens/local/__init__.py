"""Local search for one N-Queens solution: min-conflicts, hill climbing, annealing,
genetic and constructive methods, compiled with numba.

Glossary
--------
search
    ``search.py``: ``find_one`` (the public entry, one verified solution) and
    ``LocalResult``; the method names and their parameters.
kernel
    ``kernel/``: the compiled min-conflicts kernels (``min_conflicts.py``) and the
    other compiled methods (``methods.py``), in a folder of their own so that an
    edit of the command line or of ``search.py`` does not recompile them.
cli
    ``cli.py``: the ``--find-one`` options of ``python -m parallel_backtrack.nqueens``.
"""
