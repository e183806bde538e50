"""Answers written whole: a Ctrl-C never leaves half a line for the reader.

A Ctrl-C (SIGINT) or SIGTERM raises ``KeyboardInterrupt`` wherever the main thread
is, also inside ``write`` when the reader of stdout is slower than the search and
the pipe is full.  The line being written is then cut, and the summary printed after
the interrupt is glued to it: half a JSON object, or a solution missing its tail.
So a command line's handlers are ``deferring``: inside ``held_signals`` (an answer
being written, and counted) the first signal waits for the block to end and is
delivered then; a second one meanwhile is delivered at once, so a reader that never
reads cannot keep the command from stopping.  Outside the command lines (a program
that calls ``main``, with its own handlers) nothing is held.

Example: ``write_whole(sys.stdout, "1 2 3\\n")``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any, TextIO

Handler = Callable[[int, Any], Any]
_held = [0]  # how deep the main thread is in held_signals blocks
_caught: list[tuple[int, Handler]] = []  # the signal held, with the handler it is for
# Characters that fit a stream's buffer (8 KiB, at most 4 bytes a character) whatever
# they are: writing them cannot lose bytes (``write_whole``).
_SHORT = 2048


def deferring(handler: Handler) -> Handler:
    """``handler`` (for SIGINT or SIGTERM), held while the main thread is in a
    ``held_signals`` block."""
    def deferred(signum: int, frame: Any) -> Any:
        if _held[0] and not _caught:
            _caught.append((signum, handler))
            return None
        return handler(signum, frame)

    return deferred


@contextlib.contextmanager
def held_signals() -> Iterator[None]:
    """Hold a deferred signal (``deferring``) in the block; deliver it when the block
    ends (unless the block raised: a second signal's exception, say)."""
    if threading.get_ident() != threading.main_thread().ident:
        yield  # signals are handled in the main thread: none to hold here
        return
    _held[0] += 1
    try:
        yield
    finally:
        _held[0] -= 1
        pending = [] if _held[0] else _caught[:]
        if not _held[0]:
            _caught.clear()
    for signum, handler in pending:
        handler(signum, None)


def write_whole(out: TextIO, text: str, flush: bool = False) -> None:
    """Write ``text`` (whole lines) to ``out`` with a Ctrl-C held until it is written.

    A signal caught while a write bigger than the stream's buffer waits on a full pipe
    makes the binary buffer return short (the pipe took part of it), and
    ``TextIOWrapper.write`` does not look at the count: the rest is lost (CPython
    gh-85393).  So such text goes to ``out.buffer`` here, until every byte is taken; a
    short text goes through the buffer, whose own flushes write all they hold."""
    with held_signals():
        buffer = getattr(out, "buffer", None)
        if len(text) <= _SHORT or buffer is None or os.linesep != "\n":
            out.write(text)  # (a StringIO; or newlines to translate)
        else:
            out.flush()  # what was written before goes first
            data = memoryview(text.encode(out.encoding or "utf-8", out.errors or "strict"))
            while data:
                written = buffer.write(data)
                if not written:  # a non-blocking stdout that takes nothing now
                    raise BlockingIOError(errno.EAGAIN, "stdout takes no output now")
                data = data[written:]
        if flush:
            out.flush()
