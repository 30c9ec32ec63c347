"""``random``: uniform over the legal choices at every decision, bids included.

Each decision draws once from the deal's play stream: a bid uniformly among pass and every contract
above the highest so far, a Chelem announcement with probability ``chelem_prob`` (0.5: uniform), a
poignée level uniformly among none and the levels allowed, each discard and each card uniformly
among the legal ones.
"""
import numpy as np
from numba import njit

from tricksim.simulator.bits import nth_set_bit, popcount
from tricksim.simulator.games.tarot.cards import FIRST_TRUMP
from tricksim.simulator.games.tarot.policy import CHOOSE_SIG, HAND_SIG, V_MIN_BID, V_POIGNEE_MAX
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


@njit(HAND_SIG, cache=True)
def poignee(seat, suits, trumps, view, params, rng):
    return rand_below(rng, view[V_POIGNEE_MAX] + 1)


@njit(CHOOSE_SIG, cache=True)
def play(seat, suits, trumps, legal_s, legal_t, view, params, rng):
    return random_of(rng, legal_s, legal_t)
