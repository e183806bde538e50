"""Reading the Markdown docs for their tests: fenced blocks, links, headings, CLI tables.

Glossary
--------
page
    README.md or a file under docs/ (``pages()`` lists them).
block
    A fenced code block: its info string (```python, ```bash run, ```text ...), its
    text and the line it starts on.  Which blocks the tests run is the convention
    written at the top of docs/cli.md and in tests/test_docs.py.
link
    ``[text](target)`` or ``![alt](target)`` outside code: a relative path, optionally
    with ``#anchor``, or an ``http(s)://``/``mailto:`` address (not checked).
anchor
    GitHub's id for a heading: lower case, punctuation dropped, spaces to hyphens,
    ``-1``, ``-2`` ... for repeats.  ``anchors(page)`` lists a page's.
script command
    ``python scripts/X.py ...`` (``PYTHONPATH=. `` in front or not) in a fenced block
    or an inline code span, which may wrap over lines: ``script_commands()`` lists
    them for the test that reads their options with the script's own parser.
CLI section
    In docs/cli.md, a ``## python -m parallel_backtrack.X`` heading (``###`` and the
    subcommand after it for a command with subcommands) and the
    ``| option | meaning |`` table under it.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CLI_PAGE = DOCS / "cli.md"

FENCE = re.compile(r"^(```+)([^\n`]*)\n(.*?)^\1[ \t]*$", re.M | re.S)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)
LONG_OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
CLI_HEADING = re.compile(
    r"^#{2,3} (python -m parallel_backtrack(?:\.[a-z_]+)*(?: [a-z0-9_-]+)*)\s*$", re.M)


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    info: str
    text: str

    @property
    def language(self) -> str:
        return self.info.split()[0] if self.info.split() else ""

    @property
    def flags(self) -> list[str]:
        return self.info.split()[1:]

    def label(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def pages() -> list[Path]:
    """README.md and every Markdown page under docs/, sorted."""
    return [ROOT / "README.md", *sorted(DOCS.glob("**/*.md"))]


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    return [Block(page, text.count("\n", 0, match.start()) + 1, match.group(2).strip(),
                  match.group(3)) for match in FENCE.finditer(text)]


def without_code(text: str) -> str:
    """The page with fenced blocks and inline code spans blanked out."""
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return re.sub(r"`[^`\n]*`", "``", text)


def links(page: Path) -> list[str]:
    return LINK.findall(without_code(page.read_text(encoding="utf-8")))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text (before de-duplication)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = text.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for match in HEADING.finditer(without_code(page.read_text(encoding="utf-8"))):
        base = slug(match.group(2))
        repeat = seen.get(base, 0)
        seen[base] = repeat + 1
        found.add(base if repeat == 0 else f"{base}-{repeat}")
    return found


def commands(block: Block) -> list[str]:
    """The commands of a shell block: one per line, ``\\`` joins lines, ``#`` lines skipped."""
    joined = block.text.replace("\\\n", " ")
    return [line.strip() for line in joined.splitlines()
            if line.strip() and not line.strip().startswith("#")]


def expected_status(command: str) -> int:
    """The exit status a command's trailing ``# exit N`` comment asks for (0 without one)."""
    match = re.search(r"#\s*exit\s+(\d+)\s*$", command)
    return int(match.group(1)) if match else 0


def cli_sections() -> dict[str, str]:
    """docs/cli.md's sections: the command each heading names -> the section's text."""
    text = CLI_PAGE.read_text(encoding="utf-8")
    found = list(CLI_HEADING.finditer(text))
    sections = {}
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(text)
        rest = text[match.end():end]
        following = re.search(r"^## ", rest, re.M)  # a plain ## section ends it too
        sections[match.group(1)] = rest[:following.start()] if following else rest
    return sections


def table_options(section: str) -> set[str]:
    """The long options in the first column of the section's ``| option | meaning |`` table."""
    lines = section.splitlines()
    start = next((i for i, line in enumerate(lines)
                  if re.match(r"^\|\s*option\s*\|\s*meaning\s*\|\s*$", line)), None)
    if start is None:
        return set()
    options: set[str] = set()
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        options.update(LONG_OPTION.findall(re.split(r"(?<!\\)\|", line)[1]))
    return options


def help_options(help_text: str) -> set[str]:
    """The long options argparse lists in ``--help`` (its option lines, not the prose)."""
    options: set[str] = set()
    for line in help_text.splitlines():
        if re.match(r"^ {2}-", line):
            invocation = re.split(r" {2,}", line.strip(), maxsplit=1)[0]
            options.update(LONG_OPTION.findall(invocation))
    return options - {"--help"}


SCRIPT_COMMAND = re.compile(r"(?:^|[\s`])(?:[A-Z_]+=\S* )*python (scripts/[\w.]+\.py)\b([^`\n]*)")


@dataclass(frozen=True)
class ScriptCommand:
    page: Path
    line: int
    script: str  # scripts/X.py
    argv: list[str]

    def label(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def _script_argv(rest: str) -> list[str]:
    """The arguments as a shell reads them, the docs' shorthand undone: ``[--x y]`` (an
    optional part) is read as given, ``a\\|b`` (alternatives in a table) as ``a``."""
    rest = re.sub(r"\[(--[^\]]*)\]", r"\1", rest)
    rest = re.sub(r"\\\|\S*", "", rest)
    return shlex.split(rest, comments=True)


def script_commands() -> list[ScriptCommand]:
    """Every ``python scripts/X.py ...`` command of the pages, in blocks and inline code."""
    found = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        for block in blocks(page):
            for number, line in enumerate(block.text.replace("\\\n", " ").splitlines()):
                match = SCRIPT_COMMAND.search(line)
                if match:
                    found.append(ScriptCommand(page, block.line + 1 + number, match.group(1),
                                               _script_argv(match.group(2))))
        prose = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
        for span in re.finditer(r"(?<!`)`([^`]+?)`(?!`)", prose):
            code = " ".join(span.group(1).split())  # a span may wrap over lines
            match = SCRIPT_COMMAND.match(" " + code)
            if "\n\n" not in span.group(1) and match:
                found.append(ScriptCommand(page, prose.count("\n", 0, span.start()) + 1,
                                           match.group(1), _script_argv(match.group(2))))
    return found
