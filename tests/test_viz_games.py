"""The game pages in a real headless Chromium (Playwright, the system's Chromium).

Each page is written by its command line (``games alphabeta|nim|tictactoe|connect4
--html``), loaded from file:// and checked: no console error, no network request;
for the classic trees the leaves examined and the root value at the last step equal
the reference outputs, and the leaves shown are exactly those an independent
alpha-beta reads, in its order; a cut-off subtree is drawn greyed.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_games_pages import DATA, FILES, big_tree, reference, textbook, trees
from viz_helpers import LoadedPage

from parallel_backtrack.games.trees import parse_tree

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

GREY = "rgb(189, 189, 189)"


class Loaded(LoadedPage):
    """A page loaded from a file, with the errors it logged and what it asked for."""

    def text(self, selector: str) -> str:
        return self.page.inner_text(selector).replace(",", "")

    def examined(self) -> list[str]:
        """The labels of the leaves numbered so far, in their numbers' order."""
        found = self.page.eval_on_selector_all(
            ".gnode", "els => els.filter(e => e.dataset.leaf).map("
            "e => [+e.dataset.leaf, e.dataset.label])")
        numbers = sorted(n for n, _ in found)
        assert numbers == list(range(1, len(found) + 1))
        return [label for _, label in sorted(found)]

    def close(self) -> None:
        assert self.errors == [], self.errors
        assert self.requests == [], self.requests
        self.page.close()


def games_page(tmp_path: Path, *argv: str) -> Path:
    page = tmp_path / "page.html"
    done = subprocess.run([sys.executable, "-m", "parallel_backtrack.games", *argv,
                           "--html", str(page)], capture_output=True, text=True, timeout=150)
    assert done.returncode == 0, done.stderr
    assert page.stat().st_size < 2_000_000
    return page


@pytest.mark.parametrize("name", FILES)
def test_classic_trees_end_with_the_reference(browser, tmp_path: Path, name: str) -> None:
    loaded = Loaded(browser, games_page(tmp_path, "alphabeta", str(DATA / name)))
    page = loaded.page
    for graph, (text, (score, leaves, _, _)) in enumerate(zip(trees(name), reference(name),
                                                              strict=True)):
        if graph:
            page.select_option("#gt-graph", str(graph))
        assert loaded.text("#gt-leaves") == "0" and loaded.text("#gt-total") == str(leaves)
        page.keyboard.press("End")
        assert (loaded.text("#gt-value"), loaded.text("#gt-leaves")) == (str(score),
                                                                        str(leaves))
        game, read = parse_tree(text).game, []
        textbook(game, 0, float("-inf"), float("inf"), read)
        assert loaded.examined() == [str(game.leaf_values[node - game.internal]) for node in read]
        assert "Done: value " + str(score) in page.inner_text("#gt-status")
    loaded.close()


def test_a_cut_off_subtree_is_greyed(browser, tmp_path: Path) -> None:
    loaded = Loaded(browser, games_page(tmp_path, "alphabeta",
                                        str(DATA / "set2_remedios_alphabeta.txt")))
    page = loaded.page
    kinds = page.eval_on_selector_all(".gnode", "els => els.map(e => e.dataset.kind)")
    assert "".join(kinds) == "MNMLLMLLNMLLMLL"  # A B D 4 3 E 2 7 C F 3 2 G 2 8, depth first
    tips = page.eval_on_selector_all("polygon.gnode", "els => els.map(e => "
                                     "e.getAttribute('points').split(' ')[0].split(',')[1]"
                                     " - e.getBBox().y)")
    assert [tip == 0 for tip in tips] == [k == "M" for k in kinds if k != "L"]  # MAX: apex up
    page.keyboard.press("n")  # the first cut-off: at C, after F returned 4 (alpha = beta)
    assert "Cut-off at C: α = 4 ≥ β = 4" in page.inner_text("#gt-status")
    cut = page.eval_on_selector_all(".gnode.cut", "els => els.map(e => [e.dataset.label, "
                                    "e.dataset.cutBy, getComputedStyle(e).fill])")
    assert cut == [["G", "C", GREY], ["2", "C", GREY], ["8", "C", GREY]]
    assert page.locator(".gnode.cutat").count() == 1
    assert page.inner_text("#gt-leaves") == "6"
    page.keyboard.press("ArrowLeft")
    assert page.locator(".gnode.cut").count() == 0
    page.keyboard.press("End")
    assert page.locator(".gnode.cut").count() == 3 and page.locator(".edge.pv").count() == 3
    page.keyboard.press("Home")
    assert page.inner_text("#gt-leaves") == "0" and page.inner_text("#gt-value") == "?"
    loaded.close()


def test_stepping_shows_one_leaf_at_a_time(browser, tmp_path: Path) -> None:
    name = "set6_nesdoly_alphabeta.txt"
    loaded = Loaded(browser, games_page(tmp_path, "alphabeta", str(DATA / name)))
    page, seen = loaded.page, [0]
    while "Done" not in page.inner_text("#gt-status"):
        page.keyboard.press("ArrowRight")
        seen.append(int(loaded.text("#gt-leaves")))
        assert len(loaded.examined()) == seen[-1]
    assert all(b - a in (0, 1) for a, b in zip(seen, seen[1:]))
    assert seen[-1] == reference(name)[0][1]
    loaded.close()


def test_minimax_page_examines_every_leaf(browser, tmp_path: Path) -> None:
    name = "set2_misc_lriverawong_nine2k_alphabeta.txt"
    loaded = Loaded(browser, games_page(tmp_path, "alphabeta", str(DATA / name),
                                        "--minimax"))
    page = loaded.page
    for graph, (_, _, score, every) in enumerate(reference(name)):
        page.select_option("#gt-graph", str(graph))
        page.keyboard.press("End")
        assert (loaded.text("#gt-value"), loaded.text("#gt-leaves")) == (str(score),
                                                                        str(every))
        assert page.locator(".gnode.cut").count() == 0
        assert page.locator(".gnode[data-kind=L]").count() == every
    assert "Minimax" in page.inner_text("h2")
    loaded.close()


def test_a_big_tree_shows_its_top_levels(browser, tmp_path: Path) -> None:
    source = tmp_path / "big.txt"
    source.write_text(big_tree(4, 6, seed=3) + "\n")
    done = subprocess.run([sys.executable, "-m", "parallel_backtrack.games", "alphabeta",
                           str(source)], capture_output=True, text=True, timeout=100)
    leaves = re.search(r"Leaf Nodes Examined: (\d+)", done.stdout)[1]
    loaded = Loaded(browser, games_page(tmp_path, "alphabeta", str(source)))
    page = loaded.page
    assert "5461 nodes" in loaded.text("#gt-summary") and "top 6 levels" in page.inner_text(
        "#gt-summary")
    assert page.locator(".gnode").count() == 1365
    page.keyboard.press("End")
    assert loaded.text("#gt-leaves") == leaves
    loaded.close()


def test_nim_page_marks_the_table_hits(browser, tmp_path: Path) -> None:
    loaded = Loaded(browser, games_page(tmp_path, "nim", "--sticks", "10"))
    page = loaded.page
    page.keyboard.press("End")
    assert page.inner_text("#gt-value") == "1" and page.inner_text("#gt-hits") == "13"
    assert page.locator(".gnode.table").count() > 0
    assert page.eval_on_selector(".gnode.table", "e => getComputedStyle(e).fill") == (
        "rgb(206, 147, 216)")
    page.select_option("#gt-graph", "1")  # without the table: more nodes, no hits
    page.keyboard.press("End")
    assert page.inner_text("#gt-value") == "1" and page.inner_text("#gt-hits") == "0"
    assert page.locator(".gnode:not(.cut)").count() == 180  # nodes_no_tt of games nim
    loaded.close()


def test_tictactoe_page(browser, tmp_path: Path) -> None:
    loaded = Loaded(browser, games_page(tmp_path, "tictactoe"))
    page = loaded.page
    assert "more than the page draws whole" in page.inner_text("#gt-summary")
    page.keyboard.press("End")
    assert page.inner_text("#gt-value") == "0" and loaded.text("#gt-leaves") == "1083"
    assert page.locator("#ttt-table td", has_text="draw").count() == 9
    loaded.close()


def test_connect4_page(browser, tmp_path: Path) -> None:
    loaded = Loaded(browser, games_page(tmp_path, "connect4", "173213575225514156634"))
    page = loaded.page
    page.keyboard.press("n")  # the given position
    assert page.inner_text("#c4-stones") == "21" and page.inner_text("#c4-score") == "2"
    page.keyboard.press("End")
    assert "Yellow connects four" in page.inner_text("#c4-status")
    assert page.locator(".hole.four").count() >= 4
    assert page.locator("#c4moves-table td", has_text="best").count() == 2
    loaded.close()


def test_a_node_shows_its_window_entered_and_left(browser, tmp_path: Path) -> None:
    loaded = Loaded(browser, games_page(tmp_path, "alphabeta",
                                        str(DATA / "set2_remedios_alphabeta.txt")))
    page = loaded.page
    page.keyboard.press("End")
    tip = page.eval_on_selector(".gnode[data-label=E]", "e => e.firstChild.textContent")
    # E (MAX) is entered below B = min(4, ...) and fails high on its 7: fail-hard 4
    assert tip == "E: value 4; entered with α = −∞, β = 4; left with α = 7, β = 4"
    assert "n next cut-off" in page.inner_text(".help")
    loaded.close()
