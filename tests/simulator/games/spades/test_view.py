"""The public view a policy sees when it plays is consistent with the trick so far.

An auditing plug-in strategy checks, at every play decision, the view fields
against what it can recompute from the view's own trick cards and its hand;
on any mismatch it plays an illegal card, which stops the run with an error.
"""
import numpy as np
import pytest
from numba import njit

from tricksim.simulator.bits import lowest_bit, popcount
from tricksim.simulator.engine import RunConfig, RunError, run_to_tables
from tricksim.simulator.games.spades.cards import beats, card_suit
from tricksim.simulator.games.spades.policy import (
    PLAY_SIG,
    V_LEADER,
    V_LED_SUIT,
    V_NPLAYED,
    V_PLAYED,
    V_SEAT,
    V_TRICK,
    V_TRICK_NO,
    V_WINNING_CARD,
    V_WINNING_SEAT,
)
from tricksim.simulator.games.spades.rules import build_rules
from tricksim.strategies.registry import SeatStrategy, Strategy, parse_spec
from tricksim.strategies.spades import random as random_strategy


@njit(PLAY_SIG)
def audited_play(seat, hand, legal, view, params, rng):
    bad = np.int64(-1)  # an illegal card: the engine reports it
    n = view[V_NPLAYED]
    leader = view[V_LEADER]
    if view[V_SEAT] != seat or (leader + n) & 3 != seat or not 0 <= n <= 3:
        return bad
    for k in range(4):
        s = (leader + k) & 3
        if (view[V_TRICK + s] >= 0) != (k < n):
            return bad
    if n == 0:
        if view[V_LED_SUIT] != -1 or view[V_WINNING_SEAT] != -1 or view[V_WINNING_CARD] != -1:
            return bad
    else:
        win_seat = leader
        win_card = view[V_TRICK + leader]
        for k in range(1, n):
            s = (leader + k) & 3
            if beats(view[V_TRICK + s], win_card):
                win_seat = s
                win_card = view[V_TRICK + s]
        if view[V_LED_SUIT] != card_suit(view[V_TRICK + leader]) or view[V_WINNING_SEAT] != win_seat \
                or view[V_WINNING_CARD] != win_card:
            return bad
    played = 0
    for s in range(4):
        played += popcount(view[V_PLAYED + s])
    if played != 4 * view[V_TRICK_NO] + n or (hand & view[V_PLAYED + seat]) != 0:
        return bad
    return lowest_bit(legal)



@pytest.mark.parametrize("preset", ["cardems", "classic"])
def test_the_view_matches_the_trick_at_every_play(preset):
    base = random_strategy.STRATEGY
    auditor = SeatStrategy(Strategy(name="auditor", description="test",
                                    policies={**base.policies, "play": audited_play}, params=base.params))
    rnd = parse_spec("random:nil_prob=0.2,blind_nil_prob=0.3")
    for seats in ((auditor, rnd, auditor, rnd), (rnd, auditor, rnd, auditor)):
        cfg = RunConfig(rules=build_rules(preset), seats=seats, seed=21, mode="games", count=60, hand_limit=30)
        try:
            hands = run_to_tables(cfg)["hands"]
        except RunError as e:  # the auditor found a view that does not match the trick
            pytest.fail(str(e))
        assert hands.num_rows > 500
