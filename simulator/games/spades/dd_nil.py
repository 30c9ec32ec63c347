"""The Nil question by depth-first proof-number search (df-pn): a prototype beside ``dd.nil_makeable`` (issue #26).

Can the Nil seat's side keep it at zero tricks against a defence that tries to make it win one? An AND/OR
question: the Nil seat and its partner choose (OR nodes), the defenders reply (AND nodes); "made" is proved when
some move of each Nil-side node and every move of each defender's node lead to a made position. Proof-number
search expands the node whose proof (or disproof) looks cheapest, by two counts kept for every node: the proof
number ``pn`` (how many leaves must still be proved, at least) and the disproof number ``dn``. df-pn (Nagai 2002)
does this depth first under two thresholds, with the "1 + epsilon" child threshold of Pawlewicz and Lew (2007)
against re-expansions; (pn, dn) of every node searched sit in a transposition table.

What comes from ``dd.py``, so that the play is the same game as its: the position (``position``), the moves
(``_make``, the legal cards ``_legal``, one card per run of touching cards, ordered by ``_gen`` with the Nil
question's ``_nil_order``), the static tests that decide a trick's start at once (``_nil_lost``, ``_nil_broken``,
``_nil_safe``) and the key of the suit lengths (``_key``). A node is any position, in a
trick or at its start; its key is exact up to the cards' relative ranks (the owners of the cards still held, in
rank order; the suit lengths; the leader, the trick's cards that matter: the suit led and the winning card's place
among the cards held), so a transposition is found whatever cards were played before.

``nil_makeable`` answers as ``dd.nil_makeable``; ``DfpnSolver.nodes`` counts expansions (a node whose moves were
generated and whose children were looked up, each time the search entered it) and ``DfpnSolver.evals`` the
children looked up (a static test or the table).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from tricksim.simulator.bits import lowest_bit, popcount
from tricksim.simulator.games.spades import dd
from tricksim.simulator.games.spades.cards import SUIT_MASKS, beats, card_suit
from tricksim.simulator.games.spades.dd import (
    F_ACC,
    F_BROKEN,
    F_HAND,
    F_K,
    F_LED,
    F_SEAT,
    F_TM,
    F_WCARD,
    F_WSEAT,
    FS,
    MODE_TABLE,
    P_FIRST,
    W_BREAKING,
    W_FRAMES,
    W_GOAL,
    W_H,
    W_KILL,
    W_MOVES,
    W_NODES,
    _gen,
    _key,
    _legal,
    _make,
    _new_solve,
    _nil_broken,
    _nil_lost,
    _nil_safe,
    _root,
    _suit_starts,
    pdep,
    pext,
)
from tricksim.simulator.games.spades.dd import _search as _ab_search

INF = np.int64(1) << 40   # the proof (or disproof) number of a disproved (proved) node; others stay below
TTW = 8                   # a slot: key words k1, k2 | stamp, A, B; pn, dn, work (expansions below it), spare
STAMP_SHIFT = 16
# a frame of the search's own stack (the position itself is dd's frame of the same depth)
D_THPN, D_THDN, D_N, D_SEL, D_N0, D_K1, D_K2, D_A, D_B, D_OR = range(10)
D_PN = 16                 # D_PN + i, D_DN + i: the i-th child's numbers (moves at dd's W_MOVES + 16 * depth)
D_DN = 32
DW = 48
MAX_DEPTH = 60
# the search's settings and counters (``g``, int64[G_SIZE])
G_MASK, G_STAMP, G_PROBE, G_EPS4, G_INIT, G_LEAF, G_NODES, G_EVALS = range(8)
G_SIZE = 8


@njit(inline="always", cache=True)
def _node_key(ws, fb):
    """(k1, k2, A, B): suit lengths of every hand with the trick's leader and broken (dd's ``_key``); the trick in
    progress (cards played, suit led, the winning seat relative to the leader, the winning card's suit and rank
    among the cards held); the owners of the cards held in rank order (A: seat 1 or 3, B: seat 2 or 3)."""
    k = ws[fb + F_K]
    leader = (ws[fb + F_SEAT] - k) & 3
    broken = ws[fb + F_BROKEN] if ws[W_BREAKING] != 0 else 0
    k1 = _key(ws, leader, broken)
    held = ws[W_H] | ws[W_H + 1] | ws[W_H + 2] | ws[W_H + 3]
    A = pext(ws[W_H + 1] | ws[W_H + 3], held)
    B = pext(ws[W_H + 2] | ws[W_H + 3], held)
    k2 = 0
    if k != 0:
        wc = ws[fb + F_WCARD]
        wsuit = card_suit(wc)
        wrel = popcount(held & SUIT_MASKS[wsuit] & ((np.int64(1) << wc) - 1))
        k2 = k | (ws[fb + F_LED] << 2) | (((ws[fb + F_WSEAT] - leader) & 3) << 4) | (wsuit << 6) | (wrel << 8)
    return k1, k2, A, B


@njit(inline="always", cache=True)
def _mix(h, w):
    """Murmur-style 32-bit mixing of the two halves of ``w`` (non-negative) into ``h``: no product leaves 63 bits."""
    h = ((h ^ (w & 0xFFFFFFFF)) * 0x5BD1E995) & 0xFFFFFFFF
    h = ((h ^ ((w >> 32) & 0xFFFFFFFF)) * 0x5BD1E995) & 0xFFFFFFFF
    return h ^ (h >> 15)


@njit(inline="always", cache=True)
def _slot(g, k1, k2, A, B):
    return _mix(_mix(_mix(_mix(0, k1), k2), A), B) & g[G_MASK]


@njit(cache=True)
def _tt_get(tt, g, k1, k2, A, B):
    """The offset of the entry of this key, else -1."""
    k2s = k2 | (g[G_STAMP] << STAMP_SHIFT)
    mask = g[G_MASK]
    i = _slot(g, k1, k2, A, B)
    for _ in range(g[G_PROBE]):
        o = TTW * i
        t = tt[o + 1]
        if (t >> STAMP_SHIFT) != g[G_STAMP]:
            return -1  # an empty slot ends the probe sequence
        if t == k2s and tt[o] == k1 and tt[o + 2] == A and tt[o + 3] == B:
            return o
        i = (i + 1) & mask
    return -1


@njit(cache=True)
def _tt_put(tt, g, k1, k2, A, B, pn, dn, work):
    """Store (pn, dn): in the entry of this key, else an empty slot, else over the entry with the least work."""
    k2s = k2 | (g[G_STAMP] << STAMP_SHIFT)
    mask = g[G_MASK]
    i = _slot(g, k1, k2, A, B)
    spot = -1
    least = INF
    for _ in range(g[G_PROBE]):
        o = TTW * i
        t = tt[o + 1]
        if (t >> STAMP_SHIFT) != g[G_STAMP]:
            spot = o
            break
        if t == k2s and tt[o] == k1 and tt[o + 2] == A and tt[o + 3] == B:
            spot = o
            work += tt[o + 6]
            break
        if tt[o + 6] < least:
            least = tt[o + 6]
            spot = o
        i = (i + 1) & mask
    tt[spot] = k1
    tt[spot + 1] = k2s
    tt[spot + 2] = A
    tt[spot + 3] = B
    tt[spot + 4] = pn
    tt[spot + 5] = dn
    tt[spot + 6] = work


@njit(cache=True)
def _static(ws, seat, broken, nil_seat):
    """At a trick's start led by ``seat`` (not the Nil seat): 1 when the Nil is surely made from here, 0 when it
    surely fails, -1 when the static tests do not decide."""
    hand = ws[W_H + seat]
    if popcount(hand) == 1:  # the last trick: every card forced
        win = lowest_bit(hand)
        win_seat = seat
        for j in range(1, 4):
            s = (seat + j) & 3
            c = lowest_bit(ws[W_H + s])
            if beats(c, win):
                win = c
                win_seat = s
        return 0 if win_seat == nil_seat else 1
    if _nil_lost(ws, nil_seat) >= 0:
        return 0
    if ((seat ^ nil_seat) & 1) != 0 and _nil_broken(ws, seat, broken, nil_seat) >= 0:
        return 0
    if _nil_safe(ws, nil_seat) >= 0:
        return 1
    return -1


@njit(cache=True)
def _evaluate(tt, dtt, ws, g, d, nil_seat):
    """(pn, dn) of the child just made from the node at depth ``d`` (in the frame of depth ``d + 1``): decided by
    the trick's end or the static tests, or at a trick's start with at most ``G_LEAF`` cards a hand by dd.py's
    alpha-beta search (its table ``dtt``), else the table's numbers, else the first guess (``G_INIT`` 0: 1 and 1;
    1: the count of the moves of the child's seat for the number that needs them all)."""
    g[G_EVALS] += 1
    fb = W_FRAMES + FS * d
    nb = fb + FS
    seat = ws[nb + F_SEAT]
    if ws[fb + F_K] == 3:
        if seat == nil_seat:
            return INF, np.int64(0)
        if ws[W_H + seat] == 0:
            return np.int64(0), INF
        v = _static(ws, seat, ws[nb + F_BROKEN], nil_seat)
        if v < 0 and popcount(ws[W_H + seat]) <= g[G_LEAF]:
            zero, none, one = np.int64(0), np.int64(-1), np.int64(1)  # not literals: one compile of the search (P78)
            r = _ab_search(dtt, ws, zero, seat, none, none, none, zero, ws[nb + F_BROKEN], ws[nb + F_ACC], one,
                           np.int64(d + 1))
            v = 1 if (r == 1) == ((nil_seat & 1) == 0) else 0  # dd's value 1: team 0 has what it wants
        if v == 1:
            return np.int64(0), INF
        if v == 0:
            return INF, np.int64(0)
    k1, k2, A, B = _node_key(ws, nb)
    o = _tt_get(tt, g, k1, k2, A, B)
    if o >= 0:
        return tt[o + 4], tt[o + 5]
    if g[G_INIT] == 0:
        return np.int64(1), np.int64(1)
    hand = ws[W_H + seat]
    live = ws[W_H] | ws[W_H + 1] | ws[W_H + 2] | ws[W_H + 3] | ws[nb + F_TM]
    legal = _legal(ws, ws[nb + F_K], hand, ws[nb + F_LED], ws[nb + F_BROKEN])
    p = pext(hand, live)
    starts = pext(_suit_starts(live), live)
    n = popcount(pdep(p & ~((p << 1) & ~starts), live) & legal)
    if ((seat ^ nil_seat) & 1) == 0:
        return np.int64(1), np.int64(n)
    return np.int64(n), np.int64(1)


@njit(cache=True)
def _expand(tt, dtt, ws, g, fr, d, nil_seat, first):
    """Generate the moves of the node at depth ``d`` and look up its children, stopping at a child that decides
    the node."""
    g[G_NODES] += 1
    fb = W_FRAMES + FS * d
    fo = DW * d
    k = ws[fb + F_K]
    seat = ws[fb + F_SEAT]
    led = ws[fb + F_LED]
    broken = ws[fb + F_BROKEN]
    hand = ws[W_H + seat]
    live = ws[W_H] | ws[W_H + 1] | ws[W_H + 2] | ws[W_H + 3] | ws[fb + F_TM]
    legal = _legal(ws, k, hand, led, broken)
    if first != 0:
        legal = hand & 1  # the 2C opens the hand
    goal = ws[W_GOAL + seat]  # dd._enter's choice of ordering: the Nil question's own where it has one
    if seat == nil_seat or (k == 0 and goal < 0) or (k != 0 and goal > 0 and ws[fb + F_WSEAT] == nil_seat):
        goal = 0
    n = _gen(ws, d, k, seat, led, ws[fb + F_WSEAT], ws[fb + F_WCARD], legal, live, -1, goal)
    ws[fb + F_HAND] = hand
    is_or = ((seat ^ nil_seat) & 1) == 0
    fr[fo + D_OR] = 1 if is_or else 0
    k1, k2, A, B = _node_key(ws, fb)
    fr[fo + D_K1] = k1
    fr[fo + D_K2] = k2
    fr[fo + D_A] = A
    fr[fo + D_B] = B
    m = n
    for i in range(n):
        _make(ws, fb, ws[W_MOVES + 16 * d + i] & 63)
        pn, dn = _evaluate(tt, dtt, ws, g, d, nil_seat)
        ws[W_H + seat] = hand
        fr[fo + D_PN + i] = pn
        fr[fo + D_DN + i] = dn
        if (is_or and pn == 0) or (not is_or and dn == 0):
            m = i + 1
            break
    fr[fo + D_N] = m


@njit(cache=True)
def _search(tt, dtt, ws, g, fr, pos, nil_seat):
    """1 when the Nil is made from ``pos``, else 0."""
    k, seat, led, win_seat, win_card, tmask, broken = _root(ws, pos)
    for q in range(64):
        ws[W_KILL + q] = -1
    fb = W_FRAMES
    ws[fb + F_K] = k
    ws[fb + F_SEAT] = seat
    ws[fb + F_LED] = led
    ws[fb + F_WSEAT] = win_seat
    ws[fb + F_WCARD] = win_card
    ws[fb + F_TM] = tmask
    ws[fb + F_BROKEN] = broken
    ws[fb + F_ACC] = 0  # dd's counters of the Nil question (the Nil seat's tricks, the others'), for its search
    if k == 0 and seat != nil_seat:
        v = _static(ws, seat, broken, nil_seat)
        if v >= 0:
            return v
    d = 0
    fr[D_THPN] = INF
    fr[D_THDN] = INF
    fr[D_N0] = g[G_NODES]
    _expand(tt, dtt, ws, g, fr, 0, nil_seat, pos[P_FIRST])
    while True:
        fo = DW * d
        n = fr[fo + D_N]
        is_or = fr[fo + D_OR] != 0
        # the node's numbers from its children's; the best child and the runner-up's number
        best = 0
        b1 = INF + 1
        b2 = INF
        tot = np.int64(0)
        for i in range(n):
            x = fr[fo + D_PN + i] if is_or else fr[fo + D_DN + i]
            y = fr[fo + D_DN + i] if is_or else fr[fo + D_PN + i]
            if x < b1:
                b2 = min(b1, INF)
                b1 = x
                best = i
            elif x < b2:
                b2 = x
            tot = min(tot + y, INF - 1)  # (y is INF only beside x = 0: the node is decided then)
        if b1 == 0:
            tot = INF
        elif tot == 0:
            b1 = INF
        pn = b1 if is_or else tot
        dn = tot if is_or else b1
        if pn >= fr[fo + D_THPN] or dn >= fr[fo + D_THDN]:
            _tt_put(tt, g, fr[fo + D_K1], fr[fo + D_K2], fr[fo + D_A], fr[fo + D_B], pn, dn,
                    g[G_NODES] - fr[fo + D_N0])
            if d == 0:
                return 1 if pn == 0 else 0
            d -= 1
            fo = DW * d
            fb = W_FRAMES + FS * d
            ws[W_H + ws[fb + F_SEAT]] = ws[fb + F_HAND]
            i = fr[fo + D_SEL]
            fr[fo + D_PN + i] = pn
            fr[fo + D_DN + i] = dn
            continue
        # into the best child, under thresholds where the runner-up would take over (1 + epsilon)
        th1 = min(b2 + 1 + (b2 * g[G_EPS4] >> 2), INF)
        if is_or:
            cpn = min(fr[fo + D_THPN], th1)
            cdn = fr[fo + D_THDN] - dn + fr[fo + D_DN + best]
        else:
            cdn = min(fr[fo + D_THDN], th1)
            cpn = fr[fo + D_THPN] - pn + fr[fo + D_PN + best]
        fr[fo + D_SEL] = best
        fb = W_FRAMES + FS * d
        _make(ws, fb, ws[W_MOVES + 16 * d + best] & 63)
        d += 1
        fo = DW * d
        fr[fo + D_THPN] = cpn
        fr[fo + D_THDN] = cdn
        fr[fo + D_N0] = g[G_NODES]
        _expand(tt, dtt, ws, g, fr, d, nil_seat, np.int64(0))


class DfpnSolver:
    """A table of (pn, dn) per position, dd.py's solver for the leaves and the workspaces, reused across questions
    (each starts a new generation of both tables). ``tt_bits``: log2 of the table's slots (64 bytes each; 2**20 =
    64 MiB); ``eps4``: epsilon of the child thresholds in quarters; ``init``: the first numbers of a new node (0:
    one and one; 1: the count of its seat's moves for the number that needs them all); ``leaf``: trick starts with
    at most this many cards a hand are solved by dd.py's alpha-beta search (0: never)."""

    def __init__(self, tt_bits: int = 20, probe: int = 8, eps4: int = 1, init: int = 1, leaf: int = 0,
                 dd_bits: int = 18):
        if not 8 <= tt_bits <= 28:
            raise ValueError(f"tt_bits={tt_bits}: use 8..28")
        self.tt = np.zeros(TTW << tt_bits, dtype=np.int64)
        self.dd = dd.Solver(tt_bits=dd_bits)
        self.ws = self.dd.ws
        self.g = np.zeros(G_SIZE, dtype=np.int64)
        self.g[G_MASK] = (1 << tt_bits) - 1
        self.g[G_PROBE] = probe
        self.g[G_EPS4] = eps4
        self.g[G_INIT] = init
        self.g[G_LEAF] = leaf
        self.fr = np.zeros(DW * (MAX_DEPTH + 1), dtype=np.int64)

    @property
    def expansions(self) -> int:
        """Nodes the proof-number search entered in the last question (its moves generated, children looked up)."""
        return int(self.g[G_NODES])

    @property
    def leaf_nodes(self) -> int:
        """Nodes of dd.py's search at the leaves in the last question."""
        return int(self.ws[W_NODES])

    @property
    def nodes(self) -> int:
        """Both: what the last question cost, counted as dd.py counts its nodes (a node entered)."""
        return self.expansions + self.leaf_nodes

    @property
    def evals(self) -> int:
        """Children the proof-number search looked up (static tests, leaf searches, its table)."""
        return int(self.g[G_EVALS])

    def new_question(self) -> None:
        self.g[G_NODES] = 0
        self.g[G_EVALS] = 0
        self.g[G_STAMP] += 1
        if self.g[G_STAMP] >= 1 << 40:
            self.tt[:] = 0
            self.g[G_STAMP] = 1


def nil_makeable(hands, leader, trick=(), broken=False, rules=None, *, nil_seat: int, taken: int = 0,
                 trick_no=None, solver: DfpnSolver | None = None) -> bool:
    """As ``dd.nil_makeable`` (same arguments, same answer), by df-pn."""
    if not 0 <= int(nil_seat) <= 3:
        raise ValueError(f"nil_seat {nil_seat}: use a seat 0..3")
    rules = dd._kernel_rules(rules)
    pos = dd.position(hands, leader, trick, broken, rules, trick_no)
    solver = solver if solver is not None else DfpnSolver()
    dd.set_rules_nb(solver.ws, int(getattr(rules, "breaking", 1)), int(rules.forced_spade_lead_breaks))
    solver.new_question()
    solver.ws[W_NODES] = 0
    if taken:
        return False
    dd.nil_setup_nb(solver.ws, dd._tricks_left(pos), int(nil_seat))  # the goals _gen's ordering reads
    _new_solve(solver.dd.tt, solver.ws, MODE_TABLE)  # a new generation of dd's table, Nil mode
    return bool(_search(solver.tt, solver.dd.tt, solver.ws, solver.g, solver.fr, pos, int(nil_seat)))
