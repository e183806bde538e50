"""Answers written whole: a Ctrl-C never leaves half a line for the reader.

A Ctrl-C (SIGINT) or SIGTERM raises ``KeyboardInterrupt`` wherever the main thread
is, also inside ``write`` when the reader of stdout is slower than the search and
the pipe is full.  The line being written is then cut, and the summary printed after
the interrupt is glued to it: half a JSON object, or a solution missing its tail.
So a command line's handlers are ``deferring``: inside ``held_signals`` (an answer
being written, and counted) the first signal waits for the block to end and is
delivered then; a second one meanwhile is delivered at once.  Outside the command
lines (a program that calls ``main``, with its own handlers) nothing is held.

A reader that keeps the pipe open but never reads (``| less`` not scrolled, a
``sleep``) would hold the block forever.  So a command line whose stdout is a pipe
writes it through ``PipeWriter`` (``guard_stdout``): every write(2) is whole lines of
at most ``PIPE_BUF`` bytes, which a pipe takes whole or not at all, and a held signal
that sees the pipe take nothing for ``STALL_SECONDS`` is delivered there.  The pipe
then holds whole lines only (a line longer than ``PIPE_BUF`` may be cut), and what
the command writes afterwards is dropped instead of waiting again.

Glossary
--------
stuck
    ``PipeWriter.stuck``: a write to the pipe was cut by an exception (a signal
    delivered while the pipe took nothing, a second Ctrl-C, a closed pipe); later
    output is dropped (the reader does not read it, and none is sent twice).
tail
    The end of the text written so far that is not yet a whole line; it goes out with
    the line's end (or at close).

Example: ``write_whole(sys.stdout, "1 2 3\\n")``.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import select
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TextIO

Handler = Callable[[int, Any], Any]
_held = [0]  # how deep the main thread is in held_signals blocks
_caught: list[tuple[int, Handler]] = []  # the signal held, with the handler it is for
_caught_at = [0.0]  # when it was caught (time.monotonic)
STALL_SECONDS = 1.0  # a held signal that sees a pipe take nothing this long is delivered
# Characters that fit a stream's buffer (8 KiB, at most 4 bytes a character) whatever
# they are: writing them cannot lose bytes (``write_whole``).
_SHORT = 2048


def deferring(handler: Handler) -> Handler:
    """``handler`` (for SIGINT or SIGTERM), held while the main thread is in a
    ``held_signals`` block."""
    def deferred(signum: int, frame: Any) -> Any:
        if _held[0] and not _caught:
            _caught.append((signum, handler))
            _caught_at[0] = time.monotonic()
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


class PipeWriter(io.RawIOBase):
    """The raw stdout of a command line whose stdout is a pipe: whole lines in each
    write(2), at most ``PIPE_BUF`` bytes (atomic); it waits for room in short slices,
    so a held signal is delivered once the pipe has taken nothing for
    ``STALL_SECONDS`` (see the module's docstring)."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd, self.stuck, self.tail = fd, False, b""
        self.progress_at = time.monotonic()

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def write(self, data: Any) -> int:
        """Take ``data``: its whole lines go out now, its tail with the next line."""
        taken = len(data)
        if self.stuck:
            return taken
        pending = self.tail + bytes(data)
        end = pending.rfind(b"\n") + 1
        self.tail = pending[end:]
        self._send(memoryview(pending)[:end])
        return taken

    def send_tail(self) -> None:
        """The tail too, now (a flush asks for everything written)."""
        if self.tail and not self.stuck:
            tail, self.tail = self.tail, b""
            self._send(memoryview(tail))

    def close(self) -> None:
        if not self.closed:
            with contextlib.suppress(OSError):
                self.send_tail()
        super().close()

    def _send(self, data: memoryview) -> None:
        limit = select.PIPE_BUF
        try:
            while data and not self.stuck:
                chunk = data[:limit]
                if len(data) > limit:  # up to the last line's end that fits, if one does
                    cut = bytes(chunk).rfind(b"\n") + 1
                    chunk = chunk[:cut or limit]
                self._wait_for_room()
                written = os.write(self.fd, chunk)
                self.progress_at = time.monotonic()
                data = data[written:]
        except BaseException:
            # A signal's exception (a held one the pipe would not let finish, a second
            # Ctrl-C) or a closed pipe: the buffer above would send this write again
            # later, part of which may have gone out.  Stuck: nothing more goes out.
            self.stuck = True
            raise

    def _wait_for_room(self) -> None:
        poller = select.poll()
        poller.register(self.fd, select.POLLOUT)
        while not poller.poll(100):
            since = max(_caught_at[0], self.progress_at)
            if _caught and time.monotonic() - since >= STALL_SECONDS:
                self._deliver()

    @staticmethod
    def _deliver() -> None:
        """The held signal, now (not again at the end of its block)."""
        signum, handler = _caught.pop()
        handler(signum, None)


class _PipeBuffer(io.BufferedWriter):
    """A buffer whose flush sends the raw ``PipeWriter``'s tail as well."""

    raw: PipeWriter

    def flush(self) -> None:
        super().flush()
        self.raw.send_tail()


def guard_stdout() -> None:
    """For a command line: if stdout is a pipe, write it through ``PipeWriter``."""
    out = sys.stdout
    try:
        fd = out.fileno()
        is_pipe = stat.S_ISFIFO(os.fstat(fd).st_mode)
    except (AttributeError, OSError, ValueError):  # no real file (captured in tests)
        return
    if not is_pipe or os.linesep != "\n" or not hasattr(select, "poll"):
        return
    out.flush()
    buffer = _PipeBuffer(PipeWriter(fd))
    sys.stdout = io.TextIOWrapper(buffer, encoding=out.encoding, errors=out.errors,
                                  line_buffering=bool(out.line_buffering),
                                  write_through=getattr(out, "write_through", False))
