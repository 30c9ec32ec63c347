"""The Nil question by proof-number search (dd_nil.py) against the exhaustive reference and against dd.py's search.

The reference (``tests/reference_dd.py``) tries every legal card at every node, from the rules as written; dd.py's
``nil_makeable`` is the established solver. Endings of 1-5 cards a seat under every rule set of test_dd.py, 0-3
cards already in the trick, each seat asked; and the positions where the Nil seat can nearly duck to the end
(test_dd.py's ``covered_nil``), where a made Nil must be proved to the last trick.
"""
from __future__ import annotations

import random

import pytest
import reference_dd as ref
from test_dd import cases, covered_nil

from tricksim.simulator.games.spades import dd, dd_nil
from tricksim.simulator.games.spades.rules import SpadesRules

JIT = pytest.mark.needs_jit("hundreds of exhaustive reference solves: many minutes as pure Python")


def check_against_the_reference(seed: int, count: int, max_n: int, covered: int, leaf: int = 0):
    # a small table: entries replaced within a question too; ``leaf``: dd.py's search from that many cards down
    solver = dd_nil.DfpnSolver(tt_bits=12, leaf=leaf)
    answers = []
    for hands, leader, trick, broken, rr, rules in cases(seed, count, max_n):
        for seat in range(4):
            want = ref.nil_makeable(hands, leader, trick, broken, rr, nil_seat=seat)
            got = dd_nil.nil_makeable(hands, leader, trick, broken, rules, nil_seat=seat, solver=solver)
            assert got == want, (hands, leader, trick, broken, rules.jokers, rules.breaking,
                                 rules.forced_spade_lead_breaks, seat)
            answers.append(want)
    rng = random.Random(seed)
    for _ in range(covered):
        hands, leader, broken, seat = covered_nil(rng, rng.randint(2, max_n))
        want = ref.nil_makeable(hands, leader, (), broken, ref.Rules(), nil_seat=seat)
        assert dd_nil.nil_makeable(hands, leader, (), broken, SpadesRules(), nil_seat=seat, solver=solver) == want, (
            hands, leader, broken, seat)
        answers.append(want)
    assert 0 < sum(answers) < len(answers)  # both answers occur


def test_small_endings_against_the_reference():
    check_against_the_reference(seed=51, count=20, max_n=3, covered=10)


@JIT
@pytest.mark.parametrize("leaf", [0, 3])
def test_endings_of_up_to_five_cards_against_the_reference(leaf):
    check_against_the_reference(seed=52, count=150, max_n=5, covered=100, leaf=leaf)


@JIT
@pytest.mark.slow
def test_many_endings_against_the_reference():
    check_against_the_reference(seed=53, count=1000, max_n=5, covered=500)
    check_against_the_reference(seed=55, count=500, max_n=5, covered=200, leaf=4)


@JIT
@pytest.mark.parametrize("n, leaf", [(7, 0), (7, 5), pytest.param(13, 0, marks=pytest.mark.slow),
                                     pytest.param(13, 11, marks=pytest.mark.slow)])
def test_the_same_answers_as_dd_on_longer_hands(n, leaf):
    """Endings of 7 cards and full deals (where the reference is out of reach): dd.py's answer, every seat."""
    rng = random.Random(54 + n)
    solver, pn_solver = dd.Solver(tt_bits=16), dd_nil.DfpnSolver(tt_bits=16, leaf=leaf)
    rules = SpadesRules()
    made = 0
    for _ in range(12 if n == 13 else 30):
        cards = list(range(52))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[13 * s:13 * s + n]) for s in range(4)]
        leader, broken = rng.randrange(4), n < 13 and rng.random() < 0.5
        for seat in range(4):
            want = dd.nil_makeable(hands, leader, (), broken, rules, nil_seat=seat, solver=solver)
            assert dd_nil.nil_makeable(hands, leader, (), broken, rules, nil_seat=seat, solver=pn_solver) == want, (
                hands, leader, broken, seat)
            made += want
    assert made > 0


def test_a_failed_nil_and_bad_input():
    hands = [1 << 3, 1 << 0, 1 << 1, 1 << 2]  # 5C, 2C, 3C, 4C
    assert not dd_nil.nil_makeable(hands, 0, nil_seat=3, taken=1)
    assert dd_nil.nil_makeable(hands, 0, nil_seat=1)  # the 2C loses to the 5C
    assert not dd_nil.nil_makeable(hands, 0, nil_seat=0)  # the 5C wins the only trick
    with pytest.raises(ValueError, match="nil_seat 4"):
        dd_nil.nil_makeable(hands, 0, nil_seat=4)
