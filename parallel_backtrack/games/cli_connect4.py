"""``games connect4``: the exact Connect-Four solver."""

from __future__ import annotations

from typing import Any


def add_parser(commands: Any) -> None:
    pass
