"""Self-contained HTML pages: one file, inline CSS, JavaScript and data.

A page opens from ``file://`` in any current browser and asks nothing of the
network: no CDN, no font, no image outside the file.  Its data sit in
``<script type="application/json">`` blocks that the page's own scripts read.

Glossary
--------
section
    One part of a page: a heading, its HTML, the JSON data its script reads
    (``data-<key>``) and the scripts (files in ``assets/``) that draw it.
legend
    One line per colour a section uses: ``(css colour, what it means)``.
capped
    A trace cut at ``--trace-limit`` steps; the page says so, and where.
target
    The file a page is written to; ``check_target`` finds a path that cannot
    be written before any search starts.

Example: ``render_page("8-queens", [Section("Search", "<div id=b></div>", "queens",
{"n": 8}, ("player.js", "queens.js"))])`` returns the page's text.
"""

from __future__ import annotations

import html
import json
import os
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

MAX_PAGE_BYTES = 2_000_000
DEFAULT_TRACE_LIMIT = 5_000
MAX_TRACE_LIMIT = 200_000


class PageError(ValueError):
    """A page that cannot be made: an unwritable target, a problem too big to show."""


@dataclass
class Section:
    """One part of a page (see the glossary)."""

    heading: str
    body: str
    key: str
    data: Any
    scripts: tuple[str, ...]
    legend: tuple[tuple[str, str], ...] = ()
    notes: list[str] = field(default_factory=list)


def capped_at(steps: int, limit: int) -> str:
    """The start of a capped trace's note: which cap stopped it, the ``--trace-limit``
    or the page's size budget (a trace stopped short of its limit)."""
    why = (f"--trace-limit {limit:,}" if steps >= limit else
           f"the page's 2 MB budget, short of --trace-limit {limit:,}")
    return f"Trace capped at {steps:,} steps ({why})"


def _shown(path: str) -> str:
    return repr(path) if len(path) <= 80 else f"{path[:60]!r}.. ({len(path)} characters)"


def check_target(path: str) -> str | None:
    """Why ``path`` cannot take a page, or None.  It opens the file the way the page
    will be written (a file it had to create is removed again; an existing one is
    opened for appending, which changes nothing)."""
    if not path:
        return "--html needs a file name"
    if "\0" in path:
        return "--html: the file name holds a NUL character"
    if os.path.isdir(path):
        return f"--html {_shown(path)} is a directory; give a file name such as page.html"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"--html {_shown(path)}: folder {_shown(folder)} does not exist"
    try:
        if os.path.exists(path):
            with open(path, "ab"):
                pass
        else:
            with open(path, "xb"):
                pass
            os.remove(path)
    except OSError as error:
        return f"--html {_shown(path)}: cannot write it: {error.strerror or error}"
    except ValueError:  # a name the file system cannot encode
        return f"--html {_shown(path)}: cannot write it: not a valid file name here"
    return None


def asset(name: str) -> str:
    """The text of a file in ``assets/``."""
    folder = resources.files(__package__).joinpath("assets")
    return folder.joinpath(name).read_text(encoding="utf-8")


def json_block(key: str, data: Any) -> str:
    """Data as a JSON script block; ``</`` is escaped so no string can end the block."""
    text = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return f'<script type="application/json" id="data-{key}">{text}</script>'


def _legend(pairs: tuple[tuple[str, str], ...]) -> str:
    if not pairs:
        return ""
    items = "".join(
        f'<li><span class="swatch" style="background:{html.escape(colour)}"></span>'
        f"{html.escape(text)}</li>" for colour, text in pairs)
    return f'<ul class="legend" aria-label="legend">{items}</ul>'


def _section(section: Section) -> str:
    notes = "".join(f'<p class="note">{html.escape(n)}</p>' for n in section.notes)
    return (f'<section id="section-{section.key}"><h2>{html.escape(section.heading)}</h2>'
            f"{notes}{_legend(section.legend)}{section.body}"
            f"{json_block(section.key, section.data)}</section>")


def render_page(title: str, sections: list[Section], subtitle: str = "") -> str:
    """The whole page as text: head, inline style, sections, then each script once."""
    scripts: list[str] = []
    for section in sections:
        scripts.extend(s for s in section.scripts if s not in scripts)
    code = "\n".join(asset(name) for name in scripts)
    sub = f'<p class="subtitle">{html.escape(subtitle)}</p>' if subtitle else ""
    code = code.replace("</script", "<\\/script")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        # Nothing may load from elsewhere: the page is the whole of it.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">"
        f"<title>{html.escape(title)}</title><style>{asset('base.css')}</style></head>"
        f"<body><header><h1>{html.escape(title)}</h1>{sub}</header><main>"
        + "".join(_section(s) for s in sections)
        + f"</main><script>{code}</script></body></html>\n"
    )


def write_page(path: str, text: str) -> int:
    """Write a rendered page; returns its size in bytes.  PageError when it is too big
    or cannot be written."""
    data = text.encode("utf-8")
    if len(data) > MAX_PAGE_BYTES:
        raise PageError(f"the page would be {len(data):,} bytes, above the "
                        f"{MAX_PAGE_BYTES:,} limit; use a smaller --trace-limit")
    try:
        with open(path, "wb") as out:
            out.write(data)
    except OSError as error:
        raise PageError(f"cannot write {path!r}: {error.strerror or error}") from None
    return len(data)
