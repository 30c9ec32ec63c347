"""``random``: a uniformly random legal card; bids from a sensible distribution.

Bids are Binomial(13, bid_p) (one uniform draw, inverted) clamped to the legal range (mean 3.25 tricks with
the default bid_p = 0.25, the average share of a player at four); at a table of n players and hands of H cards
(``phases.HAND_TRICKS``: 17 with three) Binomial(H, bid_p · 4/n), the same share of that table's tricks (mean
17/3 with three players); Nil with
probability ``nil_prob`` when allowed, Blind Nil with ``blind_nil_prob``. In a bidding variant (``bid_rule`` other than free) the same draws choose
among the variant's legal bids (``phases.legal_bids``): the only one when there is one, Nil with ``nil_prob`` when
it is legal, else the legal number nearest the binomial draw. The draw of two-handed Spades: keeps the card shown
or not with even odds.
"""
import numpy as np
from numba import njit

from tricksim.simulator.bits import lowest_bit
from tricksim.simulator.games.spades.kernel import compile_in
from tricksim.simulator.games.spades.phases import BID_FREE, HAND_TRICKS, legal_bids, nearest_legal_bid
from tricksim.simulator.games.spades.policy import (
    BID_SIG,
    BLIND_NIL_SIG,
    EXCHANGE_DRAW,
    EXCHANGE_SIG,
    PLAY_SIG,
    R_BID_RULE,
    R_SEATS,
    V_DRAW_CARD,
    V_EXCHANGE_N,
    V_EXCHANGE_ROLE,
    V_MIN_BID,
    V_NIL_ALLOWED,
    V_RULES,
)
from tricksim.simulator.rng import rand_float, random_card
from tricksim.strategies.spades.meta.random import STRATEGY  # noqa: F401 (this module's strategy, registered in meta/random.py)

P_BID_P, P_NIL_PROB, P_BLIND_NIL_PROB = 0, 1, 2
BINOMIAL_STEP = np.array([(13 - k) / (k + 1) for k in range(13)])


@njit(cache=True)
def binomial13(u, p):
    """Binomial(13, p) by inverting its CDF at the uniform ``u`` (one draw instead of 13)."""
    if p >= 1.0:
        return 13
    q = 1.0 - p
    q2 = q * q
    q4 = q2 * q2
    pk = q4 * q4 * q4 * q  # P(0) = q**13 by multiplication (pow is the slow part of a bid)
    odds = p / q
    cdf = pk
    k = 0
    while u >= cdf and k < 13:
        pk *= BINOMIAL_STEP[k] * odds  # P(k+1) / P(k) = (13 - k) / (k + 1) * p / q
        k += 1
        cdf += pk
    return k


@njit(cache=True)
def binomial(u, p, n):
    """Binomial(n, p) by inverting its CDF at the uniform ``u``: :func:`binomial13` for n = 13 (the same draws
    as before other hand sizes existed)."""
    if n == 13:
        return binomial13(u, p)
    if p >= 1.0:
        return n
    q = 1.0 - p
    pk = q ** n
    odds = p / q
    cdf = pk
    k = 0
    while u >= cdf and k < n:
        pk *= (n - k) / (k + 1) * odds
        k += 1
        cdf += pk
    return k


@njit(cache=True)
def table_bid(u, view, params):
    """The binomial bid of the table in ``view`` (module docstring): Binomial(H, bid_p · 4/n), H the hand's
    tricks and n the players (a view without rules, seats 0, is of four)."""
    n = view[V_RULES + R_SEATS]
    tricks = HAND_TRICKS[n & 7]
    p = params[P_BID_P] if n == 4 or n == 0 else min(1.0, params[P_BID_P] * 4.0 / n)
    # binomial13 called here, not through binomial: only a direct call is inlined into the kernel's bid
    return (binomial13(u, p) if tricks == 13 else binomial(u, p, tricks)), tricks


@njit(BLIND_NIL_SIG, cache=True)
def blind_nil(seat, view, params, rng):
    return np.int64(rand_float(rng) < params[P_BLIND_NIL_PROB])


@njit(BID_SIG, cache=True)
def bid(seat, hand, view, params, rng):
    if view[V_RULES + R_BID_RULE] != BID_FREE:  # a bidding variant (docs/rules.md): only its legal bids
        legal = legal_bids(view, hand)
        if legal & (legal - 1) == 0:
            return lowest_bit(legal)
        if legal & 1 and rand_float(rng) < params[P_NIL_PROB]:
            return np.int64(0)
        return nearest_legal_bid(legal & ~np.int64(1), table_bid(rand_float(rng), view, params)[0])
    if view[V_NIL_ALLOWED] == 1 and rand_float(rng) < params[P_NIL_PROB]:
        return np.int64(0)
    b, tricks = table_bid(rand_float(rng), view, params)
    return np.int64(min(tricks, max(b, view[V_MIN_BID])))



@njit(EXCHANGE_SIG, cache=True)
def exchange(seat, hand, view, params, rng):
    if view[V_EXCHANGE_ROLE] == EXCHANGE_DRAW:  # two-handed: keep the card shown, or not, at even odds
        return np.int64(1) << view[V_DRAW_CARD] if rand_float(rng) < 0.5 else np.int64(0)
    out = np.int64(0)
    for _ in range(view[V_EXCHANGE_N]):
        out |= np.int64(1) << random_card(rng, hand & ~out)
    return out


@njit(PLAY_SIG, cache=True)
def play(seat, hand, legal, view, params, rng):
    return random_card(rng, legal)


# self-play gets a kernel with this strategy compiled in (docs/performance.md P4)
compile_in(__name__, blind_nil, bid, play)
