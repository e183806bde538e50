"""A step-by-step record of the reference Sudoku search, with the rule behind every
eliminated candidate, for the propagation page (``viz.sudoku_page`` draws
``SudokuTrace.as_data()``: plain data).

The walk is the reference search (``SudokuSpace`` with ``kernel="reference"``):
the order picks a square, its candidates are tried smallest first, depth-first,
until the first solution.  Each child is built by the real puzzle
(``next_puzzles``) and again by the same propagator with an observer
(``propagate``'s ``observer``), which says which rule removed each candidate; the
two must agree (``mismatches`` counts the steps where they did not).

Glossary
--------
step
    ``start`` (the givens placed, nothing propagated), ``propagate`` (what the
    givens imply), ``guess`` (a square tried with one of its candidates and
    what follows), ``dead`` (the last guess met a contradiction), ``back``
    (return to the state of an earlier step), ``solved``, or ``unsolvable`` (every
    branch tried: the puzzle has no solution).
elims
    Per step, the candidates removed, each written as four characters: the
    square in two base-36 digits, value - 1 in one, the rule code in one
    (``"0a21"``: square 10 loses value 3 by hidden single).
shown
    What the page shows of a square: its candidates (``shown_masks``).
rule
    An int code, the index in ``RULE_NAMES``: ``ASSIGNED`` (the other values of a
    square given a value), the propagators' ``RULES`` (peer elimination, hidden
    single, naked twins, locked candidates, unit matching), ``OTHER`` (none of
    these: only if the observed child ever disagrees with the search's own).
log
    A list of ``(square, value, rule)`` triples, in the order they happened.
nodes
    States visited as the engine counts them: the root plus one per guess.

Example: ``record_sudoku(givens, "units", "fewest").kinds[-1] == "solved"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.checks import check_int
from .candidates import bits
from .grid import Grid
from .orders import SquareOrder, as_order
from .propagate import PROPAGATORS, RULES, all_open_candidates
from .puzzle import ImmutableSudokuPuzzle, check_givens, read_givens

MAX_TRACE_SIZE = 25
# Characters of eliminations a page may carry (4 per candidate): about 1.4 MB.
MAX_ELIM_CHARS = 1_400_000
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
RULE_NAMES = ("assigned", *RULES, "other")
CODES = {name: code for code, name in enumerate(RULE_NAMES)}
ASSIGNED, PEER, OTHER = CODES["assigned"], CODES["peer elimination"], CODES["other"]
# The rules each propagation can use (the page's legend).
USED = {"none": ("assigned", "peer elimination"), "peers": ("assigned", "peer elimination"),
        "units": ("assigned", "peer elimination", "hidden single"),
        "twins": ("assigned", "peer elimination", "hidden single", "naked twins"),
        "locked": ("assigned", "peer elimination", "hidden single", "locked candidates"),
        "matching": ("assigned", "peer elimination", "locked candidates", "unit matching")}
Log = list[tuple[int, int, int]]


def log_diff(log: Log, old: Sequence[int], new: Sequence[int], rule: int,
             only: int | None = None, skip: int | None = None) -> None:
    """Append every candidate present in ``old`` and gone in ``new`` (of square ``only``,
    or of every square but ``skip``)."""
    for square, (was, now) in enumerate(zip(old, new)):
        if (only is not None and square != only) or square == skip:
            continue
        gone = was & ~now
        while gone:
            bit = gone & -gone
            log.append((square, bit.bit_length(), rule))
            gone ^= bit


def propagate_logged(name: str, masks: list[int], filled: list[int], grid: Grid,
                     before: Sequence[int] | None, log: Log) -> bool:
    """Run the propagator called ``name`` in place, logging each removal with its rule
    (under ``none`` nothing is removed from the masks: see ``shown_masks``)."""
    def observe(square: int, value: int, rule: str) -> None:
        log.append((square, value, CODES[rule]))

    return PROPAGATORS[name](masks, filled, grid, before, observe)


def shown_masks(name: str, masks: Sequence[int], grid: Grid) -> list[int]:
    """The candidates a person sees: under ``none`` an open square's values not used by
    its filled peers (the masks stay full there), else the masks themselves."""
    return all_open_candidates(masks, grid) if name == "none" else list(masks)


def encode(log: Log) -> str:
    return "".join(DIGITS[s // 36] + DIGITS[s % 36] + DIGITS[v - 1] + DIGITS[r]
                   for s, v, r in log)


@dataclass
class SudokuTrace:
    """What the recorder saw (see the glossary)."""

    box: int
    propagation: str
    order: str
    limit: int
    start: list[int] = field(default_factory=list)
    givens: list[int] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    squares: list[int] = field(default_factory=list)
    values: list[int] = field(default_factory=list)
    extra: list[list[int]] = field(default_factory=list)
    elims: list[str] = field(default_factory=list)
    chars: int = 0
    nodes: int = 0
    mismatches: int = 0
    capped: bool = False
    final: list[int] = field(default_factory=list)

    def add(self, kind: str, square: int = -1, value: int = 0, log: Log | None = None,
            extra: list[int] | None = None) -> bool:
        """Record a step; False once the step or size limit is reached."""
        text = encode(log or [])
        if len(self.kinds) >= self.limit or self.chars + len(text) > MAX_ELIM_CHARS:
            self.capped = True
            return False
        self.kinds.append(kind)
        self.squares.append(square)
        self.values.append(value)
        self.extra.append(extra or [])
        self.elims.append(text)
        self.chars += len(text)
        return True

    def as_data(self) -> dict[str, Any]:
        return {
            "box": self.box, "propagation": self.propagation, "order": self.order,
            "limit": self.limit, "capped": self.capped, "start": self.start,
            "givens": self.givens, "kinds": self.kinds, "squares": self.squares,
            "values": self.values, "extra": self.extra, "elims": self.elims,
            "rules": list(RULE_NAMES), "used": [CODES[r] for r in USED[self.propagation]],
            "nodes": self.nodes,
        }


class _Walk:
    """The depth-first walk; ``shown`` is what the page shows after the last step."""

    def __init__(self, trace: SudokuTrace, order: Any) -> None:
        self.trace, self.order = trace, order
        self.shown: list[int] = []
        self.states: list[list[int]] = []  # shown masks after each step, for ``back``

    def step(self, kind: str, shown: list[int], square: int = -1, value: int = 0,
             log: Log | None = None, extra: list[int] | None = None) -> bool:
        if not self.trace.add(kind, square, value, log, extra):
            return False
        self.shown = shown
        self.states.append(shown)
        return True

    def child(self, puzzle: ImmutableSudokuPuzzle, square: int, bit: int,
              real: ImmutableSudokuPuzzle) -> Log:
        """The log of ``square = bit`` from ``puzzle``; checked against ``real``."""
        grid, name = puzzle.grid, puzzle.propagation
        log: Log = []
        if name == "none":  # nothing propagates: peers lose what the square now uses
            before, after = self.shown, shown_masks(name, real.masks, grid)
            log_diff(log, before, after, ASSIGNED, only=square)
            log_diff(log, before, after, PEER, skip=square)
            return log
        masks = list(puzzle.masks)
        masks[square] = bit & puzzle.candidate_mask(square)
        log_diff(log, puzzle.masks, masks, ASSIGNED)
        if masks[square]:
            propagate_logged(name, masks, [square], grid, puzzle.masks, log)
        if tuple(masks) != real.masks:
            self.trace.mismatches += 1
            log_diff(log, masks, real.masks, OTHER)
        return log

    def begin(self, cells: tuple[int, ...], puzzle: ImmutableSudokuPuzzle) -> bool:
        """The ``start`` and ``propagate`` steps: the givens, then what they imply."""
        grid, name = puzzle.grid, puzzle.propagation
        masks = [grid.full if not v else 1 << (v - 1) for v in cells]
        self.trace.start = shown_masks(name, masks, grid)
        self.trace.givens = [int(v != 0) for v in cells]
        if not self.step("start", list(self.trace.start)):
            return False
        log: Log = []
        if name == "none":
            log_diff(log, self.shown, shown_masks(name, puzzle.masks, grid), PEER)
        else:
            propagate_logged(name, masks, [s for s, v in enumerate(cells) if v], grid, None,
                             log)
            if tuple(masks) != puzzle.masks:
                self.trace.mismatches += 1
                log_diff(log, masks, puzzle.masks, OTHER)
        self.trace.nodes = 1
        return self.step("propagate", shown_masks(name, puzzle.masks, grid), log=log)

    def enter(self, puzzle: ImmutableSudokuPuzzle, stack: list[Any]) -> bool | None:
        """Push a frame for ``puzzle`` (just reached); True when it is solved, None when
        the trace is full."""
        at = len(self.states) - 1
        if puzzle.is_dead():
            stack.append((puzzle, -1, [], at))
            return None if not self.step("dead", self.shown) else False
        if puzzle.is_solved():
            self.trace.final = list(puzzle.cells)
            return None if not self.step("solved", self.shown) else True
        square = self.order.select_next_unfilled_square(puzzle)
        children = puzzle.next_puzzles(square) if square is not None else []
        values = list(bits(puzzle.candidate_mask(square))) if square is not None else []
        stack.append((puzzle, square, list(zip(values, children)), at))
        if not children and not self.step("dead", self.shown, -1 if square is None else square):
            return None
        return False

    def run(self, root: ImmutableSudokuPuzzle) -> None:
        stack: list[Any] = []
        if self.enter(root, stack) is not False:
            return
        while stack:
            puzzle, square, left, at = stack[-1]
            if not left:
                stack.pop()
                if stack and not self.step("back", self.states[stack[-1][3]],
                                           extra=[stack[-1][3]]):
                    return
                continue
            bit, real = left.pop(0)
            tried = puzzle.candidate_mask(square).bit_count() - len(left)
            log = self.child(puzzle, square, bit, real)
            self.trace.nodes += 1
            shown = shown_masks(puzzle.propagation, real.masks, puzzle.grid)
            if not self.step("guess", shown, square, bit.bit_length(), log,
                             [tried, puzzle.candidate_mask(square).bit_count()]):
                return
            found = self.enter(real, stack)
            if found is not False:
                return


def record_sudoku(givens: Any, propagation: str = "units", order: SquareOrder | str = "fewest",
                  limit: int = 5_000) -> SudokuTrace:
    """Walk the reference search of one puzzle to its first solution, up to ``limit``
    steps (an integer >= 1); raises ``InvalidPuzzleError`` for bad givens, ValueError
    above 25x25.  ``order`` is an order or its name (see ``orders.as_order``)."""
    limit = check_int("limit", limit, low=1)
    chosen = as_order(order)
    cells = read_givens(givens)
    grid = check_givens(cells)
    if grid.size > MAX_TRACE_SIZE:
        raise ValueError(f"the propagation page shows puzzles up to {MAX_TRACE_SIZE}x"
                         f"{MAX_TRACE_SIZE}; this one is {grid.size}x{grid.size}")
    puzzle = ImmutableSudokuPuzzle(cells, propagation)
    trace = SudokuTrace(grid.box, propagation, getattr(chosen, "name", type(chosen).__name__),
                        limit)
    walk = _Walk(trace, chosen)
    if walk.begin(cells, puzzle):
        walk.run(puzzle)
    if not trace.capped and trace.kinds[-1] != "solved":
        walk.step("unsolvable", walk.states[1])  # back at the givens, every branch tried
    return trace
