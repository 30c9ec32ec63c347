"""The Spades decks: which cards each deck holds, which are spades, and the spades' order.

The one place for the decks (docs/rules.md "Decks"). Card ids stay those of ``cards.py`` in every deck:
0..51 the standard cards, 52 the little joker, 53 the big joker (54, 55 unused). A deck changes only
which cards are dealt and which cards are spades, in what order. Every deck holds 52 cards:

* ``standard``: 2♠ .. A♠ are the spades;
* ``joker_ace``: big joker > little joker > A♠ > K♠ ... 2♠ (today's ``jokers=true``);
* ``joker_deuce_ace``: big joker > little joker > 2♠ > A♠ > K♠ ... 3♠;
* ``joker_deuce_deuce``: big joker > little joker > 2♠ > 2♦ > A♠ > K♠ ... 3♠; the 2♦ is a spade
  (for following suit, breaking and trumping).

With a joker deck two standard cards leave it (the ``joker_removes`` flag); a card the deck promotes to
a top spade may not leave it (``removable``).

The kernel reads the tables below by the deck's code (its index in ``DECKS``): ``SUIT_OF[deck, card]``,
``SUIT_MASKS[deck, suit]`` and ``BEATING[deck, card]`` (the cards that beat ``card`` winning a trick).
Rows 0 and 1 are the tables of ``cards.py`` (where the jokers are spades above the ace), so the standard
and ``joker_ace`` decks play exactly as before the deck flag.
"""
from __future__ import annotations

import numpy as np

from tricksim.simulator.games.spades.cards import BEATING as _BEATING
from tricksim.simulator.games.spades.cards import BIG_JOKER, LITTLE_JOKER, SPADES
from tricksim.simulator.games.spades.cards import SUIT_MASKS as _SUIT_MASKS
from tricksim.simulator.games.spades.cards import SUIT_OF as _SUIT_OF

DECKS = ("standard", "joker_ace", "joker_deuce_ace", "joker_deuce_deuce")
STANDARD, JOKER_ACE, JOKER_DEUCE_ACE, JOKER_DEUCE_DEUCE = range(4)

TWO_OF_DIAMONDS, TWO_OF_SPADES, ACE_OF_SPADES = 13, 39, 51
_NATURAL_SPADES = list(range(39, 52))  # 2♠ .. A♠, low to high

#: each deck's spades, low to high
SPADE_ORDER: dict[str, tuple[int, ...]] = {
    "standard": tuple(_NATURAL_SPADES),
    "joker_ace": (*_NATURAL_SPADES, LITTLE_JOKER, BIG_JOKER),
    "joker_deuce_ace": (*_NATURAL_SPADES[1:], TWO_OF_SPADES, LITTLE_JOKER, BIG_JOKER),
    "joker_deuce_deuce": (*_NATURAL_SPADES[1:], TWO_OF_DIAMONDS, TWO_OF_SPADES, LITTLE_JOKER, BIG_JOKER),
}

#: joker_removes value -> the two standard cards that leave a joker deck
REMOVED = {"2h2d": (26, 13), "2c2d": (0, 13), "2c2h": (0, 26)}
#: the joker_removes values a deck allows (the removed cards may not be spades it promotes), default first
REMOVABLE = {
    "standard": ("2h2d", "2c2d", "2c2h"),  # unused: no card leaves the standard deck
    "joker_ace": ("2h2d", "2c2d", "2c2h"),
    "joker_deuce_ace": ("2h2d", "2c2d", "2c2h"),
    "joker_deuce_deuce": ("2c2h",),
}


def deck_cards(deck: str, joker_removes: str) -> list[int]:
    """The deck's card ids in ascending order (52 cards in every deck)."""
    if deck == "standard":
        return list(range(52))
    removed = REMOVED[joker_removes]
    return [c for c in range(52) if c not in removed] + [LITTLE_JOKER, BIG_JOKER]


def _tables():
    n = len(DECKS)
    suit_of = np.tile(_SUIT_OF, (n, 1))
    suit_masks = np.tile(_SUIT_MASKS, (n, 1))
    beating = np.tile(_BEATING, (n, 1))
    for d, name in enumerate(DECKS):
        if name in ("standard", "joker_ace"):
            continue  # the tables of cards.py
        order = SPADE_ORDER[name]
        if name == "joker_deuce_deuce":
            suit_of[d, TWO_OF_DIAMONDS] = SPADES
            suit_masks[d, 1] &= ~(1 << TWO_OF_DIAMONDS)
            suit_masks[d, SPADES] |= 1 << TWO_OF_DIAMONDS
        spade_mask = int(suit_masks[d, SPADES])
        for c in range(54):
            suit = int(suit_of[d, c])
            if suit == SPADES:
                higher = order[order.index(c) + 1:] if c in order else ()
                beating[d, c] = sum(1 << h for h in higher)
            else:
                same = int(suit_masks[d, suit]) & ~((2 << c) - 1)  # ids grow with rank inside a side suit
                beating[d, c] = same | spade_mask
    return suit_of, suit_masks, beating


SUIT_OF, SUIT_MASKS, BEATING = _tables()
