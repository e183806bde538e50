"""An IDA* task asked inside a subtree hands back the open part of it as new roots
(``sliding.rest``): searched again, with asks at any point, the pieces add up to the
whole subtree, node for node, with the same next bound and the same first solution."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from sliding_check import replay, solves

from parallel_backtrack.engine.threshold_tasks import AskAt
from parallel_backtrack.sliding import Board, rest
from parallel_backtrack.sliding.board import to_frame
from parallel_backtrack.sliding.space import SlidingSpace

KORF_79 = (0, 1, 9, 7, 11, 13, 5, 3, 14, 12, 4, 2, 8, 6, 10, 15)  # 42 moves
LETTERS = "ULRD"  # the frame's moves 0..3 (the blank's directions)


def _never(nodes: int = 0) -> bool:
    return False


def _space() -> SlidingSpace:
    return SlidingSpace(to_frame(Board(KORF_79, "blank-first")), 4, "manhattan", chunk=2000)


def _everything(space: SlidingSpace, roots: Any, bound: int, at: int, depth: int = 0
                ) -> tuple[int, float, list[tuple[int, ...]], int, list[Any]]:
    """Search every root of ``roots`` in tasks asked once they spent ``at`` nodes (the
    pieces too, four levels of splits deep), in order: nodes, next bound, solutions in
    order, splits, and every rest handed back."""
    nodes, least, found, splits, rests = 0, float("inf"), [], 0, []
    start = 0
    while start < len(roots):
        ask = AskAt(at if depth < 4 else 1 << 60)
        part = space.search_part(roots.part(start, len(roots)), bound, True, _never, None,
                                 ask.asked)
        nodes, least = nodes + sum(part.nodes), min(least, part.next_bound)
        if part.solution is not None:
            found.append(part.solution[1].moves)
        start += len(part.nodes)
        if part.rest is not None:
            more = _everything(space, part.rest, bound, at, depth + 1)
            nodes, least, found = nodes + more[0], min(least, more[1]), found + more[2]
            splits, rests = splits + 1 + more[3], rests + [part.rest] + more[4]
    return nodes, least, found, splits, rests


@pytest.mark.parametrize("keep", [0, 3, None])
@pytest.mark.parametrize("bound", [40, 42])
def test_split_subtrees_add_up_to_the_whole(monkeypatch: pytest.MonkeyPatch,
                                            bound: int, keep: int | None) -> None:
    if keep is not None:
        monkeypatch.setattr(rest, "KEEP", keep)
    space = _space()
    frontier = space.cut(bound, 8, None)
    whole = space.search_part(frontier.part(0, len(frontier)), bound, True, _never, None)
    first = [] if whole.solution is None else [whole.solution[1].moves]
    assert (bound == 42) == bool(first)  # 42 is the optimal length
    for at in (1, 3_000, 30_000):
        nodes, least, found, splits, rests = _everything(space, frontier, bound, at)
        assert splits > 0
        assert nodes == sum(whole.nodes) and least == whole.next_bound
        assert found[:1] == first
        for moves in found:
            assert solves(KORF_79, "".join(LETTERS[m] for m in moves), "blank-first")
        roots = rests[0]
        depths, tiles, _, paths = roots.part(0, len(roots))
        size = 16
        for i, path in enumerate(paths):  # each root is where its path leads
            cells = replay(KORF_79, "".join(LETTERS[m] for m in path))
            assert cells == list(tiles[size * i:size * (i + 1)])
            assert int.from_bytes(depths[2 * i:2 * i + 2], "little") == len(path)


def test_a_pass_not_deep_enough_is_not_split() -> None:
    space = _space()
    frontier = space.cut(40, 8, None)
    depth, tiles, lasts, _ = frontier.part(0, 1)
    row = np.frombuffer(tiles, np.int8).copy()
    one = space.pass_for(row, depth, lasts[0])
    one.reset_row(row, depth, lasts[0])
    one.begin(40)  # not run: the stack is its root alone
    assert rest.open_roots(one, space.tables, 40, ()) is None
    assert rest.open_roots(one, space.tables, 40, (), keep=0) is not None
