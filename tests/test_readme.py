"""The README stays a two-minute read: short, with the quick start CI really runs.

Its code blocks and links are checked with the rest of the docs (tests/test_docs.py).
"""

import re

from docs_blocks import ROOT, blocks

README = ROOT / "README.md"
TEXT = README.read_text(encoding="utf-8")


def test_readme_is_at_most_250_lines():
    assert len(TEXT.splitlines()) <= 250


def test_quick_start_installs_what_ci_installs():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    install = re.search(r"^python -m pip install (?:--quiet )*(-e \S+)\s*$", ci, re.M)
    assert install, ".ci/run no longer installs the package with pip"
    quick = "\n".join(b.text for b in blocks(README) if b.language == "bash")
    assert f"python -m pip install {install.group(1)} && python -m pytest" in quick
    assert "python -m pip install . && python -m parallel_backtrack.nqueens --n 14 " \
           "--workers 8" in quick


def test_readme_needs_no_folder_beside_the_clone():
    # Its commands, the headline table's included, read tests/data or nothing.
    beside = ("/".join(["..", "shared"]), "/".join(["shared", "data"]))  # the folder a clone lacks
    for number, line in enumerate(TEXT.splitlines(), 1):
        assert not any(name in line for name in beside), f"README.md:{number}"
    for path in re.findall(r"\btests/data/[\w./-]+\.txt\b", TEXT):
        assert (ROOT / path).is_file(), path


def test_readme_runs_an_example_per_problem_and_links_every_docs_page():
    run = " ".join(b.text for b in blocks(README) if "run" in b.flags)
    assert "parallel_backtrack.nqueens" in run and "parallel_backtrack.sudoku -" in run
    assert "parallel_backtrack.sliding -" in run and "parallel_backtrack.games" in run
    assert "--html" in run
    linked = set(re.findall(r"\]\(docs/([\w.-]+\.md)", TEXT))
    pages = {p.name for p in (ROOT / "docs").glob("*.md")}
    assert {"cli.md", "engine.md", "nqueens.md", "sudoku.md", "results.md",
            "design.md"} <= pages
    assert pages <= linked, f"README does not link {sorted(pages - linked)}"
