"""The Tarot step API (``TarotState``) plays the same deals as the batch kernel, on the same phases."""
import random

import numpy as np
import pytest

from tricksim.simulator.engine import RunConfig, run_to_tables
from tricksim.simulator.games.tarot import cards
from tricksim.simulator.games.tarot.phases import VOID_ALL_PASS, VOID_PETIT_SEC
from tricksim.simulator.games.tarot.policy import V_CHIEN_S, V_CHIEN_T, V_DISCARD_T, V_POIGNEE_T
from tricksim.simulator.games.tarot.rules import build_rules
from tricksim.simulator.games.tarot.state import (
    BID_0,
    CHELEM,
    NO_CHELEM,
    POIGNEE_0,
    IllegalAction,
    Phase,
    TarotState,
)
from tricksim.strategies.registry import parse_spec

MIXED = ("heuristic", "random:chelem_prob=0.9", "heuristic:defender_poignee=1,chelem_losers=2", "random")
RARE = ["petit_sec_redeal=false", "discard_trumps=free", "poignee_hand=as_dealt", "poignee_excuse=always",
        "poignee_four_kings=never", "chelem_defenders_slam=announcement_only", "excuse_last_trick=announced_only",
        "target_oudlers=held", "excuse_lead=forbidden", "excuse_last_trick_side=trick_winner"]
PASS, PRISE, GARDE, GARDE_CONTRE = BID_0, BID_0 + 1, BID_0 + 2, BID_0 + 4


def play_out(state: TarotState, seats) -> TarotState:
    """Every decision asked of the seat's strategy, as the kernel asks it."""
    while not state.is_terminal():
        state.apply(state.policy_action(seats[state.current_player()]))
    return state


def words(suits, trumps) -> tuple[int, int]:
    return cards.join(int(suits), int(trumps))


def row_of(state: TarotState) -> dict:
    """The state's deal in the columns of the deals table (docs/output.md)."""
    row = {"deal_id": state.deal_id, "dealer": state.dealer, "void": state.void, "taker": state.taker,
           "contract": state.contract, "chelem": state.chelem, "first_leader": state.first_leader,
           "taker_points": state.taker_half / 2, "oudlers": state.oudlers, "target": state.target, "won": state.won,
           "petit_au_bout": state.petit_au_bout, "poignee": state.poignee(), "slam": state.slam,
           "plays": state.plays}
    if state.seats == 5:  # the call (docs/output.md, five players)
        row |= {"called": state.called, "partner": state.partner, "partner_revealed": state.partner_revealed}
    for s in range(state.seats):
        row[f"dealt_lo_{s}"], row[f"dealt_hi_{s}"] = words(state.dealt[0][s], state.dealt[1][s])
        row[f"poignee_lo_{s}"], row[f"poignee_hi_{s}"] = words(0, state.poignees[s])
        row[f"bid_{s}"] = max(state.bids()[s], 0)  # a seat that never spoke (Petit sec): 0 in the table
        row[f"score_{s}"] = state.scores()[s]
    row["chien_lo"], row["chien_hi"] = words(*state.chien)
    row["discard_lo"], row["discard_hi"] = words(state.discard_s, state.discard_t)
    return row


@pytest.mark.parametrize("preset, rules, seats", [
    ("cardavia", [], ("random",) * 4), ("cardavia", [], ("heuristic",) * 4), ("cardavia", [], MIXED),
    ("cardavia", RARE, MIXED), ("fft3", [], ("random",) * 3), ("fft3", [], MIXED[:3]), ("fft5", [], ("random",) * 5),
    ("fft5", [], (*MIXED, "heuristic"))], ids=["random", "heuristic", "mixed", "rare-mixed", "three-random",
                                                "three-mixed", "five-random", "five-mixed"])
def test_same_deals_as_the_kernel(preset, rules, seats):
    """The step API, each decision asked of the seat's strategy, deals and plays the kernel's deals, column for
    column, at every table size."""
    rule_set = build_rules(preset, rules)
    policies = tuple(parse_spec(s, game="tarot") for s in seats)
    cfg = RunConfig(game="tarot", rules=rule_set, seats=policies, seed=17, mode="deals", count=300,
                    record_plays=True)
    kernel = run_to_tables(cfg)["deals"].to_pylist()
    seen = set()
    for i, want in enumerate(kernel):
        state = play_out(TarotState(rule_set, seed=17, deal_id=i), policies)
        got = row_of(state)
        assert got == {k: want[k] for k in got}, f"deal {i}"
        assert len(got) + len(seats) == len(want)  # every column but the strategy names
        seen |= {("void", state.void), ("contract", state.contract), ("chelem", state.chelem),
                 ("poignee", state.poignee() > 0)}
    assert ("void", 0) in seen and ("contract", 2) in seen and sum(r["void"] == 0 for r in kernel) > 50
    if len(seats) == 4:  # 300 deals of four show a poignée; at three a random hand rarely holds 13 trumps
        assert ("poignee", True) in seen


# ------------------------------------------------------------------ deals chosen and worked by hand
def chelem_deck() -> list[int]:
    """Seat 0: trumps 4..21. Seat 1: the Petit, trumps 2 and 3, the Excuse and 14 suit cards. Seats 2, 3:
    suit cards. The chien: ace to 6 of clubs (six cards of half a point)."""
    taker = list(range(cards.FIRST_TRUMP + 3, cards.EXCUSE))          # T4..T21
    chien = list(range(6))                                             # A..6 of clubs
    plain = list(range(6, cards.N_SUIT_CARDS))                         # 50 suit cards
    seat1 = [cards.PETIT, cards.PETIT + 1, cards.PETIT + 2, cards.EXCUSE] + plain[:14]
    deck = taker + seat1 + plain[14:32] + plain[32:50] + chien
    assert sorted(deck) == list(range(78))
    return deck


def lowest_but_excuse(state: TarotState) -> int:
    legal = state.legal_actions()
    return next((c for c in legal if c != cards.EXCUSE), legal[0])


@pytest.mark.parametrize("excuse_early, poignee, taker_points, oudlers, target, t", [
    # The taker wins all 18 tricks (its trumps beat the defence's T1-T3 and it leads every trick).
    # Excuse played by seat 1 to trick 0: it stays with the defence, counted 4.0, the taker gains 0.5:
    # 182 half-points - 6 (chien, Garde contre: the defence's) - 9 (Excuse) + 1 = 168 -> 84 points,
    # oudlers Petit and Monde -> target 41; (25 + 43) x 6 = 408, + 400 Chelem announced and made = 808.
    (True, 0, 84, 2, 41, 808),
    # the same with a triple poignée (the lowest 15 trumps, T4..T18): + 40 to the winning side = 848
    (True, 3, 84, 2, 41, 848),
    # Excuse kept by seat 1 to the last trick: it goes to the trick's winner, the taker: 176 half-points
    # -> 88, three oudlers -> target 36; (25 + 52) x 6 = 462, + 400 = 862
    (False, 0, 88, 3, 36, 862),
])
def test_a_chelem_in_garde_contre_scored_as_worked_by_hand(excuse_early, poignee, taker_points, oudlers, target, t):
    s = TarotState(build_rules("cardavia"), deal_id=3, deck=chelem_deck())  # dealer 3: seat 0 speaks first
    for bid in (GARDE_CONTRE, PASS, PASS, PASS):
        s.apply(bid)
    assert (s.taker, s.contract, s.phase) == (0, 4, Phase.CHELEM)  # no chien, no discard
    assert s.observation(1).view[V_CHIEN_S] == 0 and s.observation(1).view[V_CHIEN_T] == 0
    s.apply(CHELEM)
    assert s.first_leader == 0 and s.phase == Phase.POIGNEE and s.legal_actions() == [POIGNEE_0 + k for k in range(4)]
    s.apply(POIGNEE_0 + poignee)
    while not s.is_terminal():
        if s.current_player() == 1 and excuse_early and cards.EXCUSE in s.legal_actions():
            s.apply(cards.EXCUSE)
        else:
            s.apply(lowest_but_excuse(s))
    assert list(s.trick_winner) == [0] * 18 and s.slam == 1 and s.petit_au_bout == 0
    assert (s.taker_half // 2, s.oudlers, s.target, s.won) == (taker_points, oudlers, target, 1)
    assert s.scores() == (3 * t, -t, -t, -t)
    if poignee:
        assert s.poignee() == 40 and s.poignees[0] == sum(1 << (n - 1) for n in range(4, 19))
    else:
        assert s.poignee() == 0 and s.poignees == [0, 0, 0, 0]


# ------------------------------------------------------------------ actions, observation, log
def deal_with_a_prise(seed=0) -> TarotState:
    """A deal whose first bidder takes a Prise and every other seat passes."""
    for deal_id in range(50):
        s = TarotState(build_rules("cardavia"), seed=seed, deal_id=deal_id)
        if s.void == 0:
            break
    s.apply(PRISE)
    for _ in range(3):
        s.apply(PASS)
    return s


def test_illegal_actions_are_refused():
    s = TarotState(build_rules("cardavia"), seed=1, deal_id=4)
    assert s.void == 0 and s.phase == Phase.BID and s.current_player() == 1  # dealer 0: seat 1 speaks first
    s.apply(GARDE)
    with pytest.raises(IllegalAction, match=r"prise \(79\) is not legal for seat 2 now: allowed pass, garde_sans, "
                                            r"garde_contre"):
        s.apply(PRISE)
    with pytest.raises(IllegalAction, match=r"is not legal"):
        s.apply(cards.EXCUSE)  # a card while bidding
    for _ in range(3):
        s.apply(PASS)
    assert s.phase == Phase.DISCARD and s.current_player() == 1
    king = next(c for c in range(cards.N_SUIT_CARDS) if c % 14 == cards.RANK_KING and s.suits[1] >> c & 1)
    with pytest.raises(IllegalAction, match=rf"{cards.name(king)} \({king}\) is not legal for seat 1"):
        s.apply(king)  # kings are never discarded
    events = len(s.events)
    with pytest.raises(IllegalAction):
        s.apply(BID_0 + 9)  # outside the action space
    assert len(s.events) == events  # a refused action is not logged and changes nothing
    rnd = random.Random(2)
    while s.phase != Phase.PLAY:
        s.apply(rnd.choice(s.legal_actions()))
    hand = cards.cards_in(*words(s.suits[s.current_player()], s.trumps[s.current_player()]))
    illegal = sorted(set(range(78)) - set(s.legal_actions()) - set(hand)) + [-1, 89]
    for action in illegal[:3] + illegal[-2:]:
        with pytest.raises(IllegalAction):
            s.apply(action)
    while not s.is_terminal():
        s.apply(rnd.choice(s.legal_actions()))
    with pytest.raises(IllegalAction, match="allowed none \\(the deal is over\\)"):
        s.apply(s.plays[0])
    with pytest.raises(IllegalAction, match="^the deal is over$"):  # nothing left to ask a strategy
        s.policy_action(parse_spec("random", "tarot"))


def test_observation_shows_only_the_seats_own_hand_and_the_public_view():
    s = deal_with_a_prise()
    taker = s.taker
    # the chien is shown after a Prise and is in the taker's hand; the view is the same for every seat
    for seat in range(4):
        o = s.observation(seat)
        assert (o.suits, o.trumps) == (int(s.suits[seat]), int(s.trumps[seat]))
        assert (o.view[V_CHIEN_S], o.view[V_CHIEN_T]) == (s.chien[0], s.chien[1])
        assert np.array_equal(o.view, s.observation(0).view)
        assert o.discard == ((0, 0) if seat == taker else None)
    assert s.suits[taker] & s.chien[0] == s.chien[0] and s.trumps[taker] & s.chien[1] == s.chien[1]
    while s.phase == Phase.DISCARD:
        s.apply(s.legal_actions()[0])
    discard = s.observation(taker).discard
    assert cards.cards_in(*words(*discard)) == sorted(e.action for e in s.events if e.phase == Phase.DISCARD)
    for seat in range(4):
        o = s.observation(seat)
        assert o.discard == (discard if seat == taker else None)
        assert o.view[V_DISCARD_T] == discard[1]  # only trumps discarded are shown


def test_garde_sans_shows_no_chien():
    for deal_id in range(20):
        s = TarotState(build_rules("cardavia"), seed=3, deal_id=deal_id)
        if s.void == 0:
            break
    dealt = (s.suits.copy(), s.trumps.copy())
    for bid in (BID_0 + 3, PASS, PASS, PASS):
        s.apply(bid)
    assert s.phase == Phase.CHELEM
    assert np.array_equal(s.suits, dealt[0]) and np.array_equal(s.trumps, dealt[1])  # nobody took the chien
    for seat in range(4):
        assert s.observation(seat).view[V_CHIEN_S] == 0 and s.observation(seat).view[V_CHIEN_T] == 0


def test_the_event_log_replays_the_deal():
    seats = tuple(parse_spec(x, game="tarot") for x in MIXED)
    checked = 0
    for deal_id in range(40):
        s = play_out(TarotState(build_rules("cardavia"), seed=5, deal_id=deal_id), seats)
        if s.void:
            assert s.void == VOID_ALL_PASS and [e.phase for e in s.events] == [Phase.BID] * 4
            continue
        discards = 6 if s.contract <= 2 else 0
        head = [Phase.BID] * 4 + [Phase.DISCARD] * discards + [Phase.CHELEM]
        assert [e.phase for e in s.events[:len(head)]] == head
        tail = [e.phase for e in s.events[len(head):]]
        first_trick = [i for i, p in enumerate(tail) if p == Phase.PLAY][3]  # its fourth card
        assert set(tail[first_trick:]) == {Phase.PLAY}  # a poignée only before a seat's first card
        shown = sum(w.bit_count() for w in s.poignees)  # a poignée's cards: one SHOW action each
        assert tail.count(Phase.SHOW) == shown and len(tail) == tail.count(Phase.POIGNEE) + shown + 72
        assert [e.action for e in s.events if e.phase == Phase.PLAY] == s.plays
        assert [e.seat for e in s.events if e.phase == Phase.BID] == [(s.dealer + 1 + k) % 4 for k in range(4)]
        assert {e.seat for e in s.events if e.phase in (Phase.DISCARD, Phase.CHELEM)} == {s.taker}
        again = TarotState(build_rules("cardavia"), seed=5, deal_id=deal_id)
        for e in s.events:
            assert again.current_player() == e.seat and again.phase == e.phase
            again.apply(e.action)
        assert row_of(again) == row_of(s)
        checked += 1
    assert checked > 10


def test_a_petit_sec_deal_is_over_when_dealt():
    deck = list(range(78))
    # seat 0: the Petit and 17 suit cards; the rest in order
    seat0 = [cards.PETIT] + list(range(17))
    rest = [c for c in deck if c not in seat0]
    s = TarotState(build_rules("cardavia"), deal_id=0, deck=seat0 + rest)
    assert s.void == VOID_PETIT_SEC and s.is_terminal() and s.legal_actions() == [] and s.current_player() == -1
    assert s.scores() == (0, 0, 0, 0) and s.bids() == (-1, -1, -1, -1)
    played = TarotState(build_rules("cardavia", ["petit_sec_redeal=false"]), deal_id=0, deck=seat0 + rest)
    assert played.phase == Phase.BID and played.void == 0


def test_a_random_walk_of_legal_actions_always_ends_with_every_card_played():
    rnd = random.Random(1)
    for i in range(30):
        s = TarotState(build_rules("cardavia", ["excuse_lead=forbidden"]), seed=i, deal_id=i)
        if s.void:
            continue
        s.apply(BID_0 + rnd.randint(1, 4))  # someone takes
        while not s.is_terminal():
            s.apply(rnd.choice(s.legal_actions()))
        assert len(s.plays) == 72 and len(set(s.plays)) == 72
        assert not s.suits.any() and not s.trumps.any() and sum(s.scores()) == 0
        assert CHELEM in {e.action for e in s.events} or NO_CHELEM in {e.action for e in s.events}


@pytest.mark.parametrize("level, excuse_legal", [(1, False), (3, True)])
def test_a_poignee_is_a_level_then_its_cards_one_action_each(level, excuse_legal):
    # seat 2 holds T1..T14 and the Excuse: a single (any 10 of its trumps; the Excuse may stand in only with all
    # 14 trumps shown) or a triple (every trump and the Excuse). Seat 1 takes a Prise, the others pass.
    seat2 = [55 + n for n in range(1, 15)] + [cards.EXCUSE, 1, 2, 3]
    rest = [c for c in range(78) if c not in seat2]
    deck = rest[18:36] + rest[:18] + seat2 + rest[36:54] + rest[54:]
    s = TarotState(build_rules("cardavia"), deck=deck)
    for a in (PRISE, PASS, PASS, PASS):
        s.apply(a)
    while s.legal_actions() != [CHELEM, NO_CHELEM]:
        s.apply(s.legal_actions()[0])  # the discard
    s.apply(NO_CHELEM)
    s.apply(s.legal_actions()[0])  # seat 1 leads
    assert s.current_player() == 2 and s.legal_actions() == [POIGNEE_0 + k for k in range(4)]
    s.apply(POIGNEE_0 + level)
    trumps = [55 + n for n in range(1, 15)]
    assert s.legal_actions() == trumps + ([cards.EXCUSE] if excuse_legal else [])
    n = (0, 10, 13, 15)[level]
    chosen = trumps[14 - (n - int(excuse_legal)):] + ([cards.EXCUSE] if excuse_legal else [])  # the highest
    if not excuse_legal:
        with pytest.raises(IllegalAction):
            s.apply(cards.EXCUSE)
    for c in chosen:
        assert s.current_player() == 2
        s.apply(c)
    shown = sum(1 << (c - 56) for c in chosen)
    assert s.poignees[2] == shown and s.poignee() == (0, 20, 30, 40)[level]
    assert s.observation(0).view[V_POIGNEE_T + 2] == shown  # public
    assert s.current_player() == 2 and all(c < 78 for c in s.legal_actions())  # now its card
