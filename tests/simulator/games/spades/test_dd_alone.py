"""The double-dummy searches without partnerships (issue #28) against exhaustive minimax.

``dd_alone.py`` at 2, 3 and 4 seats, and the team solver (``dd.py``) with a seat against the other three as its
sides (``dd.alone_tricks`` / ``alone_nil``, what ``tricksim dd`` uses at four seats): endings cut from random
deals, each seat keeping a few cards of its hand, a random leader, spades broken or not, the jokers deck or
not, forced spade leads breaking or not, the 2♣ opening the first trick or not. For every seat, its tricks
playing for tricks against the others together, and whether it could keep a Nil against them, must be those
of ``reference_dd.alone_tricks`` / ``alone_nil`` (plain Python, every legal card tried, no pruning).
"""
from __future__ import annotations

import random

import pytest
import reference_dd as ref

from tricksim.simulator.games.spades import dd
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


# every combination of the rules play depends on: (jokers, breaking, forced_spade_lead_breaks)
LEAD_RULES = [(j, b, f) for j in (False, True) for b in (False, True) for f in (False, True)]


# the reference takes about ten seconds a seat (its two questions) at six cards a seat: those in the slow suite
SIX = pytest.mark.needs_jit("six-card endings at four seats: both searches take minutes as pure Python")

# the seed of a table size's endings (a size's endings are drawn from seed + size)
SEEDS = {4: 2800, 3: 3300}


def _check_each_seat_alone(n: int, size: int, count: int, played: int = 0) -> None:
    """``count`` endings of ``size`` cards a seat at a table of ``n``, every combination of the lead rules in turn,
    now and then the hand's first trick under first_lead=two_of_clubs (the 2♣'s holder leads it), ``played``
    random legal cards already in the trick; for each seat, ``dd.alone_tricks`` / ``alone_nil`` against the
    exhaustive reference, one solver for every question. At four seats ``dd_alone.py`` (trick starts only) must
    agree too; at three, a four-seat question now and then on the same solver (the table's entries of one table
    size are not reused at the other)."""
    rng = random.Random(SEEDS[n] + size + 100 * played)
    solver = dd.Solver(tt_bits=12)  # one solver for every question: the sides are set per question
    checked = nils = firsts = 0
    values = set()
    for i in range(count):
        jokers, breaking, forced = LEAD_RULES[i % len(LEAD_RULES)]
        hands = _ending(rng, n, size, jokers)
        leader, broken = rng.randrange(n), rng.random() < 0.5
        first = False
        if not jokers and rng.random() < 0.3:  # the first trick (a jokers deck may have no 2♣)
            if not any(h & 1 for h in hands):  # the 2♣ for the leader's lowest card
                hands[leader] = (hands[leader] & (hands[leader] - 1)) | 1
            leader = next(s for s in range(n) if hands[s] & 1)
            broken, first = False, True
            firsts += 1
        rules = SpadesRules(jokers=jokers, breaking=breaking, forced_spade_lead_breaks=forced,
                            first_lead="two_of_clubs" if first else "left_of_dealer")
        reference = ref.Rules(breaking=breaking, forced_breaks=forced, two_of_clubs=first, first_trick=first)
        trick = ()
        for _ in range(played):
            mover = (leader + len(trick)) % n
            c = rng.choice(ref.legal(hands[mover], trick, broken, reference, first))
            hands, trick, broken, _ = ref.play(hands, leader, trick, broken, reference, c, n)
        other = AloneSolver(rules, tt_bits=10) if n == 4 and not trick else None
        trick_no = 0 if first else None
        where = (hands, leader, trick, broken, rules)
        for seat in range(n):
            want = ref.alone_tricks(hands, leader, seat, broken, reference, trick=trick)
            got = dd.alone_tricks(hands, leader, seat, trick, broken, rules, trick_no=trick_no, solver=solver)
            assert got == want, (seat, *where)
            nil = ref.alone_nil(hands, leader, seat, broken, reference, trick=trick)
            assert dd.alone_nil(hands, leader, seat, trick, broken, rules, trick_no=trick_no, solver=solver) == nil, \
                (seat, *where)
            if other is not None:
                assert other.tricks(hands, leader, seat, broken=broken, first=first) == want
                assert other.nil(hands, leader, seat, broken=broken, first=first) == nil
            checked += 1
            nils += nil
            values.add(want)
        if n == 3 and i % 4 == 0:  # a four-seat question on the same solver: it must not lend its entries to three seats
            four = _ending(rng, 4, size, jokers)
            assert dd.alone_tricks(four, 0, 1, rules=rules, solver=solver) == dd.alone_tricks(four, 0, 1, rules=rules)
    assert checked == n * count
    if count >= 16:  # both answers of the Nil question, several trick counts and some first tricks occur
        assert 0 < nils < checked and len(values) >= 3 and firsts > 0


@pytest.mark.parametrize("size, count", [(2, 32), (3, 32), (4, 16), (5, 3),
                                         pytest.param(5, 24, marks=pytest.mark.slow),
                                         pytest.param(6, 12, marks=[pytest.mark.slow, SIX])])
def test_the_team_solver_with_a_seat_alone_matches_exhaustive_search(size, count):
    """Four seats, each alone: ``dd.alone_tricks`` / ``alone_nil`` against the exhaustive reference and against
    ``dd_alone.py`` on the same endings."""
    _check_each_seat_alone(4, size, count)


@pytest.mark.parametrize("size, count", [(2, 32), (3, 32), (4, 16), (5, 8), (6, 16)])
def test_the_team_solver_at_three_seats_matches_exhaustive_search(size, count):
    """Three seats, each alone (cutthroat3: tricks of three cards): ``dd.alone_tricks`` / ``alone_nil`` with three
    hands against the exhaustive reference, the four-seat questions between them."""
    _check_each_seat_alone(3, size, count)


@pytest.mark.parametrize("n, played, size, count", [
    (3, 1, 2, 32), (3, 2, 2, 32), (3, 1, 3, 32), (3, 2, 3, 32), (3, 1, 5, 16), (3, 2, 5, 16),
    (4, 1, 3, 32), (4, 2, 3, 32), (4, 3, 3, 32), (4, 1, 4, 16), (4, 2, 4, 16), (4, 3, 4, 16),
    *(pytest.param(n, played, size, 16, marks=pytest.mark.slow)
      for n, played, size in [(3, 1, 6), (3, 2, 6), (4, 1, 5), (4, 2, 5), (4, 3, 5)])])
def test_each_seat_alone_inside_a_trick_matches_exhaustive_search(n, played, size, count):
    """The same questions with 1 to n - 1 cards of the trick already played (the ``trick`` argument), three and four
    seats: the trick in progress counts, whoever has played to it."""
    _check_each_seat_alone(n, size, count, played)


def test_three_hands_only_for_a_seat_alone():
    """Three hands are a table of three for the questions of a seat alone; the team questions need four, and a
    seat or a leader outside the table is named."""
    hands = [0b111, 0b111000, 0b111000000]
    assert dd.alone_tricks(hands, 0, 2) == 3  # seat 2 holds the three highest clubs: each wins its trick
    with pytest.raises(ValueError, match="need 4 masks, got 3"):
        dd.dd_tricks(hands, 0)
    with pytest.raises(ValueError, match=r"seat 3: use a seat 0\.\.2"):
        dd.alone_tricks(hands, 0, 3)
    with pytest.raises(ValueError, match=r"leader 3: use a seat 0\.\.2"):
        dd.alone_nil(hands, 3, 0)
    with pytest.raises(ValueError, match="at most 2 cards already played"):
        dd.alone_tricks([0b11, 0b1100, 0b110000], 0, 0, trick=(6, 7, 8))


def test_a_seat_alone_leaves_the_solver_to_teams():
    """After a question of a seat alone, the same solver answers the team questions as a new one (the sides go
    back to teams, and the table's entries of the other sides are not reused)."""
    rng = random.Random(7)
    rules = SpadesRules()
    shared = dd.Solver(tt_bits=12)
    for _ in range(6):
        hands = _ending(rng, 4, 5, False)
        leader = rng.randrange(4)
        dd.alone_tricks(hands, leader, rng.randrange(4), rules=rules, solver=shared)
        dd.alone_nil(hands, leader, rng.randrange(4), rules=rules, solver=shared)
        assert dd.dd_tricks(hands, leader, rules=rules, solver=shared) == dd.dd_tricks(hands, leader, rules=rules)
        for s in range(4):
            assert dd.nil_makeable(hands, leader, rules=rules, nil_seat=s, solver=shared) == \
                dd.nil_makeable(hands, leader, rules=rules, nil_seat=s)


def test_a_seat_alone_is_not_a_team():
    """One deal where the sides matter (worked by hand). Seat 0 holds A♠ K♠ 2♥ 3♥, seat 1 four high hearts,
    seat 2 Q♠ J♠ 2♣ 3♣, seat 3 four diamonds; seat 0 leads, spades may be led. Partners, seats 0 and 2 take all
    four tricks: each heart seat 0 leads is ruffed by seat 2, each club seat 2 leads by seat 0 (seats 1 and 3
    hold no spade). Alone, seat 0 takes 2: its A♠ and K♠ win whenever played (no higher spade elsewhere) and
    its hearts lose to seat 1's; its Nil is lost (the A♠ wins a trick)."""
    c = lambda suit, rank: 1 << (suit * 13 + rank)
    hands = [c(3, 12) | c(3, 11) | c(2, 0) | c(2, 1),      # A♠ K♠ 2♥ 3♥
             c(2, 12) | c(2, 11) | c(2, 10) | c(2, 9),     # A♥ K♥ Q♥ J♥
             c(3, 10) | c(3, 9) | c(0, 0) | c(0, 1),       # Q♠ J♠ 2♣ 3♣
             c(1, 0) | c(1, 1) | c(1, 2) | c(1, 3)]        # 2♦ 3♦ 4♦ 5♦
    rules = SpadesRules(breaking=False)
    assert dd.dd_tricks(hands, 0, rules=rules) == 4
    assert dd.alone_tricks(hands, 0, 0, rules=rules) == 2
    assert not dd.alone_nil(hands, 0, 0, rules=rules)
    reference = ref.Rules(breaking=False)
    for seat in range(4):
        assert dd.alone_tricks(hands, 0, seat, rules=rules) == ref.alone_tricks(hands, 0, seat, False, reference)


def _spade_bound(hands, seat):
    """``dd._alone_spade_tricks`` on a workspace holding ``hands``: (sure tricks of seat's spades, card)."""
    ws = dd.Solver(tt_bits=8).ws
    for s, h in enumerate(hands):
        ws[dd.W_H + s] = h
    n, rel = dd._alone_spade_tricks(ws, seat)
    return int(n), int(rel)


def test_the_spades_of_a_seat_alone_win_what_the_others_cannot_cover():
    """The sure tricks of a seat's spades against three (``_alone_spade_tricks``), worked by hand. Seat 0 holds
    K♠ Q♠, seat 1 A♠ 2♥, seats 2 and 3 hearts: the ace can beat one of the two, never both (one card, one
    trick), so seat 0 takes 1 trick whoever leads, although neither spade is above every other. Against A♠ K♠
    in one hand, Q♠ J♠ are each beaten (seats 2 and 3 holding hearts): 0 sure, and 0 taken whoever leads (a
    heart led is ruffed and overruffed). Q♠ J♠ against A♠ and K♠ in two hands: 0 sure again, but 1 taken
    (the bound is not all: a spade or heart lead makes seats 1 and 2 follow with their spades or lets seat 0
    ruff; whoever leads, one of the two spades wins)."""
    c = lambda suit, rank: 1 << (suit * 13 + rank)
    applies = [c(3, 11) | c(3, 10), c(3, 12) | c(2, 0), c(2, 1) | c(2, 2), c(2, 3) | c(2, 4)]
    assert _spade_bound(applies, 0) == (1, c(3, 10))
    assert _spade_bound(applies, 1) == (1, c(3, 12))  # the ace alone: above every other spade
    reference = ref.Rules(breaking=False)
    rules = SpadesRules(breaking=False)
    for leader in range(4):
        assert ref.alone_tricks(applies, leader, 0, False, reference) == 1
        assert dd.alone_tricks(applies, leader, 0, rules=rules) == 1
    covered = [c(3, 10) | c(3, 9), c(3, 12) | c(3, 11), c(2, 0) | c(2, 1), c(2, 2) | c(2, 3)]
    assert _spade_bound(covered, 0) == (0, c(3, 9))
    split = [c(3, 10) | c(3, 9), c(3, 12) | c(2, 0), c(3, 11) | c(2, 1), c(2, 2) | c(2, 3)]
    assert _spade_bound(split, 0) == (0, c(3, 9))
    for leader in range(4):
        assert ref.alone_tricks(covered, leader, 0, False, reference) == 0
        assert dd.alone_tricks(covered, leader, 0, rules=rules) == 0
        assert ref.alone_tricks(split, leader, 0, False, reference) == 1
        assert dd.alone_tricks(split, leader, 0, rules=rules) == 1
    # long spades: Q♠ 9♠ 5♠ 4♠ against A♠ 3♠ / T♠ 2♠ / 8♠ (and hearts): the ace, ten and eight can beat three
    # of them (the 3♠ and 2♠ none), so 1 is sure although the ace is above all four
    long_ = [c(3, 10) | c(3, 7) | c(3, 3) | c(3, 2), c(3, 12) | c(3, 1) | c(2, 0) | c(2, 1),
             c(3, 8) | c(3, 0) | c(2, 2) | c(2, 3), c(3, 6) | c(2, 4) | c(2, 5) | c(2, 6)]
    assert _spade_bound(long_, 0) == (1, c(3, 2))


@pytest.mark.parametrize("size, count", [(3, 48), (4, 16)])
def test_a_seat_alone_with_many_spades_matches_exhaustive_search(size, count):
    """Endings where most cards are spades (so that the sure tricks of a seat's spades count often, and often
    more than its top spades): every seat alone, ``dd.alone_tricks`` against the exhaustive reference."""
    rng = random.Random(2900 + size)
    solver = dd.Solver(tt_bits=12)
    fired = 0
    for i in range(count):
        jokers, breaking, forced = LEAD_RULES[i % len(LEAD_RULES)]
        spades = list(range(39, 54 if jokers else 52))
        rest = rng.sample(range(39), 4 * size - min(len(spades), 3 * size))
        deck = rng.sample(spades, min(len(spades), 3 * size)) + rest
        rng.shuffle(deck)
        hands = [sum(1 << x for x in deck[s * size:(s + 1) * size]) for s in range(4)]
        leader, broken = rng.randrange(4), rng.random() < 0.5
        rules = SpadesRules(jokers=jokers, breaking=breaking, forced_spade_lead_breaks=forced)
        reference = ref.Rules(breaking=breaking, forced_breaks=forced)
        for seat in range(4):
            sure, _ = _spade_bound(hands, seat)
            others = (hands[(seat + 1) % 4] | hands[(seat + 2) % 4] | hands[(seat + 3) % 4]) >> 39
            top = sum(1 for x in range(15) if (hands[seat] >> 39 >> x) & 1 and others >> x == 0)
            fired += sure > top
            want = ref.alone_tricks(hands, leader, seat, broken, reference)
            assert sure <= want
            assert dd.alone_tricks(hands, leader, seat, broken=broken, rules=rules, solver=solver) == want, \
                (hands, leader, seat, broken, rules)
    assert fired > 0  # the bound says more than the top spades in some of these questions
