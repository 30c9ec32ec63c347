"""French Tarot cards: ids, points and the two-word hand masks.

Card ids (the output contract, docs/output.md): a suit card is ``suit * 14 + rank`` (suits ♣ ♦ ♥ ♠ =
0..3, rank 0 = ace .. 9 = ten, 10 jack, 11 knight, 12 queen, 13 king); trump ``n`` (1..21) is
``55 + n``; the Excuse 77. A card set in the data is ``lo | hi << 64``.

Inside the kernels a set is two words split at the first trump instead: ``suits`` (bit ``c`` =
card ``c`` < 56) and ``trumps`` (bit ``n - 1`` = trump ``n``, bit 21 = the Excuse). So the
card of a bit is its position in the 78-bit number either way, suits never mix with trumps,
and a higher trump is a higher bit. ``split``/``join`` convert.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from tricksim.simulator.bits import lowest_bit

N_CARDS = 78
N_SUIT_CARDS = 56
SUIT_CARDS = 14
FIRST_TRUMP = 56            # card id of trump 1 (the Petit)
PETIT, MONDE, EXCUSE = 56, 76, 77
EXCUSE_BIT = 21             # in the trumps word
TRUMPS_ONLY = (1 << 21) - 1  # trumps word: the 21 trumps without the Excuse
OUDLERS_T = 1 | (1 << 20) | (1 << 21)  # trumps word: Petit, Monde, Excuse
RANK_KING, RANK_QUEEN, RANK_KNIGHT, RANK_JACK = 13, 12, 11, 10
SUIT_MASK = (1 << SUIT_CARDS) - 1
KINGS_S = sum(1 << (s * 14 + RANK_KING) for s in range(4))
SUIT_NAMES = "♣♦♥♠"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "C", "D", "R")


def _half_points(card: int) -> int:
    """A card's value in half-points (RULES.md 2.1): oudlers and kings 9, queens 7, knights 5,
    jacks 3, every other card 1; the deck totals 182."""
    if card >= FIRST_TRUMP:
        return 9 if card in (PETIT, MONDE, EXCUSE) else 1
    return {RANK_KING: 9, RANK_QUEEN: 7, RANK_KNIGHT: 5, RANK_JACK: 3}.get(card % SUIT_CARDS, 1)


HALF_POINTS = np.array([_half_points(c) for c in range(N_CARDS)], dtype=np.int64)
assert int(HALF_POINTS.sum()) == 182


def split(lo: int, hi: int) -> tuple[int, int]:
    """The kernel's (suits, trumps) words of the data's (lo, hi) words (Python ints, any sign)."""
    x = (int(lo) & (2**64 - 1)) | (int(hi) & (2**64 - 1)) << 64
    return x & ((1 << 56) - 1), x >> 56


def join(suits: int, trumps: int) -> tuple[int, int]:
    """The data's (lo, hi) words, as signed int64 values, of the kernel's (suits, trumps)."""
    x = int(suits) | int(trumps) << 56
    lo, hi = x & (2**64 - 1), x >> 64
    return lo - (1 << 64) if lo >= 1 << 63 else lo, hi


@njit(cache=True, inline="always")
def join_words(suits, trumps):
    """``join`` for the kernels: (lo, hi) as int64 (bit 63 of lo is trump 8, so lo may be negative)."""
    return suits | (trumps << 56), trumps >> 8


@njit(cache=True, inline="always")
def pop_card(suits, trumps):
    """(card, suits, trumps): the lowest card of a non-empty set of the kernels' two words and the two words without
    it; ``while suits | trumps: c, suits, trumps = pop_card(suits, trumps)`` visits the set in card order."""
    if suits != 0:
        return np.int64(lowest_bit(suits)), suits & (suits - 1), trumps
    return np.int64(FIRST_TRUMP + lowest_bit(trumps)), suits, trumps & (trumps - 1)


def cards_in(lo: int, hi: int) -> list[int]:
    """The card ids of a data set, ascending."""
    x = (int(lo) & (2**64 - 1)) | (int(hi) & (2**64 - 1)) << 64
    return [c for c in range(N_CARDS) if x >> c & 1]


def mask_of(cards) -> tuple[int, int]:
    """The data's (lo, hi) of card ids."""
    x = 0
    for c in cards:
        x |= 1 << int(c)
    return join(x & ((1 << 56) - 1), x >> 56)


def name(card: int) -> str:
    if card == EXCUSE:
        return "Excuse"
    if card >= FIRST_TRUMP:
        return f"T{card - 55}"
    return RANK_NAMES[card % SUIT_CARDS] + SUIT_NAMES[card // SUIT_CARDS]
