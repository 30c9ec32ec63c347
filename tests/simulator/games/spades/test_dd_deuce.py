"""The double-dummy solver on the deuce decks (issue #28): joker_deuce_ace (the 2♠ above the A♠) and
joker_deuce_deuce (the 2♦ a spade too, between the A♠ and the 2♠). The public functions take the deck's card ids,
solve in the rank space (decks.py) and name the cards back.

Expected values: endings worked by hand below, where the promoted 2 decides the answer, and random endings of
these decks solved by the exhaustive minimax of ``reference_dd.py`` (its own card order, written from the rules).
"""
from __future__ import annotations

import random

import pytest
import reference_dd as ref

from tricksim.simulator.games.spades import dd
from tricksim.simulator.games.spades.cards import parse_card
from tricksim.simulator.games.spades.rules import build_rules

JIT = pytest.mark.needs_jit("hundreds of exhaustive reference solves and solver calls: many minutes as pure Python "
                            "(the small tests beside it run in both modes)")
DEUCE_DECKS = ("joker_deuce_ace", "joker_deuce_deuce")
#: joker_deuce_ace with the 2♣ and 2♥ out (its default takes out the 2♥ and 2♦): a deck where the 2♦ is dealt as a
#: diamond, for the endings that compare it with joker_deuce_deuce's 2♦ (a spade)
KEEPS_TWO_OF_DIAMONDS = ["deck=joker_deuce_ace", "joker_removes=2c2h"]
RULE_SETS = [  # (breaking, forced_spade_lead_breaks)
    (True, False),
    (False, False),
    (True, True),
]


def mask(*names: str) -> int:
    return sum(1 << parse_card(n) for n in names)


def values(out) -> dict[str, int]:
    """The legal cards' values by card name (-1: not legal)."""
    from tricksim.simulator.games.spades.cards import card_name

    return {card_name(c): int(out[c]) for c in range(54) if out[c] != -1}


# ------------------------------------------------------------------ endings worked by hand
def test_the_two_of_spades_beats_the_ace_in_joker_deuce_ace():
    """Seat 0 holds A♠ K♥, seat 1 2♠ 3♥, seats 2 and 3 diamonds; seat 0 leads, spades broken. Standard deck: the
    A♠ wins (seat 1 must follow with the 2♠, the lowest spade), then the K♥: team 0 takes 2 with either lead. In
    joker_deuce_ace the 2♠ ranks above the A♠: led first, the A♠ loses to it and seat 1's 3♥ then falls to the K♥;
    the K♥ first, seat 1 follows with the 3♥ and the A♠ led next loses to the 2♠: 1 trick either way. Seat 1's Nil:
    in the standard deck its 2♠ falls under the A♠ (made); here the A♠ led forces the 2♠ to win (not makeable)."""
    hands = [mask("AS", "KH"), mask("2S", "3H"), mask("4D", "5D"), mask("6D", "7D")]
    standard, deuce = build_rules("cardems"), build_rules("cardems", ["deck=joker_deuce_ace"])
    assert dd.dd_tricks(hands, 0, broken=True, rules=standard) == 2
    assert dd.dd_tricks(hands, 0, broken=True, rules=deuce) == 1
    assert values(dd.card_values(hands, 0, broken=True, rules=deuce)) == {"AS": 1, "KH": 1}
    assert values(dd.card_values(hands, 0, broken=True, rules=standard)) == {"AS": 2, "KH": 2}
    assert dd.nil_makeable(hands, 0, broken=True, rules=standard, nil_seat=1)
    assert not dd.nil_makeable(hands, 0, broken=True, rules=deuce, nil_seat=1)


def test_the_two_of_diamonds_follows_spades_in_joker_deuce_deuce():
    """Seat 0 holds 3♠ K♣, seat 1 2♦ 9♣, seats 2 and 3 hearts; seat 0 leads, spades broken. In joker_deuce_deuce
    the 2♦ is a spade above the A♠: on the 3♠ seat 1 must follow with it and wins, then its 9♣ falls to the K♣; the
    K♣ first (seat 1 follows with the 9♣), the 3♠ next loses to the 2♦: 1 trick either way, and seat 1's Nil is not
    makeable. In joker_deuce_ace (with the 2♣ and 2♥ out, so that the 2♦ is dealt) the 2♦ is a diamond: seat 1 is
    void in spades and discards under the 3♠, the K♣ wins the other trick: 2 tricks, and seat 1 never wins a trick
    (its Nil made)."""
    hands = [mask("3S", "KC"), mask("2D", "9C"), mask("4H", "5H"), mask("6H", "7H")]
    deuce_deuce = build_rules("cardems", ["deck=joker_deuce_deuce"])
    deuce_ace = build_rules("cardems", KEEPS_TWO_OF_DIAMONDS)
    assert dd.dd_tricks(hands, 0, broken=True, rules=deuce_deuce) == 1
    assert dd.dd_tricks(hands, 0, broken=True, rules=deuce_ace) == 2
    assert values(dd.card_values(hands, 0, broken=True, rules=deuce_deuce)) == {"3S": 1, "KC": 1}
    assert not dd.nil_makeable(hands, 0, broken=True, rules=deuce_deuce, nil_seat=1)
    assert dd.nil_makeable(hands, 0, broken=True, rules=deuce_ace, nil_seat=1)
    # seat 1 to play to the 3♠ (seat 0 led it): only the 2♦ is legal, and it wins the trick (team 1's: 1 of 2)
    after = [mask("KC"), mask("2D", "9C"), mask("4H", "5H"), mask("6H", "7H")]
    trick = [parse_card("3S")]
    assert values(dd.card_values(after, 0, trick, broken=True, rules=deuce_deuce)) == {"2D": 1}
    assert values(dd.card_values(after, 0, trick, broken=True, rules=deuce_ace)) == {"2D": 0, "9C": 0}


def test_a_position_is_checked_with_the_decks_suits():
    """The 9♣ played to a spade lead by a seat that holds the 2♦: a revoke in joker_deuce_deuce (the 2♦ is a spade),
    a discard in joker_deuce_ace (with the 2♣ and 2♥ out, so that the 2♦ is dealt)."""
    hands = [mask("KC"), mask("2D"), mask("4H", "5H"), mask("6H", "7H")]
    trick = [parse_card("3S"), parse_card("9C")]
    with pytest.raises(ValueError, match="seat 1 did not follow suit"):
        dd.position(hands, 0, trick, True, build_rules("cardems", ["deck=joker_deuce_deuce"]))
    dd.position(hands, 0, trick, True, build_rules("cardems", KEEPS_TWO_OF_DIAMONDS))


# ------------------------------------------------------------------ random endings against the reference
def deck_of(name: str) -> list[int]:
    """The deck's 52 cards (the default two 2s out: 2♥ 2♦ in joker_deuce_ace, 2♣ 2♥ in joker_deuce_deuce, whose 2♦
    is a spade), the jokers 52 and 53 in."""
    out = {"joker_deuce_ace": (26, 13), "joker_deuce_deuce": (0, 26)}[name]
    return [c for c in range(52) if c not in out] + [52, 53]


def ending(rng: random.Random, name: str, n: int, breaking: bool, forced: bool, seats: int = 4):
    """Each seat keeps ``n`` cards of a random deal of the deck, a random leader, spades broken or not, 0..seats-1
    cards already played to the trick (random legal ones, by the reference's rules)."""
    cards = deck_of(name)
    rng.shuffle(cards)
    hands = tuple(sum(1 << c for c in cards[13 * s:13 * s + n]) for s in range(seats))
    leader = rng.randrange(seats)
    broken = rng.random() < 0.5
    rr = ref.Rules(breaking=breaking, forced_breaks=forced, deck=name)
    trick = ()
    for j in range(rng.randrange(seats)):
        seat = (leader + j) % seats
        c = rng.choice(ref.legal(hands[seat], trick, broken, rr, False))
        hands, trick, broken, _ = ref.play(hands, leader, trick, broken, rr, c, seats)
    rules = build_rules("cardems", [f"deck={name}", f"breaking={str(breaking).lower()}",
                                    f"forced_spade_lead_breaks={str(forced).lower()}"])
    return list(hands), leader, list(trick), broken, rr, rules


def check(seed: int, count: int, max_n: int) -> None:
    rng = random.Random(seed)
    for i in range(count):
        name = DEUCE_DECKS[i % 2]
        breaking, forced = RULE_SETS[(i // 2) % len(RULE_SETS)]
        hands, leader, trick, broken, rr, rules = ending(rng, name, rng.randint(1, max_n), breaking, forced)
        where = (name, hands, leader, trick, broken, breaking, forced)
        assert dd.dd_tricks(hands, leader, trick, broken, rules) == ref.tricks(hands, leader, trick, broken, rr), where
        got = dd.card_values(hands, leader, trick, broken, rules)
        assert {c: int(got[c]) for c in range(54) if got[c] != -1} == ref.card_values(
            hands, leader, trick, broken, rr), where
        seat = rng.randrange(4)
        assert dd.nil_makeable(hands, leader, trick, broken, rules, nil_seat=seat) == ref.nil_makeable(
            hands, leader, trick, broken, rr, nil_seat=seat), (where, seat)


def check_alone(seed: int, count: int, max_n: int) -> None:
    """Each player alone, at four seats and three: a seat's tricks and Nil against the others together."""
    rng = random.Random(seed)
    for i in range(count):
        name = DEUCE_DECKS[i % 2]
        seats = 3 + (i // 2) % 2
        hands, leader, trick, broken, rr, rules = ending(rng, name, rng.randint(1, max_n), True, False, seats)
        seat = rng.randrange(seats)
        where = (name, hands, leader, trick, broken, seat)
        assert dd.alone_tricks(hands, leader, seat, trick, broken, rules) == ref.alone_tricks(
            hands, leader, seat, broken, rr, trick=trick), where
        assert dd.alone_nil(hands, leader, seat, trick, broken, rules) == ref.alone_nil(
            hands, leader, seat, broken, rr, trick=trick), where


def check_two_seats(seed: int, count: int, size: int) -> None:
    """Two players alone (``dd_alone.py``, twohanded's search): each seat's tricks and Nil from a trick start."""
    from tricksim.simulator.games.spades.dd_alone import AloneSolver

    rng = random.Random(seed)
    for i in range(count):
        name = DEUCE_DECKS[i % 2]
        cards = deck_of(name)
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[s * size:(s + 1) * size]) for s in range(2)]
        leader, broken = rng.randrange(2), rng.random() < 0.5
        rr = ref.Rules(deck=name)
        solver = AloneSolver(build_rules("cardems", [f"deck={name}"]), tt_bits=10)
        for seat in range(2):
            where = (name, hands, leader, broken, seat)
            assert solver.tricks(hands, leader, seat, broken=broken) == ref.alone_tricks(
                hands, leader, seat, broken, rr), where
            assert solver.nil(hands, leader, seat, broken=broken) == ref.alone_nil(hands, leader, seat, broken, rr), where


def test_deuce_endings_small():
    check(seed=281, count=12, max_n=3)
    check_alone(seed=282, count=8, max_n=3)


@JIT
def test_deuce_endings_against_the_reference():
    check(seed=283, count=300, max_n=4)
    check(seed=284, count=30, max_n=5)
    check_alone(seed=285, count=80, max_n=4)
    check_two_seats(seed=288, count=30, size=6)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [286, 287])
def test_deuce_endings_against_the_reference_many(seed):
    check(seed=seed, count=1000, max_n=5)
    check_alone(seed=seed + 100, count=200, max_n=5)
    check_two_seats(seed=seed + 200, count=100, size=7)
