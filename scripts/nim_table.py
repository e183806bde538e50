"""The Nim table of docs/results.md: value, best move and node counts for 1..N sticks.

For each N the command line answers twice (``games nim --sticks N --json`` with the
transposition table, and ``--no-tt`` without it); the plain negamax column is the full
tree's size, T(n) = 1 + T(n-1) + T(n-2) + T(n-3) (T(1) = 1, T(0) = T(-1) = 0), checked
against ``negamax`` itself up to ``--check-up-to`` sticks. Every value is checked against
the mod-4 rule. Prints a Markdown table.

Example::

    python scripts/nim_table.py --up-to 30
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from _args import Parser, run_script  # noqa: E402 - scripts/ is sys.path[0]


def tree_size(sticks: int) -> int:
    """Nodes of the whole Nim tree from ``sticks`` (a heap of 1 is a leaf)."""
    sizes = {-1: 0, 0: 0, 1: 1}
    for n in range(2, sticks + 1):
        sizes[n] = 1 + sizes[n - 1] + sizes[n - 2] + sizes[n - 3]
    return sizes[sticks]


def answer(sticks: int, *extra: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "parallel_backtrack.games", "nim", "--sticks",
                           str(sticks), "--json", *extra], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--up-to", type=int, default=30, help="rows 1..N of the table (30)")
    parser.add_argument("--check-up-to", type=int, default=18,
                        help="check plain negamax's node counts against the formula up to N")
    args = parser.parse_args(argv)
    if args.up_to < 1 or args.check_up_to < 0:
        parser.error("--up-to takes a positive number, --check-up-to one >= 0")
    from parallel_backtrack.games import Nim, negamax, nim_theory

    for sticks in range(1, args.check_up_to + 1):
        game = Nim(sticks)
        assert negamax(game, game.initial).nodes == tree_size(sticks), sticks
    print("| N | value | best move | nodes, plain negamax | nodes, alpha-beta "
          "| nodes, alpha-beta + table |")
    print("|---|---|---|---|---|---|")
    for sticks in range(1, args.up_to + 1):
        with_table, plain = answer(sticks), answer(sticks, "--no-tt")
        assert with_table["value"] == plain["value"] == nim_theory(sticks), sticks
        move = "-" if with_table["best_move"] is None else with_table["best_move"]
        print(f"| {sticks} | {with_table['value']:+d} | {move} | {tree_size(sticks):,} "
              f"| {plain['nodes_no_tt']:,} | {with_table['nodes_tt']:,} |")
    return 0


if __name__ == "__main__":
    run_script(main)
