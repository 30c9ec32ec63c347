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
from tricksim.simulator.games.tarot import batch, cards
from tricksim.simulator.games.tarot.policy import CHOOSE_SIG, HAND_SIG, V_POIGNEE_MAX
from tricksim.simulator.games.tarot.rules import build_rules
from tricksim.strategies.registry import SeatStrategy, Strategy, parse_spec

TRUMP = {n: 55 + n for n in range(1, 22)}
KINGS = [u * 14 + 13 for u in range(4)]
ACE_CLUBS = 0


@njit(HAND_SIG)
def announce(seat, suits, trumps, view, params, rng):
    return np.int64(1)


@njit(HAND_SIG)
def show_most(seat, suits, trumps, view, params, rng):
    return view[V_POIGNEE_MAX]


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
