"""One on-disk numba cache for every copy of this package, and a word before a compile.

numba keeps compiled kernels next to their sources (``__pycache__``) and stamps each
with its one defining file.  Two things went wrong with that:

* Two copies of the same sources compile twice.  ``python -m parallel_backtrack...``
  started in a folder that holds a ``parallel_backtrack/`` directory (the source
  checkout) imports that copy, not the installed one, so its first run and a first
  run from any other folder compiled the same kernels into two places.
* A kernel's entry points inline helpers from the other files of their directory,
  so an edit to a helper alone left stale machine code behind.

The locators here put the cache of a kernel directory in one user-wide place named
by the directory and a hash of all its ``.py`` files: every copy of the same
sources shares it, and any edit in the directory starts a fresh one.  Where that
place cannot be written, the cache goes to ``__pycache__`` with the same stamp, and
where neither can (a read-only install and home), to a private folder of the user in
the temporary directory.  ``NUMBA_CACHE_DIR``, when set, replaces the user-wide root.

A process that uses a cache directory marks it used and holds it while it runs
(``_jit_use``: a few system calls, once per directory).  Old caches do not pile up:
when a process creates the cache directory of a new stamp (the sources changed: an
upgrade, an edit), it removes that kernel directory's caches that no one has used
for 30 days, and beyond 8 the least recently used, never one a process holds,
ignoring any error (``_jit_prune``).  Several versions used in turn keep their caches.

The paths themselves are computed in ``_jit_paths``, which a command line can ask
whether a kernel is compiled before it imports numba.

``compile_notice`` prints one line on stderr before a kernel that is not in the
cache is compiled (what, about how long, once, where the cache lives), and on a
terminal counts the seconds until it is done.

Glossary
--------
kernel directory
    A package directory with ``@njit(cache=True)`` functions; the list is derived
    (``_jit_paths.kernel_directories``): ``nqueens/kernel``,
    ``nqueens/local/kernel``, ``sudoku/kernel``, ``sudoku/kernel9``,
    ``sudoku/cdcl/kernel``, ``sliding/kernel`` and ``games/connect4/kernel``.  Each
    module there imports this one before it decorates a function, so its kernels
    cache here whichever is imported first.  It holds compiled code and what that
    code reads or compiles, never the plain Python that drives it (that would make
    an edit of the driver recompile the kernels).
stamp
    sha256 over the names and contents of the directory's ``.py`` files.
cache root
    ``$NUMBA_CACHE_DIR/parallel_backtrack``, else the user cache directory
    (``~/.cache/parallel_backtrack/numba`` on Linux); a kernel directory's cache
    is ``<root>/<dir as dotted name>-<first 16 hex digits of its stamp>``.

Import this module (``register()`` runs once) before any kernel is decorated.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from numba.core import caching, config

from . import _jit_paths
from ._jit_paths import PACKAGE, directory_stamp, kernel_directories
from ._jit_use import hold

__all__ = ["PACKAGE", "cache_dir", "cache_root", "compile_notice", "directory_stamp",
           "is_cached", "kernel_directories", "register", "where_cached"]
NOTICE_SECONDS = 1.0  # a compile expected to take less is not announced
_announced: set[str] = set()
_held: list[Any] = []
_ensured: set[str] = set()  # cache directories this process has made sure of


def _numba_class(name: str) -> type:
    """A numba caching class by its public name, or its older private one."""
    found = getattr(caching, name, None) or getattr(caching, "_" + name)
    return found  # type: ignore[no-any-return]


def cache_root() -> Path:
    """Where every kernel directory's cache lives (see the glossary)."""
    return _jit_paths.cache_root(getattr(config, "CACHE_DIR", "") or "")  # NUMBA_CACHE_DIR


def cache_dir(directory: Path) -> Path:
    """The shared cache of one kernel directory of this package."""
    return _jit_paths.cache_dir(directory, getattr(config, "CACHE_DIR", "") or "")


def _kernel_directory(py_file: str) -> Path | None:
    directory = Path(py_file).resolve().parent
    return directory if directory.is_relative_to(PACKAGE) else None


class _DirectoryStampMixin:
    """Locator behaviour shared by both places: this package only, directory stamps."""

    _directory: Path

    def get_source_stamp(self) -> str:
        return directory_stamp(self._directory)

    @classmethod
    def from_function(cls, py_func, py_file):  # type: ignore[no-untyped-def]
        directory = _kernel_directory(py_file)
        if directory is None:
            return None
        locator = super().from_function(py_func, py_file)  # type: ignore[misc]
        if locator is not None:
            locator._directory = directory
        return locator


class SharedCacheLocator(_DirectoryStampMixin, _numba_class("InTreeCacheLocator")):  # type: ignore[misc]
    """The user-wide cache of a kernel directory, shared by every copy of its sources."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        super().__init__(py_func, py_file)
        self._cache_path = str(cache_dir(Path(py_file).resolve().parent))

    def ensure_cache_path(self) -> None:
        """numba's check (create, write a test file); then, once per directory and
        process, mark the cache used and hold it (``_jit_use``), and after creating a
        new stamp's directory remove the stale siblings (``_jit_prune``)."""
        path = self._cache_path
        first = path not in _ensured
        new = first and not os.path.isdir(path)
        super().ensure_cache_path()
        if not first:
            return
        _ensured.add(path)
        hold(Path(path))
        if new:
            from ._jit_prune import prune_siblings  # (not on the path of a found cache)

            prune_siblings(Path(path))


class PackageInTreeLocator(_DirectoryStampMixin, _numba_class("InTreeCacheLocator")):  # type: ignore[misc]
    """``__pycache__`` next to the sources (the user-wide place is not writable)."""


class TempCacheLocator(SharedCacheLocator):
    """The temporary cache root (``_jit_paths``): neither the user-wide place nor
    ``__pycache__`` is writable.  Used only while its folder is the user's own."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        super().__init__(py_func, py_file)
        self._cache_path = str(_jit_paths.temp_cache_dir(Path(py_file).resolve().parent))

    def ensure_cache_path(self) -> None:
        _jit_paths.private_folder(_jit_paths.temp_folder())
        super().ensure_cache_path()


def quick_loads_in_commands() -> bool:
    """In a process started as one of our command lines, load every kernel from the
    cache without numba's compiler set-up (``engine.quickload``) from now on.  It
    starts here, with the first kernel module, so a command that needs no kernel
    never imports numba.  True if it started."""
    from ._lean import started_as_command

    if not started_as_command():
        return False
    from .engine.quickload import quick_loads

    block = quick_loads()
    block.__enter__()  # for the rest of this one-shot process
    _held.append(block)  # (dropped, the block's generator would close and end it)
    return True


def register() -> None:
    """Put this package's locators first in numba's list, in the order they are tried:
    the user-wide place, ``__pycache__``, the temporary folder (idempotent)."""
    impl: Any = _numba_class("CacheImpl")
    classes = impl._locator_classes
    for locator in (TempCacheLocator, PackageInTreeLocator, SharedCacheLocator):
        if locator not in classes:
            classes.insert(0, locator)


def is_cached(function: Any) -> bool:
    """Is a compiled ``@njit(cache=True)`` function loaded or in the on-disk cache?

    True when it cannot tell (an unknown numba layout): no notice is better than
    a wrong one.
    """
    if getattr(function, "signatures", None):
        return True
    try:
        return os.path.exists(function._cache._cache_file._index_path)
    except AttributeError:
        return True


def where_cached(function: Any) -> str:
    try:
        return str(function._cache._cache_path)
    except AttributeError:
        return str(cache_root())


@contextmanager
def compile_notice(what: str, functions: Sequence[Any], seconds: str) -> Iterator[None]:
    """Around the first call of ``functions``: when one is not cached, say on stderr
    that ``what`` is compiled (about ``seconds``, once, and where the cache lives);
    on a terminal, count the seconds until the block ends."""
    if what in _announced or all(is_cached(f) for f in functions):
        yield
        return
    _announced.add(what)
    missing = next(f for f in functions if not is_cached(f))
    print(f"parallel_backtrack: compiling {what} (once; about {seconds}); later runs load it "
          f"from {where_cached(missing)}", file=sys.stderr, flush=True)
    if not sys.stderr.isatty():
        yield
        return
    done = threading.Event()
    ticker = threading.Thread(target=_count_seconds, args=(done,), daemon=True)
    ticker.start()
    try:
        yield
    finally:
        done.set()
        ticker.join()


def _count_seconds(done: threading.Event) -> None:
    started = time.monotonic()
    while not done.wait(0.5):
        sys.stderr.write(f"\r  compiling... {time.monotonic() - started:4.0f} s")
        sys.stderr.flush()
    sys.stderr.write(f"\r  compiled in {time.monotonic() - started:.0f} s      \n")
    sys.stderr.flush()


register()
quick_loads_in_commands()
