"""Bit helpers for the compiled Sudoku kernel: candidate masks as uint64.

Every helper here is a tiny ``@njit`` function that numba inlines into the
kernel, so the kernel reads as set operations instead of bit twiddling.

Glossary
--------
mask
    A ``uint64`` set of values: value ``v`` (1..n) is bit ``v - 1``.
    Example: ``0b100101`` is the set {1, 3, 6}.
full mask
    All ``n`` values: ``(1 << n) - 1``; n <= 36, so 64 bits always suffice.
single
    A mask with exactly one bit set: the square's value is known.
low bit
    The smallest value of a mask, as a mask (``0b100100 -> 0b000100``).

All constants are ``uint64`` on purpose: numba turns ``uint64 op int64`` into
float64, which would silently break the masks.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core.cpu import CPUTargetOptions
from numba.extending import intrinsic

from ... import _jit_cache  # noqa: F401  (registers the cache locators before any @njit)

U64_ZERO = np.uint64(0)
U64_ONE = np.uint64(1)

# The search loop allocates nothing, so it can run without numba's reference
# counting (a private but long-standing option); that is worth about 10%.
_NO_REFCOUNTS = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}
hot_njit = njit(cache=True, **_NO_REFCOUNTS)  # type: ignore[call-overload]


@intrinsic
def _llvm_ctpop(typingctx, x):  # type: ignore[no-untyped-def]
    """LLVM's population count: one ``popcnt`` instruction on x86-64."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def _llvm_cttz(typingctx, x):  # type: ignore[no-untyped-def]
    """LLVM's count of trailing zeros (``tzcnt``); undefined for 0."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return x(x), codegen


@njit(inline="always", cache=True)
def popcount(mask: np.uint64) -> int:
    """How many values the mask holds."""
    return np.int64(_llvm_ctpop(np.uint64(mask)))  # type: ignore[return-value, call-arg]


@njit(inline="always", cache=True)
def low_bit_index(mask: np.uint64) -> int:
    """Index of the smallest value (value - 1); the mask must not be empty."""
    return np.int64(_llvm_cttz(np.uint64(mask)))  # type: ignore[return-value, call-arg]


@njit(inline="always", cache=True)
def low_bit(mask: np.uint64) -> np.uint64:
    """The smallest value of a mask, as a one-bit mask (0 for the empty mask)."""
    return mask & (~mask + U64_ONE)


@njit(inline="always", cache=True)
def is_single(mask: np.uint64) -> bool:
    """True when the mask holds exactly one value."""
    return mask != U64_ZERO and (mask & (mask - U64_ONE)) == U64_ZERO


@njit(inline="always", cache=True)
def has_many(mask: np.uint64) -> bool:
    """True when the mask holds two values or more."""
    return (mask & (mask - U64_ONE)) != U64_ZERO


def full_mask(size: int) -> int:
    """The mask of all values 1..size."""
    return (1 << size) - 1
