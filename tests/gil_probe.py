"""Test helper: does a compiled call let other Python threads run (release the GIL)?

A process pool's parent runs loky's and the progress bar's threads beside its own
kernel calls (the probe, splitting); a kernel that holds the GIL stalls them all,
and with them the start of the workers.

Glossary
--------
share
    The fraction of a call's duration in which a spinning thread beside it took
    timestamps: about 1 for a call that releases the GIL, about 0 for one that
    holds it (the spinner cannot run a single bytecode meanwhile).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

TICK = 0.002  # the spinner notes the time at most this often


def other_thread_share(call: Callable[[], Any]) -> float:
    """Run ``call`` while another thread spins; the share of its time that thread ran."""
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
    inside = [stamp for stamp in stamps if begin < stamp < end]
    if end - begin < 10 * TICK:
        raise ValueError(f"the call took {end - begin:.4f} s: too short to tell")
    return len(inside) * TICK / (end - begin)
