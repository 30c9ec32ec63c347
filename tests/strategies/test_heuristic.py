"""The ``heuristic`` strategy: concrete decisions on hand-built views, and legality properties.

Each scenario builds the public view exactly as the kernel would at that
moment (bids, tricks, the cards of the current trick, played masks that
include them, shown voids) and checks the decision against the answer worked
out by hand from the rules of good play the strategy claims to follow.

Conventions: seats 0..3, partner = seat ^ 2, left opponent = seat + 1. Cards
are written as in ``simulator.cards.parse_card`` ('AS', 'TH', '2C').
"""
from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tricksim.strategies.spades.heuristic as H
from tricksim.simulator.bits import cards_of, mask_of, popcount
from tricksim.simulator.games.spades import decks
from tricksim.simulator.games.spades.cards import SPADES, beats, card_name, card_suit, parse_card
from tricksim.simulator.games.spades.kernel import deck_template
from tricksim.simulator.games.spades.policy import (
    EXCHANGE_GIVE_BACK,
    EXCHANGE_GIVE_FIRST,
    R_DECK,
    V_BAG_LIMIT,
    V_BAGS,
    V_BID,
    V_BROKEN,
    V_DEALER,
    V_DECK,
    V_EXCHANGE_N,
    V_EXCHANGE_ROLE,
    V_LEADER,
    V_LED_SUIT,
    V_MIN_BID,
    V_NIL_ALLOWED,
    V_NPLAYED,
    V_PASSED,
    V_PLAYED,
    V_RULES,
    V_SCORE,
    V_SEAT,
    V_TARGET,
    V_TRICK,
    V_TRICK_NO,
    V_TRICKS,
    V_VOID,
    V_WINNING_CARD,
    V_WINNING_SEAT,
    VIEW_SIZE,
)
from tricksim.simulator.games.spades.rules import PRESETS, build_rules
from tricksim.simulator.record import write_rules
from tricksim.strategies.registry import get, parse_spec

STANDARD_DECK = (1 << 52) - 1
JOKER_DECK = (STANDARD_DECK & ~(1 << 13) & ~(1 << 26)) | (1 << 52) | (1 << 53)  # 2♦ and 2♥ out
RNG = np.zeros(1, dtype=np.uint64)


def cards(text: str) -> int:
    return mask_of(parse_card(t) for t in text.split())


def params(**values) -> np.ndarray:
    """The parameter vector of ``heuristic`` with some values changed (choices by name)."""
    strategy = get("heuristic")
    vec = strategy.param_vector()
    for k, v in values.items():
        p = strategy.params[strategy.index(k)]
        vec[strategy.index(k)] = p.parse(str(v))
    return vec


def base_view(seat: int, bids=(-1, -1, -1, -1), score=(0, 0), bags=(0, 0), deck=STANDARD_DECK,
              rules=PRESETS["cardems"]) -> np.ndarray:
    v = np.zeros(VIEW_SIZE, dtype=np.int64)
    v[V_SEAT] = seat
    v[V_DEALER] = 3
    v[V_BID:V_BID + 4] = bids
    v[V_TRICK:V_TRICK + 4] = -1
    v[V_LED_SUIT] = -1
    v[V_WINNING_SEAT] = -1
    v[V_WINNING_CARD] = -1
    v[V_SCORE:V_SCORE + 4] = (*score, *score)  # seat s's side's total: the teams' slots repeat (policy.py)
    v[V_BAGS:V_BAGS + 4] = (*bags, *bags)
    write_rules(rules.to_kernel(), v, V_RULES)  # the rules record, as the kernel writes it
    v[V_TARGET] = 500
    v[V_BAG_LIMIT] = 10
    v[V_DECK] = deck
    return v


def bid_view(seat=0, bids=(-1, -1, -1, -1), nil_allowed=1, min_bid=1, score=(0, 0), deck=STANDARD_DECK):
    v = base_view(seat, bids, score, deck=deck)
    v[V_NIL_ALLOWED] = nil_allowed
    v[V_MIN_BID] = min_bid
    return v


def trick_view(seat, leader, played_now, bids, tricks=(0, 0, 0, 0), history=None, voids=None, trick_no=None,
               bags=(0, 0), broken=1, deck=STANDARD_DECK, rules=PRESETS["cardems"]):
    """View for ``seat`` to play after the cards ``played_now`` (in order from ``leader``).

    ``history``: {seat: 'cards'} played in earlier tricks; ``voids``: {seat: suits shown void}.
    """
    v = base_view(seat, bids, bags=bags, deck=deck, rules=rules)
    v[V_TRICKS:V_TRICKS + 4] = tricks
    for s, text in (history or {}).items():
        v[V_PLAYED + s] |= cards(text)
    for s, suits in (voids or {}).items():
        for u in suits:
            v[V_VOID + s] |= 1 << u
    v[V_TRICK_NO] = sum(tricks) if trick_no is None else trick_no
    v[V_LEADER] = leader
    v[V_BROKEN] = broken
    code = decks.DECKS.index(rules.deck)  # the deck's suits and order (a deuce deck promotes its 2s)
    win_seat, win_card = -1, -1
    for k, text in enumerate(played_now.split()):
        s = (leader + k) & 3
        c = parse_card(text)
        v[V_TRICK + s] = c
        v[V_PLAYED + s] |= 1 << c
        if k == 0:
            v[V_LED_SUIT] = decks.SUIT_OF[code, c]
            win_seat, win_card = s, c
        elif (decks.BEATING[code, win_card] >> c) & 1:
            win_seat, win_card = s, c
    v[V_NPLAYED] = len(played_now.split())
    v[V_WINNING_SEAT] = win_seat
    v[V_WINNING_CARD] = win_card
    assert (leader + v[V_NPLAYED]) & 3 == seat, "scenario error: not this seat's turn"
    return v


def legal_mask(hand: int, view: np.ndarray) -> int:
    suits = decks.SUIT_MASKS[view[V_RULES + R_DECK]]  # the deck's suits (the view's rules record)
    if view[V_NPLAYED] == 0:
        non_spades = hand & ~int(suits[SPADES])
        return non_spades if (view[V_BROKEN] == 0 and non_spades) else hand
    follow = hand & int(suits[view[V_LED_SUIT]])
    return follow if follow else hand


def play(hand_text: str, view: np.ndarray, **param_values) -> str:
    hand = cards(hand_text)
    legal = legal_mask(hand, view)
    c = int(H.play(np.int64(view[V_SEAT]), np.int64(hand), np.int64(legal), view, params(**param_values), RNG))
    assert (legal >> c) & 1, f"illegal card {c}"
    return card_name(c)


def bid(hand_text: str, view: np.ndarray | None = None, **param_values) -> int:
    view = bid_view() if view is None else view
    return int(H.bid(np.int64(view[V_SEAT]), np.int64(cards(hand_text)), view, params(**param_values), RNG))


# ------------------------------------------------------------------ registry
def test_registered_with_documented_params():
    s = get("heuristic")
    assert s.policies["play"] is H.play and s.policies["bid"] is H.bid
    names = [p.name for p in s.params]
    for required in ("bid_adjust", "nil", "nil_threshold", "blind_nil_margin", "bag_mode", "bag_guard",
                     "target_caution"):
        assert required in names
    assert set(s.params[s.index("bag_mode")].choices) == {"take", "avoid", "set", "set_take"}
    assert len(names) == len(set(names)) <= 32
    assert all(p.help for p in s.params)
    assert parse_spec("heuristic:bag_mode=avoid,nil=off").params[s.index("bag_mode")] == 1.0


# ------------------------------------------------------------------ bidding
STRONG = "AS KS QS 3S AH AD AC 5H 6H 7D 8D 9C 2C"
LOW_NIL = "2S 3S 4S 2H 3H 5H 2D 4D 6D 3C 5C 7C 8C"


def test_strong_hand_bids_at_least_five():
    # A K Q of spades (three sure trumps, a fourth spade) and three side aces: 6 tricks
    assert bid(STRONG) >= 5


def test_low_hand_bids_nil_only_when_allowed():
    assert bid(LOW_NIL) == 0
    assert bid(LOW_NIL, nil=0) >= 1
    assert bid(LOW_NIL, bid_view(nil_allowed=0)) >= 1


def test_no_nil_beside_partner_nil_unless_allowed():
    v = bid_view(seat=0, bids=(-1, 5, 0, -1))  # partner (seat 2) bid Nil
    assert bid(LOW_NIL, v) >= 1
    assert bid(LOW_NIL, v, nil_over_nil=1) == 0


def test_ace_of_spades_is_never_nil():
    assert bid("AS 2H 3H 4H 2D 3D 4D 2C 3C 4C 5C 5D 5H", nil_threshold=50) >= 1


def test_bid_respects_min_bid_and_thirteen():
    assert bid(LOW_NIL, bid_view(min_bid=4), nil=0) == 4
    all_spades = " ".join(r + "S" for r in "23456789TJQKA")
    assert bid(all_spades) == 13


def test_bid_adjust_and_target_caution_lower_the_bid():
    assert bid(STRONG, bid_adjust=-2.3) == bid(STRONG, bid_adjust=-0.3) - 2
    near = bid_view(score=(450, 200))  # team 0 within near_target of 500
    far = bid_view(score=(100, 200))
    assert bid(STRONG, near, target_caution=1) == bid(STRONG, far, target_caution=1) - 1


def test_estimate_counts_protected_spades_and_ruffs():
    def est(text):
        return H.estimate_tricks(np.int64(cards(text)), np.int64(STANDARD_DECK), 1.0, 0.55, 0.55, 0.23, 0.75, 0.33)

    # KS guarded beats KS bare; a void with spare spades adds ruffing value
    assert est("KS 2S 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C") > est("KS 6H 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C")
    assert est("2S 3S 4S 2H 3H 4H 5H 6H 2D 3D 4D 5D 6D") > est("2S 3S 4S 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C")


def test_nil_danger_orders_hands():
    safe = H.nil_danger(np.int64(cards(LOW_NIL)))
    risky = H.nil_danger(np.int64(cards("QS JS 4S 2H 3H KH 2D 4D 6D 3C 5C 7C AC")))
    assert safe < risky
    assert H.nil_danger(np.int64(cards("2S 3S 4S 5S 6S 2H 3H 2D 3D 4D 2C 3C 4C"))) > 10  # five spades


# ------------------------------------------------------------------ blind nil
@pytest.mark.parametrize("score, partner_bid, on, expected", [
    ((100, 300), -1, 1, 1),   # trailing by 200 >= 100
    ((200, 300), -1, 1, 1),   # trailing by exactly the margin
    ((250, 300), -1, 1, 0),   # trailing by 50
    ((300, 100), -1, 1, 0),   # leading
    ((100, 300), 0, 1, 0),    # partner already bid Nil
    ((100, 300), -1, 0, 0),   # switched off
])
def test_blind_nil_from_score_only(score, partner_bid, on, expected):
    v = bid_view(seat=0, bids=(-1, 4, partner_bid, 3), score=score)
    p = params(blind_nil=on, blind_nil_margin=100)
    assert H.blind_nil(np.int64(0), v, p, RNG) == expected
    # seat 1 (team 1, partner seat 3) in the mirrored position
    v1 = bid_view(seat=1, bids=(4, -1, 3, partner_bid), score=score[::-1])
    assert H.blind_nil(np.int64(1), v1, p, RNG) == expected


# ------------------------------------------------------------------ exchange
def exchange(hand_text: str, role: int, n: int = 3, rules=PRESETS["cardems"]) -> set[str]:
    v = base_view(0, bids=(0, 4, 3, 4), deck=deck_of(rules), rules=rules)
    v[V_EXCHANGE_ROLE] = role
    v[V_EXCHANGE_N] = n
    m = int(H.exchange(np.int64(0), np.int64(cards(hand_text)), v, params(), RNG))
    assert popcount(m) == n and m & ~cards(hand_text) == 0
    return {card_name(c) for c in cards_of(m)}


def test_partner_passes_lowest_cards():
    assert exchange("2C 2D 3H 5S 9S 6H 7H 8C 9C TD JD QH KC", EXCHANGE_GIVE_FIRST) == {"2C", "2D", "3H"}


def test_partner_passes_side_cards_before_spades():
    # low spades would be forced to ruff late in the Nil bidder's hand: pass the low side cards
    assert exchange("2S 3S 9S KS AS 3C 4D 5H 6C 7D 8H 9C TD", EXCHANGE_GIVE_FIRST) == {"3C", "4D", "5H"}
    # with nothing else left, spades go too
    assert exchange("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 2H", EXCHANGE_GIVE_FIRST) == {"2H", "2S", "3S"}


def test_blind_nil_bidder_passes_most_dangerous():
    assert exchange("AS KS AH 2C 3C 4C 5D 6D 7D 2H 3H 4H 5H", EXCHANGE_GIVE_BACK) == {"AS", "KS", "AH"}


# ------------------------------------------------------------------ following suit
BIDS = (3, 3, 3, 3)


def test_second_hand_low_without_a_sure_winner():
    # seat 3 leads 5H; seat 0 holds K 9 3 of hearts with the ace outstanding
    v = trick_view(0, 3, "5H", BIDS)
    assert play("KH 9H 3H 2C 4D", v) == "3H"


def test_second_hand_cashes_a_master_when_asked():
    v = trick_view(0, 3, "5H", BIDS)
    assert play("AH 9H 3H 2C 4D", v) == "AH"
    assert play("AH 9H 3H 2C 4D", v, second_hand_cash=0) == "3H"


def test_third_hand_wins_with_the_cheapest_master():
    # partner (2) led 4H, right opponent (3) played 9H; the QH is still out: K and A are both masters
    v = trick_view(0, 2, "4H 9H", BIDS)
    assert play("AH KH 2H 5C", v) == "KH"


def test_third_hand_high_with_equal_cards():
    # A and K of hearts gone earlier: our Q and J are masters, Q and J equal -> the cheaper, J
    v = trick_view(0, 2, "4H 9H", BIDS, tricks=(1, 0, 0, 0), history={1: "AH", 3: "KH", 0: "3C", 2: "4C"})
    assert play("QH JH 2H 5C", v) == "JH"


def test_third_hand_stays_low_under_a_secure_partner():
    # partner led the AH (master), right opponent followed: play the lowest heart
    v = trick_view(0, 2, "AH 3H", BIDS)
    assert play("KH 9H 5H 2C", v) == "5H"


def test_fourth_hand_wins_cheaply_or_plays_low_under_partner():
    v = trick_view(0, 1, "9H 2H 5H", BIDS)  # left opponent (1) winning with 9H
    assert play("TH KH AH 3C", v) == "TH"
    v = trick_view(0, 1, "9H KH 5H", BIDS)  # partner (2) winning with KH
    assert play("AH 3H 4C", v) == "3H"


def test_cutthroat_has_no_partner_to_play_low_under():
    # the same trick as above, cutthroat: seat 2 is an opponent winning with the KH, so the last hand wins
    # it cheaply (the AH) instead of playing low under a "partner"
    v = trick_view(0, 1, "9H KH 5H", BIDS, rules=PRESETS["cutthroat"])
    assert play("AH 3H 4C", v) == "AH"
    # and with its own contract made and no bags wanted (bag_mode=avoid) it ducks as anyone would
    v = trick_view(0, 1, "9H KH 5H", BIDS, tricks=(BIDS[0], 0, 0, 0), rules=PRESETS["cutthroat"])
    assert play("AH 3H 4C", v, bag_mode="avoid") == "3H"


def test_void_fourth_hand_ruffs_with_the_lowest_spade():
    v = trick_view(0, 1, "9H 2H 5H", BIDS)
    assert play("3S 8S KS 4C 5D", v) == "3S"


def test_card_counting_finds_the_master_spade():
    # AS and KS played earlier: Q and J of spades are now masters; leading, we cash the cheaper
    v = trick_view(0, 0, "", BIDS, tricks=(0, 1, 1, 0),
                   history={1: "AS 2H", 2: "KS 3H", 3: "3S 4H", 0: "4S 5H"})
    assert play("QS JS 9S 2C 3D", v) == "JS"


def test_no_side_master_led_into_a_known_ruff():
    # AC is a master, but the left opponent showed void in clubs (and may ruff): lead elsewhere
    v = trick_view(0, 0, "", BIDS, tricks=(0, 1, 0, 0), voids={1: [0]},
                   history={0: "2D", 1: "3H", 2: "4D", 3: "AD"})
    assert play("AC 5C 7D 8D 9H", v) != "AC"


# two players (twohanded): seat 0 leads trick 6 (3 tricks each), its AH a master with one heart out (the 9H); its
# discards in the draw (V_PASSED) and the 12 cards played account for the other hearts; no other master
TWO_HISTORY = {0: "8H TH 2D 3D 4D 5D", 1: "JH QH KH 6D 7D 8D"}
TWO_DISCARDS = "2H 3H 4H 5H 6H 7H 2C 3C 4C 5C 6C 7C 8C"
TWO_HAND = "AH 9C TC 9D 2S 3S 4S"


def two_player_lead(discards=TWO_DISCARDS, voids=None) -> str:
    v = trick_view(0, 0, "", (5, 5, -1, -1), tricks=(3, 3, 0, 0), history=TWO_HISTORY, voids=voids,
                   rules=PRESETS["twohanded"])
    v[V_PASSED] = cards(discards)
    return play(TWO_HAND, v)


def test_two_players_cash_a_master_with_one_card_of_its_suit_out():
    """One opponent: the one heart out (9H) is in its hand or in its discards (out of play), so a void is a guess
    of even odds, not the near certainty of three other hands sharing one card: the master is cashed. (Before,
    the four-seat count kept it back and led the 9D.) No heart out, or the opponent shown void: it is not."""
    assert two_player_lead() == "AH"
    assert two_player_lead(TWO_DISCARDS + " 9H") == "9D"  # no heart out: the opponent is void
    assert two_player_lead(voids={1: [2]}) == "9D"  # shown void in hearts, spades still out
    # four players, the same holdings (the other hearts played by the three others): held back as before
    v = trick_view(0, 0, "", BIDS, tricks=(2, 2, 1, 1), trick_no=6,
                   history={1: "8H TH 2H 3H", 2: "JH QH 4H 5H", 3: "KH 6H 7H 2D"})
    assert play(TWO_HAND, v) != "AH"


def test_two_players_count_only_the_real_opponents_nil():
    """The opponent's Nil read from the one other seat (opp_nil_bid), the empty slots 2 and 3 never."""
    view = bid_view(0, bids=(-1, 0, -1, -1))
    write_rules(PRESETS["twohanded"].to_kernel(), view, V_RULES)
    alone = bid("AS KS QS AH KH QH 2C 3C 4C 5D 6D 7D 8D", view)
    assert bid("AS KS QS AH KH QH 2C 3C 4C 5D 6D 7D 8D", view, opp_nil_bid=2) == alone + 2
    view[V_BID + 1] = 4
    view[V_BID + 2] = 0  # a Nil in a slot of no seat: not an opponent's
    assert bid("AS KS QS AH KH QH 2C 3C 4C 5D 6D 7D 8D", view, opp_nil_bid=2) == alone


def test_partnerships_count_the_nil_of_either_opponent_not_the_partners():
    """With partnerships opp_nil_bid is added for a Nil on the left or on the right, never for the partner's Nil
    across (the partner's Nil is covered instead: cover_bid, the same with or without opp_nil_bid)."""
    hand = "AS KS QS AH KH QH 2C 3C 4C 5D 6D 7D 8D"
    no_nil = bid(hand)
    assert bid(hand, opp_nil_bid=2) == no_nil
    for nil_seat in (1, 3):
        bids = [-1, -1, -1, -1]
        bids[nil_seat] = 0
        assert bid(hand, bid_view(0, bids=tuple(bids)), opp_nil_bid=2) == no_nil + 2
    partner_nil = bid_view(0, bids=(-1, -1, 0, -1))
    assert bid(hand, partner_nil, opp_nil_bid=2) == bid(hand, partner_nil)


# ------------------------------------------------------------------ own Nil
NIL_BIDS = (0, 3, 4, 3)


def test_own_nil_plays_highest_card_that_loses():
    v = trick_view(0, 3, "9H", NIL_BIDS)
    assert play("2H 8H TH KH 5C", v) == "8H"


def test_own_nil_discards_most_dangerous_when_void():
    v = trick_view(0, 3, "9H", NIL_BIDS)
    assert play("KC 2C 5D 3S", v) == "KC"  # any spade would win: throw the king
    v = trick_view(0, 2, "9H AS", NIL_BIDS)  # a spade already wins the trick
    assert play("KS 9C 4D", v) == "KS"


def test_own_nil_forced_to_win():
    v = trick_view(0, 1, "2H 3H 4H", NIL_BIDS)  # last to play, every heart wins: shed the highest
    assert play("5H 9H 2C", v) == "9H"
    v = trick_view(0, 3, "2H", NIL_BIDS)        # second to play: the lowest, others may overtake
    assert play("5H 9H 2C", v) == "5H"


# ------------------------------------------------------------------ bag modes
def contract_made_view():
    # team 0 bid 3 + 2 and has taken 5; team 1 bid 4 + 4, has 3 with 5 tricks left (trick 8)
    return trick_view(0, 1, "9H 2H 5H", (3, 4, 2, 4), tricks=(3, 2, 2, 1), trick_no=8)


def test_avoid_ducks_once_contract_made_take_wins():
    v = contract_made_view()
    assert play("8H TH KH 3C", v, bag_mode="avoid") == "8H"
    assert play("8H TH KH 3C", v, bag_mode="take") == "TH"


def test_set_modes_win_while_opponents_can_be_set():
    v = contract_made_view()  # team 1 still needs 5 of the 5 tricks left
    assert play("8H TH KH 3C", v, bag_mode="set_take") == "TH"
    assert play("8H TH KH 3C", v, bag_mode="set") == "TH"
    # opponents already made their contract: set ducks, set_take takes
    v = trick_view(0, 1, "9H 2H 5H", (3, 2, 2, 2), tricks=(3, 4, 2, 0), trick_no=9)
    assert play("8H TH KH 3C", v, bag_mode="set") == "8H"
    assert play("8H TH KH 3C", v, bag_mode="set_take") == "TH"


def test_bag_guard_ducks_near_the_bag_limit():
    v = trick_view(0, 1, "9H 2H 5H", (3, 2, 2, 2), tricks=(3, 4, 2, 0), trick_no=9, bags=(8, 0))
    assert play("8H TH KH 3C", v, bag_mode="take", bag_guard=3) == "8H"
    assert play("8H TH KH 3C", v, bag_mode="take", bag_guard=0) == "TH"


def test_bag_guard_help_names_the_modes_it_acts_in():
    """Both contracts made, team 0 on 8 bags: the next overtrick makes 9, within 3 of the limit of 10 but not
    within 0, so bag_guard 3 against 0 changes the card in take and set_take only; avoid and set duck either
    way. While the opponents can still be set, set_take keeps winning whatever the guard. The help text names
    exactly the modes the guard acts in."""
    near = trick_view(0, 1, "9H 2H 5H", (3, 2, 2, 2), tricks=(3, 4, 2, 0), trick_no=9, bags=(8, 0))
    acts = {m for m in ("take", "avoid", "set_take", "set")
            if play("8H TH KH 3C", near, bag_mode=m, bag_guard=3) != play("8H TH KH 3C", near, bag_mode=m, bag_guard=0)}
    assert acts == {"take", "set_take"}
    settable = trick_view(0, 1, "9H 2H 5H", (3, 4, 2, 4), tricks=(3, 2, 2, 1), trick_no=8, bags=(8, 0))
    assert play("8H TH KH 3C", settable, bag_mode="set_take", bag_guard=3) == "TH"  # team 1 still needs 5 of 5
    s = get("heuristic")
    text = s.params[s.index("bag_guard")].help
    assert set(re.findall(r"\b(?:take|avoid|set_take|set)\b", text.partition(":")[0])) == acts


# ------------------------------------------------------------------ partner's Nil
COVER_BIDS = (4, 3, 0, 3)  # seat 2 (our partner) bid Nil


def test_cover_overtakes_a_partner_who_is_winning():
    v = trick_view(0, 1, "5H 9H 7H", COVER_BIDS)
    assert play("TH KH 2H 4C", v) == "TH"
    assert play("TH KH 2H 4C", v, cover_nil=0) == "2H"  # otherwise: stay under the partner


def test_cover_plays_high_before_the_partner():
    v = trick_view(0, 3, "5H", COVER_BIDS)  # partner plays after us
    assert play("AH 9H 3H 4C", v) == "AH"


def test_cover_leads_high():
    v = trick_view(0, 0, "", COVER_BIDS)
    assert play("AH 2H 7C 3D", v) == "AH"


# ------------------------------------------------------------------ opponents' Nil
def test_attack_leads_low_in_a_suit_the_nil_bidder_holds():
    v = trick_view(0, 0, "", (3, 0, 4, 4))  # left opponent bid Nil
    assert play("2H 9H KC 5D", v) == "2H"


def test_attack_stays_under_a_nil_bidder_who_wins():
    v = trick_view(0, 3, "8H", (3, 4, 4, 0))  # right opponent (Nil) led 8H and is winning
    assert play("2H 7H TH 4C", v) == "7H"
    assert play("2H 7H TH 4C", v, attack_nil=0) == "2H"  # second hand low otherwise


def test_attack_keeps_the_trick_low_before_the_nil_bidder():
    # partner led 5D and wins it; the Nil bidder (1) plays after us: stay under 5D, never ruff
    v = trick_view(0, 2, "5D 2D", (3, 0, 4, 4))
    assert play("AD 4D 3D 7C", v) == "3D"
    assert play("AD 4D 3D 7C", v, attack_nil=0) == "AD"  # otherwise third hand takes the low lead
    assert play("5S 8S 2C 7C", v) == "2C"


# ------------------------------------------------------------------ jokers
def test_jokers_are_the_top_spades():
    assert bid("BJ LJ AS 3S 2C 3C 4C 5C 6D 7D 8D 3H 4H", bid_view(deck=JOKER_DECK)) >= 3
    v = trick_view(0, 1, "9H 3H 5H", BIDS, deck=JOKER_DECK)
    assert play("LJ 4S 4C 5D", v) == "4S"


# ------------------------------------------------------------------ the deuce decks: the promoted 2s by the deck's order
def deck_of(rules) -> int:
    """The mask of the rules' deck (the view's V_DECK)."""
    return int(np.bitwise_or.reduce(np.int64(1) << deck_template(rules)))


def deck_rules(deck: str):
    return build_rules("cardems", [f"deck={deck}"])


# the jokers are out (and with joker_deuce_deuce the 2♠ too): the deck's top spade left is the promoted 2 in hand,
# above the A♠, which is still out. Four tricks played (bids 3 each, one trick a seat); 16 cards of the deck
# (joker_removes: 2♥ 2♦ out of joker_deuce_ace, 2♣ 2♥ out of joker_deuce_deuce)
DEUCE_HISTORY = {
    "joker_ace": {0: "6C 7C 8C 9C", 1: "LJ TC JC QC", 2: "KC AC 3D 4D", 3: "BJ 5D 6D 7D"},
    "joker_deuce_ace": {0: "6C 7C 8C 9C", 1: "LJ TC JC QC", 2: "KC AC 3D 4D", 3: "BJ 5D 6D 7D"},
    "joker_deuce_deuce": {0: "6C 7C 8C 9C", 1: "LJ 2S JC QC", 2: "KC AC 3D 4D", 3: "BJ 5D 6D 7D"},
}
PROMOTED = {"joker_deuce_ace": "2S", "joker_deuce_deuce": "2D"}


@pytest.mark.parametrize("deck", ["joker_deuce_ace", "joker_deuce_deuce"])
def test_third_hand_wins_with_the_promoted_two_as_the_master_spade(deck):
    """The partner (seat 2) led the 4♠, seat 3 the 9♠; seat 0 holds the promoted 2, the K♠ and the 5♠ and wants
    tricks (its side has 2 of 6). Both the 2 and the K♠ beat the 9♠; the A♠ is out, so the K♠ is no master, the 2
    (above the A♠, the jokers gone) is: third hand takes the trick with its cheapest master, the 2."""
    rules = deck_rules(deck)
    v = trick_view(0, 2, "4S 9S", BIDS, tricks=(1, 1, 1, 1), history=DEUCE_HISTORY[deck], deck=deck_of(rules),
                   rules=rules)
    two = PROMOTED[deck]
    assert play(f"{two} KS 5S 3H 4H", v) == two


def test_third_hand_plays_the_king_where_the_two_is_the_lowest_spade():
    """The same trick in joker_ace, with the 2♠ (its lowest spade) in hand: no master (the A♠ is out), so third
    hand plays its highest card that wins, the K♠."""
    rules = deck_rules("joker_ace")
    v = trick_view(0, 2, "4S 9S", BIDS, tricks=(1, 1, 1, 1), history=DEUCE_HISTORY["joker_ace"],
                   deck=deck_of(rules), rules=rules)
    assert play("2S KS 5S 3H 4H", v) == "KS"


@pytest.mark.parametrize("deck", ["joker_deuce_ace", "joker_deuce_deuce"])
def test_a_duck_never_plays_the_promoted_two_as_a_low_spade(deck):
    """Contract made (bids 2 + 2, 2 + 2 taken), bag_mode=avoid: seat 0, second to the 5♠ led by seat 3, would lose
    the trick but cannot: the 7♠ and the promoted 2 both beat the 5♠. Forced to beat it, it beats with the cheaper
    card, the 7♠ (which a later card may still beat), never with the 2, which surely wins."""
    rules = deck_rules(deck)
    v = trick_view(0, 3, "5S", (2, 3, 2, 3), tricks=(2, 2, 2, 2), history=DEUCE_HISTORY[deck], deck=deck_of(rules),
                   rules=rules)
    assert play(f"{PROMOTED[deck]} 7S 3H 4H", v, bag_mode="avoid") == "7S"


@pytest.mark.parametrize("deck", ["joker_deuce_ace", "joker_deuce_deuce"])
def test_the_blind_nil_bidder_gives_back_the_promoted_two_first(deck):
    """The Blind Nil bidder gives back its most dangerous cards: high spades first. The promoted 2 ranks above the
    A♠ (and the 2♦ of joker_deuce_deuce is a spade), so with the K♠ and the A♥ it goes before both."""
    given = exchange(f"{PROMOTED[deck]} KS AH 3C 4C 5C 5D 6D 7D 3H 4H 5H 6H", EXCHANGE_GIVE_BACK, n=2,
                     rules=deck_rules(deck))
    assert given == {PROMOTED[deck], "KS"}


# ------------------------------------------------------------------ properties
def deal(seed: int, deck: int) -> list[int]:
    ids = np.random.default_rng(seed).permutation(np.array(cards_of(deck), dtype=np.int64))
    return [mask_of(ids[13 * s:13 * s + 13]) for s in range(4)]


def play_out(seed, dealer, seat_params, seat_strats, deck, score, bags):
    """One whole hand through the policies (a plain-Python mirror of the kernel's loop)."""
    hands = deal(seed, deck)
    v = base_view(0, score=score, bags=bags, deck=deck)
    v[V_DEALER] = dealer
    for k in range(4):
        s = (dealer + 1 + k) & 3
        v[V_SEAT], v[V_NIL_ALLOWED], v[V_MIN_BID] = s, 1, 1
        b = int(seat_strats[s].policies["bid"](np.int64(s), np.int64(hands[s]), v, seat_params[s], RNG))
        assert b == 0 or 1 <= b <= 13
        v[V_BID + s] = b
    v[V_NIL_ALLOWED] = v[V_MIN_BID] = 0
    leader = (dealer + 1) & 3
    for t in range(13):
        v[V_TRICK_NO], v[V_LEADER], v[V_NPLAYED] = t, leader, 0
        v[V_LED_SUIT] = v[V_WINNING_SEAT] = v[V_WINNING_CARD] = -1
        v[V_TRICK:V_TRICK + 4] = -1
        for k in range(4):
            s = (leader + k) & 3
            v[V_SEAT] = s
            legal = legal_mask(hands[s], v)
            c = int(seat_strats[s].policies["play"](np.int64(s), np.int64(hands[s]), np.int64(legal), v, seat_params[s], RNG))
            assert 0 <= c <= 53 and (legal >> c) & 1, (seed, t, s, c)
            hands[s] ^= 1 << c
            if k == 0:
                v[V_LED_SUIT], win_seat, win_card = card_suit(c), s, c
            else:
                if card_suit(c) != v[V_LED_SUIT]:
                    v[V_VOID + s] |= 1 << v[V_LED_SUIT]
                    v[V_BROKEN] |= card_suit(c) == SPADES
                if beats(c, win_card):
                    win_seat, win_card = s, c
            v[V_TRICK + s] = c
            v[V_PLAYED + s] |= 1 << c
            v[V_NPLAYED] = k + 1
            v[V_WINNING_SEAT] = win_seat
            v[V_WINNING_CARD] = win_card
        v[V_TRICKS + win_seat] += 1
        leader = win_seat
    assert v[V_TRICKS:V_TRICKS + 4].sum() == 13


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 3), jokers=st.booleans(),
       mode=st.sampled_from(["take", "avoid", "set_take", "set"]), nil=st.booleans(),
       adjust=st.floats(-3, 3), threshold=st.floats(-5, 50), randoms=st.lists(st.booleans(), min_size=4, max_size=4),
       score=st.tuples(st.integers(-300, 600), st.integers(-300, 600)),
       bags=st.tuples(st.integers(0, 9), st.integers(0, 9)))
def test_whole_hands_only_legal_cards(seed, dealer, jokers, mode, nil, adjust, threshold, randoms, score, bags):
    """Random deals, parameters and opponents (some seats random): every bid and card is legal."""
    p = params(bag_mode=mode, nil=int(nil), bid_adjust=adjust, nil_threshold=threshold)
    rnd = get("random")
    strats = [rnd if r else get("heuristic") for r in randoms]
    seat_params = [rnd.param_vector({"nil_prob": 0.3}) if r else p for r in randoms]
    play_out(seed, dealer, seat_params, strats, JOKER_DECK if jokers else STANDARD_DECK, score, bags)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 6), role=st.sampled_from([EXCHANGE_GIVE_FIRST,
                                                                                    EXCHANGE_GIVE_BACK]))
def test_exchange_returns_n_cards_of_the_hand(seed, n, role):
    hand = deal(seed, STANDARD_DECK)[0]
    v = base_view(0, bids=(0, 3, 4, 3))
    v[V_EXCHANGE_ROLE], v[V_EXCHANGE_N] = role, n
    m = int(H.exchange(np.int64(0), np.int64(hand), v, params(), RNG))
    assert popcount(m) == n and m & ~hand == 0


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), min_bid=st.integers(1, 13), nil_allowed=st.integers(0, 1),
       partner=st.integers(-1, 13), adjust=st.floats(-5, 5))
def test_bid_in_range(seed, min_bid, nil_allowed, partner, adjust):
    hand = deal(seed, STANDARD_DECK)[0]
    v = bid_view(seat=0, bids=(-1, -1, partner, -1), nil_allowed=nil_allowed, min_bid=min_bid)
    b = int(H.bid(np.int64(0), np.int64(hand), v, params(bid_adjust=adjust), RNG))
    assert (b == 0 and nil_allowed) or min_bid <= b <= 13


# ------------------------------------------------------------------ against the engine
@pytest.mark.slow
def test_engine_sanity_numbers():
    """Self-play contracts mostly made; heuristic beats random in nearly every game."""
    from tricksim.simulator import engine
    from tricksim.simulator.games.spades.rules import build_rules

    seats = [parse_spec("heuristic")] * 4
    hands = engine.run_to_tables(engine.RunConfig(rules=build_rules("cardems"), seats=seats, seed=1,
                                                     mode="hands", count=4000))["hands"]
    d = hands.to_pandas()
    made = []
    for a, b in ((0, 2), (1, 3)):
        ba, bb = d[f"bid_{a}"].to_numpy(), d[f"bid_{b}"].to_numpy()
        contract = np.where(ba > 0, ba, 0) + np.where(bb > 0, bb, 0)
        taken = np.where(ba > 0, d[f"tricks_{a}"], 0) + np.where(bb > 0, d[f"tricks_{b}"], 0)
        made.append((taken >= contract)[contract > 0])
    assert np.concatenate(made).mean() >= 0.8
    seats = [parse_spec("heuristic"), parse_spec("random")] * 2
    games = engine.run_to_tables(engine.RunConfig(rules=build_rules("cardems"), seats=seats, seed=1,
                                                     mode="games", count=300, hand_limit=1000))["games"]
    assert (games.column("winner").to_numpy() == 0).mean() >= 0.97


def test_force_nil_bids_nil_on_any_hand_but_only_when_allowed():
    strong = "AS KS QS JS AH KH AD KD AC KC QC JC TC"
    assert bid(strong, force_nil=1) == 0
    assert bid(strong, bid_view(nil_allowed=0), force_nil=1) >= 5
    assert bid(strong) >= 5


# ------------------------------------------------------------------ zero_bid=zero: a 0 is no Nil
def zero_rule(v):
    """The view under ``zero_bid=zero``: a bid of 0 is an ordinary contract of zero tricks."""
    from tricksim.simulator.games.spades.policy import R_ZERO_BID, V_RULES
    from tricksim.simulator.games.spades.rules import CHOICES

    v[V_RULES + R_ZERO_BID] = CHOICES["zero_bid"].index("zero")
    return v


def test_zero_bid_own_zero_is_played_for_the_partners_contract():
    """Seat 0 bid 0 and plays last to ♥2 ♥3 ♥4, holding ♥5 ♥9 ♣2. As a Nil it sheds the highest heart (the ♥9,
    test_own_nil_forced_to_win); as a zero contract beside a partner who bid 4 and a team with no trick yet, it
    wins the trick with its cheapest winner, the ♥5 (test_fourth_hand_wins_cheaply_or_plays_low_under_partner)."""
    v = zero_rule(trick_view(0, 1, "2H 3H 4H", NIL_BIDS))
    assert play("5H 9H 2C", v) == "5H"


def test_zero_bid_partners_zero_is_not_covered():
    """The partner (seat 2) bid 0 and wins the trick with the ♥9: a Nil would be overtaken (the ♥T,
    test_cover_overtakes_a_partner_who_is_winning); a zero contract is not, so seat 0 stays under it (the ♥2,
    what the same test gives without cover)."""
    v = zero_rule(trick_view(0, 1, "5H 9H 7H", COVER_BIDS))
    assert play("TH KH 2H 4C", v) == "2H"


WEAK = "2S 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C 5C"


def test_zero_bid_a_hand_worth_no_trick_bids_a_zero_contract():
    """Under ``zero_bid=zero`` the engine's smallest bid is 0 (``V_MIN_BID``; phases.start_bid). ``WEAK`` holds no
    ace, king or queen, no short side suit and one spade, worth 0.07 tricks by the fitted length table
    (``SPADE_LENGTH[1]``): with ``bid_adjust`` -0.3 the estimate is -0.23, which rounds to 0, a zero-trick
    contract. With ``zero_contract=0`` the bid is 1, the rule before issue #28's review; under ``zero_bid=nil``
    with Nil off the smallest bid stays 1. The A♠ alone adds 1.05 (``SPADE_TOP[0]``): 0.82 rounds to 1."""
    assert H.estimate_tricks(np.int64(cards(WEAK)), np.int64(STANDARD_DECK), 1.0, 0.55, 0.55, 0.23, 0.75,
                             0.33) == pytest.approx(0.07)
    zero = zero_rule(bid_view(nil_allowed=0, min_bid=0))
    assert bid(WEAK, zero) == 0
    assert bid(WEAK, zero, zero_contract=0) == 1
    assert bid(WEAK, bid_view(nil_allowed=0)) == 1
    assert bid("AS 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C 5C", zero) == 1


# ------------------------------------------------------------------ ten for two hundred
def test_big_bid_pays_by_the_expected_scores():
    """Worked by hand with the made probability 1 / (1 + exp(-1.5 (est + 0.5 - n))): a side estimated at 9.0 tricks
    makes 10 with 0.3208 and 9 with 0.6792. Raised to 10 for 500 (set -100, tens): 0.3208 x 500 - 0.6792 x 100 =
    92.5 against 9 tricks' 90 x (2 x 0.6792 - 1) = 32.3: it pays. For 200: 64.2 - 67.9 = -3.7: it does not. For 500
    set at -500 (big_bid_set=value): 160.4 - 339.6 = -179.2: it does not."""
    assert H.big_bid_pays(9.0, 9, 10, 500, False)
    assert not H.big_bid_pays(9.0, 9, 10, 200, False)
    assert not H.big_bid_pays(9.0, 9, 10, 500, True)


def test_big_bid_the_last_bidder_raises_the_team_when_it_pays():
    """The A♠ and nothing else: 0.07 + 1.05 - 0.3 = 0.82 tricks, a bid of 1. The partner bid 8: the team's 9 is one
    short of the threshold 10 and its estimate 8.82. For 500: 10 made with 0.265, 9 with 0.618; 0.265 x 500 - 0.735
    x 100 = 59.0 against 90 x 0.235 = 21.2: the seat bids 2. For 200: 53.0 - 73.5 < 21.2: it bids 1, as it does with
    big_bid=0 or with the threshold off, and as the team's first bidder (the partner not yet bid)."""
    from tricksim.simulator.games.spades.policy import R_BIG_BID_THRESHOLD, R_BIG_BID_VALUE, V_RULES

    def view(value, partner=8):
        v = bid_view(seat=0, bids=(-1, 3, partner, -1))
        v[V_RULES + R_BIG_BID_THRESHOLD] = 10
        v[V_RULES + R_BIG_BID_VALUE] = value
        return v

    ace = "AS 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C 5C"
    assert bid(ace, view(500)) == 2
    assert bid(ace, view(500), big_bid=0) == 1
    assert bid(ace, view(200)) == 1
    assert bid(ace, view(500, partner=-1)) == 1
    assert bid(ace, bid_view(seat=0, bids=(-1, 3, 8, -1))) == 1


def test_big_bid_counts_a_partners_zero_contract_as_a_bid_of_zero():
    """Under ``zero_bid=zero`` the partner's 0 is a contract of zero tricks, a bid: the seat is the team's last bidder
    and its bid is the team's. The A♠ hand above: 0.82 tricks, a bid of 1 (no Nil to cover: no cover bid). With the
    threshold at 2 for 200 (tens when set): 2 made with 1 / (1 + exp(-1.5 (0.82 + 0.5 - 2))) = 0.265, 1 with
    1 / (1 + exp(-1.5 (0.82 + 0.5 - 1))) = 0.618; 0.265 x 200 - 0.735 x 20 = 38.3 against 10 x (2 x 0.618 - 1) = 2.4:
    the seat bids 2. For 20: 5.3 - 14.7 < 2.4: it bids 1, as with big_bid=0 and before the partner has bid."""
    from tricksim.simulator.games.spades.policy import R_BIG_BID_THRESHOLD, R_BIG_BID_VALUE, V_RULES

    def view(value, partner=0):
        v = zero_rule(bid_view(seat=0, bids=(-1, 3, partner, -1), nil_allowed=0, min_bid=0))
        v[V_RULES + R_BIG_BID_THRESHOLD] = 2
        v[V_RULES + R_BIG_BID_VALUE] = value
        return v

    ace = "AS 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C 5C"
    assert bid(ace, view(200)) == 2
    assert bid(ace, view(20)) == 1
    assert bid(ace, view(200), big_bid=0) == 1
    assert bid(ace, view(200, partner=-1)) == 1


def test_the_spade_length_table_covers_every_spade_count_a_hand_may_hold():
    """A hand may hold every spade of its deck (17 cards in cutthroat3): 16 in joker_deuce_deuce (13 + two jokers +
    the 2♦). ``estimate_tricks`` reads ``SPADE_LENGTH[n]`` for n spades, unchecked in compiled code."""
    most = max(popcount(int(decks.SUIT_MASKS[d, SPADES])) for d in range(len(decks.DECKS)))
    assert most == 16
    assert len(H.SPADE_LENGTH) > most
