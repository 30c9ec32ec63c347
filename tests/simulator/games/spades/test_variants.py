"""The bidding variants of Spades (issue #28; docs/rules.md "Bidding variants").

* ten for two hundred and nil-or-zero, scored by hand from the rules as docs/rules.md states them, through
  both the engine and the plain-Python reference (tests/reference_spades.py);
* the legal bids the rules engine gives a seat (``phases.legal_bids``), by hand for a few hands;
* every player's bids are legal in each variant, over a few thousand deals, checked by the reference.
Whole runs of the variant presets are replayed in test_reference_replay.py.
"""
from __future__ import annotations

import pytest
import reference_spades as ref

from tricksim.simulator.games.spades import kernel
from tricksim.simulator.games.spades.rules import build_rules
from tricksim.simulator.games.spades.state import BID_0, BLIND_NIL, Phase, SpadesState
from tricksim.strategies.registry import parse_spec

NO = (False, False, False, False)


@pytest.fixture(params=["engine", "reference"])
def score(request):
    impl = kernel.score_hand if request.param == "engine" else ref.score_hand

    def run(rules, bids, tricks, bags_before=(0, 0), blind=NO):
        assert sum(tricks) == 13
        scores, bags = impl(rules, tuple(bids), tuple(blind), tuple(tricks), tuple(bags_before))
        return (int(scores[0]), int(scores[1])), (int(bags[0]), int(bags[1]))

    return run


TEN_200 = build_rules("cardems", ["big_bid_threshold=10"])  # value 200, a set loses 10 a trick bid
TEN_200_VALUE = build_rules("cardems", ["big_bid_threshold=10", "big_bid_set=value"])
ZERO = build_rules("cardems", ["zero_bid=zero"])


# seats 0..3: team 0 = seats 0+2, team 1 = seats 1+3; bids and tricks per seat
def test_ten_for_two_hundred_made(score):
    # team 0 bids 6 + 4 = 10 and takes 6 + 5 = 11: 200 and one bag, 201. Team 1 bids 2 + 1 = 3, takes 1 + 1: set, -30
    assert score(TEN_200, (6, 2, 4, 1), (6, 1, 5, 1)) == ((201, -30), (1, 0))


def test_below_the_threshold_scores_ten_a_trick(score):
    # 5 + 4 = 9 < 10, made with 10 tricks: 90 + 1 bag = 91; team 1 bids 1 + 1 = 2, takes 3: 20 + 1 = 21
    assert score(TEN_200, (5, 1, 4, 1), (6, 2, 4, 1)) == ((91, 21), (1, 1))


def test_ten_for_two_hundred_set(score):
    # team 0 bids 7 + 4 = 11 and takes 6 + 4 = 10: set. tens: -110; value: -200. Team 1: 1 + 1 = 2, takes 3: 21
    assert score(TEN_200, (7, 1, 4, 1), (6, 2, 4, 1)) == ((-110, 21), (0, 1))
    assert score(TEN_200_VALUE, (7, 1, 4, 1), (6, 2, 4, 1)) == ((-200, 21), (0, 1))


def test_ten_for_two_hundred_beside_a_nil(score):
    # team 0: 10 and Nil, the bidder takes 10, the Nil none: 200 + Nil 100 = 300. Team 1: 2 + 1 = 3, takes 3: 30
    assert score(TEN_200, (10, 2, 0, 1), (10, 2, 0, 1)) == ((300, 30), (0, 0))


def test_off_by_default(score):
    # the same hand under cardems: 100 + 1 bag = 101
    assert score(build_rules("cardems"), (6, 2, 4, 1), (6, 1, 5, 1)) == ((101, -30), (1, 0))


def test_zero_bid_is_a_contract(score):
    # team 0 bids 0 and 4, takes 2 and 3: contract 4, 5 tricks toward it: 40 + 1 bag = 41
    # team 1 bids 3 + 3 = 6 and takes 4 + 4 = 8: 60 + 2 bags = 62
    assert score(ZERO, (0, 3, 4, 3), (2, 4, 3, 4)) == ((41, 62), (1, 2))
    # the same bids as Nil (cardems): the Nil fails (-100), its 2 tricks are bags (+2), 3 < 4 sets the contract (-40)
    assert score(build_rules("cardems"), (0, 3, 4, 3), (2, 4, 3, 4)) == ((-138, 62), (2, 2))


def test_two_zero_bids(score):
    # team 0 bids 0 and 0, takes 1 and 2: contract 0 made, 3 bags: 3 (as two Nils: -100 - 100 + 3 = -197)
    # team 1 bids 5 + 5 = 10, takes 5 + 5: 100
    assert score(ZERO, (0, 5, 0, 5), (1, 5, 2, 5)) == ((3, 100), (3, 0))
    assert score(build_rules("cardems"), (0, 5, 0, 5), (1, 5, 2, 5)) == ((-197, 100), (3, 0))
    # with 9 bags before: 12 bags, one penalty: 3 - 100 = -97, 2 bags carried
    assert score(ZERO, (0, 5, 0, 5), (1, 5, 2, 5), bags_before=(9, 0)) == ((-97, 100), (2, 0))


# ----------------------------------------------------------------- the legal bids
def _bids_legal(rules, seed, game_id, bids_before=()):
    """The legal bid actions of the seat to bid after ``bids_before`` (bid values in speaking order)."""
    st = SpadesState(rules, seed=seed, game_id=game_id)
    for b in bids_before:
        st.apply(BID_0 + b)
    return st, [a - BID_0 for a in st.legal_actions()]


def _spades(st, seat):
    return sum(1 for c in ref.cards_in(int(st.hands[seat])) if ref.suit_of(c) == ref.SPADES)


def test_legal_bids_by_hand():
    free = list(range(14))
    st, legal = _bids_legal(build_rules("cardems"), 1, 0)
    assert legal == free
    rules = build_rules("suicide")
    st, legal = _bids_legal(rules, 1, 0)
    assert legal == free                                 # first bidder of its team: anything
    st, legal = _bids_legal(rules, 1, 0, (3, 4))
    assert legal == [0]                                  # partner bid 3: Nil
    st, legal = _bids_legal(rules, 1, 0, (0, 4))
    assert legal == list(range(1, 14))                   # partner bid Nil: no Nil
    for g in range(20):
        st, legal = _bids_legal(build_rules("whiz"), 1, g)
        n = _spades(st, st.current_player())
        assert legal == sorted({0, n})
        st, legal = _bids_legal(build_rules("mirror"), 1, g)
        assert legal == [n]
        st, legal = _bids_legal(build_rules("whiz", ["zero_bid=zero"]), 1, g)
        assert legal == [n]
    st, legal = _bids_legal(ZERO, 1, 0)
    assert legal == free                                 # 0 is a bid like any other
    st, legal = _bids_legal(build_rules("cardems", ["zero_bid=zero", "min_team_bid=4"]), 1, 0, (0, 3))
    assert legal == list(range(4, 14))                   # partner bid 0: this seat makes the 4 alone


VARIANTS = {
    "suicide": ("suicide", ()),
    "suicide_blind": ("suicide", ("blind_nil=true", "min_team_bid=4")),
    "whiz": ("whiz", ()),
    "whiz_jokers": ("whiz", ("jokers=true",)),
    "mirror": ("mirror", ()),
    "zero": ("cardems", ("zero_bid=zero", "big_bid_threshold=10")),
}
PLAYERS = ("random:nil_prob=0.3,blind_nil_prob=0.3", "simple", "heuristic", "heuristic:blind_nil=1", "pimc",
           "heuristic:force_nil=1", "simple:force_nil=1")


# deals a player (pimc: half as many): each bid goes through the step API and the reference in Python, so the
# full count is a slow test and the quick suite bids a fifth of it
@pytest.mark.parametrize("deals", [400, pytest.param(2000, marks=pytest.mark.slow)])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_player_bids_legally(variant, deals):
    """Each player bids at all four seats in ``deals`` deals of the variant (half as many for pimc): every bid is
    among the rules engine's legal actions and the reference finds it legal."""
    preset, overrides = VARIANTS[variant]
    rules = build_rules(preset, list(overrides))
    seen = set()
    for spec in PLAYERS:
        player = parse_spec(spec)
        for g in range(deals // 2 if spec == "pimc" else deals):
            st = SpadesState(rules, seed=7, game_id=g)
            so_far = {}
            while st.phase in (Phase.BLIND_NIL, Phase.BID):
                seat = st.current_player()
                action = st.policy_action(player)
                assert action in st.legal_actions(), (variant, spec, g, seat, action)
                if st.phase == Phase.BID:
                    b, bl = action - BID_0, False
                else:
                    b, bl = (0, True) if action == BLIND_NIL else (None, None)
                st.apply(action)
                if b is not None:
                    problem = ref.bid_problem(rules, seat, b, bl, so_far, (0, 0), ref.cards_in(int(st.dealt[seat])))
                    assert problem is None, (variant, spec, g, seat, b, problem)
                    so_far[seat] = b
                    seen.add((spec.split(":")[0], b == 0))
    # every player both bid Nil and a number somewhere (with zero_bid=zero the heuristic never bids 0)
    for spec in PLAYERS:
        assert (spec.split(":")[0], True) in seen or variant == "zero", (spec, seen)
        assert (spec.split(":")[0], False) in seen, (spec, seen)
