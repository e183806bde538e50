"""Is a file text?  The one test every reader of a text file (puzzles, trees, positions)
makes on its first bytes, and the one way it words the answer.

Example: ``not_text(b"\\xff x", True)`` gives ``binary data or not UTF-8 text: byte 0xff
(not UTF-8) on line 1, column 1``; ``not_text(b"1 2 3", True)`` gives None.
"""

from __future__ import annotations

# Like git: a NUL byte (or bytes that are no UTF-8) this early means a binary file.
SNIFF_BYTES = 8_192


def not_text(head: bytes, whole: bool) -> str | None:
    """Why a file whose first bytes are ``head`` is no text file, or None: its first NUL
    byte or byte that is no UTF-8, e.g. ``binary data or not UTF-8 text: byte 0xff (not
    UTF-8) on line 1, column 1``.  ``head`` not ``whole`` (the file goes on) may end
    inside a character."""
    at = head.find(b"\0")
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        if (whole or error.reason != "unexpected end of data") and not 0 <= at < error.start:
            at = error.start
    if at < 0:
        return None
    what = "a NUL byte" if head[at] == 0 else f"byte 0x{head[at]:02x} (not UTF-8)"
    line, column = head.count(b"\n", 0, at) + 1, at - head.rfind(b"\n", 0, at)
    return f"binary data or not UTF-8 text: {what} on line {line}, column {column}"
