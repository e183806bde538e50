"""Local search for one N-Queens solution: min-conflicts, hill climbing, annealing,
genetic and constructive methods, compiled with numba.

Glossary
--------
search
    ``search.py``: ``find_one`` (the public entry, one verified solution) and
    ``LocalResult``; the method names and their parameters.
kernel, methods
    The compiled min-conflicts kernels and the other compiled methods.
cli
    ``cli.py``: the ``--find-one`` options of ``python -m parallel_backtrack.nqueens``.
"""
