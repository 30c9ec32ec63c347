"""``random`` and ``simple`` bid by the table's hand size (issue #28: cutthroat3, three players of 17 cards):
the bids of 17-card hands worked by hand, and 13-card hands at four bid as before."""
import numpy as np
import pytest

from tricksim.simulator.bits import mask_of
from tricksim.simulator.games.spades.cards import parse_card
from tricksim.simulator.games.spades.policy import V_MIN_BID, V_NIL_ALLOWED, V_RULES, VIEW_SIZE
from tricksim.simulator.games.spades.rules import PRESETS
from tricksim.simulator.record import write_rules
from tricksim.strategies.spades import random as rnd
from tricksim.strategies.spades import simple


def hand_of(text: str) -> np.int64:
    cards = text.split()
    assert len(set(cards)) == len(cards)
    return np.int64(mask_of(parse_card(c) for c in cards))


def bid_view(preset: str, nil_allowed: int = 1) -> np.ndarray:
    v = np.zeros(VIEW_SIZE, np.int64)
    write_rules(PRESETS[preset].to_kernel(), v, V_RULES)
    v[V_NIL_ALLOWED], v[V_MIN_BID] = nil_allowed, 0
    return v


def simple_bid(hand: str, preset: str, nil_allowed: int = 1) -> int:
    params, rng = simple.STRATEGY.param_vector(), np.zeros(1, np.uint64)
    return int(simple.bid(np.int64(0), hand_of(hand), bid_view(preset, nil_allowed), params, rng))


# 17 cards: A♠ K♠ 4♠ 3♠ 2♠, A♥ 9♥ 8♥, K♦ 5♦, Q♣ J♣ 9♣ 8♣ 7♣ 6♣ 5♣
SEVENTEEN = "AS KS 4S 3S 2S AH 9H 8H KD 5D QC JC 9C 8C 7C 6C 5C"


def test_simple_bids_a_17_card_hand_for_its_share_of_17_tricks_at_three():
    # the estimate (simple's docstring): A♠ and K♠ each with enough spades under them 1 + 1, two spades beyond
    # the third 0.8·2 = 1.6, K♦ guarded in a suit of 2 cards 0.75, A♥ 1 (the Q♣ in a suit of 7 and no short
    # suit to ruff count nothing): 5.35
    assert len(SEVENTEEN.split()) == 17
    assert simple.estimate_tricks(hand_of(SEVENTEEN), 0) == pytest.approx(5.35)
    # three players of 17 cards: a player's share 17/3 against 13/4 at four, 2.41667 tricks more; the bid gets
    # TABLE_SHARE_GAIN (0.5) of it, 1.20833: 5.35 + 1.20833 = 6.55833, + the shift 0.5, rounded: 7
    assert simple.TABLE_SHARE_GAIN == 0.5
    assert simple_bid(SEVENTEEN, "cutthroat3") == 7
    # a 17-card hand of low cards, no spade above the 9 and no short suit to ruff with its three spades
    # (hearts two cards): estimate 0, a Nil where Nil is allowed, else 0 + 1.20833 + the shift 0.5 = 1.70833,
    # rounded: 2
    low = "2S 3S 4S 2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 2H 3H"
    assert simple.estimate_tricks(hand_of(low), 0) == 0.0
    assert simple_bid(low, "cutthroat3") == 0
    assert simple_bid(low, "cutthroat3", nil_allowed=0) == 2


def test_simple_bids_13_card_hands_at_four_as_before():
    # simple's worked example: estimate 1 + 1 + 1.6 + 0.5 + 0.5 + 1 = 5.6, + 0.5 rounded: 6 (no table term)
    hand = "AS KS QS 4S 3S AH KH 5H 4H 3H 2H 7D 6C"
    for preset in ("cardems", "cutthroat"):
        assert simple_bid(hand, preset) == 6


def test_random_draws_a_binomial_of_the_hand_size_at_three():
    params = rnd.STRATEGY.param_vector()  # bid_p 0.25: a quarter at four, a third at three
    v = bid_view("cutthroat3")
    # Binomial(17, 1/3): P(0) = (2/3)^17 = 0.0010150, P(1) = 17·(1/3)·(2/3)^16 = 0.0086272, so the CDF is
    # 0.0010150 at 0 and 0.0096421 at 1: the draw u inverts to the first k whose CDF passes u
    for u, k in ((0.0009, 0), (0.0011, 1), (0.0096, 1), (0.0097, 2)):
        assert rnd.table_bid(u, v, params) == (k, 17)
    # over an even grid of u the bids average the binomial's mean 17/3 (a grid of 20,000: within 0.01)
    grid = (np.arange(20_000) + 0.5) / 20_000
    bids = np.array([rnd.table_bid(u, v, params)[0] for u in grid])
    assert bids.mean() == pytest.approx(17 / 3, abs=0.01) and bids.max() <= 17


def test_random_bids_13_card_hands_at_four_as_before():
    params = rnd.STRATEGY.param_vector()
    for preset in ("cardems", "cutthroat"):
        v = bid_view(preset)
        for u in (0.0, 0.01, 0.3, 0.5, 0.77, 0.999999):
            assert rnd.table_bid(u, v, params) == (rnd.binomial13(u, 0.25), 13)
