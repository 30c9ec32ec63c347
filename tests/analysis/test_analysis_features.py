import numpy as np
import pytest

from tricksim.analysis.games.spades import features as F
from tricksim.analysis.games.spades.features import mask_of


def card(text: str) -> int:
    """'AS' -> 51, '3H' -> 27, 'LJ' -> 52, 'BJ' -> 53 (id = suit*13 + rank)."""
    if text in ("LJ", "BJ"):
        return 52 if text == "LJ" else 53
    rank = "23456789TJQKA".index(text[:-1])
    return "CDHS".index(text[-1]) * 13 + rank


def hand(*cards: str) -> int:
    return mask_of(card(c) for c in cards)


# A♠ K♠ 2♠ | 3♥ 4♥ 5♥ 6♥ | A♦ K♦ Q♦ J♦ | 2♣ 3♣  (13 cards)
H1 = hand("AS", "KS", "2S", "3H", "4H", "5H", "6H", "AD", "KD", "QD", "JD", "2C", "3C")
# no spades, void in clubs: 7 hearts + 6 diamonds
H2 = hand("2H", "3H", "4H", "5H", "6H", "7H", "8H", "2D", "3D", "4D", "5D", "6D", "7D")
# jokers: big joker, little joker, 2♠ ... plus hearts
H3 = hand("BJ", "LJ", "2S", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH")


def test_card_ids_match_contract():
    assert card("2C") == 0 and card("AC") == 12 and card("2D") == 13 and card("AS") == 51


def test_known_hand_features():
    f = F.hand_features(np.array([H1, H2, H3], dtype=np.int64))
    assert f["spades"].tolist() == [3, 0, 3]
    assert f["high_spade"].tolist() == [12, -1, 14]
    assert f["honours"].tolist() == [5, 0, 0]  # A♠ K♠ A♦ K♦ Q♦; jokers are not honours
    assert f["suit_lengths"].tolist() == [[2, 4, 4, 3], [0, 6, 7, 0], [0, 0, 10, 3]]
    assert f["shortest"].tolist() == [2, 0, 0]
    assert f["longest"].tolist() == [4, 7, 10]
    assert f["void"].tolist() == [False, True, True]
    assert F.high_spade_label(12) == "A" and F.high_spade_label(-1) == "none" and F.high_spade_label(13) == "LJ"
    # single functions agree with hand_features
    assert F.spade_count(np.array([H1])).tolist() == [3]
    assert F.high_spade(np.array([hand("2S")])).tolist() == [0]
    assert F.high_spade(np.array([hand("LJ", "3S")])).tolist() == [13]
    assert F.shortest_side(np.array([H1])).tolist() == [2]
    assert F.longest_suit(np.array([H1])).tolist() == [4]
    assert F.has_void(np.array([H1, H2])).tolist() == [False, True]
    assert F.honours(np.array([H1])).tolist() == [5]


def test_popcount_all_bits_and_fallback():
    rng = np.random.default_rng(1)
    x = rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, 2000, dtype=np.int64)
    x[:3] = [-1, 0, np.iinfo(np.int64).min]
    expected = [bin(int(v) & (2**64 - 1)).count("1") for v in x]
    assert F.popcount(x).tolist() == expected
    assert F._popcount_swar(x.view(np.uint64)).tolist() == expected
    assert F.popcount(x.reshape(40, 50)).shape == (40, 50)


def test_vectorised_over_random_deals_matches_python():
    rng = np.random.default_rng(2)
    hands = []
    for _ in range(200):
        deck = rng.permutation(54)[:13]
        hands.append(mask_of(deck))
    arr = np.array(hands, dtype=np.int64)
    f = F.hand_features(arr)
    for m, sp, hs in zip(hands, f["spades"], f["high_spade"]):
        spades = [c for c in range(54) if m >> c & 1 and (c >= 52 or c // 13 == 3)]
        assert sp == len(spades)
        assert hs == (max(c - 39 for c in spades) if spades else -1)


def test_score_situation():
    from tricksim.analysis.games.spades.nil import lead_before

    # team total after 260, hand scored 60 -> 200 before; opponents 350 after, -20 in hand -> 370 before
    a = {"total_0": np.array([260]), "score_0": np.array([60]), "total_1": np.array([350]), "score_1": np.array([-20])}
    assert lead_before(a, None, 2).tolist() == [-170] and lead_before(a, None, 1).tolist() == [170]
    b = F.score_bucket(np.array([-170, -100, -99, 0, 99, 100, 400]))
    assert b.tolist() == [0, 0, 1, 1, 1, 2, 2]
    assert [F.SCORE_BUCKETS[i] for i in b[[0, 3, 6]]] == ["behind ≥100", "close", "ahead ≥100"]
    assert F.score_bucket(np.array([-50, 50]), margin=50).tolist() == [0, 2]


def test_bid_position():
    # dealer 0: seat 1 bids first, seat 0 (the dealer) last
    assert F.bid_position(np.array([1, 2, 3, 0]), np.array([0, 0, 0, 0])).tolist() == [0, 1, 2, 3]
    assert F.bid_position(np.array([0]), np.array([3])).tolist() == [0]


@pytest.mark.parametrize("bad", [np.array([H1], dtype=np.uint64)])
def test_accepts_uint64(bad):
    assert F.spade_count(bad.astype(np.int64)).tolist() == [3]
    assert F.popcount(bad).tolist() == [13]


def test_high_spade_follows_the_deck():
    """docs/rules.md "Decks": the 2♠ tops the naturals in the deuce decks, the 2♦ is a spade of joker_deuce_deuce
    below it; the codes keep the A♠ at 12 and the labels name the card."""
    h = np.array([hand("2S", "AS"), hand("2D", "KS"), hand("2D", "3C"), hand("LJ", "2S")])
    assert F.high_spade(h).tolist() == [12, 11, -1, 13]                      # standard: A, K, none, LJ
    assert F.high_spade(h, "joker_deuce_ace").tolist() == [13, 11, -1, 14]     # 2♠ over the A; LJ above it
    assert F.high_spade(h, "joker_deuce_deuce").tolist() == [14, 13, 13, 15]  # 2♠ > 2♦ > A; LJ
    assert [F.high_spade_label(c, "joker_deuce_deuce") for c in (14, 13, 12, 15, 16)] == ["2♠", "2♦", "A", "LJ", "BJ"]
    assert [F.high_spade_label(c, "joker_deuce_ace") for c in (13, 12, 1, 14)] == ["2♠", "A", "3", "LJ"]
    assert F.high_spade_label(13) == "LJ"
    assert F.spade_count(h, "joker_deuce_deuce").tolist() == [2, 2, 1, 2]
    assert F.spade_count(h).tolist() == [2, 1, 0, 2]
