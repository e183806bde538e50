"""A* specialised for ``Board``: compact states, O(1) heuristic updates, a bucket queue.

``Solver`` takes this path when the initial state is a ``Board`` and the heuristic
is given by name (or not at all); it finds optimal paths as the generic search
does, with less time and memory per node.

Glossary
--------
state
    The tiles as ``bytes`` (``n * n`` <= 100 cells, tile values < 100), row-major,
    ``0`` the blank.  A child is a ``bytearray`` copy with two cells swapped.
step
    ``(direction, other cell)``: the blank moves from its cell to ``other``; the
    tile there moves the opposite way.  Directions index ``MOVES`` (``U L R D``),
    and ``3 - d`` undoes ``d``.
record
    ``best[state] = g * 4 + d``: the fewest moves found to ``state`` and the
    direction of the blank's last move on that path (the parent is rebuilt by
    undoing it, so no parent pointer is stored).  It is also the closed set: a
    state is queued again only when reached by a shorter path.
bucket queue
    ``lanes[f][g]``: the states waiting with that f and g.  The smallest f goes
    first; among equal f the largest g (the deepest node, closest to a goal).
scorer
    The heuristic, updated per move: ``PerTile`` (hamming, Manhattan: the moved
    tile's change), ``Linear`` (Manhattan plus the linear-conflict cost of the one
    line the tile left or entered, when that is its goal line; line costs are
    memoised by the line's contents) and ``Pattern`` (additive pattern databases:
    the moved tile's group index and its mirror's change by a stride; the
    popped state's indices are computed once per expansion).  All are admissible;
    hamming, Manhattan and linear also change by at most 1 per move (consistent),
    the databases can drop by more.  A state reached again by a shorter path is
    queued again (reopened), so the first time the goal leaves the queue its path
    is optimal either way.

Example: ``search(bytes((1, 2, 3, 4, 5, 6, 7, 0, 8)), 3, "blank-last", "linear")``
finds the path of two states (one move).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Any

from .board import STEPS, goal_tiles

FAST_HEURISTICS = ("hamming", "manhattan", "linear", "pdb-555", "pdb-663")


class NodeLimit(RuntimeError):
    """Raised by ``search`` when ``max_nodes`` states have been enqueued."""


class Exhausted(LookupError):
    """Raised by ``search`` when the goal is not reachable (every state searched)."""


@dataclass(frozen=True, slots=True)
class Found:
    path: list[bytes]  # from the initial state to the goal
    enqueued: int
    expanded: int


def steps_table(n: int) -> list[list[tuple[int, int]]]:
    """For each blank cell, the moves that stay on the board, in ``U L R D`` order."""
    table = []
    for cell in range(n * n):
        row, col = divmod(cell, n)
        table.append([(d, (row + dr) * n + col + dc) for d, (dr, dc) in enumerate(STEPS)
                      if 0 <= row + dr < n and 0 <= col + dc < n])
    return table


def goal_cells(n: int, goal: str) -> list[int]:
    """``goal_cells(n, goal)[t]``: the cell where tile t belongs."""
    cells = [0] * (n * n)
    for cell, tile in enumerate(goal_tiles(n, goal)):
        cells[tile] = cell
    return cells


def line_cost(goal_positions: list[int]) -> int:
    """2 x (tiles to take out so the rest are in goal order): the linear-conflict cost
    of one line, given the goal positions (along the line) of its own tiles in order."""
    tails: list[int] = []  # patience sorting: the longest increasing run
    for value in goal_positions:
        at = bisect_left(tails, value)
        tails[at:at + 1] = [value]
    return 2 * (len(goal_positions) - len(tails))


class PerTile:
    """Hamming or Manhattan: a sum over tiles of ``cost[tile][cell]``."""

    def __init__(self, n: int, goal: str, name: str) -> None:
        self.n, self.home = n, goal_cells(n, goal)
        size, home = n * n, self.home
        if name == "hamming":
            self.cost = [[int(t != 0 and cell != home[t]) for cell in range(size)]
                         for t in range(size)]
        else:
            self.cost = [[0] * size if t == 0 else
                         [abs(cell // n - home[t] // n) + abs(cell % n - home[t] % n)
                          for cell in range(size)] for t in range(size)]

    def full(self, state: bytes) -> int:
        return sum(self.cost[t][cell] for cell, t in enumerate(state))

    def child(self, h: int, state: bytes, child: bytes, tile: int, blank: int,
              other: int) -> int:
        """h of ``child``: ``tile`` slid from ``other`` to ``blank`` in ``state``."""
        cost = self.cost[tile]
        return h + cost[blank] - cost[other]


class Linear(PerTile):
    """Manhattan plus linear conflicts (2 per tile a row or column must let pass)."""

    def __init__(self, n: int, goal: str) -> None:
        super().__init__(n, goal, "manhattan")
        self.rows: list[dict[bytes, int]] = [{} for _ in range(n)]
        self.cols: list[dict[bytes, int]] = [{} for _ in range(n)]

    def full(self, state: bytes) -> int:
        lines = sum(self.row_cost(state, r) + self.col_cost(state, r) for r in range(self.n))
        return super().full(state) + lines

    def row_cost(self, state: bytes, row: int) -> int:
        n = self.n
        line = state[row * n:row * n + n]
        found = self.rows[row].get(line)
        if found is None:
            found = line_cost([self.home[t] % n for t in line if t and self.home[t] // n == row])
            self.rows[row][line] = found
        return found

    def col_cost(self, state: bytes, col: int) -> int:
        n = self.n
        line = state[col::n]
        found = self.cols[col].get(line)
        if found is None:
            found = line_cost([self.home[t] // n for t in line if t and self.home[t] % n == col])
            self.cols[col][line] = found
        return found

    def child(self, h: int, state: bytes, child: bytes, tile: int, blank: int,
              other: int) -> int:
        cost, n, home = self.cost[tile], self.n, self.home[tile]
        h += cost[blank] - cost[other]
        if blank - other in (1, -1):  # along a row: the tile changes column
            col = home % n
            if col == blank % n or col == other % n:
                h += self.col_cost(child, col) - self.col_cost(state, col)
        else:
            row = home // n
            if row == blank // n or row == other // n:
                h += self.row_cost(child, row) - self.row_cost(state, row)
        return h


class Pattern:
    """Additive pattern databases (``pdb-555``, ``pdb-663``), max with the reflection: the
    kernel's tables, read through a memoryview.  A state's 2 x groups indices are packed
    into one int (``SLOT`` bits each), summed over its cells in one pass."""

    SLOT = 32

    def __init__(self, n: int, goal: str, name: str) -> None:
        from .heuristics import tables_for

        tables, size = tables_for(n, name), n * n
        self.table = tables.tables.data.cast("B")
        self.offsets = [int(o) for o in tables.offsets]
        self.groups = groups = len(self.offsets)
        frame = list(range(size)) if goal == "blank-first" else list(range(size))[::-1]
        group, stride = tables.group.tolist(), tables.stride.tolist()
        rtile, rcell = tables.rtile.tolist(), tables.rcell.tolist()
        if not tables.reflect:
            rtile, rcell = list(range(size)), list(range(size))
        self.group, self.weight, self.rgroup, self.rweight = [], [], [], []
        for tile in range(size):
            ft = tile if goal == "blank-first" else (size - tile) % size
            self.group.append(group[ft])
            self.weight.append([frame[c] * stride[ft] for c in range(size)])
            self.rgroup.append(groups + group[rtile[ft]])
            self.rweight.append([rcell[frame[c]] * stride[rtile[ft]] for c in range(size)])
        # packed[cell][tile]: the tile's share of the packed indices when on that cell
        self.packed = [[0 if t == 0 else (self.weight[t][c] << self.SLOT * self.group[t])
                        + (self.rweight[t][c] << self.SLOT * self.rgroup[t])
                        for t in range(size)] for c in range(size)]
        self.index = self.values = [0] * (2 * groups)
        self.sums = (0, 0)

    def expand(self, state: bytes) -> None:
        """Remember the group indices and values of ``state`` (the one being expanded)."""
        packed, slot, mask = sum(map(list.__getitem__, self.packed, state)), self.SLOT, (
            1 << self.SLOT) - 1
        self.index = index = [(packed >> slot * g) & mask for g in range(2 * self.groups)]
        table, offsets = self.table, self.offsets * 2
        self.values = values = [table[o + i] for o, i in zip(offsets, index)]
        self.sums = (sum(values[:self.groups]), sum(values[self.groups:]))

    def full(self, state: bytes) -> int:
        self.expand(state)
        return max(self.sums)

    def child(self, h: int, state: bytes, child: bytes, tile: int, blank: int,
              other: int) -> int:
        groups, offsets, index, values, table = (self.groups, self.offsets, self.index,
                                                 self.values, self.table)
        g, weight = self.group[tile], self.weight[tile]
        plain = (self.sums[0] - values[g]
                 + table[offsets[g] + index[g] + weight[blank] - weight[other]])
        g, weight = self.rgroup[tile], self.rweight[tile]
        mirror = (self.sums[1] - values[g]
                  + table[offsets[g - groups] + index[g] + weight[blank] - weight[other]])
        return plain if plain > mirror else mirror


def scorer_for(n: int, goal: str, name: str) -> Any:
    """The scorer of heuristic ``name`` (one of ``FAST_HEURISTICS``)."""
    if name in ("hamming", "manhattan"):
        return PerTile(n, goal, name)
    if name == "linear":
        return Linear(n, goal)
    if name in ("pdb-555", "pdb-663") and n == 4:
        return Pattern(n, goal, name)
    raise ValueError(f"no fast A* heuristic {name!r} for {n}x{n} boards; expected one of "
                     f"{list(FAST_HEURISTICS)} (the databases on 4x4 only)")


def search(start: bytes, n: int, goal: str, name: str, max_nodes: int | None = None
           ) -> Found:
    """An optimal path from ``start`` to the goal (the caller checks solvability first)."""
    scorer = scorer_for(n, goal, name)
    target, steps = bytes(goal_tiles(n, goal)), steps_table(n)
    child_h = scorer.child
    expand = getattr(scorer, "expand", None)
    limit = -1 if max_nodes is None else max_nodes
    best = {start: 0}
    queue = BucketQueue()
    queue.push(scorer.full(start), 0, start)
    enqueued, expanded, pop, push, get = 1, 0, queue.pop, queue.push, best.get
    while True:
        f, g, state = pop()
        code = best[state]
        if code >> 2 != g:
            continue  # reached again by a shorter path since it was queued
        if state == target:
            return Found(_path(best, state, n), enqueued, expanded)
        expanded += 1
        if expand is not None:
            expand(state)
        h, blank, back = f - g, state.index(0), 3 - (code & 3) if g else -1
        g += 1
        for d, other in steps[blank]:
            if d == back:
                continue
            tile = state[other]
            cells = bytearray(state)
            cells[blank], cells[other] = tile, 0
            child = bytes(cells)
            old = get(child)
            if old is not None and old >> 2 <= g:
                continue
            if enqueued == limit:
                raise NodeLimit(f"A* enqueued {enqueued:,} nodes (--max-nodes) "
                                "without reaching the goal")
            enqueued += 1
            best[child] = g << 2 | d
            push(g + child_h(h, state, child, tile, blank, other), g, child)


class BucketQueue:
    """States by (f, g): smallest f first, then largest g, last in first out."""

    def __init__(self) -> None:
        self.lanes: list[list[list[bytes]]] = []  # lanes[f][g], g = 0..f (h >= 0)
        self.f = self.g = 0

    def push(self, f: int, g: int, state: bytes) -> None:
        lanes = self.lanes
        while len(lanes) <= f:
            lanes.append([[] for _ in range(len(lanes) + 1)])
        lanes[f][g].append(state)
        if f < self.f:
            self.f, self.g = f, f
        elif f == self.f and g > self.g:
            self.g = g

    def pop(self) -> tuple[int, int, bytes]:
        """The first state; ``Exhausted`` when the queue is empty."""
        lanes, f, g = self.lanes, self.f, self.g
        while True:
            if f >= len(lanes):
                raise Exhausted("every reachable state was searched")
            lane = lanes[f]
            while g >= 0 and not lane[g]:
                g -= 1
            if g >= 0:
                self.f, self.g = f, g
                return f, g, lane[g].pop()
            f += 1
            g = f


def _path(best: dict[bytes, int], state: bytes, n: int) -> list[bytes]:
    """The states from the start to ``state``, rebuilt by undoing each recorded move."""
    path = [state]
    while best[state] >> 2:
        dr, dc = STEPS[best[state] & 3]
        blank = state.index(0)
        previous = blank - dr * n - dc
        cells = bytearray(state)
        cells[blank], cells[previous] = cells[previous], 0
        state = bytes(cells)
        path.append(state)
    return path[::-1]
