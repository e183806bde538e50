"""Keep numba's on-disk cache of the Sudoku kernel honest across its files.

numba stamps a cached function with the hash of the one file that defines it.
The kernel's entry points inline helpers from the other files of this package,
so an edit to a helper alone would leave stale machine code in the cache and
the kernel would silently run the old rules.  The locators here stamp every
kernel function with the hash of all the kernel's source files together.

Glossary
--------
locator
    numba's object that says where a function's cache lives and how fresh
    its source is (``get_source_stamp``).
kernel source
    Every ``.py`` file of this package directory (``sudoku/kernel/``).

Importing this module registers the locators (once); it must be imported
before any kernel function is decorated, which ``bits`` and ``read`` do.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from numba.core import caching

_HERE = Path(__file__).resolve().parent


def _numba_class(name: str) -> type:
    """A numba caching class by its public name, or its older private one."""
    found = getattr(caching, name, None) or getattr(caching, "_" + name)
    return found  # type: ignore[no-any-return]


@lru_cache(maxsize=1)
def kernel_source_stamp() -> str:
    """One hash over the names and contents of all kernel source files."""
    digest = hashlib.sha256()
    for path in sorted(_HERE.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _is_kernel_source(py_file: str) -> bool:
    return Path(py_file).resolve().parent == _HERE


class _KernelStampMixin:
    """Locator behaviour shared by both places the cache may live."""

    @classmethod
    def from_function(cls, py_func, py_file):  # type: ignore[no-untyped-def]
        if not _is_kernel_source(py_file):
            return None
        return super().from_function(py_func, py_file)  # type: ignore[misc]

    def get_source_stamp(self) -> str:
        return kernel_source_stamp()


class KernelUserProvidedLocator(_KernelStampMixin, _numba_class("UserProvidedCacheLocator")):  # type: ignore[misc]
    """The cache under ``NUMBA_CACHE_DIR`` when it is set, stamped with all kernel sources."""


class KernelInTreeLocator(_KernelStampMixin, _numba_class("InTreeCacheLocator")):  # type: ignore[misc]
    """The cache in ``__pycache__`` next to the sources, stamped with all of them."""


class KernelUserWideLocator(_KernelStampMixin, _numba_class("UserWideCacheLocator")):  # type: ignore[misc]
    """The per-user cache (read-only installs), stamped with all kernel sources."""


def register() -> None:
    """Put the kernel's locators first in numba's list (idempotent)."""
    classes = _numba_class("CacheImpl")._locator_classes
    for locator in (KernelUserWideLocator, KernelInTreeLocator, KernelUserProvidedLocator):
        if locator not in classes:
            classes.insert(0, locator)


register()
