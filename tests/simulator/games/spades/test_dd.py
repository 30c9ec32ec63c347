"""The Spades double-dummy solver (simulator/games/spades/dd.py) against an exhaustive search and DDS.

Expected values never come from the solver itself: endings of a few tricks are solved by the plain
minimax of ``reference_dd.py`` (its own legality and scoring, written from the rules), and full deals
with ``breaking=false`` and no jokers -- Spades is then bridge with spades as trumps -- by Bo
Haglund's DDS through ``endplay``.

The positions are endings cut from random deals: each seat keeps ``n`` cards of its 13, a random
leader, spades broken or not, and 0-3 cards already played to the trick (random legal cards, by the
reference's rules).
"""
from __future__ import annotations

import importlib.util
import json
import random
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import reference_dd as ref

from tricksim.simulator.games.spades import dd
from tricksim.simulator.games.spades.rules import SpadesRules

ROOT = Path(__file__).resolve().parents[4]

try:  # an established solver to check against (the `test` extra installs it)
    from endplay.dds import calc_dd_table, solve_board
    from endplay.types import Card, Deal, Denom, Player
except ImportError:  # pragma: no cover - the test extra installs endplay
    calc_dd_table = None
needs_endplay = pytest.mark.skipif(calc_dd_table is None,
                                   reason="endplay (Python wrapper of the DDS solver) is not installed: "
                                          "pip install -e '.[test]'")
JIT = pytest.mark.needs_jit("hundreds of exhaustive reference solves and solver calls: many minutes as pure Python "
                            "(the small tests beside it run in both modes)")
FULL_DEALS = pytest.mark.needs_jit("full 13-trick deals: about a second each compiled, hours as pure Python")

RULE_SETS = [  # (jokers, breaking, forced_spade_lead_breaks)
    (False, True, False),
    (False, True, True),
    (False, False, False),
    (True, True, False),
    (True, False, True),
]


# ------------------------------------------------------------------ positions
def deck(jokers: bool) -> list[int]:
    cards = list(range(52))
    if jokers:  # the 2H and 2D leave (joker_removes=2h2d), the two jokers come in
        cards = [c for c in cards if c not in (13, 26)] + [52, 53]
    return cards


def ending(rng: random.Random, n: int, jokers=False, breaking=True, forced=False, played=None):
    """A random ending: each seat keeps n cards of a random deal; ``played`` (default random 0-3) cards
    already in the trick. Returns (hands, leader, trick, broken, reference rules, SpadesRules)."""
    cards = deck(jokers)
    rng.shuffle(cards)
    hands = tuple(sum(1 << c for c in cards[13 * s:13 * s + n]) for s in range(4))
    leader = rng.randrange(4)
    broken = rng.random() < 0.5
    rr = ref.Rules(breaking=breaking, forced_breaks=forced)
    k = rng.randrange(4) if played is None else played
    trick = ()
    for j in range(k):
        seat = (leader + j) % 4
        c = rng.choice(ref.legal(hands[seat], trick, broken, rr, False))
        hands, trick, broken, _ = ref.play(hands, leader, trick, broken, rr, c)
    rules = SpadesRules(jokers=jokers, breaking=breaking, forced_spade_lead_breaks=forced)
    return list(hands), leader, list(trick), broken, rr, rules


def cases(seed: int, count: int, max_n: int):
    rng = random.Random(seed)
    for i in range(count):
        jokers, breaking, forced = RULE_SETS[i % len(RULE_SETS)]
        yield ending(rng, rng.randint(1, max_n), jokers, breaking, forced)


def values_of(out: np.ndarray, missing: int = -1) -> dict[int, int]:
    return {c: int(out[c]) for c in range(54) if out[c] != missing}


# ------------------------------------------------------------------ trick objective
def check_tricks(seed: int, count: int, max_n: int, solver=None):
    for hands, leader, trick, broken, rr, rules in cases(seed, count, max_n):
        where = (hands, leader, trick, broken, rules.jokers, rules.breaking, rules.forced_spade_lead_breaks)
        assert dd.dd_tricks(hands, leader, trick, broken, rules, solver=solver) == ref.tricks(
            hands, leader, trick, broken, rr), where
        got = values_of(dd.card_values(hands, leader, trick, broken, rules, solver=solver))
        assert got == ref.card_values(hands, leader, trick, broken, rr), where


def test_tricks_and_card_values_small():
    check_tricks(seed=1, count=12, max_n=3)


@JIT
def test_tricks_and_card_values_against_the_reference():
    check_tricks(seed=2, count=400, max_n=4)
    check_tricks(seed=3, count=40, max_n=5)


@JIT
def test_one_solver_reused_gives_the_same_answers():
    check_tricks(seed=4, count=200, max_n=4, solver=dd.Solver(tt_bits=12))  # a small table: replacement too


@JIT
def test_entries_kept_across_solves_under_the_same_rules_stay_true():
    """Trick-mode solves under the same play rules keep the table: one solver through hundreds of
    endings of one rule set gives the reference's answers."""
    for jokers, breaking, forced in RULE_SETS[:3]:
        solver = dd.Solver(tt_bits=14)
        rng = random.Random(7)
        for _ in range(150):
            hands, leader, trick, broken, rr, rules = ending(rng, rng.randint(2, 4), jokers, breaking, forced)
            assert dd.dd_tricks(hands, leader, trick, broken, rules, solver=solver) == ref.tricks(
                hands, leader, trick, broken, rr)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [10, 11, 12])
def test_tricks_and_card_values_against_the_reference_many(seed):
    check_tricks(seed=seed, count=1000, max_n=5)


def test_the_two_of_clubs_opens_the_first_trick():
    """trick_no=0 under first_lead=two_of_clubs: the 2C must open; only it has a value."""
    rng = random.Random(5)
    checked = 0
    while checked < 8:
        hands, leader, _, broken, rr, _ = ending(rng, rng.randint(2, 3), played=0)
        holder = [s for s in range(4) if hands[s] & 1]
        if not holder:
            continue
        leader = holder[0]
        rules = SpadesRules(first_lead="two_of_clubs")
        rr = replace(rr, two_of_clubs=True, first_trick=True, forced_breaks=False)
        want = ref.tricks(hands, leader, (), broken, rr)
        assert dd.dd_tricks(hands, leader, (), broken, rules, trick_no=0) == want
        got = values_of(dd.card_values(hands, leader, (), broken, rules, trick_no=0))
        assert got == ref.card_values(hands, leader, (), broken, rr) and list(got) == [0]
        # later in the hand the rule is silent
        rr_later = replace(rr, first_trick=False)
        assert dd.dd_tricks(hands, leader, (), broken, rules) == ref.tricks(hands, leader, (), broken, rr_later)
        checked += 1


def test_a_lone_spade_hand_may_lead_spades_before_they_are_broken():
    # seat 0: only spades (AS, 2S); others hold clubs and a spade; spades not broken
    def s(r):
        return 39 + r

    hands = [(1 << s(12)) | (1 << s(0)), (1 << 0) | (1 << 1), (1 << 2) | (1 << 3), (1 << 4) | (1 << s(5))]
    rules = SpadesRules()
    got = values_of(dd.card_values(hands, 0, (), False, rules))
    assert set(got) == {s(12), s(0)}
    assert got == ref.card_values(hands, 0, (), False, ref.Rules())


# ------------------------------------------------------------------ score objective
SCORE_FLAGS = [
    {},
    {"bag_overflow": "reset", "bag_limit": 5},
    {"nil_tricks": "contract", "nil_bags_when_set": False},
    {"nil_value": 50, "blind_nil_value": 300, "nil_trick_points": 0, "bag_points": 3, "bag_penalty": 50,
     "bag_limit": 3},
]


def score_cases(seed: int, count: int, max_n: int):
    rng = random.Random(seed)
    for i, (hands, leader, trick, broken, rr, rules) in enumerate(cases(seed, count, max_n)):
        bids = tuple(rng.choice([0, 0, 1, 2, 3, 4, 5]) for _ in range(4))
        blind = tuple(1 if b == 0 and rng.random() < 0.3 else 0 for b in bids)
        n_left = hands[(leader + len(trick)) % 4].bit_count()
        taken = [0, 0, 0, 0]
        for _ in range(13 - n_left):
            taken[rng.randrange(4)] += 1
        bags = (rng.randrange(12), rng.randrange(12))
        flags = SCORE_FLAGS[i % len(SCORE_FLAGS)]
        yield (hands, leader, trick, broken, replace(rr, **flags), replace(rules, blind_nil=True, **flags),
               dd.ScoreState(bids=bids, blind=blind, taken=tuple(taken), bags=bags))


def check_score(seed: int, count: int, max_n: int):
    for hands, leader, trick, broken, rr, rules, st in score_cases(seed, count, max_n):
        kw = {"bids": st.bids, "blind": st.blind, "taken": st.taken, "bags": st.bags}
        where = (hands, leader, trick, broken, st, rr)
        assert dd.dd_score(hands, leader, trick, broken, rules, score=st) == ref.score(
            hands, leader, trick, broken, rr, **kw), where
        got = values_of(dd.card_values(hands, leader, trick, broken, rules, score=st), dd.NO_VALUE)
        assert got == ref.score_card_values(hands, leader, trick, broken, rr, **kw), where


def test_score_small():
    check_score(seed=21, count=8, max_n=3)


@JIT
def test_score_and_card_values_against_the_reference():
    check_score(seed=22, count=300, max_n=4)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [23, 24])
def test_score_against_the_reference_many(seed):
    check_score(seed=seed, count=1000, max_n=5)


def test_score_counts_each_nil_seat_apart():
    """Seat 0 bid Nil with nothing taken, partner bid 2: which seat takes the last trick decides it."""
    # seat 0 holds AC, seat 2 the KC; seats 1, 3 small clubs; seat 0 leads: it must win the trick
    hands = [1 << 12, 1 << 0, 1 << 11, 1 << 1]
    st = dd.ScoreState(bids=(0, 3, 2, 3), taken=(0, 6, 2, 4), bags=(0, 0))
    rules = SpadesRules()
    want = ref.score(hands, 0, (), False, ref.Rules(), bids=st.bids, taken=st.taken)
    assert dd.dd_score(hands, 0, (), False, rules, score=st) == want
    # the Nil fails (-100) and its trick is a bag (+1), partner's 2 made (+20); team 1 bid 6, took 10: 64
    assert want == (20 + 1 - 100) - (60 + 4)


# ------------------------------------------------------------------ the Nil question
def check_nil(seed: int, count: int, max_n: int):
    rng = random.Random(seed)
    for hands, leader, trick, broken, rr, rules in cases(seed, count, max_n):
        seat = rng.randrange(4)
        want = ref.nil_makeable(hands, leader, trick, broken, rr, nil_seat=seat)
        assert dd.nil_makeable(hands, leader, trick, broken, rules, nil_seat=seat) == want, (
            hands, leader, trick, broken, seat)


def test_nil_small():
    check_nil(seed=31, count=12, max_n=3)


@JIT
def test_nil_against_the_reference():
    check_nil(seed=32, count=400, max_n=5)


@JIT
def test_the_nil_ordering_gives_the_reference_answer_for_every_seat():
    """The Nil question's own move ordering (``_nil_order``: the Nil seat's, its partner's over the Nil seat's
    winning card, the defence's leads, the killer lead) only orders: each seat asked as the Nil seat, with 0-3
    cards of the trick in progress (the Nil seat or its partner following), one solver reused throughout, and
    the covered positions where a made Nil is proved to the last trick, all against the reference."""
    solver = dd.Solver(tt_bits=12)
    for hands, leader, trick, broken, rr, rules in cases(38, 150, 4):
        for seat in range(4):
            want = ref.nil_makeable(hands, leader, trick, broken, rr, nil_seat=seat)
            assert dd.nil_makeable(hands, leader, trick, broken, rules, nil_seat=seat, solver=solver) == want, (
                hands, leader, trick, broken, seat)
    rng = random.Random(39)
    rr, rules = ref.Rules(), SpadesRules()
    for _ in range(100):
        hands, leader, broken, seat = covered_nil(rng, rng.randint(3, 5))
        want = ref.nil_makeable(hands, leader, (), broken, rr, nil_seat=seat)
        assert dd.nil_makeable(hands, leader, (), broken, rules, nil_seat=seat, solver=solver) == want, (
            hands, leader, broken, seat)


@JIT
def test_the_nil_bound_changes_no_answer_and_cuts_the_search():
    """Issue #26: the Nil seat's spades above the opponents' that its partner cannot all cover (``_nil_lost``)
    decide a node at once; the same search without that bound (``W_NIL`` = 0) gives the same answer on every
    position, in fewer nodes overall. Hands with many spades, and hands where the Nil seat nearly ducks."""
    rng = random.Random(36)
    solver = dd.Solver(tt_bits=16)
    rules = SpadesRules()
    nodes = [0, 0]
    for _ in range(150):
        n = rng.randint(4, 8)
        spades = list(range(39, 52))
        rng.shuffle(spades)
        rest = list(range(39))
        rng.shuffle(rest)
        deck = (spades[:rng.randint(4, min(13, 4 * n))] + rest)[:4 * n]
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[n * s:n * s + n]) for s in range(4)]
        leader, broken, seat = rng.randrange(4), rng.random() < 0.5, rng.randrange(4)
        if rng.random() < 0.5:
            hands, leader, broken, seat = covered_nil(rng, n)
        made = dd.nil_makeable(hands, leader, (), broken, rules, nil_seat=seat, solver=solver)
        nodes[0] += solver.nodes
        pos = dd.position(hands, leader, (), broken, rules)
        dd.nil_setup_nb(solver.ws, n, seat)
        solver.ws[dd.W_NIL] = 0
        v = dd.table_value_nb(solver.tt, solver.ws, pos)
        nodes[1] += solver.nodes
        assert made == ((v == 1) if seat % 2 == 0 else (v == 0)), (hands, leader, broken, seat)
    assert nodes[0] < nodes[1]


def covered_nil(rng: random.Random, n: int):
    """An ending of n cards a seat where the Nil seat holds no spade, or one, and low side cards, its partner
    mostly high side cards: the positions where the Nil seat can duck to the end or nearly."""
    seat = rng.randrange(4)
    low = [c for c in range(39) if c % 13 < 7]
    high = [c for c in range(39) if c % 13 >= 6]
    rng.shuffle(low)
    rng.shuffle(high)
    mine = low[:n - 1] + ([rng.choice(range(39, 52))] if rng.random() < 0.3 else [low[n - 1]])
    partner = [c for c in high if c not in mine][:n - 1]
    partner += [rng.choice([c for c in range(52) if c not in mine and c not in partner])]
    rest = [c for c in range(52) if c not in mine and c not in partner]
    rng.shuffle(rest)
    hands = [0, 0, 0, 0]
    hands[seat] = sum(1 << c for c in mine)
    hands[seat ^ 2] = sum(1 << c for c in partner)
    hands[(seat + 1) & 3] = sum(1 << c for c in rest[:n])
    hands[(seat + 3) & 3] = sum(1 << c for c in rest[n:2 * n])
    return hands, rng.randrange(4), rng.random() < 0.5, seat


# the reference's exhaustive search of 5-card endings is the cost: a first part in the quick suite, all as slow
@JIT
@pytest.mark.parametrize("positions", [75, pytest.param(300, marks=pytest.mark.slow)])
def test_the_nil_bounds_against_the_reference_where_they_apply(positions):
    """The Nil question on positions where the Nil seat can nearly duck to the end (low side cards, at most one
    spade, a partner with high side cards), against the exhaustive reference: where a made Nil must be proved
    and a bound for it would act (docs/performance.md P39: one was tried and not kept)."""
    rng = random.Random(37)
    rr = ref.Rules()
    rules = SpadesRules()
    made = 0
    for _ in range(positions):
        hands, leader, broken, seat = covered_nil(rng, rng.randint(2, 5))
        want = ref.nil_makeable(hands, leader, (), broken, rr, nil_seat=seat)
        assert dd.nil_makeable(hands, leader, (), broken, rules, nil_seat=seat) == want, (hands, leader, seat)
        made += want
    assert 0 < made < positions  # both answers occur


def same_partition(rng: random.Random, hands, rel: int):
    """Another position the table would take for this one: in each suit, the cards from the lowest card of
    ``rel`` up keep their owners, the cards below it are dealt again keeping each hand's count of the suit."""
    out = list(hands)
    for s in range(4):
        sm = ((1 << 13) - 1) << (13 * s)
        r = rel & sm
        cut = (r & -r) if r else 1 << (13 * s + 13)
        low = [c for c in range(13 * s, 13 * s + 13) if (1 << c) < cut and any(h >> c & 1 for h in hands)]
        owners = [h for c in low for h in range(4) if hands[h] >> c & 1]
        rng.shuffle(owners)
        for c in low:
            for h in range(4):
                out[h] &= ~(1 << c)
        for c, h in zip(low, owners):
            out[h] |= 1 << c
    return out


def _nil_safe(ws, hands, seat) -> int:
    """``dd._nil_safe`` at a trick's start of these hands (the workspace's hands set): the cards it rests on, or -1."""
    ws[dd.W_H:dd.W_H + 4] = hands
    return int(dd._nil_safe(ws, seat))


def _made_here_and_in_its_partition(rng, hands, leader, broken, rr, seat, rel) -> None:
    """The exhaustive reference finds the Nil made where ``_nil_safe`` said safe (resting on ``rel``), and in another
    position of the same table entry (the cards below ``rel`` dealt again)."""
    assert ref.nil_makeable(hands, leader, (), broken, rr, nil_seat=seat), (hands, leader, broken, seat)
    other = same_partition(rng, hands, rel)
    assert ref.nil_makeable(other, leader, (), broken, rr, nil_seat=seat), (other, leader, broken, seat, rel)


@JIT
@pytest.mark.parametrize("positions, least_fired", [(150, 25), pytest.param(600, 50, marks=pytest.mark.slow)])
def test_the_nil_safe_test_against_the_reference(positions, least_fired):
    """Where ``dd._nil_safe`` says the Nil seat takes no trick from a trick led by another seat, the exhaustive
    reference finds the Nil made, there and in a position of the same table entry (the cards below those it
    rests on dealt again); checked on endings of 2-5 cards where it acts (the search uses it from 5 cards)."""
    rng = random.Random(48)
    rr = ref.Rules()
    ws = np.zeros(dd.WS_SIZE, np.int64)
    fired = 0
    for i in range(positions):
        hands, leader, broken, seat = covered_nil(rng, rng.randint(2, 5))
        if leader == seat:
            continue
        rel = _nil_safe(ws, hands, seat)
        if rel < 0:
            continue
        fired += 1
        _made_here_and_in_its_partition(rng, hands, leader, broken, rr, seat, rel)
    assert fired > least_fired



def ruff_covered_nil(rng: random.Random, n: int):
    """An ending of n cards a seat where the Nil seat holds one to three spades and low side cards, its partner
    spades above them (as many, or one fewer) and mostly high side cards, the lengths of the side suits left to
    chance: the positions of ``_nil_safe``'s case where the partner ruffs over the Nil seat's spades."""
    seat = rng.randrange(4)
    k = rng.randint(1, min(3, n - 1))
    spades = sorted(rng.sample(range(39, 52), 2 * k))
    mine = spades[:k] + rng.sample([c for c in range(39) if c % 13 < 7], n - k)
    covers = spades[k:] if rng.random() < 0.7 else spades[k + 1:]
    high = [c for c in range(39) if c % 13 >= 6 and c not in mine]
    partner = covers + rng.sample(high, rng.randint(0, n - len(covers)))
    rest = [c for c in range(52) if c not in mine and c not in partner]
    return nil_ending(rng, seat, n, mine, partner, rest)


def nil_ending(rng, seat, n, mine, partner, rest):
    """The ending of ``n`` cards a hand: the Nil seat's ``mine``, its partner's ``partner`` filled up from ``rest``
    (shuffled), the opponents' from what is left; (hands, a leader other than the Nil seat, the Nil seat)."""
    rng.shuffle(rest)
    fill = n - len(partner)
    partner += rest[:fill]
    rest = rest[fill:]
    hands = [0, 0, 0, 0]
    hands[seat] = sum(1 << c for c in mine)
    hands[seat ^ 2] = sum(1 << c for c in partner)
    hands[(seat + 1) & 3] = sum(1 << c for c in rest[:n])
    hands[(seat + 3) & 3] = sum(1 << c for c in rest[n:2 * n])
    return hands, (seat + rng.choice((1, 2, 3))) & 3, seat


def longest_in_side_suits(hands, seat) -> bool:
    """The Nil seat holds as many cards as each other seat in every suit but spades (``_nil_safe``'s second case)."""
    count = [[(h >> (13 * s) & 0x1FFF).bit_count() for s in range(3)] for h in hands]
    return all(count[seat][s] >= count[q][s] for q in range(4) for s in range(3))


@JIT
@pytest.mark.parametrize("positions, least_fired", [(300, 40), pytest.param(1200, 150, marks=pytest.mark.slow)])
def test_the_nil_safe_test_with_a_partner_ruffing_over_against_the_reference(positions, least_fired):
    """``_nil_safe``'s case for a Nil seat holding spades and shorter than another seat in a side suit (so it may be
    void in a suit led): safe only when its partner holds a spade above its top spade for each of its spades. Where
    it says safe there, the exhaustive reference finds the Nil made under each play rule, there and in a position
    of the same table entry; counting only the Nil seat's spades that are not dead, as for a side suit, makes this
    fail (the partner must overruff a forced ruff)."""
    fired = _safe_fired_against_the_reference(random.Random(50), ruff_covered_nil,
                                              lambda hands, seat: not longest_in_side_suits(hands, seat), positions)
    assert fired > least_fired


def _nil_question_against_the_reference(rng, deal, cards: int, positions: int, fires, static=dd._nil_safe) -> None:
    """The Nil question on ``positions`` endings of ``cards`` cards a seat from ``deal`` (hands, leader, seat), the
    play rules taken in turn, against the exhaustive reference: both answers occur, and ``static`` (a static test of
    dd.py: ``_nil_safe`` or ``_nil_lost``) decides some of the roots where ``fires`` (hands, seat) holds (the case
    under test)."""
    ws = np.zeros(dd.WS_SIZE, np.int64)
    made = fired = 0
    for i in range(positions):
        hands, leader, seat = deal(rng, cards)
        _, breaking, forced = RULE_SETS[i % 3]
        broken = rng.random() < 0.5
        rr = ref.Rules(breaking=breaking, forced_breaks=forced)
        rules = SpadesRules(breaking=breaking, forced_spade_lead_breaks=forced)
        want = ref.nil_makeable(hands, leader, (), broken, rr, nil_seat=seat)
        assert dd.nil_makeable(hands, leader, (), broken, rules, nil_seat=seat) == want, (hands, leader, broken, seat)
        made += want
        ws[dd.W_H:dd.W_H + 4] = hands
        fired += fires(hands, seat) and static(ws, seat) >= 0
    assert 0 < made < positions
    assert fired > 0


@JIT
@pytest.mark.parametrize("cards, positions", [(5, 40), (6, 30), pytest.param(5, 200, marks=pytest.mark.slow),
                                              pytest.param(7, 60, marks=pytest.mark.slow)])
def test_the_nil_question_with_a_partner_ruffing_over_against_the_reference(cards, positions):
    """The Nil question on endings of 5 to 7 cards a seat (the search's safe test acts from 5) where the partner
    may ruff over the Nil seat's spades, against the exhaustive reference: both answers occur, and the safe
    test's case for them decides some of the positions at the root."""
    _nil_question_against_the_reference(random.Random(51 + cards), ruff_covered_nil, cards, positions,
                                        lambda hands, seat: not longest_in_side_suits(hands, seat))


def matched_nil(rng: random.Random, n: int):
    """An ending of n cards a seat where the Nil seat's partner holds, for most of the Nil seat's cards, a card of
    the same suit one to three ranks above it (so often fewer cards above the Nil seat's top card of a suit than
    the Nil seat holds there): the positions of ``_nil_safe``'s covers card by card. The Nil seat's cards are
    side cards below the queen, now and then a spade; in half the endings all of one suit (no discard to save it)."""
    seat = rng.randrange(4)
    free = set(range(52))
    mine, partner = [], []
    one_suit = rng.randrange(3) if rng.random() < 0.5 else -1
    while len(mine) < n:
        suit = one_suit if one_suit >= 0 else 3 if rng.random() < 0.15 else rng.randrange(3)
        c = 13 * suit + rng.randrange(10)
        if c not in free:
            continue
        free.discard(c)
        mine.append(c)
        cover = c + rng.randint(1, 3)
        if rng.random() < 0.85 and cover in free and cover // 13 == c // 13 and len(partner) < n:
            free.discard(cover)
            partner.append(cover)
    rest = sorted(free)
    return nil_ending(rng, seat, n, mine, partner, rest)


def short_of_covers(hands, seat) -> bool:
    """In some suit the Nil seat's partner holds fewer cards above the Nil seat's top card of it than the Nil seat
    holds cards above the others' lowest card of it: ``_nil_safe`` safe there rests on covers card by card."""
    others = hands[(seat + 1) & 3] | hands[(seat + 2) & 3] | hands[(seat + 3) & 3]
    for s in range(4):
        sm = ((1 << 13) - 1) << (13 * s)
        mine, theirs = hands[seat] & sm, others & sm
        if mine == 0 or theirs == 0:
            continue
        live = (mine & ~((theirs & -theirs) - 1)).bit_count()
        if (hands[seat ^ 2] & sm & ~((1 << mine.bit_length()) - 1)).bit_count() < live:
            return True
    return False


def _safe_fired_against_the_reference(rng: random.Random, make_ending, selects, positions: int) -> int:
    """Of ``positions`` endings of 2-5 cards by ``make_ending`` that ``selects`` keeps, those ``_nil_safe`` calls safe
    are checked against the exhaustive reference (the Nil made there and in a position of the same table entry,
    under the i-th rule set); returns how many fired."""
    ws = np.zeros(dd.WS_SIZE, np.int64)
    fired = 0
    for i in range(positions):
        hands, leader, seat = make_ending(rng, rng.randint(2, 5))
        if not selects(hands, seat):
            continue
        rel = _nil_safe(ws, hands, seat)
        if rel < 0:
            continue
        fired += 1
        _, breaking, forced = RULE_SETS[i % 3]
        broken = rng.random() < 0.5
        rr = ref.Rules(breaking=breaking, forced_breaks=forced)
        _made_here_and_in_its_partition(rng, hands, leader, broken, rr, seat, rel)
    return fired


@JIT
@pytest.mark.parametrize("positions, least_fired", [(300, 30), pytest.param(1200, 100, marks=pytest.mark.slow)])
def test_the_nil_safe_test_with_covers_card_by_card_against_the_reference(positions, least_fired):
    """``_nil_safe``'s covers card by card (the partner's i-th highest card of a suit above the Nil seat's i-th
    highest, not all above its top card): where it says safe and some suit is short of covers above the top, the
    exhaustive reference finds the Nil made under each play rule, there and in a position of the same table entry."""
    assert _safe_fired_against_the_reference(random.Random(52), matched_nil, short_of_covers, positions) > least_fired


@JIT
@pytest.mark.parametrize("cards, positions", [(5, 40), (6, 30)])
def test_the_nil_question_with_covers_card_by_card_against_the_reference(cards, positions):
    """The Nil question on endings of 5 and 6 cards a seat where the partner covers the Nil seat's cards card by
    card, against the exhaustive reference: both answers occur, and the safe test decides some roots short of
    covers above the Nil seat's top card of a suit. Counting only the partner's cards above the Nil seat's lowest
    live card of a suit (as many as its live cards), not card by card, makes this fail."""
    _nil_question_against_the_reference(random.Random(61 + cards), matched_nil, cards, positions, short_of_covers)


def reserved_nil(rng: random.Random, n: int):
    """An ending of n cards a seat where the Nil seat holds, in one side suit, low cards below every card of it the
    others hold and one or two high cards its partner does not cover; one defender holds one card of that suit more
    than the Nil seat's low cards, or fewer, and the others now and then one or two; the Nil seat's other cards are
    low side cards or now and then a spade, most with a partner's card of the suit one to three ranks above: the
    positions of ``_nil_safe``'s dead cards kept for the tricks of a suit, on both sides of its count."""
    seat = rng.randrange(4)
    suit = rng.randrange(3)
    ranks = list(range(13 * suit, 13 * suit + 13))
    d = rng.randint(1, n - 1)
    low = sorted(rng.sample(ranks[:6], d))
    high = rng.sample(ranks[9:], rng.randint(1, min(2, n - d)))
    mine = low + high
    free = set(range(52)) - set(ranks)
    partner = []
    while len(mine) < n:
        c = rng.choice(sorted(free - {c for c in free if c % 13 >= 10}))
        free.discard(c)
        mine.append(c)
        cover = c + rng.randint(1, 3)
        if rng.random() < 0.85 and cover in free and cover // 13 == c // 13:
            free.discard(cover)
            partner.append(cover)
    middle = [c for c in ranks[low[-1] % 13 + 1:] if c not in high]
    rng.shuffle(middle)
    k = min(len(middle), rng.randint(1, d + 1))
    theirs, middle = middle[:k], middle[k:]
    hands, leader, seat = nil_ending(rng, seat, n, mine, partner, sorted(free) + middle[:rng.randint(0, 2)])
    defender = (seat + rng.choice((1, 3))) & 3
    side = [c for c in range(52) if hands[defender] >> c & 1 and c // 13 != suit]
    theirs = theirs[:len(side)]
    hands[defender] += sum(1 << c for c in theirs) - sum(1 << c for c in rng.sample(side, len(theirs)))
    return hands, leader, seat


def short_of_matching(hands, seat) -> bool:
    """In some side suit the Nil seat's partner does not cover, card by card, the Nil seat's cards above the
    others' lowest card of it: ``_nil_safe`` safe there rests on the Nil seat's dead cards of that suit."""
    others = hands[(seat + 1) & 3] | hands[(seat + 2) & 3] | hands[(seat + 3) & 3]
    for s in range(3):
        sm = ((1 << 13) - 1) << (13 * s)
        mine, theirs, partner = hands[seat] & sm, others & sm, hands[seat ^ 2] & sm
        live = sorted((c for c in range(52) if mine >> c & 1 and theirs and (1 << c) > (theirs & -theirs)),
                      reverse=True)
        above = [sum(1 for p in range(52) if partner >> p & 1 and p > c) for c in live]
        if any(a < i + 1 for i, a in enumerate(above)):
            return True
    return False


@JIT
@pytest.mark.parametrize("positions, least_fired", [(300, 40), pytest.param(1200, 150, marks=pytest.mark.slow)])
def test_the_nil_safe_test_with_dead_cards_kept_for_a_suit_against_the_reference(positions, least_fired):
    """``_nil_safe``'s dead cards kept for a suit (a side suit whose cards above the others' lowest the partner does
    not cover: safe when the Nil seat holds, below every card of it the others hold, as many cards as any other
    seat holds of it): where it says safe and some side suit is short of covers, the exhaustive reference finds the
    Nil made under each play rule, there and in a position of the same table entry. Counting the dead cards against
    the others' cards of the suit less one, or the Nil seat's whole length of it, makes this fail."""
    assert _safe_fired_against_the_reference(random.Random(71), reserved_nil, short_of_matching, positions) > least_fired


@JIT
@pytest.mark.parametrize("cards, positions", [(5, 40), (6, 50), pytest.param(5, 200, marks=pytest.mark.slow),
                                              pytest.param(7, 60, marks=pytest.mark.slow)])
def test_the_nil_question_with_dead_cards_kept_for_a_suit_against_the_reference(cards, positions):
    """The Nil question on endings of 5 to 7 cards a seat where the Nil seat keeps low cards of a side suit for its
    tricks (its high cards there uncovered), against the exhaustive reference: both answers occur, and the safe test
    decides some roots short of covers in a side suit. Counting the Nil seat's low cards against the others' cards
    of the suit less one, or its cards of the suit instead of its dead ones, makes this fail."""
    _nil_question_against_the_reference(random.Random(81 + cards), reserved_nil, cards, positions, short_of_matching)


@JIT
@pytest.mark.parametrize("positions, least_fired", [(400, 40), pytest.param(1500, 150, marks=pytest.mark.slow)])
def test_the_nil_broken_test_against_the_reference(positions, least_fired):
    """Where ``dd._nil_broken`` says the defender on lead breaks the Nil at once (a suit where every card of the
    Nil seat is above the lead, its partner's cards and a card the other defender can play), the exhaustive
    reference finds the Nil not makeable, there and in a position of the same table entry (the cards below the
    one it rests on dealt again). Random endings of 2-5 cards under every rule set (spades led, partner and
    other defender void), endings where the other defender holds only spades, and covered positions; the Nil
    seat beside the leader. The partner's conditions (below, no ruff) and the other defender's (no forced
    ruff), each left out of ``_nil_broken``, make it fail here."""
    rng = random.Random(49)
    ws = np.zeros(dd.WS_SIZE, np.int64)
    fired = 0
    for i in range(positions):
        if i % 4 == 1:
            jokers, breaking, forced = RULE_SETS[i % len(RULE_SETS)]
            hands, leader, _, broken, rr, rules = ending(rng, rng.randint(2, 5), jokers, breaking, forced, played=0)
            seat = (leader + rng.choice((1, 3))) & 3
        elif i % 4 == 3:  # the other defender holds only spades: void in a side suit led, it must ruff
            n = rng.randint(2, 5)
            cards = list(range(52))
            rng.shuffle(cards)
            spades = [c for c in cards if c >= 39][:n]
            rest = [c for c in cards if c not in spades]
            leader = rng.randrange(4)
            seat = (leader + rng.choice((1, 3))) & 3
            hands = [0, 0, 0, 0]
            hands[leader ^ 2] = sum(1 << c for c in spades)
            for j, h in enumerate((leader, seat, seat ^ 2)):
                hands[h] = sum(1 << c for c in rest[n * j:n * j + n])
            broken, rr, rules = rng.random() < 0.5, ref.Rules(), SpadesRules()
        else:
            hands, leader, broken, seat = covered_nil(rng, rng.randint(2, 5))
            rr, rules = ref.Rules(), SpadesRules()
            leader = (seat + rng.choice((1, 3))) & 3
        ws[dd.W_H:dd.W_H + 4] = hands
        dd.set_rules_nb(ws, int(rules.breaking), int(rules.forced_spade_lead_breaks))
        rel = dd._nil_broken(ws, leader, int(broken), seat)
        if rel < 0:
            continue
        fired += 1
        assert not ref.nil_makeable(hands, leader, (), broken, rr, nil_seat=seat), (hands, leader, broken, seat)
        other = same_partition(rng, hands, rel)
        assert not ref.nil_makeable(other, leader, (), broken, rr, nil_seat=seat), (other, leader, broken, seat, rel)
    assert fired > least_fired


def spade_nil(rng: random.Random, n: int):
    """An ending of n cards a seat where the Nil seat holds two to four spades of the upper two thirds (the rest of
    its hand and the other hands dealt at random, partner included): the positions where the others' higher spades,
    whoever holds them, are too few for the Nil seat's spades or only just enough."""
    seat = rng.randrange(4)
    mine = rng.sample(range(43, 52), rng.randint(2, min(4, n)))
    mine += rng.sample([c for c in range(52) if c not in mine], n - len(mine))
    return nil_ending(rng, seat, n, mine, [], [c for c in range(52) if c not in mine])


def beyond_top_spades(hands, seat) -> bool:
    """``_nil_lost``'s first case does not see the spades lost: the Nil seat's spades above every spade of the
    defenders are no more than its partner's spades above the lowest of them (its matching case must fire)."""
    sp = [h >> 39 for h in hands]
    opp = sp[(seat + 1) & 3] | sp[(seat + 3) & 3]
    top = sp[seat] & ~((1 << opp.bit_length()) - 1)
    return top == 0 or (sp[seat ^ 2] & ~((top & -top) - 1)).bit_count() >= top.bit_count()


@JIT
@pytest.mark.parametrize("positions, least_fired", [(300, 40), pytest.param(1200, 150, marks=pytest.mark.slow)])
def test_the_nil_lost_test_with_spades_matched_against_the_reference(positions, least_fired):
    """``dd._nil_lost`` matches the Nil seat's spades to the other seats' higher spades (each of its spades that
    loses meets a higher one in its trick, whoever holds it): where it says lost and the Nil seat's spades above
    every spade of the defenders do not outnumber its partner's covers (the first case), the exhaustive reference
    finds the Nil not makeable under each play rule, there and in a position of the same table entry, whoever
    leads. Firing also when the others hold exactly as many spades above c, or counting only the partner's higher
    spades (not the defenders', which a defender may have to play), makes this fail."""
    rng = random.Random(91)
    ws = np.zeros(dd.WS_SIZE, np.int64)
    fired = 0
    for i in range(positions):
        hands, leader, seat = spade_nil(rng, rng.randint(2, 5))
        leader = rng.randrange(4)
        ws[dd.W_H:dd.W_H + 4] = hands
        rel = int(dd._nil_lost(ws, seat))
        if rel < 0 or not beyond_top_spades(hands, seat):
            continue
        fired += 1
        _, breaking, forced = RULE_SETS[i % 3]
        broken = rng.random() < 0.5
        rr = ref.Rules(breaking=breaking, forced_breaks=forced)
        assert not ref.nil_makeable(hands, leader, (), broken, rr, nil_seat=seat), (hands, leader, broken, seat)
        other = same_partition(rng, hands, rel)
        assert not ref.nil_makeable(other, leader, (), broken, rr, nil_seat=seat), (other, leader, broken, seat, rel)
    assert fired > least_fired


@JIT
@pytest.mark.parametrize("cards, positions", [(5, 40), (6, 30), pytest.param(7, 40, marks=pytest.mark.slow)])
def test_the_nil_question_with_spades_matched_against_the_reference(cards, positions):
    """The Nil question on endings of 5 to 7 cards a seat where the Nil seat holds upper spades, against the
    exhaustive reference: both answers occur, and ``_nil_lost``'s matching decides some roots its first case does
    not."""
    _nil_question_against_the_reference(random.Random(92 + cards), spade_nil, cards, positions, beyond_top_spades,
                                        dd._nil_lost)


@JIT
@pytest.mark.parametrize("cards, positions", [(5, 50), (6, 25), pytest.param(6, 150, marks=pytest.mark.slow)])
def test_the_nil_questions_transposition_cut_offs_against_the_reference(cards, positions):
    """The Nil question's enhanced transposition cut-offs (``_nil_etc``: at a trick's last card whose card tried
    first leads to a position that needs a search, a later card whose next trick's start is decided at once for the
    side on move is tried first) only order the moves: the Nil question on random endings of ``cards`` cards a
    seat with 0-3 cards of the trick in progress, every seat asked, the play rules of the standard deck in turn,
    one solver reused, against the exhaustive reference; both answers occur, and the cut-offs moved a card first
    (``W_ETC``) in some of the questions."""
    made, asked, moved = nil_questions_against_the_reference(random.Random(120 + cards), cards, positions,
                                                             dd.Solver(tt_bits=14))
    assert 0 < made < asked
    assert moved > 0


def nil_questions_against_the_reference(rng, cards, positions, solver):
    """The Nil question on random endings of ``cards`` cards a seat with 0-3 cards of the trick in progress, every
    seat asked, the play rules of the standard deck in turn, ``solver`` reused, each answer asserted against the
    exhaustive reference: (Nils made, questions, questions where ``_nil_etc`` moved a card first)."""
    made = moved = asked = 0
    for i in range(positions):
        _, breaking, forced = RULE_SETS[i % 3]
        hands, leader, trick, broken, rr, rules = ending(rng, cards, False, breaking, forced)
        for seat in range(4):
            want = ref.nil_makeable(hands, leader, trick, broken, rr, nil_seat=seat)
            assert dd.nil_makeable(hands, leader, trick, broken, rules, nil_seat=seat, solver=solver) == want, (
                hands, leader, trick, broken, seat)
            made += want
            asked += 1
            moved += solver.ws[dd.W_ETC] > 0
    return made, asked, moved


def test_the_nil_question_probes_its_own_length():
    """The Nil question scans its own probe length (``W_NPROBE``, four times the solver's by default, at most the
    table); trick solves keep the solver's ``probe``, and a workspace made by hand (``W_NPROBE`` 0, as pimc's) the
    same in the Nil question too."""
    assert dd.Solver(tt_bits=16).ws[dd.W_NPROBE] == 256
    assert dd.Solver(tt_bits=16, probe=16, nil_probe=40).ws[dd.W_NPROBE] == 40
    assert dd.Solver(tt_bits=8, probe=128).ws[dd.W_NPROBE] == 256  # the whole table
    hands, leader, trick, broken, _, rules = ending(random.Random(3), 4, played=0)
    solver = dd.Solver(tt_bits=12, probe=16)
    dd.nil_makeable(hands, leader, trick, broken, rules, nil_seat=1, solver=solver)
    assert solver.ws[dd.W_PLEN] == 64
    dd.dd_tricks(hands, leader, trick, broken, rules, solver=solver)
    assert solver.ws[dd.W_PLEN] == 16
    solver.ws[dd.W_NPROBE] = 0
    dd.nil_makeable(hands, leader, trick, broken, rules, nil_seat=1, solver=solver)
    assert solver.ws[dd.W_PLEN] == 16


@JIT
@pytest.mark.parametrize("cards, positions", [(5, 40), pytest.param(6, 120, marks=pytest.mark.slow)])
def test_the_nil_question_with_its_probe_over_the_whole_table_against_the_reference(cards, positions):
    """The Nil question's probe length over a table of 256 slots (the whole table: every probe sequence wraps
    round it, and a store replaces an entry of the table's) gives the exhaustive reference's answers: random endings
    of ``cards`` cards a seat, 0-3 cards of the trick in progress, every seat asked, the standard deck's three play
    rules in turn, one solver reused."""
    solver = dd.Solver(tt_bits=8, probe=64)
    assert solver.ws[dd.W_NPROBE] == 256
    made, asked, _ = nil_questions_against_the_reference(random.Random(160 + cards), cards, positions, solver)
    assert 0 < made < asked


@JIT
@pytest.mark.parametrize("cards, positions", [(5, 12), pytest.param(6, 40, marks=pytest.mark.slow)])
def test_the_dd_columns_nil_table_of_its_own_against_the_reference(cards, positions):
    """``tricksim dd``'s columns ask the Nil questions on a table of their own (``nil_tt_bits``), the trick solves
    keeping theirs: on random endings of ``cards`` cards a seat (a first lead, spades not broken), random Nil bids,
    the standard deck's three play rules in turn, the trick column is the exhaustive reference's tricks and the Nil
    column its Nil answer (-1 without a Nil bid), with a Nil table of 256 slots (its probe over the whole table)
    beside a trick table of 2**12 slots, with the defaults, and with one table for both (``nil_tt_bits`` None)."""
    from tricksim.simulator.games.spades import dd_columns as dc

    rng = random.Random(170 + cards)
    made = asked = 0
    for _, breaking, forced in RULE_SETS[:3]:
        rows = [ending(rng, cards, False, breaking, forced, played=0) for _ in range(positions)]
        rr, rules = rows[0][4], rows[0][5]
        held = np.array([r[0] for r in rows], np.int64)
        leaders = np.array([r[1] for r in rows], np.int64)
        nil_bid = np.array([[rng.random() < 0.7 for _ in range(4)] for _ in rows], np.int64)
        nil_bid[0] = 1  # every seat of one position asked
        want_tricks = [ref.tricks(h, leader, (), False, rr) for h, leader, *_ in rows]
        want_nil = [[int(ref.nil_makeable(h, leader, (), False, rr, nil_seat=s)) if bid[s] else -1 for s in range(4)]
                    for (h, leader, *_), bid in zip(rows, nil_bid)]
        for bits in ({"tt_bits": 12, "nil_tt_bits": 8}, {}, {"tt_bits": 12, "nil_tt_bits": None}):
            tricks, nil = dc.dd_columns(held, leaders, nil_bid, rules, **bits)
            assert tricks.tolist() == want_tricks, bits
            assert nil.tolist() == want_nil, bits
        made += sum(v == 1 for r in want_nil for v in r)
        asked += sum(v >= 0 for r in want_nil for v in r)
    assert 0 < made < asked
    trick, nil = dc._solvers(rules, 12, 8)  # a thread's two solvers, the play rules set on both
    assert trick is not nil and trick.tt.size == dd.TT_WORDS << 12 and nil.tt.size == dd.TT_WORDS << 8
    assert nil.ws[dd.W_BREAKING] == trick.ws[dd.W_BREAKING] == int(rules.to_kernel().breaking)
    assert nil.ws[dd.W_FORCED] == trick.ws[dd.W_FORCED] == int(rules.forced_spade_lead_breaks)
    one = dc._solvers(rules, 12, None)
    assert one[0] is one[1]


def test_a_nil_that_already_failed_is_not_makeable():
    hands = [1 << 0, 1 << 1, 1 << 2, 1 << 3]
    assert not dd.nil_makeable(hands, 0, nil_seat=3, taken=1)
    assert dd.nil_makeable(hands, 0, nil_seat=0)  # the 2C loses to the 5C


# ------------------------------------------------------------------ input checks and determinism
@pytest.mark.parametrize("args, message", [
    (([1, 2, 4], 0), "4 masks"),
    (([1, 2, 4, 8], 4), "leader"),
    (([1, 1, 4, 8], 0), "held twice"),
    (([1, 2, 4, 8 | 16], 0), "holds 2 cards"),
    (([1, 2, 4, 8], 0, [1]), "also in a hand"),
    (([1 << 52, 2, 4, 8], 0), "outside the deck"),
    (([1 << 6, 1 << 5, (1 << 2) | (1 << 3), (1 << 7) | (1 << 8)], 0, [1, 14]), "did not follow suit"),
])
def test_bad_positions_are_refused(args, message):
    with pytest.raises(ValueError, match=message):
        dd.dd_tricks(*args)


def test_the_two_of_clubs_must_be_held_and_led():
    rules = SpadesRules(first_lead="two_of_clubs")
    with pytest.raises(ValueError, match="must hold the 2C"):
        dd.dd_tricks([1 << 1, 1 << 0, 1 << 2, 1 << 3], 0, (), False, rules, trick_no=0)
    with pytest.raises(ValueError, match="must open it"):
        dd.dd_tricks([0, 1 << 0, 1 << 2, 1 << 3], 0, [4], False, rules, trick_no=0)


def test_bad_score_state_is_refused():
    hands = [1 << 0, 1 << 1, 1 << 2, 1 << 3]
    with pytest.raises(ValueError, match="blind"):
        dd.dd_score(hands, 0, score=dd.ScoreState(bids=(1, 1, 1, 1), blind=(1, 0, 0, 0)))
    with pytest.raises(ValueError, match="exceed 13"):
        dd.dd_score(hands, 0, score=dd.ScoreState(bids=(1, 1, 1, 1), taken=(13, 0, 0, 0)))


def test_a_stamp_wrap_clears_the_table():
    solver = dd.Solver(tt_bits=10)
    hands, leader, trick, broken, rr, rules = ending(random.Random(7), 3)
    want = ref.tricks(hands, leader, trick, broken, rr)
    assert dd.dd_tricks(hands, leader, trick, broken, rules, solver=solver) == want
    solver.ws[dd.W_STAMP] = dd.STAMP_LIMIT - 1
    solver.reset()
    assert solver.ws[dd.W_STAMP] == 1 and not solver.tt.any()
    assert dd.dd_tricks(hands, leader, trick, broken, rules, solver=solver) == want


CACHE_CODE = """
import json
from tricksim.simulator.games.spades import dd
h = [1 << 12 | 1 << 0, 1 << 11 | 1 << 1, 1 << 10 | 1 << 2, 1 << 9 | 1 << 3]
dd.dd_tricks(h, 0)
dd.card_values(h, 0)
dd.card_values(h, 0, score=dd.ScoreState(bids=(1, 1, 0, 1)))
dd.dd_score(h, 0, score=dd.ScoreState(bids=(1, 1, 2, 1)))
dd.nil_makeable(h, 0, nil_seat=2)
fns = [dd.set_rules_nb, dd.tricks_nb, dd.card_values_nb, dd.score_setup_nb, dd.nil_setup_nb, dd.table_value_nb,
       dd.table_card_values_nb, dd.score_card_values_nb, dd.new_generation_nb]
print(json.dumps({"misses": sum(sum(f.stats.cache_misses.values()) for f in fns),
                  "hits": sum(sum(f.stats.cache_hits.values()) for f in fns)}))
"""


@pytest.mark.needs_jit("reads the compile cache's statistics of compiled functions")
def test_a_new_process_compiles_nothing():
    """The search is an explicit stack, not a recursive function: Numba caches it (a cached recursive
    function crashed the process when loaded)."""
    subprocess.run([sys.executable, "-c", CACHE_CODE], capture_output=True, text=True, check=True)
    again = subprocess.run([sys.executable, "-c", CACHE_CODE], capture_output=True, text=True, check=True)
    stats = json.loads(again.stdout)
    assert stats["misses"] == 0 and stats["hits"] >= 6, stats


@JIT
def test_solves_are_deterministic():
    """The same calls give the same values and the same node counts, in a fresh or a reused solver."""
    def run(solver):
        out = []
        for hands, leader, trick, broken, rr, rules in cases(41, 30, 5):
            v = dd.dd_tricks(hands, leader, trick, broken, rules, solver=solver)
            out.append((v, solver.nodes))
        return out

    assert run(dd.Solver()) == run(dd.Solver())


# ------------------------------------------------------------------ against DDS (endplay)
RANKS = "23456789TJQKA"


def pbn(hands) -> str:
    """endplay's deal text. Seats: tricksim seat s is endplay's Player(s) (N, E, S, W): both number the
    seats in playing order, and team 0 (seats 0, 2) is North-South. Suits: tricksim 0..3 = clubs,
    diamonds, hearts, spades; a PBN hand lists spades, hearts, diamonds, clubs."""
    return "N:" + " ".join(".".join("".join(RANKS[r] for r in range(12, -1, -1) if (h >> (13 * s + r)) & 1)
                                    for s in (3, 2, 1, 0)) for h in hands)


def endplay_card(c: int):
    return Card("CDHS"[c // 13] + RANKS[c % 13])


def tricksim_card(card) -> int:
    return 13 * (3 - int(card.suit)) + card.rank.value.bit_length() - 3  # endplay: spades = 0; 2 = 1 << 2


def random_deal(rng) -> list[int]:
    cards = list(range(52))
    rng.shuffle(cards)
    return [sum(1 << c for c in cards[13 * s:13 * s + 13]) for s in range(4)]


def check_dds_tables(seed: int, count: int):
    rules = SpadesRules(breaking=False)
    solver = dd.Solver()
    rng = random.Random(seed)
    for _ in range(count):
        hands = random_deal(rng)
        table = calc_dd_table(Deal(pbn(hands)))
        for leader in range(4):
            # DDS's declarer sits on the opening leader's right; its figure is the declarer's side's tricks
            declarer = (leader + 3) % 4
            v = table[Denom.spades, Player(declarer)]
            want = v if declarer % 2 == 0 else 13 - v
            assert dd.dd_tricks(hands, leader, (), False, rules, solver=solver) == want, (pbn(hands), leader)


@needs_endplay
@FULL_DEALS
def test_full_deals_against_dds():
    check_dds_tables(seed=51, count=3)


@needs_endplay
@pytest.mark.slow
def test_full_deals_against_dds_many():
    check_dds_tables(seed=52, count=100)


def check_dds_card_values(seed: int, count: int, n: int):
    """Endings of n cards a seat with 0-3 cards in the trick: every card's value against DDS's SolveBoard
    (tricks of the side on move, the current trick included)."""
    rules = SpadesRules(breaking=False)
    rr = ref.Rules(breaking=False)
    solver = dd.Solver()
    rng = random.Random(seed)
    for _ in range(count):
        hands, leader, _, broken, _, _ = ending(rng, n, breaking=False, played=0)
        deal = Deal(pbn(hands))
        deal.first = Player(leader)
        deal.trump = Denom.spades
        k = rng.randrange(4)
        hs, tr = tuple(hands), ()
        for j in range(k):
            c = rng.choice(ref.legal(hs[(leader + j) % 4], tr, broken, rr, False))
            hs, tr, broken, _ = ref.play(hs, leader, tr, broken, rr, c)
            deal.play(endplay_card(c))
        want = {tricksim_card(card): score for card, score in solve_board(deal)}
        got = values_of(dd.card_values(list(hs), leader, list(tr), broken, rules, solver=solver))
        assert got == want, (pbn(hands), leader, tr)


@needs_endplay
@pytest.mark.needs_jit("DDS positions of 8 cards a seat: seconds compiled, many minutes as pure Python")
def test_card_values_against_dds():
    check_dds_card_values(seed=61, count=15, n=8)


@needs_endplay
@pytest.mark.slow
def test_card_values_against_dds_many():
    check_dds_card_values(seed=62, count=100, n=10)
    check_dds_card_values(seed=63, count=20, n=13)


# ------------------------------------------------------------------ the docs and the benchmark script
def test_the_docs_example_runs(capsys):
    text = (ROOT / "docs" / "double-dummy.md").read_text()
    code = re.search(r"## API\n\n```python\n(.*?)```", text, re.DOTALL).group(1)
    exec(compile(code, "docs/double-dummy.md", "exec"), {})  # noqa: S102 (the docs page's own example, run as written)
    tricks, values, score, nil = capsys.readouterr().out.splitlines()
    assert 0 <= int(tricks) <= 4 and values == "{24: " + str(4 - int(tricks)) + "}"
    assert int(score) % 1 == 0 and nil in ("True", "False")



@needs_endplay
@pytest.mark.needs_jit("the benchmark times the compiled solver against DDS; as pure Python its figures mean "
                       "nothing and it takes hours")
def test_benchmark_script_runs():
    done = subprocess.run([sys.executable, "scripts/benchmark_dd.py", "--deals", "2", "--threads", "2"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "ratio" in done.stdout and "python scripts/benchmark_dd.py" in done.stdout


def test_benchmark_nil_lists_the_questions_of_the_largest_ratio():
    """``benchmark_nil.py --top``: the questions ordered by their nodes over the trick solve's of their position (the
    position's index in the list asked, the seat, the answer), the other copy's nodes beside them."""
    spec = importlib.util.spec_from_file_location("benchmark_nil", ROOT / "scripts" / "benchmark_nil.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    todo = [(None, 0, False, [1, 3]), (None, 2, False, [0])]  # position 0 asks seats 1 and 3, position 1 seat 0
    answers = [[1, 0], [1]]
    nil_nodes = [500, 90, 2_000]  # per question, in the order asked
    trick_nodes = [100, 1_000]  # per position
    out = bench.top_questions(2, todo, answers, nil_nodes, trick_nodes, [400, 90, 3_000]).splitlines()
    assert out[1:] == ["  position 0 seat 1, made: 500 / 100 = 5.0; 400 = 4.0",   # 5.0 > 2.0 > 0.9
                       "  position 1 seat 0, made: 2,000 / 1,000 = 2.0; 3,000 = 3.0"]
    assert "the 2 questions" in out[0]
    out = bench.top_questions(5, todo, answers, nil_nodes, trick_nodes).splitlines()
    assert out[-1] == "  position 0 seat 3, failed: 90 / 100 = 0.9" and len(out) == 4


@pytest.mark.slow
@pytest.mark.needs_jit("the benchmark compiles a second copy of the solver and times both")
def test_benchmark_nil_against_catches_a_changed_answer(tmp_path):
    """``benchmark_nil.py --against`` asks a second copy of dd.py every Nil question: a copy whose answers are
    flipped must be caught (exit 1, every answer counted as different) and both summaries printed."""
    src = (ROOT / "simulator/games/spades/dd.py").read_text()
    flipped = tmp_path / "dd_flipped.py"
    flipped.write_text(src + "\n\n_nil_makeable = nil_makeable\n\n\ndef nil_makeable(*args, **kw):\n"
                       "    return not _nil_makeable(*args, **kw)\n")
    done = subprocess.run([sys.executable, "scripts/benchmark_nil.py", "--deals", "1", "--endings", "2",
                           "--against", str(flipped), "--top", "3"], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 1, done.stderr
    assert f"answers that differ from {flipped}: 24 of 24" in done.stdout  # 4 leaders + 2 endings, 4 seats each
    assert "this dd.py: ratio to the trick solve by nodes" in done.stdout
    assert f"{flipped}: ratio to the trick solve by nodes" in done.stdout
    assert "the 3 questions of the largest ratio by nodes" in done.stdout
    assert len(re.findall(r"^  position \d seat \d, (made|failed): .* = .*; .* = ", done.stdout, re.M)) == 3
