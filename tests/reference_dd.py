"""Exhaustive minimax for Spades endings: the reference the double-dummy solver is checked against.

Plain Python, no tricksim import: its own card model, legality and scoring, written from the rules
(/work/shared/RULES.md Part 1, docs/rules.md), so that a misreading shared with the solver cannot
hide. Every legal card is tried at every node (no equivalent cards, no pruning, no bounds); results
are memoised by position. Slow: meant for endings of a few tricks.

Cards: ``c = suit * 13 + rank`` (suits clubs, diamonds, hearts, spades; rank 0 = '2' ... 12 = 'A');
52 = little joker and 53 = big joker, spades above the ace. The deuce decks (``Rules.deck``, issue #28's
Joker-Joker-Deuce-Ace and Joker-Joker-Deuce-Deuce) keep these ids and promote 2s: the 2♠ ranks between the A♠
and the little joker, and in ``joker_deuce_deuce`` the 2♦ is a spade between the A♠ and the 2♠. A hand is a set
of card ids (an int mask). Seats 0..3 play clockwise (seat + 1 after seat); team 0 = seats 0 and 2.
"""
from __future__ import annotations

from dataclasses import dataclass

SPADE = 3


TWO_OF_DIAMONDS, TWO_OF_SPADES = 13, 39
DEUCE_DECKS = ("joker_deuce_ace", "joker_deuce_deuce")


def suit(c: int, deck: str = "standard") -> int:
    if c >= 52 or (deck == "joker_deuce_deuce" and c == TWO_OF_DIAMONDS):
        return SPADE
    return c // 13


def rank(c: int, deck: str = "standard") -> int:
    """Order inside a suit: '2' = 0 ... 'A' = 12; above the ace, a deuce deck's promoted 2s (the 2♦ 13, the 2♠
    14), then the little and the big joker (15, 16)."""
    if c >= 52:
        return c - 37
    if deck in DEUCE_DECKS and c == TWO_OF_SPADES:
        return 14
    if deck == "joker_deuce_deuce" and c == TWO_OF_DIAMONDS:
        return 13
    return c % 13


def cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def trick_winner(played: list[tuple[int, int]], deck: str = "standard") -> int:
    """The seat winning a trick of (seat, card) in playing order: the highest spade, else the highest
    card of the suit led."""
    led = suit(played[0][1], deck)
    spades = [(rank(c, deck), s) for s, c in played if suit(c, deck) == SPADE]
    if spades:
        return max(spades)[1]
    return max((rank(c, deck), s) for s, c in played if suit(c, deck) == led)[1]


@dataclass(frozen=True)
class Rules:
    """The rules an ending depends on. ``first_trick``: the position's trick is the hand's first, so
    under ``two_of_clubs`` the 2♣ must open it. Scoring flags as in RULES.md 1.4."""

    breaking: bool = True
    forced_breaks: bool = False
    two_of_clubs: bool = False
    first_trick: bool = False
    nil_value: int = 100
    blind_nil_value: int = 200
    nil_tricks: str = "bags"          # or "contract"
    nil_bags_when_set: bool = True
    nil_trick_points: int = 1
    bag_points: int = 1
    bag_limit: int = 10
    bag_penalty: int = 100
    bag_overflow: str = "carry"       # or "reset"
    deck: str = "standard"            # or joker_ace (as standard: the jokers are spades above the ace), or a deuce deck


def legal(hand: int, trick: tuple, broken: bool, rules: Rules, first: bool) -> list[int]:
    """The cards a seat may play: to lead, the 2♣ if it must open the hand; no spade before spades are
    broken unless the hand is all spades (when ``breaking``); else follow suit when possible."""
    mine = cards(hand)
    if not trick:
        if first and rules.two_of_clubs:
            return [0]
        if rules.breaking and not broken:
            other = [c for c in mine if suit(c, rules.deck) != SPADE]
            if other:
                return other
        return mine
    led = suit(trick[0], rules.deck)
    same = [c for c in mine if suit(c, rules.deck) == led]
    return same or mine


def play(hands: tuple, leader: int, trick: tuple, broken: bool, rules: Rules, c: int, n: int = 4):
    """Seat on move plays ``c`` at a table of ``n`` (seat + 1 mod n plays next; a trick is n cards): (hands,
    trick, broken, winner or -1 when the trick is not complete)."""
    seat = (leader + len(trick)) % n
    hs = list(hands)
    hs[seat] &= ~(1 << c)
    d = rules.deck
    if not trick:
        if suit(c, d) == SPADE and not broken and rules.forced_breaks and not any(suit(x, d) != SPADE
                                                                                   for x in cards(hs[seat])):
            broken = True  # a spade led by a player who held only spades
    elif suit(c, d) != suit(trick[0], d) and suit(c, d) == SPADE:
        broken = True  # trumped: spades broken
    trick = trick + (c,)
    if len(trick) == n:
        return tuple(hs), (), broken, trick_winner([((leader + j) % n, x) for j, x in enumerate(trick)], d)
    return tuple(hs), trick, broken, -1


# ------------------------------------------------------------------ trick objective
def _trick_solver(rules: Rules):
    memo = {}

    def value(hands, leader, trick, broken, first) -> int:
        key = (hands, leader, trick, broken, first)
        if key in memo:
            return memo[key]
        seat = (leader + len(trick)) % 4
        if not trick and hands[seat] == 0:
            return 0
        values = []
        for c in legal(hands[seat], trick, broken, rules, first):
            hs, tr, br, w = play(hands, leader, trick, broken, rules, c)
            if w >= 0:
                values.append((w % 2 == 0) + value(hs, w, (), br, False))
            else:
                values.append(value(hs, leader, tr, br, first))
        memo[key] = v = max(values) if seat % 2 == 0 else min(values)
        return v

    return value


def tricks(hands, leader, trick=(), broken=False, rules=Rules()) -> int:
    """Team 0's tricks from this position (the trick in progress included), each team maximising its own."""
    return _trick_solver(rules)(tuple(hands), leader, tuple(trick), bool(broken), rules.first_trick)


def card_values(hands, leader, trick=(), broken=False, rules=Rules()) -> dict[int, int]:
    """For each legal card of the seat on move: the tricks its team takes from now after playing it."""
    hands, trick = tuple(hands), tuple(trick)
    seat = (leader + len(trick)) % 4
    left = hands[seat].bit_count()
    value = _trick_solver(rules)
    out = {}
    for c in legal(hands[seat], trick, broken, rules, rules.first_trick):
        hs, tr, br, w = play(hands, leader, trick, broken, rules, c)
        if w >= 0:
            v0 = (w % 2 == 0) + value(hs, w, (), br, False)
        else:
            v0 = value(hs, leader, tr, br, rules.first_trick)
        out[c] = v0 if seat % 2 == 0 else left - v0
    return out


# ------------------------------------------------------------------ scoring (RULES.md 1.4)
def team_points(rules: Rules, bid_a, bid_b, blind_a, blind_b, tricks_a, tricks_b, bags_before) -> int:
    """One team's points for the hand: contract made (10 x contract + bag points per overtrick) or set
    (-10 x contract); each Nil +/- its value; a Nil bidder's tricks as bags; then the bag penalty."""
    contract = bid_a + bid_b  # a Nil bid is 0
    nil_a, nil_b = bid_a == 0, bid_b == 0
    if rules.nil_tricks == "contract":
        toward, nil_tricks = tricks_a + tricks_b, 0
    else:
        toward = (0 if nil_a else tricks_a) + (0 if nil_b else tricks_b)
        nil_tricks = (tricks_a if nil_a else 0) + (tricks_b if nil_b else 0)
    made = toward >= contract
    if made:
        points, bags = 10 * contract + rules.bag_points * (toward - contract), toward - contract
    else:
        points, bags = -10 * contract, 0
    if made or rules.nil_bags_when_set:
        points += rules.nil_trick_points * nil_tricks
        bags += nil_tricks
    for is_nil, blind, t in ((nil_a, blind_a, tricks_a), (nil_b, blind_b, tricks_b)):
        if is_nil:
            value = rules.blind_nil_value if blind else rules.nil_value
            points += value if t == 0 else -value
    running = bags_before + bags
    if rules.bag_overflow == "reset":
        if running >= rules.bag_limit:
            points -= rules.bag_penalty
    else:
        while running >= rules.bag_limit:
            points -= rules.bag_penalty
            running -= rules.bag_limit
    return points


def score_difference(rules: Rules, bids, blind, final_tricks, bags) -> int:
    """Team 0's hand points minus team 1's for final tricks per seat."""
    p = [team_points(rules, bids[t], bids[t + 2], blind[t], blind[t + 2], final_tricks[t], final_tricks[t + 2], bags[t])
         for t in (0, 1)]
    return p[0] - p[1]


# ------------------------------------------------------------------ score objective
def _score_solver(rules: Rules, bids, blind, bags):
    memo = {}

    def value(hands, leader, trick, broken, taken, first) -> int:
        key = (hands, leader, trick, broken, taken, first)
        if key in memo:
            return memo[key]
        seat = (leader + len(trick)) % 4
        if not trick and hands[seat] == 0:
            return score_difference(rules, bids, blind, taken, bags)
        values = []
        for c in legal(hands[seat], trick, broken, rules, first):
            hs, tr, br, w = play(hands, leader, trick, broken, rules, c)
            if w >= 0:
                tk = list(taken)
                tk[w] += 1
                values.append(value(hs, w, (), br, tuple(tk), False))
            else:
                values.append(value(hs, leader, tr, br, taken, first))
        memo[key] = v = max(values) if seat % 2 == 0 else min(values)
        return v

    return value


def score(hands, leader, trick=(), broken=False, rules=Rules(), *, bids, blind=(0, 0, 0, 0), taken=(0, 0, 0, 0),
          bags=(0, 0)) -> int:
    """Team 0's hand score minus team 1's, team 0 maximising it and team 1 minimising it."""
    value = _score_solver(rules, tuple(bids), tuple(blind), tuple(bags))
    return value(tuple(hands), leader, tuple(trick), bool(broken), tuple(taken), rules.first_trick)


def score_card_values(hands, leader, trick=(), broken=False, rules=Rules(), *, bids, blind=(0, 0, 0, 0),
                      taken=(0, 0, 0, 0), bags=(0, 0)) -> dict[int, int]:
    """For each legal card of the seat on move: its team's score minus the other's after playing it."""
    hands, trick = tuple(hands), tuple(trick)
    value = _score_solver(rules, tuple(bids), tuple(blind), tuple(bags))
    seat = (leader + len(trick)) % 4
    sign = 1 if seat % 2 == 0 else -1
    out = {}
    for c in legal(hands[seat], trick, broken, rules, rules.first_trick):
        hs, tr, br, w = play(hands, leader, trick, broken, rules, c)
        if w >= 0:
            tk = list(taken)
            tk[w] += 1
            v = value(hs, w, (), br, tuple(tk), False)
        else:
            v = value(hs, leader, tr, br, tuple(taken), rules.first_trick)
        out[c] = sign * v
    return out


# ------------------------------------------------------------------ the Nil question
def nil_makeable(hands, leader, trick=(), broken=False, rules=Rules(), *, nil_seat: int) -> bool:
    """Can ``nil_seat`` and its partner keep ``nil_seat`` from winning any trick, whatever the other two do?"""
    memo = {}

    def value(hands, leader, trick, broken, first) -> bool:
        key = (hands, leader, trick, broken, first)
        if key in memo:
            return memo[key]
        seat = (leader + len(trick)) % 4
        if not trick and hands[seat] == 0:
            return True

        def kept_after(c) -> bool:  # the Nil still kept after card c, both sides playing on as well as they can
            hs, tr, br, w = play(hands, leader, trick, broken, rules, c)
            if w >= 0:
                return w != nil_seat and value(hs, w, (), br, False)
            return value(hs, leader, tr, br, first)

        # the Nil side needs one card that keeps it, the other side one that breaks it: any/all stop at the first
        outcomes = (kept_after(c) for c in legal(hands[seat], trick, broken, rules, first))
        memo[key] = v = any(outcomes) if seat % 2 == nil_seat % 2 else all(outcomes)
        return v

    return value(tuple(hands), leader, tuple(trick), bool(broken), rules.first_trick)


# ------------------------------------------------------------------ each player alone (2, 3 or 4 seats)
def _alone_solver(n: int, rules: Rules, counted: int, maxers: int):
    """Tricks won by the seats of ``counted`` (a seat mask), the seats of ``maxers`` raising them and the
    others lowering them, at a table of ``n`` (seat + 1 mod n plays next; a trick is n cards)."""
    memo = {}

    def value(hands, leader, trick, broken, first) -> int:
        key = (hands, leader, trick, broken, first)
        if key in memo:
            return memo[key]
        seat = (leader + len(trick)) % n
        if not trick and hands[seat] == 0:
            return 0
        values = []
        for c in legal(hands[seat], trick, broken, rules, first):
            hs, tr, br, w = play(hands, leader, trick, broken, rules, c, n)
            if w >= 0:
                values.append((counted >> w & 1) + value(hs, w, (), br, False))
            else:
                values.append(value(hs, leader, tr, br, first))
        memo[key] = v = max(values) if maxers >> seat & 1 else min(values)
        return v

    return value


def alone_tricks(hands, leader, seat, broken=False, rules=Rules(), *, trick=()) -> int:
    """Seat ``seat``'s tricks from this position (``trick``: the cards already played to the trick in
    progress, which counts), playing for tricks against every other seat together."""
    return _alone_solver(len(hands), rules, 1 << seat, 1 << seat)(tuple(hands), leader, tuple(trick), bool(broken),
                                                                 rules.first_trick)


def alone_nil(hands, leader, seat, broken=False, rules=Rules(), *, trick=()) -> bool:
    """Whether seat ``seat`` can take no trick from this position (the trick in progress included) against
    every other seat giving it one."""
    others = ((1 << len(hands)) - 1) & ~(1 << seat)
    return _alone_solver(len(hands), rules, 1 << seat, others)(tuple(hands), leader, tuple(trick), bool(broken),
                                                              rules.first_trick) == 0
