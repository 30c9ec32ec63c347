"""Spades scoring and end of game, pinned to values worked out by hand from RULES.md.

Every case runs through both the engine (``tricksim.simulator.games.spades.kernel.score_hand`` /
``game_end``) and the plain-Python reference in ``tests/reference_spades.py``,
so neither implementation can drift from the hand-computed numbers.

Conventions: seats 0..3, team 0 = seats 0+2, team 1 = seats 1+3; a bid of 0
is Nil; ``blind`` marks a Blind Nil. ``c`` = team contract (sum of numeric
bids), ``k`` = tricks of the non-Nil bidder(s), ``n`` = tricks of the Nil
bidder(s), as in the worked formula of RULES.md 1.4. Unless a case says
otherwise the flags are the defaults: bag +1, Nil tricks are bags (+1 each)
and never count toward the contract, bag limit 10, penalty 100.
"""
from __future__ import annotations

import pytest
import reference_spades as ref

from tricksim.simulator.games.spades.rules import PRESETS, build_rules


# ----------------------------------------------------------------- implementations
def _engine():
    from tricksim.simulator.games.spades import kernel as spades

    return spades.score_hand, spades.game_end


def _reference():
    return ref.score_hand, ref.game_end


@pytest.fixture(params=["engine", "reference"])
def impl(request):
    return _engine() if request.param == "engine" else _reference()


def score(impl, rules, bids, blind, tricks, bags_before=(0, 0)):
    """Call an implementation's score_hand and normalise to plain ints."""
    assert sum(tricks) == 13, "a case must hand out exactly 13 tricks"
    scores, bags = impl[0](rules, tuple(bids), tuple(bool(b) for b in blind), tuple(tricks), tuple(bags_before))
    return (int(scores[0]), int(scores[1])), (int(bags[0]), int(bags[1]))


def end(impl, rules, total0, total1):
    ended, winner, how = impl[1](rules, total0, total1)
    return bool(ended), int(winner), str(how)


NO = (False, False, False, False)
CARDEMS = PRESETS["cardems"]
ZONE = PRESETS["zone"]
CLASSIC = PRESETS["classic"]


def R(preset, *overrides):
    return build_rules(preset, list(overrides))


# ----------------------------------------------------------------- the table
# (id, rules, bids, blind, tricks, bags_before, expected scores, expected bags after)
CASES = [
    # ---- RULES.md 1.8, example 002 (zone rules). Source players -> seats: the dealer, player 2,
    # is seat 0; clockwise from the dealer the source bids 4, 3, 1, 2, so player 4 = seat 1 (left
    # of the dealer, bids and leads first), player 3 = seat 2, player 1 = seat 3. Partners sit
    # opposite: players 2+3 = seats 0+2 = team 0, players 1+4 = seats 3+1 = team 1.
    # Bids: seat0 (p2) 2, seat1 (p4) 3, seat2 (p3) 3, seat3 (p1) 4.
    # Team 1 (1+4): c = 3 + 4 = 7, takes 8 (p4 5 + p1 3): 10*7 + 1 = 71, 1 bag.
    # Team 0 (2+3): c = 2 + 3 = 5, takes 5 (p2 2 + p3 3): 10*5 = 50, 0 bags.
    ("002_example", ZONE, (2, 3, 3, 4), NO, (2, 5, 3, 3), (0, 0), (50, 71), (0, 1)),
    # ---- 004: bid 5, take 7 -> 52 points, 2 bags. Team 0 bids 3+2 = 5, takes 4+3 = 7:
    # 10*5 + 2 = 52. Team 1 bids 4+4 = 8, takes 3+3 = 6 < 8: -10*8 = -80.
    ("004_bid5_take7", CLASSIC, (3, 4, 2, 4), NO, (4, 3, 3, 3), (0, 0), (52, -80), (2, 0)),
    # ---- 004: Alex (seat 0) bids 4, partner Charlie (seat 2) bids Nil.
    # Alex takes 4, Charlie 0: 10*4 + 100 = 140. Team 1 bids 4+4, takes 5+4 = 9: 80 + 1 = 81.
    ("004_alex_charlie_both_make", CLASSIC, (4, 4, 0, 4), NO, (4, 5, 0, 4), (0, 0), (140, 81), (0, 1)),
    # Alex takes 3, Charlie 0: contract failed -40, Nil made +100 -> 60. Team 1: 8 bid, 10 taken: 82.
    ("004_alex_set_charlie_makes", CLASSIC, (4, 4, 0, 4), NO, (3, 5, 0, 5), (0, 0), (60, 82), (0, 2)),
    # Alex takes 4, Charlie 1: k = 4 >= 4 -> 40; n = 1 -> +1 point, 1 bag; Nil failed -100: -59.
    # Team 1: bid 8, took 4+4 = 8: 80.
    ("004_alex_makes_charlie_fails", CLASSIC, (4, 4, 0, 4), NO, (4, 4, 1, 4), (0, 0), (-59, 80), (1, 0)),
    # Alex takes 3, Charlie 1: Charlie's trick does not help Alex: k = 3 < 4 -> -40; n = 1 is still
    # a bag (+1, nil_bags_when_set) and Nil failed -100: -40 + 1 - 100 = -139, 1 bag.
    # Team 1: bid 8, took 4+5 = 9: 81, 1 bag.
    ("failed_nil_not_toward_contract", CLASSIC, (4, 4, 0, 4), NO, (3, 4, 1, 5), (0, 0), (-139, 81), (1, 1)),
    # Same hand with nil_tricks=contract: counted = k + n = 3 + 1 = 4 >= 4 -> 40, no overtrick,
    # no bag; Nil failed -100: -60.
    ("failed_nil_toward_contract", R("classic", "nil_tricks=contract"), (4, 4, 0, 4), NO, (3, 4, 1, 5), (0, 0),
     (-60, 81), (0, 1)),
    # Same hand with nil_bags_when_set=false: contract set (-40), Charlie's trick is not a bag and
    # (being no bag) scores nothing; Nil failed -100: -140, 0 bags.
    ("nil_bags_when_set_false", R("classic", "nil_bags_when_set=false"), (4, 4, 0, 4), NO, (3, 4, 1, 5), (0, 0),
     (-140, 81), (0, 1)),
    # nil_bags_when_set=false only matters when the contract fails: bid 3 (seat 2) takes 3, Nil
    # (seat 0) takes 2: 30 + 2 (two bags) - 100 = -68, 2 bags. Team 1: bids 4+3 = 7, takes 4+4 = 8: 71.
    ("nil_bags_when_set_false_contract_made", R("cardems", "nil_bags_when_set=false"), (0, 4, 3, 3), NO,
     (2, 4, 3, 4), (0, 0), (-68, 71), (2, 1)),
    # ---- single Nil
    # Nil made: seat 0 Nil takes 0; seat 2 bids 3 takes 5: 30 + 2 + 100 = 132, 2 bags.
    # Team 1: bids 4+4, takes 4+4 = 8: 80.
    ("nil_made", CARDEMS, (0, 4, 3, 4), NO, (0, 4, 5, 4), (0, 0), (132, 80), (2, 0)),
    # Nil failed with bags: seat 0 Nil takes 2; seat 2 bids 3 takes 4: 30 + 1 overtrick + 2 Nil
    # tricks - 100 = -67, bags 1 + 2 = 3. Team 1: bids 3+3, takes 3+4 = 7: 61, 1 bag.
    ("nil_failed_with_bags", CARDEMS, (0, 3, 3, 3), NO, (2, 3, 4, 4), (0, 0), (-67, 61), (3, 1)),
    # nil_value=50: Nil made, partner bids 3 takes 3: 30 + 50 = 80. Team 1 bids 5+5, takes 5+5: 100.
    ("nil_value_50", R("cardems", "nil_value=50"), (0, 5, 3, 5), NO, (0, 5, 3, 5), (0, 0), (80, 100), (0, 0)),
    # nil_trick_points=0: Nil takes 2, partner bids 3 takes 3: 30 + 0*2 - 100 = -70, still 2 bags.
    # Team 1: bids 4+4, takes 4+4: 80.
    ("nil_trick_points_0", R("cardems", "nil_trick_points=0"), (0, 4, 3, 4), NO, (2, 4, 3, 4), (0, 0),
     (-70, 80), (2, 0)),
    # ---- Blind Nil (classic, ±200)
    # Made: seat 1 Blind Nil takes 0, seat 3 bids 4 takes 4: 40 + 200 = 240.
    # Team 0: bids 4+5 = 9, takes 4+5 = 9: 90.
    ("blind_nil_made", CLASSIC, (4, 0, 5, 4), (False, True, False, False), (4, 0, 5, 4), (0, 0), (90, 240), (0, 0)),
    # Failed: seat 1 Blind Nil takes 1, seat 3 bids 4 takes 5: 40 + 1 + 1 - 200 = -158, 2 bags.
    # Team 0: bids 4+3 = 7, takes 3+4 = 7: 70.
    ("blind_nil_failed", CLASSIC, (4, 0, 3, 4), (False, True, False, False), (3, 1, 4, 5), (0, 0),
     (70, -158), (0, 2)),
    # blind_nil_value=300, made: 30 + 300 = 330 (seat 3 bids 3 takes 3). Team 0: 5+5 bid, 10 taken: 100.
    ("blind_nil_value_300", R("classic", "blind_nil_value=300"), (5, 0, 5, 3), (False, True, False, False),
     (5, 0, 5, 3), (0, 0), (100, 330), (0, 0)),
    # ---- both partners Nil: contract 0 is made, every trick is a bag
    # Both made: 0 + 100 + 100 = 200. Team 1: bids 6+6 = 12, takes 6+7 = 13: 120 + 1 = 121.
    ("both_nil_made", CARDEMS, (0, 6, 0, 6), NO, (0, 6, 0, 7), (0, 0), (200, 121), (0, 1)),
    # Both failed: n = 2 + 1 = 3 bags (+3); -100 - 100: 3 - 200 = -197. Team 1: 5+5 bid, 5+5 taken: 100.
    ("both_nil_failed", CARDEMS, (0, 5, 0, 5), NO, (2, 5, 1, 5), (0, 0), (-197, 100), (3, 0)),
    # Mixed: seat 0 makes (+100), seat 2 takes 3 (fails, -100; 3 bags +3): 3, 3 bags.
    # Team 1: bids 5+5, takes 5+5: 100.
    ("both_nil_mixed", CARDEMS, (0, 5, 0, 5), NO, (0, 5, 3, 5), (0, 0), (3, 100), (3, 0)),
    # Both-Nil team's tricks are bags and can trigger the penalty: 8 bags before, Nils take 1 + 2:
    # 3 points, 8 + 3 = 11 bags -> -100, 1 carried; -100 - 100 for the Nils: 3 - 200 - 100 = -297.
    # Team 1: bids 5+5, takes 5+5: 100.
    ("both_nil_tricks_bag_penalty", CARDEMS, (0, 5, 0, 5), NO, (1, 5, 2, 5), (8, 0), (-297, 100), (1, 0)),
    # Both-Nil team under nil_tricks=contract: c = 0, counted 1 + 2 = 3 >= 0: 3 overtricks (+3, 3 bags),
    # -200 for the two failed Nils: -197. Team 1 as above: 100.
    ("both_nil_contract_mode", R("cardems", "nil_tricks=contract"), (0, 5, 0, 5), NO, (1, 5, 2, 5), (0, 0),
     (-197, 100), (3, 0)),
    # Blind Nil pair (classic): both made +400. Team 1: 6+6 bid, 6+7 taken: 121, 1 bag.
    ("blind_pair_made", CLASSIC, (0, 6, 0, 6), (True, False, True, False), (0, 6, 0, 7), (0, 0), (400, 121), (0, 1)),
    # Blind Nil pair, one of each: +200 - 200 and 2 bags (+2): 2. Team 1: 6+5 bid, 6+5 taken: 110.
    ("blind_pair_mixed", CLASSIC, (0, 6, 0, 5), (True, False, True, False), (0, 6, 2, 5), (0, 0), (2, 110), (2, 0)),
    # Blind Nil made + plain Nil failed (1 trick): 200 - 100 + 1 = 101, 1 bag.
    # Team 1: 6+6 bid, 6+6 taken: 120.
    ("blind_and_plain_nil", CLASSIC, (0, 6, 0, 6), (True, False, False, False), (0, 6, 1, 6), (0, 0),
     (101, 120), (1, 0)),
    # ---- set contracts
    # Team 1 bids 5+4 = 9, takes 3+4 = 7: -90, no bags. Team 0 bids 3+3 = 6, takes 3+3 = 6: 60.
    ("set_contract", CARDEMS, (3, 5, 3, 4), NO, (3, 3, 3, 4), (0, 0), (60, -90), (0, 0)),
    # Set with bags carried in: the set team keeps its running bags (7), scores -10c only.
    # Team 0 bids 6+6 = 12, takes 5+5 = 10: -120. Team 1 bids 1+1 = 2, takes 1+2 = 3: 21, 1 bag.
    ("set_keeps_bags", CARDEMS, (6, 1, 6, 1), NO, (5, 1, 5, 2), (7, 0), (-120, 21), (7, 1)),
    # ---- bag overflow: 9 bags before, 3 more
    # Team 0 bids 2+2 = 4, takes 3+4 = 7: 40 + 3 = 43; bags 9 + 3 = 12 >= 10.
    # carry: -100, 12 - 10 = 2 left -> -57.  Team 1 bids 3+3 = 6, takes 3+3 = 6: 60.
    ("bags_carry", CARDEMS, (2, 3, 2, 3), NO, (3, 3, 4, 3), (9, 0), (-57, 60), (2, 0)),
    # reset (zone): -100 once, bags back to 0 -> -57, 0 bags.
    ("bags_reset", ZONE, (2, 3, 2, 3), NO, (3, 3, 4, 3), (9, 0), (-57, 60), (0, 0)),
    # Exactly at the limit: 7 + 3 = 10 -> -100, 0 left: 43 - 100 = -57.
    ("bags_exactly_limit", CARDEMS, (2, 3, 2, 3), NO, (3, 3, 4, 3), (7, 0), (-57, 60), (0, 0)),
    # One short of the limit: 6 + 3 = 9, no penalty: 43.
    ("bags_below_limit", CARDEMS, (2, 3, 2, 3), NO, (3, 3, 4, 3), (6, 0), (43, 60), (9, 0)),
    # ---- several penalties in one hand (carry): 9 bags before; seat 2 bids 1 and takes all 13,
    # seat 0 Nil takes 0: 10 + 12 overtricks = 22, Nil +100 -> 122; bags 9 + 12 = 21 ->
    # two penalties (-200), 1 left: -78. Team 1 bids 1+1 = 2, takes 0: -20.
    ("two_penalties_carry", CARDEMS, (0, 1, 1, 1), NO, (0, 0, 13, 0), (9, 0), (-78, -20), (1, 0)),
    # Same hand under reset: one penalty only, bags 0: 122 - 100 = 22.
    ("one_penalty_reset", ZONE, (0, 1, 1, 1), NO, (0, 0, 13, 0), (9, 0), (22, -20), (0, 0)),
    # bag_limit=5, carry: 3 bags before; team 0 bids 1+1 = 2, takes 7+6 = 13: 20 + 11 = 31;
    # bags 3 + 11 = 14 -> two penalties of 100, 4 left: 31 - 200 = -169. Team 1 bids 2+2, takes 0: -40.
    ("bag_limit_5_two_penalties", R("cardems", "bag_limit=5"), (1, 2, 1, 2), NO, (7, 0, 6, 0), (3, 0),
     (-169, -40), (4, 0)),
    # bag_penalty=50, bag_points=0: bids 2+2 take 4+3 = 7: 40 + 0*3 = 40; bags 8 + 3 = 11 -> -50, 1 left:
    # -10. Team 1 bids 3+3, takes 3+3: 60.
    ("bag_points_0_penalty_50", R("cardems", "bag_points=0", "bag_penalty=50"), (2, 3, 2, 3), NO, (4, 3, 3, 3),
     (8, 0), (-10, 60), (1, 0)),
    # Both teams overflow in the same hand (carry): team 0 9 bags, bids 1+1 takes 3+2 = 5: 20 + 3 = 23,
    # 12 bags -> -77, 2 left. Team 1 9 bags, bids 1+1 takes 4+4 = 8: 20 + 6 = 26, 15 bags -> -74, 5 left.
    ("both_teams_overflow", CARDEMS, (1, 1, 1, 1), NO, (3, 4, 2, 4), (9, 9), (-77, -74), (2, 5)),
]

# The bag sequence of 004 (RULES.md 1.8), chained hand to hand through bags_before (classic).
# hand 1: team 0 bids 2+2 = 4, takes 4+3 = 7: 40 + 3 = 43, bags 0 + 3 = 3.
# hand 2: team 0 bids 2+1 = 3, takes 3+3 = 6: 30 + 3 = 33, bags 3 + 3 = 6.
# hand 3: team 0 bids 2+2 = 4, takes 5+4 = 9: 40 + 5 = 45, bags 6 + 5 = 11 -> -100, 1 carried: -55.
# Team 1 makes its bid exactly each time (60, 70, 40), so its bags stay 0.
BAG_SEQUENCE = [
    # bids, tricks, expected scores, expected bags after
    ((2, 3, 2, 3), (4, 3, 3, 3), (43, 60), (3, 0)),
    ((2, 4, 1, 3), (3, 4, 3, 3), (33, 70), (6, 0)),
    ((2, 2, 2, 2), (5, 2, 4, 2), (-55, 40), (1, 0)),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_score_hand_table(impl, case):
    _, rules, bids, blind, tricks, bags_before, want_scores, want_bags = case
    assert score(impl, rules, bids, blind, tricks, bags_before) == (want_scores, want_bags)


def test_004_bag_sequence_carries_one_bag(impl):
    bags = (0, 0)
    totals = [0, 0]
    for bids, tricks, want_scores, want_bags in BAG_SEQUENCE:
        scores, bags = score(impl, CLASSIC, bids, NO, tricks, bags)
        assert (scores, bags) == (want_scores, want_bags)
        totals[0] += scores[0]
        totals[1] += scores[1]
    # 43 + 33 - 55 = 21; 60 + 70 + 40 = 170
    assert totals == [21, 170]
    assert bags == (1, 0)


def test_002_example_bidding_order_and_leader():
    """The 002 example's table order, in the reference: dealer = player 2 = seat 0."""
    player_of_seat = {0: 2, 1: 4, 2: 3, 3: 1}
    order = [player_of_seat[s] for s in ref.bidding_order(dealer=0)]
    assert order == [4, 3, 1, 2]
    assert player_of_seat[ref.first_leader(ZONE, 0, [set(), set(), set(), set()])] == 4
    # partners 1+4 and 2+3 sit opposite
    assert {player_of_seat[1], player_of_seat[3]} == {1, 4}
    assert {player_of_seat[0], player_of_seat[2]} == {2, 3}


# ----------------------------------------------------------------- end of game
MERCY = R("zone", "mercy=-200")
MERCY_FIRST = R("zone", "mercy=-200", "mercy_check=before_target")
END_CASES = [
    # (id, rules, total0, total1, expected (ended, winner, end)); winner is only checked when ended
    ("below_target", CARDEMS, 499, 300, (False, None, "")),
    ("team0_reaches_target", CARDEMS, 500, 300, (True, 0, "target")),
    ("team1_reaches_target", CARDEMS, 300, 505, (True, 1, "target")),
    # team 0 reaches 505 but team 1 is higher still (530): the higher total wins
    ("lower_team_at_target_other_higher", CARDEMS, 505, 530, (True, 1, "target")),
    ("both_over_target_team0_higher", CARDEMS, 620, 510, (True, 0, "target")),
    # both at/above the target and equal: play on
    ("tie_at_target_continues", CARDEMS, 500, 500, (False, None, "")),
    ("tie_above_target_continues", CARDEMS, 640, 640, (False, None, "")),
    ("tie_below_target", CARDEMS, 200, 200, (False, None, "")),
    # shorter game (002 variant): target 300
    ("target_300", R("zone", "target=300"), 300, 299, (True, 0, "target")),
    ("target_250_below", R("zone", "target=250"), 249, 120, (False, None, "")),
    # no mercy rule: a very low total is not an end
    ("no_mercy_rule", CARDEMS, -1000, 0, (False, None, "")),
    # mercy -200: at or below loses
    ("mercy_team0_at_minus_200", MERCY, -200, 100, (True, 1, "mercy")),
    ("mercy_team1_below", MERCY, 100, -250, (True, 0, "mercy")),
    ("mercy_not_reached", MERCY, -199, 100, (False, None, "")),
    # both at or below -200: the higher total wins; equal totals continue
    ("mercy_both_low_higher_wins", MERCY, -210, -300, (True, 0, "mercy")),
    ("mercy_both_low_team1_higher", MERCY, -400, -200, (True, 1, "mercy")),
    ("mercy_both_low_equal_continues", MERCY, -250, -250, (False, None, "")),
    # target and mercy in the same hand: after_target (default) names the target, before_target the mercy
    ("mercy_after_target", MERCY, 510, -210, (True, 0, "target")),
    ("mercy_before_target", MERCY_FIRST, 510, -210, (True, 0, "mercy")),
    ("mercy_before_target_only_mercy", MERCY_FIRST, 100, -300, (True, 0, "mercy")),
    ("mercy_before_target_only_target", MERCY_FIRST, 520, 100, (True, 0, "target")),
]


@pytest.mark.parametrize("case", END_CASES, ids=[c[0] for c in END_CASES])
def test_game_end_table(impl, case):
    _, rules, t0, t1, (want_ended, want_winner, want_end) = case
    ended, winner, how = end(impl, rules, t0, t1)
    assert (ended, how) == (want_ended, want_end)
    if want_ended:
        assert winner == want_winner
