"""The Spades decks (decks.py, docs/rules.md "Decks"): the flag, its alias and refusals, the tables, the exact deal
laws of each deck, the players on every deck, and the refusals of the players that cannot play a deck."""
from __future__ import annotations

import math

import numpy as np
import pytest
import reference_spades as ref

from tricksim.simulator import engine
from tricksim.simulator.errors import RulesError
from tricksim.simulator.games.spades import decks
from tricksim.simulator.games.spades.cards import parse_card
from tricksim.simulator.games.spades.kernel import deck_template
from tricksim.simulator.games.spades.rules import PRESETS, build_rules
from tricksim.strategies.registry import parse_spec

JOKER_DECKS = ("joker_ace", "joker_deuce_ace", "joker_deuce_deuce")


def mask(*names):
    return sum(1 << parse_card(n) for n in names)


# ----------------------------------------------------------------- the flag
@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("deck", decks.DECKS)
def test_every_deck_on_every_preset(preset, deck):
    rules = build_rules(preset, [f"deck={deck}"])
    assert rules.deck == deck and rules.jokers == (deck != "standard")
    cards = deck_template(rules).tolist()
    # 52 cards, or with three players (cutthroat3) 51: 17 each; two players (twohanded) draw 13 each from the 52
    assert len(cards) == len(set(cards)) == (51 if preset == "cutthroat3" else 52) and cards == sorted(cards)
    assert rules.seats * rules.tricks == {"cutthroat3": 51, "twohanded": 26}.get(preset, 52)


def test_jokers_true_is_deck_joker_ace():
    assert build_rules("cardems", ["jokers=true"]) == build_rules("cardems", ["deck=joker_ace"])
    assert build_rules("zone", ["jokers=true", "joker_removes=2c2d"]).deck == "joker_ace"
    # jokers reads true with every joker deck; the deck decides
    assert build_rules("cardems", ["deck=joker_deuce_ace", "jokers=false"]).jokers


@pytest.mark.parametrize("deck, removes, removed", [
    ("joker_ace", "auto", ("2H", "2D")), ("joker_deuce_ace", "auto", ("2H", "2D")),
    ("joker_deuce_deuce", "auto", ("2C", "2H")), ("joker_ace", "2c2d", ("2C", "2D")),
    ("joker_deuce_ace", "2c2h", ("2C", "2H")), ("joker_deuce_deuce", "2c2h", ("2C", "2H")),
])
def test_the_removed_twos_never_dealt(deck, removes, removed):
    rules = build_rules("cardems", [f"deck={deck}", f"joker_removes={removes}"])
    cards = set(deck_template(rules).tolist())
    assert cards == (set(range(52)) - {parse_card(c) for c in removed}) | {52, 53}
    assert set(ref.deck_for(rules)) == cards  # the reference derives it again


@pytest.mark.parametrize("removes", ["2h2d", "2c2d"])
def test_a_promoted_card_cannot_leave_the_deck(removes):
    with pytest.raises(RulesError) as e:
        build_rules("cardems", ["deck=joker_deuce_deuce", f"joker_removes={removes}"])
    assert str(e.value) == (f"invalid combination deck=joker_deuce_deuce with joker_removes={removes}: the 2♦ is a "
                            "spade of this deck; allowed joker_removes=auto | 2c2h")
    assert "\n" not in str(e.value)


def test_unknown_deck_names_the_allowed():
    with pytest.raises(RulesError, match=r"^invalid value deck='jokers': allowed standard \| joker_ace \| "
                                         r"joker_deuce_ace \| joker_deuce_deuce$"):
        build_rules("cardems", ["deck=jokers"])


def test_two_of_clubs_lead_needs_the_two_of_clubs():
    with pytest.raises(RulesError, match="the 2♣ leaves the deck; use first_lead=left_of_dealer"):
        build_rules("cardems", ["deck=joker_deuce_deuce", "first_lead=two_of_clubs"])
    assert build_rules("cardems", ["deck=joker_deuce_ace", "first_lead=two_of_clubs"]).removed_twos() == "2h2d"


# ----------------------------------------------------------------- the tables (hand-worked)
def test_suits_and_order_of_joker_deuce_deuce():
    d = decks.JOKER_DEUCE_DEUCE
    two_d = parse_card("2D")
    assert decks.SUIT_OF[d, two_d] == 3 and decks.SUIT_OF[decks.JOKER_DEUCE_ACE, two_d] == 1
    assert decks.SUIT_MASKS[d, 1] == mask(*(r + "D" for r in "3456789TJQKA"))
    # what beats the A♠: the 2♦, the 2♠ and the jokers; what beats the 2♦: the 2♠ and the jokers
    assert decks.BEATING[d, parse_card("AS")] == mask("2D", "2S", "LJ", "BJ")
    assert decks.BEATING[d, two_d] == mask("2S", "LJ", "BJ")
    # a diamond led: the 2♦ does not follow it, it trumps it
    assert (decks.BEATING[d, parse_card("AD")] >> two_d) & 1
    assert decks.BEATING[decks.JOKER_DEUCE_ACE, parse_card("AS")] == mask("2S", "LJ", "BJ")
    assert decks.BEATING[decks.JOKER_DEUCE_ACE, parse_card("3S")] == mask(*(r + "S" for r in "23456789TJQKA"), "LJ", "BJ") & ~mask("3S")


def test_the_rank_space_renames_the_promoted_spades_above_the_ace():
    """The solver's and the players' ids (decks.py, "the rank space"): a deuce deck's spades from its lowest up take
    the rank space's spade ids from the 3♠ (40) up, so the 2s and the jokers land above the A♠ (51) in the deck's
    order; the standard and joker_ace decks are not renamed; masks are renamed card by card and back."""
    from tricksim.simulator.games.spades.cards import BEATING, deck_card, deck_mask, ranked_card, ranked_mask

    card = parse_card
    ace, two_s, two_d, lj, bj = (card(c) for c in ("AS", "2S", "2D", "LJ", "BJ"))
    assert [decks.TO_RANKED[decks.JOKER_DEUCE_ACE, c] for c in (two_s, lj, bj, ace, two_d)] == [52, 53, 54, 51, two_d]
    assert [decks.TO_RANKED[decks.JOKER_DEUCE_DEUCE, c] for c in (two_d, two_s, lj, bj, ace)] == [52, 53, 54, 55, 51]
    for code in (decks.STANDARD, decks.JOKER_ACE):
        assert list(decks.TO_RANKED[code, :54]) == list(range(54)) and decks.RENAMED[code] == 0
    d = decks.JOKER_DEUCE_DEUCE
    hand = mask("2D", "2S", "BJ", "KS", "3D", "AH")
    ranked = ranked_mask(np.int64(hand), d)
    assert ranked == (1 << 52) | (1 << 53) | (1 << 55) | mask("KS", "3D", "AH")
    assert deck_mask(ranked, d) == hand
    assert ranked_card(np.int64(-1), d) == -1 and deck_card(np.int64(55), d) == bj
    # in the rank space a higher id of a suit beats a lower one: the renamed 2♦ (52) beats the A♠, loses to the 2♠
    assert (BEATING[ace] >> 52) & 1 and (BEATING[52] >> 53) & 1 and not (BEATING[53] >> 52) & 1


# ----------------------------------------------------------------- the deal laws
N_HANDS = 20_000


def _dealt(deck):
    rules = build_rules("cardems", [f"deck={deck}"])
    cfg = engine.RunConfig(rules=rules, seats=tuple(parse_spec("random") for _ in range(4)), seed=7, mode="hands",
                           count=N_HANDS)
    hands = engine.run_to_tables(cfg, threads=1)["hands"]
    return rules, np.stack([hands.column(f"dealt_{s}").to_numpy() for s in range(4)], axis=1)


def _within(hits, n, p, z=4.5):
    """``hits`` of ``n`` independent hands agree with the exact probability ``p`` to ``z`` standard errors (each
    hand is dealt from its own stream: no clustering)."""
    se = math.sqrt(p * (1 - p) / n)
    return abs(hits / n - p) <= z * se, (hits / n, p, se)


@pytest.mark.parametrize("deck", JOKER_DECKS)
def test_deal_laws(deck):
    rules, dealt = _dealt(deck)
    cards = deck_template(rules)
    full = int(np.bitwise_or.reduce(1 << cards))
    # every card dealt exactly once, 13 a seat; the removed cards never
    assert (np.bitwise_or.reduce(dealt, axis=1) == full).all()
    for a in range(4):
        assert all(int(h).bit_count() == 13 for h in dealt[:, a])
        for b in range(a + 1, 4):
            assert not (dealt[:, a] & dealt[:, b]).any()
    # exact laws: a seat holds a given card with probability 13/52, two given cards with 13*12/(52*51) = 1/17
    promoted = [c for c in decks.SPADE_ORDER[deck] if c in (13, 39, 52, 53)]
    both = (1 << 52) | (1 << 53)
    for seat in range(4):
        for c in promoted:
            ok, why = _within(int(((dealt[:, seat] >> c) & 1).sum()), N_HANDS, 13 / 52)
            assert ok, (seat, c, why)
        ok, why = _within(int(((dealt[:, seat] & both) == both).sum()), N_HANDS, 13 * 12 / (52 * 51))
        assert ok, (seat, why)
    # both jokers with the same seat, any seat: 4 * 1/17 (disjoint events)
    ok, why = _within(int(((dealt & both) == both).any(axis=1).sum()), N_HANDS, 4 / 17)
    assert ok, why


# ----------------------------------------------------------------- the players
@pytest.mark.parametrize("deck", JOKER_DECKS)
def test_simple_counts_the_top_spades_of_the_deck(deck):
    """A hand with the deck's three top spades and nothing else of note: three tricks for them whatever the joker
    deck (hand-worked from simple.estimate_tricks: each of the four top spades held, with more spades than its
    place, counts 1)."""
    from tricksim.strategies.spades.simple import estimate_tricks

    code = decks.DECKS.index(deck)
    top3 = list(decks.SPADE_ORDER[deck][-3:])
    side = [parse_card(c) for c in ("3C", "4C", "5C", "6C", "3D", "4D", "5D", "3H", "4H", "5H")]
    hand = sum(1 << c for c in top3 + side)
    # three spades: 1 per top spade held (n_spades > i), no length bonus, ruffs: none (no short side suit)
    assert estimate_tricks(np.int64(hand), code) == pytest.approx(3.0)


@pytest.mark.parametrize("deck", JOKER_DECKS[1:])
def test_heuristic_nil_danger_fatal_with_a_promoted_two(deck):
    from tricksim.strategies.spades.heuristic import nil_danger

    code = decks.DECKS.index(deck)
    low = ["3C", "4C", "5C", "6C", "3D", "4D", "5D", "3H", "4H", "5H", "6H", "3S"]
    hand = np.int64(mask(*low, "2S"))
    assert nil_danger(hand, code) == 99.0          # the 2♠ is above the ace here
    assert nil_danger(hand, decks.STANDARD) < 20.0  # ... and the lowest spade in a standard deck


@pytest.mark.parametrize("deck", JOKER_DECKS[1:])
def test_heuristic_counts_a_promoted_two_as_a_top_spade(deck):
    """The same hand with the 2♠ in place of the 3♠: in a deuce deck the 2♠ is the third spade from the top, a
    SPADE_TOP[2] honour; in joker_ace it is the lowest spade, worth nothing more than the 3♠ it replaces."""
    from tricksim.strategies.spades.heuristic import SPADE_TOP, estimate_tricks

    rules = build_rules("cardems", [f"deck={deck}"])
    full = np.int64(int(np.bitwise_or.reduce(1 << deck_template(rules))))
    side = ["4C", "5C", "6C", "7C", "4D", "5D", "6D", "4H", "5H", "6H"]
    weights = (1.0, 0.55, 0.55, 0.23, 0.75, 0.33)

    def est(hand, code):
        return estimate_tricks(np.int64(mask(*hand)), full, *weights, code)

    code = decks.DECKS.index(deck)
    gain = est(side + ["2S", "4S", "5S"], code) - est(side + ["3S", "4S", "5S"], code)
    # the third spade from the top held with two guards (no 0.33 off, which is for two spades or fewer); the
    # side suits are all long, so the spade it protects takes no ruff away
    assert gain == pytest.approx(SPADE_TOP[2])
    assert est(side + ["2S", "4S", "5S"], decks.JOKER_ACE) == pytest.approx(est(side + ["3S", "4S", "5S"], decks.JOKER_ACE))


@pytest.mark.parametrize("deck", JOKER_DECKS)
def test_the_players_play_many_hands_of_every_deck_legally(deck):
    """The engine refuses an illegal card (RunError naming it). 5,000 hands a player: seed 1 of the heuristic under
    joker_deuce_deuce once played the 2♦ as a diamond (third hand high, hand 2715), which this run reaches."""
    rules = build_rules("cardems", [f"deck={deck}"])
    for name in ("heuristic", "simple", "random"):
        cfg = engine.RunConfig(rules=rules, seats=tuple(parse_spec(name) for _ in range(4)), seed=1, mode="hands",
                               count=5_000)
        assert engine.run_to_tables(cfg)["hands"].num_rows == 5_000


def test_replacing_the_deck_replaces_the_alias():
    """jokers follows the deck: a joker deck's rules made standard again are standard, not joker_ace."""
    jokered = build_rules("cardems", ["deck=joker_deuce_deuce"])
    assert jokered.replace(deck="standard").deck == "standard" and not jokered.replace(deck="standard").jokers
    assert build_rules("cardems", ["jokers=true"]).replace(target=300).deck == "joker_ace"
    assert build_rules("cardems", ["deck=standard", "jokers=true"]).deck == "joker_ace"  # the alias where no deck is
