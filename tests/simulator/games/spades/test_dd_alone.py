"""The double-dummy search without partnerships (``dd_alone.py``, issue #28) against exhaustive minimax.

Endings cut from random deals at 2, 3 and 4 seats, each player alone: each seat keeps a few cards of its
hand, a random leader, spades broken or not, the jokers deck or not, forced spade leads breaking or not.
For every seat, its tricks playing for tricks against the others together, and whether it could keep a
Nil against them, must be those of ``reference_dd.alone_tricks`` / ``alone_nil`` (plain Python, every
legal card tried, no pruning).
"""
from __future__ import annotations

import random

import pytest
import reference_dd as ref

from tricksim.simulator.games.spades.dd_alone import AloneSolver
from tricksim.simulator.games.spades.rules import SpadesRules


def _ending(rng: random.Random, n: int, size: int, jokers: bool):
    deck = list(range(54 if jokers else 52))
    rng.shuffle(deck)
    hands = [0] * n
    for s in range(n):
        for c in deck[s * size:(s + 1) * size]:
            hands[s] |= 1 << c
    return hands


@pytest.mark.parametrize("n, size, count", [(2, 6, 25), (3, 4, 25), (4, 3, 25)])
def test_each_seat_alone_matches_exhaustive_search(n, size, count):
    rng = random.Random(1000 + n)
    checked = nils = 0
    for _ in range(count):
        jokers, breaking, forced = rng.random() < 0.3, rng.random() < 0.7, rng.random() < 0.5
        rules = SpadesRules(jokers=jokers, breaking=breaking, forced_spade_lead_breaks=forced)
        reference = ref.Rules(breaking=breaking, forced_breaks=forced)
        solver = AloneSolver(rules, tt_bits=10)
        hands = _ending(rng, n, size, jokers)
        leader, broken = rng.randrange(n), rng.random() < 0.5
        for seat in range(n):
            want = ref.alone_tricks(hands, leader, seat, broken, reference)
            assert solver.tricks(hands, leader, seat, broken=broken) == want, (hands, leader, seat, broken, rules)
            nil = ref.alone_nil(hands, leader, seat, broken, reference)
            assert solver.nil(hands, leader, seat, broken=broken) == nil, (hands, leader, seat, broken, rules)
            checked += 1
            nils += nil
    assert checked == n * count and 0 < nils < checked  # both answers of the Nil question occur


def test_the_two_of_clubs_opens_the_first_trick():
    # seat 0: 2♣ 4♣ A♦, seat 1: 3♣ K♦ 5♥, seat 0 to lead. Free, it cashes A♦, then 4♣ over the 3♣, then the
    # 2♣ (seat 1 has no club left): 3 tricks. Made to open with the 2♣, it loses it to the 3♣, and seat 1
    # leads 5♥ (seat 0 has no heart and no spade) before giving up K♦ to the ace: 1 trick
    solver = AloneSolver(SpadesRules(first_lead="two_of_clubs"), tt_bits=8)
    hands = [1 | 1 << 2 | 1 << 25, 1 << 1 | 1 << 24 | 1 << 29]
    first = ref.Rules(two_of_clubs=True, first_trick=True)
    assert ref.alone_tricks(hands, 0, 0) == 3 and ref.alone_tricks(hands, 0, 0, rules=first) == 1
    assert solver.tricks(hands, 0, 0) == 3 and solver.tricks(hands, 0, 0, first=True) == 1
    assert solver.tricks(hands, 0, 1) == 0 and solver.tricks(hands, 0, 1, first=True) == 2
