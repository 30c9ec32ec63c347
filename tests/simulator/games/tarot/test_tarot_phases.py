"""The Tarot engine's own rule phases (simulator/games/tarot/phases.py) on hands built by hand:
legal cards for every play rule and Excuse case, the discard, the poignées allowed, Petit sec.
The whole engine is checked against the independent reference by replays (test_tarot_reference.py)."""
import numpy as np
import pytest

from tricksim.simulator.games.tarot import cards, phases
from tricksim.simulator.games.tarot.policy import VIEW_SIZE
from tricksim.simulator.games.tarot.rules import build_rules

RULES = build_rules("cardavia").to_kernel()
FORBIDDEN = build_rules("cardavia", ["excuse_lead=forbidden"]).to_kernel()
FREE = build_rules("cardavia", ["discard_trumps=free"]).to_kernel()
ALWAYS = build_rules("cardavia", ["poignee_excuse=always"]).to_kernel()
CLUBS, DIAMONDS, HEARTS, SPADES, TRUMPS = 0, 1, 2, 3, 4


def card(suit, rank):
    return suit * 14 + rank


def T(n):  # trump n as a card id
    return 55 + n


def hand(*ids):
    """(suits, trumps) words of card ids."""
    s, t = cards.split(*cards.mask_of(ids))
    return np.int64(s), np.int64(t)


def ids(words):
    s, t = words
    return sorted(cards.cards_in(*cards.join(int(s), int(t))))


def legal(rules, h, led, high, leading=False):
    return ids(phases.legal_cards(rules, h[0], h[1], led, high, leading))


H = hand(card(CLUBS, 3), card(CLUBS, 13), card(HEARTS, 0), T(4), T(12), cards.EXCUSE)


@pytest.mark.parametrize("case, led, high, expected", [
    ("leading: any card", -1, -1, [card(CLUBS, 3), card(CLUBS, 13), card(HEARTS, 0), T(4), T(12), cards.EXCUSE]),
    ("follow clubs (the Excuse too)", CLUBS, -1, [card(CLUBS, 3), card(CLUBS, 13), cards.EXCUSE]),
    ("void in spades: must trump", SPADES, -1, [T(4), T(12), cards.EXCUSE]),
    ("must overtrump trump 10 in a spade trick", SPADES, 10 - 1, [T(12), cards.EXCUSE]),
    ("cannot overtrump trump 15: any trump", SPADES, 15 - 1, [T(4), T(12), cards.EXCUSE]),
    ("trumps led, trump 3 high: both beat it", TRUMPS, 3 - 1, [T(4), T(12), cards.EXCUSE]),
    ("trumps led, trump 5 high: only 12 beats it", TRUMPS, 5 - 1, [T(12), cards.EXCUSE]),
    ("only the Excuse led so far: as leading", -1, -1, [card(CLUBS, 3), card(CLUBS, 13), card(HEARTS, 0), T(4),
                                                        T(12), cards.EXCUSE]),
])
def test_legal_cards(case, led, high, expected):
    assert legal(RULES, H, led, high) == expected, case


def test_void_in_suit_and_trumps_plays_anything():
    h = hand(card(CLUBS, 3), card(HEARTS, 0), cards.EXCUSE)
    assert legal(RULES, h, SPADES, -1) == [card(CLUBS, 3), card(HEARTS, 0), cards.EXCUSE]
    assert legal(RULES, h, TRUMPS, 7) == [card(CLUBS, 3), card(HEARTS, 0), cards.EXCUSE]


def test_excuse_lead_forbidden_unless_it_is_the_last_card():
    assert cards.EXCUSE not in legal(FORBIDDEN, H, -1, -1, leading=True)
    assert legal(FORBIDDEN, hand(cards.EXCUSE), -1, -1, leading=True) == [cards.EXCUSE]
    assert cards.EXCUSE in legal(FORBIDDEN, H, CLUBS, -1)  # following: any time
    assert cards.EXCUSE in legal(RULES, H, -1, -1, leading=True)


def test_trick_winner_and_the_excuse():
    view = np.zeros(VIEW_SIZE, np.int64)
    s, t = np.zeros(5, np.int64), np.zeros(5, np.int64)
    # the Excuse led, then the 3 of clubs sets the suit, the king of clubs wins, the ace of hearts is a discard
    trick = [(0, cards.EXCUSE), (1, card(CLUBS, 2)), (2, card(CLUBS, 13)), (3, card(HEARTS, 0))]
    phases.start_trick(view, 0, 0)
    led, win_seat, win_card, high = -1, -1, -1, -1
    for seat, c in trick:
        led, win_seat, win_card, high = phases.apply_card(view, s, t, seat, c, led, win_seat, win_card, high, 4)
    assert (led, win_seat, win_card) == (CLUBS, 2, card(CLUBS, 13))
    # a trump takes a plain trick; a higher trump overtakes it
    led, win_seat, win_card, high = -1, -1, -1, -1
    for seat, c in [(0, card(SPADES, 13)), (1, T(2)), (2, card(SPADES, 1)), (3, T(9))]:
        led, win_seat, win_card, high = phases.apply_card(view, s, t, seat, c, led, win_seat, win_card, high, 4)
    assert (led, win_seat, win_card, high) == (SPADES, 3, T(9), 8)


def test_discard():
    # 24 cards with three discardable plain cards (the kings never are): exact = all three plain and 3 trumps
    h = hand(card(CLUBS, 13), card(DIAMONDS, 13), card(CLUBS, 2), card(CLUBS, 5), card(HEARTS, 9),
             *[T(n) for n in range(1, 22)][:19], cards.EXCUSE)
    plain, low_trumps = ids((h[0], 0)), [c for c in ids((0, h[1])) if c not in (cards.PETIT, cards.MONDE, cards.EXCUSE)]
    assert ids(phases.discard_legal(RULES, h[0], h[1], 6)) == [card(CLUBS, 2), card(CLUBS, 5), card(HEARTS, 9)] + \
        low_trumps  # 3 plain < 6 to go: trumps allowed
    assert ids(phases.discard_legal(RULES, h[0], h[1], 3)) == [card(CLUBS, 2), card(CLUBS, 5), card(HEARTS, 9)]
    many = hand(*[card(CLUBS, r) for r in range(8)], card(CLUBS, 13), T(5))
    assert ids(phases.discard_legal(RULES, many[0], many[1], 6)) == [card(CLUBS, r) for r in range(8)]
    assert ids(phases.discard_legal(FREE, many[0], many[1], 6)) == [card(CLUBS, r) for r in range(8)] + [T(5)]
    assert card(CLUBS, 13) in plain  # the kings are in the hand but never legal
    assert card(CLUBS, 13) not in ids(phases.discard_legal(FREE, many[0], many[1], 6))
    assert card(CLUBS, 13) not in ids(phases.discard_legal(RULES, h[0], h[1], 6))


def tw(*numbers):
    """The trumps word of trumps ``numbers`` (22: the Excuse)."""
    return np.int64(sum(1 << (n - 1) for n in numbers))


def test_poignee_pools_and_levels():
    ten, nine, none = tw(*range(3, 13)), tw(*range(3, 12)), np.int64(0)
    excuse = tw(22)
    d, a = RULES.poignee_excuse, ALWAYS.poignee_excuse
    # ten trumps: a single from them, no double
    assert phases.poignee_pools(d, ten, False, none, 10, 15) == (ten, 0, 0)
    assert phases.poignee_pools(d, ten, False, none, 13, 15) == (0, 0, 0)
    assert phases.poignee_level(d, ten, False, none, ten, 4) == 1
    assert phases.poignee_level(d, ten, False, none, tw(*range(3, 12), 13), 4) == -1   # T13 not held
    assert phases.poignee_level(d, ten, False, none, tw(*range(3, 12)), 4) == -1       # 9 cards
    assert phases.poignee_level(d, ten, False, none, none, 4) == 0
    # nine trumps and the Excuse: a single of all nine and the Excuse (every trump shown)
    assert phases.poignee_pools(d, nine, True, none, 10, 15) == (0, nine | excuse, 0)
    assert phases.poignee_level(d, nine, True, none, nine | excuse, 4) == 1
    # ten trumps and the Excuse: the Excuse in place of a trump only with poignee_excuse=always
    assert phases.poignee_level(d, ten, True, none, tw(*range(4, 13), 22), 4) == -1
    assert phases.poignee_level(a, ten, True, none, tw(*range(4, 13), 22), 4) == 1
    assert phases.poignee_level(a, ten, True, none, ten, 4) == 1
    # the four-kings exception: 10 held + 5 discarded trumps make a triple, never with the Excuse
    discarded = tw(*range(13, 18))
    assert phases.poignee_pools(d, ten, True, discarded, 15, 15) == (0, 0, ten | discarded)
    assert phases.poignee_level(d, ten, True, discarded, ten | discarded, 4) == 3
    assert phases.poignee_level(d, ten, True, discarded, tw(*range(3, 17), 22), 4) == -1
    # the step API's next cards: after T3, the single's pool; with the Excuse chosen (always), the trumps held
    assert phases.poignee_next(d, ten, False, none, 10, 15, tw(3)) == tw(*range(4, 13))
    assert phases.poignee_next(a, ten, True, none, 10, 15, tw(22)) == ten
    assert phases.poignee_next(a, ten, True, none, 10, 15, tw(3)) == tw(*range(4, 13), 22)


def test_petit_sec():
    assert phases.petit_sec(np.array([0b10, 1, 0, 0], np.int64), 4)            # seat 1 holds the Petit alone
    assert not phases.petit_sec(np.array([0b10, 1 | 1 << 21, 0, 0], np.int64), 4)  # with the Excuse it is not sec
    assert not phases.petit_sec(np.array([0b10, 0b11, 0, 0], np.int64), 4)
