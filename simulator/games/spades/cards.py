"""Spades cards: ids, suits, ranks and the trick-winning tables.

A hand is an ``int64`` whose bit ``c`` is set when the hand holds card ``c``
(``tricksim.simulator.bits``). Card ids: ``c = suit * 13 + rank`` with suits clubs, diamonds, hearts,
spades = 0..3 and rank 0 = '2' ... 12 = 'A'; the little joker is 52 and the
big joker 53 (both count as spades, ranked above the ace). The tables below and ``card_rank`` are those of the
rank space (decks.py), whose ids grow with rank inside a suit: the standard and joker_ace decks' cards as they
are, a deuce deck's once renamed (``ranked_mask``, ``ranked_card``), its promoted 2s then above the A♠.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from tricksim.simulator.games.spades.decks import BEATING as _DECK_BEATING
from tricksim.simulator.games.spades.decks import (  # noqa: F401 (the card constants, named here as before)
    BIG_JOKER,
    CLUBS,
    DIAMONDS,
    FROM_RANKED,
    HEARTS,
    JOKER_ACE,
    JOKER_DEUCE_ACE,
    LITTLE_JOKER,
    RANK_SPACE,
    RANKED_MOVES,
    RENAMED,
    RENAMED_TO,
    SPADES,
    TO_RANKED,
)
from tricksim.simulator.games.spades.decks import SUIT_MASKS as _DECK_SUIT_MASKS
from tricksim.simulator.games.spades.decks import SUIT_OF as _DECK_SUIT_OF

SUITS = "CDHS"
RANKS = "23456789TJQKA"

# Card tables of 64 entries, read at ``card & 63``: an index the compiler sees is in range, so
# no test for a negative index lies on the path from card to card (-1, "no card", reads entry 63).
# They are decks.py's row of the rank space: the cards of the standard and joker_ace decks as they are, a deuce
# deck's cards once renamed (``ranked_mask``, ``ranked_card``; ``deck_card`` names one back).
SUIT_MASKS = _DECK_SUIT_MASKS[RANK_SPACE].copy()  # jokers (and the ids above them) are spades
SUIT_OF = _DECK_SUIT_OF[RANK_SPACE].copy()  # jokers are spades
BEATING = _DECK_BEATING[RANK_SPACE].copy()  # ids grow with rank inside a suit; jokers top the spades
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
def ranked_card(card, deck):
    """Card ``card`` of the deck with code ``deck`` (decks.py) in the rank space; -1 stays -1."""
    return TO_RANKED[deck, card & 63]


@njit(cache=True)
def deck_card(ranked, deck):
    """The deck's card of rank-space id ``ranked`` (``ranked_card`` undone); -1 stays -1."""
    return FROM_RANKED[deck, ranked & 63]


@njit(cache=True)
def ranked_mask(mask, deck):
    """The cards of ``mask`` (of the deck with code ``deck``) in the rank space: as they are but for the deck's
    renamed cards, one step each (none in the standard and joker_ace decks: callers skip those, ``renames``)."""
    out = mask & ~RENAMED[deck]
    for i in range(RANKED_MOVES.shape[1]):
        out |= ((mask >> RANKED_MOVES[deck, i, 0]) & 1) << RANKED_MOVES[deck, i, 1]
    return out


@njit(cache=True)
def deck_mask(ranked, deck):
    """The deck's cards of the rank-space mask ``ranked`` (``ranked_mask`` undone)."""
    out = ranked & ~RENAMED_TO[deck]
    for i in range(RANKED_MOVES.shape[1]):
        out |= ((ranked >> RANKED_MOVES[deck, i, 1]) & 1) << RANKED_MOVES[deck, i, 0]
    return out


@njit(cache=True)
def renames(deck):
    """The deck with code ``deck`` has cards the rank space renames (the deuce decks)."""
    return deck >= JOKER_DEUCE_ACE


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
