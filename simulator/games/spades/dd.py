"""Double-dummy solver for Spades: exact results of perfect play with all four hands seen.

Three questions about a position (the four hands, who leads, the cards already played to the
trick in progress, whether spades are broken, the rules), each answered exactly:

* **tricks** (``dd_tricks``, ``card_values``): the tricks each team takes when each maximises its
  own tricks (a zero-sum game on tricks: team 0 = seats 0 and 2);
* **score** (``dd_score``, ``card_values(score=...)``): team 0's hand score minus team 1's under
  RULES.md 1.4 (contract, bags, Nil and Blind Nil, bag penalty given the running bags), team 0
  maximising the difference and team 1 minimising it (the zero-sum reading: what a side that wants
  to win the game wants; docs/double-dummy.md says why). The score is ``scoring.team_hand``, the
  one scoring function, compiled in ``phases.py``;
* **Nil** (``nil_makeable``): can the Nil bidder's side keep that seat at zero tricks against a
  defence that tries to make it win one?

Without partnerships (``alone_tricks``, ``alone_nil``) the same search answers a seat's tricks and its Nil
alone against the other three together, or the other two at a table of three (three hands: tricks of three
cards): the sides and the seat count are data in the workspace (``set_sides_nb``, ``W_TRIO``), parity and four
seats for teams (docs/double-dummy.md "Each player alone").

The search (docs/double-dummy.md has the details): null-window alpha-beta ("can team 0 reach v?")
iterated on v, as DDS does (bisection, or steps from a first guess); a transposition table of trick-start positions with partition
search (an entry holds for every position whose suit lengths per hand agree and whose cards that
mattered -- the top of each suit down to the lowest rank that decided a trick -- have the same
owners: Ginsberg's partition search, DDS's "winning ranks"); cards touching in rank are one move;
sure tricks (top trumps, cashable winners) cut the search short; moves are ordered by DDS's weights
(Moves.cpp), with the lead that last cut off at the same depth as a killer move (a side that wants to
lose a trick ducks instead); in the Nil question, at a trick's last card, once the card tried first
needs a search, a later card after which the next trick's start is already decided for the side on move
(a table entry, a Nil test) is tried before the rest (enhanced transposition cut-offs, ``_nil_etc``); a
trick solve's first guess is the result of playing the ordering's first moves out.

Everything runs in fixed-size ``int64`` arrays: ``tt`` (the table, reused across solves by a
generation stamp) and ``ws`` (the position, move stacks, score tables). The ``*_nb`` functions are
the compiled entry points (callable from other compiled code, e.g. a PIMC player); the Python
functions at the end validate their arguments and call them. Legal cards come from
``phases.legal_leads`` / ``phases.legal_follows``, the game's own rules.
"""
from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils, config
from numba.core.extending import intrinsic, overload

from tricksim.simulator.bits import _pdep_compiles, highest_bit, lowest_bit, popcount
from tricksim.simulator.borrow import borrowed
from tricksim.simulator.games.spades import decks, phases
from tricksim.simulator.games.spades.cards import (
    SPADES,
    SUIT_MASKS,
    beating,
    beats,
    card_rank,
    card_suit,
    ranked_card,
    ranked_mask,
    renames,
)
from tricksim.simulator.games.spades.decks import RANK_SPACE
from tricksim.simulator.games.spades.phases import FIRST_LEAD_TWO_OF_CLUBS, team_hand

# ------------------------------------------------------------------ pext / pdep
# pext gathers the bits of x under mask into the low bits; pdep scatters them back. With BMI2 each is
# one instruction (the same test as bits.nth_set_bit's pdep); otherwise a loop. Plain Python under
# NUMBA_DISABLE_JIT.


def pext(x, mask):
    """Bits of ``x`` at the set bits of ``mask``, packed into the low bits (masks below 2**63)."""
    x, m, out, i = int(x), int(mask), 0, 0
    while m:
        low = m & -m
        if x & low:
            out |= 1 << i
        m ^= low
        i += 1
    return out


def pdep(x, mask):
    """Inverse of :func:`pext`: bit i of ``x`` goes to the i-th set bit of ``mask``."""
    x, m, out, i = int(x), int(mask), 0, 0
    while m:
        low = m & -m
        if (x >> i) & 1:
            out |= low
        m ^= low
        i += 1
    return out


def _bmi2_call(builder, name, args):
    i64 = ir.IntType(64)
    fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]), name)
    return builder.call(fn, args)


@intrinsic
def _pext_bmi2(typingctx, x, mask):
    def codegen(context, builder, signature, args):
        return _bmi2_call(builder, "llvm.x86.bmi.pext.64", args)

    return types.int64(types.int64, types.int64), codegen


@intrinsic
def _pdep_bmi2(typingctx, x, mask):
    def codegen(context, builder, signature, args):
        return _bmi2_call(builder, "llvm.x86.bmi.pdep.64", args)

    return types.int64(types.int64, types.int64), codegen


@njit(cache=True)
def _pext_loop(x, mask):
    out = 0
    i = 0
    while mask != 0:
        low = mask & -mask
        if x & low:
            out |= np.int64(1) << i
        mask ^= low
        i += 1
    return out


@njit(cache=True)
def _pdep_loop(x, mask):
    out = 0
    i = 0
    while mask != 0:
        low = mask & -mask
        if (x >> i) & 1:
            out |= low
        mask ^= low
        i += 1
    return out


if not config.DISABLE_JIT:
    @overload(pext, jit_options={"cache": True})
    def _pext_jit(x, mask):
        if _pdep_compiles():
            return lambda x, mask: _pext_bmi2(np.int64(x), np.int64(mask))
        return lambda x, mask: _pext_loop(np.int64(x), np.int64(mask))

    @overload(pdep, jit_options={"cache": True})
    def _pdep_jit(x, mask):
        if _pdep_compiles():
            return lambda x, mask: _pdep_bmi2(np.int64(x), np.int64(mask))
        return lambda x, mask: _pdep_loop(np.int64(x), np.int64(mask))


# ------------------------------------------------------------------ layouts
#: position array (``pos``, int64[P_SIZE]) given to the compiled entry points
P_HANDS = 0      # P_HANDS + s: seat s's remaining cards (not those already in the trick)
P_LEADER = 4     # the seat that leads the trick in progress (or is to lead)
P_NPLAYED = 5    # cards already played to it (0..3)
P_TRICK = 6      # P_TRICK + j: the j-th card of the trick (j < P_NPLAYED), played by seat leader + j
P_BROKEN = 9     # 1 when spades are broken now (after the trick's cards, as the view's V_BROKEN)
P_FIRST = 10     # 1 when the 2♣ must open this trick (trick 0 under first_lead=two_of_clubs, no card played)
P_TRIO = 11      # 1 at a table of three seats (hand 3 empty; read by the alone entry points), 0 for four
P_SIZE = 12

MODE_TRICKS, MODE_TABLE = 0, 1
N_TAB = 14 ** 4  # score tables: one entry per (tricks each counter took since the root), 0..13 each
MAX_VALUES = 1024

# workspace (``ws``, int64[WS_SIZE])
W_H = 0          # 4 hands, updated as the search plays and takes back cards
W_MODE = 4
W_BREAKING = 5   # rules: spades may not be led until broken (1) or any time (0)
W_FORCED = 6     # rules: forced_spade_lead_breaks
W_STAMP = 7      # generation of the table entries that are valid now
W_NODES = 8      # nodes searched (statistics)
W_TTMASK = 9     # slots - 1
W_PROBE = 10     # longest probe sequence
W_STORES = 11
W_HITS = 12
W_NVALS = 13     # score: distinct final values
W_TRICKS = 14    # tricks completed in the search (statistics: what DDS counts as nodes)
W_CTX = 15       # what the table's entries rest on (trick mode: the play rules), -1 for nothing reusable
W_STRIDE = 16    # W_STRIDE + s: score: step of the flat counter index when seat s takes a trick
W_GOAL = 20      # W_GOAL + s: move ordering in score mode: 1 seat s wants tricks, -1 it wants to lose them
W_MONO = 24      # score: 1 when the final value only grows with team 0's tricks (then a trick solve decides it)
W_MERGED = 25    # score: no Nil bid, so the value depends on team 0's tricks alone (W_G holds it)
W_NIL = 26       # Nil mode: the Nil seat + 1 (0: another mode)
W_FLIP = 27      # W_FLIP + s: 1 when seat s's side is not its parity (0 everywhere for teams: a zeroed workspace
                 # plays teams); the side of seat s is (s & 1) ^ ws[W_FLIP + s] (_side), side 0 the one counted
W_ALONE = 31     # the seat alone against the others + 1 (set_sides_nb), 0 for two teams of two
# a frame of the search's stack
F_K, F_SEAT, F_LED, F_WSEAT, F_WCARD, F_TM, F_BROKEN, F_ACC = 0, 1, 2, 3, 4, 5, 6, 7  # the node
F_HAND, F_LIVE, F_P, F_STARTS = 8, 9, 10, 11  # the seat's hand, the cards in play, its runs
F_N, F_I, F_REL, F_BEST, F_DEC = 12, 13, 14, 15, 16  # moves, the next one, cards of rank, best, trick winner
F_NEED, F_K1, F_K2, F_A, F_B, F_R = 17, 18, 19, 20, 21, 22  # for the table, at a trick's start
F_SKIP = 23      # cards not worth trying: small cards of a suit whose small card was tried
F_ETC = 24       # 0: a Nil question's node at a trick's last card whose later cards _nil_etc has not looked at yet
FS = 25
ETC_FRAME = 60   # a spare frame (the search stays below 53, the playout at 62 and 63): _nil_etc's trick starts
W_MOVES = 32     # W_MOVES + MOVE_SLOTS * depth + i: ordered moves
MOVE_SLOTS = 17  # a hand's moves: one per run of touching cards, at most its cards (17 at three seats)
W_FRAMES = W_MOVES + 64 * MOVE_SLOTS  # W_FRAMES + FS * depth: the search's stack (F_* fields, above)
W_LEAF = W_FRAMES + 64 * FS  # score: index (into the sorted values) of the final value, per counter index
W_MIN = W_LEAF + N_TAB       # smallest / largest final value index reachable from a counter index
W_MAX = W_MIN + N_TAB
W_VALS = W_MAX + N_TAB       # the sorted distinct final values
W_G = W_VALS + MAX_VALUES    # W_G + t: with W_MERGED, the value index when team 0 ends with t tricks since the root
W_KILL = W_G + 16     # W_KILL + depth: the lead that last cut the search off at that depth (-1: none)
PLAYOUT_DEPTH = 62    # frames (and move slots) 62 and 63: the first-guess playout (the search stays below 53)
W_TRIO = W_KILL + 64  # 1: three seats (tricks of three cards, seat 3 holds nothing), 0: four (a zeroed workspace)
W_ETC = W_TRIO + 1    # Nil question: cards _nil_etc moved first (statistics)
W_NPROBE = W_ETC + 1  # the Nil question's longest probe sequence (0: W_PROBE's, as a workspace made by hand has it)
W_PLEN = W_ETC + 2    # the longest probe sequence of the solve under way (_new_solve: W_PROBE, or W_NPROBE)
WS_SIZE = W_ETC + 3

NIL_SAFE_CARDS = 5  # the Nil question's safe test (_nil_safe) only with this many cards a hand or more (P49)
NO_VALUE = -(1 << 62)  # card_values with a score: cards the seat on move cannot play

TT_WORDS = 6     # a slot: key 1 (lengths, leader, broken), key 2 (score counters) | stamp; mask, owners A & B, data
NO_UB = 0xFFF
STAMP_LIMIT = 1 << 24

SPADE_MASK = SUIT_MASKS[SPADES]
# the fields phases.legal_leads and legal_follows read; deck RANK_SPACE: the solver plays cards of the rank space,
# whose suit tables are those of cards.py (decks.py): the standard and joker_ace decks' cards as they are, a deuce
# deck's once renamed (cards.ranked_mask: the public functions below (``position``) and pimc do)
_LeadRules = namedtuple("_LeadRules", ["first_lead", "breaking", "deck"])


# ------------------------------------------------------------------ sides
@njit(inline="always", cache=True)
def _side(ws, s):
    """Seat ``s``'s side: 0 (the side whose tricks the search counts: team 0, or the seat alone) or 1."""
    return (s & 1) ^ ws[W_FLIP + s]


@njit(inline="always", cache=True)
def _seats(ws):
    """Seats at the table, cards to a trick: 4, or 3 (``W_TRIO``)."""
    return 4 - ws[W_TRIO]


@njit(inline="always", cache=True)
def _after(ws, s, j):
    """The seat ``j`` places after seat ``s`` in playing order (0 <= j < the seat count)."""
    t = s + j
    if ws[W_TRIO] != 0:
        return t - 3 if t >= 3 else t
    return t & 3


@njit(inline="always", cache=True)
def _roles(ws, seat):
    """The hands of the seats after ``seat`` (seat + 1, + 2, + 3) by role: (partners at +1, +2, +3, opponents
    at +1, +2, +3), each the seat's hand where it plays that role, else 0 (a role nobody plays holds no card,
    so no test of it fires). Teams: the partner at +2, the opponents at +1 and +3. Three seats: nobody at +3."""
    if ws[W_ALONE] == 0:
        return np.int64(0), ws[W_H + ((seat + 2) & 3)], np.int64(0), ws[W_H + ((seat + 1) & 3)], np.int64(0), \
            ws[W_H + ((seat + 3) & 3)]
    s1 = _after(ws, seat, 1)
    s2 = _after(ws, seat, 2)
    h1 = ws[W_H + s1]
    h2 = ws[W_H + s2]
    h3 = ws[W_H + ((seat + 3) & 3)] if ws[W_TRIO] == 0 else np.int64(0)
    me = _side(ws, seat)
    m1 = _side(ws, s1) == me
    m2 = _side(ws, s2) == me
    m3 = _side(ws, (seat + 3) & 3) == me
    z = np.int64(0)
    return (h1 if m1 else z), (h2 if m2 else z), (h3 if m3 else z), (z if m1 else h1), (z if m2 else h2), \
        (z if m3 else h3)


@njit(inline="always", cache=True)
def _mates(ws, seat):
    """The hands of ``seat``'s partners together (0 for a seat alone)."""
    p1, p2, p3, _, _, _ = _roles(ws, seat)
    return p1 | p2 | p3


@njit(cache=True, nogil=True)
def set_sides_nb(ws, alone):
    """The sides of the next solves: two teams of two (``alone`` < 0: seats 0 and 2 against 1 and 3), or seat
    ``alone`` against the other three together (its tricks are counted; the Nil question asks of it alone)."""
    for s in range(4):
        side = (s & 1) if alone < 0 else (0 if s == alone else 1)
        ws[W_FLIP + s] = side ^ (s & 1)
    ws[W_ALONE] = alone + 1 if alone >= 0 else 0


# ------------------------------------------------------------------ small helpers
@njit(inline="always", cache=True)
def _legal(ws, k, hand, led, broken):
    if k == 0:
        return phases.legal_leads(_LeadRules(0, ws[W_BREAKING], RANK_SPACE), 1, hand, broken)
    return phases.legal_follows(_LeadRules(0, 0, RANK_SPACE), hand, led)


@njit(inline="always", cache=True)
def _hash(k1, k2, mask):
    a = k1 & 0xFFFFFFFF
    b = (k1 >> 32) & 0xFFFFFFFF
    h = (a * 0x5BD1E995) ^ (b * 0x27D4EB2D) ^ (k2 * 0x165667B1)
    h ^= h >> 29
    h ^= h >> 15
    return h & mask


@njit(inline="always", cache=True)
def _key(ws, leader, broken):
    """Suit lengths of every hand (the last one follows from the others), the leader, broken."""
    k1 = 0
    sh = 0
    for h in range(4):
        hand = ws[W_H + h]
        for s in range(4):
            if h == 3 and s == 3:
                break
            k1 |= popcount(hand & SUIT_MASKS[s]) << sh
            sh += 4
    return k1 | (leader << 60) | (broken << 62)


@njit(inline="always", cache=True)
def _prefix(rel, live):
    """The cards of ``live`` in each suit from the lowest card of ``rel`` in that suit up."""
    out = 0
    for s in range(4):
        r = rel & SUIT_MASKS[s]
        if r != 0:
            out |= live & SUIT_MASKS[s] & ~((np.int64(1) << lowest_bit(r)) - 1)
    return out


@njit(inline="always", cache=True)
def _suit_starts(live):
    out = 0
    for s in range(4):
        x = live & SUIT_MASKS[s]
        out |= x & -x
    return out


@njit(inline="always", cache=True)
def run_reps(hand, live, legal):
    """The lowest card of each run of ``hand``'s cards touching in rank among ``live`` (no live card of the suit
    between them), among ``legal``: the moves worth trying, a run's cards being equivalent. The search inlines
    the same formula where it also keeps ``p`` and ``starts``; ``dd_alone`` calls this."""
    p = pext(hand, live)
    starts = pext(_suit_starts(live), live)
    return pdep(p & ~((p << 1) & ~starts), live) & legal


# ------------------------------------------------------------------ transposition table
@njit(inline="always", cache=True)
def _tt_probe(tt, ws, k1, k2, A, B, need):
    """(1 / 0 when a matching entry decides ``value >= need``, else -1; the entry's mask; a best lead or -1).

    Open addressing with linear probing from the key's hash; the keys (with the generation stamp) sit
    apart from the rest of the entries so that a probe sequence is a short scan of memory."""
    mask = ws[W_TTMASK]
    vo = 2 * (mask + 1)
    k2s = k2 | (ws[W_STAMP] << 24)
    i = _hash(k1, k2, mask)
    best = -1
    for _ in range(ws[W_PLEN]):
        t = tt[2 * i + 1]
        if (t >> 24) != (k2s >> 24):
            break
        if t == k2s and tt[2 * i] == k1:
            o = vo + 4 * i
            M = tt[o]
            if (A & M) == tt[o + 1] and (B & M) == tt[o + 2]:
                d = tt[o + 3]
                if (d & 0xFFF) >= need:
                    return 1, M, best
                if ((d >> 12) & 0xFFF) < need:
                    return 0, M, best
                bm = (d >> 24) & 0xFF
                if bm != 0 and best < 0:
                    best = bm - 1
        i = (i + 1) & mask
    return -1, 0, best


@njit(cache=True)
def _tt_store(tt, ws, k1, k2, A, B, M, lb, ub, best):
    mask = ws[W_TTMASK]
    vo = 2 * (mask + 1)
    k2s = k2 | (ws[W_STAMP] << 24)
    eA = A & M
    eB = B & M
    home = _hash(k1, k2, mask)
    i = home
    ws[W_STORES] += 1
    full = True
    spot = -1
    for _ in range(ws[W_PLEN]):
        t = tt[2 * i + 1]
        if (t >> 24) != (k2s >> 24):
            full = False
            break
        o = vo + 4 * i
        if t == k2s and tt[2 * i] == k1:
            xm = tt[o]
            d = tt[o + 3]
            olb = d & 0xFFF
            oub = (d >> 12) & 0xFFF
            if xm == M and tt[o + 1] == eA and tt[o + 2] == eB:  # the same partition: tighten its bounds
                lb = max(lb, olb)
                ub = min(ub, oub)
                if best == 0:
                    best = (d >> 24) & 0xFF
                tt[o + 3] = (best << 24) | (ub << 12) | lb
                return
            if spot < 0 and (xm & M) == M and (tt[o + 1] & M) == eA and (tt[o + 2] & M) == eB \
                    and lb >= olb and ub <= oub:
                spot = i  # an entry for a part of this partition with bounds no tighter: replace it
        i = (i + 1) & mask
    if spot >= 0:
        i = spot
    elif full:  # the probe sequence is full: replace one of its entries (deterministically)
        i = (home + ws[W_STORES] % ws[W_PLEN]) & mask
    tt[2 * i] = k1
    tt[2 * i + 1] = k2s
    o = vo + 4 * i
    tt[o] = M
    tt[o + 1] = eA
    tt[o + 2] = eB
    tt[o + 3] = (best << 24) | (ub << 12) | lb


# ------------------------------------------------------------------ sure tricks (trick objective)
@njit(cache=True)
def _quick_tricks(ws, leader, broken):
    """Tricks the leader can cash at once with cards above every other card of their suit, safe from
    ruffs and from the partner being forced to ruff; and the lowest such card of each suit used."""
    me = ws[W_H + leader]
    p1, p2, p3, o1, o2, o3 = _roles(ws, leader)
    others = p1 | p2 | p3 | o1 | o2 | o3
    q_sp = 0
    q_ns = 0
    rel = 0
    for s in range(4):
        sm = SUIT_MASKS[s]
        mine = me & sm
        if mine == 0:
            continue
        oth = others & sm
        w = mine
        if oth != 0:
            w = mine & ~((np.int64(2) << highest_bit(oth)) - 1)
        nw = popcount(w)
        if nw == 0:
            continue
        cash = nw
        if s == SPADES:
            if ws[W_BREAKING] != 0 and broken == 0 and (me & ~SPADE_MASK) != 0:
                continue
        else:
            for o in (o1, o2, o3):  # an opponent void in the suit could ruff
                if (o & SPADE_MASK) != 0:
                    cash = min(cash, popcount(o & sm))
        if cash == 0:
            continue
        if oth != 0:
            w2 = w
            for _ in range(nw - cash):
                w2 &= w2 - 1
            rel |= w2 & -w2
        if s == SPADES:
            q_sp += cash
        else:
            q_ns += cash
    for pa in (p1, p2, p3):
        if (pa & SPADE_MASK) != 0:
            q_ns = min(q_ns, popcount(pa & ~SPADE_MASK))
    return q_sp + q_ns, rel


@njit(cache=True)
def _sure_trick(ws, leader, broken):
    """(1, the card it rests on) when the leader's side surely wins the trick it leads to (a suit whose
    top card is the leader's or, led to, the partner's; or a partner's ruff the opponents cannot beat),
    else (0, 0)."""
    me = ws[W_H + leader]
    p1, p2, p3, o1, o2, o3 = _roles(ws, leader)
    ours = me | p1 | p2 | p3
    spade_ok = ws[W_BREAKING] == 0 or broken != 0 or (me & ~SPADE_MASK) == 0
    opp_sp = (o1 | o2 | o3) & SPADE_MASK
    for s in range(4):
        sm = SUIT_MASKS[s]
        mine = me & sm
        if mine == 0 or (s == SPADES and not spade_ok):
            continue
        opp_ruffs = False
        if s != SPADES:
            for o in (o1, o2, o3):
                if (o & sm) == 0 and (o & SPADE_MASK) != 0:
                    opp_ruffs = True
        allc = (ours | o1 | o2 | o3) & sm
        top = highest_bit(allc)
        if not opp_ruffs and (ours >> top) & 1:
            return 1, np.int64(1) << top  # our top card of the suit, which no opponent can ruff
        if s != SPADES:
            for pa in (p1, p2, p3):
                if (pa & sm) == 0 and (pa & SPADE_MASK) != 0:
                    if not opp_ruffs:
                        return 1, 0  # partner ruffs, every opponent follows (or holds no spade)
                    ptop = highest_bit(pa & SPADE_MASK)
                    if opp_sp == 0 or ptop > highest_bit(opp_sp):
                        return 1, np.int64(1) << ptop  # partner ruffs over any spade of the opponents
    return 0, 0


@njit(cache=True)
def _forced_spades(ws):
    """Tricks each team takes in every line of play: each spade of a hand above every spade of the other
    side wins a trick (the hand must play it some time, and only its partner's spade can beat it).
    (team 0's count, the card it rests on, team 1's count, the card it rests on)."""
    lo0 = 0
    lo1 = 0
    rel0 = 0
    rel1 = 0
    if ws[W_ALONE] == 0:
        sp0 = (ws[W_H] | ws[W_H + 2]) & SPADE_MASK
        sp1 = (ws[W_H + 1] | ws[W_H + 3]) & SPADE_MASK
    else:
        sp0 = 0
        sp1 = 0
        for h in range(4):
            if _side(ws, h):
                sp1 |= ws[W_H + h] & SPADE_MASK
            else:
                sp0 |= ws[W_H + h] & SPADE_MASK
    for h in range(4):
        mine = ws[W_H + h] & SPADE_MASK
        side = _side(ws, h)
        other = sp1 if side == 0 else sp0
        if other != 0:
            mine &= ~((np.int64(2) << highest_bit(other)) - 1)
        n = popcount(mine)
        if side:
            if n > lo1:
                lo1 = n
                rel1 = (mine & -mine) if other != 0 else 0
        elif n > lo0:
            lo0 = n
            rel0 = (mine & -mine) if other != 0 else 0
    return lo0, rel0, lo1, rel1


@njit(cache=True)
def _nil_lost(ws, nil_seat):
    """When the Nil seat surely wins a trick whatever is played: the card that rests on, else -1. Every spade of
    the Nil seat is played to some trick by the hand's end, and a spade loses only to a higher spade played to the
    same trick (a spade beats any other suit), so its spades that lose go one to one to higher spades of the other
    seats (distinct tricks, distinct cards), whoever holds them. When, for some spade c of the Nil seat, it holds
    more spades from c up than the others hold above c, one of those wins a trick (Hall's condition:
    ``_uncovered``). It rests on the spades from c up; the highest such c is taken (the widest table entry)."""
    mine = ws[W_H + nil_seat] & SPADE_MASK
    if mine == 0:
        return -1
    others = np.int64(0)
    for j in range(1, _seats(ws)):
        others |= ws[W_H + _after(ws, nil_seat, j)]
    card = _uncovered(mine, others & SPADE_MASK)
    return card if card != 0 else -1


@njit(cache=True)
def _nil_broken(ws, leader, broken, nil_seat):
    """At the start of a trick led by a defender: when it can lead a suit the Nil seat must win, the card that
    rests on (the Nil seat's lowest card of that suit), else -1. The defender leads its lowest card of a suit
    where every card of the Nil seat is above it and above every card its partner holds; the partner follows
    below it (or, void, holds no spade to ruff with, or spades were led); the other defender plays a card below
    it or, void, throws a card of another suit than spades. The suit whose lowest Nil card is highest is
    taken (the widest table entry): every card from it up keeps its owner, and the counts below it stay."""
    me = ws[W_H + nil_seat]
    p1, p2, p3, _, _, _ = _roles(ws, nil_seat)
    d1, d2, d3, _, _, _ = _roles(ws, leader)  # the other defenders (and 0 for a role nobody plays)
    legal = _legal(ws, 0, ws[W_H + leader], -1, broken)
    out = -1
    for s in range(4):
        sm = SUIT_MASKS[s]
        mine = me & sm
        lead = legal & sm
        if mine == 0 or lead == 0:
            continue
        low = lowest_bit(mine)
        if lowest_bit(lead) > low:
            continue
        ok = True
        for pa in (p1, p2, p3):
            if (pa & sm) != 0:
                if highest_bit(pa & sm) > low:
                    ok = False
            elif s != SPADES and (pa & SPADE_MASK) != 0:
                ok = False  # the partner may ruff
        for d in (d1, d2, d3):
            if d == 0:
                continue
            if (d & sm) != 0:
                if lowest_bit(d & sm) > low:
                    ok = False
            elif s != SPADES and (d & ~SPADE_MASK) == 0:
                ok = False  # another defender must ruff
        if ok:
            out = max(out, low)
    return np.int64(1) << out if out >= 0 else -1


@njit(cache=True)
def _nil_safe(ws, nil_seat):
    """At the start of a trick led by another seat: when the Nil seat surely takes no trick from here, the
    cards that rests on, else -1. A card of the Nil seat is dead when it is below every card of its suit the
    others hold: a lead of the suit (never the Nil seat's: it leads no more) is above it, and it stays dead as
    the others' cards go. Safe when, in each suit, the partner covers the Nil seat's cards that are not dead card
    by card (``_matched``: its i-th highest card of the suit above the Nil seat's i-th highest; those cards of the
    partner are its covers) (a trick of the suit: the Nil seat plays its highest, the partner its highest, leading
    it when it leads the suit; void in the suit led, the Nil seat throws its highest live card and the partner,
    void too, its highest card of that suit; a card of the Nil seat leaving alone keeps the rest covered) or, in a
    side suit, keeps dead cards for the suit's tricks (below), and one of:

    * the Nil seat holds no spade, or only spades are left to the others;
    * in every other suit it holds as many cards as each other seat (a trick of the suit keeps that, no other
      trick breaks it: never void in a suit led while it holds a spade, so never made to ruff);
    * the partner covers every spade of the Nil seat card by card, dead or not. Then, at each trick's start, the
      partner holds at least as many spades as the Nil seat, so (the hands of the same size) the Nil seat's
      side cards in excess of the partner's, summed over the suits where it holds more of them, are at least as
      many as the partner's in excess of its own where the partner holds more: when the partner holds a side
      suit the Nil seat lacks, the Nil seat holds a side card. The partner's strategy keeps the covers: a spade
      led, the Nil seat plays its highest and the partner its highest; a side suit led that the Nil seat holds, as
      above, and the partner, void in it (the Nil seat's cards of it are dead or kept: no covers), throws a card that
      covers nothing (it holds as many cards as the Nil seat, one of which is a dead card that needs none); a side
      suit led that both lack, the partner ruffs with its highest spade and the Nil seat throws its highest spade
      under it; a side suit led that only the partner holds, the partner follows and the Nil seat throws a side
      card (one is left: above), never a spade. On lead, the partner leads a cover of a side suit, or a card of
      a side suit without covers (the Nil seat's cards of it, if any, are dead or kept), or, holding only spades, a
      spade cover. Once the Nil seat's spades are gone the first case holds.

    Dead cards kept for a side suit's tricks: when the Nil seat holds as many dead cards of a side suit as any
    other seat holds cards of it (``_longest_other``), its live cards there need no cover. Only another seat leads
    the suit, and each trick of it takes a card from every seat that holds the suit, so at most that many tricks of
    it come while the others hold any; the Nil seat plays a dead card to each (the card led beats it), and once the
    others are void in the suit no trick of it comes. The Nil seat never throws a dead card of such a suit while it
    holds a live card (void in the suit led it throws a live card, as above; in the third case the side card it
    throws is a live one when it holds one); with no live card left the suit needs nothing. Its cards of such a suit
    need no cover, so the counts above that leave the partner a card covering nothing still hold (a partner void
    in the suit while the Nil seat follows it throws such a card). Spades are left out (a spade may have to ruff).

    Every condition on lengths is read from the table's key (the suit lengths of every hand)."""
    me = ws[W_H + nil_seat]
    pa = _mates(ws, nil_seat)
    oth = ws[W_H + ((nil_seat + 1) & 3)] | ws[W_H + ((nil_seat + 2) & 3)] | ws[W_H + ((nil_seat + 3) & 3)]
    ruff_cover = False  # the third case: every spade of the Nil seat needs a cover, dead or not
    if (me & SPADE_MASK) != 0 and (oth & ~SPADE_MASK) != 0:
        for s in range(4):
            if s == SPADES:
                continue
            n = popcount(me & SUIT_MASKS[s])
            for q in (1, 2, 3):
                if popcount(ws[W_H + ((nil_seat + q) & 3)] & SUIT_MASKS[s]) > n:
                    ruff_cover = True
    rel = 0
    for s in range(4):
        sm = SUIT_MASKS[s]
        mine = me & sm
        os = oth & sm
        if mine == 0:
            continue
        top = highest_bit(mine)
        c = popcount(pa & sm & ~((np.int64(2) << top) - 1))
        if s == SPADES and ruff_cover:
            if c >= popcount(mine):
                rel |= np.int64(1) << top  # the Nil seat's top spade and above decide
            elif _matched(mine, pa & sm):
                rel |= mine & -mine  # the Nil seat's lowest spade and above decide
            else:
                return -1
            continue
        if os == 0:
            continue
        low = os & -os
        live = mine & ~(low - 1)  # cards that are not dead
        if live == 0:
            rel |= low  # the others' lowest card of the suit and every card above it decide
        elif c >= popcount(mine):
            rel |= np.int64(1) << top  # a cover for every card: the Nil seat's top card and above decide
        elif _matched(live, pa & sm):
            rel |= low if live != mine else mine & -mine  # no dead card: the Nil seat's lowest and above decide
        elif s != SPADES and popcount(mine & (low - 1)) >= _longest_other(ws, nil_seat, sm):
            rel |= low  # a dead card for each trick of the suit: the others' lowest card and above decide
        else:
            return -1
    return rel


@njit(inline="always", cache=True)
def _longest_other(ws, nil_seat, sm):
    """The most cards of the suit ``sm`` any seat but the Nil seat holds: the tricks of that suit still to come at
    most (each takes a card from every seat that holds the suit)."""
    n = 0
    for q in (1, 2, 3):
        n = max(n, popcount(ws[W_H + ((nil_seat + q) & 3)] & sm))
    return n


@njit(inline="always", cache=True)
def _uncovered(mine, above):
    """The highest card c of ``mine`` (as its bit) for which ``above`` holds fewer cards above c than ``mine`` holds
    from c up, else 0: with no such card, ``above``'s i-th highest is above ``mine``'s i-th highest for every i
    (Hall's condition on these nested sets), so ``mine``'s cards can be matched one to one to higher cards."""
    x = mine
    n = 0
    while x != 0:
        t = highest_bit(x)
        n += 1
        if popcount(above & ~((np.int64(2) << t) - 1)) < n:
            return np.int64(1) << t
        x ^= np.int64(1) << t
    return np.int64(0)


@njit(inline="always", cache=True)
def _matched(mine, pa):
    """Whether ``pa`` (the partner's cards of a suit) covers ``mine`` (the Nil seat's cards of it) card by card: its
    i-th highest above the Nil seat's i-th highest for every i (``_uncovered``). The Nil seat's
    highest and the partner's highest leave together (a trick of the suit, both void and throwing the suit, a
    spade ruffed over), the rest stays covered card by card; the Nil seat's cards leaving alone only help."""
    return _uncovered(mine, pa) == 0


@njit(cache=True)
def _alone_spade_tricks(ws, seat):
    """A seat alone at a trick's start: the tricks its spades surely win, and the card that rests on (its
    lowest spade; 0 for none). Every card is played by the hand's end, so each of its n spades goes to some
    trick. A trick where it plays spade s and loses is won by a card above s: a spade (a spade beats every other
    suit) of one of the others, played to that trick. So its lost spades go one to one (distinct tricks,
    distinct cards) to higher spades of the others: it loses at most M of them, M the largest number of pairs
    (its spade, a higher spade of the others) with no card in two pairs, and wins at least n - M tricks with
    them whatever anyone plays. M by the greedy matching from the top down: each of its spades takes one of
    the others' higher spades not taken yet when there is one (any of them is above every spade of its still
    to come, so taking one never costs a later pair). The count depends on the spades from its lowest one up:
    the others' spades below that are above none of its spades."""
    mine = ws[W_H + seat] & SPADE_MASK
    if mine == 0:
        return 0, np.int64(0)
    others = np.int64(0)
    for j in range(1, _seats(ws)):
        others |= ws[W_H + _after(ws, seat, j)]
    others &= SPADE_MASK
    free = 0  # the others' spades above the current card, not paired yet
    wins = 0
    x = (mine | others) & ~((mine & -mine) - 1)
    while x != 0:
        c = highest_bit(x)
        x ^= np.int64(1) << c
        if (mine >> c) & 1:
            if free > 0:
                free -= 1
            else:
                wins += 1
        else:
            free += 1
    return wins, mine & -mine


@njit(cache=True)
def _sure_bounds(ws, leader, r, broken):
    """(lower bound on team 0's tricks, the cards it rests on, upper bound, the cards it rests on)."""
    lo0, rel0, lo1, rel1 = _forced_spades(ws)
    if ws[W_ALONE] != 0:  # the seat alone (side 0): its spades' sure tricks, never fewer than its top spades
        n, rel = _alone_spade_tricks(ws, ws[W_ALONE] - 1)
        if n > lo0:
            lo0 = n
            rel0 = rel
    q, qrel = _quick_tricks(ws, leader, broken)
    if q == 0:
        q, qrel = _sure_trick(ws, leader, broken)
    if _side(ws, leader):
        if q > lo1:
            lo1 = q
            rel1 = qrel
    elif q > lo0:
        lo0 = q
        rel0 = qrel
    return lo0, rel0, r - lo1, rel1


# ------------------------------------------------------------------ move generation
@njit(inline="always", cache=True)
def _top(x):
    """Highest card of a mask, -1 when empty."""
    return highest_bit(x) if x != 0 else -1


@njit(cache=True)
def _duck_lead_score(ws, seat, c, live):
    """How promising a lead is for a side that wants to lose the trick (larger first): low cards, suits
    where the others hold higher ones."""
    rank = card_rank(c)
    return (-rank - 20) if c == highest_bit(live & SUIT_MASKS[card_suit(c)]) else 20 - rank


@njit(inline="always", cache=True)
def _owner(ws, c):
    """The seat holding card ``c`` (-1 for none)."""
    for h in range(4):
        if (ws[W_H + h] >> c) & 1:
            return h
    return -1


@njit(cache=True)
def _lead_weight(ws, seat, c, rtop, seq, live, r, killer):
    """DDS's lead weights (Moves.cpp, WeightAllocTrump0 / WeightAllocNT0) for the run of ``c`` .. ``rtop``."""
    pa = seat ^ 2
    lho = (seat + 1) & 3
    rho = (seat + 3) & 3
    s = card_suit(c)
    sm = SUIT_MASKS[s]
    suit_live = live & sm
    h_me = ws[W_H + seat] & sm
    h_pa = ws[W_H + pa] & sm
    h_lho = ws[W_H + lho] & sm
    h_rho = ws[W_H + rho] & sm
    t_pa = ws[W_H + pa] & SPADE_MASK
    t_lho = ws[W_H + lho] & SPADE_MASK
    t_rho = ws[W_H + rho] & SPADE_MASK
    n_me = popcount(h_me)
    n_pa = popcount(h_pa)
    n_lho = popcount(h_lho)
    n_rho = popcount(h_rho)
    top = highest_bit(suit_live)
    win_hand = _owner(ws, top)
    rest = suit_live & ~(np.int64(1) << top)
    sec_hand = -1
    third_hand = -1
    sec = -1
    if rest != 0:
        sec = highest_bit(rest)
        sec_hand = _owner(ws, sec)
        rest &= ~(np.int64(1) << sec)
        if rest != 0:
            third_hand = _owner(ws, highest_bit(rest))
    rrank = popcount(suit_live & ~((np.int64(1) << rtop) - 1))  # 1 for the top card
    rank = card_rank(rtop) + 2
    is_killer = killer >= c and killer <= rtop and ((ws[W_H + seat] >> killer) & 1) != 0
    count_lh = (r if n_lho == 0 else n_lho) << 2
    count_rh = (r if n_rho == 0 else n_rho) << 2
    trump = (live & SPADE_MASK) != 0
    if not trump:  # no spade left: DDS's no-trump weights
        wd = -(((count_lh + count_rh) << 5) // 19)
        if n_pa == 0:
            wd -= 9
        if rtop == top or h_pa > (h_lho | h_rho):
            if sec_hand == rho:
                if n_rho != 1:
                    wd -= 1
            elif sec_hand == lho:
                wd += 22 if n_lho != 1 else 16
            if (sec_hand != lho or n_lho == 1) and (sec_hand != rho or n_rho == 1):
                w = wd + 45 + rrank
            else:
                w = wd + 18 + rrank
            if is_killer:
                w += 126
            return w
        if win_hand == rho or sec_hand == rho:
            if n_rho != 1:
                wd -= 10
        elif win_hand == lho and sec_hand == pa and n_pa != 1:
            wd += 31  # towards partner's second card, over the left's top card
        if sec_hand == pa and third_hand == pa:
            wd += 35
        elif n_pa > 1 and ((sec_hand == seat and third_hand == pa) or (sec_hand == pa and third_hand == seat)):
            wd += 25
        if (n_lho == 1 and win_hand == lho) or (n_rho == 1 and win_hand == rho):
            w = wd + 28 + rrank
        elif win_hand == seat:
            w = wd - 17 + rrank
        elif not seq:
            w = wd + 12 + rrank
        elif rtop == sec:
            w = wd + 48
        else:
            w = wd + 29 - rrank
        if is_killer:
            w += 47
        return w
    # spades in play: DDS's trump weights
    side = s != SPADES
    lho_ruffs = n_lho == 0 and t_lho != 0
    rho_ruffs = n_rho == 0 and t_rho != 0
    bonus = 0
    if side and (lho_ruffs or rho_ruffs):
        bonus = -12  # an opponent ruffs
    if side and n_pa == 0 and t_pa != 0 and n_rho > 0:
        bonus += 17  # partner ruffs
    if win_hand == rho or sec_hand == rho:
        if n_rho != 1:
            bonus -= 12  # the player on the right sits over us
    elif win_hand == lho and sec_hand == pa and n_pa != 1:
        bonus += 27  # towards partner's second card, over the left's top card
    if side and n_me == 1 and (ws[W_H + seat] & SPADE_MASK) != 0 and n_pa > 1 and win_hand == pa:
        bonus += 19  # a singleton to partner's winner, for a ruff on the return
    # suits where the opponents have few cards to choose from make smaller trees
    wd = bonus - (((count_lh + count_rh) << 5) // 13)
    # can the lead win the trick for our side (DDS's winMove)?
    if rtop == top:
        if not side:
            win_move = True
        elif n_pa != 0 or t_pa == 0:
            win_move = not lho_ruffs and not rho_ruffs
        else:
            win_move = (n_lho != 0 or t_pa > t_lho) and (n_rho != 0 or t_pa > t_rho)
    elif h_pa > (h_lho | h_rho):
        win_move = not side or (not lho_ruffs and not rho_ruffs)
    elif side and n_pa == 0 and t_pa != 0:  # partner ruffs, over the opponents' ruffs
        if lho_ruffs and rho_ruffs:
            win_move = t_pa > (t_lho | t_rho)
        elif lho_ruffs:
            win_move = t_pa > t_lho
        elif rho_ruffs:
            win_move = t_pa > t_rho
        else:
            win_move = True
    else:
        win_move = False
    if win_move:
        if (n_lho == 1 and win_hand == lho) or (n_rho == 1 and win_hand == rho):
            w = wd + 35 + rrank
        elif win_hand == seat:
            if sec_hand == pa:
                w = wd + 48 + rrank
            elif rtop == top:
                w = wd + 31
            else:
                w = wd - 3 + rrank
        elif win_hand == pa:
            if sec_hand == seat:
                w = wd + 42 + rrank
            else:
                w = wd + 28 + rrank
        elif seq and rtop == sec:
            w = wd + 40
        elif seq:
            w = wd + 22 + rrank
        else:
            w = wd + 11 + rrank
        if is_killer:
            w += 55
        return w
    if sec_hand == pa and third_hand == pa:
        wd += 20
    elif n_pa > 1 and ((sec_hand == seat and third_hand == pa) or (sec_hand == pa and third_hand == seat)):
        wd += 13
    if (n_lho == 1 and win_hand == lho) or (n_rho == 1 and win_hand == rho):
        w = wd + rrank + 2
    elif win_hand == seat:
        if sec_hand == pa:
            w = wd + 33 + rrank
        elif rtop == top:
            w = wd + 38
        else:
            w = wd - 14 + rrank
    elif win_hand == pa:
        w = wd + 34 + rrank
    elif seq and rtop == sec:
        w = wd + 35
    else:
        w = wd + 17 - rank
    if is_killer:
        w += 18
    return w


@njit(inline="always", cache=True)
def _second_owner(ws, sm, live):
    """The seat holding the second-highest card in play of suit mask ``sm`` (-1 for none)."""
    x = live & sm
    if x == 0:
        return -1
    x &= ~(np.int64(1) << highest_bit(x))
    if x == 0:
        return -1
    return _owner(ws, highest_bit(x))


@njit(inline="always", cache=True)
def _low(x):
    """Lowest card of a mask, -1 when empty."""
    return lowest_bit(x) if x != 0 else -1


@njit(cache=True)
def _forces_top(ws, cards4, live, lm, m1, second_winning):
    """DDS's RankForcesAce: the card our move must beat to force out the fourth hand's top cards, or
    (second hand winning) to beat the second hand; -1 for none."""
    if cards4 == 0:
        return -1
    x = live & lm
    t = highest_bit(cards4)
    # the fourth hand's top run (touching in play), then its next card below it
    below = cards4 & ((np.int64(1) << t) - 1)
    while below != 0:
        nxt = highest_bit(x & ((np.int64(1) << t) - 1))
        if (cards4 >> nxt) & 1:
            t = nxt
            below = cards4 & ((np.int64(1) << t) - 1)
        else:
            break
    if below == 0:
        return -1
    second = highest_bit(below)
    if second > m1:
        return second
    if second_winning:
        return m1
    return -1


@njit(inline="always", cache=True)
def _pitch(ws, seat, sm, n, live, kx, stiff):
    """DDS's discard adjustments: ``-kx`` when the seat holds the second-highest card of the suit as one of
    two cards (Kx), ``-stiff`` when it holds the top card alone."""
    if n == 2 and _second_owner(ws, sm, live) == seat:
        return -kx
    if n == 1 and stiff != 0 and _owner(ws, highest_bit(live & sm)) == seat:
        return -stiff
    return 0


@njit(cache=True)
def _follow_weight(ws, k, seat, c, rtop, seq, led, win_seat, win_card, live):
    """DDS's weights for the followers (Moves.cpp, WeightAlloc*1 / *2 / *3) for the run ``c`` .. ``rtop``."""
    leader = (seat - k) & 3
    lm = SUIT_MASKS[led]
    s = card_suit(c)
    sm = SUIT_MASKS[s]
    hand = ws[W_H + seat]
    rank = card_rank(rtop) + 2
    rrank = popcount(live & sm & ~((np.int64(1) << rtop) - 1))
    sc = popcount(hand & sm)
    trump = (live & SPADE_MASK) != 0
    follows = (hand & lm) != 0
    m0 = win_card
    if k == 1:
        third = leader ^ 2
        fourth = seat ^ 2
        c3 = ws[W_H + third] & lm
        c4 = ws[W_H + fourth] & lm
        t3 = ws[W_H + third] & SPADE_MASK
        t4 = ws[W_H + fourth] & SPADE_MASK
        max3 = _top(c3)
        maxpd = _top(c4)
        min3 = _low(c3)
        minpd = _low(c4)
        if follows:
            if not trump:
                if maxpd > m0 and maxpd > max3:
                    return -rank
                if rtop > m0 and rtop > max3:
                    return 81 - rank
                if min3 > rtop or minpd > rtop:
                    return -3 + rrank
                if rtop < m0:
                    return -11 + rrank
                if seq:
                    return 10 + rrank
                return 13 - rank
            # can our side win the trick (DDS's winMove)?
            if led == SPADES:
                win = (maxpd > m0 and maxpd > max3) or (rtop > m0 and rtop > max3)
            elif rtop > m0 and rtop > max3:
                win = max3 >= 0 or t3 == 0 or (maxpd < 0 and t4 != 0 and t4 > t3)
            elif maxpd > m0 and maxpd > max3:
                win = max3 >= 0 or t3 == 0
            elif m0 > maxpd and m0 > max3 and m0 > rtop:
                win = maxpd < 0 and t4 != 0 and (max3 >= 0 or t3 == 0 or t4 > t3)
            else:
                win = maxpd < 0 and t4 != 0
            if win:
                if min3 > rtop:
                    return 40 + rrank
                if maxpd > m0 and (ws[W_H + leader] & lm) > c4:
                    return 41 + rrank
                if rtop > m0:
                    if rtop < maxpd:
                        return 78 - rank
                    if rtop > max3:
                        return 73 - rank
                    if seq:
                        return 62 - rank
                    return 49 - rank
                if maxpd >= 0:
                    return 47 - rank
                return 40 - rank
            if rtop < min3 or rtop < minpd:
                return -9 + rrank
            if rtop < m0:
                return -16 + rrank
            if seq:
                return 22 - rank
            return 10 - rank
        # void in the suit led
        bm0 = np.int64(1) << m0
        if not trump:
            if c4 > (c3 | bm0):
                return -rank + (sc << 6) // 23 + _pitch(ws, seat, sm, sc, live, 2, 3)
            return -rank + (sc << 6) // 33 + _pitch(ws, seat, sm, sc, live, 6, 8)
        if led == SPADES:
            if c4 > (c3 | bm0):
                return -rank + (sc << 6) // 44
            return -rank + (sc << 6) // 36 + _pitch(ws, seat, sm, sc, live, 4, 0)
        if s != SPADES:
            if (c3 != 0 and (c4 > (c3 | bm0) or (c4 == 0 and t4 != 0))) or \
                    (c3 == 0 and ((c4 == 0 and t4 > t3) or (t3 == 0 and c4 > bm0))):
                return -rank + 60 + (sc << 6) // 44  # partner wins the trick
            return -rank - 2 + (sc << 6) // 36 + _pitch(ws, seat, sm, sc, live, 4, 0)
        if c3 != 0 or (c4 == 0 and t4 != 0 and t4 > t3):
            return 24 - rank + (sc << 6) // 44
        if (np.int64(1) << rtop) > t3:
            return 24 - rank + (sc << 6) // 44
        return 15 - rank + (sc << 6) // 36 + _pitch(ws, seat, sm, sc, live, 4, 0)
    if k == 2:
        fourth = (seat + 1) & 3
        cards4 = ws[W_H + fourth] & lm
        t4 = ws[W_H + fourth] & SPADE_MASK
        max4 = _top(cards4)
        min4 = _low(cards4)
        lead_wins = win_seat == leader
        m1 = win_card
        if follows:
            side = trump and led != SPADES
            if side and card_suit(m1) == SPADES:
                return -rank  # the second hand ruffed
            if lead_wins and m1 > max4:
                return -rank  # partner's card stands
            if side and not lead_wins and max4 < 0:
                return 20 - rank if rtop > m1 else -rank  # beat the second hand
            max3 = highest_bit(hand & lm)
            if max3 < min4 or max3 < m1:
                return -rank  # too low to matter
            wins = rtop > m1 and rtop > max4
            if trump and max3 > max4:
                if side and lead_wins:
                    wins = rtop > max4
                return 58 - rank if wins else -rank
            w = 60 - rank if wins and (not trump or side) else -rank
            if max4 > max3 and max4 > m1:
                # the cheapest card that forces out the fourth hand's top cards (or beats the second hand)
                f = _forces_top(ws, cards4, live, lm, m1, not lead_wins)
                if f >= 0 and c > f and (hand & lm & ((np.int64(1) << c) - 1) & ~((np.int64(2) << f) - 1)) == 0:
                    w += 20
            return w
        if not trump:
            return -rank + (sc << 6) // 24 + _pitch(ws, seat, sm, sc, live, 4, 4)
        if led == SPADES or s != SPADES:
            return -rank + (sc << 6) // 40
        if lead_wins and m1 > max4 and (max4 >= 0 or t4 == 0):
            return -rank - 50
        add = (sc << 6) // 50
        if card_suit(m1) == SPADES and rtop < m1:
            return -32 + rrank + (sc << 6) // 40
        if lead_wins:
            if max4 >= 0:
                if _second_owner(ws, lm, live) == leader:
                    return 36 - rank + add
                return 48 - rank + add
            if (np.int64(1) << rtop) > t4:
                return 48 - rank + add
            return -12 - rank + add
        if max4 >= 0:
            return 72 - rank + add
        if (np.int64(1) << rtop) > t4:
            return 48 - rank + add
        return 36 - rank + add
    # k == 3
    pw = win_seat == (seat ^ 2)
    if follows:
        if pw or (led != SPADES and card_suit(win_card) == SPADES):
            return -rank
        return 30 - rank if rtop > win_card else -rank
    if not trump:
        return -rank + (sc << 6) // 27 + _pitch(ws, seat, sm, sc, live, 6, 8)
    val = (sc << 6) // 24 + _pitch(ws, seat, sm, sc, live, 2, 0)
    if led == SPADES:
        return -rank + val
    if pw:
        return (2 if s == SPADES else 25) - rank + val
    if card_suit(win_card) == SPADES:
        if s == SPADES:
            return 33 + rrank if rtop > win_card else -13 + rrank
        return 14 - rank + val
    if s == SPADES:
        return 33 + rrank
    return 14 - rank + val


@njit(inline="always", cache=True)
def _winner_after_replies(ws, k, seat, lm, nws, nwc):
    """The seat that wins a trick whose winner so far is ``nws`` with ``nwc``, ``seat`` being the ``k``-th to play,
    when each player still to come that is an opponent of the winner then plays its highest card of the suit led
    (``lm``), else its highest spade, if that card beats."""
    for j in range(k + 1, _seats(ws)):
        q = _after(ws, seat, j - k)
        if _side(ws, q) == _side(ws, nws):
            continue
        hq = ws[W_H + q]
        own = hq & lm
        pool = own if own != 0 else hq & SPADE_MASK
        if pool != 0:
            b = highest_bit(pool)
            if beats(b, nwc):
                nws = q
                nwc = b
    return nws


@njit(inline="always", cache=True)
def _duck_follow_score(ws, k, seat, c, led, win_seat, win_card):
    """How promising a card is for a follower that wants to lose the trick (larger first): the highest
    card that loses against the best replies of the players still to come."""
    nws = win_seat
    nwc = win_card
    if beats(c, win_card):
        nws = seat
        nwc = c
    nws = _winner_after_replies(ws, k, seat, SUIT_MASKS[led], nws, nwc)
    rank = card_rank(c)
    if nws == seat:
        return -40 - rank
    return rank


@njit(inline="always", cache=True)
def _beaten_later(ws, k, seat, led, win_card, nil_seat):
    """After the card ``win_card`` of the Nil seat (``seat``, the ``k``-th to play) wins the trick so far: True
    when a player still to come surely beats it (its partner with its best card, or a defender all of whose
    legal cards beat it)."""
    bm = beating(win_card)
    lm = SUIT_MASKS[led]
    for j in range(k + 1, _seats(ws)):
        q = _after(ws, seat, j - k)
        hq = ws[W_H + q]
        pool = hq & lm if (hq & lm) != 0 else hq
        if _side(ws, q) == _side(ws, nil_seat):  # its partner
            if (pool & bm) != 0:
                return True
        elif pool != 0 and (pool & ~bm) == 0:
            return True
    return False


@njit(cache=True)
def _nil_order(ws, k, seat, c, led, win_card, nil_seat):
    """Move ordering for the Nil question (larger first), where it differs from the trick search's (the Nil
    seat's partner) and from ducking (the defence's followers). The Nil seat plays its highest card that
    surely loses the trick, and leads first where a higher card of its partner's or a forced one of a
    defender's covers it; its partner, following to the Nil seat's winning card, overtakes it as cheaply as
    it can; the defence leads low under the Nil seat's cards, first in a suit its partner cannot cover."""
    rank = card_rank(c)
    if k != 0:
        if seat != nil_seat:
            return 100 - rank if beats(c, win_card) else -rank
        if beats(c, win_card) and not _beaten_later(ws, k, seat, led, c, nil_seat):
            return -40 - rank  # the Nil seat wins the trick
        return rank
    s = card_suit(c)
    sm = SUIT_MASKS[s]
    pa = _mates(ws, nil_seat)
    if seat == nil_seat:
        safe = (pa & sm & ~((np.int64(2) << c) - 1)) != 0 or \
            (s != SPADES and (pa & sm) == 0 and (pa & SPADE_MASK) != 0)  # partner plays over it or ruffs
        _, _, _, o1, o2, o3 = _roles(ws, seat)
        for o in (o1, o2, o3):
            hq = o & sm
            if hq != 0 and lowest_bit(hq) > c:
                safe = True  # a defender must play over it
        return 50 + rank if safe else -rank
    mine = ws[W_H + nil_seat] & sm
    if mine == 0:
        return -20 - rank
    if c < lowest_bit(mine):
        covered = (pa & sm) > mine or ((pa & sm) == 0 and s != SPADES and (pa & SPADE_MASK) != 0)
        return (30 if covered else 60) - rank
    return 10 - rank


@njit(inline="always", cache=True)
def _alone_order(ws, k, seat, c, led, win_seat, win_card):
    """Move ordering for tricks when a seat is alone against the other three (larger first; DDS's weights
    assume a partner opposite): the cheapest card with which the seat's side wins the trick against the best
    replies of the players still to come (each opponent of the winner so far plays its highest card that
    beats it), else the lowest card."""
    nws = seat
    nwc = c
    lm = SUIT_MASKS[card_suit(c)]
    if k != 0:
        lm = SUIT_MASKS[led]
        if not beats(c, win_card):
            nws = win_seat
            nwc = win_card
    nws = _winner_after_replies(ws, k, seat, lm, nws, nwc)
    rank = card_rank(c)
    if _side(ws, nws) == _side(ws, seat):
        return 40 - rank
    return -rank


@njit(inline="always", cache=True)
def _gen(ws, depth, k, seat, led, win_seat, win_card, legal, live, bestc, goal):
    """Write the moves (one card per run of touching cards, the lowest) at ``W_MOVES + MOVE_SLOTS * depth``,
    best first; return how many."""
    hand = ws[W_H + seat]
    p = pext(hand, live)
    starts = pext(_suit_starts(live), live)
    reps = pdep(p & ~((p << 1) & ~starts), live) & legal
    base = W_MOVES + MOVE_SLOTS * depth
    alone = goal > 0 and ws[W_ALONE] != 0
    n = 0
    while reps != 0:
        c = lowest_bit(reps)
        reps &= reps - 1
        if alone:
            sc = _alone_order(ws, k, seat, c, led, win_seat, win_card)
            if k == 0 and c == ws[W_KILL + depth]:
                sc += 500  # the lead that last cut the search off at this depth, after the table's best move
            if c == bestc:
                sc = 1000
        elif goal > 0:
            # DDS's weights, which look at the run's top card
            ci = popcount(live & ((np.int64(1) << c) - 1))
            ln = lowest_bit(~((p & ~starts) >> (ci + 1)))  # further cards of the run
            rtop = lowest_bit(pdep(np.int64(1) << (ci + ln), live))
            if k == 0:
                sc = _lead_weight(ws, seat, c, rtop, ln > 0, live, popcount(hand), ws[W_KILL + depth])
            else:
                sc = _follow_weight(ws, k, seat, c, rtop, ln > 0, led, win_seat, win_card, live)
            if c == bestc:
                sc += 18  # the table's best move: a hint, as DDS weighs its table's
        elif goal == 0:
            sc = _nil_order(ws, k, seat, c, led, win_card, ws[W_NIL] - 1)
            if k == 0 and c == ws[W_KILL + depth]:
                sc += 500  # the lead that last cut the search off at this depth, after the table's best move
            if c == bestc:
                sc = 1000
        else:
            if k == 0:
                sc = _duck_lead_score(ws, seat, c, live)
            else:
                sc = _duck_follow_score(ws, k, seat, c, led, win_seat, win_card)
            if c == bestc:
                sc = 1000
        key = sc * 64 + c
        # insertion, best (largest key) first
        j = n
        while j > 0 and ws[base + j - 1] < key:
            ws[base + j] = ws[base + j - 1]
            j -= 1
        ws[base + j] = key
        n += 1
    return n


# ------------------------------------------------------------------ the search
@njit(cache=True)
def _last_trick(ws, leader, acc, thr, rel_slot):
    c = lowest_bit(ws[W_H + leader])
    win = c
    win_seat = leader
    tm = np.int64(1) << c
    for j in range(1, _seats(ws)):
        s = _after(ws, leader, j)
        cc = lowest_bit(ws[W_H + s])
        tm |= np.int64(1) << cc
        if beats(cc, win):
            win = cc
            win_seat = s
    wb = np.int64(1) << win
    ws[rel_slot] = wb if (tm & SUIT_MASKS[card_suit(win)] & ~wb) != 0 else 0
    if ws[W_MODE] == MODE_TRICKS:
        return 1 if acc + (1 - _side(ws, win_seat)) >= thr else 0
    return 1 if ws[W_LEAF + acc + ws[W_STRIDE + win_seat]] >= thr else 0


@njit(cache=True)
def _second_hand_wins(ws, seat, led, win_card):
    """When the side of the second hand ``seat`` wins the trick whatever the third hand does: the card
    whose rank that rests on (0 for a ruff), else -1."""
    lm = SUIT_MASKS[led]
    me = ws[W_H + seat]
    pa = ws[W_H + (seat ^ 2)]
    third = ws[W_H + ((seat + 1) & 3)]
    third_ruffs = led != SPADES and (third & lm) == 0 and (third & SPADE_MASK) != 0
    if third_ruffs:
        return -1
    if led != SPADES and (((me & lm) == 0 and (me & SPADE_MASK) != 0) or ((pa & lm) == 0 and (pa & SPADE_MASK) != 0)):
        return 0  # our side ruffs; the third hand follows suit (or has no spade)
    ours = (me | pa) & lm
    if ours == 0:
        return -1
    top = highest_bit(ours)
    if top > win_card and (third & lm) < (np.int64(1) << top):
        return np.int64(1) << top
    return -1


@njit(cache=True)
def _trick_top(ws, k, seat, led, win_seat, win_card):
    """Inside a trick (``k`` cards played, ``seat`` on move): the highest card each player still to play can
    give it (its highest card of the suit led, else, void, its highest spade), and the winning card so far; the
    highest of them all. Its holder's side surely wins the trick: the holder plays it (or played it), and no
    card of the other side can beat it (card ids grow with rank inside a suit and spades have the highest). The
    card (its rank decides) is returned, with its side as ``card * 2 + side``."""
    lm = SUIT_MASKS[led]
    top = win_card
    top_side = _side(ws, win_seat)
    for j in range(k, _seats(ws)):
        q = _after(ws, seat, j - k)
        h = ws[W_H + q]
        f = h & lm
        if f == 0:
            f = h & SPADE_MASK
        if f != 0 and highest_bit(f) > top:
            top = highest_bit(f)
            top_side = _side(ws, q)
    return top * 2 + top_side


@njit(inline="always", cache=True)
def _start(tt, ws, fb, thr, seat, hand, acc, broken, want):
    """At a trick's start (frame ``fb``, ``seat`` to lead): (1 / 0 when the node is decided at once, its cards of
    rank in ``F_REL``, else -1 with what the table needs in the frame; the table's best move, else -1). ``want``
    1 or 0 (``_nil_etc``): only that answer is looked for (the Nil tests that can only give the other one are
    skipped); -1: either (the search)."""
    mode = ws[W_MODE]
    bestc = -1
    r = popcount(hand)
    need = thr
    if mode == MODE_TRICKS:
        need = thr - acc
        if need <= 0:
            ws[fb + F_REL] = 0
            return 1, -1
        if need > r:
            ws[fb + F_REL] = 0
            return 0, -1
    else:
        if ws[W_MIN + acc] >= thr:
            ws[fb + F_REL] = 0
            return 1, -1
        if ws[W_MAX + acc] < thr:
            ws[fb + F_REL] = 0
            return 0, -1
        if ws[W_MERGED] != 0 and r > 1:
            # no Nil: the value is g(team 0's tricks); the tricks each team takes in every line bound them
            f0, rel0, f1, rel1 = _forced_spades(ws)
            if f0 + f1 > 0:
                c0 = acc % ws[W_STRIDE + 1]
                lo = ws[W_G + c0 + f0]
                hi = lo
                for t in range(f0 + 1, r - f1 + 1):
                    lo = min(lo, ws[W_G + c0 + t])
                    hi = max(hi, ws[W_G + c0 + t])
                if lo >= thr or hi < thr:
                    ws[fb + F_REL] = rel0 | rel1
                    return (1 if lo >= thr else 0), -1
    if r == 1:
        return _last_trick(ws, seat, acc, thr, fb + F_REL), -1
    if mode != MODE_TRICKS and ws[W_NIL] != 0:
        nil_seat = ws[W_NIL] - 1
        v = 1 if ws[W_MIN + acc + ws[W_STRIDE + nil_seat]] >= thr else 0  # its value once the Nil seat has a trick
        if want != 1 - v:
            lost = _nil_lost(ws, nil_seat)
            if lost < 0 and _side(ws, seat) != _side(ws, nil_seat):
                lost = _nil_broken(ws, seat, broken, nil_seat)
            if lost >= 0:  # the Nil seat must win a trick: the defence has what it wants
                ws[fb + F_REL] = lost
                return v, -1
    if mode == MODE_TRICKS:
        lo0, rel_lo, hi0, rel_hi = _sure_bounds(ws, seat, r, broken)
        if lo0 >= need:
            ws[fb + F_REL] = rel_lo
            return 1, -1
        if hi0 < need:
            ws[fb + F_REL] = rel_hi
            return 0, -1
    R = ws[W_H] | ws[W_H + 1] | ws[W_H + 2] | ws[W_H + 3]
    A = pext(ws[W_H + 1] | ws[W_H + 3], R)
    B = pext(ws[W_H + 2] | ws[W_H + 3], R)
    k1 = _key(ws, seat, broken if ws[W_BREAKING] != 0 else 0)
    k2 = acc if mode != MODE_TRICKS else 0
    hit, M, best = _tt_probe(tt, ws, k1, k2, A, B, need)
    if hit >= 0:
        ws[W_HITS] += 1
        ws[fb + F_REL] = pdep(M, R)
        return hit, -1
    if mode != MODE_TRICKS and ws[W_NIL] != 0 and seat != ws[W_NIL] - 1 and r >= NIL_SAFE_CARDS and \
            want != (1 if _side(ws, ws[W_NIL] - 1) != 0 else 0):
        safe = _nil_safe(ws, ws[W_NIL] - 1)
        if safe >= 0:  # the Nil seat takes no trick: its side has what it wants
            ws[fb + F_REL] = safe
            return (1 if 1 - _side(ws, ws[W_NIL] - 1) >= thr else 0), -1
    if best >= 0:
        bestc = lowest_bit(pdep(np.int64(1) << best, R))
    ws[fb + F_NEED] = need
    ws[fb + F_K1] = k1
    ws[fb + F_K2] = k2
    ws[fb + F_A] = A
    ws[fb + F_B] = B
    ws[fb + F_R] = R
    return -1, bestc


@njit(inline="always", cache=True)
def _enter(tt, ws, fb, depth, thr):
    """Arrive at the node of frame ``fb``: 1 / 0 when it is decided at once (its cards of rank in
    ``F_REL``), else -1 with its moves generated."""
    ws[W_NODES] += 1
    mode = ws[W_MODE]
    k = ws[fb + F_K]
    seat = ws[fb + F_SEAT]
    acc = ws[fb + F_ACC]
    broken = ws[fb + F_BROKEN]
    hand = ws[W_H + seat]
    bestc = -1
    if k == 0:
        res, bestc = _start(tt, ws, fb, thr, seat, hand, acc, broken, -1)
        if res >= 0:
            return res
    elif k == 1 and mode == MODE_TRICKS and ws[W_ALONE] == 0:
        # second hand: when its side surely wins this trick and that one trick decides, stop here
        r = popcount(hand)
        side0 = _side(ws, seat) == 0
        if (side0 and thr - acc == 1) or (not side0 and acc + r - 1 < thr):
            rel = _second_hand_wins(ws, seat, ws[fb + F_LED], ws[fb + F_WCARD])
            if rel >= 0:
                ws[fb + F_REL] = rel
                return 1 if side0 else 0
    elif mode == MODE_TRICKS and ws[W_ALONE] != 0:
        # a seat alone: inside a trick, when the side that surely wins it (_trick_top) has what it wants with
        # that trick, stop here
        r = popcount(hand)
        t = _trick_top(ws, k, seat, ws[fb + F_LED], ws[fb + F_WSEAT], ws[fb + F_WCARD])
        if ((t & 1) == 0 and thr - acc <= 1) or ((t & 1) != 0 and acc + r - 1 < thr):
            ws[fb + F_REL] = np.int64(1) << (t >> 1)
            return 1 - (t & 1)
    live = ws[W_H] | ws[W_H + 1] | ws[W_H + 2] | ws[W_H + 3] | ws[fb + F_TM]
    led = ws[fb + F_LED]
    legal = _legal(ws, k, hand, led, broken)
    goal = 1 if mode == MODE_TRICKS else ws[W_GOAL + seat]
    if mode != MODE_TRICKS and ws[W_NIL] != 0:
        nil_seat = ws[W_NIL] - 1
        if seat == nil_seat or (k == 0 and goal < 0) or (k != 0 and goal > 0 and ws[fb + F_WSEAT] == nil_seat):
            goal = 0  # the Nil question's own ordering (_nil_order)
    ws[fb + F_N] = _gen(ws, depth, k, seat, led, ws[fb + F_WSEAT], ws[fb + F_WCARD], legal, live, bestc, goal)
    ws[fb + F_I] = 0
    ws[fb + F_REL] = 0
    ws[fb + F_SKIP] = 0
    ws[fb + F_BEST] = -1
    ws[fb + F_HAND] = hand
    ws[fb + F_LIVE] = live
    ws[fb + F_P] = pext(hand, live)
    ws[fb + F_STARTS] = pext(_suit_starts(live), live)
    ws[fb + F_ETC] = 0 if mode != MODE_TRICKS and ws[W_NIL] != 0 and k == _seats(ws) - 1 else 1
    return -1


@njit(cache=True)
def _nil_etc(tt, ws, fb, depth, thr, i):
    """The Nil question, at a trick's last card whose ``i``-th card (the one tried now) leads to a next trick's start
    not decided at once: True when a later card's next trick start is decided at once for the side on move (a
    table entry, or one of the Nil tests); that card then takes the ``i``-th place, to be tried now (enhanced
    transposition cut-offs: no search of this card before a cut-off already known). Only the order changes: the
    ``i``-th card's child stays as it is (each later card's trick start is looked at in ``ETC_FRAME``)."""
    seat = ws[fb + F_SEAT]
    hand = ws[fb + F_HAND]
    want = 1 if _side(ws, seat) == 0 else 0
    base = W_MOVES + MOVE_SLOTS * depth
    keep = W_FRAMES + FS * ETC_FRAME
    now = ws[W_H + seat]
    hits = ws[W_HITS]
    skip = ws[fb + F_SKIP]
    led = ws[fb + F_LED]
    found = False
    for j in range(i + 1, ws[fb + F_N]):
        key = ws[base + j]
        c = key & 63
        if (skip >> c) & 1:
            continue
        ws[W_H + seat] = hand ^ (np.int64(1) << c)
        nws = seat if beats(c, ws[fb + F_WCARD]) else ws[fb + F_WSEAT]  # the trick's winner (as _make)
        broken = 1 if card_suit(c) == SPADES and led != SPADES else ws[fb + F_BROKEN]
        res, _ = _start(tt, ws, keep, thr, nws, ws[W_H + nws], ws[fb + F_ACC] + ws[W_STRIDE + nws], broken, want)
        if res == want:
            for q in range(j, i, -1):
                ws[base + q] = ws[base + q - 1]
            ws[base + i] = key
            ws[W_ETC] += 1
            found = True
            break
    ws[W_H + seat] = now
    ws[W_HITS] = hits
    return found


@njit(inline="always", cache=True)
def _make(ws, fb, c):
    """The seat of frame ``fb`` plays ``c``: the child's state in the next frame; the card that won the
    trick by its rank (if ``c`` ends a trick and a card of the winner's suit lost to it) in ``F_DEC``."""
    nb = fb + FS
    k = ws[fb + F_K]
    seat = ws[fb + F_SEAT]
    broken = ws[fb + F_BROKEN]
    hand = ws[fb + F_HAND]
    bit = np.int64(1) << c
    ws[W_H + seat] = hand ^ bit
    suit = card_suit(c)
    nbroken = broken
    if k == 0:
        nled = suit
        nws = seat
        nwc = c
        if suit == SPADES and broken == 0 and ws[W_FORCED] != 0 and (hand & ~bit & ~SPADE_MASK) == 0:
            nbroken = 1  # a forced spade lead (phases.apply_lead)
    else:
        nled = ws[fb + F_LED]
        if suit != nled and suit == SPADES:
            nbroken = 1
        nws = ws[fb + F_WSEAT]
        nwc = ws[fb + F_WCARD]
        if beats(c, nwc):
            nws = seat
            nwc = c
    ntm = ws[fb + F_TM] | bit
    ws[nb + F_BROKEN] = nbroken
    if k == _seats(ws) - 1:
        ws[W_TRICKS] += 1
        wb = np.int64(1) << nwc
        ws[fb + F_DEC] = wb if (ntm & SUIT_MASKS[card_suit(nwc)] & ~wb) != 0 else 0
        acc = ws[fb + F_ACC]
        ws[nb + F_ACC] = acc + 1 - _side(ws, nws) if ws[W_MODE] == MODE_TRICKS else acc + ws[W_STRIDE + nws]
        ws[nb + F_K] = 0
        ws[nb + F_SEAT] = nws
        ws[nb + F_LED] = -1
        ws[nb + F_WSEAT] = -1
        ws[nb + F_WCARD] = -1
        ws[nb + F_TM] = 0
    else:
        ws[fb + F_DEC] = 0
        ws[nb + F_ACC] = ws[fb + F_ACC]
        ws[nb + F_K] = k + 1
        ws[nb + F_SEAT] = _after(ws, seat, 1)
        ws[nb + F_LED] = nled
        ws[nb + F_WSEAT] = nws
        ws[nb + F_WCARD] = nwc
        ws[nb + F_TM] = ntm


@njit(inline="always", cache=True)
def _finish(tt, ws, fb, res):
    """The node of frame ``fb`` is decided: at a trick's start, store the result for its partition."""
    if ws[fb + F_K] != 0:
        return
    R = ws[fb + F_R]
    mabs = _prefix(ws[fb + F_REL], R)
    need = ws[fb + F_NEED]
    if res != 0:
        lb = need
        ub = NO_UB
    else:
        lb = 0
        ub = need - 1
    bm = ws[fb + F_BEST]
    bi = popcount(R & ((np.int64(1) << bm) - 1)) + 1 if bm >= 0 else 0
    _tt_store(tt, ws, ws[fb + F_K1], ws[fb + F_K2], ws[fb + F_A], ws[fb + F_B], pext(mabs, R), lb, ub, bi)
    ws[fb + F_REL] = mabs


@njit(cache=True)
def _search(tt, ws, k, seat, led, win_seat, win_card, tmask, broken, acc, thr, d0):
    """1 when team 0 can bring the value to ``thr`` or more (trick mode: team 0's tricks since the root,
    ``acc`` so far; score mode: the index of the final value, ``acc`` = the flat counter index), else 0.

    Depth-first with an explicit stack of frames (``W_FRAMES``; Numba cannot cache a recursive function).
    Each node's cards of rank -- those whose ranks the answer rests on -- go up in ``F_REL``."""
    tt = borrowed(tt)  # the caller holds both: no reference counting in the loop (borrow.py)
    ws = borrowed(ws)
    fb = W_FRAMES + FS * d0
    for q in range(d0, 64):
        ws[W_KILL + q] = -1
    ws[fb + F_K] = k
    ws[fb + F_SEAT] = seat
    ws[fb + F_LED] = led
    ws[fb + F_WSEAT] = win_seat
    ws[fb + F_WCARD] = win_card
    ws[fb + F_TM] = tmask
    ws[fb + F_BROKEN] = broken
    ws[fb + F_ACC] = acc
    d = d0
    r = _enter(tt, ws, fb, d, thr)
    while True:
        if r < 0:
            fb = W_FRAMES + FS * d
            i = ws[fb + F_I]
            n = ws[fb + F_N]
            skip = ws[fb + F_SKIP]
            while i < n and (skip >> (ws[W_MOVES + MOVE_SLOTS * d + i] & 63)) & 1:
                i += 1
            if i < n:
                ws[fb + F_I] = i + 1
                _make(ws, fb, ws[W_MOVES + MOVE_SLOTS * d + i] & 63)
                d += 1
                r = _enter(tt, ws, fb + FS, d, thr)
                if r < 0 and ws[fb + F_ETC] == 0:
                    ws[fb + F_ETC] = 1  # once a node
                    if _nil_etc(tt, ws, fb, d - 1, thr, i):  # a later card is a known cut-off: it now, this one
                        d -= 1  # after it (the child entered is dropped)
                        ws[W_H + ws[fb + F_SEAT]] = ws[fb + F_HAND]
                        ws[fb + F_I] = i
                continue
            # every move tried without a cut-off
            r = 0 if _side(ws, ws[fb + F_SEAT]) == 0 else 1
            _finish(tt, ws, fb, r)
        # r: the result of the node at depth d
        if d == d0:
            return r
        child_rel = ws[W_FRAMES + FS * d + F_REL]
        d -= 1
        fb = W_FRAMES + FS * d
        seat = ws[fb + F_SEAT]
        hand = ws[fb + F_HAND]
        ws[W_H + seat] = hand
        c = ws[W_MOVES + MOVE_SLOTS * d + ws[fb + F_I] - 1] & 63
        bit = np.int64(1) << c
        crel = child_rel | ws[fb + F_DEC]
        # the cards touching c in the hand were the same move: if the answer rests on one of them, it
        # rests on c too (so that a partition never splits a run)
        live = ws[fb + F_LIVE]
        ci = popcount(live & (bit - 1))
        x = (ws[fb + F_P] & ~(ws[fb + F_STARTS] & ~(np.int64(1) << ci))) >> ci
        run = pdep(((x ^ (x + 1)) >> 1) << ci, live)
        if (crel & run & ~bit) != 0:
            crel |= bit
        if (r != 0) == (_side(ws, seat) == 0):  # a cut-off: team 0 reached thr, or team 1 kept it below
            if ws[fb + F_K] == 0:
                ws[W_KILL + d] = c  # DDS's "best move" of the depth: a killer move for the next leads
            ws[fb + F_REL] = crel
            ws[fb + F_BEST] = c
            _finish(tt, ws, fb, r)
        else:
            rel = ws[fb + F_REL] | crel
            ws[fb + F_REL] = rel
            # the cards of c's suit below every card of rank found so far give the same answer as c
            # if c is one of them (DDS's "lowest win"): try no other
            sm = SUIT_MASKS[card_suit(c)]
            rs = rel & sm
            if rs == 0:
                ws[fb + F_SKIP] |= sm
            elif c < lowest_bit(rs):
                ws[fb + F_SKIP] |= sm & ((np.int64(1) << lowest_bit(rs)) - 1)
            r = -1


# ------------------------------------------------------------------ root drivers
@njit(cache=True)
def _new_solve(tt, ws, mode):
    """Start a solve. The table's entries stay valid as long as what they rest on does: in trick mode,
    the play rules (an entry there is a fact about a position, whatever the root); score and Nil
    entries depend on the solve's final values, so those solves start a new generation."""
    ctx = mode * 4 + ws[W_BREAKING] * 2 + ws[W_FORCED] + 8 * ws[W_ALONE] + 64 * ws[W_TRIO] if mode == MODE_TRICKS else -1
    if ctx < 0 or ctx != ws[W_CTX] or ws[W_STAMP] == 0:  # (a workspace made by hand starts at stamp 0)
        new_generation_nb(tt, ws)
    ws[W_CTX] = ctx
    ws[W_MODE] = mode
    # the Nil question's own probe length: its proofs keep many entries of one key (the same suit lengths, other
    # owners of the cards), which share a probe sequence, whatever the table's size
    nil = mode != MODE_TRICKS and ws[W_NIL] != 0 and ws[W_NPROBE] > 0
    ws[W_PLEN] = ws[W_NPROBE] if nil else ws[W_PROBE]
    ws[W_NODES] = 0
    ws[W_TRICKS] = 0
    ws[W_HITS] = 0
    ws[W_STORES] = 0
    ws[W_ETC] = 0


@njit(cache=True, nogil=True)
def new_generation_nb(tt, ws):
    """Forget every entry of the table (a new generation stamp; the table is cleared once in 2**24)."""
    ws[W_STAMP] += 1
    if ws[W_STAMP] >= STAMP_LIMIT:
        tt[:] = 0
        ws[W_STAMP] = 1
    ws[W_CTX] = -1


@njit(cache=True)
def _root(ws, pos):
    """Load the position; (k, seat on move, suit led, winning seat, winning card, trick mask, broken)."""
    for s in range(4):
        ws[W_H + s] = pos[P_HANDS + s]
    leader = pos[P_LEADER]
    k = pos[P_NPLAYED]
    led = -1
    win_seat = -1
    win_card = -1
    tmask = 0
    for j in range(k):
        c = pos[P_TRICK + j]
        s = _after(ws, leader, j)
        tmask |= np.int64(1) << c
        if j == 0:
            led = card_suit(c)
            win_seat = s
            win_card = c
        elif beats(c, win_card):
            win_seat = s
            win_card = c
    return k, _after(ws, leader, k), led, win_seat, win_card, tmask, pos[P_BROKEN]


@njit(cache=True)
def _playout(ws, k, seat, led, win_seat, win_card, tmask, broken):
    """Team 0's tricks from a node (the trick in progress included) when every seat plays the first card
    of the move ordering: the first guess of a trick solve (the null-window searches then step from it,
    as DDS steps from a fixed guess). Runs on two spare frames of the stack; the hands are restored."""
    fb = W_FRAMES + FS * PLAYOUT_DEPTH
    nb = fb + FS
    ws[fb + F_K] = k
    ws[fb + F_SEAT] = seat
    ws[fb + F_LED] = led
    ws[fb + F_WSEAT] = win_seat
    ws[fb + F_WCARD] = win_card
    ws[fb + F_TM] = tmask
    ws[fb + F_BROKEN] = broken
    ws[fb + F_ACC] = 0
    ws[W_KILL + PLAYOUT_DEPTH] = -1
    h0 = ws[W_H]
    h1 = ws[W_H + 1]
    h2 = ws[W_H + 2]
    h3 = ws[W_H + 3]
    tricks = ws[W_TRICKS]
    while True:
        k = ws[fb + F_K]
        seat = ws[fb + F_SEAT]
        hand = ws[W_H + seat]
        if hand == 0:
            break
        led = ws[fb + F_LED]
        live = ws[W_H] | ws[W_H + 1] | ws[W_H + 2] | ws[W_H + 3] | ws[fb + F_TM]
        legal = _legal(ws, k, hand, led, ws[fb + F_BROKEN])
        _gen(ws, PLAYOUT_DEPTH, k, seat, led, ws[fb + F_WSEAT], ws[fb + F_WCARD], legal, live, -1, 1)
        ws[fb + F_HAND] = hand
        _make(ws, fb, ws[W_MOVES + MOVE_SLOTS * PLAYOUT_DEPTH] & 63)
        for f in range(F_ACC + 1):  # the child becomes the node
            ws[fb + f] = ws[nb + f]
    ws[W_H] = h0
    ws[W_H + 1] = h1
    ws[W_H + 2] = h2
    ws[W_H + 3] = h3
    ws[W_TRICKS] = tricks
    return ws[fb + F_ACC]


@njit(cache=True)
def _mtd(tt, ws, k, seat, led, win_seat, win_card, tmask, broken, acc, lo, hi, depth, guess):
    """The exact value in [lo, hi] by null-window searches: bisection, or (``guess`` >= 0) steps from a
    guess, for a value likely near it (the value of the card tried before)."""
    g = guess
    while lo < hi:
        if guess < 0:
            g = (lo + hi + 1) >> 1
        g = min(max(g, lo + 1), hi)
        if _search(tt, ws, k, seat, led, win_seat, win_card, tmask, broken, acc, g, depth) != 0:
            lo = g
            g += 1
        else:
            hi = g - 1
            g -= 1
    return lo


@njit(cache=True)
def _bounds(ws, k, seat, acc):
    """Range of the value from a node: trick mode team 0's tricks since the root, score mode an index."""
    if ws[W_MODE] == MODE_TRICKS:
        return acc, acc + popcount(ws[W_H + seat])
    return ws[W_MIN + acc], ws[W_MAX + acc]


@njit(cache=True)
def _root_values(tt, ws, pos, out):
    """Value of each legal card of the seat on move (in ``out[card]``, -1 elsewhere), from team 0's side
    (trick mode: team 0's tricks from the root; score mode: value index); returns the position's value."""
    one = np.int64(1)  # not the literal 1: a literal argument compiles _mtd and _search once more (P78)
    k, seat, led, win_seat, win_card, tmask, broken = _root(ws, pos)
    for c in range(out.shape[0]):
        out[c] = -1
    hand = ws[W_H + seat]
    live = ws[W_H] | ws[W_H + 1] | ws[W_H + 2] | ws[W_H + 3] | tmask
    legal = _legal(ws, k, hand, led, broken)
    if pos[P_FIRST] != 0:
        legal = hand & 1  # the 2♣ opens the hand
    p = pext(hand, live)
    starts = pext(_suit_starts(live), live)
    reps = pdep(p & ~((p << 1) & ~starts), live) & legal
    maxnode = _side(ws, seat) == 0
    best = -1
    mode = ws[W_MODE]
    # the root as frame 0, so that each card's child comes from _make as in the search
    fb = W_FRAMES
    nb = fb + FS
    ws[fb + F_K] = k
    ws[fb + F_SEAT] = seat
    ws[fb + F_LED] = led
    ws[fb + F_WSEAT] = win_seat
    ws[fb + F_WCARD] = win_card
    ws[fb + F_TM] = tmask
    ws[fb + F_BROKEN] = broken
    ws[fb + F_ACC] = 0
    ws[fb + F_HAND] = hand
    while reps != 0:
        c = lowest_bit(reps)
        reps &= reps - 1
        bit = np.int64(1) << c
        _make(ws, fb, c)
        nk = ws[nb + F_K]
        nseat = ws[nb + F_SEAT]
        nacc = ws[nb + F_ACC]
        lo, hi = _bounds(ws, nk, nseat, nacc)
        if nk != 0 and mode == MODE_TRICKS:
            hi = popcount(hand)  # tricks left, the current one included
        nled = ws[nb + F_LED]
        nws = ws[nb + F_WSEAT]
        nwc = ws[nb + F_WCARD]
        ntm = ws[nb + F_TM]
        nbroken = ws[nb + F_BROKEN]
        guess = best  # the value of a card is likely near the best so far
        if guess < 0 and mode == MODE_TRICKS:
            guess = nacc + _playout(ws, nk, nseat, nled, nws, nwc, ntm, nbroken)
        v = _mtd(tt, ws, nk, nseat, nled, nws, nwc, ntm, nbroken, nacc, lo, hi, one, guess)
        ws[W_H + seat] = hand
        ci = popcount(live & (bit - 1))
        x = (p & ~(starts & ~(np.int64(1) << ci))) >> ci
        run = pdep(((x ^ (x + 1)) >> 1) << ci, live) & legal
        while run != 0:
            out[lowest_bit(run)] = v
            run &= run - 1
        if best < 0 or (maxnode and v > best) or (not maxnode and v < best):
            best = v
    return best


@njit(cache=True)
def _root_value(tt, ws, pos):
    zero, one = np.int64(0), np.int64(1)  # never literals: each literal argument is another compile of the search (P78)
    k, seat, led, win_seat, win_card, tmask, broken = _root(ws, pos)
    if pos[P_FIRST] != 0:  # the 2♣ opens the hand: one move
        hand = ws[W_H + seat]
        ws[W_H + seat] = hand ^ 1
        hi = popcount(hand) if ws[W_MODE] == MODE_TRICKS else ws[W_MAX]
        lo = 0 if ws[W_MODE] == MODE_TRICKS else ws[W_MIN]
        nseat = _after(ws, seat, 1)
        guess = _playout(ws, one, nseat, zero, seat, zero, one, broken) if ws[W_MODE] == MODE_TRICKS else -1
        v = _mtd(tt, ws, one, nseat, zero, seat, zero, one, broken, zero, lo, hi, one, guess)
        ws[W_H + seat] = hand
        return v
    lo, hi = _bounds(ws, k, seat, 0)
    guess = -1
    if ws[W_MODE] == MODE_TRICKS:
        hi = popcount(ws[W_H + seat])
        guess = _playout(ws, k, seat, led, win_seat, win_card, tmask, broken)
    return _mtd(tt, ws, k, seat, led, win_seat, win_card, tmask, broken, zero, lo, hi, zero, guess)


# ------------------------------------------------------------------ compiled entry points
@njit(cache=True, nogil=True)
def set_rules_nb(ws, breaking, forced_spade_lead_breaks):
    """The two play rules the search needs besides ``phases.legal_*``: stored in ``ws``."""
    ws[W_BREAKING] = breaking
    ws[W_FORCED] = forced_spade_lead_breaks


@njit(cache=True, nogil=True)
def tricks_nb(tt, ws, pos):
    """Team 0's tricks from ``pos`` (the trick in progress included) under perfect play."""
    _new_solve(tt, ws, MODE_TRICKS)
    return _root_value(tt, ws, pos)


@njit(cache=True, nogil=True)
def card_values_nb(tt, ws, pos, out):
    """``out[card]`` = tricks the side on move takes from ``pos`` (the trick in progress included) after
    playing ``card``, for each legal card; -1 for the others. Returns the position's value (same side)."""
    _new_solve(tt, ws, MODE_TRICKS)
    seat = _root(ws, pos)[1]
    r = popcount(pos[P_HANDS + seat])
    best = _root_values(tt, ws, pos, out)
    if _side(ws, seat):
        for c in range(out.shape[0]):
            if out[c] >= 0:
                out[c] = r - out[c]
        return r - best
    return best


@njit(cache=True)
def _score_tables(ws, R):
    """Min / max reachable final value index of every counter index (children have larger indices)."""
    b = R + 1
    n = b * b * b * b
    used = np.zeros(4, np.int64)
    for s in range(4):
        st = ws[W_STRIDE + s]
        u = 0
        while st > 1:
            st //= b
            u += 1
        used[u] = 1
    for idx in range(n - 1, -1, -1):
        c0 = idx % b
        c1 = (idx // b) % b
        c2 = (idx // (b * b)) % b
        c3 = idx // (b * b * b)
        if (used[0] == 0 and c0 != 0) or (used[1] == 0 and c1 != 0) or (used[2] == 0 and c2 != 0) \
                or (used[3] == 0 and c3 != 0):
            continue
        t = c0 + c1 + c2 + c3
        if t > R:
            continue
        if t == R:
            ws[W_MIN + idx] = ws[W_LEAF + idx]
            ws[W_MAX + idx] = ws[W_LEAF + idx]
            continue
        lo = 1 << 40
        hi = -1
        st = 1
        for u in range(4):
            if used[u] != 0:
                lo = min(lo, ws[W_MIN + idx + st])
                hi = max(hi, ws[W_MAX + idx + st])
            st *= b
        ws[W_MIN + idx] = lo
        ws[W_MAX + idx] = hi


@njit(cache=True)
def _set_leaves(ws, R, vals, nv, leaf_vals):
    """Sort and index the final values ``leaf_vals`` (one per counter index, sum R)."""
    b = R + 1
    n = b * b * b * b
    u = np.unique(vals[:nv])
    if u.shape[0] > MAX_VALUES:
        raise ValueError("too many distinct final values")
    ws[W_NVALS] = u.shape[0]
    for i in range(u.shape[0]):
        ws[W_VALS + i] = u[i]
    for idx in range(n):
        if leaf_vals[idx] != -(1 << 62):
            ws[W_LEAF + idx] = np.searchsorted(u, leaf_vals[idx])


@njit(cache=True)
def _leaf_pass(ws, R, rules, bids, blind, taken, bags, cmap):
    b = R + 1
    n = b * b * b * b
    leaf_vals = np.full(n, -(1 << 62), np.int64)
    vals = np.empty(n, np.int64)
    nv = 0
    c = np.empty(4, np.int64)
    pts = np.zeros(2, np.int64)
    for idx in range(n):
        c[0] = idx % b
        c[1] = (idx // b) % b
        c[2] = (idx // (b * b)) % b
        c[3] = idx // (b * b * b)
        if c[0] + c[1] + c[2] + c[3] != R:
            continue
        ok = True
        for u in range(4):
            hit = False
            for s in range(4):
                if cmap[s] == u:
                    hit = True
            if not hit and c[u] != 0:
                ok = False
        if not ok:
            continue
        for t in range(2):
            a = t
            z = t + 2
            if cmap[a] == cmap[z]:
                ta = taken[a] + taken[z] + c[cmap[a]]
                tz = 0
            else:
                ta = taken[a] + c[cmap[a]]
                tz = taken[z] + c[cmap[z]]
            p, _, _, _, _ = team_hand(rules, bids[a], bids[z], blind[a], blind[z], ta, tz, bags[t])
            pts[t] = p
        v = pts[0] - pts[1]
        leaf_vals[idx] = v
        vals[nv] = v
        nv += 1
    return vals, nv, leaf_vals


@njit(cache=True, nogil=True)
def score_setup_nb(ws, rules, R, bids, blind, taken, bags):
    """Score mode for positions with ``R`` tricks left (the one in progress included): final values
    from ``phases.team_hand`` (``rules``: KernelRules), Nil bidders counted apart, partners of a team
    without Nil counted together."""
    b = R + 1
    cmap = np.zeros(4, np.int64)
    for t in range(2):
        if bids[t] != 0 and bids[t + 2] != 0:
            cmap[t] = t
            cmap[t + 2] = t
        else:
            cmap[t] = t
            cmap[t + 2] = t + 2
    for s in range(4):
        st = 1
        for _ in range(cmap[s]):
            st *= b
        ws[W_STRIDE + s] = st
        ws[W_GOAL + s] = -1 if bids[s] == 0 and taken[s] == 0 else 1
    vals, nv, leaf_vals = _leaf_pass(ws, R, rules, bids, blind, taken, bags, cmap)
    _set_leaves(ws, R, vals, nv, leaf_vals)
    _score_tables(ws, R)
    # without a Nil the value depends on team 0's tricks t alone; when it never falls as t grows, each team
    # wants as many tricks as it can get and the score game is the trick game: value = g(tricks)
    ws[W_MONO] = 0
    ws[W_MERGED] = 0
    ws[W_NIL] = 0
    if cmap[0] == cmap[2] and cmap[1] == cmap[3]:
        ws[W_MERGED] = 1
        mono = 1
        for t in range(R + 1):
            ws[W_G + t] = ws[W_LEAF + t + b * (R - t)]
            if t > 0 and ws[W_G + t] < ws[W_G + t - 1]:
                mono = 0
        ws[W_MONO] = mono


@njit(cache=True, nogil=True)
def nil_setup_nb(ws, R, nil_seat):
    """Nil mode: final value 1 when team 0 gets what it wants (its own Nil seat at zero tricks, or the
    other team's Nil seat at one or more), else 0."""
    b = R + 1
    n = b * b * b * b
    for s in range(4):
        ws[W_STRIDE + s] = 1 if s == nil_seat else b
        ws[W_GOAL + s] = 1 if s != nil_seat and _side(ws, s) == _side(ws, nil_seat) else -1  # its partner
    ws[W_MONO] = 0
    ws[W_MERGED] = 0
    ws[W_NIL] = nil_seat + 1
    ws[W_NVALS] = 2
    ws[W_VALS] = 0
    ws[W_VALS + 1] = 1
    own = _side(ws, nil_seat) == 0
    for idx in range(n):
        c0 = idx % b
        c1 = (idx // b) % b
        if idx != c0 + b * c1 or c0 + c1 != R:
            continue
        made = c0 == 0
        ws[W_LEAF + idx] = 1 if made == own else 0
    # counters 0 (the Nil seat) and 1 (everybody else)
    for idx in range(n - 1, -1, -1):
        c0 = idx % b
        c1 = (idx // b) % b
        if idx != c0 + b * c1:
            continue
        t = c0 + c1
        if t > R:
            continue
        if t == R:
            ws[W_MIN + idx] = ws[W_LEAF + idx]
            ws[W_MAX + idx] = ws[W_LEAF + idx]
            continue
        ws[W_MIN + idx] = min(ws[W_MIN + idx + 1], ws[W_MIN + idx + b])
        ws[W_MAX + idx] = max(ws[W_MAX + idx + 1], ws[W_MAX + idx + b])


@njit(cache=True, nogil=True)
def table_value_nb(tt, ws, pos):
    """Score / Nil mode (after ``score_setup_nb`` or ``nil_setup_nb``): the value index of ``pos``."""
    if ws[W_MONO] != 0:
        _new_solve(tt, ws, MODE_TRICKS)
        return ws[W_G + _root_value(tt, ws, pos)]
    _new_solve(tt, ws, MODE_TABLE)
    return _root_value(tt, ws, pos)


@njit(cache=True, nogil=True)
def table_card_values_nb(tt, ws, pos, out):
    """Score / Nil mode: ``out[card]`` = value index after each legal card (team 0's side), -1 elsewhere."""
    if ws[W_MONO] != 0:
        _new_solve(tt, ws, MODE_TRICKS)
        best = _root_values(tt, ws, pos, out)
        for c in range(out.shape[0]):
            if out[c] >= 0:
                out[c] = ws[W_G + out[c]]
        return ws[W_G + best]
    _new_solve(tt, ws, MODE_TABLE)
    return _root_values(tt, ws, pos, out)


@njit(cache=True, nogil=True)
def score_card_values_nb(tt, ws, pos, out):
    """Score mode (after ``score_setup_nb``): ``out[card]`` = the side on move's hand score minus the other
    side's after playing ``card`` (each legal card), ``-2**62`` elsewhere. Returns the position's value
    from the same side."""
    idx = np.empty(out.shape[0], np.int64)
    best = table_card_values_nb(tt, ws, pos, idx)
    seat = (pos[P_LEADER] + pos[P_NPLAYED]) & 3
    sign = -1 if _side(ws, seat) else 1
    for c in range(out.shape[0]):
        out[c] = sign * ws[W_VALS + idx[c]] if idx[c] >= 0 else NO_VALUE
    return sign * ws[W_VALS + best]



# ------------------------------------------------------------------ Python API
@dataclass(frozen=True)
class ScoreState:
    """What the hand's score depends on besides the cards: ``bids[s]`` (0 = Nil), ``blind[s]`` (1 for
    Blind Nil), ``taken[s]`` (tricks seat s has won so far this hand, the trick in progress excluded)
    and ``bags[t]`` (team t's running bags before this hand)."""

    bids: tuple[int, int, int, int]
    blind: tuple[int, int, int, int] = (0, 0, 0, 0)
    taken: tuple[int, int, int, int] = (0, 0, 0, 0)
    bags: tuple[int, int] = (0, 0)


class Solver:
    """A transposition table and a workspace, reused across solves (allocate once, solve many times).

    ``tt_bits``: log2 of the table's slots (48 bytes each; 2**20 = 48 MiB). ``probe``: the longest probe
    sequence (slots looked at from a key's own); ``nil_probe`` the same in the Nil question (default four times
    ``probe``: docs/performance.md P116). Not thread-safe: one solver per thread.
    """

    def __init__(self, tt_bits: int = 20, probe: int = 64, nil_probe: int | None = None):
        if not 8 <= tt_bits <= 28:
            raise ValueError(f"tt_bits={tt_bits}: use 8..28")
        self.tt = np.zeros(TT_WORDS << tt_bits, dtype=np.int64)
        self.ws = np.zeros(WS_SIZE, dtype=np.int64)
        self.ws[W_TTMASK] = (1 << tt_bits) - 1
        self.ws[W_PROBE] = probe
        self.ws[W_NPROBE] = min(4 * probe if nil_probe is None else nil_probe, 1 << tt_bits)
        self.ws[W_CTX] = -1  # the first solve starts generation 1 (0 marks empty slots)

    @property
    def nodes(self) -> int:
        """Nodes searched by the last solve."""
        return int(self.ws[W_NODES])

    def reset(self) -> None:
        """Forget the table's entries: the next solve starts from an empty table. (Trick-mode solves under
        the same play rules keep the entries of earlier ones otherwise: they are facts about positions,
        valid whatever the deal or the root, and they make later solves faster.)"""
        new_generation_nb(self.tt, self.ws)


def _kernel_rules(rules):
    from tricksim.simulator.games.spades.rules import SpadesRules

    if rules is None:
        rules = SpadesRules()
    if hasattr(rules, "to_kernel"):
        rules = rules.to_kernel()
    return rules


def position(hands, leader, trick=(), broken=False, rules=None, trick_no=None, seats=(4,)) -> np.ndarray:
    """Validate a position (arguments as ``dd_tricks``, the cards in the rules' deck: its suits and order; ``seats``:
    the table sizes allowed, the hands' count deciding: three hands for the questions of a seat alone at three
    seats); return its ``pos`` array (``P_*`` layout) for the compiled entry points, its cards in the rank space the
    solver plays (a deuce deck's renamed, decks.py). Raises ValueError, naming what is wrong."""
    rules = _kernel_rules(rules)
    hands = [int(h) for h in hands]
    trick = [int(c) for c in trick]
    n_seats = len(hands)
    if n_seats not in seats:
        raise ValueError(f"hands: need {' or '.join(map(str, seats))} masks, got {n_seats}")
    if not 0 <= int(leader) < n_seats:
        raise ValueError(f"leader {leader}: use a seat 0..{n_seats - 1}")
    leader = int(leader)
    if len(trick) > n_seats - 1:
        raise ValueError(f"trick: at most {n_seats - 1} cards already played, got {len(trick)}")
    deck = (1 << 54) - 1 if rules.jokers else (1 << 52) - 1
    seen = 0
    for s, h in enumerate(hands):
        if h < 0 or h & ~deck:
            raise ValueError(f"hand of seat {s}: cards outside the deck (mask {h:#x})")
        if h & seen:
            raise ValueError(f"hand of seat {s}: a card held twice")
        seen |= h
    for c in trick:
        if not 0 <= c < 54 or not (deck >> c) & 1:
            raise ValueError(f"trick card {c}: not a card of this deck")
        if (seen >> c) & 1:
            raise ValueError(f"trick card {c}: also in a hand")
        seen |= 1 << c
    k = len(trick)
    n = popcount(hands[(leader + k) % n_seats])
    for j in range(n_seats):
        s = (leader + j) % n_seats
        want = n - 1 if j < k else n
        if popcount(hands[s]) != want:
            raise ValueError(f"seat {s} holds {popcount(hands[s])} cards; {want} expected "
                             f"(seat {(leader + k) % n_seats} on move holds {n}, {k} card(s) played to the trick)")
    if n == 0:
        raise ValueError("no cards left to play")
    suit_of, suit_masks = decks.SUIT_OF[rules.deck], decks.SUIT_MASKS[rules.deck]
    if k > 0:
        led = int(suit_of[trick[0]])
        for j in range(1, k):
            s = (leader + j) % n_seats
            if int(suit_of[trick[j]]) != led and hands[s] & int(suit_masks[led]):
                raise ValueError(f"seat {s} did not follow suit to the trick although it holds that suit")
    if trick_no is None:
        trick_no = (17 if n_seats == 3 else 13) - popcount(hands[leader]) - (1 if k else 0)
    first = rules.first_lead == FIRST_LEAD_TWO_OF_CLUBS and trick_no == 0
    if first and k == 0 and not hands[leader] & 1:
        raise ValueError(f"first trick with first_lead=two_of_clubs: the leader (seat {leader}) must hold the 2C")
    if first and k > 0 and trick[0] != 0:
        raise ValueError("first trick with first_lead=two_of_clubs: the 2C must open it")
    if renames(rules.deck):
        hands = [int(ranked_mask(h, rules.deck)) for h in hands]
        trick = [int(ranked_card(c, rules.deck)) for c in trick]
    pos = np.zeros(P_SIZE, dtype=np.int64)
    pos[P_HANDS:P_HANDS + n_seats] = hands
    pos[P_TRIO] = 1 if n_seats == 3 else 0
    pos[P_LEADER] = leader
    pos[P_NPLAYED] = k
    pos[P_TRICK:P_TRICK + k] = trick
    pos[P_BROKEN] = 1 if broken else 0
    pos[P_FIRST] = 1 if first and k == 0 else 0
    return pos


def _prepare(hands, leader, trick, broken, rules, trick_no, solver, seats=(4,)):
    rules = _kernel_rules(rules)
    pos = position(hands, leader, trick, broken, rules, trick_no, seats)
    solver = solver if solver is not None else Solver()
    set_rules_nb(solver.ws, int(getattr(rules, "breaking", 1)), int(rules.forced_spade_lead_breaks))
    return rules, pos, solver


def dd_tricks(hands, leader, trick=(), broken=False, rules=None, *, trick_no=None, solver=None) -> int:
    """Team 0's tricks (seats 0 and 2) from this position, the trick in progress included, when each
    team maximises its own tricks.

    ``hands``: four ``int64`` masks of the cards each seat still holds (cards.py ids); ``leader``: the
    seat that leads (or led) the trick in progress; ``trick``: the cards already played to it, in
    order; ``broken``: spades broken now; ``rules``: ``SpadesRules`` or ``KernelRules`` (default: the
    cardems preset); ``trick_no``: the trick's number (default: 13 - cards the leader holds, the first
    trick for 13-card hands), which decides whether the 2♣ must open it.
    """
    rules, pos, solver = _prepare(hands, leader, trick, broken, rules, trick_no, solver)
    return int(tricks_nb(solver.tt, solver.ws, pos))


def card_values(hands, leader, trick=(), broken=False, rules=None, out=None, *, score: ScoreState | None = None,
                trick_no=None, solver=None) -> np.ndarray:
    """The value of each card of the seat on move, indexed by card id (54 entries, the ids of the rules' deck; -1
    for cards it cannot play, or ``NO_VALUE`` with ``score``).

    Without ``score``: the tricks the side on move takes from now (the trick in progress included)
    after playing the card, as DDS's ``SolveBoard`` gives them. With ``score``: the side on move's
    hand score minus the other side's after the card (see ``dd_score``).
    """
    rules, pos, solver = _prepare(hands, leader, trick, broken, rules, trick_no, solver)
    if out is None:
        out = np.empty(54, dtype=np.int64)
    if out.dtype != np.int64 or out.shape != (54,) or not out.flags.c_contiguous:
        raise ValueError("out: a C-contiguous int64 array of 54 entries")
    ranked = np.empty(64, dtype=np.int64) if renames(rules.deck) else out  # by rank-space id, named back below
    if score is None:
        card_values_nb(solver.tt, solver.ws, pos, ranked)
    else:
        _setup_score(solver, rules, pos, score)
        score_card_values_nb(solver.tt, solver.ws, pos, ranked)
    if ranked is not out:
        out[:] = ranked[decks.TO_RANKED[rules.deck, :54]]
    return out


def _tricks_left(pos) -> int:
    seat = (int(pos[P_LEADER]) + int(pos[P_NPLAYED])) & 3
    return popcount(int(pos[P_HANDS + seat]))


def _setup_score(solver, rules, pos, score: ScoreState):
    bids = np.array(score.bids, dtype=np.int64)
    blind = np.array(score.blind, dtype=np.int64)
    taken = np.array(score.taken, dtype=np.int64)
    bags = np.array(score.bags, dtype=np.int64)
    if bids.shape != (4,) or blind.shape != (4,) or taken.shape != (4,) or bags.shape != (2,):
        raise ValueError("score: bids, blind and taken need 4 entries, bags 2")
    if ((bids < 0) | (bids > 13)).any():
        raise ValueError(f"score.bids {score.bids}: each 0 (Nil) .. 13")
    if ((blind != 0) & (bids != 0)).any() or ((blind != 0) & (blind != 1)).any():
        raise ValueError("score.blind: 1 for a Blind Nil, only on a Nil bid (0); else 0")
    if (bags < 0).any():
        raise ValueError(f"score.bags {score.bags}: running bags are 0 or more")
    R = _tricks_left(pos)
    if (taken < 0).any() or taken.sum() + R > 13:
        raise ValueError(f"score.taken {score.taken}: tricks won so far plus the {R} left exceed 13")
    score_setup_nb(solver.ws, rules, R, bids, blind, taken, bags)


def dd_score(hands, leader, trick=(), broken=False, rules=None, *, score: ScoreState, trick_no=None,
             solver=None) -> int:
    """Team 0's hand score minus team 1's (RULES.md 1.4, with the bag penalty from ``score.bags``) when
    team 0 maximises that difference and team 1 minimises it, from this position."""
    rules, pos, solver = _prepare(hands, leader, trick, broken, rules, trick_no, solver)
    _setup_score(solver, rules, pos, score)
    idx = table_value_nb(solver.tt, solver.ws, pos)
    return int(solver.ws[W_VALS + idx])


def nil_makeable(hands, leader, trick=(), broken=False, rules=None, *, nil_seat: int, taken: int = 0,
                 trick_no=None, solver=None) -> bool:
    """Can ``nil_seat``'s side keep it at zero tricks from here, against defenders who try to make it win
    one? ``taken``: tricks it has already won this hand (any: the Nil has failed)."""
    if not 0 <= int(nil_seat) <= 3:
        raise ValueError(f"nil_seat {nil_seat}: use a seat 0..3")
    rules, pos, solver = _prepare(hands, leader, trick, broken, rules, trick_no, solver)
    if taken:
        return False
    nil_setup_nb(solver.ws, _tricks_left(pos), int(nil_seat))
    v = table_value_nb(solver.tt, solver.ws, pos)
    return bool(v == 1) if (int(nil_seat) & 1) == 0 else bool(v == 0)


# ------------------------------------------------------------------ each player alone (no partnerships)
@njit(cache=True, nogil=True)
def alone_tricks_nb(tt, ws, pos, seat):
    """Seat ``seat``'s tricks from ``pos`` (the trick in progress included), seat against the other three
    together, each side playing for its tricks (three seats with ``pos[P_TRIO]``: against the other two); the
    workspace is left to teams of four seats."""
    ws[W_TRIO] = pos[P_TRIO]
    set_sides_nb(ws, seat)
    v = tricks_nb(tt, ws, pos)
    set_sides_nb(ws, np.int64(-1))
    ws[W_TRIO] = 0
    return v


@njit(cache=True, nogil=True)
def alone_nil_nb(tt, ws, pos, seat):
    """1 when seat ``seat`` can take no trick from ``pos`` against the other three together playing to give it
    one, else 0 (no trick of the trick in progress won yet: the caller asks only then; three seats with
    ``pos[P_TRIO]``); the workspace is left to teams of four seats."""
    ws[W_TRIO] = pos[P_TRIO]
    set_sides_nb(ws, seat)
    mover = _after(ws, pos[P_LEADER], pos[P_NPLAYED])
    nil_setup_nb(ws, popcount(pos[P_HANDS + mover]), seat)
    v = table_value_nb(tt, ws, pos)
    set_sides_nb(ws, np.int64(-1))
    ws[W_TRIO] = 0
    return v


def _alone_seat(seat, hands) -> int:
    n = len(hands)
    if not 0 <= int(seat) < n:
        raise ValueError(f"seat {seat}: use a seat 0..{n - 1}")
    return int(seat)


def alone_tricks(hands, leader, seat, trick=(), broken=False, rules=None, *, trick_no=None, solver=None) -> int:
    """Without partnerships (each player alone, four seats, or three with three ``hands``): seat ``seat``'s tricks
    from this position when it plays for tricks and the other seats together play to keep them down. Arguments
    as ``dd_tricks``."""
    seat = _alone_seat(seat, hands)
    rules, pos, solver = _prepare(hands, leader, trick, broken, rules, trick_no, solver, (3, 4))
    return int(alone_tricks_nb(solver.tt, solver.ws, pos, seat))


def alone_nil(hands, leader, seat, trick=(), broken=False, rules=None, *, taken: int = 0, trick_no=None,
              solver=None) -> bool:
    """Without partnerships (four seats, or three with three ``hands``): can seat ``seat`` take no trick from here
    against the other seats together trying to make it win one? ``taken``: tricks it has already won this hand
    (any: the Nil failed)."""
    seat = _alone_seat(seat, hands)
    rules, pos, solver = _prepare(hands, leader, trick, broken, rules, trick_no, solver, (3, 4))
    if taken:
        return False
    return bool(alone_nil_nb(solver.tt, solver.ws, pos, seat) == 1)
