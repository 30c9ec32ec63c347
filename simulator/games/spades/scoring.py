"""Spades scoring (RULES.md 1.4): one pure function for a team's hand, for scalars and arrays alike.

``team_hand`` is plain integer arithmetic (a condition on the cards is a 0/1
factor), so the same function scores one hand inside the compiled kernel
(``phases.py`` compiles it) and millions of recorded hands at once in the
analysis, which never imports numba. The game's end (RULES.md 1.5) is in
``phases.py``.
"""
from __future__ import annotations

from tricksim.simulator.games.spades.rules import CHOICES

NIL_TRICKS_CONTRACT = CHOICES["nil_tricks"].index("contract")
OVERFLOW_RESET = CHOICES["bag_overflow"].index("reset")
MERCY_BEFORE_TARGET = CHOICES["mercy_check"].index("before_target")
ZERO_BID_NIL = CHOICES["zero_bid"].index("nil")
BIG_SET_VALUE = CHOICES["big_bid_set"].index("value")

# game end codes (games column `end`)
END_NONE, END_TARGET, END_MERCY, END_LIMIT, END_OVERFLOW = 0, 1, 2, 3, 4
END_NAMES = ("", "target", "mercy", "limit")

NO_PARTNER = -1  # bid_b of ``team_hand`` for a player alone (cutthroat): its contract is its own bid


def team_hand(rules, bid_a, bid_b, blind_a, blind_b, tricks_a, tricks_b, bags_before):
    """One team's hand (seats a and b, bids 0 = Nil), under ``rules`` (``SpadesRules.to_kernel()``):
    ``(points, bags after, contract, made (1/0), bags taken)``. Scalars or arrays of int64.

    The contract is the sum of the non-Nil bids; a team with no contract (both Nil) makes it. With
    ``nil_tricks=bags`` a Nil bidder's tricks never count toward the contract and are bags (even when
    the contract fails, unless ``nil_bags_when_set=false``); with ``contract`` they count toward it.
    A condition that depends on the cards is a 0/1 factor, not a branch, so that the same code runs
    on one hand and on arrays of hands.

    With ``zero_bid=zero`` a bid of 0 is no Nil: a contract of zero tricks like any other. Ten for two
    hundred (``big_bid_threshold`` > 0): a contract of at least the threshold scores ``big_bid_value``
    instead of 10 a trick when made (bags as usual), and when set -10 a trick (``big_bid_set=tens``) or
    ``-big_bid_value`` (``value``).

    A player alone (cutthroat) is a team without seat b: ``bid_b = NO_PARTNER`` with ``blind_b`` and
    ``tricks_b`` 0 (seat b then has no Nil and adds nothing to the contract).
    """
    if rules.zero_bid == ZERO_BID_NIL:
        nil_a, nil_b = (bid_a == 0) * 1, (bid_b == 0) * 1
    else:  # a bid of 0 is no Nil
        nil_a, nil_b = bid_a * 0, bid_b * 0
    contract = bid_a + (bid_b > 0) * bid_b  # a Nil bid is 0, and so is NO_PARTNER
    if rules.nil_tricks == NIL_TRICKS_CONTRACT:
        toward = tricks_a + tricks_b  # a Nil bidder's tricks help the partner's contract ...
        nil_tricks = toward * 0       # ... and are bags only as overtricks
    else:
        toward = (1 - nil_a) * tricks_a + (1 - nil_b) * tricks_b
        nil_tricks = nil_a * tricks_a + nil_b * tricks_b
    made = (toward >= contract) * 1
    over = made * (toward - contract)
    nil_bags = nil_tricks if rules.nil_bags_when_set != 0 else made * nil_tricks
    blind_a1, blind_b1 = (blind_a != 0) * 1, (blind_b != 0) * 1
    value_a = blind_a1 * rules.blind_nil_value + (1 - blind_a1) * rules.nil_value
    value_b = blind_b1 * rules.blind_nil_value + (1 - blind_b1) * rules.nil_value
    nil_points = nil_a * (2 * (tricks_a == 0) - 1) * value_a + nil_b * (2 * (tricks_b == 0) - 1) * value_b
    if rules.big_bid_threshold > 0:  # ten for two hundred: one test of the rules, none of the terms without it
        big = (contract >= rules.big_bid_threshold) * 1
        made_points = big * rules.big_bid_value + (1 - big) * 10 * contract
        set_value = 1 if rules.big_bid_set == BIG_SET_VALUE else 0
        set_points = big * (set_value * rules.big_bid_value + (1 - set_value) * 10 * contract) + (1 - big) * 10 * contract
    else:
        made_points = 10 * contract
        set_points = made_points
    points = (made * (made_points + rules.bag_points * over) - (1 - made) * set_points
              + rules.nil_trick_points * nil_bags + nil_points)
    taken = over + nil_bags
    bags = bags_before + taken
    if rules.bag_overflow == OVERFLOW_RESET:
        hit = (bags >= rules.bag_limit) * 1
        points = points - hit * rules.bag_penalty
        bags = (1 - hit) * bags
    else:  # carry: a penalty for each full bag_limit, the rest carried
        penalties = bags // rules.bag_limit
        points = points - penalties * rules.bag_penalty
        bags = bags - penalties * rules.bag_limit
    return points, bags, contract, made, taken
