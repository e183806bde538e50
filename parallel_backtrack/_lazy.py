"""Package attributes that load their module on first use (PEP 562).

A package lists where each public name lives (``homes``: name -> submodule) and
binds the two functions this returns as its module-level ``__getattr__`` and
``__dir__``; importing the package then costs nothing of its submodules, so a
command line answering ``--help`` loads no pools, numpy or numba.

Example: ``__getattr__, __dir__ = lazy_attributes(__name__, {"count": "modes"}, __all__)``.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from typing import Any


def lazy_attributes(package: str, homes: dict[str, str], names: Sequence[str]
                    ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: a name is imported from
    ``package.<homes[name]>`` when first asked for, then kept in the package."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(names))

    return __getattr__, __dir__
