"""The README stays a two-minute read: short, with the quick start CI really runs.

Its code blocks and links are checked with the rest of the docs (tests/test_docs.py).
"""

import re

from docs_blocks import ROOT, blocks, slug

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


NUMBER = r"(?<![\d.,]){}(?![\d]|[.,]\d)"


def results_sections() -> dict[str, str]:
    """docs/results.md's sections by anchor: a heading's text up to the next heading."""
    text = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
    parts = re.split(r"^(#{2,6} .+)$", text, flags=re.M)
    return {slug(heading.lstrip("#")): body for heading, body in zip(parts[1::2], parts[2::2])}


def test_every_headline_figure_links_to_the_results_section_that_states_it():
    table = TEXT.split("## Headline results", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| [")]
    assert len(rows) >= 12, "the headline table lost its rows or their links"
    sections = results_sections()
    for row in rows:
        result, figure = [cell.strip() for cell in row.strip("|").split(" | ")][:2]
        found = re.fullmatch(r"\[(.+)\]\(docs/results\.md#([\w-]+)\)", result)
        assert found, f"not one link to a results section: {result}"
        assert found.group(2) in sections, f"no section #{found.group(2)}"
        first = re.search(r"\d[\d,]*(?:\.\d+)?", figure.replace("`", ""))
        assert first, figure
        assert re.search(NUMBER.format(re.escape(first.group())), sections[found.group(2)]), \
            f"#{found.group(2)} does not state {first.group()} ({found.group(1)})"
