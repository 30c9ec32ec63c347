"""Vectorised hand features from 64-bit card masks.

Card ids follow the output contract: ``c = suit * 13 + rank`` with suits
♣ ♦ ♥ ♠ = 0..3 and rank 0 = '2' ... 12 = 'A'; the little joker is 52 and the
big joker 53, both spades ranked above the ace. A hand is an ``int64`` with
bit ``c`` set for each card held. Every function here takes numpy arrays of
masks (any shape) and returns arrays of the same shape; no Python loop runs
over hands.

The constants are local on purpose: ``simulator.cards`` imports Numba, and the
analysis package must stay importable without it.
"""
from __future__ import annotations

import numpy as np

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
    "score_lead_before",
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


def suit_lengths(held) -> np.ndarray:
    """Cards per suit, shape ``held.shape + (4,)``, suits ♣ ♦ ♥ ♠ (jokers count as spades)."""
    h = np.asarray(held, dtype=np.int64)[..., None]
    return popcount(h & SUIT_MASKS)


def spade_count(held) -> np.ndarray:
    """Number of spades (jokers included)."""
    return popcount(np.asarray(held, dtype=np.int64) & SUIT_MASKS[SPADES])


def high_spade(held) -> np.ndarray:
    """Rank of the highest spade: 0 = '2' ... 12 = 'A', 13 = little joker, 14 = big joker; -1 = no spade."""
    field = (np.asarray(held, dtype=np.int64) >> SPADE_FIELD_SHIFT) & _SPADE_FIELD
    # frexp is exact here: the field is < 2**15
    _, exp = np.frexp(field.astype(np.float64))
    return (exp - 1).astype(np.int8)


def high_spade_label(code: int) -> str:
    """Label of a :func:`high_spade` code: 'none', '2' ... 'A', 'LJ', 'BJ'."""
    return "none" if code < 0 else RANK_NAMES[code]


def honours(held) -> np.ndarray:
    """Number of aces, kings and queens held, all suits (jokers not counted)."""
    return popcount(np.asarray(held, dtype=np.int64) & HONOUR_MASK)


def shortest_side(held) -> np.ndarray:
    """Length of the shortest side suit (♣ ♦ ♥)."""
    return suit_lengths(held)[..., :3].min(axis=-1)


def longest_suit(held) -> np.ndarray:
    """Length of the longest suit (spades included)."""
    return suit_lengths(held).max(axis=-1)


def has_void(held) -> np.ndarray:
    """True where the hand is void in at least one of the four suits."""
    return (suit_lengths(held) == 0).any(axis=-1)


def hand_features(held) -> dict[str, np.ndarray]:
    """All hand features of an array of masks, computed in one pass.

    Keys: ``spades``, ``high_spade``, ``honours``, ``shortest`` (shortest side
    suit), ``longest``, ``void`` (bool), ``suit_lengths`` (…, 4).
    """
    held = np.asarray(held, dtype=np.int64)
    lengths = suit_lengths(held)
    return {
        "spades": lengths[..., SPADES],
        "high_spade": high_spade(held),
        "honours": honours(held),
        "shortest": lengths[..., :3].min(axis=-1),
        "longest": lengths.max(axis=-1),
        "void": (lengths == 0).any(axis=-1),
        "suit_lengths": lengths,
    }


# ------------------------------------------------------------ score situation
SCORE_BUCKETS = ("behind ≥100", "close", "ahead ≥100")


def score_lead_before(total_team, score_team, total_opp, score_opp) -> np.ndarray:
    """Team's lead over the opponents *before* the hand.

    The Parquet rows hold running totals after the hand and the hand's score,
    so the lead before = (total − score) − (opp total − opp score). In hands
    mode every hand starts fresh: the lead is 0.
    """
    t = np.asarray(total_team, dtype=np.int64) - np.asarray(score_team, dtype=np.int64)
    o = np.asarray(total_opp, dtype=np.int64) - np.asarray(score_opp, dtype=np.int64)
    return t - o


def score_bucket(lead, margin: int = 100) -> np.ndarray:
    """0 = behind by ≥ margin, 1 = close, 2 = ahead by ≥ margin (labels in :data:`SCORE_BUCKETS`)."""
    lead = np.asarray(lead)
    return (1 + (lead >= margin).astype(np.int8) - (lead <= -margin).astype(np.int8)).astype(np.int8)


def score_bucket_labels(margin: int = 100) -> tuple[str, str, str]:
    return (f"behind ≥{margin}", "close", f"ahead ≥{margin}")


def bid_position(seat, dealer) -> np.ndarray:
    """Bidding order of ``seat``: 0 = first to bid (left of the dealer) … 3 = the dealer."""
    return ((np.asarray(seat, dtype=np.int64) - np.asarray(dealer, dtype=np.int64) - 1) % 4).astype(np.int8)
