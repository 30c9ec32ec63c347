"""Chosen deals through the engine (``batch.play_decks``): the rare rules random play never reaches,
each worked by hand and replayed through the reference (tests/reference_tarot.py).

Each deck lists seat 0's 18 cards, then seats 1, 2, 3 and the six of the chien; deal id 0 has dealer 0,
so seat 1 speaks first and the scripted players below make it the taker (the others pass).
"""
import numpy as np
import pytest
import reference_tarot as ref
from numba import njit

from tricksim.jobs.tarot.whatif import with_bid
from tricksim.simulator.bits import highest_bit
from tricksim.simulator.engine import RunConfig
from tricksim.simulator.family import PolicyFault
from tricksim.simulator.games.tarot import batch, cards
from tricksim.simulator.games.tarot.phases import POIGNEE_CARDS, poignee_pools
from tricksim.simulator.games.tarot.policy import (
    CHOOSE_SIG,
    HAND_SIG,
    R_POIGNEE_EXCUSE,
    V_POIGNEE_BASE,
    V_POIGNEE_EXCUSE,
    V_POIGNEE_EXTRA,
    V_POIGNEE_MAX,
    V_RULES,
)
from tricksim.simulator.games.tarot.rules import build_rules
from tricksim.strategies.registry import SeatStrategy, Strategy, parse_spec
from tricksim.strategies.tarot.heuristic import lowest_n

TRUMP = {n: 55 + n for n in range(1, 22)}
KINGS = [u * 14 + 13 for u in range(4)]
ACE_CLUBS = 0


@njit(HAND_SIG)
def announce(seat, suits, trumps, view, params, rng):
    return np.int64(1)


@njit(HAND_SIG)
def show_most(seat, suits, trumps, view, params, rng):
    """The highest poignée allowed, its lowest cards: the Excuse and the lowest trumps where the Excuse may stand
    in, else the lowest trumps of the hand, else (the four-kings triple) of hand and discard together."""
    n = POIGNEE_CARDS[view[V_POIGNEE_MAX]]  # four players
    a, b, c = poignee_pools(view[V_RULES + R_POIGNEE_EXCUSE], view[V_POIGNEE_BASE], view[V_POIGNEE_EXCUSE] != 0,
                            view[V_POIGNEE_EXTRA], n, POIGNEE_CARDS[3])
    excuse = np.int64(1) << 21
    if b != 0:
        return excuse | lowest_n(b & ~excuse, n - 1)
    return lowest_n(a if a != 0 else c, n)


@njit(HAND_SIG)
def bad_poignee(seat, suits, trumps, view, params, rng):
    """Seat 2 shows the Excuse and only 9 of its 14 trumps (the Excuse may stand in only for all of them)."""
    if seat != 2:
        return np.int64(0)
    return (np.int64(1) << 21) | lowest_n(view[V_POIGNEE_BASE], 9)


@njit(CHOOSE_SIG)
def highest_trump_first(seat, suits, trumps, legal_s, legal_t, view, params, rng):
    """The highest legal trump, the Excuse only when nothing else is legal; else the highest plain card."""
    t = legal_t & ((1 << 21) - 1)
    if t:
        return np.int64(56 + highest_bit(t))
    if legal_s:
        return np.int64(highest_bit(legal_s))
    return np.int64(cards.EXCUSE)


def seat(base: str, contract: int, **policies):
    s = with_bid(parse_spec(base, game="tarot"), contract)
    return SeatStrategy(Strategy(name=s.strategy.name, description="test", game="tarot", params=s.strategy.params,
                                 policies={**s.strategy.policies, "poignee": show_most, **policies}), s.values)


def deck(taker_cards, chien=(), defender2=()):
    """Seat 1 gets ``taker_cards``, seat 2 ``defender2`` first, the chien ``chien``; the rest fills up in order."""
    rest = [c for c in range(78) if c not in set(taker_cards) | set(chien) | set(defender2)]
    seat2 = list(defender2) + [rest.pop(0) for _ in range(18 - len(defender2))]
    seat0 = [rest.pop(0) for _ in range(18)]
    seat3 = [rest.pop(0) for _ in range(18)]
    chien = list(chien) + [rest.pop(0) for _ in range(6 - len(chien))]
    assert not rest and len(taker_cards) == 18
    return seat0 + list(taker_cards) + seat2 + seat3 + chien


def play(decks, seats, flags=()):
    cfg = RunConfig(game="tarot", rules=build_rules("cardavia", flags), seats=seats, mode="deals", count=len(decks),
                    record_plays=True, seed=5)
    t = batch.play_decks(cfg, decks)["deals"]
    ref.replay_table(t, dict(cfg.rules.to_dict()), plays_required=True)
    return t.to_pylist()[0]


def test_a_taker_slam_won_by_the_excuse_led_to_the_last_trick():
    # seat 1: trumps 5..21 and the Excuse; the defenders hold trumps 1..4 only. Garde sans, Chelem announced:
    # seat 1 leads every trick with its highest trump and wins it, then leads the Excuse to trick 18, which wins it
    taker = [TRUMP[n] for n in range(5, 22)] + [cards.EXCUSE]
    defenders = seat("random", 0)
    row = play([deck(taker)], (defenders, seat("random", 3, chelem=announce, play=highest_trump_first),
                               defenders, defenders))
    assert row["taker"] == 1 and row["contract"] == 3 and row["chelem"] == 1 and row["first_leader"] == 1
    assert row["plays"][68] == cards.EXCUSE and row["slam"] == 1
    # the taker counts all 91 points (the chien counts for it in a Garde sans) and the three oudlers: target 36;
    # base (25 + 55) x 4 = 320, a triple poignée 40 (it shows 15 of its 17 trumps), Chelem made 400
    assert row["taker_points"] == 91 and row["oudlers"] == 3 and row["target"] == 36 and row["poignee"] == 40
    # the Petit is in the chien (not played: no petit au bout) or played by a defender to a trick the taker
    # wins; petit au bout is judged on the 17th trick (the Excuse took the 18th)
    petit_trick = row["plays"].index(cards.PETIT) // 4 if cards.PETIT in row["plays"] else -1
    pab = 1 if petit_trick == 16 else 0
    t = 320 + 40 + 400 + pab * 10 * 4
    assert row["petit_au_bout"] == pab
    assert [row[f"score_{s}"] for s in range(4)] == [-t, 3 * t, -t, -t]


@pytest.mark.parametrize("flag, level", [("taker_after_discard", 3), ("never", 2)])
def test_trump_discard_and_the_four_kings_poignee(flag, level):
    # seat 1: the four kings and trumps 2..15; the chien: trumps 16..20 and the ace of clubs. After a Prise the
    # taker has one discardable plain card, so it discards it and exactly five trumps (the exact rule), keeping
    # 14 trumps: a double poignée; with the four kings the discarded trumps count toward a triple
    taker = KINGS + [TRUMP[n] for n in range(2, 16)]
    chien = [TRUMP[n] for n in range(16, 21)] + [ACE_CLUBS]
    others = seat("random", 0)
    row = play([deck(taker, chien)], (others, seat("random", 1), others, others),
               [f"poignee_four_kings={flag}"])
    discard = cards.cards_in(row["discard_lo"], row["discard_hi"])
    assert ACE_CLUBS in discard and sum(c >= 56 for c in discard) == 5
    shown = cards.cards_in(row["poignee_lo_1"], row["poignee_hi_1"])
    assert len(shown) == (10, 13, 15)[level - 1] and row["poignee"] == (20, 30, 40)[level - 1]
    trumps = sorted(c for c in taker + chien if c >= 56)  # 19 trumps: 14 kept after the discard, 5 discarded
    if level == 3:
        assert shown == trumps[:15]  # the lowest 15 of hand and discard together
    else:
        assert shown == [c for c in trumps if c not in discard][:13]  # the lowest 13 kept


@pytest.mark.parametrize("flag", ["all_trumps_shown", "always"])
def test_a_triple_poignee_with_the_excuse(flag):
    # seat 2 (a defender) holds 14 trumps and the Excuse: it shows every trump and the Excuse as a triple
    defender = [TRUMP[n] for n in range(1, 15)] + [cards.EXCUSE, 1, 2, 3]
    taker = [c for c in range(4, 56)][:18]
    others = seat("random", 0)
    row = play([deck(taker, defender2=defender)], (others, seat("random", 1), others, others),
               [f"poignee_excuse={flag}"])
    shown = cards.cards_in(row["poignee_lo_2"], row["poignee_hi_2"])
    assert shown == [TRUMP[n] for n in range(1, 15)] + [cards.EXCUSE]
    assert row["poignee"] == 40 and row["taker"] == 1


def test_an_illegal_poignee_is_refused_naming_the_seat():
    # the deal above, seat 2's strategy showing the Excuse with 9 of its 14 trumps: a single it may not show so
    defender = [TRUMP[n] for n in range(1, 15)] + [cards.EXCUSE, 1, 2, 3]
    taker = [c for c in range(4, 56)][:18]
    bad = seat("random", 0, poignee=bad_poignee)
    with pytest.raises(PolicyFault, match=r"at seat 2 made an illegal poignée 0x2001ff \(T1 T2 T3 T4 T5 T6 T7 T8 "
                                          r"T9 Excuse\)"):
        play([deck(taker, defender2=defender)], (bad, seat("random", 1, poignee=bad_poignee), bad, bad))


# ---------------------------------------------------------------- the Excuse in the last trick (RULES.md 2.7, 2.9)
@njit(HAND_SIG)
def no_poignee(seat, suits, trumps, view, params, rng):
    return np.int64(0)


@njit(HAND_SIG)
def no_chelem(seat, suits, trumps, view, params, rng):
    return np.int64(0)


# the legal card with the highest id, the Excuse only when nothing else is legal: the trumps' ids are the highest
highest_id_excuse_last = highest_trump_first


@njit(CHOOSE_SIG)
def lowest_plain_then_highest_trump(seat, suits, trumps, legal_s, legal_t, view, params, rng):
    """The lowest legal plain card; else the highest legal trump; the Excuse only when nothing else is legal."""
    if legal_s:
        return np.int64(highest_bit(legal_s & -legal_s))
    t = legal_t & ((1 << 21) - 1)
    if t:
        return np.int64(56 + highest_bit(t))
    return np.int64(cards.EXCUSE)


def scripted(contract: int, play_fn):
    return seat("random", contract, poignee=no_poignee, chelem=no_chelem, play=play_fn)


def explicit_deck(seat0, seat1, seat2, seat3, chien):
    d = list(seat0) + list(seat1) + list(seat2) + list(seat3) + list(chien)
    assert sorted(d) == list(range(78)) and [len(h) for h in (seat0, seat1, seat2, seat3, chien)] == [18] * 4 + [6]
    return d


def scores(row):
    return [row[f"score_{s}"] for s in range(4)]


@pytest.mark.parametrize("flag, points, oudlers, target, t", [
    # opposite_owner: the defence's last trick holds the ace, 2 and 3 of clubs (1.5); the Excuse goes to the taker:
    # 91 - 1.5 = 89.5 with the three oudlers, target 36; |89.5 - 36| = 53.5, rounded up 54: (25 + 54) x 4 = 316
    ("opposite_owner", 89.5, 3, 36, 316),
    # trick_winner (the earlier reading): the Excuse goes with the trick: 91 - 6 = 85, two oudlers, target 41,
    # (25 + 44) x 4 = 276
    ("trick_winner", 85.0, 2, 41, 276),
])
def test_a_defenders_excuse_in_the_last_trick_goes_to_the_taker(flag, points, oudlers, target, t):
    # Garde sans by seat 1 (the chien counts for it), which holds trumps 5..21 and the ace of clubs (card 0) and
    # leads its highest trump to tricks 1..17, winning them, then the ace. Seat 2 holds the Excuse, trumps 1..4
    # (played to tricks 1..4: the Petit to trick 4, won by the taker) and 13 plain cards; the defenders play their
    # highest card id, the Excuse last, so seat 3 keeps the 2 of clubs (card 1) and seat 0 the 3 (card 2) for the
    # last trick: ace (taker), Excuse (seat 2), 2, 3 -- won by seat 0, a defender, the Excuse's owner's side
    taker = [0] + [TRUMP[n] for n in range(5, 22)]
    seat2 = [cards.EXCUSE] + [TRUMP[n] for n in range(1, 5)] + list(range(37, 50))
    d = explicit_deck([2] + list(range(20, 37)), taker, seat2, [1] + list(range(3, 20)), range(50, 56))
    defender = scripted(0, highest_id_excuse_last)
    row = play([d], (defender, scripted(3, highest_trump_first), defender, defender),
               [f"excuse_last_trick_side={flag}"])
    assert row["plays"][68:] == [0, cards.EXCUSE, 1, 2] and row["plays"][13] == cards.PETIT
    assert (row["taker_points"], row["oudlers"], row["target"], row["won"]) == (points, oudlers, target, 1)
    assert (row["slam"], row["petit_au_bout"], row["poignee"], row["chelem"]) == (0, 0, 0, 0)
    assert scores(row) == [-t, 3 * t, -t, -t]


@pytest.mark.parametrize("flag", ["opposite_owner", "trick_winner"])
def test_the_takers_excuse_in_the_last_trick_goes_to_the_defence(flag):
    # Garde sans by seat 1: the ace of clubs, trumps 5..20 and the Excuse; the chien (the taker's): trumps 1..4,
    # the Monde and the king of spades. The defenders hold every other plain card and no trump. Trick 1: the
    # taker leads the ace; seat 2 takes it with the king of clubs (13) over the 7 (6, seat 3) and the queen
    # (12, seat 0): 0.5 + 4.5 + 0.5 + 3.5 = 9 points to the defence. The taker trumps trick 2 and leads its
    # trumps to tricks 3..17, then must lead the Excuse to trick 18 (no exception: it lost trick 1), where
    # seat 2's ace of diamonds (14) wins over the 2 and 8 of clubs (1, 7): 4.5 + 1.5 = 6 to the defence, under
    # either reading (the Excuse's owner's side did not win the trick). 91 - 9 - 6 = 76 points; oudlers: the
    # Petit and the Monde of the chien, 2, target 41: (25 + 35) x 4 = 240
    taker = [0] + [TRUMP[n] for n in range(5, 21)] + [cards.EXCUSE]
    chien = [TRUMP[n] for n in range(1, 5)] + [TRUMP[21], 55]
    d = explicit_deck(list(range(7, 13)) + list(range(43, 55)), taker, [13] + list(range(14, 31)),
                      list(range(1, 7)) + list(range(31, 43)), chien)
    defender = scripted(0, highest_id_excuse_last)
    row = play([d], (defender, scripted(3, lowest_plain_then_highest_trump), defender, defender),
               [f"excuse_last_trick_side={flag}"])
    assert row["plays"][:4] == [0, 13, 6, 12] and row["plays"][68:] == [cards.EXCUSE, 14, 1, 7]
    assert (row["taker_points"], row["oudlers"], row["target"], row["won"], row["slam"]) == (76, 2, 41, 1, 0)
    assert scores(row) == [-240, 720, -240, -240]


@pytest.mark.parametrize("flag", ["opposite_owner", "trick_winner"])
def test_the_slam_exception_keeps_the_excuse_unannounced(flag):
    # Garde sans by seat 1 with trumps 5..21 and the Excuse, no Chelem announced: it wins tricks 1..17 with its
    # trumps (seat 2's trumps 1..4 fall to tricks 1..4) and leads the Excuse to trick 18, which it wins (the
    # exception, either side, announced or not): the Excuse stays with the taker under either value of the
    # flag. All 91 points, three oudlers, target 36: (25 + 55) x 4 = 320, unannounced slam +200: t = 520
    taker = [TRUMP[n] for n in range(5, 22)] + [cards.EXCUSE]
    seat2 = [TRUMP[n] for n in range(1, 5)] + list(range(14))
    d = explicit_deck(range(14, 32), taker, seat2, range(32, 50), range(50, 56))
    defender = scripted(0, highest_id_excuse_last)
    row = play([d], (defender, scripted(3, highest_trump_first), defender, defender),
               [f"excuse_last_trick_side={flag}"])
    assert row["plays"][68] == cards.EXCUSE and row["slam"] == 1 and row["chelem"] == 0
    assert (row["taker_points"], row["oudlers"], row["target"], row["petit_au_bout"]) == (91, 3, 36, 0)
    assert scores(row) == [-520, 1560, -520, -520]


# ---------------------------------------------------------------- poignee_hand=as_dealt and the Excuse
@pytest.mark.parametrize("excuse_dealt, shown", [
    (False, []),                                                    # 9 trumps as dealt: no poignée
    (True, [TRUMP[n] for n in range(1, 10)] + [cards.EXCUSE]),      # 9 trumps and the Excuse as dealt: a single
])
def test_as_dealt_poignee_ignores_an_excuse_found_in_the_chien(excuse_dealt, shown):
    # Prise by seat 1, dealt trumps 1..9 and plain cards; the Excuse is dealt to it or lies in the chien. Under
    # poignee_hand=as_dealt the poignée is judged on the 18 dealt cards: an Excuse taken from the chien does not
    # stand in for a tenth trump. Seats 2 and 0 hold no trumps; seat 3 holds trumps 10..21 (it may show 10)
    plain = list(range(8)) + ([] if excuse_dealt else [8])
    taker = [TRUMP[n] for n in range(1, 10)] + plain + ([cards.EXCUSE] if excuse_dealt else [])
    chien = ([8] if excuse_dealt else [cards.EXCUSE]) + list(range(9, 14))
    d = explicit_deck(range(32, 50), taker, range(14, 32), list(range(50, 56)) + [TRUMP[n] for n in range(10, 22)],
                      chien)
    others = seat("random", 0)
    row = play([d], (others, seat("random", 1), others, others), ["poignee_hand=as_dealt"])
    assert row["taker"] == 1 and row["contract"] == 1
    assert cards.cards_in(row["poignee_lo_1"], row["poignee_hi_1"]) == shown
