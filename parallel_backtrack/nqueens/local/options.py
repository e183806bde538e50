"""The local-search methods by name, their parameters and defaults: no numpy, no numba,
so the command line can build its options and refuse bad ones without loading a kernel.

Glossary
--------
method
    ``min-conflicts``, ``hill-climbing``, ``annealing``, ``genetic`` or
    ``constructive`` (``METHODS``); ``PARAMETERS[method]`` holds its tunables
    and their defaults.
variant
    Min-conflicts only: ``repair`` (greedy start, O(n^2)), ``swaps`` (random
    permutation, diagonal swaps) or ``auto`` (repair up to ``REPAIR_MAX_N``).
"""

from __future__ import annotations

from typing import Any

REPAIR_MAX_N = 2000  # the repair variant's greedy start costs O(n^2)
MAX_N = 2**31 - 1  # the swaps kernel stores columns as int32
VARIANTS = ("auto", "repair", "swaps")
UNLIMITED = 2**62

# Defaults per method; a None restart_after means "the variant's own default".
PARAMETERS: dict[str, dict[str, Any]] = {
    "min-conflicts": {"variant": "auto", "restart_after": None},
    "hill-climbing": {"sideways": 100},
    "annealing": {"temperature": 1.0, "cooling": 0.9999, "min_temperature": 0.01},
    "genetic": {"population": 100, "mutation": 0.3, "restart_after": 1000},
    "constructive": {},
}
METHODS = tuple(PARAMETERS)
# Per-search step caps when max_steps is None: min-conflicts always gets there,
# the others can wander for a long time on big boards.
DEFAULT_MAX_STEPS = {
    "min-conflicts": UNLIMITED,
    "hill-climbing": 100_000,
    "annealing": 10_000_000,
    "genetic": 100_000,
    "constructive": 0,
}


def resolve_variant(n: int, variant: str) -> str:
    """The min-conflicts variant that runs: ``auto`` is repair up to REPAIR_MAX_N."""
    if variant == "auto":
        return "repair" if n <= REPAIR_MAX_N else "swaps"
    return variant


__all__ = ["DEFAULT_MAX_STEPS", "MAX_N", "METHODS", "PARAMETERS", "REPAIR_MAX_N", "UNLIMITED",
           "VARIANTS", "resolve_variant"]
