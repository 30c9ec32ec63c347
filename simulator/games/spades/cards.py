"""Spades cards: ids, suits, ranks and the trick-winning tables.

A hand is an ``int64`` whose bit ``c`` is set when the hand holds card ``c``
(``tricksim.simulator.bits``). Card ids: ``c = suit * 13 + rank`` with suits clubs, diamonds, hearts,
spades = 0..3 and rank 0 = '2' ... 12 = 'A'; the little joker is 52 and the
big joker 53 (both count as spades, ranked above the ace).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from tricksim.simulator.games.spades.decks import BEATING as _DECK_BEATING
from tricksim.simulator.games.spades.decks import (  # noqa: F401 (the card constants, named here as before)
    BIG_JOKER,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JOKER_ACE,
    LITTLE_JOKER,
    SPADES,
)
from tricksim.simulator.games.spades.decks import SUIT_MASKS as _DECK_SUIT_MASKS
from tricksim.simulator.games.spades.decks import SUIT_OF as _DECK_SUIT_OF

SUITS = "CDHS"
RANKS = "23456789TJQKA"

# Card tables of 64 entries, read at ``card & 63``: an index the compiler sees is in range, so
# no test for a negative index lies on the path from card to card (-1, "no card", reads entry 63).
# They are decks.py's row of the joker_ace deck (the standard deck's too: its jokers are never dealt).
SUIT_MASKS = _DECK_SUIT_MASKS[JOKER_ACE].copy()  # jokers are spades
SUIT_OF = _DECK_SUIT_OF[JOKER_ACE].copy()  # jokers are spades
BEATING = _DECK_BEATING[JOKER_ACE].copy()  # ids grow with rank inside a suit; jokers top the spades
STANDARD_DECK = np.int64((1 << 52) - 1)


@njit(cache=True)
def card_suit(card):
    """Suit of a Spades card id (jokers are spades)."""
    return SUIT_OF[card & 63]


@njit(cache=True)
def beating(winning):
    """Mask of the cards that beat ``winning``, the card now winning a Spades trick: one load
    instead of two suit lookups and a comparison (docs/performance.md P18)."""
    return BEATING[winning & 63]


def card_name(card: int) -> str:
    """'AS', 'TD', '2C', 'LJ', 'BJ'."""
    card = int(card)
    if card == LITTLE_JOKER:
        return "LJ"
    if card == BIG_JOKER:
        return "BJ"
    if not 0 <= card < 52:
        raise ValueError(f"card id {card} is not a Spades card (allowed 0..53)")
    return RANKS[card % 13] + SUITS[card // 13]


def parse_card(text: str) -> int:
    """Inverse of :func:`card_name` ('10S' is accepted for 'TS')."""
    t = text.strip().upper().replace("10", "T")
    if t in ("LJ", "BJ"):
        return LITTLE_JOKER if t == "LJ" else BIG_JOKER
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(f"bad card {text!r}: use rank 2-9,T,J,Q,K,A and suit C,D,H,S (e.g. 'QS'), or LJ/BJ")
    return SUITS.index(t[1]) * 13 + RANKS.index(t[0])



@njit(cache=True)
def beats(card, winning):
    """True when ``card`` played later in a Spades trick beats ``winning``."""
    return (beating(winning) >> card) & 1 != 0


@njit(cache=True)
def card_rank(card):
    """0 = '2' ... 12 = 'A', 13 = little joker, 14 = big joker."""
    if card >= 52:
        return card - 39
    return card % 13
