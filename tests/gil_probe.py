"""Test helper: does a compiled call let other Python threads run (release the GIL)?

A process pool's parent runs loky's and the progress bar's threads beside its own
kernel calls (the probe, splitting); a kernel that holds the GIL stalls them all,
and with them the start of the workers.

Glossary
--------
blocked
    The longest stretch of a call in which a spinning thread beside it took no
    timestamp, as a share of the call's duration: about 1 for a call that holds
    the GIL (the spinner cannot run a single bytecode until it returns), small for
    one that releases it (only the operating system keeps the spinner off a core,
    for a few milliseconds at a time, more on a loaded machine).
references
    Two calls of known behaviour measured in the same run, interleaved with the
    call under test: ``hashlib.pbkdf2_hmac`` releases the GIL, ``sum(range(...))``
    holds it.  A call releases the GIL when its blocked share is nearer (as a
    ratio) to the first's.
"""

from __future__ import annotations

import hashlib
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

TICK = 0.002  # the spinner notes the time at most this often


def blocked_share(call: Callable[[], Any]) -> float:
    """Run ``call`` while another thread spins; the longest gap in that thread's
    timestamps, as a share of the call's duration."""
    stamps: list[float] = []
    stop = threading.Event()
    started = threading.Event()

    def spin() -> None:
        started.set()
        last = 0.0
        while not stop.is_set():
            now = time.perf_counter()
            if now - last >= TICK:
                stamps.append(now)
                last = now

    spinner = threading.Thread(target=spin, daemon=True)
    spinner.start()
    started.wait()
    begin = time.perf_counter()
    call()
    end = time.perf_counter()
    stop.set()
    spinner.join()
    if end - begin < 10 * TICK:
        raise ValueError(f"the call took {end - begin:.4f} s: too short to tell")
    points = [begin, *(stamp for stamp in stamps if begin < stamp < end), end]
    return max(b - a for a, b in zip(points, points[1:])) / (end - begin)


def releasing_reference() -> None:
    hashlib.pbkdf2_hmac("sha256", b"x", b"salt", 200_000)  # OpenSSL, without the GIL


def holding_reference() -> None:
    sum(range(10**7))  # one C call that never lets go of the GIL


def releases_the_gil(call: Callable[[], Any], rounds: int = 3) -> tuple[bool, str]:
    """Does ``call`` let another thread run, compared with the two references in the
    same run (interleaved, medians of ``rounds``)?  Also the figures, for the message.
    Raises AssertionError when even the references cannot be told apart."""
    shares: dict[str, list[float]] = {"call": [], "releasing": [], "holding": []}
    for _ in range(rounds):
        shares["call"].append(blocked_share(call))
        shares["releasing"].append(blocked_share(releasing_reference))
        shares["holding"].append(blocked_share(holding_reference))
    call_share, releasing, holding = (statistics.median(v) for v in shares.values())
    figures = f"blocked shares (medians {call_share:.2f}, {releasing:.2f}, {holding:.2f}): {shares}"
    if holding < 2 * releasing:
        raise AssertionError(f"the references cannot be told apart: {figures}")
    return call_share < (releasing * holding) ** 0.5, figures
