"""The docs stay true: their examples run, their links resolve, docs/cli.md matches --help.

Conventions for README.md and docs/*.md (written for authors at the top of docs/cli.md):

* a ```python block runs as written, in a fresh namespace, from the repository root
  (```python no-run shows code without running it: keep that rare);
* a ```bash run block runs line by line in bash from the repository root, with
  ``python`` meaning this interpreter; each command must exit 0, or the status its
  trailing ``# exit N`` comment names, within ``COMMAND_SECONDS``, print something,
  and never a traceback (exit 2: exactly one line on stderr);
* any other block (```bash, ```text, plain ```) is shown, not run: installs,
  cluster set-ups, long runs and commands that need the optional data sets;
* every relative link and image resolves, and a ``#anchor`` names a heading of the
  target page;
* every docs page has a contents list before its first ``##`` heading;
* docs/cli.md has a ``## python -m parallel_backtrack.X`` section per command line
  (and a ``### python -m parallel_backtrack.X SUB`` one per subcommand, if it has
  them), whose ``| option | meaning |`` table lists exactly the long options of that
  command's --help.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from docs_blocks import (
    CLI_PAGE,
    DOCS,
    ROOT,
    anchors,
    blocks,
    cli_sections,
    commands,
    expected_status,
    help_options,
    links,
    pages,
    slug,
    table_options,
    without_code,
)

# A cold numba cache compiles the Sudoku kernels once (about a minute); warm, a command
# takes under a second.
COMMAND_SECONDS = 180
PYTHON_BLOCKS = [b for page in pages() for b in blocks(page)
                 if b.language == "python" and "no-run" not in b.flags]
SHELL_BLOCKS = [b for page in pages() for b in blocks(page)
                if b.language == "bash" and "run" in b.flags]
SECTIONS = cli_sections()


@pytest.fixture(scope="module")
def shell_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """PATH with ``python`` as this interpreter, then its environment's scripts (the
    ``parallel-backtrack`` command); the package importable from the checkout."""
    bin_dir = tmp_path_factory.mktemp("bin")
    wrapper = bin_dir / "python"  # a script, not a link: a link loses the virtual env
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    wrapper.chmod(0o755)
    scripts = Path(sys.executable).parent
    env = dict(os.environ, PATH=os.pathsep.join([str(bin_dir), str(scripts), os.environ["PATH"]]))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def test_the_docs_have_runnable_examples():
    assert len(PYTHON_BLOCKS) >= 3
    assert len(SHELL_BLOCKS) >= 3
    assert {b.page.name for b in PYTHON_BLOCKS} >= {"README.md", "engine.md"}


@pytest.mark.timeout(COMMAND_SECONDS)
@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=lambda b: b.label())
def test_python_block_runs(block, monkeypatch):
    monkeypatch.chdir(ROOT)
    exec(compile(block.text, block.label(), "exec"), {})


@pytest.mark.timeout(COMMAND_SECONDS * 3)
@pytest.mark.parametrize("block", SHELL_BLOCKS, ids=lambda b: b.label())
def test_shell_block_runs(block, shell_env):
    for command in commands(block):
        done = subprocess.run(["bash", "-c", command], cwd=ROOT, env=shell_env,
                              capture_output=True, text=True, timeout=COMMAND_SECONDS)
        assert done.returncode == expected_status(command), (
            f"{block.label()}: {command!r} exited {done.returncode}\n{done.stderr[-2000:]}")
        assert "Traceback" not in done.stderr, done.stderr
        if done.returncode == 2:  # a usage error: one line on stderr
            assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        else:
            assert done.stdout.strip(), f"{block.label()}: {command!r} printed nothing"


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_and_images_resolve(page):
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        assert resolved.exists(), f"{page.name}: link to missing {target}"
        if anchor and resolved.suffix == ".md":
            assert anchor in anchors(resolved), f"{page.name}: no heading for {target}"


@pytest.mark.parametrize("page", sorted(DOCS.glob("*.md")), ids=lambda p: p.name)
def test_every_docs_page_opens_with_a_contents_list(page):
    text = page.read_text(encoding="utf-8")
    head = text.split("\n## ", 1)[0]
    assert "Contents" in head, f"{page.name}: no contents list before the first ## heading"
    listed = set(re.findall(r"\]\(#([^)]+)\)", head))
    sections = {slug(h) for h in re.findall(r"^## (.*)$", without_code(text), re.M)}
    assert sections <= listed, f"{page.name}: contents list lacks {sorted(sections - listed)}"


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_describe_the_project_as_it_is(page):
    text = page.read_text(encoding="utf-8").lower()
    for phrase in (r"\bsession\b", r"\bsessions\b", r"\bthis turn\b"):
        assert not re.search(phrase, text), f"{page.name}: {phrase!r} (history belongs in git)"


def test_every_command_line_has_a_cli_section():
    mains = sorted(ROOT.glob("parallel_backtrack/**/__main__.py"))
    commands_found = {"python -m " + ".".join(p.parent.relative_to(ROOT).parts)
                      for p in mains}
    assert commands_found, "no __main__.py found"
    missing = commands_found - set(SECTIONS)
    assert not missing, f"docs/cli.md has no section for {sorted(missing)}"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("command", sorted(SECTIONS))
def test_cli_options_match_help(command, shell_env):
    documented = table_options(SECTIONS[command])
    done = subprocess.run([sys.executable, *command.split()[1:], "--help"], cwd=ROOT,
                          env=shell_env, capture_output=True, text=True, timeout=50)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:"), done.stdout[:200]
    offered = help_options(done.stdout)
    # A command whose options all belong to its subcommands may have no table of its own.
    assert documented or not offered, (
        f"{CLI_PAGE.name}: '{command}' has no | option | meaning | table")
    assert not documented - offered, f"documented but not in --help: {documented - offered}"
    assert not offered - documented, f"in --help but not documented: {offered - documented}"


def test_project_urls_name_pages_that_exist():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = re.search(r"^\[project\.urls\]\n(.*?)(?=^\[)", text, re.M | re.S)
    assert section, "pyproject.toml has no [project.urls]"
    urls = dict(re.findall(r'^"?([\w ]+?)"?\s*=\s*"([^"]+)"', section.group(1), re.M))
    assert "Documentation" in urls
    for name, url in urls.items():
        if not re.match(r"^[a-z][a-z0-9+.-]*:", url):
            assert (ROOT / url).is_file(), f"project.urls {name!r}: no file {url}"
