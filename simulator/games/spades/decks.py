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
a top spade may not leave it (``REMOVABLE``). With three players (``seats=3``) one more card leaves it, so
that 51 cards deal 17 to each (the ``three_removes`` flag, ``THIRD_CARD``).

The kernel reads the tables below by the deck's code (its index in ``DECKS``): ``SUIT_OF[deck, card]``,
``SUIT_MASKS[deck, suit]`` and ``BEATING[deck, card]`` (the cards that beat ``card`` winning a trick).
Rows 0 and 1 are the same: the jokers are spades above the ace whether dealt or not.

The rank space (``RANK_SPACE``, one more row of those tables, after the decks'): card ids in which ids grow with
rank inside every suit, as the solver (``dd.py``) and the players' card play count (the highest card the highest
bit). The standard and ``joker_ace`` decks' cards keep their ids there; a deuce deck's promoted 2s take the ids
above the A♠ in its order (52 up), its jokers the ids above them (up to 55, ids no deck deals).
``TO_RANKED[deck, card]`` renames a deck's card into the rank space, ``FROM_RANKED[deck, id]`` back, both read
at ``& 63`` (-1, no card, stays -1); ``RANKED_MOVES[deck]`` the renamed cards as pairs (card, id) and
``RENAMED[deck]``, ``RENAMED_TO[deck]`` the masks of those cards and ids, so that a mask is renamed in as many
steps as the deck has such cards. ``cards.py`` takes its tables from the rank space's
row. Plain numpy (no numba): the rules import this module.
"""
from __future__ import annotations

import numpy as np

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3  # as cards.py (which takes its tables from here); no numba here
LITTLE_JOKER, BIG_JOKER = 52, 53

DECKS = ("standard", "joker_ace", "joker_deuce_ace", "joker_deuce_deuce")
STANDARD, JOKER_ACE, JOKER_DEUCE_ACE, JOKER_DEUCE_DEUCE = range(4)

TWO_OF_CLUBS, TWO_OF_DIAMONDS, TWO_OF_SPADES, ACE_OF_SPADES = 0, 13, 39, 51
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


#: three_removes value -> the card that leaves a three-player deck (auto: rules.SpadesRules.three_removed)
THIRD_CARD = {"2c": 0, "2h": 26, "2d": 13, "3c": 1}


def deck_cards(deck: str, joker_removes: str, third: int | None = None) -> list[int]:
    """The deck's card ids in ascending order: 52 cards in every deck, less the card ``third`` (three players)."""
    if deck == "standard":
        cards = list(range(52))
    else:
        removed = REMOVED[joker_removes]
        cards = [c for c in range(52) if c not in removed] + [LITTLE_JOKER, BIG_JOKER]
    return [c for c in cards if c != third]


RANK_SPACE = len(DECKS)  # the row of SUIT_OF, SUIT_MASKS and BEATING after the decks': the rank space
#: the rank space's spades, low to high: joker_ace's, then two ids no deck deals (a deuce deck's top spades)
RANKED_SPADES = (*SPADE_ORDER["joker_ace"], 54, 55)


def _tables():
    n = len(DECKS) + 1
    # 64 entries a row, read at ``card & 63`` (cards.py); ids 54..63 are no card: spades beaten by nothing
    suit_of = np.array([[min(c // 13, SPADES) for c in range(64)]] * n, dtype=np.int64)
    suit_masks = np.array([[((1 << 13) - 1) << (13 * s) for s in range(4)]] * n, dtype=np.int64)
    suit_masks[:, SPADES] |= (1 << LITTLE_JOKER) | (1 << BIG_JOKER)  # the jokers are spades (dealt or not)
    beating = np.zeros((n, 64), dtype=np.int64)
    suit_masks[RANK_SPACE, SPADES] = sum(1 << c for c in RANKED_SPADES)
    for d, name in enumerate((*DECKS, "rank space")):
        order = RANKED_SPADES if d == RANK_SPACE else SPADE_ORDER["joker_ace" if name == "standard" else name]
        if name == "joker_deuce_deuce":
            suit_of[d, TWO_OF_DIAMONDS] = SPADES
            suit_masks[d, DIAMONDS] &= ~(1 << TWO_OF_DIAMONDS)
            suit_masks[d, SPADES] |= 1 << TWO_OF_DIAMONDS
        spade_mask = int(suit_masks[d, SPADES])
        for c in range(56 if d == RANK_SPACE else 54):
            suit = int(suit_of[d, c])
            if suit == SPADES:
                beating[d, c] = sum(1 << h for h in order[order.index(c) + 1:])
            else:
                same = int(suit_masks[d, suit]) & ~((2 << c) - 1)  # ids grow with rank inside a side suit
                beating[d, c] = same | spade_mask
    return suit_of, suit_masks, beating


SUIT_OF, SUIT_MASKS, BEATING = _tables()


def _spade_tables():
    """``SPADES_HIGH_FIRST[deck]``: the deck's spades from the highest down (-1 after the last), and ``RANK[deck,
    card]``: 0 = '2' ... 12 = 'A' for a side card; a spade's place in the deck's order, with the A♠ at 12 (the
    promoted 2s and the jokers above it). The standard deck's rows are those of ``joker_ace`` (the jokers are not
    dealt): ``cards.card_rank`` and the top spades the players have always read."""
    n = len(DECKS)
    high_first = np.full((n, 16), -1, dtype=np.int64)
    rank = np.array([[c % 13 for c in range(64)]] * n, dtype=np.int64)
    for d, name in enumerate(DECKS):
        order = SPADE_ORDER["joker_ace" if name == "standard" else name]
        high_first[d, :len(order)] = order[::-1]
        offset = 12 - order.index(ACE_OF_SPADES)
        for i, c in enumerate(order):
            rank[d, c] = i + offset
    return high_first, rank


SPADES_HIGH_FIRST, RANK = _spade_tables()


def _ranked_tables():
    """``TO_RANKED``, ``FROM_RANKED`` and ``RANKED_MOVES`` (the module's docstring): a deck's spades, low to high,
    take the rank space's spade ids from its lowest spade up (the 2♦ of joker_deuce_deuce leaves the diamonds)."""
    n = len(DECKS)
    to_ranked = np.array([list(range(63)) + [-1]] * n, dtype=np.int64)
    from_ranked = to_ranked.copy()
    moves = np.zeros((n, 4, 2), dtype=np.int64)  # unused pairs (0, 0): card 0 (never renamed) to itself
    for d, name in enumerate(DECKS):
        order = SPADE_ORDER["joker_ace" if name == "standard" else name]
        k = 0
        for c, r in zip(order, RANKED_SPADES[RANKED_SPADES.index(order[0]):]):
            to_ranked[d, c] = r
            from_ranked[d, r] = c
            if c != r:
                moves[d, k] = (c, r)
                k += 1
    renamed = np.array([sum(1 << int(c) for c, r in moves[d] if c != r) for d in range(n)], dtype=np.int64)
    renamed_to = np.array([sum(1 << int(r) for c, r in moves[d] if c != r) for d in range(n)], dtype=np.int64)
    return to_ranked, from_ranked, moves, renamed, renamed_to


TO_RANKED, FROM_RANKED, RANKED_MOVES, RENAMED, RENAMED_TO = _ranked_tables()
