"""The pages in a real headless Chromium (Playwright, the system's Chromium).

Each page is loaded from file:// and checked: no console error, no network
request, stepping to the end shows the answer the command line printed, Back
returns to earlier states, the timeline has a lane per worker and a bar per
task, and a screenshot is not blank.
"""

from __future__ import annotations

import io
import json
import math
import re
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
from sliding_check import ida_iterations
from sudoku_data import gecode_25x25, gecode_25x25_solutions
from viz_helpers import GECODE16, HARDEST, LoadedPage, random_path, sudoku_ok

from parallel_backtrack.engine import count
from parallel_backtrack.nqueens import ImmutableQueenLocations, QueensSpace
from parallel_backtrack.nqueens.trace import record_queens
from parallel_backtrack.sudoku.formats import parse_one, parse_puzzles
from parallel_backtrack.sudoku.trace import record_sudoku
from parallel_backtrack.viz import write_connect4_page, write_sliding_page, write_timeline_page
from parallel_backtrack.viz.page import render_page, write_page
from parallel_backtrack.viz.queens_page import write_queens_page
from parallel_backtrack.viz.sudoku_page import sudoku_section, sudoku_title

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


class Loaded(LoadedPage):
    """A page loaded from a file, with what it logged and asked for."""

    def click(self, selector: str, times: int = 1) -> None:
        for _ in range(times):
            self.page.click(selector)

    def step_text(self) -> str:
        return self.page.inner_text("#step-text")

    def check_clean(self, tmp_path: Path) -> None:
        assert self.errors == [], self.errors
        assert self.requests == [], self.requests
        shot = self.page.screenshot()
        assert len(shot) > 1000
        from PIL import Image

        grey = list(Image.open(io.BytesIO(shot)).convert("L").tobytes())
        assert statistics.pstdev(grey[::7]) > 10  # not a blank page
        self.page.close()


def run_cli(module: str, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", f"parallel_backtrack.{module}", *argv],
                          capture_output=True, text=True, timeout=100)


def queens_on_page(page) -> list[int]:
    found = page.eval_on_selector_all(
        "#queens-board .queen", "els => els.map(e => [+e.dataset.row, +e.dataset.col])")
    cols = [-1] * int(page.eval_on_selector_all("#queens-board .sq", "e => e.length") ** 0.5)
    for row, col in found:
        cols[row] = col
    return cols


def test_queens_page(browser, tmp_path: Path) -> None:
    html = tmp_path / "q.html"
    done = run_cli("nqueens", "--n", "6", "--workers", "1", "--show", "4", "--html", str(html))
    assert done.returncode == 0, done.stderr
    printed = [json.loads(m) for m in re.findall(r"solution \d+: (\[[\d, ]+\])", done.stdout)]
    assert len(printed) == 4
    loaded = Loaded(browser, html)
    page = loaded.page
    assert "6-queens" in page.title()
    for k, cols in enumerate(printed, 1):
        loaded.click("#next-solution")
        assert queens_on_page(page) == cols
        assert page.inner_text("#queens-solutions") == str(k)
    here, board = loaded.step_text(), queens_on_page(page)
    loaded.click("#forward", 3)
    assert queens_on_page(page) != board or loaded.step_text() != here
    loaded.click("#back", 3)
    assert (loaded.step_text(), queens_on_page(page)) == (here, board)
    page.keyboard.press("End")
    assert page.inner_text("#queens-nodes") == "153"  # the whole tree of n = 6
    page.keyboard.press("ArrowLeft")
    assert "step 354 of 355" in loaded.step_text()
    loaded.check_clean(tmp_path)


def test_timeline_page(browser, tmp_path: Path) -> None:
    html = tmp_path / "t.html"
    done = run_cli("nqueens", "--n", "10", "--workers", "2", "--kernel", "reference",
                   "--budget", "2000", "--json", "--stats", "--trace-limit", "300",
                   "--html", str(html))
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)
    assert run["count"] == 724 and run["tasks"] == len(run["task_workers"]) > 2
    loaded = Loaded(browser, html)
    page = loaded.page
    lanes = page.eval_on_selector_all("rect.lane", "els => els.map(e => e.dataset.lane)")
    assert lanes[0] == "parent" and len(lanes) == 1 + run["workers"]
    bars = page.eval_on_selector_all("rect.bar", "els => els.map(e => e.dataset.lane)")
    assert len(bars) == run["tasks"]
    assert sorted(bars) == sorted(run["task_workers"])
    page.hover("rect.bar >> nth=0")
    assert "nodes" in page.inner_text("#timeline-tip")
    assert "speedup" in page.inner_text("#timeline-stats")
    assert "count\t724" in page.inner_text("#timeline-stats")  # the run's answer, complete
    assert "capped at 300 steps" in page.inner_text("#section-queens")
    loaded.check_clean(tmp_path)


def sudoku_on_page(page) -> list[int]:
    return page.eval_on_selector_all("#sudoku-board .cell",
                                     "els => els.map(e => +e.dataset.value)")


@pytest.mark.parametrize("options", [(), ("--propagation", "peers", "--order", "row-major")])
def test_sudoku_page(browser, tmp_path: Path, options: tuple[str, ...]) -> None:
    puzzle, html = tmp_path / "one.txt", tmp_path / "s.html"
    puzzle.write_text(HARDEST + "\n")
    done = run_cli("sudoku", str(puzzle), *options, "--trace-limit", "20000", "--html",
                   str(html))
    assert done.returncode == 0, done.stderr
    printed = list(parse_puzzles(done.stdout.rsplit("\n", 2)[0])[0].cells)
    assert sudoku_ok(list(parse_one(HARDEST)), printed)
    loaded = Loaded(browser, html)
    page = loaded.page
    start = sudoku_on_page(page)
    assert start == list(parse_one(HARDEST))  # the givens, nothing propagated yet
    page.keyboard.press("End")
    assert sudoku_on_page(page) == printed
    assert "Solved" in page.inner_text("#sudoku-status")
    loaded.click("#first")
    assert sudoku_on_page(page) == start
    loaded.click("#forward", 4)
    here, board = loaded.step_text(), sudoku_on_page(page)
    loaded.click("#forward", 2)
    loaded.click("#back", 2)
    assert (loaded.step_text(), sudoku_on_page(page)) == (here, board)
    if options:  # peers with row-major guesses wrong: the page shows it coming back
        page.keyboard.press("End")
        assert int(page.inner_text("#sudoku-backs").replace(",", "")) > 0
    loaded.check_clean(tmp_path)


# What a Sudoku page shows at one window width: the smallest square and the smallest
# candidate and value fonts (pixels, as rendered), how many squares clip their
# candidates or value, the page's and the board box's scroll and client widths, and
# the box's right edge.
SUDOKU_LAYOUT = """() => {
  const px = (els) => els.map((e) => parseFloat(getComputedStyle(e).fontSize));
  const over = (inner, outer) => inner.scrollHeight > outer.clientHeight + 0.5 ||
    inner.scrollWidth > outer.clientWidth + 0.5;
  const cells = [...document.querySelectorAll('#sudoku-board .cell')];
  const minis = [...document.querySelectorAll('#sudoku-board .mini')];
  const bigs = [...document.querySelectorAll('#sudoku-board .big')];
  const box = document.getElementById('sudoku-box');
  return {
    square: Math.min(...cells.map((c) => c.getBoundingClientRect().width)),
    candidate_px: Math.min(...px([...document.querySelectorAll('#sudoku-board .mini span')])),
    value_px: bigs.length ? Math.min(...px(bigs)) : null,
    clipped: minis.filter((m) => over(m, m)).length + bigs.filter((b) => {
      const r = b.getBoundingClientRect(), c = b.parentElement.getBoundingClientRect();
      return r.width > c.width + 0.5 || r.height > c.height + 0.5; }).length,
    page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
    box: [box.scrollWidth, box.clientWidth, box.getBoundingClientRect().right],
    scrolls: box.classList.contains('scrolls'),
    help: !document.getElementById('sudoku-scroll-help').hidden,
  };
}"""

# (side, window width): (square px, candidate font px, does the board scroll in its
# box).  9x9 and 16x16 on a wide window, and 9x9 on a phone, keep the squares they
# always had; a board that does not fit the window at a legible size scrolls.
SUDOKU_LAYOUTS = {(9, 1280): (60, 16, False), (9, 400): (38, 10, False),
                  (16, 1280): (38, 7, False), (16, 400): (33, 7, True),
                  (25, 1280): (41, 7, True), (25, 400): (41, 7, True)}


def check_sudoku_layout(loaded: Loaded, side: int, width: int) -> dict:
    shown = loaded.page.evaluate(SUDOKU_LAYOUT)
    square, candidate_px, scrolls = SUDOKU_LAYOUTS[side, width]
    assert (shown["square"], shown["candidate_px"], shown["scrolls"]) == (
        square, candidate_px, scrolls), (side, width, shown)
    assert shown["clipped"] == 0, (side, width, shown)
    assert shown["value_px"] is None or shown["value_px"] >= 14
    assert shown["page"][0] <= shown["page"][1], shown  # only the box scrolls sideways
    assert shown["box"][2] <= width, shown
    assert (shown["box"][0] > shown["box"][1]) == scrolls == shown["help"], shown
    return shown


def test_sudoku_25x25_page_is_legible_on_a_phone(browser, tmp_path: Path) -> None:
    puzzle, html = tmp_path / "g90.txt", tmp_path / "s.html"
    givens = dict(gecode_25x25())["gecode 90"]
    puzzle.write_text(givens + "\n")
    done = run_cli("sudoku", str(puzzle), "--trace-limit", "400", "--html", str(html))
    assert done.returncode == 0, done.stderr
    printed = list(parse_puzzles(done.stdout.rsplit("\n", 2)[0])[0].cells)
    assert sudoku_ok(list(parse_one(givens)), printed)
    assert printed == list(parse_one(gecode_25x25_solutions()["gecode 90"]))
    for width in (400, 1280):
        loaded = Loaded(browser, html, width=width)
        page = loaded.page
        assert "25x25" in page.title()
        check_sudoku_layout(loaded, 25, width)
        box = page.locator("#sudoku-box")
        assert box.get_attribute("role") == "region" and box.get_attribute("tabindex") == "0"
        for _ in range(40):  # to the first guess: the box brings its square into view
            page.keyboard.press("ArrowRight")
            if page.inner_text("#sudoku-status").startswith("Guess"):
                break
        else:
            raise AssertionError("no guess in the first 40 steps")
        seen = page.evaluate("""() => {
            const r = document.querySelector('#sudoku-board .chosen').getBoundingClientRect();
            const b = document.getElementById('sudoku-box').getBoundingClientRect();
            return [r.left >= b.left - 0.5, r.right <= b.right + 0.5,
                    r.top >= b.top - 0.5, r.bottom <= b.bottom + 0.5]; }""")
        assert seen == [True] * 4
        if width == 1280:  # the controls stay beside the board, not below it
            beside = page.evaluate("""() => {
                const b = document.getElementById('sudoku-box').getBoundingClientRect();
                const c = document.getElementById('sudoku-controls').getBoundingClientRect();
                return c.left >= b.right && c.top < b.bottom; }""")
            assert beside
        loaded.check_clean(tmp_path)


def test_sudoku_9x9_and_16x16_squares_keep_their_size(browser, tmp_path: Path) -> None:
    for side, givens in ((9, HARDEST), (16, GECODE16)):
        trace = record_sudoku(givens, limit=50).as_data()
        html = tmp_path / f"s{side}.html"
        write_page(str(html), render_page(sudoku_title(trace), [sudoku_section(trace)]))
        for width in (400, 1280):
            loaded = Loaded(browser, html, width=width)
            check_sudoku_layout(loaded, side, width)
            loaded.check_clean(tmp_path)


def test_a_sudoku_page_lays_out_again_when_the_window_is_resized(browser,
                                                                  tmp_path: Path) -> None:
    """Loaded at 1280 pixels and resized to 400 and back, a 16x16 and a 25x25 page show
    what a page loaded at that width shows (the squares, fonts and scrolling box were
    those chosen at load)."""
    for side, givens in ((16, GECODE16), (25, dict(gecode_25x25())["gecode 90"])):
        trace = record_sudoku(givens, limit=50).as_data()
        html = tmp_path / f"s{side}.html"
        write_page(str(html), render_page(sudoku_title(trace), [sudoku_section(trace)]))
        fresh = {}
        for width in (400, 1280):
            fresh[width] = check_sudoku_layout(Loaded(browser, html, width=width), side, width)
        loaded = Loaded(browser, html, width=1280)
        for width in (400, 1280):
            loaded.page.set_viewport_size({"width": width, "height": 800})
            loaded.page.wait_for_timeout(500)  # the layout waits for the resizing to pause
            assert check_sudoku_layout(loaded, side, width) == fresh[width], (side, width)
        loaded.check_clean(tmp_path)


def tiles_on_page(page, size: int) -> tuple[int, ...]:
    board = [0] * (size * size)
    for tile, square in page.eval_on_selector_all(
            ".tile", "els => els.map(e => [+e.dataset.tile, +e.dataset.square])"):
        board[square] = tile
    return tuple(board)


def test_sliding_page(browser, tmp_path: Path) -> None:
    path, html = random_path(4, 30, seed=7), tmp_path / "p.html"
    write_sliding_page(str(html), path, 4, [(20, 12), (22, 90), (24, 700)])
    loaded = Loaded(browser, html)
    page = loaded.page
    assert tiles_on_page(page, 4) == path[0]
    page.keyboard.press("End")
    assert tiles_on_page(page, 4) == path[-1] == tuple(list(range(1, 16)) + [0])
    assert page.inner_text("#sliding-manhattan") == "0"
    for k in (29, 28, 27):
        page.keyboard.press("ArrowLeft")
        assert tiles_on_page(page, 4) == path[k]
        if k == 29:  # one move from the goal: one tile one square away
            assert page.inner_text("#sliding-manhattan") == "1"
    assert page.eval_on_selector_all("rect.iteration", "e => e.length") == 3
    loaded.check_clean(tmp_path)


def test_sliding_page_blank_first_goal(browser, tmp_path: Path) -> None:
    path, html = random_path(3, 12, seed=3, blank_first=True), tmp_path / "p.html"
    write_sliding_page(str(html), path, 3)
    loaded = Loaded(browser, html)
    page = loaded.page
    loaded.click("#next-solution")
    assert tiles_on_page(page, 3) == path[-1] == tuple(range(9))
    assert page.inner_text("#sliding-misplaced") == "0"
    assert page.eval_on_selector_all("rect.iteration", "e => e.length") == 0
    loaded.check_clean(tmp_path)


def stones_on_page(page) -> dict[tuple[int, int], str]:
    return {(c, r): s for c, r, s in page.eval_on_selector_all(
        ".hole", "els => els.filter(e => e.dataset.stone).map("
        "e => [+e.dataset.col, +e.dataset.row, e.dataset.stone])")}


def test_connect4_page(browser, tmp_path: Path) -> None:
    moves, html = "4453637", tmp_path / "c.html"
    write_connect4_page(str(html), moves, given=3)
    loaded = Loaded(browser, html)
    page = loaded.page
    page.keyboard.press("End")
    heights: dict[int, int] = {}
    expected = {}
    for k, symbol in enumerate(moves):  # drop the stones by hand
        col = int(symbol) - 1
        expected[(col, heights.get(col, 0))] = "yellow" if k % 2 else "red"
        heights[col] = heights.get(col, 0) + 1
    assert stones_on_page(page) == expected
    assert "Red connects four" in page.inner_text("#c4-status")
    assert page.eval_on_selector_all(".hole.four", "e => e.length") == 4
    assert page.inner_text("#c4-turn") == "nobody: the game is over"
    assert page.inner_text("#c4-score") == "—"
    page.keyboard.press("ArrowLeft")
    assert len(stones_on_page(page)) == 6 and page.locator(".hole.four").count() == 0
    loaded.click("#first")
    loaded.click("#next-solution")  # the given position
    assert len(stones_on_page(page)) == 3
    assert page.inner_text("#c4-turn") == "yellow"
    assert "n given position, then the end" in page.inner_text(".help")
    loaded.check_clean(tmp_path)


def test_sliding_cli_page_plays_the_printed_solution(browser, tmp_path: Path) -> None:
    start = (8, 1, 3, 4, 0, 2, 7, 6, 5)
    html = tmp_path / "s.html"
    done = subprocess.run(
        [sys.executable, "-m", "parallel_backtrack.sliding", "-", "--show", "moves",
         "--html", str(html)], input=" ".join(map(str, start)), capture_output=True,
        text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    moves = done.stdout.splitlines()[1].split()
    boards = [start]
    for move in moves:  # replay the printed moves of the blank independently
        tiles, blank = list(boards[-1]), boards[-1].index(0)
        row, col = divmod(blank, 3)
        row, col = {"U": (row - 1, col), "D": (row + 1, col), "L": (row, col - 1),
                    "R": (row, col + 1)}[move]
        assert 0 <= row < 3 and 0 <= col < 3
        tiles[blank], tiles[row * 3 + col] = tiles[row * 3 + col], 0
        boards.append(tuple(tiles))
    assert boards[-1] == (1, 2, 3, 4, 5, 6, 7, 8, 0)
    told = f"{len(moves)} moves of standard input line 1"
    assert re.fullmatch(rf"wrote .*s\.html \(\d+ KB\): {told}\n", done.stderr)
    loaded = Loaded(browser, html)
    assert loaded.page.title() == f"8-puzzle, standard input line 1: {len(moves)} moves"
    assert tiles_on_page(loaded.page, 3) == start
    loaded.page.keyboard.press("End")
    assert tiles_on_page(loaded.page, 3) == boards[-1]
    loaded.page.keyboard.press("ArrowLeft")
    assert tiles_on_page(loaded.page, 3) == boards[-2]
    loaded.check_clean(tmp_path)


# The IDA* chart as drawn: each bar's bound, nodes, height and x, its tooltip, the
# table's rows and total, the note under it, the chart's labels, and how far right its
# text and the page reach.
SLIDING_CHART = """() => {
  const svg = document.querySelector('#sliding-chart svg');
  const bars = [...svg.querySelectorAll('rect.iteration')];
  const rows = [...document.querySelectorAll('#sliding-iterations tr[data-bound]')];
  return {
    bars: bars.map((b) => [+b.dataset.bound, +b.dataset.nodes, +b.getAttribute('height'),
                           +b.getAttribute('x')]),
    tips: bars.map((b) => b.querySelector('title').textContent),
    rows: rows.map((r) => [...r.cells].map((c) => c.textContent)),
    total: document.getElementById('sliding-iterations-total').textContent,
    note: document.getElementById('sliding-iterations-note').textContent,
    title: document.getElementById('sliding-chart-title').textContent,
    label: svg.getAttribute('aria-label'), role: svg.getAttribute('role'),
    caption: document.querySelector('#sliding-iterations caption').textContent,
    right: [svg.viewBox.baseVal.width, Math.max(...[...svg.querySelectorAll('text')].map(
      (t) => t.getBBox().x + t.getBBox().width))],
    shown: [svg.getBoundingClientRect().right,
            document.getElementById('sliding-chart').getBoundingClientRect().right],
    page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
  };
}"""


def test_sliding_cli_page_charts_each_iteration(browser, tmp_path: Path) -> None:
    start, html = (8, 6, 7, 2, 5, 4, 3, 0, 1), tmp_path / "s.html"
    done = subprocess.run(
        [sys.executable, "-m", "parallel_backtrack.sliding", "-", "--heuristic", "manhattan",
         "--complete-last-iteration", "--json", "--html", str(html)],
        input=" ".join(map(str, start)), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    rounds = [tuple(row) for row in report["iterations"]]
    assert rounds == ida_iterations(start)  # an independent IDA*'s counts, pass by pass
    assert len(rounds) == 6 and sum(n for _, n in rounds) + 1 == report["nodes"]
    for width in (400, 1280):
        loaded = Loaded(browser, html, width=width)
        chart = loaded.page.evaluate(SLIDING_CHART)
        assert [(b, n) for b, n, _, _ in chart["bars"]] == rounds
        assert chart["tips"] == [f"bound {b}: {n:,} nodes" for b, n in rounds]
        assert [(int(r[1]), int(r[2].replace(",", ""))) for r in chart["rows"]] == rounds
        assert [r[0] for r in chart["rows"]] == [str(k) for k in range(1, 7)]
        assert chart["total"] == f"{report['nodes'] - 1:,}"
        assert f"{report['nodes']:,}" in chart["note"]
        # Log scale: each bar's height is log10(nodes) + 0.2 times one unit, left to right.
        unit = [h / (math.log10(n) + 0.2) for _, n, h, _ in chart["bars"]]
        assert max(unit) - min(unit) < 1e-6 * max(unit)
        xs = [x for *_, x in chart["bars"]]
        assert xs == sorted(xs) and len(set(xs)) == len(xs)
        assert chart["title"] == "Nodes per IDA* iteration" and chart["role"] == "img"
        assert "6 IDA* iterations" in chart["label"] and "table" in chart["caption"] + \
            chart["label"]
        assert chart["right"][1] <= chart["right"][0], chart["right"]
        assert chart["shown"][0] <= chart["shown"][1] <= width, chart  # border and all
        assert chart["page"][0] <= chart["page"][1], chart
        loaded.check_clean(tmp_path)


def test_sliding_page_of_a_board_at_the_goal(browser, tmp_path: Path) -> None:
    html = tmp_path / "p.html"
    write_sliding_page(str(html), [tuple(range(1, 9)) + (0,)], 3)
    loaded = Loaded(browser, html)
    page = loaded.page
    assert "step 1 of 1" in loaded.step_text()
    assert page.inner_text("#sliding-status") == "The start board is the goal: no move needed."
    assert "n goal." in page.inner_text(".help")  # the key does what the button says
    loaded.check_clean(tmp_path)


def narrow_pages(tmp_path: Path) -> dict[str, Path]:
    """A page of each kind whose board, chart or title is wider than 400 pixels when
    drawn at its full size."""
    pages = {name: tmp_path / f"{name}.html" for name in
             ("queens", "sudoku", "sliding", "connect4", "timeline", "alphabeta")}
    write_queens_page(str(pages["queens"]), record_queens(16, limit=200).as_data())
    sudoku = record_sudoku(HARDEST, limit=200).as_data()
    write_page(str(pages["sudoku"]), render_page("sudoku", [sudoku_section(sudoku)]))
    write_sliding_page(str(pages["sliding"]), random_path(4, 20, seed=2), 4, [(20, 5), (22, 40)])
    write_connect4_page(str(pages["connect4"]), "4453637", given=3)
    report = count(QueensSpace(ImmutableQueenLocations(8), kernel="reference"), workers=2,
                   backend="threads", budget=200)
    write_timeline_page(str(pages["timeline"]), report, "8-queens")
    trees = tmp_path / ("a_file_name_with_no_space_to_break_a_line_at_" * 3 + ".txt")
    trees.write_text("{(A,MAX),(B,MIN)} {(A,B),(B,4),(B,3)}\n")
    done = run_cli("games", "alphabeta", str(trees), "--html", str(pages["alphabeta"]))
    assert done.returncode == 0, done.stderr
    return pages


def test_pages_fit_a_narrow_window(browser, tmp_path: Path) -> None:
    for name, html in narrow_pages(tmp_path).items():
        loaded = Loaded(browser, html, width=400)
        page = loaded.page
        wide = page.evaluate("[document.documentElement.scrollWidth, "
                             "document.documentElement.clientWidth]")
        assert wide[0] <= wide[1], (name, wide)
        assert loaded.errors == [] and loaded.requests == [], name
        if name == "timeline":  # every tick label inside the chart, the last one too
            right = page.evaluate("""() => {
                const svg = document.querySelector('#timeline-chart svg');
                const box = svg.viewBox.baseVal.width;
                return [box, Math.max(...[...svg.querySelectorAll('text')].map(
                    t => t.getBBox().x + t.getBBox().width))]; }""")
            assert right[1] <= right[0], right
        loaded.page.close()
