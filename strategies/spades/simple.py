"""``simple``: the engine's baseline heuristic; deterministic and cheap.

Bid: expected tricks from aces, guarded kings, twice-guarded queens, top
spades, spades beyond the third and ruffable short suits, rounded; Nil when
it is below 1/2 and no spade is above the 9. At a table other than four players of 13 cards (cutthroat3:
three of 17) a player's share of the tricks, H/n for hands of H cards at n players, differs from 13/4: the
estimate (fitted to 13 cards at four) gets :data:`TABLE_SHARE_GAIN` of that difference. Play: duck under a
partner who is winning (no partner in cutthroat), otherwise win as cheaply as possible, otherwise throw
the lowest card; lead the lowest card of the longest non-spade suit. As a Nil
bidder: the highest card that loses. In Partnership Suicide (``bid_rule=suicide``: exactly one partner of each
team bids Nil) the team's first bidder bids Nil when its estimate is below :data:`SUICIDE_NIL_BELOW`, about
the median of dealt hands (so the partner with the weaker hand bids Nil, as far as one hand can tell), else its
number; the second bids Nil when the first did not, else its number. In another bidding variant (``bid_rule``
whiz, mirror): the legal bid nearest its bid (``phases.nearest_legal_bid``). The draw of two-handed Spades: keep a spade or a
queen, king or ace (DRAW_KEEP_RANK), discard anything else.
"""
import numpy as np
from numba import njit

from tricksim.simulator.bits import highest_bit, lowest_bit, popcount
from tricksim.simulator.games.spades.cards import SPADES
from tricksim.simulator.games.spades.decks import BEATING, JOKER_ACE, RANK, SPADES_HIGH_FIRST, SUIT_MASKS
from tricksim.simulator.games.spades.kernel import compile_in
from tricksim.simulator.games.spades.phases import (
    BID_FREE,
    BID_SUICIDE,
    HAND_TRICKS,
    ZERO_BID_ZERO,
    legal_bids,
    nearest_legal_bid,
)
from tricksim.simulator.games.spades.policy import (
    BID_SIG,
    BLIND_NIL_SIG,
    EXCHANGE_DRAW,
    EXCHANGE_GIVE_FIRST,
    EXCHANGE_SIG,
    PLAY_SIG,
    R_BID_RULE,
    R_DECK,
    R_PARTNERSHIPS,
    R_SEATS,
    R_ZERO_BID,
    V_BID,
    V_DRAW_CARD,
    V_EXCHANGE_N,
    V_EXCHANGE_ROLE,
    V_LED_SUIT,
    V_MIN_BID,
    V_NIL_ALLOWED,
    V_NPLAYED,
    V_RULES,
    V_TRICK,
    V_TRICKS,
    V_WINNING_CARD,
    V_WINNING_SEAT,
)
from tricksim.strategies.spades.meta.simple import STRATEGY  # noqa: F401 (this module's strategy, registered in meta/simple.py)

P_NIL, P_FORCE_NIL = 0, 1
NIL_BELOW = 0.5  # Nil when the expected tricks are below this (and no spade above the 9)
BID_SHIFT = 0.5  # added before rounding: contracts made 81 %, games about 15 hands (cardems self-play)
NINE_OF_SPADES = 46
# the tricks a bid gains for each trick a player's share at the table (H/n) exceeds four players' 13/4: the
# estimate falls that short with three players of 17 cards (self-play, docs/strategy-evidence.md "Cutthroat for
# three"); other tables are extrapolated
TABLE_SHARE_GAIN = 0.5
FOUR_SHARE = 13 / 4
# Suicide: the team's first bidder bids Nil below this estimate; the median of estimate_tricks over 20,000 dealt
# hands of the standard deck is 2.08 (seed 1), so it bids Nil with about half its hands
SUICIDE_NIL_BELOW = 2.0
DRAW_KEEP_RANK = 10  # the draw (two-handed): a side card is kept from the queen up (RANK: 0 = '2' ... 12 = 'A')


@njit(cache=True)
def estimate_tricks(hand, deck=0):
    """Expected tricks: aces, guarded kings (3/4), twice-guarded queens (1/3),
    top spades of the deck (jokers, promoted 2s), spades beyond the third, and short side suits that can be
    ruffed."""
    spades = hand & SUIT_MASKS[deck, SPADES]
    n_spades = popcount(spades)
    est = 0.0
    # conditions as 0/1 products, not branches: the hand decides them, so a branch is a coin toss
    # (adding 0.0 leaves the float unchanged, so the sum is the same in the same order)
    for i in range(4):  # the top spades held, each with enough guards to survive
        est += np.float64(((spades >> SPADES_HIGH_FIRST[deck, i]) & 1) * (n_spades > i))
    est += 0.8 * max(0, n_spades - 3)
    spare = max(0, n_spades - 2)  # spades left over for ruffing
    for s in range(3):
        m = hand & SUIT_MASKS[deck, s]
        n = popcount(m)
        r = m >> (13 * s + 10)  # bits: queen, king, ace
        est += np.float64((r >> 2) & 1)
        est += 0.75 * np.float64(((r >> 1) & 1) * (2 <= n) * (n <= 4))
        est += 0.33 * np.float64((r & 1) * (3 <= n) * (n <= 4))
        ruff = (n <= 1) * (spare > 0)
        est += 0.5 * np.float64(ruff)
        spare -= ruff
    return est


@njit(cache=True, inline="always")
def cheapest(legal, deck=0):
    """Lowest-ranked card, non-spades before spades (the lower suit on equal ranks)."""
    # branch-free: the smallest key rank * 4 + suit over the side suits (rank 13 = none held),
    # as which suits are held is a coin toss for the branch predictor (kernel 0.94-0.97)
    side = legal & ~SUIT_MASKS[deck, SPADES]
    best = np.int64(13 * 4)
    for s in range(3):
        rank = lowest_bit(((side >> (13 * s)) & 0x1FFF) | 0x2000)
        best = min(best, rank * 4 + s)
    return (best & 3) * 13 + (best >> 2) if best < 13 * 4 else lowest_spade(legal, deck)


@njit(cache=True, inline="always")
def lowest_spade(spades, deck):
    """The lowest spade of ``spades`` in the deck's order (the lowest id in the standard and joker_ace decks)."""
    if deck <= JOKER_ACE:
        return lowest_bit(spades)
    for i in range(15, -1, -1):
        c = SPADES_HIGH_FIRST[deck, i]
        if c >= 0 and (spades >> c) & 1:
            return c
    return np.int64(-1)


@njit(cache=True, inline="always")
def highest_spade(spades, deck):
    """The highest spade of ``spades`` in the deck's order (the highest id in the standard and joker_ace decks)."""
    if deck <= JOKER_ACE:
        return highest_bit(spades)
    for i in range(16):
        c = SPADES_HIGH_FIRST[deck, i]
        if c >= 0 and (spades >> c) & 1:
            return c
    return np.int64(-1)


@njit(cache=True, inline="always")
def cheapest_winner(legal, win_card, deck):
    """Cheapest card of ``legal`` that beats ``win_card`` (non-spades first), or -1."""
    winners = legal & BEATING[deck, win_card & 63]
    if winners == 0:
        return -1
    side = winners & ~SUIT_MASKS[deck, SPADES]
    return lowest_bit(side) if side else lowest_spade(winners, deck)


@njit(cache=True, inline="always")
def nil_card(legal, view, deck):
    """A Nil bidder's card: the highest one that loses the trick, else the lowest."""
    if view[V_NPLAYED] == 0:
        return cheapest(legal, deck)
    win_card = view[V_WINNING_CARD]
    best = -1
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if not (BEATING[deck, win_card & 63] >> c) & 1 and (best < 0 or RANK[deck, c] > RANK[deck, best]):
            best = c
    return best if best >= 0 else cheapest(legal, deck)


@njit(cache=True, inline="always")
def partner_nil_live(seat, view):
    """The partner bid Nil (or Blind Nil) and has taken no trick yet (with partnerships; not a zero_bid=zero 0)."""
    partner = seat ^ 2
    return (view[V_BID + partner] == 0 and view[V_TRICKS + partner] == 0 and view[V_RULES + R_PARTNERSHIPS] != 0
            and view[V_RULES + R_ZERO_BID] != ZERO_BID_ZERO)


@njit(cache=True, inline="always")
def cover_lead(legal, deck):
    """A lead over a partner's Nil: the highest side card (the lowest suit on equal ranks), else the highest
    spade."""
    side = legal & ~SUIT_MASKS[deck, SPADES]
    if side == 0:
        return highest_spade(legal, deck)
    best = -1
    for s in range(3):
        m = (side >> (13 * s)) & 0x1FFF
        if m and (best < 0 or highest_bit(m) > best % 13):
            best = 13 * s + highest_bit(m)
    return best


@njit(cache=True, inline="always")
def cover_follow(legal, view, partner, deck):
    """A follow over a partner's live Nil, or -1 for the ordinary play: over a partner who is winning, the cheapest
    card that beats it; before a partner still to play, the highest led-suit card that wins, else the lowest
    winning spade (a ruff); -1 when the partner is already beaten or no card wins."""
    win_card = view[V_WINNING_CARD]
    if view[V_WINNING_SEAT] == partner:
        return cheapest_winner(legal, win_card, deck)
    if view[V_TRICK + partner] >= 0:  # the partner has played and is beaten: the Nil is safe in this trick
        return -1
    winners = legal & BEATING[deck, win_card & 63]
    led = winners & SUIT_MASKS[deck, view[V_LED_SUIT]]
    if led:
        return highest_spade(led, deck) if view[V_LED_SUIT] == SPADES else highest_bit(led)
    return lowest_spade(winners, deck) if winners else -1


@njit(BLIND_NIL_SIG, cache=True)
def blind_nil(seat, view, params, rng):
    return np.int64(0)


@njit(cache=True)
def free_bid(hand, view, params):
    if params[P_FORCE_NIL] > 0 and view[V_NIL_ALLOWED] == 1:
        return np.int64(0)
    deck = view[V_RULES + R_DECK]
    est = estimate_tricks(hand, deck)
    high_spades = hand & BEATING[deck, NINE_OF_SPADES]  # the spades above the 9♠
    if params[P_NIL] > 0 and view[V_NIL_ALLOWED] == 1 and est < NIL_BELOW and high_spades == 0:
        return np.int64(0)
    n = view[V_RULES + R_SEATS]
    if n == 4 or n == 0:  # four players (a view without rules: seats 0): 13 cards, the estimate as fitted
        return np.int64(min(13, max(np.int64(est + BID_SHIFT + 0.5), view[V_MIN_BID])))
    tricks = HAND_TRICKS[n & 7]
    est += TABLE_SHARE_GAIN * (tricks / n - FOUR_SHARE)
    return np.int64(min(tricks, max(np.int64(est + BID_SHIFT + 0.5), view[V_MIN_BID])))


@njit(cache=True)
def suicide_nil(seat, hand, view, params):
    """Suicide, the team's first bidder (the partner has not bid; Nil legal): Nil when the estimate is below
    SUICIDE_NIL_BELOW."""
    return (view[V_BID + (seat ^ 2)] < 0 and view[V_NIL_ALLOWED] == 1 and params[P_NIL] > 0
            and estimate_tricks(hand, view[V_RULES + R_DECK]) < SUICIDE_NIL_BELOW)


@njit(BID_SIG, cache=True)
def bid(seat, hand, view, params, rng):
    rule = view[V_RULES + R_BID_RULE]
    if rule == BID_SUICIDE and suicide_nil(seat, hand, view, params):
        return np.int64(0)
    b = free_bid(hand, view, params)
    if rule != BID_FREE:  # a bidding variant: the legal bid nearest the free one (Suicide: the partner's Nil
        b = nearest_legal_bid(legal_bids(view, hand), b)  # forces Nil, a partner's Nil a number)
    return b


@njit(EXCHANGE_SIG, cache=True)
def exchange(seat, hand, view, params, rng):
    """Partner passes its lowest cards to the Blind Nil bidder; the bidder passes its highest back. The draw
    (two-handed): keep a spade or a side card from the queen up."""
    deck = view[V_RULES + R_DECK]
    if view[V_EXCHANGE_ROLE] == EXCHANGE_DRAW:
        c = view[V_DRAW_CARD]
        keep = (SUIT_MASKS[deck, SPADES] >> c) & 1 or RANK[deck, c] >= DRAW_KEEP_RANK
        return np.int64(1) << c if keep else np.int64(0)
    out = np.int64(0)
    for _ in range(view[V_EXCHANGE_N]):
        best = -1
        m = hand & ~out
        while m:
            c = lowest_bit(m)
            m &= m - 1
            if best < 0:
                best = c
            elif view[V_EXCHANGE_ROLE] == EXCHANGE_GIVE_FIRST:
                if RANK[deck, c] < RANK[deck, best]:
                    best = c
            elif RANK[deck, c] > RANK[deck, best]:
                best = c
        out |= np.int64(1) << best
    return out


@njit(cache=True, inline="always")
def play_in_deck(seat, hand, legal, view, deck):
    """``play`` in the deck of code ``deck`` (decks.py)."""
    if view[V_BID + seat] == 0 and view[V_RULES + R_ZERO_BID] != ZERO_BID_ZERO:  # with zero_bid=zero, no Nil
        return nil_card(legal, view, deck)
    cover = partner_nil_live(seat, view)
    if view[V_NPLAYED] == 0:
        if cover:
            return cover_lead(legal, deck)
        # lead: lowest card of the longest non-spade suit we may lead
        best_suit = -1
        best_len = 0
        for s in range(3):
            n = popcount(legal & SUIT_MASKS[deck, s])
            if n > best_len:
                best_len = n
                best_suit = s
        if best_suit < 0:
            return lowest_spade(legal, deck)
        return lowest_bit(legal & SUIT_MASKS[deck, best_suit])
    if cover:
        c = cover_follow(legal, view, seat ^ 2, deck)
        if c >= 0:
            return c
    ws = view[V_WINNING_SEAT]
    if ws == seat ^ 2 and view[V_RULES + R_PARTNERSHIPS] != 0:  # a partner (none in cutthroat) is winning
        return cheapest(legal, deck)
    c = cheapest_winner(legal, view[V_WINNING_CARD], deck)  # one load, not two in a row (docs/performance.md P16)
    return c if c >= 0 else cheapest(legal, deck)


@njit(PLAY_SIG, cache=True)
def play(seat, hand, legal, view, params, rng):
    # one copy of the play code for every deck: a second copy with the standard deck's code a constant (P58) ran
    # fewer instructions, but the kernel inlines the play twice, which nearly doubled its compile time (P70)
    return play_in_deck(seat, hand, legal, view, view[V_RULES + R_DECK])


# self-play gets a kernel with this strategy compiled in (docs/performance.md P4)
compile_in(__name__, blind_nil, bid, play)
