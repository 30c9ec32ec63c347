"""Vectorised hand features from 64-bit card masks.

Card ids follow the output contract: ``c = suit * 13 + rank`` with suits
♣ ♦ ♥ ♠ = 0..3 and rank 0 = '2' ... 12 = 'A'; the little joker is 52 and the
big joker 53, both spades ranked above the ace. A hand is an ``int64`` with
bit ``c`` set for each card held. Every function here takes numpy arrays of
masks (any shape) and returns arrays of the same shape; no Python loop runs
over hands.

The constants are local on purpose: ``simulator.cards`` imports Numba, and the
analysis package must stay importable without it (the decks' tables come from the numba-free
``simulator/games/spades/decks.py``).
"""
from __future__ import annotations

import numpy as np

from tricksim.simulator.errors import AnalysisError
from tricksim.simulator.games.spades.decks import DECKS, JOKER_ACE, RANK, SPADES_HIGH_FIRST
from tricksim.simulator.games.spades.decks import SUIT_MASKS as DECK_SUIT_MASKS

__all__ = [
    "RANK_NAMES",
    "SCORE_BUCKETS",
    "SPADE_FIELD_SHIFT",
    "SUITS",
    "SUIT_MASKS",
    "bid_position",
    "hand_features",
    "has_void",
    "high_spade",
    "high_spade_label",
    "honours",
    "longest_suit",
    "mask_of",
    "popcount",
    "score_bucket",
    "score_bucket_labels",
    "shortest_side",
    "spade_count",
    "suit_lengths",
]

SUITS = "♣♦♥♠"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "LJ", "BJ")
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
LITTLE_JOKER, BIG_JOKER = 52, 53
_SUIT_BITS = (1 << 13) - 1
SUIT_MASKS = np.array([_SUIT_BITS << (13 * s) for s in range(4)], dtype=np.int64)
SUIT_MASKS[SPADES] |= (1 << LITTLE_JOKER) | (1 << BIG_JOKER)  # jokers are spades
#: spades occupy bits 39..53: ranks 0..12, then little joker (13) and big joker (14)
SPADE_FIELD_SHIFT = 13 * SPADES
_SPADE_FIELD = (1 << 15) - 1
#: A, K, Q of every suit (jokers are not counted)
HONOUR_MASK = np.int64(sum(1 << (13 * s + r) for s in range(4) for r in (10, 11, 12)))

_HAS_BITWISE_COUNT = hasattr(np, "bitwise_count")


def mask_of(cards) -> int:
    """Mask of card ids (test and example helper)."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def _as_u64(x) -> np.ndarray:
    x = np.asarray(x)
    if x.dtype == np.uint64:
        return x
    return np.asarray(x, dtype=np.int64).view(np.uint64)


def popcount(x) -> np.ndarray:
    """Set bits per element of an int64/uint64 array (all 64 bits, sign bit included).

    Uses ``np.bitwise_count`` (NumPy >= 2.0) on the unsigned view — on signed
    input NumPy counts the bits of the absolute value — else a SWAR popcount.
    """
    u = _as_u64(x)
    if _HAS_BITWISE_COUNT:
        return np.bitwise_count(u).astype(np.int8)
    return _popcount_swar(u)


def _popcount_swar(u: np.ndarray) -> np.ndarray:
    """Branch-free 64-bit popcount (Hacker's Delight 5-2) on a uint64 array."""
    u = u.astype(np.uint64, copy=True)
    u -= (u >> np.uint64(1)) & np.uint64(0x5555555555555555)
    u = (u & np.uint64(0x3333333333333333)) + ((u >> np.uint64(2)) & np.uint64(0x3333333333333333))
    u = (u + (u >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    with np.errstate(over="ignore"):
        u = (u * np.uint64(0x0101010101010101)) >> np.uint64(56)
    return u.astype(np.int8)


def _deck_code(deck: str) -> int:
    if deck not in DECKS:
        raise AnalysisError(f"unknown deck {deck!r}: allowed {' | '.join(DECKS)}")
    return DECKS.index(deck)


def suit_lengths(held, deck: str = "standard") -> np.ndarray:
    """Cards per suit, shape ``held.shape + (4,)``, suits ♣ ♦ ♥ ♠ (jokers count as spades; so does the 2♦ of
    ``deck=joker_deuce_deuce``: the deck's suits, simulator/games/spades/decks.py)."""
    h = np.asarray(held, dtype=np.int64)[..., None]
    return popcount(h & DECK_SUIT_MASKS[_deck_code(deck)])


def spade_count(held, deck: str = "standard") -> np.ndarray:
    """Number of spades (jokers and a deck's promoted 2s included)."""
    return popcount(np.asarray(held, dtype=np.int64) & DECK_SUIT_MASKS[_deck_code(deck), SPADES])


def high_spade(held, deck: str = "standard") -> np.ndarray:
    """The highest spade in the deck's order, by its place with the A♠ at 12: 0 = '2' ... 12 = 'A', then the
    cards the deck ranks above the ace (standard and ``joker_ace``: 13 = little joker, 14 = big joker; the deuce
    decks: their promoted 2s, then the jokers: :func:`high_spade_label`); -1 = no spade."""
    code = _deck_code(deck)
    held = np.asarray(held, dtype=np.int64)
    if code <= JOKER_ACE:  # ids grow with the order: the highest bit of the spade field
        field = (held >> SPADE_FIELD_SHIFT) & _SPADE_FIELD
        # frexp is exact here: the field is < 2**15
        _, exp = np.frexp(field.astype(np.float64))
        return (exp - 1).astype(np.int8)
    out = np.full(held.shape, -1, np.int8)
    for c in SPADES_HIGH_FIRST[code][::-1]:  # low to high: the last spade held wins
        if c >= 0:
            out = np.where((held >> int(c)) & 1 == 1, np.int8(RANK[code, c]), out)
    return out


def high_spade_label(code: int, deck: str = "standard") -> str:
    """Label of a :func:`high_spade` code of ``deck``: 'none', '2' ... 'A', then 'LJ', 'BJ' (in the deuce decks
    first '2♠' and, in ``joker_deuce_deuce``, '2♦' below it)."""
    if code < 0:
        return "none"
    d = _deck_code(deck)
    card = next((int(c) for c in SPADES_HIGH_FIRST[d] if c >= 0 and RANK[d, c] == code), -1)
    if card == LITTLE_JOKER or card == BIG_JOKER:
        return RANK_NAMES[13 + card - LITTLE_JOKER]
    if d > JOKER_ACE and card % 13 == 0:  # a promoted 2
        return "2" + SUITS[card // 13]
    return RANK_NAMES[code] if d <= JOKER_ACE else RANK_NAMES[card % 13]


def honours(held) -> np.ndarray:
    """Number of aces, kings and queens held, all suits (jokers not counted)."""
    return popcount(np.asarray(held, dtype=np.int64) & HONOUR_MASK)


def shortest_side(held, deck: str = "standard") -> np.ndarray:
    """Length of the shortest side suit (♣ ♦ ♥)."""
    return suit_lengths(held, deck)[..., :3].min(axis=-1)


def longest_suit(held, deck: str = "standard") -> np.ndarray:
    """Length of the longest suit (spades included)."""
    return suit_lengths(held, deck).max(axis=-1)


def has_void(held, deck: str = "standard") -> np.ndarray:
    """True where the hand is void in at least one of the four suits."""
    return (suit_lengths(held, deck) == 0).any(axis=-1)


def hand_features(held, deck: str = "standard") -> dict[str, np.ndarray]:
    """All hand features of an array of masks (cards of ``deck``), computed in one pass.

    Keys: ``spades``, ``high_spade``, ``honours``, ``shortest`` (shortest side
    suit), ``longest``, ``void`` (bool), ``suit_lengths`` (…, 4).
    """
    held = np.asarray(held, dtype=np.int64)
    lengths = suit_lengths(held, deck)
    return {
        "spades": lengths[..., SPADES],
        "high_spade": high_spade(held, deck),
        "honours": honours(held),
        "shortest": lengths[..., :3].min(axis=-1),
        "longest": lengths.max(axis=-1),
        "void": (lengths == 0).any(axis=-1),
        "suit_lengths": lengths,
    }


# ------------------------------------------------------------ score situation
SCORE_BUCKETS = ("behind ≥100", "close", "ahead ≥100")


def score_bucket(lead, margin: int = 100) -> np.ndarray:
    """0 = behind by ≥ margin, 1 = close, 2 = ahead by ≥ margin (labels in :data:`SCORE_BUCKETS`)."""
    lead = np.asarray(lead)
    return (1 + (lead >= margin).astype(np.int8) - (lead <= -margin).astype(np.int8)).astype(np.int8)


def score_bucket_labels(margin: int = 100) -> tuple[str, str, str]:
    return (f"behind ≥{margin}", "close", f"ahead ≥{margin}")


def bid_position(seat, dealer, n_seats: int = 4) -> np.ndarray:
    """Bidding order of ``seat`` at a table of ``n_seats``: 0 = first to bid (left of the dealer) …
    ``n_seats - 1`` = the dealer."""
    return ((np.asarray(seat, dtype=np.int64) - np.asarray(dealer, dtype=np.int64) - 1) % n_seats).astype(np.int8)
