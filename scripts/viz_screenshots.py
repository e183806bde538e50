"""Make the screenshots of docs/viz.md: each page at 1280x800 in headless Chromium (the
25x25 Sudoku at 400x800, a phone's width).

Usage: python scripts/viz_screenshots.py [OUT_DIR [NAME ...]]   (default docs/img, all)

Writes the pages with the command lines docs/viz.md shows (into a temporary folder),
steps each to an interesting point and saves one PNG per page.  Needs Playwright for
Python and the system's Chromium (/usr/bin/chromium, or $CHROMIUM).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _args import Parser, run_script

ROOT = Path(__file__).resolve().parents[1]
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
NAMES = ("viz_queens.png", "viz_sudoku.png", "viz_timeline.png", "viz_sliding.png",
         "viz_connect4.png", "viz_alphabeta.png", "viz_nim.png", "viz_tictactoe.png",
         "viz_connect4_pv.png", "viz_sudoku_25x25.png")
WIDTHS = {"viz_sudoku_25x25.png": 400}  # the window's width, where it is not 1280
# A 52-move 15-puzzle (Rosetta Code's): nine IDA* iterations with Manhattan.
ROSETTA = "15 14 1 6 9 11 4 12 0 10 7 3 13 8 5 2"
HARDEST = "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4."


def cli(*argv: str, stdin: str | None = None) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", *argv], check=True, env=env, cwd=ROOT,
                   stdout=subprocess.DEVNULL, input=stdin, text=True)


def gecode_25x25(index: str) -> str:
    """A Gecode 25x25 puzzle of tests/data by its index (``gecode 90``)."""
    for line in (ROOT / "tests" / "data" / "gecode_25x25.txt").read_text().splitlines():
        puzzle, _, note = line.partition("\t")
        if not line.startswith("#") and note.strip() == index:
            return puzzle.strip()
    raise ValueError(f"no puzzle {index!r} in tests/data/gecode_25x25.txt")


def pages(tmp: Path) -> dict[str, tuple[Path, list[str]]]:
    sys.path.insert(0, str(ROOT))
    from parallel_backtrack.viz import write_connect4_page

    (tmp / "one.txt").write_text(HARDEST + "\n")
    cli("parallel_backtrack.nqueens", "--n", "8", "--workers", "1", "--html",
        str(tmp / "q.html"))
    cli("parallel_backtrack.sudoku", str(tmp / "one.txt"), "--propagation", "twins",
        "--order", "row-major", "--html", str(tmp / "s.html"))
    cli("parallel_backtrack.nqueens", "--n", "16", "--workers", "2", "--trace-limit", "10",
        "--html", str(tmp / "t.html"))
    cli("parallel_backtrack.sliding", "-", "--heuristic", "manhattan", "--html",
        str(tmp / "p.html"), stdin=ROSETTA)
    (tmp / "g90.txt").write_text(gecode_25x25("gecode 90") + "\n")
    cli("parallel_backtrack.sudoku", str(tmp / "g90.txt"), "--trace-limit", "400", "--html",
        str(tmp / "s25.html"))
    write_connect4_page(str(tmp / "c.html"), "4453637", given=3)
    trees = "tests/data/search/alphabeta/set2_remedios_alphabeta.txt"
    cli("parallel_backtrack.games", "alphabeta", trees, "--html", str(tmp / "ab.html"))
    cli("parallel_backtrack.games", "nim", "--sticks", "10", "--html", str(tmp / "nim.html"))
    cli("parallel_backtrack.games", "tictactoe", "--html", str(tmp / "ttt.html"))
    cli("parallel_backtrack.games", "connect4", "173213575225514156634", "--html",
        str(tmp / "c4.html"))
    found = {
        "viz_queens.png": (tmp / "q.html", ["ArrowRight"] * 14),
        "viz_sudoku.png": (tmp / "s.html", ["ArrowRight"] * 6),
        "viz_timeline.png": (tmp / "t.html", ["scroll:#section-timeline", "hover:rect.bar"]),
        "viz_sliding.png": (tmp / "p.html", ["ArrowRight"] * 5),
        "viz_connect4.png": (tmp / "c.html", ["End"]),
        "viz_alphabeta.png": (tmp / "ab.html", ["n"]),
        "viz_nim.png": (tmp / "nim.html", ["ArrowRight"] * 30),
        "viz_tictactoe.png": (tmp / "ttt.html", ["End"]),
        "viz_connect4_pv.png": (tmp / "c4.html", ["n"] + ["ArrowRight"] * 6),
        "viz_sudoku_25x25.png": (tmp / "s25.html",
                                 ["ArrowRight"] * 3 + ["scroll:#sudoku-wrap"]),
    }
    assert tuple(found) == NAMES, "NAMES lists the pages in order"
    return found


def main() -> None:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=ROOT / "docs" / "img",
                        metavar="OUT_DIR", help="folder of the PNGs (default docs/img)")
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="screenshots to make (default: all): " + ", ".join(NAMES))
    args = parser.parse_args()
    if not args.out.is_dir():
        parser.error(f"{args.out} is not a folder")
    unknown = [name for name in args.names if name not in NAMES]
    if unknown:
        parser.error(f"unknown screenshot(s) {unknown}; expected some of {list(NAMES)}")
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not os.access(chromium, os.X_OK):
        parser.error(f"no Chromium at {chromium} (set CHROMIUM)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        parser.error("needs Playwright for Python (pip install playwright)")
    out, only = args.out, set(args.names)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as play:
        browser = play.chromium.launch(executable_path=chromium, headless=True, args=FLAGS)
        for name, (page_path, actions) in pages(Path(folder)).items():
            if only and name not in only:
                continue
            page = browser.new_page(viewport={"width": WIDTHS.get(name, 1280), "height": 800})
            page.goto(page_path.as_uri())
            for action in actions:
                if action.startswith("scroll:"):
                    page.evaluate(f"document.querySelector('{action[7:]}').scrollIntoView()")
                elif action.startswith("hover:"):
                    page.hover(action[6:] + " >> nth=4")
                else:
                    page.keyboard.press(action)
            page.wait_for_timeout(400)  # let the tiles finish sliding
            page.screenshot(path=str(out / name))
            print(f"{out / name}: {(out / name).stat().st_size / 1000:.0f} KB")
            page.close()
        browser.close()


if __name__ == "__main__":
    run_script(main)
