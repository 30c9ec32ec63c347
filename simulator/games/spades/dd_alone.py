"""Double dummy without partnerships (issue #28): a seat alone against the others together, at 2, 3 or 4 seats.

``dd.py`` solves two teams of two at four seats; without partnerships each player is alone, so a seat's
double-dummy tricks are those it takes when it plays for tricks and the other seats together play to keep
them down (the worst case for it: the others are one side), and its Nil is made when it can keep at zero
tricks against the others together playing to give it one. One search answers both: "can the seats of
``maxers`` bring the tricks won by the seats of ``counted`` to ``thr`` or more?" (tricks: counted = maxers =
{seat}; Nil: counted = {seat}, maxers = the others, thr = 1).

Null-window alpha-beta on that question, iterated on ``thr`` by bisection, with a table of bounds on the
tricks to come at trick starts (exact positions: every hand, the leader, broken) and cards touching in rank
(no live card between them, the trick's included) played as one move. Trick order: seat + 1 mod n. Legal
cards from ``phases.legal_leads`` / ``legal_follows``, as ``dd.py``, in the rank space (decks.py): a deuce deck's
hands renamed (``cards.ranked_mask``) before the search.
Recursive, so compiled per process (Numba caches no recursive function): a few seconds on the first call.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from tricksim.simulator.bits import lowest_bit, popcount
from tricksim.simulator.games.spades import phases
from tricksim.simulator.games.spades.cards import SPADES, SUIT_MASKS, beats, card_suit, ranked_mask, renames
from tricksim.simulator.games.spades.dd import run_reps
from tricksim.simulator.games.spades.decks import RANK_SPACE

TT_BITS = 18
SPADE_MASK = SUIT_MASKS[SPADES]
_LeadRules = namedtuple("_LeadRules", ["first_lead", "breaking", "deck"])


@njit(cache=True)
def _slot(h, n, leader, broken, mask):
    x = np.int64(leader * 2 + broken + 1)
    for s in range(n):  # modulo a prime below 2**31: no int64 overflow (none to warn of without the JIT either)
        x = (x * 1000003 + (h[s] ^ (h[s] >> 29)) % 2147483647) % 2147483647
    return x & mask


@njit
def _search(h, n, k, seat, led, win_seat, win_card, tmask, broken, acc, thr, counted, maxers, breaking,
            forced, first, tkeys, tlb, tub):
    """1 when ``maxers`` can bring the ``counted`` seats' tricks (``acc`` so far) to ``thr``, else 0."""
    hand = h[seat]
    slot = np.int64(-1)
    if k == 0:
        need = thr - acc
        if need <= 0:
            return 1
        left = popcount(hand)
        if need > left:
            return 0
        slot = _slot(h, n, seat, broken, tlb.shape[0] - 1)
        same = tkeys[slot, n] == seat * 2 + broken
        for s in range(n):
            same = same and tkeys[slot, s] == h[s]
        if same:
            if tlb[slot] >= need:
                return 1
            if tub[slot] < need:
                return 0
        else:
            for s in range(n):
                tkeys[slot, s] = h[s]
            tkeys[slot, n] = seat * 2 + broken
            for s in range(n, 4):
                tkeys[slot, s + 1] = -1
            tlb[slot] = 0
            tub[slot] = left
        if first != 0:
            legal = hand & 1  # the 2♣ opens the hand
        else:
            legal = phases.legal_leads(_LeadRules(0, breaking, RANK_SPACE), 1, hand, broken)
    else:
        legal = phases.legal_follows(_LeadRules(0, 0, RANK_SPACE), hand, led)
    live = tmask
    for s in range(n):
        live |= h[s]
    moves = run_reps(hand, live, legal)
    is_max = (maxers >> seat) & 1
    res = 0 if is_max else 1
    while moves != 0:
        c = lowest_bit(moves)
        moves &= moves - 1
        bit = np.int64(1) << c
        h[seat] = hand ^ bit
        nbroken = broken
        suit = card_suit(c)
        if k == 0:
            nled, nws, nwc = suit, seat, c
            if suit == SPADES and broken == 0 and forced != 0 and (hand & ~bit & ~SPADE_MASK) == 0:
                nbroken = 1  # a forced spade lead (phases.apply_lead)
        else:
            nled, nws, nwc = led, win_seat, win_card
            if suit != led and suit == SPADES:
                nbroken = 1
            if beats(c, win_card):
                nws, nwc = seat, c
        if k == n - 1:
            r = _search(h, n, 0, nws, -1, -1, -1, np.int64(0), nbroken, acc + ((counted >> nws) & 1), thr,
                        counted, maxers, breaking, forced, 0, tkeys, tlb, tub)
        else:
            r = _search(h, n, k + 1, (seat + 1) % n, nled, nws, nwc, tmask | bit, nbroken, acc, thr, counted,
                        maxers, breaking, forced, 0, tkeys, tlb, tub)
        h[seat] = hand
        if r == is_max:  # a cut-off: a maximiser reached thr, or a minimiser kept it below
            res = r
            break
    if slot >= 0:
        need = thr - acc
        # the entry may have been replaced by a position below: store only into our own
        same = tkeys[slot, n] == seat * 2 + broken
        for s in range(n):
            same = same and tkeys[slot, s] == h[s]
        if same:
            if res == 1:
                tlb[slot] = max(tlb[slot], need)
            else:
                tub[slot] = min(tub[slot], need - 1)
    return res


@njit
def value_nb(h, n, leader, broken, counted, maxers, breaking, forced, first, tkeys, tlb, tub):
    """The counted seats' tricks from a trick start, ``maxers`` raising them and the other seats lowering."""
    lo = 0
    hi = popcount(h[leader])
    while lo < hi:
        g = (lo + hi + 1) >> 1
        if _search(h, n, 0, leader, -1, -1, -1, np.int64(0), broken, 0, g, counted, maxers, breaking, forced,
                   first, tkeys, tlb, tub) != 0:
            lo = g
        else:
            hi = g - 1
    return lo


class AloneSolver:
    """A table (bounds at trick starts) for one rule set, emptied at each question (its entries depend on it)."""

    def __init__(self, rules, tt_bits: int = TT_BITS):
        self.k = rules.to_kernel() if hasattr(rules, "to_kernel") else rules
        self.keys = np.full((1 << tt_bits, 5), -1, np.int64)
        self.lb = np.zeros(1 << tt_bits, np.int64)
        self.ub = np.zeros(1 << tt_bits, np.int64)

    def _value(self, hands, leader, broken, counted, maxers, first) -> int:
        self.keys[:] = -1
        deck = self.k.deck
        h = np.array([ranked_mask(x, deck) if renames(deck) else x for x in hands], dtype=np.int64)
        return int(value_nb(h, len(h), int(leader), int(broken), int(counted), int(maxers), int(self.k.breaking),
                            int(self.k.forced_spade_lead_breaks), int(first), self.keys, self.lb, self.ub))

    def tricks(self, hands, leader, seat, *, broken=False, first=False) -> int:
        """Seat ``seat``'s tricks when it plays for tricks and every other seat plays against it."""
        return self._value(hands, leader, broken, 1 << seat, 1 << seat, first)

    def nil(self, hands, leader, seat, *, broken=False, first=False) -> bool:
        """Whether seat ``seat`` can take no trick against the other seats together playing to give it one."""
        others = ((1 << len(hands)) - 1) & ~(1 << seat)
        return self._value(hands, leader, broken, 1 << seat, others, first) == 0
