"""The 9x9 band kernel: candidates as per-digit band words, propagation in shifts and masks.

A state is one row of 30 ``int64`` words: for each digit ``d`` (0..8) and band
``b`` (0..2) the band word ``3 * d + b`` of its candidates, then per band the
cells already placed (``SOLVED + b``).  A placed cell keeps its digit's bit, so
each of a solved grid's digit words holds its nine cells.

Propagation runs to a fixed point:

* a placement takes its digit from the cell's peers (``PEERS``) and the other
  digits from the cell;
* each changed digit is reduced on its own: in every band the minirows that
  hold it must contain a permutation matrix (``BAND_KEEP``), and so must the
  (band x column) places of every stack (``KEEP9``); a row of a band left with
  one cell for the digit is placed (this covers hidden singles of rows,
  columns and boxes, and locked candidates);
* across the digits, per band, one and two counters over the nine words find
  the empty cells (dead) and the naked singles.

The rules branch as little as they can on the data: a rule runs on all three
bands of a digit rather than on those that changed (each rule keeps its own
output), and the three bands' findings are tested with one branch: on the
hardest sets a mispredicted branch costs more than the work it would skip
(``perf`` on the JIT code puts four fifths of the time in ``propagate``).

The search guesses on the cell of two candidates with the most open peers when
there is one (of those, the one with the most two-candidate peers: 2-3% fewer
nodes on the hardest sets; else the first cell with fewest), the digit with the
most places left first.  Neither choice depends on how the digits are named, and
the first barely on the orientation: on the hardest sets it halved the nodes against the
first two-candidate cell in row-major order, and made a transposed, relabelled
set cost the same as the published one.

Glossary
--------
dirty
    A 27-bit set of band words (bit ``3 * d + b``) that changed since their digit
    was last reduced, and bits ``NAKED + b`` for the bands that may hold new naked
    singles.
dead
    ``-1`` in place of a dirty set: the state has a contradiction.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core.cpu import CPUTargetOptions
from numba.extending import intrinsic

from ... import _jit_cache  # noqa: F401  (registers the cache locators before any @njit)
from .tables import ALL27, BAND_KEEP, KEEP9, MINIROWS3, PEERS, ROW_SINGLE

SOLVED = 27  # state[SOLVED + b]: the placed cells of band b
NAKED = 27  # dirty bit NAKED + b: band b may hold new naked singles
WORDS = 30
DEAD = -1
COLUMN_SPREAD = 0x40201  # a 9-bit set of columns times this: those columns in all 3 rows
NO_REFCOUNTS = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}
hot_njit = njit(cache=True, **NO_REFCOUNTS)  # type: ignore[call-overload]
inline_njit = njit(cache=True, inline="always", **NO_REFCOUNTS)  # type: ignore[call-overload]

# The bit intrinsics below repeat sudoku/kernel/bits.py's on purpose: a kernel folder's
# numba cache is stamped by its own sources only, so a helper inlined from another
# folder could change without this kernel being recompiled.


@intrinsic
def _llvm_cttz(typingctx, x):  # type: ignore[no-untyped-def]
    """LLVM's count of trailing zeros (``tzcnt``); undefined for 0."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return x(x), codegen


@intrinsic
def _llvm_ctpop(typingctx, x):  # type: ignore[no-untyped-def]
    """LLVM's population count (``popcnt``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return x(x), codegen


@inline_njit
def low_index(x):  # type: ignore[no-untyped-def]
    """Index of the lowest set bit of a non-zero word."""
    return _llvm_cttz(np.int64(x))


@inline_njit
def bit_count(x):  # type: ignore[no-untyped-def]
    """How many bits a word holds."""
    return _llvm_ctpop(np.int64(x))


@inline_njit
def place(s, k, d, b, i, dirty):  # type: ignore[no-untyped-def]
    """Put digit ``d`` in cell ``i`` of band ``b`` of state ``s[k]``: its peers lose
    ``d``, the cell the other digits; the new dirty set, or ``DEAD`` when the cell
    no longer holds ``d``."""
    dirty = take_from_peers(s, k, d, b, i, dirty)
    if dirty == DEAD:
        return DEAD
    return take_other_digits(s, k, d, b, np.int64(1) << i, dirty)


@inline_njit
def take_from_peers(s, k, d, b, i, dirty):  # type: ignore[no-untyped-def]
    """The peers of cell ``i`` of band ``b`` lose digit ``d`` and the cell counts as
    placed (a naked single: the cell holds nothing else)."""
    bit = np.int64(1) << i
    if s[k, 3 * d + b] & bit == 0:
        return DEAD
    cell = 27 * b + i
    for band in range(3):
        w = s[k, 3 * d + band]
        kept = w & ~PEERS[cell, band]
        s[k, 3 * d + band] = kept
        moved = np.int64(kept != w)
        dirty |= (moved << (3 * d + band)) | (moved << (NAKED + band))
    s[k, SOLVED + b] |= bit
    return dirty


@inline_njit
def take_other_digits(s, k, d, b, cells, dirty):  # type: ignore[no-untyped-def]
    """The ``cells`` (a band word) of band ``b`` lose every digit but ``d`` and count
    as placed (hidden singles after the rules: their peers no longer hold ``d``)."""
    for e in range(9):
        w = s[k, 3 * e + b]
        kept = w & ~(cells & -np.int64(e != d))
        s[k, 3 * e + b] = kept
        dirty |= np.int64(kept != w) << (3 * e + b)
    s[k, SOLVED + b] |= cells
    return dirty


@inline_njit
def _band_rule(w):  # type: ignore[no-untyped-def]
    """The cells of the minirows of a band word that lie on a permutation matrix."""
    signature = (MINIROWS3[w & 511] | (MINIROWS3[(w >> 9) & 511] << 3)
                 | (MINIROWS3[(w >> 18) & 511] << 6))
    return w & BAND_KEEP[signature & 511]  # (the mask: no negative-index code)


@inline_njit
def _stack_allow(f0, f1, f2, shift):  # type: ignore[no-untyped-def]
    """The (band x column) places of one stack that lie on a permutation matrix."""
    signature = ((f0 >> shift) & 7) | (((f1 >> shift) & 7) << 3) | (((f2 >> shift) & 7) << 6)
    return KEEP9[signature]


@inline_njit
def _stack_rule(w0, w1, w2):  # type: ignore[no-untyped-def]
    """The three band words of a digit less the columns no stack permutation uses;
    all zero when a stack has none."""
    f0 = (w0 | (w0 >> 9) | (w0 >> 18)) & 511
    f1 = (w1 | (w1 >> 9) | (w1 >> 18)) & 511
    f2 = (w2 | (w2 >> 9) | (w2 >> 18)) & 511
    a = _stack_allow(f0, f1, f2, 0)
    m = _stack_allow(f0, f1, f2, 3)
    z = _stack_allow(f0, f1, f2, 6)
    if a == 0 or m == 0 or z == 0:
        return np.int64(0), np.int64(0), np.int64(0)
    c0 = (a & 7) | ((m & 7) << 3) | ((z & 7) << 6)
    c1 = ((a >> 3) & 7) | (((m >> 3) & 7) << 3) | (((z >> 3) & 7) << 6)
    c2 = ((a >> 6) & 7) | (((m >> 6) & 7) << 3) | (((z >> 6) & 7) << 6)
    return w0 & (c0 * COLUMN_SPREAD), w1 & (c1 * COLUMN_SPREAD), w2 & (c2 * COLUMN_SPREAD)


@inline_njit
def _single_rows(w):  # type: ignore[no-untyped-def]
    """The cells of a band word that are alone in their row."""
    rows = (ROW_SINGLE[w & 511] | (ROW_SINGLE[(w >> 9) & 511] << 9)
            | (ROW_SINGLE[(w >> 18) & 511] << 18))
    return w & (rows * 511)


@inline_njit
def reduce_digit(s, k, d, dirty):  # type: ignore[no-untyped-def]
    """Band rule on the three bands of digit ``d`` and the stack rule, to a fixed
    point, then its lone row cells placed; the new dirty set or ``DEAD``."""
    o0, o1, o2 = s[k, 3 * d], s[k, 3 * d + 1], s[k, 3 * d + 2]
    w0, w1, w2 = o0, o1, o2
    while True:  # (the band rule keeps its own output: no branch on the bands changed)
        w0, w1, w2 = _band_rule(w0), _band_rule(w1), _band_rule(w2)
        n0, n1, n2 = _stack_rule(w0, w1, w2)
        if n0 == 0 or n1 == 0 or n2 == 0:
            return DEAD
        if n0 == w0 and n1 == w1 and n2 == w2:
            break
        w0, w1, w2 = n0, n1, n2
    s[k, 3 * d], s[k, 3 * d + 1], s[k, 3 * d + 2] = w0, w1, w2
    changed = (w0 != o0) | ((w1 != o1) << 1) | ((w2 != o2) << 2)
    dirty |= np.int64(changed) << NAKED
    fresh0 = _single_rows(w0) & ~s[k, SOLVED]
    fresh1 = _single_rows(w1) & ~s[k, SOLVED + 1]
    fresh2 = _single_rows(w2) & ~s[k, SOLVED + 2]
    if fresh0 | fresh1 | fresh2:  # (one branch for the common case of none)
        if fresh0:
            dirty = take_other_digits(s, k, d, 0, fresh0, dirty)
        if fresh1:
            dirty = take_other_digits(s, k, d, 1, fresh1, dirty)
        if fresh2:
            dirty = take_other_digits(s, k, d, 2, fresh2, dirty)
    return dirty


@inline_njit
def _lone_candidates(s, k, b):  # type: ignore[no-untyped-def]
    """The open cells of band ``b`` left with one candidate; -1 if a cell has none."""
    ones = twos = np.int64(0)
    for d in range(9):
        w = s[k, 3 * d + b]
        twos |= ones & w
        ones |= w
    return ones & ~twos & ~s[k, SOLVED + b] if ones == ALL27 else np.int64(-1)


@inline_njit
def naked_singles(s, k, dirty):  # type: ignore[no-untyped-def]
    """Place every cell left with one candidate, when ``dirty`` marks a band (bits
    ``NAKED + b``; then all three are scanned: cheaper than a branch per band);
    ``DEAD`` if a cell has none."""
    if dirty >> NAKED == 0:
        return dirty
    dirty &= ALL27
    lone0, lone1 = _lone_candidates(s, k, 0), _lone_candidates(s, k, 1)
    lone2 = _lone_candidates(s, k, 2)
    if lone0 | lone1 | lone2 <= 0:  # none, or a cell without candidates (-1)
        return dirty if lone0 | lone1 | lone2 == 0 else DEAD
    for b in range(3):
        singles = lone0 if b == 0 else (lone1 if b == 1 else lone2)
        while singles:
            i = low_index(singles)
            digit = 0  # the one digit whose word holds the bit
            for d in range(9):
                digit += d * ((s[k, 3 * d + b] >> i) & 1)
            dirty = take_from_peers(s, k, digit, b, i, dirty)
            if dirty == DEAD:
                return DEAD
            singles &= singles - 1
    return dirty


@hot_njit
def propagate(s, k, dirty):  # type: ignore[no-untyped-def]
    """Run the rules on ``s[k]`` until nothing changes; False when it is dead."""
    while True:
        while dirty & ALL27:
            d = low_index(dirty) // 3
            dirty &= ~(np.int64(7) << (3 * d))
            dirty = reduce_digit(s, k, d, dirty)
            if dirty == DEAD:
                return False
        dirty = naked_singles(s, k, dirty)
        if dirty == DEAD:
            return False
        if dirty == 0:
            return True


@inline_njit
def _two_candidates(s, k, b):  # type: ignore[no-untyped-def]
    """The open cells of band ``b`` with exactly two candidates."""
    ones = twos = threes = np.int64(0)
    for d in range(9):
        w = s[k, 3 * d + b]
        threes |= twos & w
        twos |= ones & w
        ones |= w
    return twos & ~threes & ~s[k, SOLVED + b]


@hot_njit
def choose_cell(s, k):  # type: ignore[no-untyped-def]
    """``27 * band + index`` of the cell with two candidates that has the most open
    peers, of those the most peers with two candidates (the first such), else of the
    first with fewest candidates; -1 when every cell is placed."""
    open0 = ALL27 & ~s[k, SOLVED]
    open1 = ALL27 & ~s[k, SOLVED + 1]
    open2 = ALL27 & ~s[k, SOLVED + 2]
    two0, two1, two2 = _two_candidates(s, k, 0), _two_candidates(s, k, 1), _two_candidates(s, k, 2)
    best, best_score = -1, -1
    for b in range(3):
        two = two0 if b == 0 else (two1 if b == 1 else two2)
        while two:
            cell = 27 * b + low_index(two)
            score = 32 * (bit_count(PEERS[cell, 0] & open0) + bit_count(PEERS[cell, 1] & open1)
                          + bit_count(PEERS[cell, 2] & open2))
            score += (bit_count(PEERS[cell, 0] & two0) + bit_count(PEERS[cell, 1] & two1)
                      + bit_count(PEERS[cell, 2] & two2))
            if score > best_score:
                best, best_score = cell, score
            two &= two - 1
    if best >= 0:
        return best
    fewest, chosen = 10, -1
    for b in range(3):
        open_cells = ALL27 & ~s[k, SOLVED + b]
        while open_cells and fewest > 3:
            i = low_index(open_cells)
            count = 0
            for d in range(9):
                count += (s[k, 3 * d + b] >> i) & 1
            if count < fewest:
                fewest, chosen = count, 27 * b + i
            open_cells &= open_cells - 1
    return chosen


@hot_njit
def digits_of(s, k, cell):  # type: ignore[no-untyped-def]
    """The 9-bit set of digits a cell still holds."""
    b, i = cell // 27, cell % 27
    found = 0
    for d in range(9):
        found |= ((s[k, 3 * d + b] >> i) & 1) << d
    return found


@hot_njit
def load_givens(givens, index, s):  # type: ignore[no-untyped-def]
    """``s[0]`` := puzzle ``index``'s givens placed; the dirty set, or ``DEAD``."""
    for w in range(27):
        s[0, w] = ALL27
    for b in range(3):
        s[0, SOLVED + b] = 0
    dirty = 0
    for cell in range(81):
        given = givens[index, cell]
        if given != 0:
            dirty = place(s, 0, given - 1, cell // 27, cell % 27, dirty)
            if dirty == DEAD:
                return DEAD
    return dirty
