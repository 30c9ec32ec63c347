"""``simple``: the engine's baseline heuristic; deterministic and cheap.

Bid: expected tricks from aces, guarded kings, twice-guarded queens, top
spades, spades beyond the third and ruffable short suits, rounded; Nil when
it is below 1/2 and no spade is above the 9. Play: duck under a
partner who is winning, otherwise win as cheaply as possible, otherwise throw
the lowest card; lead the lowest card of the longest non-spade suit. As a Nil
bidder: the highest card that loses.
"""
import numpy as np
from numba import njit

from simulator.cards import SPADES, beats, card_rank, card_suit, lowest_bit, popcount
from simulator.interface import (BID_SIG, BLIND_NIL_SIG, EXCHANGE_SIG, EXCHANGE_GIVE_FIRST, PLAY_SIG, V_EXCHANGE_N,
                                 V_EXCHANGE_ROLE, V_MIN_BID, V_NIL_ALLOWED, V_NPLAYED, V_TRICK, V_WINNING_SEAT,
                                 V_BID)
from strategies.registry import Param, Strategy, register

SUIT_MASK = np.array([((1 << 13) - 1) << (13 * s) for s in range(4)], dtype=np.int64)
SUIT_MASK[3] |= (1 << 52) | (1 << 53)
NON_SPADES = (1 << 39) - 1
RANK_FIELD = (1 << 13) - 1
SUIT_STRIDE = 1 | (1 << 13) | (1 << 26)  # one bit per side suit at rank 0
NO_CARD = 62  # cheapest_winner: nothing wins
NO_CARD_BIT = np.int64(1) << NO_CARD

P_NIL, P_FORCE_NIL = 0, 1
NIL_BELOW = 0.5  # Nil when the expected tricks are below this (and no spade above the 9)
BID_SHIFT = 0.5  # added before rounding: contracts made 81 %, games about 15 hands (cardems self-play)


@njit(cache=True)
def estimate_tricks(hand):
    """Expected tricks: aces, guarded kings (3/4), twice-guarded queens (1/3),
    top spades, spades beyond the third, and short side suits that can be ruffed."""
    # Branch-free (conditions become 0/1 factors); the terms are added in a fixed order so that
    # the floating-point sum, and therefore the bid, is the same on every platform.
    spades = hand & SUIT_MASK[SPADES]
    n_spades = popcount(spades)
    est = 0.0
    top = np.int64(1) << 53  # big joker, then little joker, then A♠, K♠ ...
    for i in range(4):  # the top spades held, each with enough guards to survive
        est += 1.0 * (((spades & (top >> i)) != 0) & (n_spades > i))
    est += 0.8 * max(0, n_spades - 3)
    spare = max(0, n_spades - 2)  # spades left over for ruffing
    for s in range(3):
        m = hand & SUIT_MASK[s]
        n = popcount(m)
        ace = np.int64(1) << (13 * s + 12)
        est += 1.0 * ((m & ace) != 0)
        est += 0.75 * (((m & (ace >> 1)) != 0) & (n >= 2) & (n <= 4))
        est += 0.33 * (((m & (ace >> 2)) != 0) & (n >= 3) & (n <= 4))
        ruff = (n <= 1) & (spare > 0)
        est += 0.5 * ruff
        spare -= ruff
    return est


# The play helpers are written without data-dependent branches (both answers are computed and
# one is selected): on random deals such branches are mispredicted about half the time.
@njit(cache=True)
def cheapest(legal):
    """Lowest-ranked card, non-spades before spades (ties: the lower suit)."""
    side = legal & NON_SPADES
    # fold the three side suits onto one 13-bit rank field; the sentinel bits keep cttz defined
    r = lowest_bit(((side | (side >> 13) | (side >> 26)) & RANK_FIELD) | (1 << 13))
    c = r + lowest_bit(((side >> r) & SUIT_STRIDE) | (1 << 39))
    return c if side != 0 else lowest_bit(legal)


@njit(cache=True)
def cheapest_winner(legal, win_card):
    """Cheapest card of ``legal`` that beats ``win_card`` (non-spades first), or NO_CARD."""
    ws = card_suit(win_card)
    above = ~((np.int64(2) << win_card) - 1)
    spades = SUIT_MASK[SPADES]
    winners = (legal & SUIT_MASK[ws] & above) | (legal & spades & -np.int64(ws != SPADES))
    side = winners & ~spades
    return lowest_bit((side if side != 0 else winners) | NO_CARD_BIT)


@njit(cache=True)
def nil_card(legal, view):
    """A Nil bidder's card: the highest one that loses the trick, else the lowest."""
    if view[V_NPLAYED] == 0:
        return cheapest(legal)
    win_card = view[V_TRICK + view[V_WINNING_SEAT]]
    best = -1
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if not beats(c, win_card) and (best < 0 or card_rank(c) > card_rank(best)):
            best = c
    return best if best >= 0 else cheapest(legal)


@njit(BLIND_NIL_SIG, cache=True)
def blind_nil(seat, view, params, rng):
    return np.int64(0)


@njit(BID_SIG, cache=True)
def bid(seat, hand, view, params, rng):
    if params[P_FORCE_NIL] > 0 and view[V_NIL_ALLOWED] == 1:
        return np.int64(0)
    est = estimate_tricks(hand)
    high_spades = hand & SUIT_MASK[SPADES] & ~((np.int64(1) << 47) - 1)  # 9♠ is card 46
    if params[P_NIL] > 0 and view[V_NIL_ALLOWED] == 1 and est < NIL_BELOW and high_spades == 0:
        return np.int64(0)
    return np.int64(min(13, max(np.int64(est + BID_SHIFT + 0.5), view[V_MIN_BID])))


@njit(EXCHANGE_SIG, cache=True)
def exchange(seat, hand, view, params, rng):
    """Partner passes its lowest cards to the Blind Nil bidder; the bidder passes its highest back."""
    out = np.int64(0)
    for _ in range(view[V_EXCHANGE_N]):
        best = -1
        m = hand & ~out
        while m:
            c = lowest_bit(m)
            m &= m - 1
            if best < 0:
                best = c
            elif view[V_EXCHANGE_ROLE] == EXCHANGE_GIVE_FIRST:
                if card_rank(c) < card_rank(best):
                    best = c
            elif card_rank(c) > card_rank(best):
                best = c
        out |= np.int64(1) << best
    return out


@njit(PLAY_SIG, cache=True)
def play(seat, hand, legal, view, params, rng):
    if view[V_BID + seat] == 0:
        return nil_card(legal, view)
    if view[V_NPLAYED] == 0:
        # lead: lowest card of the longest non-spade suit we may lead (ties: the lower suit);
        # key = length * 4 + tie-break, so one max picks the suit without branches
        k = max(popcount(legal & SUIT_MASK[0]) * 4 + 3,
                max(popcount(legal & SUIT_MASK[1]) * 4 + 2, popcount(legal & SUIT_MASK[2]) * 4 + 1))
        if k < 4:  # only spades
            return lowest_bit(legal)
        return lowest_bit(legal & SUIT_MASK[3 - (k & 3)])
    ws = view[V_WINNING_SEAT]
    win = cheapest_winner(legal, view[V_TRICK + ws])
    low = cheapest(legal)
    return low if (ws == seat ^ 2) | (win == NO_CARD) else win


STRATEGY = register(Strategy(
    name="simple",
    description="baseline heuristic: count sure tricks, win cheaply, duck under partner",
    blind_nil=blind_nil, bid=bid, exchange=exchange, play=play,
    params=(Param("nil", 1.0, "bid Nil with no sure tricks and no spade above the 9 (1 = on, 0 = off)", lo=0, hi=1),
            Param("force_nil", 0.0, "always bid Nil when allowed (for what-if studies)", lo=0, hi=1)),
))
