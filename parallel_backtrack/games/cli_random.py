"""``games random``: parallel alpha-beta on a seeded random tree."""

from __future__ import annotations

from typing import Any


def add_parser(commands: Any) -> None:
    pass
