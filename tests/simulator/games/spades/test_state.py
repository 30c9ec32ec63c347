"""The step API (``SpadesState``) plays the same hands as the batch kernel, on the same phases."""
import random

import numpy as np
import pytest

from tricksim.simulator.bits import cards_of, mask_of, popcount
from tricksim.simulator.engine import RunConfig, run_to_tables
from tricksim.simulator.games.spades import phases
from tricksim.simulator.games.spades.cards import SPADES, card_suit, parse_card
from tricksim.simulator.games.spades.kernel import score_hand
from tricksim.simulator.games.spades.policy import V_BROKEN, VIEW_SIZE
from tricksim.simulator.games.spades.rules import build_rules
from tricksim.simulator.games.spades.state import (
    BID_0,
    BLIND_NIL,
    NO_BLIND_NIL,
    IllegalAction,
    Phase,
    SpadesState,
)
from tricksim.strategies.registry import parse_spec

RARE = ["mercy=-200", "mercy_check=before_target", "min_team_bid=4", "nil_tricks=contract",
        "blind_nil_eligibility=trailing", "blind_nil_deficit=50", "exchange_order=bidder_first",
        "jokers=true", "first_lead=two_of_clubs"]
SEATS = ("random:nil_prob=0.3,blind_nil_prob=0.3", "heuristic", "simple", "heuristic:bag_mode=avoid")


def play_out(state: SpadesState, seats) -> SpadesState:
    """Every decision asked of the seat's strategy, as the kernel asks it."""
    while not state.is_terminal():
        decision = state.policy_action(seats[state.current_player()])
        for action in decision if isinstance(decision, list) else [decision]:
            state.apply(action)
    return state


def row_of(state: SpadesState) -> dict:
    return {"dealer": state.dealer, "first_leader": state.first_leader,
            **{f"dealt_{s}": int(state.dealt[s]) for s in range(4)},
            **{f"held_{s}": int(state.held[s]) for s in range(4)},
            **{f"bid_{s}": b for s, (b, _) in enumerate(state.bids())},
            **{f"blind_{s}": bool(bl) for s, (_, bl) in enumerate(state.bids())},
            **{f"tricks_{s}": int(state.tricks[s]) for s in range(4)},
            "score_0": state.scores()[0], "score_1": state.scores()[1],
            "bags_0": int(state.bags[0]), "bags_1": int(state.bags[1]),
            "total_0": int(state.totals[0]), "total_1": int(state.totals[1]), "plays": state.plays}


@pytest.mark.parametrize("preset, rules", [("cardems", []), ("classic", []), ("classic", RARE),
                                          ("classic", ["breaking=false"])])
def test_hands_mode_same_hands_as_the_kernel(preset, rules):
    rule_set = build_rules(preset, rules)
    seats = tuple(parse_spec(s) for s in SEATS)
    cfg = RunConfig(rules=rule_set, preset=preset, seats=seats, seed=11, count=120, record_plays=True)
    kernel = run_to_tables(cfg)["hands"].to_pylist()
    for i, want in enumerate(kernel):
        got = row_of(play_out(SpadesState(rule_set, seed=11, game_id=i), seats))
        assert got == {k: want[k] for k in got}, f"hand {i}"


def test_whole_games_same_as_the_kernel():
    rule_set = build_rules("classic", ["target=200"])
    seats = tuple(parse_spec(s) for s in SEATS)
    tables = run_to_tables(RunConfig(rules=rule_set, seats=seats, seed=5, mode="games", count=6, record_plays=True))
    hands, games = tables["hands"].to_pylist(), tables["games"].to_pylist()
    row = 0
    for g, game in enumerate(games):
        state = SpadesState(rule_set, seed=5, game_id=g)
        while state is not None:
            play_out(state, seats)
            want = hands[row]
            assert (want["game_id"], want["hand_no"]) == (g, state.hand_no)
            got = row_of(state)
            assert got == {k: want[k] for k in got}, (g, state.hand_no)
            row += 1
            last, state = state, state.next_hand()
        assert last.hand_no + 1 == game["hands"]
        assert (int(last.totals[0]), int(last.totals[1])) == (game["total_0"], game["total_1"])
        assert last.game_end() == (game["winner"], game["end"])
    assert row == len(hands)


def test_actions_legality_observation_and_log():
    s = SpadesState(build_rules("classic"), seed=3, game_id=1)  # dealer 1: seat 2 bids first
    assert s.phase == Phase.BLIND_NIL and s.current_player() == 2
    assert s.legal_actions() == [BLIND_NIL, NO_BLIND_NIL]
    assert s.observation(2).hand is None and s.observation(3).hand == int(s.dealt[3])
    with pytest.raises(IllegalAction, match=r"bid 3 \(57\) is not legal for seat 2 now: allowed Blind Nil, no"):
        s.apply(BID_0 + 3)
    s.apply(BLIND_NIL)
    for _ in range(3):  # the others look at their cards and bid 3
        s.apply(NO_BLIND_NIL)
        assert s.legal_actions() == [BID_0] + [BID_0 + b for b in range(1, 14)]
        s.apply(BID_0 + 3)
    # partner (seat 0) passes 3 cards to the Blind Nil bidder, then the bidder passes 3 back
    assert s.phase == Phase.EXCHANGE and s.current_player() == 0
    given = s.legal_actions()[:3]
    for c in given:
        s.apply(c)
    assert s.current_player() == 2 and all(int(s.hands[2]) >> c & 1 for c in given)
    for c in s.legal_actions()[-3:]:
        s.apply(c)
    assert s.phase == Phase.PLAY and [popcount(h) for h in s.held] == [13] * 4
    rnd = random.Random(0)
    while not s.is_terminal():
        s.apply(rnd.choice(s.legal_actions()))
    assert sorted(s.plays) == sorted(c for h in s.held for c in cards_of(h))
    assert sum(s.tricks) == 13 and len(s.events) == 1 + 2 * 3 + 6 + 52
    assert s.legal_actions() == [] and s.current_player() == -1
    with pytest.raises(IllegalAction, match="^the hand is over$"):  # nothing left to ask a strategy
        s.policy_action(parse_spec("random"))
    bids = [b for b, _ in s.bids()]
    want, _ = score_hand(s.rules, bids, [bl for _, bl in s.bids()], list(s.tricks))
    assert s.scores() == want


def test_a_random_walk_of_legal_actions_always_ends_with_every_card_played():
    rnd = random.Random(1)
    for i in range(30):
        s = SpadesState(build_rules("classic", ["jokers=true"]), seed=i, game_id=i)
        while not s.is_terminal():
            s.apply(rnd.choice(s.legal_actions()))
        assert len(s.plays) == 52 and len(set(s.plays)) == 52
        assert np.array_equal(s.hands, np.zeros(4, np.int64)) and sum(s.tricks) == 13


# ----------------------------------------------------------------- the breaking flag, on hand-built positions
def cards(*names) -> int:
    return int(mask_of(np.array([parse_card(n) for n in names], np.int64)))


NO_BREAKING = ["breaking=false"]


@pytest.mark.parametrize("overrides, t, hand, broken, legal", [
    # spades not broken, other suits held: no spade may be led with breaking, any card without
    ([], 3, ("AS", "2S", "5H", "KD"), 0, ("5H", "KD")),
    (NO_BREAKING, 3, ("AS", "2S", "5H", "KD"), 0, ("AS", "2S", "5H", "KD")),
    # spades broken: any card either way
    ([], 3, ("AS", "2S", "5H", "KD"), 1, ("AS", "2S", "5H", "KD")),
    (NO_BREAKING, 3, ("AS", "2S", "5H", "KD"), 1, ("AS", "2S", "5H", "KD")),
    # nothing but spades: a spade must be led either way
    ([], 5, ("AS", "2S"), 0, ("AS", "2S")),
    (NO_BREAKING, 5, ("AS", "2S"), 0, ("AS", "2S")),
    # the first trick: any card (no spade with breaking), but only the 2♣ with first_lead=two_of_clubs
    ([], 0, ("2C", "AS", "3H"), 0, ("2C", "3H")),
    (NO_BREAKING, 0, ("2C", "AS", "3H"), 0, ("2C", "AS", "3H")),
    (["first_lead=two_of_clubs"], 0, ("2C", "AS", "3H"), 0, ("2C",)),
    (["first_lead=two_of_clubs", "breaking=false"], 0, ("2C", "AS", "3H"), 0, ("2C",)),
    (["first_lead=two_of_clubs", "breaking=false"], 1, ("AS", "3H"), 0, ("AS", "3H")),
    # the jokers are spades
    (["jokers=true"], 4, ("BJ", "LJ", "3H"), 0, ("3H",)),
    (["jokers=true", "breaking=false"], 4, ("BJ", "LJ", "3H"), 0, ("BJ", "LJ", "3H")),
])
def test_legal_leads_follow_the_breaking_flag(overrides, t, hand, broken, legal):
    rules = build_rules("cardems", overrides).to_kernel()
    assert phases.legal_leads(rules, t, cards(*hand), broken) == cards(*legal)


@pytest.mark.parametrize("overrides, hand, lead, broken_after", [
    # without breaking a spade lead breaks nothing, whether the leader holds other suits or not (only the
    # leader knows which: RULES.md 1.3)
    (["breaking=false", "forced_spade_lead_breaks=true"], ("AS", "5H"), "AS", 0),
    (["breaking=false", "forced_spade_lead_breaks=false"], ("AS", "5H"), "AS", 0),
    (["breaking=false", "forced_spade_lead_breaks=true"], ("AS", "2S"), "AS", 0),
    (["breaking=false", "forced_spade_lead_breaks=false"], ("AS", "2S"), "AS", 0),
    # with breaking, a forced spade lead (nothing but spades) breaks spades exactly when
    # forced_spade_lead_breaks says so
    (["forced_spade_lead_breaks=true"], ("AS", "2S"), "AS", 1),
    (["forced_spade_lead_breaks=false"], ("AS", "2S"), "AS", 0),
    # no spade: nothing changes
    (["breaking=false", "forced_spade_lead_breaks=true"], ("AS", "5H"), "5H", 0),
])
def test_a_spade_lead_breaks_spades_only_when_forced(overrides, hand, lead, broken_after):
    rules = build_rules("cardems", overrides).to_kernel()
    view, hands = np.zeros(VIEW_SIZE, np.int64), np.zeros(4, np.int64)
    hands[1] = cards(*hand)
    led, broken = phases.apply_lead(rules, view, hands, 0, 1, parse_card(lead), 0)
    assert (led, broken, view[V_BROKEN]) == (card_suit(parse_card(lead)), broken_after, broken_after)
    assert hands[1] == cards(*hand) & ~cards(lead)


def after_bids(overrides, seed) -> SpadesState:
    s = SpadesState(build_rules("cardems", overrides), seed=seed, game_id=0)
    for _ in range(4):
        s.apply(BID_0 + 3)
    assert s.phase == Phase.PLAY
    return s


def test_the_step_api_lets_a_spade_be_led_at_once_only_without_breaking():
    for seed in range(20):  # a deal whose first leader holds spades and other suits
        hand = int(after_bids([], seed).hands[after_bids([], seed).current_player()])
        spades = [c for c in cards_of(hand) if card_suit(c) == SPADES]
        if spades and len(spades) < 13:
            break
    with_breaking, without = after_bids([], seed), after_bids(NO_BREAKING, seed)
    assert with_breaking.current_player() == without.current_player()
    assert with_breaking.legal_actions() == [c for c in cards_of(hand) if card_suit(c) != SPADES]
    assert without.legal_actions() == cards_of(hand)
    with pytest.raises(IllegalAction, match="is not legal"):
        with_breaking.apply(spades[0])
    without.apply(spades[0])  # led before spades are broken
    assert without.plays == [spades[0]]
    rnd = random.Random(seed)
    while not without.is_terminal():
        without.apply(rnd.choice(without.legal_actions()))
    assert sum(without.tricks) == 13
