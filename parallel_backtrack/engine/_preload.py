"""Imported once, by the fork server (see ``forkserver.py``): load the run's space
and its kernels, so every worker forked from the server starts warm, then leave
the ready file.  Whatever fails here, the workers load what they need themselves."""

from __future__ import annotations

import json
import os
import signal


def _load() -> None:
    # A Ctrl-C while the server boots must not print a traceback from it; the
    # server ignores SIGINT itself once it is up, and its workers get the default
    # handler back.
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)  # drops one that came already
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked by the parent
    ready = None
    try:
        from .forkserver import SPACE_ENV
        from .worker import Shipped, unship, warm

        key, path, ready = json.loads(os.environ.get(SPACE_ENV, ""))

        if key is not None and path is not None:
            warm(unship(Shipped(key, path)))  # cached: a forked worker finds it loaded
    except Exception:  # noqa: BLE001, S110 - best effort: see the docstring
        pass
    finally:
        if ready is not None:
            with open(ready, "wb"):
                pass
        signal.signal(signal.SIGINT, old)


_load()
