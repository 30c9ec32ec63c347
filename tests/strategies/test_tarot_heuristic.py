"""The Tarot ``heuristic`` strategy: decisions on hand-built views, and legality properties.

Each scenario builds the public view as the kernel would at that moment (the trick so far, the
played masks including it, shown voids, tricks won) and checks the decision against the answer
worked out by hand from the rule of good play the strategy claims to follow. The property tests
play whole deals in plain Python (legality from ``reference_tarot``, which shares no code with the
simulator) and feed the policies random hands and legal subsets.

Cards are written ``RH`` (king of hearts: ranks A 2 .. 10 V C D R, suits C D H S = ♣ ♦ ♥ ♠),
``T1`` .. ``T21`` (trumps) and ``EX`` (the Excuse).
"""
from __future__ import annotations

import numpy as np
import pytest
from reference_tarot import discard_problem, legal_cards, suit_to_follow, trick_winner

import tricksim.strategies.tarot.heuristic as H
from tricksim.simulator.games.tarot.cards import EXCUSE, FIRST_TRUMP, PETIT
from tricksim.simulator.games.tarot.policy import (
    MAX_SEATS,
    R_POIGNEE_EXCUSE,
    V_BID,
    V_CALLED,
    V_CHELEM,
    V_CHIEN_S,
    V_CHIEN_T,
    V_CONTRACT,
    V_DEALER,
    V_DISCARD_T,
    V_HIGH_TRUMP,
    V_LEADER,
    V_LED_SUIT,
    V_MIN_BID,
    V_NPLAYED,
    V_PARTNER,
    V_PLAYED_S,
    V_PLAYED_T,
    V_POIGNEE_BASE,
    V_POIGNEE_EXCUSE,
    V_POIGNEE_EXTRA,
    V_POIGNEE_MAX,
    V_POIGNEE_T,
    V_RULES,
    V_SEAT,
    V_TAKER,
    V_TO_DISCARD,
    V_TRICK,
    V_TRICK_NO,
    V_TRICKS,
    V_VOIDS,
    V_WINNING_CARD,
    V_WINNING_SEAT,
    VIEW_SIZE,
)
from tricksim.simulator.games.tarot.rules import build_rules
from tricksim.strategies.registry import get, parse_spec

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "C", "D", "R")
SUITS = "CDHS"
STRATEGY = get("heuristic", game="tarot")
PARAMS = STRATEGY.param_vector()


def card(text: str) -> int:
    if text == "EX":
        return EXCUSE
    if text[0] == "T":
        return FIRST_TRUMP + int(text[1:]) - 1
    return SUITS.index(text[-1]) * 14 + RANKS.index(text[:-1])


def cards(text: str) -> list[int]:
    return [card(t) for t in text.split()]


def words(ids) -> tuple[int, int]:
    """(suits, trumps) words of card ids, as the policies take them."""
    s = t = 0
    for c in ids:
        if c < FIRST_TRUMP:
            s |= 1 << c
        else:
            t |= 1 << (c - FIRST_TRUMP)
    return s, t


def rng():
    return np.array([1], dtype=np.uint64)


CARDAVIA = build_rules("cardavia").to_kernel()


def params(**values) -> np.ndarray:
    return STRATEGY.param_vector(values)


def hand_view(seat=0, taker=-1, min_bid=1, poignee_max=0, to_discard=0) -> np.ndarray:
    v = np.zeros(VIEW_SIZE, np.int64)
    v[V_SEAT] = seat
    v[V_TAKER] = taker
    v[V_MIN_BID] = min_bid
    v[V_POIGNEE_MAX] = poignee_max
    v[V_TO_DISCARD] = to_discard
    v[V_BID:V_BID + MAX_SEATS] = -1
    v[V_TRICK:V_TRICK + MAX_SEATS] = -1
    v[V_CALLED] = v[V_PARTNER] = -1  # five players' call: none
    v[V_LED_SUIT] = v[V_WINNING_SEAT] = v[V_WINNING_CARD] = v[V_HIGH_TRUMP] = -1
    v[V_RULES:] = CARDAVIA  # the rules record, as the kernel writes it (seats 4)
    return v


def play_view(seat, taker, trick=(), played=(), voids=None, trick_no=5, tricks=None, chelem=0) -> np.ndarray:
    """The view of ``seat`` about to play to a trick holding ``trick`` (cards in order of play, the
    leader being the seat ``len(trick)`` places before ``seat``); ``played``: earlier tricks' cards."""
    v = hand_view(seat, taker)
    v[V_CONTRACT] = 2
    v[V_TRICK_NO] = trick_no
    leader = (seat - len(trick)) % 4
    v[V_LEADER] = leader
    v[V_NPLAYED] = len(trick)
    for i, c in enumerate(trick):
        v[V_TRICK + (leader + i) % 4] = c
    if trick:
        led = suit_to_follow(list(trick))
        if led is not None:
            v[V_LED_SUIT] = led
            w = trick_winner(list(trick))
            v[V_WINNING_SEAT] = (leader + w) % 4
            v[V_WINNING_CARD] = trick[w]
            trumps_in = [c for c in trick if FIRST_TRUMP <= c < EXCUSE]
            v[V_HIGH_TRUMP] = max(trumps_in) - FIRST_TRUMP if trumps_in else -1
    v[V_PLAYED_S], v[V_PLAYED_T] = words(list(played) + list(trick))
    for s, mask in (voids or {}).items():
        v[V_VOIDS + s] = mask
    for s, n in (tricks or {}).items():
        v[V_TRICKS + s] = n
    v[V_CHELEM] = chelem
    return v


def legal_words(hand, trick) -> tuple[int, int]:
    return words(legal_cards(set(hand), list(trick)))


def play(seat, hand, view, p=PARAMS) -> int:
    s, t = words(hand)
    trick = [view[V_TRICK + (view[V_LEADER] + i) % 4] for i in range(view[V_NPLAYED])]
    ls, lt = legal_words(hand, trick)
    c = int(H.play(seat, s, t, ls, lt, view, p, rng()))
    assert c in legal_cards(set(hand), trick)
    return c


def bid(hand_text, min_bid=1, p=PARAMS) -> int:
    s, t = words(cards(hand_text))
    return int(H.bid(0, s, t, hand_view(min_bid=min_bid), p, rng()))


# ------------------------------------------------------------------ registration
def test_registered_with_documented_parameters():
    assert STRATEGY.game == "tarot"
    assert set(STRATEGY.policies) == {"bid", "discard", "chelem", "poignee", "play", "call"}
    assert 0 < len(STRATEGY.params) <= 32
    names = [p.name for p in STRATEGY.params]
    assert len(set(names)) == len(names)
    for name in names:
        assert name in H.__doc__, f"parameter {name} not described in the module docstring"
    assert parse_spec("heuristic:prise_threshold=70,charge=0", game="tarot").params[H.P_PRISE] == 70


# ------------------------------------------------------------------ bidding
STRONG = "T21 T20 T18 T17 T15 T12 T9 T6 T3 T1 EX RH DH RS 5S 3S 2C 4C"
WEAK = "T2 T5 T8 AC 3C 5C 7C 9C 2D 4D 6D 8D 3H 5H 7H 2S 4S CS"
MEDIUM = "T21 T16 T14 T11 T9 T7 T4 RH 3H 5H DS CS 2S 7C 8C AD 3D 9D"  # Monde, 7 trumps, a king


def test_strong_hand_bids_at_least_garde():
    assert bid(STRONG) >= 2


def test_weak_hand_passes():
    assert bid(WEAK) == 0


def test_hand_points_count_oudlers_trumps_and_honours():
    p = params()
    s, t = words(cards(STRONG))
    pts = H.hand_points(s, t, p)
    # 10 trumps, majors 21 20 18 17, three oudlers (Petit guarded), kings of hearts and spades with a queen,
    # a void in diamonds, no singleton, no long suit
    want = (10 * p[H.P_TRUMP] + 4 * p[H.P_MAJOR] + p[H.P_MONDE] + p[H.P_PETIT] + p[H.P_EXCUSE]
            + 2 * p[H.P_KING] + p[H.P_QUEEN] + p[H.P_KQ] + p[H.P_VOID])
    assert pts == pytest.approx(want)
    # a bare Petit is worth nothing as an oudler
    s, t = words(cards("T1 " + " ".join(f"{r}C" for r in RANKS[:9]) + " " + " ".join(f"{r}D" for r in RANKS[:8])))
    long_suits = p[H.P_LONG] * (1 + 0.4 * 4) + p[H.P_LONG] * (1 + 0.4 * 3)  # nine clubs, eight diamonds
    assert H.hand_points(s, t, p) == pytest.approx(p[H.P_TRUMP] + long_suits + 2 * p[H.P_VOID])


def test_thresholds_pick_the_contract():
    # a medium hand: Prise at a low threshold, Garde when the Garde threshold is under the count, nothing above
    s, t = words(cards(MEDIUM))
    pts = H.hand_points(s, t, PARAMS)
    low = params(prise_threshold=pts - 1, garde_threshold=pts + 1, garde_sans_threshold=500, garde_contre_threshold=500)
    assert bid(MEDIUM, p=low) == 1
    garde = params(prise_threshold=pts - 2, garde_threshold=pts - 1, garde_sans_threshold=500,
                   garde_contre_threshold=500)
    assert bid(MEDIUM, p=garde) == 2
    assert bid(MEDIUM, p=params(prise_threshold=pts + 1, garde_threshold=pts + 2)) == 0


def test_never_bids_below_the_lowest_allowed_contract():
    # worth a Garde, but a Garde sans has been bid already: pass
    p = params(garde_sans_threshold=500, garde_contre_threshold=500)
    assert bid(STRONG, p=p) == 2
    assert bid(STRONG, min_bid=3, p=p) == 0
    gen = np.random.default_rng(5)
    for _ in range(300):
        hand = gen.choice(78, 18, replace=False)
        for min_bid in range(1, 5):
            b = bid(" ".join(_text(c) for c in hand), min_bid=min_bid)
            assert b == 0 or min_bid <= b <= 4


def _text(c: int) -> str:
    if c == EXCUSE:
        return "EX"
    if c >= FIRST_TRUMP:
        return f"T{c - FIRST_TRUMP + 1}"
    return RANKS[c % 14] + SUITS[c // 14]


# ------------------------------------------------------------------ discard
def discard_legal(hand: set, to_discard: int, free=False) -> set:
    """The engine's sequential discard legality (SPEC 4): suit non-kings; non-oudler trumps only while the
    discardable suit cards are fewer than the cards still to discard (or always under discard_trumps=free)."""
    plain = {c for c in hand if c < FIRST_TRUMP and c % 14 != 13}
    low_trumps = {c for c in hand if PETIT < c < EXCUSE - 1}
    return plain | low_trumps if free or len(plain) < to_discard else plain


def run_discard(pool, free=False, p=PARAMS) -> list[int]:
    hand = set(pool)
    out = []
    v = hand_view(seat=0, taker=0)
    for i in range(6):
        v[V_TO_DISCARD] = 6 - i
        legal = discard_legal(hand, 6 - i, free)
        s, t = words(hand)
        ls, lt = words(legal)
        c = int(H.discard(0, s, t, ls, lt, v, p, rng()))
        assert c in legal, f"discard {_text(c)} is not legal"
        hand.remove(c)
        out.append(c)
    return out


def test_discard_voids_short_suits_and_saves_their_points():
    # 24 cards: clubs C + 5 (two cards, no king), diamonds D (one card): both voided, the knight and queen
    # (points for the taker) going with them; then the remaining discards come from the long suits
    pool = cards("CC 5C DD RH 2H 3H 4H 6H 8H RS 2S 4S 7S 9S T1 T4 T7 T9 T12 T15 T18 T20 T21 EX")
    out = run_discard(pool)
    assert {card("CC"), card("5C"), card("DD")} <= set(out)
    assert out[0] == card("DD")  # the shortest suit first
    assert discard_problem(pool, out) is None


def test_discard_unguarded_honours_when_nothing_can_be_voided():
    # clubs and diamonds too long to void, hearts and spades kept by their kings: the queen of diamonds
    # (no king to guard it) is the first to go
    pool = cards("2C 3C 4C 5C 6C 7C 8C 2D 3D DD 5D 6D 7D 8D RH 2H RS 2S T2 T5 T9 T13 T16 T20")
    out = run_discard(pool)
    assert out[0] == card("DD")
    assert not any(c >= FIRST_TRUMP for c in out)


def test_discard_keeps_the_queen_over_the_knight_at_three_and_four_players():
    # issue #29, the fifteenth pass: clubs and diamonds too long to void, hearts and spades kept by their kings;
    # diamonds hold the queen and the knight without their king. The knight goes first (the queen becomes master
    # once the king falls, the knight only once both have: pimc's discard kept the queen), then the queen, then the
    # jack of diamonds; at five players the queen still goes first, for its points
    pool = cards("2C 3C 4C 5C 6C 7C 8C 2D VD CD DD 5D 6D 7D RH 2H RS 2S T2 T5 T9 T13 T16 T20")
    out = run_discard(pool)
    assert out[:3] == [card("CD"), card("DD"), card("VD")]
    assert discard_problem(pool, out) is None
    v = hand_view(seat=0, taker=0, to_discard=3)
    v[V_RULES:] = build_rules("fft5").to_kernel()
    hand = set(pool)
    legal = discard_legal(hand, 3)
    assert int(H.discard(0, *words(hand), *words(legal), v, PARAMS, rng())) == card("DD")


def test_discard_trumps_only_when_forced():
    # only four discardable suit cards: all of them, then the two lowest non-oudler trumps
    pool = cards("RC RD RH RS 3H 5S 7S 9D T1 T2 T3 T4 T5 T6 T8 T10 T11 T14 T16 T17 T19 T20 T21 EX")
    out = run_discard(pool)
    assert set(out) == set(cards("3H 5S 7S 9D T2 T3"))
    assert discard_problem(pool, out) is None


@pytest.mark.parametrize("free", [False, True])
def test_discard_always_legal_on_random_pools(free):
    gen = np.random.default_rng(11 + free)
    for _ in range(200):
        pool = [int(c) for c in gen.choice(78, 24, replace=False)]
        out = run_discard(pool, free=free)
        assert discard_problem(pool, out, "free" if free else "exact") is None


# ------------------------------------------------------------------ announcements
def test_chelem_losers_count_what_the_cards_out_can_beat():
    # hearts K Q J: the knight is out, so the jack may lose; not when the knight was in the shown chien (discarded)
    s, t = words(cards("T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 EX RH DH VH"))
    assert H.chelem_losers(s, t, 0, 0) == 1
    assert H.chelem_losers(s, t, words(cards("CH"))[0], 0) == 0
    # trumps: the 21 to 18 and the 16 to 7 against the 17 and the 6 to the Petit out: the 17 beats one trump at
    # most (the run of four would have counted three: 7 out, 4 drawn); diamonds K: no loser
    s, t = words(cards("T21 T20 T19 T18 T16 T15 T14 T13 T12 T11 T10 T9 T8 T7 RD RC RS RH"))
    assert H.chelem_losers(s, t, 0, 0) == 1
    # more trumps out than held: each trump out beyond the taker's may ruff (14 out against the 21 to 15: 7 losers,
    # though no trump out beats one of the taker's)
    s, t = words(cards("T21 T20 T19 T18 T17 T16 T15 RC RD RH RS DC DD DH DS CC CD CH"))
    assert H.chelem_losers(s, t, 0, 0) == 7


def test_announced_chelem_made_on_a_chosen_deal():
    """A chosen deal (Garde sans): the taker, seat 1, holds the trumps 8 to 21, the Excuse and three kings: no loser,
    it announces, leads, and takes every trick (the Excuse led to the last)."""
    gen = np.random.default_rng(5)
    taker_hand = cards("T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 EX RC RD RH")
    rest = [c for c in gen.permutation(78).tolist() if c not in taker_hand]
    deck = rest[:18] + taker_hand + rest[18:]
    assert H.chelem(1, *words(taker_hand), hand_view(seat=1, taker=1), PARAMS, rng()) == 1
    tricks = play_deal(gen, contract=3, deck=deck, dealer=0)
    assert all((leader + trick_winner(trick)) % 4 == 1 for leader, trick in tricks[:-1])
    assert tricks[-1] == (1, tricks[-1][1]) and tricks[-1][1][0] == EXCUSE


def test_no_chelem_with_losers():
    # the same trumps with three low hearts for the kings: the hearts out beat all three, no announcement (none
    # allowed); played out, the defence takes a trick
    hand = cards("T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 EX 2H 3H 4H")
    s, t = words(hand)
    assert H.chelem_losers(s, t, 0, 0) == 3
    assert H.chelem(1, s, t, hand_view(seat=1, taker=1), PARAMS, rng()) == 0
    assert H.chelem(1, s, t, hand_view(seat=1, taker=1), params(chelem_losers=3, chelem_samples=0), rng()) == 1
    gen = np.random.default_rng(5)
    rest = [c for c in gen.permutation(78).tolist() if c not in hand]
    tricks = play_deal(gen, contract=3, deck=rest[:18] + hand + rest[18:], dealer=0)
    assert not all((leader + trick_winner(trick)) % 4 == 1 for leader, trick in tricks)


def test_chelem_only_with_an_overwhelming_hand():
    s, t = words(cards("T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T1 EX RH DH RS RC RD"))
    v = hand_view(seat=0, taker=0)
    assert H.chelem(0, s, t, v, PARAMS, rng()) == 1
    assert H.chelem(0, s, t, v, params(chelem_losers=-1), rng()) == 0
    s, t = words(cards(STRONG))
    assert H.chelem(0, s, t, v, PARAMS, rng()) == 0


# ------------------------------------------------------------------ Chelem by play-outs (issue #29)
# trumps 8 to 21, the Excuse and three kings: the taker leads (announced), draws the seven trumps out with masters
# (it holds fourteen: a defender holding all seven is drawn by the seventh lead), then cashes its kings (nobody can
# ruff) and leads the Excuse to the last trick: every trick whatever the other hands (p = 1, so 3 p > 1 + q)
SURE_SLAM = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 EX RC RD RH"
# the Monde out: whoever holds it wins the trick it plays it to (every card is played), so after a Garde whose chien
# (shown, then discarded) did not hold it, no deal of the other cards makes the slam (p = 0: never announced)
SURE_LOSER = "T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 EX RC RD RH RS"
SURE_LOSER_CHIEN = "2C 3C 4C 2D 3D 4D"

def chelem_view(chien=None) -> np.ndarray:
    """Seat 1's view as it declares Chelem, dealer 0: after a Garde sans (the chien hidden), or after a Garde whose
    chien ``chien`` it was shown and discarded."""
    v = hand_view(seat=1, taker=1)
    v[V_CONTRACT] = 3 if chien is None else 2
    v[V_DEALER] = 0
    if chien is not None:
        v[V_CHIEN_S], v[V_CHIEN_T] = words(cards(chien))
    return v


def chelem_stats(hand, chien=None, samples=12, p=PARAMS):
    """``chelem_playouts``' stats: (deals played, slams announced, slams unannounced, total score announced, deals
    drawn)."""
    stats = np.zeros(5, np.int64)
    H.chelem_playouts(1, *words(cards(hand)), chelem_view(chien), p, rng(), samples, stats)
    return stats


def test_chelem_by_playouts_announced_on_a_hand_that_makes_it_against_any_defence():
    s, t = words(cards(SURE_SLAM))
    assert H.chelem_losers(s, t, 0, 0) == 0
    done, made, _quiet, score, _drawn = chelem_stats(SURE_SLAM)
    assert done == 12 and made == 12
    # Garde sans (x4): the taker takes all 91 points (the chien counts for it) and the three oudlers (it holds two and
    # wins the trick of the Petit, or the Petit is in the chien): target 36, (25 + 55) x 4 = 320; no petit au bout
    # (the Petit is drawn by the seventh trump lead at the latest, or lies in the chien); its triple poignée (its 14
    # trumps and the Excuse, 15 cards) +40, none for the defence (7 trumps out); the Chelem +400; the taker scores
    # three times that
    assert score == 12 * 3 * (320 + 40 + 400)
    assert chelem_stats(SURE_SLAM, samples=128)[:2].tolist() == [128, 128]  # never screened: all made
    assert H.chelem(1, s, t, chelem_view(), PARAMS, rng()) == 1
    assert H.chelem(1, s, t, chelem_view(), params(chelem_losers=-1), rng()) == 0


def test_chelem_by_playouts_not_announced_with_a_sure_loser():
    s, t = words(cards(SURE_LOSER))
    v = chelem_view(SURE_LOSER_CHIEN)
    assert H.chelem_losers(s, t, v[V_CHIEN_S], v[V_CHIEN_T]) == 1  # the filter lets it through to the play-outs
    done, made, quiet, _score, drawn = chelem_stats(SURE_LOSER, SURE_LOSER_CHIEN)
    # its discard (the chien's six low clubs and diamonds, with its kings kept) is the one its own rule makes
    assert done == 12 and made == 0 and quiet == 0 and drawn == 12
    # the screen: after CHELEM_SCREEN deals, 6 x 0 made - 2 x 0 < 32, far under the break-even: no more deals
    assert chelem_stats(SURE_LOSER, SURE_LOSER_CHIEN, samples=128)[0] == H.CHELEM_SCREEN == 32
    assert H.chelem(1, s, t, v, PARAMS, rng()) == 0
    # today's count without play-outs: one loser, announced only when one is allowed
    assert H.chelem(1, s, t, v, params(chelem_samples=0), rng()) == 0
    assert H.chelem(1, s, t, v, params(chelem_samples=0, chelem_losers=1), rng()) == 1


def test_chelem_by_playouts_through_the_engine_replays_through_the_reference():
    """The two hands dealt to seat 1 (first to speak: it bids a Garde contre, the others cannot overbid), every seat
    the heuristic: the sure slam is announced, led and made; the hand without the Monde is not announced (the chien
    hidden, the Monde may lie there, but in 6 of the 60 cards the taker cannot see: p is about 1 in 10, far under
    the break-even 1 in 3), and loses the Monde's trick. Both deals replay through the reference rules."""
    from reference_tarot import replay_table

    from tricksim.simulator.engine import RunConfig
    from tricksim.simulator.games.tarot import batch

    def deal_to_seat1(hand):  # the other cards from the top down: the Monde, when out, to seat 0
        mine = cards(hand)
        rest = [c for c in range(77, -1, -1) if c not in mine]
        return rest[:18] + mine + rest[18:]

    cfg = RunConfig(game="tarot", rules=build_rules("cardavia"), seats=[parse_spec("heuristic", "tarot")] * 4,
                    mode="deals", count=2, record_plays=True, seed=5)
    t = batch.play_decks(cfg, [deal_to_seat1(SURE_SLAM), deal_to_seat1(SURE_LOSER)])["deals"]
    replay_table(t, dict(cfg.rules.to_dict()), plays_required=True)
    slam, loser = t.to_pylist()
    assert slam["taker"] == 1 and slam["chelem"] == 1 and slam["first_leader"] == 1 and slam["slam"] == 1
    assert loser["taker"] == 1 and loser["chelem"] == 0 and loser["slam"] != 1


def trumps_word(*numbers) -> int:
    return sum(1 << (n - 1) for n in numbers)


def poignee_view(seat, taker, most, base, excuse=False, extra=0, excuse_always=False) -> np.ndarray:
    """The view as ``start_poignee`` leaves it: the level allowed, the trumps judged (``base``, a trumps word), the
    Excuse, the four-kings extra; the rules record's poignee_excuse (0 all_trumps_shown, 1 always)."""
    v = hand_view(seat=seat, taker=taker, poignee_max=most)
    v[V_POIGNEE_BASE] = base
    v[V_POIGNEE_EXCUSE] = int(excuse)
    v[V_POIGNEE_EXTRA] = extra
    v[V_RULES + R_POIGNEE_EXCUSE] = int(excuse_always)
    return v


EXCUSE_W = 1 << 21


def test_poignee_taker_shows_the_highest_level_defenders_unless_told_not_to():
    s, t = words(cards(STRONG))
    twelve = trumps_word(*range(1, 13))
    shown = trumps_word(*range(2, 12))  # the 10 lowest but the Petit
    assert H.poignee(0, s, t, poignee_view(0, 0, 1, twelve), PARAMS, rng()) == shown
    assert H.poignee(1, s, t, poignee_view(1, 0, 1, twelve), PARAMS, rng()) == shown  # defenders show it (#29)
    assert H.poignee(1, s, t, poignee_view(1, 0, 1, twelve), params(defender_poignee=0), rng()) == 0
    assert H.poignee(0, s, t, poignee_view(0, 0, 0, 0), PARAMS, rng()) == 0
    # 16 trumps, a double: T2..T14
    assert H.poignee(0, s, t, poignee_view(0, 0, 2, trumps_word(*range(1, 17))), PARAMS, rng()) == \
        trumps_word(*range(2, 15))


def test_poignee_hides_the_petit_when_it_can():
    s, t = words(cards(STRONG))
    # exactly 10 trumps with the Petit: it must be shown
    assert H.poignee(0, s, t, poignee_view(0, 0, 1, trumps_word(*range(1, 11))), PARAMS, rng()) == \
        trumps_word(*range(1, 11))
    # 9 trumps and the Excuse (all_trumps_shown): every trump and the Excuse
    assert H.poignee(0, s, t, poignee_view(0, 0, 1, trumps_word(*range(1, 10)), excuse=True), PARAMS, rng()) == \
        trumps_word(*range(1, 10)) | EXCUSE_W
    # 10 trumps and the Excuse: under all_trumps_shown the Excuse cannot replace the Petit (T1..T10 shown); under
    # always it does: the Excuse and T2..T10
    ten = trumps_word(*range(1, 11))
    assert H.poignee(0, s, t, poignee_view(0, 0, 1, ten, excuse=True), PARAMS, rng()) == ten
    assert H.poignee(0, s, t, poignee_view(0, 0, 1, ten, excuse=True, excuse_always=True), PARAMS, rng()) == \
        trumps_word(*range(2, 11)) | EXCUSE_W
    # 11 trumps and the Excuse under always: no need for the Excuse, T2..T11
    assert H.poignee(0, s, t, poignee_view(0, 0, 1, trumps_word(*range(1, 12)), excuse=True, excuse_always=True),
                     PARAMS, rng()) == trumps_word(*range(2, 12))
    # the four-kings triple: 14 held (the Petit among them) + 2 discarded: 15 without the Petit
    held = trumps_word(1, *range(8, 21))
    extra = trumps_word(3, 4)
    assert H.poignee(0, s, t, poignee_view(0, 0, 3, held, extra=extra), PARAMS, rng()) == extra | trumps_word(
        *range(8, 21))


def test_poignee_never_shows_the_petit_when_it_holds_enough_other_trumps_in_a_run():
    """Every poignée of a run of four heuristic players (defenders showing theirs too): legal for the reference,
    and the Petit shown only when no legal set of that size leaves it out."""
    import reference_tarot as ref

    from tricksim.simulator import engine
    from tricksim.simulator.games.tarot.rules import build_rules

    rules = build_rules("cardavia")
    spec = parse_spec("heuristic:defender_poignee=1", game="tarot")
    cfg = engine.RunConfig(game="tarot", rules=rules, seats=(spec,) * 4, seed=11, mode="deals", count=3000,
                           record_plays=False)
    rows = engine.run_to_tables(cfg)["deals"].to_pylist()
    ref.replay_table(rows, rules)
    flags = ref.flags_of(rules)
    shown_with_petit_held = hidden = 0
    for row in rows:
        if row["void"] != 0:
            continue
        taker, contract = row["taker"], row["contract"]
        dealt = [ref.cards_in(row[f"dealt_lo_{s}"], row[f"dealt_hi_{s}"]) for s in range(4)]
        chien = ref.cards_in(row["chien_lo"], row["chien_hi"])
        discard = ref.cards_in(row["discard_lo"], row["discard_hi"])
        held = [set(h) for h in dealt]
        if contract in (ref.PRISE, ref.GARDE):
            held[taker] = (dealt[taker] | chien) - discard
        for seat in range(4):
            shown = ref.cards_in(row[f"poignee_lo_{seat}"], row[f"poignee_hi_{seat}"])
            if not shown:
                continue
            base, holds_excuse, exception = ref.poignee_basis(seat, taker, contract, dealt, held,
                                                              {c for c in discard if ref.is_trump(c)}, flags)
            if PETIT not in base:
                continue
            shown_with_petit_held += 1
            n = len(shown)
            without = sorted(base - {PETIT})
            candidates = [set(without[:n]), set(without[:n - 1]) | {EXCUSE}]
            if exception is not None:
                candidates.append(set(sorted(exception - {PETIT})[:n]))
            can_hide = any(len(c) == n and ref.poignee_problem(c, base, holds_excuse, flags["poignee_excuse"],
                                                               exception) is None for c in candidates)
            assert (PETIT in shown) == (not can_hide), (row["deal_id"], seat, sorted(shown), sorted(base))
            hidden += PETIT not in shown
    assert hidden >= 20 and shown_with_petit_held > hidden  # the run exercised both cases


# ------------------------------------------------------------------ card play: worked situations
def test_defender_charges_a_partner_who_wins_safely():
    # taker 0 led the 5 of hearts, defender 1 took it with the king; defender 2 charges its queen
    # (the taker has played, so nothing can take the trick from the defence)
    hand = cards("DH 3H 2C 4C T5 T9")
    v = play_view(2, taker=0, trick=cards("5H RH"))
    assert play(2, hand, v) == card("DH")


def test_defender_charges_the_petit_when_void():
    # the partner's trump holds (the taker, seat 0, has played): the Petit goes to the defence's trick
    hand = cards("T1 T6 2C 4C")
    v = play_view(3, taker=0, trick=cards("7S 9S T20"))  # seat 0 (taker) led 7S, 1 played 9S, 2 trumped
    assert play(3, hand, v) == PETIT


def test_defender_plays_low_when_the_taker_wins():
    # the taker (seat 3) led the king of spades: the defender keeps its queen
    hand = cards("DS 2S 5H 7H T4")
    v = play_view(0, taker=3, trick=cards("RS"))
    assert play(0, hand, v) == card("2S")


def test_defender_does_not_charge_when_the_taker_plays_after():
    # the partner (seat 1) led the 3 of hearts; the taker (seat 3) plays last and may win: play low
    hand = cards("DH 2H 5C T7")
    v = play_view(2, taker=3, trick=cards("3H"))
    assert play(2, hand, v) == card("2H")


def test_wins_with_the_cheapest_safe_card():
    # the taker (seat 0) led the 10 of diamonds; as the last player, the knight wins as surely as the king
    hand = cards("RD CD 2D 4C")
    v = play_view(3, taker=0, trick=cards("10D 3D 5D"))
    assert play(3, hand, v) == card("CD")


def test_taker_wins_with_the_highest_of_equivalent_cards():
    # a defender (seat 3) leads the 3 of spades to the taker (seat 0), second to play: its queen wins as surely as
    # its king (no spade out beats either, 11 spades unseen: no ruff feared); the king goes, the queen it keeps
    # is then master and worth less if ruffed later
    hand = cards("RS DS 4H T5 T8")
    v = play_view(0, taker=0, trick=cards("3S"))
    assert play(0, hand, v) == card("RS")
    # the knight under the king with the queen played: equivalent too
    hand = cards("RS CS 4H T5 T8")
    v = play_view(0, taker=0, trick=cards("3S"), played=cards("DS 2S 5S 6S"))
    assert play(0, hand, v) == card("RS")


def test_taker_keeps_its_king_over_a_card_out():
    # last to play, the taker's knight wins; the queen is out between it and the king, so the king is kept
    hand = cards("RS CS 4H T5")
    v = play_view(0, taker=0, trick=cards("3S 5S 7S"))
    assert play(0, hand, v) == card("CS")


def test_petit_played_when_it_wins_safely():
    # last to play to a plain-suit trick nobody trumped: the Petit wins it and is saved
    hand = cards("T1 T10 T15 2C")
    v = play_view(0, taker=0, trick=cards("4H 8H DH"))
    assert play(0, hand, v) == PETIT


def test_petit_played_when_the_others_are_out_of_trumps():
    # the taker (seat 1) trumps a heart lead; the two defenders after it have shown they hold no trump
    hand = cards("T1 T12 3C")
    out = 1 << 4
    v = play_view(1, taker=1, trick=cards("5H"), voids={2: out, 3: out})
    assert play(1, hand, v) == PETIT


def test_petit_kept_when_it_would_be_lost():
    # trumps led by the taker with the 15: the defender cannot overtrump; it plays the 3, not the Petit
    hand = cards("T1 T3 2C 5D")
    v = play_view(1, taker=0, trick=cards("T15"))
    assert play(1, hand, v) == card("T3")


def test_excuse_saves_a_lone_petit():
    # trumps led, the Petit is the only trump left: the Excuse goes instead
    hand = cards("T1 EX 2C 5D 7D")
    v = play_view(1, taker=0, trick=cards("T15"))
    assert play(1, hand, v) == EXCUSE


def test_excuse_not_kept_to_the_last_trick():
    # two cards left: the Excuse now, even leading, so that it never reaches the last trick
    for seat, taker in ((0, 0), (2, 0)):
        v = play_view(seat, taker, trick_no=16)
        assert play(seat, cards("EX 5C"), v) == EXCUSE
    # three cards left, the other side wins this trick: the Excuse goes on it
    v = play_view(0, taker=0, trick=cards("RC"), trick_no=15)  # defender 3 led the king of clubs
    assert play(0, cards("EX 5C T6"), v) == EXCUSE


def test_excuse_saves_a_queen_on_a_lost_trick():
    # the taker must follow hearts under the defence's king with its queen: the Excuse saves it
    hand = cards("DH EX 2C 4C 6C 8C T4 T6")
    v = play_view(0, taker=0, trick=cards("RH 4H 6H"), trick_no=3)
    assert play(0, hand, v) == EXCUSE


def test_announced_chelem_keeps_the_excuse_for_the_last_lead():
    v = play_view(0, taker=0, trick_no=16, tricks={0: 16}, chelem=1)
    assert play(0, cards("EX T21"), v) == card("T21")
    v = play_view(0, taker=0, trick_no=17, tricks={0: 17}, chelem=1)
    s, t = words(cards("EX"))
    assert H.play(0, s, t, s, t, v, PARAMS, rng()) == EXCUSE


def test_long_taker_draws_trumps_with_the_master_before_cashing_its_king():
    # eleven trumps with the Monde against the ten out: the Monde is led before the king of spades; with nine trumps
    # against twelve out the taker does not draw (draw_margin 0): it cashes the king
    hand = cards("T21 T20 T19 T18 T16 T14 T11 T8 T5 T3 T1 RS 2H 5C")
    v = play_view(0, taker=0)
    assert play(0, hand, v) == card("T21")
    assert play(0, cards("T21 T19 T18 T16 T14 T11 T8 T5 T1 RS 2H 5C"), v) == card("RS")


def trumps_played_but(out, mine) -> list[int]:
    """Every trump played but those ``out`` and the taker's own (``mine``), trump numbers 1 to 21."""
    return [FIRST_TRUMP + n - 1 for n in range(1, 22) if n not in out + mine]


def test_short_taker_draws_the_last_trumps_with_the_master_before_cashing_its_king():
    # late in the deal the taker holds four trumps, the 20 master (the Monde played), against the three out (2, 7,
    # 12): it holds as many as are out, however few, so it draws them with the 20 before the king of spades can be
    # ruffed; the player before the tenth pass (draw_min 6) cashed the king
    played = trumps_played_but(out=(2, 7, 12), mine=(20, 15, 9, 5))
    hand = cards("T20 T15 T9 T5 RS 4S 2H 5H")
    v = play_view(0, taker=0, played=played, trick_no=9)
    assert play(0, hand, v) == card("T20")
    assert play(0, hand, v, params(draw_min=6)) == card("RS")


def test_taker_keeps_its_master_trump_off_a_trick_of_a_lone_low_card():
    # the taker (seat 0), void in hearts, ruffs the 2 of hearts led by seat 3, the Monde played: the 20 is its master.
    # Three hearts are out (3, 4 and the knight), fewer than ruff_risk: the defenders after it may ruff over a low
    # trump. The trick holds 1 half-point, under secure_value 5 (the default since issue #29's twelfth pass; 2 since
    # the eleventh): a master is worth more than a low card, so the lowest trump (the 5); with secure_value 1 (the
    # player before the eleventh pass) the 20 wins it surely. Two low cards (2 half-points) are worth the 20 with
    # secure_value 2 only; a knight and a low card (6 half-points) are worth it.
    hand = cards("T20 T8 T5 3S 4S RS")
    played = cards("T21 AH 5H 6H 7H 8H 9H 10H VH DH RH")
    assert play(0, hand, play_view(0, taker=0, trick=cards("2H"), played=played)) == card("T5")
    assert play(0, hand, play_view(0, taker=0, trick=cards("2H"), played=played), params(secure_value=1)) == card("T20")
    assert play(0, hand, play_view(0, taker=0, trick=cards("2H 3H"), played=played)) == card("T5")
    assert play(0, hand, play_view(0, taker=0, trick=cards("2H 3H"), played=played), params(secure_value=2)) \
        == card("T20")
    assert play(0, hand, play_view(0, taker=0, trick=cards("CH 2H"), played=played)) == card("T20")


def test_taker_leads_low_from_its_longest_suit():
    # no king to cash, trumps too short to draw: a low card of the longest suit (to establish it), not the singleton
    hand = cards("2H 3C 5C 7C 9C DC T4 T9 T12")
    v = play_view(0, taker=0)
    assert play(0, hand, v) == card("3C")


def test_taker_keeps_the_petit_for_the_last_trick_when_nobody_has_trumps():
    # every trump but the taker's is gone: it leads its loser while it holds another trump, the Petit waits for petit
    # au bout; when a defender then leads a suit the taker is void in, it ruffs with the 7, not the Petit
    gone = [FIRST_TRUMP + n for n in range(1, 21) if n not in (6,)]
    hand = cards("T1 T7 3C")
    v = play_view(0, taker=0, played=gone + [EXCUSE], trick_no=15)
    assert play(0, hand, v) == card("3C")
    v = play_view(0, taker=0, trick=cards("4H"), played=gone + [EXCUSE] + cards("3C 4C 5C 6C"), trick_no=16)
    assert play(0, cards("T1 T7"), v) == card("T7")


def test_taker_cashes_a_king_in_a_suit_nobody_has_cut():
    hand = cards("RS 4S 2H 5H 7H T3 T6")
    v = play_view(0, taker=0)
    assert play(0, hand, v) == card("RS")


def test_taker_does_not_lead_a_king_into_a_shown_void():
    hand = cards("RS 4S 2H 5H 7H T3 T6")
    v = play_view(0, taker=0, voids={2: 1 << 3})  # defender 2 has shown a void in spades
    assert play(0, hand, v) != card("RS")


def test_defender_keeps_its_kings_and_leads_low_from_its_longest_suit():
    hand = cards("RD 4D 2C 3C 5C 9S T2")
    v = play_view(1, taker=0)
    assert play(1, hand, v) == card("2C")


def test_defender_forces_the_taker_to_ruff():
    # the taker has shown a void in clubs and still has trumps: lead a low club
    hand = cards("4D 6D 2C 3C 5C 6H 7H 8H T2")
    v = play_view(1, taker=0, voids={0: 1 << 0})
    assert play(1, hand, v) == card("2C")
    assert play(1, hand, v, params(force_taker=0)) != card("2C")


def three_view(seat, taker, played=()) -> np.ndarray:
    """``play_view`` of a seat about to lead at three players (fft3 rules)."""
    v = play_view(seat, taker, played=played)
    v[V_RULES:] = build_rules("fft3").to_kernel()
    return v


def test_defender_hunts_the_petit_with_its_highest_trump_at_three_players_only():
    # a defender (seat 1) on lead with three trumps, the Petit out: by default (hunt_petit 22 since issue #29's
    # eleventh pass) it never hunts and leads its longest suit's low card; with hunt_petit 3 (the player before), at
    # three players it leads its highest trump to hunt the Petit, at four and five players (where every form of the
    # hunt lost) still the low card
    hand = cards("T19 T11 T6 4D 6D 2H")
    hunt = params(hunt_petit=3)
    assert play(1, hand, three_view(1, taker=0)) == card("4D")
    assert play(1, hand, three_view(1, taker=0), hunt) == card("T19")
    assert play(1, hand, play_view(1, taker=0), hunt) == card("4D")
    v = play_view(1, taker=0)
    v[V_RULES:] = build_rules("fft5").to_kernel()
    s, t = words(hand)
    assert int(H.play(1, s, t, s, t, v, hunt, rng())) == card("4D")
    # the Petit already played: no hunt
    assert play(1, hand, three_view(1, taker=0, played=cards("T1 T3 T4 T5")), hunt) == card("4D")


# ------------------------------------------------------------------ card play: properties
def test_play_always_legal_on_random_hands_and_legal_subsets():
    """Random hands, random views, any non-empty subset of the hand as the legal cards: a card of it."""
    gen = np.random.default_rng(3)
    for _ in range(3000):
        n = int(gen.integers(1, 19))
        hand = [int(c) for c in gen.choice(78, n, replace=False)]
        legal = [c for c in hand if gen.random() < 0.5] or hand[:1]
        s, t = words(hand)
        ls, lt = words(legal)
        v = hand_view(seat=int(gen.integers(4)), taker=int(gen.integers(-1, 4)))
        v[V_NPLAYED] = int(gen.integers(0, 4))
        v[V_LED_SUIT] = int(gen.integers(-1, 5))
        v[V_WINNING_SEAT] = int(gen.integers(-1, 4))
        v[V_WINNING_CARD] = int(gen.integers(-1, 78))
        for k in range(4):
            v[V_TRICK + k] = int(gen.integers(-1, 78))
            v[V_VOIDS + k] = int(gen.integers(0, 32))
            v[V_TRICKS + k] = int(gen.integers(0, 18))
        v[V_PLAYED_S] = int(gen.integers(0, 1 << 56))
        v[V_PLAYED_T] = int(gen.integers(0, 1 << 22))
        v[V_TRICK_NO] = int(gen.integers(0, 18))
        v[V_CHELEM] = int(gen.integers(0, 2))
        c = int(H.play(int(v[V_SEAT]), s, t, ls, lt, v, PARAMS, rng()))
        assert c in legal, f"{_text(c)} not among {[_text(x) for x in legal]}"


def play_deal(gen, p=PARAMS, contract=2, deck=None, dealer=None):
    """A whole deal in plain Python with the heuristic at every seat, the view kept as the kernel keeps it;
    every decision checked against the reference rules. ``deck``: the cards in dealing order (seat s gets
    deck[18 s:18 s + 18], the chien the last six), else shuffled. Returns the tricks as (leader, cards)."""
    if deck is None:
        deck = [int(c) for c in gen.permutation(78)]
    hands = [set(deck[18 * s:18 * s + 18]) for s in range(4)]
    chien = set(deck[72:])
    if dealer is None:
        dealer = int(gen.integers(4))
    v = hand_view()
    v[V_DEALER] = dealer
    taker = (dealer + 1) % 4
    v[V_TAKER] = taker
    v[V_CONTRACT] = contract
    if contract <= 2:
        v[V_CHIEN_S], v[V_CHIEN_T] = words(chien)
        hands[taker] |= chien
        pool = set(hands[taker])
        discarded = []
        for i in range(6):
            v[V_TO_DISCARD] = 6 - i
            legal = discard_legal(hands[taker], 6 - i)
            c = int(H.discard(taker, *words(hands[taker]), *words(legal), v, p, rng()))
            assert c in legal
            hands[taker].remove(c)
            discarded.append(c)
        assert discard_problem(pool, discarded) is None
        v[V_DISCARD_T] = words([c for c in discarded if c >= FIRST_TRUMP])[1]
        v[V_TO_DISCARD] = 0
    v[V_SEAT] = taker
    v[V_CHELEM] = int(H.chelem(taker, *words(hands[taker]), v, p, rng()))
    leader = taker if v[V_CHELEM] else (dealer + 1) % 4  # an announced Chelem: the taker leads
    tricks = []
    for trick_no in range(18):
        v[V_TRICK_NO] = trick_no
        v[V_LEADER] = leader
        v[V_NPLAYED] = 0
        v[V_TRICK:V_TRICK + 4] = -1
        v[V_LED_SUIT] = v[V_WINNING_SEAT] = v[V_WINNING_CARD] = v[V_HIGH_TRUMP] = -1
        trick = []
        for k in range(4):
            s = (leader + k) % 4
            v[V_SEAT] = s
            legal = legal_cards(hands[s], trick)
            c = int(H.play(s, *words(hands[s]), *words(legal), v, p, rng()))
            assert c in legal, f"trick {trick_no}: seat {s} played {_text(c)}, legal {[_text(x) for x in legal]}"
            led = suit_to_follow(trick)
            if led is not None and c != EXCUSE:
                suit = 4 if c >= FIRST_TRUMP else c // 14
                if suit != led:
                    v[V_VOIDS + s] |= 1 << led
                    if suit != 4:
                        v[V_VOIDS + s] |= 1 << 4
            hands[s].remove(c)
            trick.append(c)
            v[V_TRICK + s] = c
            v[V_NPLAYED] = k + 1
            ps, pt = words([c])
            v[V_PLAYED_S] |= ps
            v[V_PLAYED_T] |= pt
            led = suit_to_follow(trick)
            if led is not None:
                w = trick_winner(trick)
                v[V_LED_SUIT] = led
                v[V_WINNING_SEAT] = (leader + w) % 4
                v[V_WINNING_CARD] = trick[w]
                trumps_in = [x for x in trick if FIRST_TRUMP <= x < EXCUSE]
                v[V_HIGH_TRUMP] = max(trumps_in) - FIRST_TRUMP if trumps_in else -1
        tricks.append((leader, trick))
        winner = (leader + trick_winner(trick)) % 4
        v[V_TRICKS + winner] += 1
        leader = winner
    assert all(not h for h in hands)
    return tricks


def test_whole_deals_every_decision_legal():
    gen = np.random.default_rng(8)
    for i in range(60):
        play_deal(gen, contract=(1, 2, 3, 4)[i % 4])


# ------------------------------------------------------------------ with the engine
def test_self_play_through_the_engine():
    """A short whole simulation: every decision is checked by the kernel; sane bidding and results."""
    engine = pytest.importorskip("tricksim.simulator.engine")
    from tricksim.simulator.games.tarot.rules import build_rules

    seats = (parse_spec("heuristic", game="tarot"),) * 4
    cfg = engine.RunConfig(game="tarot", rules=build_rules(), seats=seats, seed=1, mode="deals", count=400)
    deals = engine.run_to_tables(cfg)["deals"].to_pandas()
    played = deals[deals.void == 0]
    assert 0.3 < len(played) / len(deals) < 0.9
    assert set(played.contract) <= {1, 2, 3, 4} and (played.contract == 2).any()
    assert played.won.mean() > 0.6  # the hand count keeps to contracts the play can make
    for s in range(4):
        assert deals[f"strategy_{s}"].str.startswith("heuristic").all()


# ------------------------------------------------------------------ issue #29: the principles added
def test_taker_with_long_trumps_keeps_the_petit_rather_than_winning_with_it():
    # last to play to a heart trick nobody trumped: with 3 trumps the Petit wins it (test above); with 11 trumps
    # against 10 out the taker can draw them all, so it wins with its lowest other trump and keeps the Petit
    hand = cards("T1 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 2C")
    v = play_view(0, taker=0, trick=cards("4H 8H DH"), voids={0: 1 << 2})
    assert play(0, hand, v) == card("T12")
    assert play(0, hand, v, params(petit_au_bout=0)) == PETIT  # the switch the atlas's plainer player turns off


def test_taker_with_ten_trumps_and_the_petit_brings_it_home():
    """A chosen deal (Garde sans: no chien): the taker, seat 1, holds the Petit and the ten trumps 12 to 21
    against the ten trumps 2 to 11 out, so it can draw every trump and keep the Petit for the last trick."""
    gen = np.random.default_rng(29)
    taker_hand = cards("T1 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 RC RD RH RS 2C 2D 2H")
    rest = [c for c in gen.permutation(78).tolist() if c not in taker_hand]
    deck = rest[:18] + taker_hand + rest[18:]
    tricks = play_deal(gen, contract=3, deck=deck, dealer=0)
    leader, last = tricks[-1]
    assert PETIT in last and (leader + trick_winner(last)) % 4 == 1  # the Petit won the last trick for the taker
    assert all(PETIT not in trick for _, trick in tricks[:-1])


def test_taker_keeping_the_petit_loses_its_losers_while_it_holds_other_trumps():
    # every defender has shown it is out of trumps (the trumps 2 to 11 unseen are in the Garde sans chien nobody saw):
    # the taker with the Petit, the 12 and a low club leads the club first, so that the 12 can take the lead back and
    # the Petit comes last; without the Petit it leads its trump first (trumps before the rest)
    out = {p: 1 << 4 for p in (1, 2, 3)}
    gone = [FIRST_TRUMP + n - 1 for n in range(13, 22)] + [EXCUSE]
    v = play_view(0, taker=0, played=gone, voids=out, trick_no=15)
    assert play(0, cards("T1 T12 2C"), v) == card("2C")
    assert play(0, cards("T5 T12 2C"), v) == card("T12")


def rules_view(v, **flags):
    """``v`` with the rules record of cardavia with ``flags``."""
    v[V_RULES:] = build_rules("cardavia", [f"{k}={x}" for k, x in flags.items()]).to_kernel()
    return v


def test_excuse_spent_while_following_where_it_may_not_be_led():
    # four cards left; the taker (seat 1) led the 3 of diamonds, the partner (seat 2) wins with the king, seat 3
    # followed: seat 0, last, may play its queen or the Excuse. Where the Excuse may not be led it goes now (this
    # seat may lead the next tricks and be left with it for the last); where it may be led, the queen is charged
    hand = cards("EX DD 5C T6")
    v = play_view(0, taker=1, trick=cards("3D RD 7D"), trick_no=14)
    assert play(0, hand, rules_view(v, excuse_lead="forbidden")) == EXCUSE
    assert play(0, hand, rules_view(v, excuse_lead="allowed")) == card("DD")


@pytest.mark.parametrize("seats,expected", [(3, (0, 1, 1, 2, 3, 3, 4)), (4, (0, 0, 0, 2, 2, 2, 2)),
                                            (5, (2, 2, 2, 2, 3, 4, 4))])
def test_bidding_thresholds_move_with_the_table_size(seats, expected):
    # Prise 74, Garde 77, Garde sans 111, Garde contre 121 at four players; at three Prise 70 (the thirteenth pass),
    # Garde sans 94 and Garde contre 107; at five Prise 64, Garde 68, Garde sans 90, Garde contre 100
    # (THRESHOLD_SHIFT)
    got = tuple(int(H.contract_for(points, PARAMS, seats)) for points in (69.0, 70.0, 72.0, 85.0, 95.0, 105.0, 108.0))
    assert got == expected


def test_heuristic_runs_replay_through_the_reference_under_excuse_lead_forbidden():
    """Whole engine runs of the heuristic at four players with the Excuse not to be led: every decision legal by
    the reference, and the Excuse reaches the last trick far less often than with ``legacy`` on the same deals."""
    from reference_tarot import replay_table

    from tricksim.simulator import engine

    rules = build_rules("cardavia", ["excuse_lead=forbidden"])
    stats = {}
    for name in ("heuristic", "legacy"):
        cfg = engine.RunConfig(game="tarot", rules=rules, seats=(parse_spec(name, game="tarot"),) * 4, seed=29,
                               mode="deals", count=400, record_plays=True)
        stats[name] = replay_table(engine.run_to_tables(cfg)["deals"], rules, count=400, plays_required=True)
    assert stats["heuristic"]["played"] > 100
    assert stats["heuristic"]["excuse_in_last_trick"] * 4 < stats["legacy"]["excuse_in_last_trick"]


# ------------------------------------------------------------------ issue #29: defence
def test_defender_does_not_hunt_the_petit_into_a_taker_known_to_be_long():
    # the hand that hunts the Petit above; the taker (seat 0) showed a poignée of the ten trumps 2, 3, 4, 5, 7, 8, 9,
    # 10, 12, 13: leading the 19 would draw the defence's trumps for it, so a low diamond instead
    # (three players, where defenders hunt with hunt_petit 3, not the default)
    hand = cards("T19 T11 T6 4D 6D 2H")
    hunt = params(hunt_petit=3)
    v = three_view(1, taker=0)
    v[V_POIGNEE_T + 0] = words(cards("T2 T3 T4 T5 T7 T8 T9 T10 T12 T13"))[1]
    assert play(1, hand, v, hunt) == card("4D")
    # the same trumps known from the shown chien count too; three known trumps do not stop the hunt
    v = three_view(1, taker=0)
    v[V_CHIEN_T] = words(cards("T2 T3 T4 T5"))[1]
    assert play(1, hand, v, hunt) == card("4D")
    v[V_CHIEN_T] = words(cards("T2 T3 T4"))[1]
    assert play(1, hand, v, hunt) == card("T19")
    # known trumps already played no longer count
    v = three_view(1, taker=0, played=cards("T2 8C 9C 10C"))
    v[V_CHIEN_T] = words(cards("T2 T3 T4 T5"))[1]
    assert play(1, hand, v, hunt) == card("T19")


def test_a_trump_shown_by_a_partner_cannot_ruff_for_the_taker():
    # seat 1 (a defender) led the 5 of hearts, seat 2 played the 2; seat 3 holds the king and the 3, the taker
    # (seat 0, last) has shown a void in hearts. Every trump seat 3 has not seen is one seat 2 showed in its poignée,
    # so the taker cannot ruff: seat 3 wins with its king. Without the poignée the taker may ruff: the 3 instead.
    hand = cards("RH 3H 4C T2 T3")
    played = cards("T1 T4 T5 T6 T7 T8 T9 T10 T11 2C 3C 5C")
    v = play_view(3, taker=0, trick=cards("5H 2H"), played=played, voids={0: 1 << 2})
    assert play(3, hand, v) == card("3H")
    v[V_POIGNEE_T + 2] = words(cards("T12 T13 T14 T15 T16 T17 T18 T19 T20 T21"))[1]
    assert play(3, hand, v) == card("RH")


def test_the_taker_counts_the_chien_it_discarded():
    # the taker (seat 0) leads with the queen of diamonds; the king was in the shown chien and is not in its hand,
    # so it is in its own discard: the queen is master and is cashed (while at least king_lead_unseen are out)
    hand = cards("DD 4D 2C 3C T5 T6 T7")
    v = play_view(0, taker=0)
    assert play(0, hand, v) != card("DD")
    v[V_CHIEN_S] = words(cards("RD 7S"))[0]
    assert play(0, hand, v) == card("DD")


# ------------------------------------------------------------------ issue #29, the fifth pass
def test_excuse_goes_on_the_first_trick_the_other_side_wins():
    # trick 3, six cards left: the taker (seat 3) led the king of hearts, which this defender (seat 0) cannot beat.
    # The Excuse goes now and the 4 of hearts is kept (excuse_late 24: the first such trick); with the old
    # excuse_late 3 the 4 (half a point, below EXCUSE_SAVE) was given and the Excuse kept for later
    hand = cards("EX 4H 7C 9C T5 T8")
    v = play_view(0, taker=3, trick=cards("RH"), trick_no=2)
    assert play(0, hand, v) == EXCUSE
    assert play(0, hand, v, params(excuse_late=3)) == card("4H")
    # a partner (seat 1) wins the trick and nobody after can beat it: no Excuse, the 4 is charged (the king of
    # hearts and every higher trump played)
    played = cards("RH") + [FIRST_TRUMP + n - 1 for n in range(9, 22)]
    v = play_view(0, taker=2, trick=cards("DH"), played=played, trick_no=6)
    assert play(0, cards("EX 4H 7C 9C T5 T8"), v) == card("4H")


def five_view(seat, taker, trick) -> np.ndarray:
    """``play_view`` at five players (fft5 rules), the partner not yet known."""
    v = play_view(seat, taker)
    v[V_RULES:] = build_rules("fft5").to_kernel()
    leader = (seat - len(trick)) % 5
    v[V_LEADER] = leader
    v[V_NPLAYED] = len(trick)
    v[V_TRICK:V_TRICK + MAX_SEATS] = -1
    for i, c in enumerate(trick):
        v[V_TRICK + (leader + i) % 5] = c
    v[V_LED_SUIT] = suit_to_follow(list(trick))
    w = trick_winner(list(trick))
    v[V_WINNING_SEAT] = (leader + w) % 5
    v[V_WINNING_CARD] = trick[w]
    v[V_PLAYED_S], v[V_PLAYED_T] = words(list(trick))
    return v


def test_five_player_taker_keeps_the_petit_with_three_quarters_of_the_trumps_out():
    # the taker (seat 0), void in hearts, is last to a heart trick nobody trumped; it holds the Petit and the nine
    # trumps 13 to 21 against the eleven out (2 to 12). At five players (a partner holds some of them) 9 >= 3/4 of
    # 11: it keeps the Petit and wins with the 13; at four players (9 < 11) the Petit wins the trick
    hand = cards("T1 T13 T14 T15 T16 T17 T18 T19 T20 T21 2C")
    trick = cards("4H 8H DH 5H")
    s, t = words(hand)
    ls, lt = legal_words(hand, trick)
    assert set(legal_cards(set(hand), trick)) == set(hand) - {card("2C")}
    v = five_view(0, taker=0, trick=trick)
    v[V_VOIDS + 0] = 1 << 2
    assert int(H.play(0, s, t, ls, lt, v, PARAMS, rng())) == card("T13")
    v = play_view(0, taker=0, trick=trick[1:], voids={0: 1 << 2})
    assert play(0, hand, v) == PETIT



# ------------------------------------------------------------------ issue #29, the eighth pass
HEARTS_VOID = 1 << SUITS.index("H")  # V_VOIDS: a seat shown void in hearts


def test_defender_ruffs_high_in_front_of_the_taker():
    # a partner (seat 1) led the 5 of hearts; this defender (seat 2) has no heart and must trump, and the taker
    # (seat 3), still to play, has shown it has no heart either: it may overtrump. None of this defender's trumps is
    # sure to win (the 15 to the 21 are out), so it trumps with its highest, the 14: the taker then takes the trick
    # only with the 15 or higher (it must overtrump when it can); the 3 would let any of its trumps take it
    hand = cards("T3 T8 T14 2C 5C")
    v = play_view(2, taker=3, trick=cards("5H"), voids={3: HEARTS_VOID})
    assert play(2, hand, v) == card("T14")
    # the taker has already played (seat 0 led, the taker, seat 1, followed): no seat after can take the trick from
    # the defence, so the lowest trump wins it (the cheapest winning card)
    v = play_view(2, taker=1, trick=cards("5H 7H"), voids={3: HEARTS_VOID})
    assert play(2, hand, v) == card("T3")
    # hearts not shown void by the taker, with 11 out: it is taken to follow, and the 3 wins safely
    v = play_view(2, taker=3, trick=cards("5H"))
    assert play(2, hand, v) == card("T3")


def test_taker_ruffs_high_a_trick_worth_a_jack_or_more():
    # a defender (seat 1) led the king of hearts; the taker (seat 2) has no heart and must trump, and the defender
    # after it (seat 3) has shown no heart: it may overtrump (the 16 to the 21 are out), so no trump of the taker's
    # wins surely. The trick holds a king: the taker trumps with its highest, the 15, not the 4
    hand = cards("T4 T9 T15 2C 5C 7D")
    v = play_view(2, taker=2, trick=cards("RH"), voids={3: HEARTS_VOID})
    assert play(2, hand, v) == card("T15")
    # a low heart led (half a point, below a jack's): the lowest trump, the high ones kept
    v = play_view(2, taker=2, trick=cards("4H"), voids={3: HEARTS_VOID})
    assert play(2, hand, v) == card("T4")


# ------------------------------------------------------------------ issue #29, the twelfth pass
DIAMONDS_VOID = 1 << SUITS.index("D")  # V_VOIDS: a seat shown void in diamonds
OUT_OF_TRUMPS = 1 << 4                  # V_VOIDS: a seat shown out of trumps


def test_taker_short_in_trumps_leads_into_a_defenders_void():
    # trick 9, the taker (seat 0) leads with 3 trumps against the 18 out (no draw: fewer than are out; no king or
    # master to cash). A defender (seat 2) has shown it holds no diamond but may hold trumps: the taker leads its low
    # diamond to make it ruff (force_defenders 0: it holds no more trumps than are out), not a low club from its
    # longest suit (the player before the twelfth pass: force_defenders 22)
    hand = cards("T3 T8 T12 3C 4C 6C 8C 9C 2D 5D")
    v = play_view(0, taker=0, voids={2: DIAMONDS_VOID}, trick_no=8)
    assert play(0, hand, v) == card("2D")
    assert play(0, hand, v, params(force_defenders=22)) == card("3C")
    # the defender shown out of trumps too: a diamond led is no ruff, only a discard, so the longest suit
    v = play_view(0, taker=0, voids={2: DIAMONDS_VOID | OUT_OF_TRUMPS}, trick_no=8)
    assert play(0, hand, v) == card("3C")
    # the only diamond a knight (2.5 points): it is not given to a ruff; a jack (1.5) is
    v = play_view(0, taker=0, voids={2: DIAMONDS_VOID}, trick_no=8)
    assert play(0, cards("T3 T8 T12 3C 4C 6C 8C 9C CD 5H"), v) == card("3C")
    assert play(0, cards("T3 T8 T12 3C 4C 6C 8C 9C VD 5H"), v) == card("VD")


def test_taker_long_in_trumps_keeps_to_its_longest_suit():
    # the same hand with four trumps against the three out (21, 20, 2; the rest played): more trumps than are out, so
    # no forcing: the low club from the longest suit. No draw either: the 21 and the 20 are out, above its 14
    played = trumps_played_but(out=(21, 20, 2), mine=(14, 12, 8, 3))
    hand = cards("T3 T8 T12 T14 3C 4C 6C 8C 9C 2D")
    v = play_view(0, taker=0, played=played, voids={2: DIAMONDS_VOID}, trick_no=8)
    assert play(0, hand, v) == card("3C")
    assert play(0, hand, v, params(force_defenders=-1)) == card("2D")  # forcing with one trump more than are out


# ------------------------------------------------------------------ issue #29, the thirteenth pass
def test_petit_guarded_by_three_trumps_counts_full_but_at_five_players():
    # four players: the Petit with two other trumps, the Excuse, the kings of hearts and spades, the queen of
    # diamonds, suits of 4, 3, 3, 4 cards (no void, singleton or long suit). With petit_guard 3 the Petit counts its
    # full 19: 3 trumps x 5 + 19 + Excuse 21 + kings 2 x 8.5 + queen 3.5 = 75.5, a Prise (74) below the Garde (77);
    # with the guard 5 of the player before the thirteenth pass it counts 19 x (3 - 1) / (5 - 1) = 9.5: 66.0, a pass
    hand = "T1 T7 T12 EX RH 2H 3H 4H RS 2S 3S DD 2D 3D 2C 3C 4C 5C"
    s, t = words(cards(hand))
    assert H.hand_points(s, t, PARAMS) == pytest.approx(3 * 5 + 19 + 21 + 2 * 8.5 + 3.5)
    assert bid(hand) == 1
    assert bid(hand, p=params(petit_guard=5)) == 0
    # five players (15 cards): the guard is 2 trumps more (PETIT_GUARD_SHIFT), 5 as before the pass. The Petit with two
    # other trumps and the Excuse, no honour, suits of 3, 3, 2, 3: 15 + 9.5 + 21 = 45.5, x 1.2 = 54.6, under the
    # Prise at five (74 - 10 = 64): a pass; counted full (the guard 1 + 2 = 3), 55 x 1.2 = 66: a Prise (Garde 68)
    five = hand_view()
    five[V_RULES:] = build_rules("fft5").to_kernel()
    s, t = words(cards("T1 T7 T12 EX 2H 3H 4H 2S 3S 4S 2D 3D 5C 6C 7C"))
    assert int(H.bid(0, s, t, five, PARAMS, rng())) == 0
    assert int(H.bid(0, s, t, five, params(petit_guard=1), rng())) == 1


# ------------------------------------------------------------------ issue #29, the fourteenth pass
def test_the_taker_cashes_a_king_while_two_cards_of_its_suit_are_out():
    # four players, trick 5: the taker (seat 0) leads, with no master trump to draw with (the 7 to the 21 are out).
    # Eleven hearts have been played, so two are out (the knight and the queen) and nobody has shown a void: the
    # king of hearts is master, and with king_lead_unseen 2 it is cashed now (the two out may fall under it); with
    # the 3 of the passes before, it waits, and the taker leads low in its longest suit, clubs: the 4
    hand = cards("RH 4C 5C 6C T5 T6")
    v = play_view(0, taker=0, played=cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H VH"))
    assert play(0, hand, v) == card("RH")
    assert play(0, hand, v, params(king_lead_unseen=3)) == card("4C")
    # one heart out (the queen played too): below the 2, the king waits
    v = play_view(0, taker=0, played=cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H VH DH"))
    assert play(0, hand, v) == card("4C")
