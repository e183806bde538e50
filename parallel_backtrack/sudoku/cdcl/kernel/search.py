"""A compiled conflict-driven clause-learning (CDCL) SAT search, for ``cdcl``.

One numba function, ``cdcl_search``, decides a CNF formula: two watched
literals with blockers, first-UIP learning with recursive clause minimization,
VSIDS variable activity in a binary heap (the reasons' variables bumped too),
phase saving, failed-literal probing at level 0 (before the search and then
every 5,000 conflicts), and the two modes of CaDiCaL and Kissat: *stable*
(the default: reluctant-doubling restarts, Luby x 1024 conflicts, and target
phases, the longest conflict-free assignment since the mode began) and
*focused* (glucose-style restarts, saved phases), which can also alternate
(see ``new_tuning``).  At restarts a level-0 clean-up drops satisfied clauses and
the worse half of the learnt clauses with LBD above 2.  It stops
after ``max_conflicts`` at a restart and hands back its learnt clauses, so a
caller can resume it (with what it learnt) or give up: that is how ``cdcl``
keeps deadlines and Ctrl-C.

It lives in ``sudoku/cdcl/kernel/``, apart from ``sudoku/kernel/`` and from its
driver ``cdcl/solver.py``, on purpose: every file of a kernel directory is hashed
into the cache stamp of its kernels (``_jit_cache.py``), and this search shares no
code with the backtracking kernel, nor needs recompiling when the driver changes.

Glossary
--------
var, lit
    Variables are ``0 .. nvars - 1``.  Literal ``2 * var`` says the variable
    is true, ``2 * var + 1`` that it is false; ``lit ^ 1`` negates.
    Example: var 3 true is lit 6, false is lit 7.
clause pool
    ``lits`` holds the literals of every clause back to back, clause ``c``
    being ``lits[starts[c]:starts[c + 1]]``.  In the search each clause has a
    start and a length; its first two literals are the watched ones.
lval
    The value of each literal: 1 true, -1 false, 0 unassigned.
watch list
    For each literal, the clauses watching it, each with a blocker (a literal
    of the clause; when it is true the clause needs no visit).  The lists live
    in one pool; a full list moves to the end of the pool with twice the room.
trail, level, reason
    The assigned literals in order; the decision level of each variable and
    the clause that implied it (-1 for decisions and level-0 units).
LBD
    Literal block distance: the number of decision levels among a learnt
    clause's literals; low LBD clauses ("glue") are kept for good.
stats
    int64 counters and search state, cumulative over calls: conflicts,
    decisions, propagations, restarts (the Luby index), clean-ups, conflicts at
    the next clean-up, the mode (1 stable), mode switches, conflicts at the next
    switch, stable restarts (their Luby index), conflicts since the last
    restart, the target assignment's size, and whether probing was done.
tuning
    float64 settings (restarts, VSIDS decay, clean-up and mode schedules,
    reason bumping, probing) and the LBD averages that glucose-style restarts
    follow; see ``new_tuning``.
target
    int8 per variable: the value it had in the longest conflict-free trail of
    this stable mode; stable mode decides with it, focused mode with ``phase``.

Example::

    >>> lits = np.array([0, 2, 1, 3, 1, 2], np.int32)   # (a|b) (~a|~b) (~a|b)
    >>> starts = np.array([0, 2, 4, 6], np.int64)
    >>> phase, target = np.zeros(2, np.int8), np.zeros(2, np.int8)
    >>> status, values, *_ = cdcl_search(2, lits, starts, *empty_learnts(), np.zeros(2),
    ...                                  phase, target, 1000, new_stats(), new_tuning())
    >>> status, values.tolist()   # SATISFIED; a false, b true
    (1, [0, 1])
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .... import _jit_cache  # noqa: F401  (registers the cache locators before any @njit)

UNSATISFIABLE, SATISFIED, LIMIT = 0, 1, 2
POOL_FULL = -2
(CONFLICTS, DECISIONS, PROPAGATIONS, RESTARTS, CLEANUPS, NEXT_CLEANUP, STABLE, SWITCHES,
 NEXT_SWITCH, STABLE_RESTARTS, SINCE_RESTART, TARGET_SIZE, NEXT_PROBE) = range(13)
(RESTART_UNIT, VAR_DECAY, FIRST_CLEANUP, CLEANUP_STEP, FAST, SLOW, STABLE_UNIT, FIRST_SWITCH,
 BUMP_REASON, PROBE) = range(10)
CLAUSE_DECAY = 0.999


def new_stats(first_cleanup: int = 2000, first_switch: int = -1) -> np.ndarray:
    """Fresh counters for ``cdcl_search``."""
    stats = np.zeros(13, np.int64)
    stats[NEXT_CLEANUP] = first_cleanup
    stats[NEXT_SWITCH] = first_switch
    return stats


def new_tuning(restart_unit: float = 0, var_decay: float = 0.95,
               first_cleanup: float = 2000, cleanup_step: float = 300,
               stable_unit: float = 1024, first_switch: float = -1,
               bump_reason: float = 1, probe: float = 5000) -> np.ndarray:
    """The search's settings (read) and its running LBD averages (updated).

    ``restart_unit``: 0 (the default) restarts glucose-style, when the recent LBD
    average (``FAST``) rises well above the long one (``SLOW``); above 0 it is the
    conflicts per Luby unit (on Gecode's 25x25 instances Luby 100 needed 5x more
    conflicts on #22, more than 4x on #26).  ``stable_unit``: conflicts per Luby unit
    in stable mode.  ``first_switch``: conflicts before the first mode switch (focused
    first); the modes then alternate, each pair of modes twice as long as the last;
    0 stays focused, below 0 (the default) stays stable.  ``bump_reason``: 1 on, 0 off.
    ``probe``: failed literals are probed before the search and then at the first
    restart after every ``probe`` conflicts; 0 never.
    """
    return np.array([restart_unit, var_decay, first_cleanup, cleanup_step, 0.0, 0.0,
                     stable_unit, first_switch, bump_reason, probe])


def empty_learnts() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """No learnt clauses: (lits, starts, lbd)."""
    return np.zeros(0, np.int32), np.zeros(1, np.int64), np.zeros(0, np.int32)


@njit(cache=True)
def luby(i: int) -> int:
    """The i-th term (from 0) of 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ..."""
    size, seq = 1, 0
    while size < i + 1:
        seq += 1
        size = 2 * size + 1
    while size - 1 != i:
        size = (size - 1) >> 1
        seq -= 1
        i = i % size
    return 1 << seq


@njit(cache=True, inline="always")
def _heap_up(heap, hpos, act, i):
    v = heap[i]
    while i > 0:
        parent = (i - 1) >> 1
        u = heap[parent]
        if act[u] >= act[v]:
            break
        heap[i] = u
        hpos[u] = i
        i = parent
    heap[i] = v
    hpos[v] = i


@njit(cache=True)
def _heap_down(heap, hpos, act, size, i):
    v = heap[i]
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and act[heap[child + 1]] > act[heap[child]]:
            child += 1
        if act[heap[child]] <= act[v]:
            break
        heap[i] = heap[child]
        hpos[heap[i]] = i
        i = child
    heap[i] = v
    hpos[v] = i


@njit(cache=True, inline="always")
def _heap_insert(heap, hpos, act, hsize, v):
    if hpos[v] >= 0:
        return
    i = hsize[0]
    hsize[0] += 1
    heap[i] = v
    hpos[v] = i
    _heap_up(heap, hpos, act, i)


@njit(cache=True)
def _heap_pop(heap, hpos, act, hsize):
    v = heap[0]
    hsize[0] -= 1
    hpos[v] = -1
    if hsize[0] > 0:
        last = heap[hsize[0]]
        heap[0] = last
        hpos[last] = 0
        _heap_down(heap, hpos, act, hsize[0], 0)
    return v


@njit(cache=True)
def _grow_pool(wcl, wbl, top, cap):
    """A pool twice the size needed, the first ``top`` entries kept (rarely called)."""
    size = 2 * (top + cap)
    bigger_c = np.empty(size, np.int32)
    bigger_b = np.empty(size, np.int32)
    bigger_c[:top] = wcl[:top]
    bigger_b[:top] = wbl[:top]
    return bigger_c, bigger_b


@njit(cache=True, inline="always")
def _room(wcl, wlen, wcap, wtop, lit):
    """Does lit's watch list take one more entry without a bigger pool?"""
    return wlen[lit] < wcap[lit] or wtop[0] + max(4, 2 * wlen[lit]) <= wcl.shape[0]


@njit(cache=True, inline="always")
def _push(wcl, wbl, wstart, wlen, wcap, wtop, lit, c, blocker):
    """Add (clause, blocker) to lit's watch list; ``_room`` must hold."""
    n = wlen[lit]
    if n == wcap[lit]:  # move the list to the end of the pool with twice the room
        cap = max(4, 2 * n)
        top, s = wtop[0], wstart[lit]
        for k in range(n):
            wcl[top + k] = wcl[s + k]
            wbl[top + k] = wbl[s + k]
        wstart[lit] = top
        wcap[lit] = cap
        wtop[0] = top + cap
    k = wstart[lit] + n
    wcl[k] = c
    wbl[k] = blocker
    wlen[lit] = n + 1


@njit(cache=True)
def _watch(wcl, wbl, wstart, wlen, wcap, wtop, lit, c, blocker):
    """``_push``, growing the pool first if need be; returns the pool arrays."""
    if not _room(wcl, wlen, wcap, wtop, lit):
        wcl, wbl = _grow_pool(wcl, wbl, wtop[0], max(4, 2 * wlen[lit]))
    _push(wcl, wbl, wstart, wlen, wcap, wtop, lit, c, blocker)
    return wcl, wbl


@njit(cache=True)
def _rebuild_watches(cl, cstart, clen, nclauses, nlits):
    """Fresh watch lists for the first two literals of every clause."""
    wlen = np.zeros(nlits, np.int64)
    for c in range(nclauses):
        wlen[cl[cstart[c]]] += 1
        wlen[cl[cstart[c] + 1]] += 1
    wcap = wlen + 4
    wstart = np.zeros(nlits, np.int64)
    top = 0
    for lit in range(nlits):
        wstart[lit] = top
        top += wcap[lit]
    wcl = np.empty(2 * top, np.int32)
    wbl = np.empty(2 * top, np.int32)
    wlen[:] = 0
    for c in range(nclauses):
        a, b = cl[cstart[c]], cl[cstart[c] + 1]
        tag = ~c if clen[c] == 2 else c  # binary clauses are tagged ~c
        wcl[wstart[a] + wlen[a]] = tag
        wbl[wstart[a] + wlen[a]] = b
        wlen[a] += 1
        wcl[wstart[b] + wlen[b]] = tag
        wbl[wstart[b] + wlen[b]] = a
        wlen[b] += 1
    return wcl, wbl, wstart, wlen, wcap, np.array([top], np.int64)


@njit(cache=True, inline="always")
def _assign(lit, c, lval, level, reason, trail, ntr, dl):
    lval[lit] = 1
    lval[lit ^ 1] = -1
    level[lit >> 1] = dl
    reason[lit >> 1] = c
    trail[ntr[0]] = lit
    ntr[0] += 1


@njit(cache=True)
def _propagate(cl, cstart, clen, lval, level, reason, trail, ntr, qh, dl,
               wcl, wbl, wstart, wlen, wcap, wtop, stats):
    """Unit propagation from the queue; returns the conflict clause, -1 for none, or
    POOL_FULL when the watch pool needs to grow first (then call again).

    The helpers (``_assign``, ``_push``) are written out here, and the pool is
    never reassigned: numba counts references to the arrays at every inlined
    call or rebinding, which cost more than the propagation itself."""
    confl = -1
    while qh[0] < ntr[0] and confl == -1:
        false_lit = trail[qh[0]] ^ 1
        qh[0] += 1
        stats[PROPAGATIONS] += 1
        ws, n = wstart[false_lit], wlen[false_lit]
        i = j = 0
        while i < n:
            c, b = wcl[ws + i], wbl[ws + i]
            i += 1
            if lval[b] == 1:
                wcl[ws + j], wbl[ws + j] = c, b
                j += 1
                continue
            if c < 0:  # a binary clause, ~c; the blocker is the other literal
                wcl[ws + j], wbl[ws + j] = c, b
                j += 1
                if lval[b] == 0:  # _assign, written out (see the docstring)
                    lval[b], lval[b ^ 1] = 1, -1
                    level[b >> 1], reason[b >> 1] = dl, ~c
                    trail[ntr[0]] = b
                    ntr[0] += 1
                    continue
                confl = ~c
                break
            s = cstart[c]
            if cl[s] == false_lit:
                cl[s], cl[s + 1] = cl[s + 1], false_lit
            first = cl[s]
            if first != b and lval[first] == 1:
                wcl[ws + j], wbl[ws + j] = c, first
                j += 1
                continue
            moved = full = False
            for k in range(s + 2, s + clen[c]):
                if lval[cl[k]] != -1:
                    other = cl[k]
                    m = wlen[other]
                    if m == wcap[other]:  # _push, written out: move the list first
                        if wtop[0] + max(4, 2 * m) > len(wcl):
                            full = True
                            break
                        top, old = wtop[0], wstart[other]
                        for x in range(m):
                            wcl[top + x] = wcl[old + x]
                            wbl[top + x] = wbl[old + x]
                        wstart[other], wcap[other] = top, max(4, 2 * m)
                        wtop[0] = top + max(4, 2 * m)
                    cl[s + 1], cl[k] = other, false_lit
                    wcl[wstart[other] + m], wbl[wstart[other] + m] = c, first
                    wlen[other] = m + 1
                    moved = True
                    break
            if full:  # keep this watch, visit false_lit again after the pool grows
                i -= 1
                qh[0] -= 1
                confl = POOL_FULL
                break
            if moved:
                continue
            wcl[ws + j], wbl[ws + j] = c, first
            j += 1
            if lval[first] == -1:
                confl = c
                break
            lval[first], lval[first ^ 1] = 1, -1
            level[first >> 1], reason[first >> 1] = dl, c
            trail[ntr[0]] = first
            ntr[0] += 1
        while i < n:
            wcl[ws + j], wbl[ws + j] = wcl[ws + i], wbl[ws + i]
            i += 1
            j += 1
        wlen[false_lit] = j
    if confl >= 0:
        qh[0] = ntr[0]
    return confl


@njit(cache=True, inline="always")
def _bump_var(v, act, inc, heap, hpos):
    act[v] += inc[0]
    if act[v] > 1e100:
        act *= 1e-100
        inc[0] *= 1e-100
    if hpos[v] >= 0:
        _heap_up(heap, hpos, act, hpos[v])


@njit(cache=True)
def _bump_clause(c, cact, inc, nclauses):
    cact[c] += inc[0]
    if cact[c] > 1e20:
        cact[:nclauses] *= 1e-20
        inc[0] *= 1e-20


@njit(cache=True)
def _redundant(lit, levels, cl, cstart, clen, level, reason, seen, stack, cleared, ncleared):
    """Is ``lit`` of a learnt clause implied by the clause's other (seen) literals?
    Follows reasons depth-first; variables found implied stay seen and are listed in
    ``cleared`` after ``ncleared`` (its last slot holds the new length when True).
    ``levels`` has bit ``level % 64`` of every level in the clause: a reason chain
    that reaches another level is not followed."""
    top, start = 1, ncleared
    stack[0] = lit
    while top > 0:
        top -= 1
        q = stack[top]
        r = reason[q >> 1]
        for k in range(cstart[r], cstart[r] + clen[r]):
            u = cl[k] >> 1
            if u == q >> 1 or seen[u] or level[u] == 0:
                continue
            if reason[u] >= 0 and (levels >> (level[u] & 63)) & 1:
                seen[u] = 1
                stack[top] = cl[k]
                top += 1
                cleared[ncleared] = cl[k]
                ncleared += 1
            else:
                for j in range(start, ncleared):
                    seen[cleared[j] >> 1] = 0
                return False
    cleared[len(cleared) - 1] = ncleared
    return True


@njit(cache=True)
def _analyze(confl, cl, cstart, clen, clearnt, cact, nclauses, level, reason, trail, ntr,
             dl, seen, out, act, var_inc, cla_inc, heap, hpos, stamp, stack, cleared):
    """First-UIP learning into ``out``, minimized; returns (size, backjump level, LBD)."""
    pathc, p, size, idx, c = 0, -1, 1, ntr[0] - 1, confl
    while True:
        if clearnt[c]:
            _bump_clause(c, cact, cla_inc, nclauses)
        for k in range(cstart[c], cstart[c] + clen[c]):
            q = cl[k]
            v = q >> 1
            if (p >= 0 and v == p >> 1) or seen[v] or level[v] == 0:
                continue
            _bump_var(v, act, var_inc, heap, hpos)
            seen[v] = 1
            if level[v] >= dl:
                pathc += 1
            else:
                out[size] = q
                size += 1
        while not seen[trail[idx] >> 1]:
            idx -= 1
        p = trail[idx]
        idx -= 1
        c = reason[p >> 1]
        seen[p >> 1] = 0
        pathc -= 1
        if pathc == 0:
            break
    out[0] = p ^ 1
    levels = 0
    for i in range(1, size):
        levels |= 1 << (level[out[i] >> 1] & 63)
    kept, ncleared = 1, 0
    for i in range(1, size):  # drop literals the others imply
        if reason[out[i] >> 1] < 0 or not _redundant(out[i], levels, cl, cstart, clen, level,
                                                     reason, seen, stack, cleared, ncleared):
            out[kept], out[i] = out[i], out[kept]
            kept += 1
        else:
            ncleared = cleared[len(cleared) - 1]
    for i in range(1, size):
        seen[out[i] >> 1] = 0
    for i in range(ncleared):
        seen[cleared[i] >> 1] = 0
    back, best = 0, 1
    for i in range(1, kept):
        if level[out[i] >> 1] > back:
            back, best = level[out[i] >> 1], i
    out[1], out[best] = out[best], out[1]
    stamp[0] += 1
    lbd = 0
    for i in range(kept):
        lv = level[out[i] >> 1]
        if stamp[lv + 1] != stamp[0]:
            stamp[lv + 1] = stamp[0]
            lbd += 1
    return kept, back, lbd


@njit(cache=True)
def _probe(nvars, cl, cstart, clen, lval, level, reason, trail, trail_lim, ntr, qh,
           wcl, wbl, wstart, wlen, wcap, wtop, stats, phase, heap, hpos, act, hsize):
    """Failed literals at level 0: each open x(square, value) is tried true; when that
    propagates to a conflict, x is false for good.  Repeated until nothing fails; returns
    UNSATISFIABLE, -1, or POOL_FULL (grow the pool and call again)."""
    saved = phase.copy()
    status, changed = -1, True
    while changed and status < 0:
        changed = False
        for v in range(nvars):
            confl = _propagate(cl, cstart, clen, lval, level, reason, trail, ntr, qh, 0,
                               wcl, wbl, wstart, wlen, wcap, wtop, stats)
            if confl != -1:
                status = UNSATISFIABLE if confl >= 0 else POOL_FULL
                break
            if lval[2 * v] != 0:
                continue
            trail_lim[0] = ntr[0]
            _assign(2 * v, -1, lval, level, reason, trail, ntr, 1)
            confl = _propagate(cl, cstart, clen, lval, level, reason, trail, ntr, qh, 1,
                               wcl, wbl, wstart, wlen, wcap, wtop, stats)
            _backtrack(0, 1, trail_lim, lval, reason, trail, ntr, qh, phase, heap, hpos, act,
                       hsize)
            if confl == POOL_FULL:
                status = POOL_FULL
                break
            if confl >= 0:
                _assign(2 * v + 1, -1, lval, level, reason, trail, ntr, 0)
                changed = True
    phase[:] = saved
    return status


@njit(cache=True)
def _bump_reasons(out, size, cl, cstart, clen, level, reason, marks, mark, act, var_inc,
                  heap, hpos):
    """Bump the variables in the reasons of a learnt clause's literals (each once);
    ``marks[v] == mark`` says v is in the clause or bumped already."""
    for i in range(1, size):
        marks[out[i] >> 1] = mark
    for i in range(1, size):
        r = reason[out[i] >> 1]
        if r < 0:
            continue
        for k in range(cstart[r], cstart[r] + clen[r]):
            u = cl[k] >> 1
            if marks[u] != mark and level[u] > 0:
                marks[u] = mark
                _bump_var(u, act, var_inc, heap, hpos)


@njit(cache=True)
def _backtrack(to, dl, trail_lim, lval, reason, trail, ntr, qh, phase, heap, hpos, act, hsize):
    if dl <= to:
        return
    for i in range(ntr[0] - 1, trail_lim[to] - 1, -1):
        lit = trail[i]
        v = lit >> 1
        phase[v] = 1 - (lit & 1)
        lval[lit] = 0
        lval[lit ^ 1] = 0
        reason[v] = -1
        if hpos[v] < 0:  # _heap_insert, written out (see _propagate)
            i = hsize[0]
            hsize[0] += 1
            while i > 0 and act[heap[(i - 1) >> 1]] < act[v]:
                heap[i] = heap[(i - 1) >> 1]
                hpos[heap[i]] = i
                i = (i - 1) >> 1
            heap[i] = v
            hpos[v] = i
    ntr[0] = qh[0] = trail_lim[to]


@njit(cache=True)
def _clean_up(cl, cstart, clen, clearnt, clbd, cact, nclauses, lval, drop_half):
    """At level 0: drop satisfied clauses, false literals and (``drop_half``) the
    worse half of the learnt clauses with LBD > 2 (highest LBD, then least active).
    Compacts the clause arrays in place; returns the new clause and literal counts."""
    drop = np.zeros(nclauses, np.bool_)
    if drop_half:
        candidates = np.array([c for c in range(nclauses) if clearnt[c] and clbd[c] > 2],
                              np.int64)
        if len(candidates) > 1:
            most = max(cact[:nclauses].max(), 1e-300)
            key = np.array([clbd[c] + 0.999 * (1.0 - cact[c] / most) for c in candidates])
            worst = candidates[np.argsort(key)[::-1]]
            drop[worst[:len(worst) // 2]] = True
    n, top = 0, 0
    for c in range(nclauses):
        s, size = cstart[c], clen[c]
        satisfied = drop[c]
        for k in range(s, s + size):
            if lval[cl[k]] == 1:
                satisfied = True
        if satisfied:
            continue
        start = top
        for k in range(s, s + size):
            if lval[cl[k]] == 0:
                cl[top] = cl[k]
                top += 1
        cstart[n], clen[n] = start, top - start
        clearnt[n], clbd[n], cact[n] = clearnt[c], clbd[c], cact[c]
        n += 1
    return n, top


@njit(cache=True)
def _grow(array, size):
    bigger = np.zeros(size, array.dtype)
    bigger[:len(array)] = array
    return bigger


@njit(cache=True)
def cdcl_search(nvars, lits, starts, learnt_lits, learnt_starts, learnt_lbd, act, phase,
                target, max_conflicts, stats, tuning):
    """Decide the CNF (``lits``/``starts``) plus earlier learnt clauses.

    ``act`` (float64), ``phase`` and ``target`` (int8, 1 = true) per variable are read and
    updated in place; ``stats`` (see ``new_stats``) accumulates; ``tuning`` (see
    ``new_tuning``) holds the settings and the LBD averages.  Returns
    (status, values: int8 per variable when SATISFIED, learnt lits, starts, lbd).
    """
    nlits = 2 * nvars
    n_in = len(starts) - 1
    n_learnt_in = len(learnt_starts) - 1
    cap = 2 * (n_in + n_learnt_in) + 1024
    pool_cap = 2 * (len(lits) + len(learnt_lits)) + 4 * nvars + 1024
    cl = np.zeros(pool_cap, np.int32)
    cstart = np.zeros(cap, np.int64)
    clen = np.zeros(cap, np.int64)
    clearnt = np.zeros(cap, np.bool_)
    clbd = np.zeros(cap, np.int64)
    cact = np.zeros(cap, np.float64)
    lval = np.zeros(nlits, np.int8)
    level = np.zeros(nvars, np.int64)
    reason = np.full(nvars, -1, np.int64)
    trail = np.zeros(nvars + 1, np.int32)
    trail_lim = np.zeros(nvars + 1, np.int64)
    ntr = np.zeros(1, np.int64)
    qh = np.zeros(1, np.int64)
    seen = np.zeros(nvars, np.bool_)
    marks = np.full(nvars, -1, np.int64)
    out = np.zeros(nvars + 1, np.int32)
    stamp = np.zeros(nvars + 2, np.int64)
    stack = np.zeros(nvars + 1, np.int32)
    cleared = np.zeros(nvars + 2, np.int64)
    var_inc = np.ones(1)
    cla_inc = np.ones(1)
    heap = np.zeros(nvars, np.int64)
    hpos = np.full(nvars, -1, np.int64)
    hsize = np.zeros(1, np.int64)
    for v in range(nvars):
        _heap_insert(heap, hpos, act, hsize, v)
    status = -1
    # Load clauses: units are queued after all the long ones are watched.
    units = np.zeros(n_in + n_learnt_in, np.int32)
    nunits = nclauses = top = 0
    for source in range(2):
        pool = lits if source == 0 else learnt_lits
        bounds = starts if source == 0 else learnt_starts
        for i in range(len(bounds) - 1):
            size = bounds[i + 1] - bounds[i]
            if size == 0:
                status = UNSATISFIABLE
            elif size == 1:
                units[nunits] = pool[bounds[i]]
                nunits += 1
            else:
                cl[top:top + size] = pool[bounds[i]:bounds[i + 1]]
                cstart[nclauses], clen[nclauses] = top, size
                clearnt[nclauses] = source == 1
                clbd[nclauses] = learnt_lbd[i] if source == 1 else 0
                nclauses += 1
                top += size
    wcl, wbl, wstart, wlen, wcap, wtop = _rebuild_watches(cl, cstart, clen, nclauses, nlits)
    for i in range(nunits):
        if lval[units[i]] == -1:
            status = UNSATISFIABLE
        elif lval[units[i]] == 0:
            _assign(units[i], -1, lval, level, reason, trail, ntr, 0)
    probing = tuning[PROBE] > 0
    if status < 0 and probing and stats[CONFLICTS] == 0 and stats[NEXT_PROBE] == 0:
        stats[NEXT_PROBE] = int(tuning[PROBE])
        status = POOL_FULL
        while status == POOL_FULL:
            status = _probe(nvars, cl, cstart, clen, lval, level, reason, trail, trail_lim, ntr,
                            qh, wcl, wbl, wstart, wlen, wcap, wtop, stats, phase, heap, hpos,
                            act, hsize)
            if status == POOL_FULL:
                wcl, wbl = _grow_pool(wcl, wbl, wtop[0], wtop[0] + nlits)
    dl, here = 0, 0
    unit = tuning[RESTART_UNIT]
    stable_unit = tuning[STABLE_UNIT]
    switching = tuning[FIRST_SWITCH] > 0
    if tuning[FIRST_SWITCH] < 0:  # stable mode only
        stats[STABLE] = 1
    var_decay = tuning[VAR_DECAY]
    bump_reason = tuning[BUMP_REASON] > 0
    while status < 0:
        confl = _propagate(cl, cstart, clen, lval, level, reason, trail, ntr, qh, dl,
                           wcl, wbl, wstart, wlen, wcap, wtop, stats)
        while confl == POOL_FULL:
            wcl, wbl = _grow_pool(wcl, wbl, wtop[0], wtop[0] + nlits)
            confl = _propagate(cl, cstart, clen, lval, level, reason, trail, ntr, qh, dl,
                               wcl, wbl, wstart, wlen, wcap, wtop, stats)
        if confl >= 0:
            stats[CONFLICTS] += 1
            here += 1
            stats[SINCE_RESTART] += 1
            if dl == 0:
                status = UNSATISFIABLE
                break
            consistent = trail_lim[dl - 1]  # the trail before the last decision
            if stats[STABLE] and consistent > stats[TARGET_SIZE]:
                stats[TARGET_SIZE] = consistent
                for i in range(consistent):
                    target[trail[i] >> 1] = 1 - (trail[i] & 1)
            size, back, lbd = _analyze(confl, cl, cstart, clen, clearnt, cact, nclauses, level,
                                       reason, trail, ntr, dl, seen, out, act, var_inc,
                                       cla_inc, heap, hpos, stamp, stack, cleared)
            if bump_reason:
                _bump_reasons(out, size, cl, cstart, clen, level, reason, marks,
                              stats[CONFLICTS], act, var_inc, heap, hpos)
            _backtrack(back, dl, trail_lim, lval, reason, trail, ntr, qh, phase, heap, hpos,
                       act, hsize)
            dl = back
            if size == 1:
                _assign(out[0], -1, lval, level, reason, trail, ntr, 0)
            else:
                if nclauses == len(cstart):
                    cstart, clen = _grow(cstart, 2 * nclauses), _grow(clen, 2 * nclauses)
                    clearnt, clbd = _grow(clearnt, 2 * nclauses), _grow(clbd, 2 * nclauses)
                    cact = _grow(cact, 2 * nclauses)
                if top + size > len(cl):
                    cl = _grow(cl, 2 * (top + size))
                c = nclauses
                cl[top:top + size] = out[:size]
                cstart[c], clen[c], clearnt[c], clbd[c], cact[c] = top, size, True, lbd, 0.0
                _bump_clause(c, cact, cla_inc, nclauses + 1)
                nclauses += 1
                top += size
                tag = ~c if size == 2 else c
                wcl, wbl = _watch(wcl, wbl, wstart, wlen, wcap, wtop, out[0], tag, out[1])
                wcl, wbl = _watch(wcl, wbl, wstart, wlen, wcap, wtop, out[1], tag, out[0])
                _assign(out[0], c, lval, level, reason, trail, ntr, dl)
            var_inc[0] /= var_decay
            cla_inc[0] /= CLAUSE_DECAY
            if tuning[SLOW] == 0.0:
                tuning[FAST] = tuning[SLOW] = lbd
            tuning[FAST] += (lbd - tuning[FAST]) / 32.0
            tuning[SLOW] += (lbd - tuning[SLOW]) / 4096.0
            continue
        since = stats[SINCE_RESTART]
        if stats[STABLE]:
            restart = since >= luby(stats[STABLE_RESTARTS]) * stable_unit
        elif unit > 0:
            restart = since >= luby(stats[RESTARTS]) * unit
        else:
            restart = since >= 50 and 0.8 * tuning[FAST] > tuning[SLOW]
        if switching and stats[CONFLICTS] >= stats[NEXT_SWITCH]:
            restart = True
            stats[SWITCHES] += 1
            stats[STABLE] = 1 - stats[STABLE]
            stats[NEXT_SWITCH] = stats[CONFLICTS] + int(tuning[FIRST_SWITCH]) * (
                1 << min(40, stats[SWITCHES] // 2))
            stats[TARGET_SIZE] = 0
        if restart or here >= max_conflicts:
            _backtrack(0, dl, trail_lim, lval, reason, trail, ntr, qh, phase, heap, hpos, act,
                       hsize)
            dl = 0
            if restart:
                stats[SINCE_RESTART] = 0
                stats[RESTARTS] += 1
                if stats[STABLE]:
                    stats[STABLE_RESTARTS] += 1
            drop_half = stats[CONFLICTS] >= stats[NEXT_CLEANUP]
            if drop_half:
                stats[CLEANUPS] += 1
                stats[NEXT_CLEANUP] = (stats[CONFLICTS] + int(tuning[FIRST_CLEANUP])
                                       + int(tuning[CLEANUP_STEP]) * stats[CLEANUPS])
            if drop_half or here >= max_conflicts:
                nclauses, top = _clean_up(cl, cstart, clen, clearnt, clbd, cact, nclauses,
                                          lval, drop_half)
                for i in range(ntr[0]):
                    reason[trail[i] >> 1] = -1
                wcl, wbl, wstart, wlen, wcap, wtop = _rebuild_watches(cl, cstart, clen,
                                                                      nclauses, nlits)
            if probing and stats[CONFLICTS] >= stats[NEXT_PROBE]:
                stats[NEXT_PROBE] = stats[CONFLICTS] + int(tuning[PROBE])
                status = POOL_FULL
                while status == POOL_FULL:
                    status = _probe(nvars, cl, cstart, clen, lval, level, reason, trail,
                                    trail_lim, ntr, qh, wcl, wbl, wstart, wlen, wcap, wtop,
                                    stats, phase, heap, hpos, act, hsize)
                    if status == POOL_FULL:
                        wcl, wbl = _grow_pool(wcl, wbl, wtop[0], wtop[0] + nlits)
                if status >= 0:
                    break
            if here >= max_conflicts:
                status = LIMIT
            continue
        v = -1
        while hsize[0] > 0:
            u = _heap_pop(heap, hpos, act, hsize)
            if lval[2 * u] == 0:
                v = u
                break
        if v < 0:
            status = SATISFIED
            break
        stats[DECISIONS] += 1
        trail_lim[dl] = ntr[0]
        dl += 1
        sign = target[v] if stats[STABLE] else phase[v]
        _assign(2 * v + 1 - sign, -1, lval, level, reason, trail, ntr, dl)
    values = np.zeros(nvars, np.int8)
    for v in range(nvars):
        values[v] = lval[2 * v] == 1
    act /= var_inc[0]
    # Hand back the learnt clauses and the level-0 units (as one-literal clauses).
    if status == SATISFIED:
        _backtrack(0, dl, trail_lim, lval, reason, trail, ntr, qh, phase, heap, hpos, act,
                   hsize)
    learnt = [c for c in range(nclauses) if clearnt[c]]
    zero = ntr[0] if dl == 0 else trail_lim[0]
    out_starts = np.zeros(len(learnt) + zero + 1, np.int64)
    out_lbd = np.ones(len(learnt) + zero, np.int32)
    total = zero
    for c in learnt:
        total += clen[c]
    out_lits = np.zeros(total, np.int32)
    at = 0
    for i in range(zero):
        out_lits[at] = trail[i]
        at += 1
        out_starts[i + 1] = at
    for i, c in enumerate(learnt):
        out_lits[at:at + clen[c]] = cl[cstart[c]:cstart[c] + clen[c]]
        at += clen[c]
        out_starts[zero + i + 1] = at
        out_lbd[zero + i] = clbd[c]
    return status, values, out_lits, out_starts, out_lbd
