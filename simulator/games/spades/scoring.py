"""Spades scoring (RULES.md 1.4) and game end (1.5): pure functions of the bids, tricks and totals.

Compiled for the kernel and the step API (``phases.score``); ``score_hand`` and
``game_end`` in ``kernel.py`` wrap them for Python callers.
"""
from __future__ import annotations

from numba import njit

from tricksim.simulator.games.spades.rules import CHOICES, NO_MERCY

NIL_TRICKS_CONTRACT = CHOICES["nil_tricks"].index("contract")
OVERFLOW_RESET = CHOICES["bag_overflow"].index("reset")
MERCY_BEFORE_TARGET = CHOICES["mercy_check"].index("before_target")

# game end codes (games column `end`)
END_NONE, END_TARGET, END_MERCY, END_LIMIT, END_OVERFLOW = 0, 1, 2, 3, 4
END_NAMES = ("", "target", "mercy", "limit")


@njit(cache=True)
def score_team(kr, bid_a, bid_b, blind_a, blind_b, tricks_a, tricks_b, bags_before):
    """Points and running bags after one hand for one team (RULES.md 1.4)."""
    contract = 0
    k = 0  # tricks of the non-Nil bidder(s)
    n = 0  # tricks of the Nil bidder(s)
    nil_points = 0
    for i in range(2):
        b = bid_a if i == 0 else bid_b
        bl = blind_a if i == 0 else blind_b
        t = tricks_a if i == 0 else tricks_b
        if b == 0:
            n += t
            v = kr.blind_nil_value if bl != 0 else kr.nil_value
            nil_points += v if t == 0 else -v
        else:
            contract += b
            k += t
    if kr.nil_tricks == NIL_TRICKS_CONTRACT:
        k += n  # a Nil bidder's tricks help the partner's contract ...
        n = 0   # ... and are bags only as overtricks
    if k >= contract:
        over = k - contract
        points = 10 * contract + kr.bag_points * over
        nil_bags = n
    else:
        over = 0
        points = -10 * contract
        nil_bags = n if kr.nil_bags_when_set != 0 else 0
    points += kr.nil_trick_points * nil_bags + nil_points
    bags = bags_before + over + nil_bags
    if bags >= kr.bag_limit:
        if kr.bag_overflow == OVERFLOW_RESET:
            points -= kr.bag_penalty
            bags = 0
        else:
            while bags >= kr.bag_limit:
                points -= kr.bag_penalty
                bags -= kr.bag_limit
    return points, bags


@njit(cache=True)
def _target_winner(kr, t0, t1):
    if (t0 >= kr.target or t1 >= kr.target) and t0 != t1:
        return 0 if t0 > t1 else 1
    return -1


@njit(cache=True)
def _mercy_winner(kr, t0, t1):
    if kr.mercy == NO_MERCY:
        return -1
    m0 = t0 <= kr.mercy
    m1 = t1 <= kr.mercy
    if m0 and m1:
        if t0 == t1:
            return -1
        return 0 if t0 > t1 else 1
    if m0:
        return 1
    if m1:
        return 0
    return -1


@njit(cache=True)
def check_game_end(kr, t0, t1):
    """(winner, end code) after a hand; winner -1 and END_NONE while the game goes on."""
    if kr.mercy_check == MERCY_BEFORE_TARGET:
        w = _mercy_winner(kr, t0, t1)
        if w >= 0:
            return w, END_MERCY
    w = _target_winner(kr, t0, t1)
    if w >= 0:
        return w, END_TARGET
    if kr.mercy_check != MERCY_BEFORE_TARGET:
        w = _mercy_winner(kr, t0, t1)
        if w >= 0:
            return w, END_MERCY
    return -1, END_NONE
