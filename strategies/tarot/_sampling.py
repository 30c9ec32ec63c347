"""Sampling the cards a Tarot seat cannot see (issue #29): the deals of the unseen cards consistent with what the
table has shown, for the searches that play sampled deals out (``pimc``'s card and deal searches, the
``heuristic``'s Chelem announcement). It imports neither strategy, so that both can use it; the leading underscore
keeps it out of the strategy registry, which takes every public module of the package for a strategy.

``hidden_piles`` lists the places the unseen cards may be and what each may hold, ``sample_deal`` deals them once,
``sampled_hands`` puts a sampled deal into every seat's hand (``deal_arrays``: the arrays these two fill;
strategies/tarot/pimc.py's docstring and docs/strategies.md have the method); ``fresh_tally`` is the tally as the
bidding begins, for play-outs that start before the play.
"""
import numpy as np
from numba import njit

from tricksim.simulator.bits import lowest_bit, popcount
from tricksim.simulator.games.tarot import phases
from tricksim.simulator.games.tarot.cards import EXCUSE, FIRST_TRUMP, KINGS_S, N_CARDS
from tricksim.simulator.games.tarot.policy import (
    N_SEATS,
    V_CHIEN_S,
    V_CHIEN_T,
    V_CONTRACT,
    V_DEALER,
    V_DISCARD_T,
    V_NPLAYED,
    V_PLAY_CARD,
    V_PLAY_SEAT,
    V_PLAYED_S,
    V_PLAYED_T,
    V_POIGNEE,
    V_POIGNEE_T,
    V_TAKER,
    V_TO_DISCARD,
    V_TRICK_NO,
    V_VOIDS,
    rules_of,
)
from tricksim.simulator.rng import rand_below

ALL_SUITS = np.int64((1 << 56) - 1)
ALL_TRUMPS = np.int64((1 << 22) - 1)
EXCUSE_T = np.int64(1) << (EXCUSE - FIRST_TRUMP)
MAX_PILES = N_SEATS  # the other seats (at most four) and the hidden pile


@njit(cache=True)
def _has(s_word, t_word, c):
    if c < FIRST_TRUMP:
        return (s_word >> c) & 1 == 1
    return (t_word >> (c - FIRST_TRUMP)) & 1 == 1


# ------------------------------------------------------------------ sampling
@njit(cache=True)
def hidden_piles(seat, suits, trumps, view, pile_seat, need, known_s, known_t, allow_s, allow_t, only_s):
    """The places the unseen cards may be: pile ``p`` is seat ``pile_seat[p]``'s hand, or the hidden pile
    (``pile_seat[p]`` -1: the chien of a Garde sans or contre, the discard of a Prise or Garde); ``need[p]``
    cards to deal there beyond the ``known_s/_t[p]`` it surely holds; ``allow_s/_t[p]`` the cards it may hold.
    ``only_s``: the chien's cards (suits word) that only the taker or the discard may hold. Returns
    (the number of piles, the unseen cards left to deal as (suits, trumps)); -1 piles when the counts fail."""
    rules = rules_of(view)
    n = rules.seats
    taker = view[V_TAKER]
    contract = view[V_CONTRACT]
    chien_s = view[V_CHIEN_S]
    chien_t = view[V_CHIEN_T]
    shown_chien = phases.takes_chien(contract) and (chien_s | chien_t) != 0  # not yet in the bidding and the call
    discard_t = view[V_DISCARD_T]
    played_s = view[V_PLAYED_S]
    played_t = view[V_PLAYED_T]
    unseen_s = ALL_SUITS & ~suits & ~played_s
    unseen_t = ALL_TRUMPS & ~trumps & ~played_t & ~discard_t
    hand = phases.hand_cards(n)
    # what each seat has played, and the trumps it cannot hold above a trick's highest trump it played under
    n_played = np.zeros(N_SEATS, np.int64)
    ceiling = np.full(N_SEATS, ALL_TRUMPS, np.int64)
    t_now = view[V_TRICK_NO]
    total = n * t_now + view[V_NPLAYED]
    high = np.int64(-1)
    for i in range(total):
        if i % n == 0:
            high = -1
        c = view[V_PLAY_CARD + i]
        s = view[V_PLAY_SEAT + i]
        n_played[s] += 1
        if FIRST_TRUMP <= c < EXCUSE:
            b = c - FIRST_TRUMP
            if b < high:  # it played under: it held no trump above the highest
                ceiling[s] &= (np.int64(2) << high) - 1 | EXCUSE_T
            else:
                high = b
    p = 0
    for j in range(1, n):
        o = (seat + j) % n
        pile_seat[p] = o
        ks = np.int64(0)
        kt = view[V_POIGNEE_T + o] & unseen_t if view[V_POIGNEE + o] > 0 else np.int64(0)
        if o == taker and shown_chien:  # the chien's kings and trumps not discarded stay with the taker
            ks |= chien_s & KINGS_S & unseen_s
            kt |= chien_t & unseen_t
        known_s[p] = ks
        known_t[p] = kt
        need[p] = hand - n_played[o] - popcount(ks) - popcount(kt)
        voids = view[V_VOIDS + o]
        a_s = np.int64(0)
        for u in range(4):
            if (voids >> u) & 1 == 0:
                a_s |= np.int64((1 << 14) - 1) << (14 * u)
        a_t = ceiling[o] if (voids >> 4) & 1 == 0 else EXCUSE_T
        allow_s[p] = a_s
        allow_t[p] = a_t
        p += 1
    # the hidden pile
    pile_seat[p] = -1
    known_s[p] = 0
    known_t[p] = 0
    only = np.int64(0)
    if shown_chien:
        if seat == taker:  # the chien's cards it no longer holds and never played are in its discard
            known_s[p] = chien_s & unseen_s
        else:
            only = chien_s & ~KINGS_S & unseen_s
        # the discard so far: all of it but while the taker is discarding (V_TO_DISCARD cards still to go)
        need[p] = phases.chien_cards(n) - view[V_TO_DISCARD] - popcount(discard_t) - popcount(known_s[p])
        allow_s[p] = ALL_SUITS & ~KINGS_S
        allow_t[p] = 0
    else:  # the chien: hidden (the bidding, the call, a Garde sans or contre)
        need[p] = phases.chien_cards(n)
        allow_s[p] = ALL_SUITS
        allow_t[p] = ALL_TRUMPS
    p += 1
    free_s = unseen_s
    free_t = unseen_t
    total_need = 0
    for q in range(p):
        free_s &= ~known_s[q]
        free_t &= ~known_t[q]
        if need[q] < 0:
            return -1, free_s, free_t
        total_need += need[q]
    only_s[0] = only & free_s
    if total_need != popcount(free_s) + popcount(free_t):
        return -1, free_s, free_t
    return p, free_s, free_t


@njit(cache=True)
def sample_deal(n_piles, pile_seat, need, known_s, known_t, allow_s, allow_t, only_s, free_s, free_t, taker,
                local, tries, out_s, out_t):
    """One deal of the free cards into the piles: ``out_s/_t[p]`` pile p's cards (its known ones included).
    Cards with the fewest places go first, each to a place that may hold it with probability proportional
    to its room. Returns 1 when every constraint was met, 0 when the voids had to be dropped."""
    cards = np.empty(N_CARDS, np.int64)
    n_cards = 0
    m = free_s
    while m:
        cards[n_cards] = lowest_bit(m)
        n_cards += 1
        m &= m - 1
    m = free_t
    while m:
        cards[n_cards] = FIRST_TRUMP + lowest_bit(m)
        n_cards += 1
        m &= m - 1
    places = np.zeros(N_CARDS, np.int64)  # bit p: pile p may hold the card
    order = np.empty(N_CARDS, np.int64)
    room = np.empty(MAX_PILES, np.int64)
    taker_pile = -1
    for q in range(n_piles):
        if pile_seat[q] == taker:
            taker_pile = q
    for attempt in range(tries + 1):
        relaxed = attempt == tries
        for i in range(n_cards):
            c = cards[i]
            bits = np.int64(0)
            for q in range(n_piles):
                if need[q] > 0 and (relaxed and pile_seat[q] >= 0 or _has(allow_s[q], allow_t[q], c)):
                    bits |= np.int64(1) << q
            if c < FIRST_TRUMP and (only_s[0] >> c) & 1:
                keep = np.int64(1) << (n_piles - 1)
                if taker_pile >= 0:
                    keep |= np.int64(1) << taker_pile
                bits &= keep
            places[i] = bits
        # the most constrained cards first, in random order among equals
        k = 0
        for width in range(1, n_piles + 1):
            start = k
            for i in range(n_cards):
                if popcount(places[i]) == width:
                    order[k] = i
                    k += 1
            for i in range(k - 1, start, -1):
                j = start + rand_below(local, i - start + 1)
                order[i], order[j] = order[j], order[i]
        ok = k == n_cards  # a card no place may hold: deal again without the voids
        for q in range(n_piles):
            room[q] = need[q]
            out_s[q] = known_s[q]
            out_t[q] = known_t[q]
        for x in range(k):
            if not ok:
                break
            i = order[x]
            c = cards[i]
            total = 0
            for q in range(n_piles):
                if (places[i] >> q) & 1:
                    total += room[q]
            if total == 0:
                ok = False
                break
            r = rand_below(local, total)
            for q in range(n_piles):
                if (places[i] >> q) & 1:
                    if r < room[q]:
                        room[q] -= 1
                        if c < FIRST_TRUMP:
                            out_s[q] |= np.int64(1) << c
                        else:
                            out_t[q] |= np.int64(1) << (c - FIRST_TRUMP)
                        break
                    r -= room[q]
        if ok:
            return 0 if relaxed else 1
    return -1


@njit(cache=True)
def new_piles(seat, suits, trumps, view):
    """``hidden_piles`` in fresh arrays: (n_piles, pile_seat, need, known_s, known_t, allow_s, allow_t, only_s,
    free_s, free_t), the arguments ``sample_deal`` takes."""
    pile_seat = np.zeros(MAX_PILES, np.int64)
    need = np.zeros(MAX_PILES, np.int64)
    known_s = np.zeros(MAX_PILES, np.int64)
    known_t = np.zeros(MAX_PILES, np.int64)
    allow_s = np.zeros(MAX_PILES, np.int64)
    allow_t = np.zeros(MAX_PILES, np.int64)
    only_s = np.zeros(1, np.int64)
    n_piles, free_s, free_t = hidden_piles(seat, suits, trumps, view, pile_seat, need, known_s, known_t, allow_s,
                                           allow_t, only_s)
    return n_piles, pile_seat, need, known_s, known_t, allow_s, allow_t, only_s, free_s, free_t


@njit(inline="always", cache=True)  # inlined: the Chelem play-outs' code stays as it was written out (P126)
def deal_arrays():
    """Fresh arrays for the deals ``sample_deal`` makes: (out_s, out_t) its piles, (hs, ht) every seat's hand
    (``sampled_hands``)."""
    return (np.zeros(MAX_PILES, np.int64), np.zeros(MAX_PILES, np.int64), np.zeros(N_SEATS, np.int64),
            np.zeros(N_SEATS, np.int64))


@njit(cache=True)
def sampled_hands(seat, suits, trumps, n_piles, pile_seat, out_s, out_t, hs, ht):
    """Every seat's hand of a sampled deal into ``hs``/``ht``: the searching seat's own, the other seats' piles."""
    hs[seat] = suits
    ht[seat] = trumps
    for q in range(n_piles - 1):
        hs[pile_seat[q]] = out_s[q]
        ht[pile_seat[q]] = out_t[q]


@njit(cache=True)
def fresh_tally(rules, view):
    """The tally as the bidding begins (``phases.start_deal``'s, on a scratch view)."""
    tally = np.zeros(phases.N_TALLY, np.int64)
    phases.start_deal(rules, np.zeros(view.shape[0], np.int64), tally, view[V_DEALER])
    return tally
