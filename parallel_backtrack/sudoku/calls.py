"""Calling the compiled Sudoku kernel: names to codes, and a Ctrl-C that lands inside.

Glossary
--------
code
    The small int a compiled function takes for an order or a propagator name
    (``ORDER_CODES``, ``PROPAGATION_CODES``): ``order_code("fewest")``.
interrupt
    numba reports a KeyboardInterrupt raised during a compiled call as a
    ``SystemError`` caused by it; ``call_kernel`` turns it back into one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from parallel_backtrack._jit_cache import compile_notice
from parallel_backtrack.engine.checks import UnknownNameError, did_you_mean, is_interrupt

from .boxes import BOX_SIZES, check_box

__all__ = ["BOX_SIZES", "call_kernel", "check_box", "kernel_codes", "order_code",
           "propagation_code"]
T = TypeVar("T")
# Kernels called once in this process: later calls skip the compile notice's look at
# numba's signatures and cache (some 3 us a call).
_CALLED: set[Any] = set()
# What a first compile is called on stderr, and about how long it takes on a laptop core.
COMPILED = {
    "parallel_backtrack.sudoku.kernel.search": ("the Sudoku search kernel", "20-60 s"),
    "parallel_backtrack.sudoku.kernel9.search": ("the 9x9 band kernel", "5-10 s"),
    "parallel_backtrack.sudoku.cdcl.kernel.search": ("the Sudoku clause-learning kernel",
                                                     "10-20 s"),
}


def call_kernel(function: Callable[..., T], *args: Any) -> T:
    """Call a compiled function; a Ctrl-C that lands inside it comes out as itself.

    numba reports a KeyboardInterrupt raised during a compiled call as a
    ``SystemError`` ("returned a result with an exception set"), sometimes two
    deep; callers should see the KeyboardInterrupt.  A first call that compiles is
    announced on stderr (``_jit_cache.compile_notice``).
    """
    try:
        if function in _CALLED:  # compiled or loaded by now: no notice to look for
            return function(*args)
        what, seconds = COMPILED.get(getattr(function, "__module__", ""),
                                     ("a kernel", "seconds"))
        with compile_notice(what, [function], seconds):
            result = function(*args)
        _CALLED.add(function)
        return result
    except SystemError as error:
        if is_interrupt(error):
            raise KeyboardInterrupt from error
        raise


@functools.lru_cache(maxsize=64)
def kernel_codes(propagation: str, order: str) -> tuple[int, int]:
    """``(propagation_code(propagation), order_code(order))``, looked up once."""
    return propagation_code(propagation), order_code(order)


def order_code(order: str) -> int:
    """The kernel's code for an order name; UnknownNameError with a "did you mean"."""
    from .kernel.search import ORDER_CODES  # (the general kernel: not loaded for the band kernel)

    if not isinstance(order, str) or order not in ORDER_CODES:
        raise UnknownNameError(did_you_mean("order", order, ORDER_CODES))
    return ORDER_CODES[order]


def propagation_code(propagation: str) -> int:
    """The kernel's code for a propagator name; UnknownNameError with a "did you mean"."""
    from .kernel.propagate import PROPAGATION_CODES  # (the general kernel, as in ``order_code``)

    if not isinstance(propagation, str) or propagation not in PROPAGATION_CODES:
        raise UnknownNameError(did_you_mean("propagation", propagation, PROPAGATION_CODES))
    return PROPAGATION_CODES[propagation]
