"""Is a file text?  The one test every reader of a text file (puzzles, trees, positions)
makes on its first bytes, and the one way it words the answer; and the byte order mark
every reader skips.

Example: ``not_text(b"\\xff x", True)`` gives ``binary data or not UTF-8 text: byte 0xff
(not UTF-8) on line 1, column 1``; ``not_text(b"1 2 3", True)`` gives None.
"""

from __future__ import annotations

# Like git: a NUL byte (or bytes that are no UTF-8) this early means a binary file.
SNIFF_BYTES = 8_192
# The UTF-8 byte order mark some editors (Windows Notepad) write at the start of a file.
BOM = b"\xef\xbb\xbf"


def without_bom(data: bytes) -> bytes:
    """``data`` without the UTF-8 byte order mark it may start with: every reader takes
    a file with one as the same file without it."""
    return data[len(BOM):] if data.startswith(BOM) else data


def first_problem(data: bytes, whole: bool) -> tuple[int, str] | None:
    """(offset, what) of the first NUL byte or byte that is no UTF-8 in ``data``, or
    None.  ``data`` not ``whole`` (the file or line goes on) may end inside a character:
    that is no problem."""
    nul = data.find(b"\0")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        if whole or error.reason != "unexpected end of data":
            if nul < 0 or error.start < nul:
                return error.start, f"byte 0x{data[error.start]:02x} (not UTF-8)"
    return None if nul < 0 else (nul, "a NUL byte")


def not_text(head: bytes, whole: bool) -> str | None:
    """Why a file whose first bytes are ``head`` is no text file, or None: its first NUL
    byte or byte that is no UTF-8 (``first_problem``), e.g. ``binary data or not UTF-8
    text: byte 0xff (not UTF-8) on line 1, column 1``."""
    problem = first_problem(head, whole)
    if problem is None:
        return None
    at, what = problem
    line, column = head.count(b"\n", 0, at) + 1, at - head.rfind(b"\n", 0, at)
    return f"binary data or not UTF-8 text: {what} on line {line}, column {column}"


def sniff(data: bytes) -> str | None:
    """``not_text`` of a whole file's ``data``, judged on its first ``SNIFF_BYTES``."""
    return not_text(data[:SNIFF_BYTES], len(data) <= SNIFF_BYTES)
