"""The phases of a Tarot deal: the rules, one step at a time, over the deal's state arrays.

Every rule of a deal lives here, once (RULES.md Part 2, docs/rules.md): the deal and Petit sec,
who may bid what, the discard, the poignée shown, the legal cards, what a card does to the trick,
the Excuse, the count and the settlement. The batch kernel (``kernel.play_deal``) inlines them
and asks the seat policies at each decision.

Hands are two words per seat (cards.py): ``suits[4]`` and ``trumps[4]``. The trick in progress
is held as values the driver passes along: ``led`` (the suit to follow: 0..3, 4 trumps, -1 none
yet), ``win_seat``, ``win_card`` and ``high`` (the highest trump's bit, -1 none).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from tricksim.simulator.bits import popcount
from tricksim.simulator.games.tarot import scoring
from tricksim.simulator.games.tarot.cards import (
    EXCUSE,
    EXCUSE_BIT,
    FIRST_TRUMP,
    KINGS_S,
    N_CARDS,
    OUDLERS_T,
    SUIT_CARDS,
    SUIT_MASK,
    TRUMPS_ONLY,
)
from tricksim.simulator.games.tarot.policy import (
    V_BID,
    V_DEALER,
    V_HIGH_TRUMP,
    V_LEADER,
    V_LED_SUIT,
    V_NPLAYED,
    V_PLAYED_S,
    V_PLAYED_T,
    V_TAKER,
    V_TRICK,
    V_TRICK_NO,
    V_VOIDS,
    V_WINNING_CARD,
    V_WINNING_SEAT,
    VIEW_SIZE,
)
from tricksim.simulator.games.tarot.rules import CHOICES
from tricksim.simulator.rng import STREAM_DEAL, shuffle, stream_key

N_SEATS = 4
HAND_CARDS = 18
CHIEN_CARDS = 6
N_TRICKS = 18
TRUMP_LED = 4
EXCUSE_T = 1 << EXCUSE_BIT
DISCARD_FREE = CHOICES["discard_trumps"].index("free")
POIGNEE_AS_DEALT = CHOICES["poignee_hand"].index("as_dealt")
POIGNEE_EXCUSE_ALWAYS = CHOICES["poignee_excuse"].index("always")
FOUR_KINGS_NEVER = CHOICES["poignee_four_kings"].index("never")
EXCUSE_LAST_ANNOUNCED_ONLY = CHOICES["excuse_last_trick"].index("announced_only")
EXCUSE_LEAD_FORBIDDEN = CHOICES["excuse_lead"].index("forbidden")
PRISE, GARDE, GARDE_SANS, GARDE_CONTRE = 1, 2, 3, 4
VOID_NONE, VOID_ALL_PASS, VOID_PETIT_SEC = 0, 1, 2

settle = njit(cache=True)(scoring.settle)


# ------------------------------------------------------------------------ deal
@njit(inline="always", cache=True)
def deal(seed, deal_id, deck, suits, trumps, chien, rng):
    """Shuffle the 78 cards on the deal's stream (``rng`` is scratch for it) and deal them (``distribute``)."""
    rng[0] = stream_key(seed, deal_id, 0, STREAM_DEAL)
    for i in range(N_CARDS):
        deck[i] = i
    shuffle(rng, deck, N_CARDS)
    distribute(deck, suits, trumps, chien)


@njit(inline="always", cache=True)
def distribute(deck, suits, trumps, chien):
    """Deal the cards in the order of ``deck``: positions 18s..18s+17 to seat s, the last six to the
    chien (``chien[0]`` suits, ``chien[1]`` trumps)."""
    for s in range(N_SEATS):
        suits[s] = 0
        trumps[s] = 0
    chien[0] = 0
    chien[1] = 0
    for p in range(N_CARDS):
        c = deck[p]
        s = p // HAND_CARDS  # 4 = the chien
        if c < FIRST_TRUMP:
            if s < N_SEATS:
                suits[s] |= np.int64(1) << c
            else:
                chien[0] |= np.int64(1) << c
        elif s < N_SEATS:
            trumps[s] |= np.int64(1) << (c - FIRST_TRUMP)
        else:
            chien[1] |= np.int64(1) << (c - FIRST_TRUMP)


@njit(inline="always", cache=True)
def petit_sec(trumps):
    """Some hand's only trump is the Petit, without the Excuse (RULES.md 2.2)."""
    for s in range(N_SEATS):
        if trumps[s] == 1:
            return True
    return False


@njit(inline="always", cache=True)
def start_view(view, dealer):
    for i in range(VIEW_SIZE):
        view[i] = 0
    view[V_DEALER] = dealer
    view[V_TAKER] = -1
    for s in range(N_SEATS):
        view[V_BID + s] = -1
        view[V_TRICK + s] = -1
    view[V_LED_SUIT] = -1
    view[V_WINNING_SEAT] = -1
    view[V_WINNING_CARD] = -1
    view[V_HIGH_TRUMP] = -1


# --------------------------------------------------------------------- bidding
@njit(inline="always", cache=True)
def bidder(dealer, k):
    """The seat that speaks ``k``-th: the player right of the dealer first (seats go in order of play)."""
    return (dealer + 1 + k) % N_SEATS


@njit(inline="always", cache=True)
def bid_is_legal(b, highest):
    """Pass, or a contract above the highest so far."""
    return b == 0 or (highest < b <= GARDE_CONTRE)


# --------------------------------------------------------------------- discard
@njit(inline="always", cache=True)
def discard_legal(rules, suits, trumps, to_discard):
    """The cards the taker may discard next, as (suits, trumps), with ``to_discard`` still to go: never a
    king or an oudler; with discard_trumps=exact a trump only while the discardable suit cards left are
    fewer than the cards still to discard (RULES.md 2.9)."""
    plain = suits & ~KINGS_S
    low_trumps = trumps & TRUMPS_ONLY & ~OUDLERS_T
    if rules.discard_trumps == DISCARD_FREE or popcount(plain) < to_discard:
        return plain, low_trumps
    return plain, np.int64(0)


# --------------------------------------------------------------------- poignée
@njit(inline="always", cache=True)
def lowest(mask, n):
    """The ``n`` lowest set bits of ``mask``."""
    out = np.int64(0)
    for _ in range(n):
        b = mask & -mask
        out |= b
        mask ^= b
    return out


@njit(inline="always", cache=True)
def poignee_shown(rules, base, has_excuse, extra, n):
    """The trumps word a player shows for a poignée of ``n`` cards, 0 if it cannot (docs/rules.md).

    ``base``: the trumps the poignée is judged on; ``has_excuse``: it holds the Excuse; ``extra``: the
    discarded trumps the four-kings exception lets the taker add to a triple (0 when it does not apply).
    Of the trumps the engine shows the lowest; the Excuse replaces a trump only where the rules allow.
    """
    k = popcount(base)
    if has_excuse and k >= n - 1 and (k == n - 1 or rules.poignee_excuse == POIGNEE_EXCUSE_ALWAYS):
        return lowest(base, n - 1) | EXCUSE_T
    if k >= n:
        return lowest(base, n)
    if n == 15 and extra != 0 and popcount(base | extra) >= 15:
        return lowest(base | extra, 15)
    return np.int64(0)


@njit(inline="always", cache=True)
def poignee_basis(rules, s, taker, contract, trumps, dealt_trumps, suits, discard_t):
    """(base trumps, has the Excuse, the four-kings extra) for seat ``s``'s poignée, before its first card."""
    with_discard = s == taker and contract <= GARDE
    base = trumps[s] & TRUMPS_ONLY
    if with_discard and rules.poignee_hand == POIGNEE_AS_DEALT:
        base = dealt_trumps & TRUMPS_ONLY
    extra = np.int64(0)
    if with_discard and rules.poignee_four_kings != FOUR_KINGS_NEVER and (suits[s] & KINGS_S) == KINGS_S:
        extra = discard_t & TRUMPS_ONLY
    return base, (trumps[s] & EXCUSE_T) != 0, extra


# ------------------------------------------------------------------------ play
@njit(inline="always", cache=True)
def legal_cards(rules, suits, trumps, led, high, leading):
    """The cards a seat holding (suits, trumps) may play, as (suits, trumps) (RULES.md 2.6, 2.9).

    ``led``: the suit to follow (-1 none yet: leading, or only the Excuse played); ``high``: the
    highest trump's bit in the trick (-1 none); ``leading``: the seat leads the trick.
    """
    excuse = trumps & EXCUSE_T
    if led < 0:
        if leading and rules.excuse_lead == EXCUSE_LEAD_FORBIDDEN and (suits != 0 or trumps != excuse):
            return suits, trumps & TRUMPS_ONLY
        return suits, trumps
    if led < TRUMP_LED:
        follow = suits & (SUIT_MASK << (SUIT_CARDS * led))
        if follow != 0:
            return follow, excuse
    t = trumps & TRUMPS_ONLY
    if t == 0:  # neither the suit nor a trump: any card
        return suits, excuse
    if high >= 0:
        over = t & ~((np.int64(2) << high) - 1)
        if over != 0:
            t = over
    return np.int64(0), t | excuse


@njit(inline="always", cache=True)
def apply_card(view, suits, trumps, s, c, led, win_seat, win_card, high):
    """Seat ``s`` plays card ``c``: it leaves the hand and enters the trick. Returns the trick's new
    (led, win_seat, win_card, high). The Excuse never wins here (the last-trick exception is the
    kernel's ``excuse_wins_last``)."""
    k = view[V_NPLAYED]
    view[V_TRICK + s] = c
    view[V_NPLAYED] = k + 1
    if c < FIRST_TRUMP:
        suits[s] &= ~(np.int64(1) << c)
        view[V_PLAYED_S] |= np.int64(1) << c
        u = c // SUIT_CARDS
        if led < 0:
            led, win_seat, win_card = u, s, c
        elif led != u:  # void in the suit led and out of trumps (else it had to trump)
            view[V_VOIDS + s] |= (np.int64(1) << led) | (np.int64(1) << TRUMP_LED)
        elif high < 0 and c > win_card:
            win_seat, win_card = s, c
    else:
        b = c - FIRST_TRUMP
        trumps[s] &= ~(np.int64(1) << b)
        view[V_PLAYED_T] |= np.int64(1) << b
        if c != EXCUSE:
            if led < 0:
                led = TRUMP_LED
            elif led < TRUMP_LED:
                view[V_VOIDS + s] |= np.int64(1) << led
            if b > high:
                high, win_seat, win_card = b, s, c
    view[V_LED_SUIT] = led
    view[V_WINNING_SEAT] = win_seat
    view[V_WINNING_CARD] = win_card
    view[V_HIGH_TRUMP] = high
    return led, win_seat, win_card, high


@njit(inline="always", cache=True)
def start_trick(view, t, leader):
    view[V_TRICK_NO] = t
    view[V_LEADER] = leader
    view[V_NPLAYED] = 0
    view[V_LED_SUIT] = -1
    view[V_WINNING_SEAT] = -1
    view[V_WINNING_CARD] = -1
    view[V_HIGH_TRUMP] = -1
    for s in range(N_SEATS):
        view[V_TRICK + s] = -1
