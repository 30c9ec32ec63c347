"""``random``: uniform over the legal choices at every decision, bids included.

Each decision draws once from the deal's play stream: a bid uniformly among pass and every contract
above the highest so far, a Chelem announcement with probability ``chelem_prob`` (0.5: uniform), a
poignée level uniformly among none and the levels allowed and then the cards shown: one of the pools
the rules allow for that level uniformly (``phases.poignee_pools``; one pool in most hands), then
uniformly any set of the required size from it; each discard and each card uniformly among the legal ones; five players: the called card uniformly among
the legal calls (``phases.call_legal``).
"""
import numpy as np
from numba import njit

from tricksim.simulator.bits import nth_set_bit, popcount
from tricksim.simulator.games.tarot.cards import FIRST_TRUMP
from tricksim.simulator.games.tarot.phases import POIGNEE_CARDS_BY_SEATS, call_legal, poignee_pools
from tricksim.simulator.games.tarot.policy import (
    CHOOSE_SIG,
    HAND_SIG,
    R_CALL_FOUR_KINGS,
    R_CALL_OWN,
    R_POIGNEE_EXCUSE,
    R_SEATS,
    V_MIN_BID,
    V_POIGNEE_BASE,
    V_POIGNEE_EXCUSE,
    V_POIGNEE_EXTRA,
    V_POIGNEE_MAX,
    V_RULES,
)
from tricksim.simulator.rng import rand_below, rand_float
from tricksim.strategies.tarot.meta.random import STRATEGY  # noqa: F401 (this module's strategy, registered in meta/random.py)

P_CHELEM_PROB = 0


@njit(cache=True)
def random_of(rng, legal_s, legal_t):
    """A uniformly chosen card of the legal (suits, trumps), as a card id."""
    n_s = popcount(legal_s)
    k = rand_below(rng, n_s + popcount(legal_t))
    if k < n_s:
        return nth_set_bit(legal_s, k)
    return FIRST_TRUMP + nth_set_bit(legal_t, k - n_s)


@njit(HAND_SIG, cache=True)
def bid(seat, suits, trumps, view, params, rng):
    lowest = view[V_MIN_BID]
    k = rand_below(rng, 1 + 5 - lowest)  # pass, or lowest..4
    return np.int64(0 if k == 0 else lowest + k - 1)


@njit(CHOOSE_SIG, cache=True)
def discard(seat, suits, trumps, legal_s, legal_t, view, params, rng):
    return random_of(rng, legal_s, legal_t)


@njit(HAND_SIG, cache=True)
def chelem(seat, suits, trumps, view, params, rng):
    return np.int64(rand_float(rng) < params[P_CHELEM_PROB])


@njit(cache=True)
def random_subset(rng, pool, n):
    """``n`` bits of ``pool`` chosen uniformly."""
    out = np.int64(0)
    for i in range(n):
        b = nth_set_bit(pool, rand_below(rng, popcount(pool)))
        out |= np.int64(1) << b
        pool &= ~(np.int64(1) << b)
    return out


@njit(HAND_SIG, cache=True)
def poignee(seat, suits, trumps, view, params, rng):
    level = rand_below(rng, view[V_POIGNEE_MAX] + 1)
    if level == 0:
        return np.int64(0)
    sizes = POIGNEE_CARDS_BY_SEATS[view[V_RULES + R_SEATS]]
    n = sizes[level]
    pools = poignee_pools(view[V_RULES + R_POIGNEE_EXCUSE], view[V_POIGNEE_BASE], view[V_POIGNEE_EXCUSE] != 0,
                          view[V_POIGNEE_EXTRA], n, sizes[3])
    k = 0
    for p in pools:
        if p != 0:
            k += 1
    pick = rand_below(rng, k)
    for p in pools:
        if p != 0:
            if pick == 0:
                return random_subset(rng, p, n)
            pick -= 1
    return np.int64(0)  # not reached: the level is allowed, so some pool is


@njit(HAND_SIG, cache=True)
def call(seat, suits, trumps, view, params, rng):
    """Five players: a legal call, uniformly."""
    legal = call_legal(view[V_RULES + R_CALL_OWN], view[V_RULES + R_CALL_FOUR_KINGS], suits)
    return np.int64(nth_set_bit(legal, rand_below(rng, popcount(legal))))


@njit(CHOOSE_SIG, cache=True)
def play(seat, suits, trumps, legal_s, legal_t, view, params, rng):
    return random_of(rng, legal_s, legal_t)
