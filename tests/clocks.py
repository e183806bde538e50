"""A wall clock that jumps, for the tests of time limits: every limit runs on the
steady clock (``time.perf_counter()``), so setting the system clock moves none."""

from __future__ import annotations

import time


class JumpingWallClock:
    """``time`` as a module uses it, whose wall clock jumps a day ahead after its first
    reading (an NTP step, a clock set by hand); the steady clocks are the real ones."""

    perf_counter = staticmethod(time.perf_counter)
    monotonic = staticmethod(time.monotonic)
    wall = staticmethod(time.time)

    def __init__(self) -> None:
        self.readings = 0

    def time(self) -> float:
        self.readings += 1
        return self.wall() + (86_400 if self.readings > 1 else 0)
