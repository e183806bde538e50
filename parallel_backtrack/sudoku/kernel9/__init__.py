"""The 9x9 band kernel (numba): plain 9x9 solving and counting in bulk.

Import the module you need; this package file imports nothing.

Glossary
--------
tables
    ``tables.py``: the 512-entry rule tables and the peers of each cell as band words.
band
    ``band.py``: one state's words, placements and the propagation rules.
search
    ``search.py``: the depth-first search and ``search_many9``, the batch entry point
    that ``sudoku/batch.py`` calls for ``propagation="bands"`` (and ``"auto"`` on 9x9).
"""
