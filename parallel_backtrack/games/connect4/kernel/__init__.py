"""The compiled Connect-Four search and its transposition table (numba); no command
line lives here (an edit of one would change this folder's stamp and recompile).

``scores`` (plain Python, no numba) holds Pons' score helpers and the table's codec,
used by the board, the parallel solve and, compiled, by ``search`` and ``table``.
"""
