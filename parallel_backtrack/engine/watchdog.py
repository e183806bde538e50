"""Workers that end with the process they work for.

A run that is stopped (the end, Ctrl-C, ``--timeout``) stops its pool itself.
One killed outright (``kill -9``, the out-of-memory killer) cannot: its workers
would run the tasks already queued for them and then wait minutes for work that
never comes, holding their memory.  So each local worker, on its first task,
starts a thread that checks every ``WATCH_SECONDS`` that the process it works
for is still there, and ends the worker when it is not.

Glossary
--------
owner
    The process that shipped the space the worker searches (``Shipped.owner``).
gone
    No such process, or a zombie: a dead process its own parent has not reaped
    yet, which a parent that reads the dead one's pipes does only once every
    worker holding them has ended.

Example: ``end_with(owner_pid)`` in a worker; it returns at once.
"""

from __future__ import annotations

import os
import threading
import time

# How often a worker checks that the process it works for is still there.
WATCH_SECONDS = 1.0
_WATCHED: set[int] = set()


def end_with(owner: int) -> None:
    """End this process within ``WATCH_SECONDS`` of ``owner`` being gone."""
    if owner in _WATCHED:
        return
    _WATCHED.add(owner)
    threading.Thread(target=_watch, args=(owner,), name="pb-owner", daemon=True).start()


def _watch(owner: int) -> None:
    while alive(owner):
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def alive(pid: int) -> bool:
    """Is ``pid`` running (not gone)?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # there, and not ours to signal
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as stream:
            return stream.read().rpartition(b")")[2].split()[0] != b"Z"
    except FileNotFoundError:
        return False
    except (OSError, IndexError):  # no /proc here: the signal test is all there is
        return True
