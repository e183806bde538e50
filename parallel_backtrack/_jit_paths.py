"""Where the compiled kernels' on-disk cache lives, and whether a kernel is in it, without
importing numba.

``_jit_cache`` (which imports numba) puts the cache of each kernel directory in one
user-wide place named by the directory and a hash of its sources.  A command line
asks here, before it loads numba, whether the kernel it would use is already
compiled: if not, a small job does better on the Python path than waiting 20-60 s
for a compile.

Glossary
--------
kernel directory, stamp, cache root
    As in ``_jit_cache``: ``sudoku/kernel``; sha256 over the names and contents of
    its ``.py`` files; ``$NUMBA_CACHE_DIR/parallel_backtrack``, else the user cache
    directory (``~/.cache/parallel_backtrack/numba`` on Linux).
temporary cache root
    ``<temporary directory>/parallel_backtrack-<uid>/numba``: the last resort where
    neither the cache root nor ``__pycache__`` can be written (a read-only install
    and home); used only while its top folder is this user's own and closed to
    everyone else (``private_folder``), as another user could have put code there.
index file
    numba's ``<module>.<function>-<line>.py<version>.nbi`` in a cache directory: the
    function has been compiled (for some signature) and its machine code kept.

kernel directories
    Derived, not listed: every directory of the package with a ``.py`` file that
    uses numba's ``njit`` (``@njit``, ``numba.njit``), see ``kernel_directories``.

Example: ``is_compiled(PACKAGE / "sudoku" / "kernel", "search.explore_roots")``.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import sys
import tempfile
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
APP = "parallel_backtrack"
MENTIONS_NJIT = re.compile(rb"\bnjit\b")


def uses_njit(source: bytes) -> bool:
    """Does this Python source compile with numba: ``from numba import njit`` or
    ``numba.njit`` in its code (not in a comment or docstring)?"""
    if not MENTIONS_NJIT.search(source):
        return False
    import ast  # only for the few files that name it

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("numba"):
            if any(alias.name == "njit" for alias in node.names):
                return True
        elif (isinstance(node, ast.Attribute) and node.attr == "njit"
              and isinstance(node.value, ast.Name) and node.value.id == "numba"):
            return True
    return False


def kernel_directories(root: Path = PACKAGE) -> tuple[Path, ...]:
    """Every directory under ``root`` with a ``.py`` file that uses ``njit`` (a kernel
    directory: one numba cache, stamped by all its sources), sorted."""
    found = {path.parent for path in root.rglob("*.py")
             if "__pycache__" not in path.parts and uses_njit(path.read_bytes())}
    return tuple(sorted(found))


@cache
def directory_stamp(directory: Path) -> str:
    """One hash over the names and contents of the ``.py`` files of ``directory``."""
    digest = hashlib.sha256()
    for path in sorted(directory.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def user_cache_dir() -> Path:
    """The user cache directory of this package, as numba's ``appdirs`` names it."""
    if sys.platform.startswith("linux"):  # the common case, without platformdirs' import
        return Path(os.getenv("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))) / APP
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP, appauthor=False))


def cache_root(numba_cache_dir: str | None = None) -> Path:
    """Where every kernel directory's cache lives; ``numba_cache_dir`` is numba's
    ``NUMBA_CACHE_DIR`` setting (read from the environment when None)."""
    root = os.environ.get("NUMBA_CACHE_DIR", "") if numba_cache_dir is None else numba_cache_dir
    return Path(root) / APP if root else user_cache_dir() / "numba"


def cache_dir(directory: Path, numba_cache_dir: str | None = None) -> Path:
    """The shared cache of one kernel directory of this package."""
    name = ".".join(directory.relative_to(PACKAGE).parts) or "root"
    return cache_root(numba_cache_dir) / f"{name}-{directory_stamp(directory)[:16]}"


def temp_folder() -> Path:
    """This user's folder in the temporary directory (checked by ``private_folder``)."""
    getuid = getattr(os, "getuid", None)  # (none on Windows, whose temp is the user's own)
    name = f"{APP}-{getuid()}" if getuid else APP
    return Path(tempfile.gettempdir()) / name


def temp_cache_dir(directory: Path) -> Path:
    """The temporary cache of one kernel directory (see the glossary)."""
    return temp_folder() / "numba" / cache_dir(directory).name


def private_folder(path: Path) -> Path:
    """Make the folder ``path`` (mode 0700) if it is missing, and check that it is a
    folder of this user's own that no one else may enter; OSError if not."""
    path.mkdir(mode=0o700, exist_ok=True)
    info = os.lstat(path)
    getuid = getattr(os, "getuid", None)
    if not stat.S_ISDIR(info.st_mode) or (
            getuid is not None and (info.st_uid != getuid() or info.st_mode & 0o077)):
        raise OSError(f"{path} is not a private folder of this user")
    return path


def writable(folder: Path) -> bool:
    """Can ``folder`` be written, or made where its nearest existing parent is?"""
    for place in (folder, *folder.parents):
        if place.exists():
            return place.is_dir() and os.access(place, os.W_OK | os.X_OK)
    return False


def is_compiled(directory: Path, *functions: str) -> bool:
    """Has each ``module.function`` of ``directory`` an index file in the cache numba
    would use: the shared one, ``__pycache__`` where that one cannot be written, the
    temporary one where neither can?"""
    version = f"py{sys.version_info.major}{sys.version_info.minor}"
    place = next((folder for folder in (cache_dir(directory), directory / "__pycache__")
                  if writable(folder)), temp_cache_dir(directory))
    return all(any(place.glob(f"{function}-*.{version}*.nbi")) for function in functions)
