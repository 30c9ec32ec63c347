"""``heuristic``: a score-aware Spades player built from standard bidding and card-play rules.

Every behaviour is a named parameter (see PARAMS at the end), so studies can sweep it.

Bidding
    A fractional trick estimate, rounded: spade length and the top spades of
    the deck, side aces, guarded kings (``king_value``) and queens
    (``queen_value``), less in long suits, and the ruffing value of voids,
    singletons and doubletons while low spades are left to ruff with
    (``void_value``, ``singleton_value``, ``doubleton_value``). The weights
    were fitted by least squares to the tricks this player takes in
    self-play. ``bid_adjust`` is added before rounding (negative = safer
    contracts; the fitted optimum is below zero because a set costs far more
    than a bag), ``cover_bid`` when the partner bid Nil, ``opp_nil_bid`` when
    an opponent did; within ``near_target`` points of the target the estimate
    is shaded by ``target_caution``. The result respects ``V_MIN_BID`` and 13.
    Nil (``nil``) when allowed and the hand's danger score is at most
    ``nil_threshold``: unguarded high cards, spade length and high spades,
    with low spades and short side suits as relief; its terms were fitted by
    logistic regression to the Nils made and lost in self-play. No Nil beside
    a partner's Nil unless ``nil_over_nil``.

Blind Nil
    From the score only (the policy never gets a hand): when ``blind_nil`` is
    on, the team trails by at least ``blind_nil_margin`` and the partner has
    not bid Nil.

Exchange (Blind Nil)
    The partner gives its lowest side-suit cards (spades only when nothing
    else is left: a Nil bidder's low spades get forced to ruff late in the
    hand, measured 56 % of games against passing low spades); the Blind Nil
    bidder gives back its most dangerous cards (high spades, then aces and
    kings, those in short suits first).

Draw (two-handed Spades)
    Keep the card shown when its value (``draw_value``: a spade 0.5 and up
    by rank, a side queen, king or ace by rank, a lower side card next to
    nothing) is at least the mean value of the cards this seat has not seen,
    which is what the next card, kept in its place, is worth on average.

Play
    Card counting from the public ``V_PLAYED`` masks (a card is a master when
    no outstanding card of its suit beats it) and shown voids from ``V_VOID``
    (which opponent may ruff). Leading: cash side-suit masters the opponents
    cannot ruff, draw trumps with a master spade and length, feed partner's
    ruffs, else lead from short suits (to ruff later) and never away from a
    lone king or queen. Following: second hand low (but cash a master when
    ``second_hand_cash``), third hand high (lowest of equal cards), win with
    the cheapest winning card, stay low under a partner who wins securely.
    Partner's Nil (``cover_nil``): lead high, overtake a partner who is
    winning, play high before the partner. Opponent's Nil (``attack_nil``):
    lead low in suits the Nil bidder holds, stay under a Nil bidder who is
    winning the trick, keep the trick low (never ruff) while the Nil bidder is
    still to play. Own Nil: the highest card that still loses; void, discard
    the most dangerous card; forced to win, win as the last player with the
    highest card.
    The deck's order throughout: a deuce deck's cards are renamed into the rank
    space first (cards.py, ``play``), so a promoted 2 is the master spade it is
    and the 2♦ of joker_deuce_deuce no diamond; the exchange reads the deck's
    suits and ranks.
    Cutthroat (``partnerships`` false in the rules record): no partner. The
    seat across is one more opponent: no cover bid or covering play, its Nil
    attacked like any opponent's, its shown voids counted among the
    opponents' ruffs; the contract is the seat's own bid and the opponents'
    need the sum of the three others'; Blind Nil against the best other score.
    ``bag_mode`` once the team's contract is made: ``take`` keeps winning;
    ``avoid`` ducks (the highest card that loses, shedding winners);
    ``set`` (default, the strongest in head-to-head tests) keeps winning while
    the opponents can still be set, else avoids; ``set_take`` keeps winning
    while they can be set, else takes. ``bag_guard``: within that many bags
    of the bag limit, overtricks are avoided in every mode (except while
    setting the opponents).

Cost: each decision is a handful of bitmask operations and loops over at most
four suits or thirteen cards; nothing is allocated. ``bid`` and ``play`` read
the view and parameters in straight-line code and pass scalars on, which lets
Numba drop the reference counting of the arrays.
"""
import numpy as np
from numba import njit

from tricksim.simulator.bits import highest_bit, lowest_bit, popcount
from tricksim.simulator.borrow import borrowed
from tricksim.simulator.games.spades.cards import (
    SPADES,
    SUIT_MASKS,
    beating,
    card_rank,
    card_suit,
    deck_card,
    ranked_card,
    ranked_mask,
    renames,
)
from tricksim.simulator.games.spades.decks import BEATING as DECK_BEATING
from tricksim.simulator.games.spades.decks import RANK as DECK_RANK
from tricksim.simulator.games.spades.decks import SPADES_HIGH_FIRST
from tricksim.simulator.games.spades.decks import SUIT_MASKS as DECK_SUIT_MASKS
from tricksim.simulator.games.spades.decks import SUIT_OF as DECK_SUIT_OF
from tricksim.simulator.games.spades.kernel import compile_in
from tricksim.simulator.games.spades.phases import (
    BID_FREE,
    BID_SUICIDE,
    BID_WHIZ,
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
    R_BIG_BID_SET,
    R_BIG_BID_THRESHOLD,
    R_BIG_BID_VALUE,
    R_DECK,
    R_PARTNERSHIPS,
    R_SEATS,
    R_ZERO_BID,
    V_BAG_LIMIT,
    V_BAGS,
    V_BID,
    V_DECK,
    V_DRAW_CARD,
    V_EXCHANGE_N,
    V_EXCHANGE_ROLE,
    V_LED_SUIT,
    V_MIN_BID,
    V_NIL_ALLOWED,
    V_NIL_VALUE,
    V_NPLAYED,
    V_PASSED,
    V_PLAYED,
    V_RULES,
    V_SCORE,
    V_TARGET,
    V_TRICK,
    V_TRICK_NO,
    V_TRICKS,
    V_VOID,
    V_WINNING_CARD,
    V_WINNING_SEAT,
)
from tricksim.simulator.games.spades.scoring import BIG_SET_VALUE
from tricksim.simulator.hints import unlikely
from tricksim.strategies.spades.meta.heuristic import PARAMS, STRATEGY  # noqa: F401 (STRATEGY: this module's strategy, registered in meta/heuristic.py)

SP = np.int64(SUIT_MASKS[SPADES])      # the spades of the rank space (cards.py): jokers, a deuce deck's renamed 2s
KING_OF_SPADES = 50
FULL_DECK = np.int64((1 << 52) - 1)    # fallback when a hand-built view leaves V_DECK at 0
ONE = np.int64(1)
# bidding weights, fitted to self-play (see estimate_tricks): value of holding n spades ...
SPADE_LENGTH = np.array([0.0, 0.07, 0.26, 0.54, 0.97, 1.60, 2.39, 3.23, 4.10, 5.0, 5.9, 6.8, 7.7, 8.6, 9.5, 10.4,
                         11.3])  # an entry for every spade count a hand may hold: 16 (joker_deuce_deuce, 17 cards)
# ... and of holding the k-th highest spade of the deck (A, K, Q, J, 10 without jokers)
SPADE_TOP = np.array([1.05, 0.89, 0.63, 0.35, 0.20])
# Nil danger (see nil_danger): of each spade by rank (2-4 relieve, J/Q/K add, A or joker fatal) ...
SPADE_NIL = np.array([-0.75, -0.75, -0.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.1, 1.8, 3.4, 99.0])
SIDE_HONOUR_NIL = np.array([0.0] * 11 + [0.4, 0.9])  # ... of a side-suit king and ace ...
# ... and of holding n spades
SPADE_COUNT_NIL = np.array([0.0, 0.0, 0.0, 1.3, 6.3, 16.3, 26.3, 36.3, 46.3, 56.3, 66.3, 76.3, 86.3, 96.3, 99.0, 99.0])
# Suicide: the team's first bidder bids Nil at most at this danger, the median nil_danger of dealt hands
SUICIDE_NIL_DANGER = 14.5

# the parameters (PARAMS, in meta/): their order is the parameter vector's; the indices below are derived from it

_INDEX = {p.name: i for i, p in enumerate(PARAMS)}
P_BID_ADJUST = _INDEX["bid_adjust"]
P_NIL = _INDEX["nil"]
P_NIL_THRESHOLD = _INDEX["nil_threshold"]
P_NIL_OVER_NIL = _INDEX["nil_over_nil"]
P_BLIND_NIL = _INDEX["blind_nil"]
P_BLIND_NIL_MARGIN = _INDEX["blind_nil_margin"]
P_BAG_MODE = _INDEX["bag_mode"]
P_BAG_GUARD = _INDEX["bag_guard"]
P_NEAR_TARGET = _INDEX["near_target"]
P_TARGET_CAUTION = _INDEX["target_caution"]
P_KING = _INDEX["king_value"]
P_QUEEN = _INDEX["queen_value"]
P_LONG_SPADE = _INDEX["long_spade"]
P_VOID = _INDEX["void_value"]
P_SINGLETON = _INDEX["singleton_value"]
P_DOUBLETON = _INDEX["doubleton_value"]
P_COVER_NIL = _INDEX["cover_nil"]
P_ATTACK_NIL = _INDEX["attack_nil"]
P_SECOND_CASH = _INDEX["second_hand_cash"]
P_COVER_BID = _INDEX["cover_bid"]
P_OPP_NIL_BID = _INDEX["opp_nil_bid"]
P_FORCE_NIL = _INDEX["force_nil"]
P_ZERO_CONTRACT = _INDEX["zero_contract"]
P_BIG_BID = _INDEX["big_bid"]

MODE_TAKE, MODE_AVOID, MODE_SET_TAKE, MODE_SET = (PARAMS[P_BAG_MODE].choices.index(m)
                                                  for m in ("take", "avoid", "set_take", "set"))


# ------------------------------------------------------------------ bit helpers
@njit(cache=True)
def suit_mask(s):
    """Mask of suit ``s`` (computed, not looked up: no array access in the hot path)."""
    if s == SPADES:
        return SP
    return np.int64(0x1FFF) << (13 * s)


@njit(cache=True)
def above(card):
    """Mask of the card ids strictly above ``card`` (callers intersect with a suit)."""
    return ~((np.int64(2) << card) - 1)


@njit(cache=True)
def below(card):
    """Mask of the card ids strictly below ``card``."""
    return (ONE << card) - 1


@njit(cache=True)
def cheapest_master(mine, out_suit):
    """Lowest card of ``mine`` (one suit) above every outstanding card of that suit; -1 if none."""
    if mine == 0:
        return np.int64(-1)
    if out_suit == 0:
        return np.int64(lowest_bit(mine))
    m = mine & above(highest_bit(out_suit))
    if m == 0:
        return np.int64(-1)
    return np.int64(lowest_bit(m))


@njit(cache=True)
def bit_if(card):
    """The bit of ``card``, or 0 when card is -1 (branch-free)."""
    return (ONE << (card & 63)) & -np.int64(card >= 0)


@njit(cache=True)
def lowest_equivalent(card, hand, unseen):
    """Lowest card of ``hand`` worth the same as ``card``: no outstanding card lies between them."""
    s = card_suit(card)
    base = 13 * s
    c = card
    d = card - 1
    while d >= base:
        bit = ONE << d
        if hand & bit:
            c = d
        elif unseen & bit:
            break
        d -= 1
    return np.int64(c)


@njit(cache=True)
def low_card(mask, hand):
    """The cheapest card of ``mask``: lowest-ranked non-spade (shorter suit on ties), else lowest spade."""
    best = np.int64(-1)
    best_key = 1 << 30
    for s in range(3):
        m = mask & suit_mask(s)
        if m:
            c = lowest_bit(m)
            key = card_rank(c) * 16 + popcount(hand & suit_mask(s))
            if key < best_key:
                best_key = key
                best = c
    if best >= 0:
        return best
    return np.int64(lowest_bit(mask))


@njit(cache=True)
def dump_card(mask, hand):
    """The card of ``mask`` most worth getting rid of: the highest, spades counting 2.5 ranks more."""
    best = np.int64(-1)
    best_key = np.int64(-1)
    for s in range(4):
        m = mask & suit_mask(s)
        if m:
            c = highest_bit(m)
            # key in 1/64 ranks: rank, spades 2.5 ranks more, the shorter suit first on ties
            key = card_rank(c) * 64 + (160 if s == SPADES else 0) + 15 - popcount(hand & suit_mask(s))
            if key > best_key:
                best_key = key
                best = c
    return best


@njit(cache=True, inline="always")
def named(card, ranked, deck_code):
    """A card of the rank space as the deck names it when ``ranked`` (play renamed the cards), else as it is."""
    return deck_card(card, deck_code) if ranked else np.int64(card)


@njit(cache=True)
def beaters(legal, win_card):
    """Legal cards that would beat ``win_card`` (the card now winning the trick)."""
    return legal & beating(win_card)


@njit(cache=True)
def may_ruff(voids, suit, unseen):
    """A seat with shown voids ``voids`` may ruff ``suit`` (void in it, not shown void in spades)."""
    if suit == SPADES or (unseen & SP) == 0:
        return False
    return ((voids >> suit) & 1) == 1 and ((voids >> SPADES) & 1) == 0


@njit(cache=True, inline="always")
def as_nil(bid, zero_is_contract):
    """A bid as ``decide`` and the bid read it, where 0 is a Nil: with ``zero_bid=zero`` a 0 is an ordinary
    contract of zero tricks, given as -1 (no Nil; it adds nothing to the team's contract)."""
    return bid - np.int64(bid == 0 and zero_is_contract)


@njit(cache=True, inline="always")
def opponent_nil(seat, view, zero, alone):
    """An opponent of ``seat`` has bid Nil: of the rules' seats, every other one alone (cutthroat), the two of the
    other team with partnerships."""
    if not alone:  # the seats on the left and right: no loop over the rules' seat count (a division a seat)
        return as_nil(view[V_BID + ((seat + 1) & 3)], zero) == 0 or as_nil(view[V_BID + ((seat + 3) & 3)], zero) == 0
    n = view[V_RULES + R_SEATS]
    for k in range(1, n):
        s = (seat + k) % n
        if (alone or s != (seat ^ 2)) and as_nil(view[V_BID + s], zero) == 0:
            return True
    return False


# ------------------------------------------------------------------ hand evaluation
@njit(cache=True)
def estimate_tricks(hand, deck, long_spade, void_value, singleton_value, doubleton_value, king_value, queen_value,
                    deck_code=0):
    """Expected tricks of a hand (a float).

    Weights fitted by least squares to the tricks this strategy takes in
    self-play (take mode, 200k hands): spade length (SPADE_LENGTH, scaled by
    long_spade), the five top spades of the deck (SPADE_TOP, less when short),
    side aces, guarded kings and queens (less in long suits) and the ruffing
    value of short side suits while low spades are left to ruff with. ``deck``: the mask of the deck's cards
    (view[V_DECK]); ``deck_code``: the deck flag (decks.py), whose order ranks the spades.
    """
    spades = DECK_SUIT_MASKS[deck_code, SPADES]
    sp = hand & spades
    n_sp = popcount(sp)
    est = long_spade * SPADE_LENGTH[n_sp]
    # the top spades of the deck (jokers and promoted 2s included), from the highest down
    below = n_sp     # our spades below the one looked at
    unowned = 0      # higher spades we do not hold
    protected = 0    # honours with no more unowned spades above them than ours below them (A, Kx, Qxx, AQx ...)
    j = 0
    for k in range(5):
        c = SPADES_HIGH_FIRST[deck_code, j]
        while (deck >> c) & 1 == 0:  # a joker outside the deck
            j += 1
            c = SPADES_HIGH_FIRST[deck_code, j]
        j += 1
        bit = ONE << c
        if sp & bit:
            below -= 1
            if unowned <= below:
                protected += 1
            v = SPADE_TOP[k]
            if k == 1 and n_sp == 1:
                v -= 0.67  # bare second spade (K)
            elif k == 2 and n_sp <= 2:
                v -= 0.33  # third spade (Q) without two guards
            est += v
        else:
            unowned += 1
    spare = n_sp - protected  # low spades free to ruff with
    n0 = popcount(hand & suit_mask(0))
    n1 = popcount(hand & suit_mask(1) & ~spades)  # the 2♦ of joker_deuce_deuce is a spade
    n2 = popcount(hand & suit_mask(2))
    for length in range(3):  # voids first, then singletons, then doubletons
        cnt = (n0 == length) + (n1 == length) + (n2 == length)
        while cnt > 0 and spare > 0:
            cnt -= 1
            spare -= 1
            if length == 0:
                est += void_value
                if spare > 0:  # a second ruff in the same void
                    est += 0.7 * void_value
                    spare -= 1
            elif length == 1:
                est += singleton_value
            else:
                est += doubleton_value
    for s in range(3):
        # held honours as 0/1 factors, not branches the cards decide (adding 0.0 leaves est unchanged)
        n = n0 if s == 0 else (n1 if s == 1 else n2)
        honours = hand >> (13 * s + 10)  # bit 0 the queen, 1 the king, 2 the ace of suit s
        est += (1.0 if n <= 6 else 0.75) * ((honours >> 2) & 1)
        length_factor = 1.0 if n <= 4 else (0.85 if n == 5 else 0.65)
        est += king_value * length_factor * (((honours >> 1) & 1) * (n >= 2))
        est += queen_value * length_factor * ((honours & 1) * (n >= 3))
    return est


@njit(cache=True)
def nil_danger(hand, deck_code=0):
    """How likely a Nil fails, in units of one rank of excess (0 = very safe).

    Cards of each suit are taken from the lowest up; the i-th lowest side card
    should be no higher than rank 4 + 2.5 i (the '6', then about the '8', ...)
    to duck the i-th round of the suit, and each rank above that is one unit.
    The other terms were fitted by logistic regression to the Nils this
    strategy made and lost in self-play (success ~ 1 / (1 + exp(0.27 d - 2.06))):
    spade length (3 spades 1.3, 4 another 5, 5 another 10), high spades,
    side aces and kings, with short side suits and the 2-4 of spades as relief.
    The ace of spades (or a joker, or a promoted 2: any spade above the king of the deck's order) is fatal.
    """
    sp = hand & DECK_SUIT_MASKS[deck_code, SPADES]
    if sp & DECK_BEATING[deck_code, KING_OF_SPADES]:
        return 99.0  # ace of spades, a joker or a promoted 2 (none left in hand below)
    n_sp = popcount(sp)
    d = SPADE_COUNT_NIL[n_sp]
    if d > 20.0:
        return d
    for s in range(4):
        m = hand & suit_mask(s)
        n = popcount(m)
        base = 13 * s
        i = 0
        while m:
            c = lowest_bit(m)
            m &= m - 1
            r = c - base
            # max(ex, 0) and table lookups rather than branches the cards decide (adding 0.0 leaves d as it was)
            if s == SPADES:
                d += 0.4 * max(r - (3.0 + 2.5 * i), 0.0)
                d += SPADE_NIL[r]
            else:
                d += max(r - (4.0 + 2.5 * i), 0.0)
                d += SIDE_HONOUR_NIL[r]
            i += 1
        if s != SPADES:
            if n == 0:
                d -= 0.7
            elif n == 1:
                d -= 1.25
    return d


# Three players (cutthroat3): the bid's estimate and Nil danger were fitted to 13-card hands at a table of four. With
# 17 cards the estimate falls 1.6 tricks short of the tricks taken and its Nils fail 92 % of the time: the estimate
# gets THREE_PLAYER_BID_SHIFT before rounding, and no Nil is bid (the shift and the Nil off chosen by the hand score
# in three-player self-play: docs/strategy-evidence.md "Cutthroat for three").
THREE_PLAYER_BID_SHIFT = 0.5
# Two players (twohanded): the hands are drawn (spades and honours kept), and its Nils fail 93 % of the time. The
# estimate gets TWO_PLAYER_BID_SHIFT before rounding and no Nil is bid: against the default, in duplicate hands
# (seed 11, 2 x 20,000), shift -0.5 with no Nil gains 3.2 +- 0.3 points a hand (-0.25: 2.6, -1.0: 1.7, +0.5: -9.0,
# the Nil alone off: 0.5)
TWO_PLAYER_BID_SHIFT = -0.5
TWO_PLAYER_NIL = False
# the draw (two-handed): value of a side card by rank (0 = '2' ... 12 = 'A'): the jack up; a spade is 0.5 + 0.04 * rank
DRAW_SIDE_VALUE = np.array([0.0] * 9 + [0.15, 0.35, 0.6, 0.9])
THREE_PLAYER_NIL = False


# ------------------------------------------------------------------ policies
@njit(BLIND_NIL_SIG, cache=True)
def blind_nil(seat, view, params, rng):
    """Blind Nil when the team trails by at least blind_nil_margin (and the partner did not bid Nil); alone
    (cutthroat), when the seat trails the best other player by that much."""
    alone = view[V_RULES + R_PARTNERSHIPS] == 0
    if params[P_BLIND_NIL] <= 0 or (view[V_BID + (seat ^ 2)] == 0 and not alone):
        return np.int64(0)
    team = seat & 1
    deficit = view[V_SCORE + 1 - team] - view[V_SCORE + team]
    if alone:  # the others: the rules' seats but this one
        n = view[V_RULES + R_SEATS]
        best = view[V_SCORE + (seat + 1) % n]
        for k in range(2, n):
            best = max(best, view[V_SCORE + (seat + k) % n])
        deficit = best - view[V_SCORE + seat]
    return np.int64(1 if deficit >= params[P_BLIND_NIL_MARGIN] else 0)


@njit(cache=True)
def choose_bid(hand, deck, nil_ok, nil_threshold, adjust, min_bid, long_spade, void_value, singleton_value,
               doubleton_value, king_value, queen_value, deck_code=0):
    """Nil (0) when ``nil_ok`` and the hand is safe enough, else the rounded estimate plus ``adjust``, at least
    ``min_bid`` (``V_MIN_BID``: 0 only under ``zero_bid=zero``, where 0 is a zero-trick contract)."""
    if nil_ok and nil_danger(hand, deck_code) <= nil_threshold:
        return np.int64(0)
    est = estimate_tricks(hand, deck, long_spade, void_value, singleton_value, doubleton_value, king_value,
                          queen_value, deck_code) + adjust
    b = np.int64(np.floor(est + 0.5))
    return min(np.int64(13), max(b, min_bid))


@njit(cache=True)
def variant_bid(seat, hand, view, params):
    """The bid in a bidding variant (``bid_rule`` suicide, whiz or mirror; docs/strategies.md), among the
    legal bids (``phases.legal_bids``). One legal bid (Mirror; Suicide's forced Nil): that one. Whiz (Nil
    or the spade count n): Nil when its expected score beats that of bidding n, the Nil made with the
    probability ``nil_danger`` was fitted to (1 / (1 + exp(0.27 d - 2.06))), n made with a logistic
    probability of the trick estimate reaching it. Suicide, the team's first bidder: Nil when the hand is
    a better Nil hand than a typical one (``nil_danger`` at most SUICIDE_NIL_DANGER, the median of dealt
    hands), so that the partner with the weaker Nil hand bids Nil as far as one hand can tell; else, and
    when the partner bid Nil, the trick estimate as in the free game."""
    legal = legal_bids(view, hand)
    if legal & (legal - 1) == 0:
        return lowest_bit(legal)
    if params[P_FORCE_NIL] > 0 and legal & 1:
        return np.int64(0)  # what-if studies: Nil whenever it is legal
    deck = view[V_DECK]
    if deck == 0:
        deck = FULL_DECK
    deck_code = view[V_RULES + R_DECK]
    est = estimate_tricks(hand, deck, params[P_LONG_SPADE], params[P_VOID], params[P_SINGLETON], params[P_DOUBLETON],
                          params[P_KING], params[P_QUEEN], deck_code) + params[P_BID_ADJUST]
    partner_bid = view[V_BID + (seat ^ 2)] if view[V_RULES + R_PARTNERSHIPS] != 0 else np.int64(-1)  # -1: none
    if partner_bid == 0:
        est += params[P_COVER_BID]
    d = nil_danger(hand, deck_code)
    rule = view[V_RULES + R_BID_RULE]
    if rule == BID_WHIZ:
        n = lowest_bit(legal & ~ONE)
        if params[P_NIL] <= 0 or (legal & 1) == 0:
            return n
        p_nil = 1.0 / (1.0 + np.exp(0.27 * min(d, 99.0) - 2.06))
        p_n = made_probability(est, n)
        return np.int64(0) if view[V_NIL_VALUE] * (2.0 * p_nil - 1.0) > 10.0 * n * (2.0 * p_n - 1.0) else n
    want = np.int64(np.floor(est + 0.5))
    if rule == BID_SUICIDE and (legal & 1) and partner_bid < 0 and params[P_NIL] > 0 and d <= SUICIDE_NIL_DANGER:
        return np.int64(0)
    return nearest_legal_bid(legal & ~ONE, max(want, ONE)) if legal & ~ONE else np.int64(0)


@njit(cache=True)
def made_probability(est, n):
    """The probability that a contract of ``n`` tricks is made by a side whose trick estimate is ``est``: the
    logistic curve of the Whiz choice (``variant_bid``)."""
    return 1.0 / (1.0 + np.exp(-1.5 * (est + 0.5 - n)))


@njit(cache=True)
def big_bid_pays(est, team, threshold, value, set_value):
    """Ten for two hundred: whether the team's contract raised from ``team`` to ``threshold`` tricks has the higher
    expected score (bags left out), the side's trick estimate ``est``: made, ``value`` against 10 a trick; set,
    ``-value`` (``big_bid_set=value``) or -10 a trick, against -10 a trick of ``team``."""
    p_big = made_probability(est, threshold)
    p_team = made_probability(est, team)
    lost = value if set_value else 10.0 * threshold
    return p_big * value - (1.0 - p_big) * lost > 10.0 * team * (2.0 * p_team - 1.0)


@njit(cache=True)
def big_bid_raise(hand, deck, b, team, adjust, view, params):
    """Ten for two hundred: the bid ``b`` of the team's last bidder, whose team bids ``team`` with it, raised to reach
    the threshold when ``big_bid_pays`` (the team's estimate: the partner's bid and this hand's), else ``b``."""
    threshold = view[V_RULES + R_BIG_BID_THRESHOLD]
    if params[P_BIG_BID] <= 0 or team >= threshold or threshold > team - b + 13:
        return b
    est = estimate_tricks(hand, deck, params[P_LONG_SPADE], params[P_VOID], params[P_SINGLETON], params[P_DOUBLETON],
                          params[P_KING], params[P_QUEEN], view[V_RULES + R_DECK])
    if big_bid_pays(team - b + est + adjust, team, threshold, view[V_RULES + R_BIG_BID_VALUE],
                    view[V_RULES + R_BIG_BID_SET] == BIG_SET_VALUE):
        return b + threshold - team
    return b


@njit(BID_SIG, cache=True)
def bid(seat, hand, view, params, rng):
    """Straight-line reads of view and params (see ``play``); the work is in ``choose_bid``."""
    if view[V_RULES + R_BID_RULE] != BID_FREE:
        return variant_bid(seat, hand, view, params)
    if params[P_FORCE_NIL] > 0 and view[V_NIL_ALLOWED] == 1:
        return np.int64(0)  # what-if studies: this seat bids Nil whatever it holds
    deck = view[V_DECK]
    if deck == 0:
        deck = FULL_DECK
    zero = view[V_RULES + R_ZERO_BID] == ZERO_BID_ZERO
    alone = view[V_RULES + R_PARTNERSHIPS] == 0
    across = view[V_BID + (seat ^ 2)]  # -1: not yet bid
    # as a Nil reads: -1 no partner (cutthroat), not yet bid, or a zero contract (zero_bid=zero: no Nil to cover)
    partner_bid = np.int64(-1) if alone else as_nil(across, zero)
    nil_ok = (params[P_NIL] > 0 and view[V_NIL_ALLOWED] == 1
              and (partner_bid != 0 or params[P_NIL_OVER_NIL] > 0))
    adjust = params[P_BID_ADJUST]
    if partner_bid == 0:
        adjust += params[P_COVER_BID]  # covering a Nil wins tricks the partner would have won
    if params[P_OPP_NIL_BID] != 0 and opponent_nil(seat, view, zero, alone):
        adjust += params[P_OPP_NIL_BID]  # a Nil bidder gives away the tricks its cards would take
    # V_SCORE + seat: the seat's team's total (the slots repeat the teams), or its own alone
    if view[V_TARGET] > 0 and view[V_SCORE + seat] >= view[V_TARGET] - params[P_NEAR_TARGET]:
        adjust -= params[P_TARGET_CAUTION]
    if alone and view[V_RULES + R_SEATS] == 3:
        adjust += THREE_PLAYER_BID_SHIFT
        nil_ok = nil_ok and THREE_PLAYER_NIL
    elif alone and view[V_RULES + R_SEATS] == 2:
        adjust += TWO_PLAYER_BID_SHIFT
        nil_ok = nil_ok and TWO_PLAYER_NIL
    min_bid = view[V_MIN_BID] if params[P_ZERO_CONTRACT] > 0 else max(ONE, view[V_MIN_BID])
    b = choose_bid(hand, deck, nil_ok, params[P_NIL_THRESHOLD], adjust, min_bid, params[P_LONG_SPADE],
                   params[P_VOID], params[P_SINGLETON], params[P_DOUBLETON], params[P_KING], params[P_QUEEN],
                   view[V_RULES + R_DECK])
    # ten for two hundred: the team's last bidder reaches the threshold when that pays better (big_bid_pays); the
    # partner's bid as bid, not as a Nil reads it: a zero contract, like a Nil, is a bid that adds 0 to the team's
    if view[V_RULES + R_BIG_BID_THRESHOLD] > 0 and b > 0 and (alone or across >= 0):
        return big_bid_raise(hand, deck, b, b if alone else across + b, adjust, view, params)
    return b


@njit(cache=True)
def draw_value(c, deck_code):
    """What card ``c`` is worth to a two-handed hand: a spade 0.5 and up by its rank in the deck, a side card by
    rank (DRAW_SIDE_VALUE)."""
    if (DECK_SUIT_MASKS[deck_code, SPADES] >> c) & 1:
        return 0.5 + 0.04 * DECK_RANK[deck_code, c]
    return DRAW_SIDE_VALUE[DECK_RANK[deck_code, c]]


@njit(cache=True)
def draw(hand, view):
    """The draw (two-handed): keep the card shown (its bit) when it is worth at least the mean of the cards this
    seat has not seen (the stock, the other hand and the other's discards: the next card, kept if this one is
    not, is one of them), else 0."""
    deck_code = view[V_RULES + R_DECK]
    deck = view[V_DECK]
    if deck == 0:
        deck = FULL_DECK
    c = view[V_DRAW_CARD]
    m = deck & ~hand & ~view[V_PASSED] & ~(ONE << c)
    total = 0.0
    n = 0
    while m:
        total += draw_value(lowest_bit(m), deck_code)
        m &= m - 1
        n += 1
    return ONE << c if n == 0 or draw_value(c, deck_code) * n >= total else np.int64(0)


@njit(EXCHANGE_SIG, cache=True)
def exchange(seat, hand, view, params, rng):
    """Partner: the lowest side-suit cards. Blind Nil bidder: the most dangerous cards (high spades first).

    Measured in the classic preset: passing low side cards rather than low
    spades wins 56 % of games against the same player passing low spades
    (a Nil bidder's low spades are forced to ruff late in the hand). The draw of two-handed Spades: ``draw``.
    """
    if view[V_EXCHANGE_ROLE] == EXCHANGE_DRAW:
        return draw(hand, view)
    give_first = view[V_EXCHANGE_ROLE] == EXCHANGE_GIVE_FIRST
    deck_code = view[V_RULES + R_DECK]  # suits and ranks as the deck has them (a deuce deck's 2s promoted)
    passed = np.int64(0)
    n = view[V_EXCHANGE_N]
    for _ in range(n):
        m = hand & ~passed
        if m == 0:
            break
        best = np.int64(-1)
        best_key = -1e9
        while m:
            c = lowest_bit(m)
            m &= m - 1
            s = DECK_SUIT_OF[deck_code, c]
            r = DECK_RANK[deck_code, c]
            if give_first:
                key = -(r + (13.0 if s == SPADES else 0.0))  # low side cards; a spade only when nothing else
            else:
                left = popcount(hand & ~passed & DECK_SUIT_MASKS[deck_code, s])
                key = r + (3.0 if s == SPADES else 0.0) + (1.0 if left <= 3 else 0.0)
            if key > best_key:
                best_key = key
                best = c
        passed |= ONE << best
    return passed


@njit(cache=True)
def nil_play(hand, legal, nplayed, win_card, unseen):
    """Own Nil: lead the safest low card; follow with the highest card that still loses."""
    if nplayed == 0:
        best = np.int64(-1)
        best_key = 1 << 30
        for s in range(4):
            m = legal & suit_mask(s)
            if m:
                c = lowest_bit(m)
                lower = popcount(unseen & suit_mask(s) & below(c))   # cards that could duck under ours
                higher = popcount(unseen & suit_mask(s) & above(c))
                key = lower * 64 - higher + (32 if s == SPADES else 0)
                if key < best_key:
                    best_key = key
                    best = c
        return best
    beat = beaters(legal, win_card)
    lose = legal & ~beat
    if lose:
        return dump_card(lose, hand)
    if nplayed == 3:
        return dump_card(legal, hand)  # the trick is lost anyway: shed the most dangerous card
    return np.int64(lowest_bit(legal))  # every card wins so far: the lowest, hoping to be overtaken


@njit(cache=True)
def lead_cover(legal, unseen, partner_voids):
    """Partner bid Nil: lead a master, else the highest card, preferring suits the partner is void in."""
    best = np.int64(-1)
    best_key = -(1 << 30)
    for s in range(4):
        m = legal & suit_mask(s)
        if m == 0:
            continue
        cm = cheapest_master(m, unseen & suit_mask(s))
        c = cm if cm >= 0 else np.int64(highest_bit(m))
        partner_void = (partner_voids >> s) & 1
        key = card_rank(c) + (40 if cm >= 0 else 0) + (20 if partner_void else 0) - (5 if s == SPADES else 0)
        if key > best_key:
            best_key = key
            best = c
    return best


@njit(cache=True)
def lead_attack(legal, unseen, nv):
    """An opponent bid Nil: lead our lowest card in a suit the Nil bidder (voids nv) still holds."""
    best = np.int64(-1)
    best_key = 1 << 30
    for s in range(4):
        m = legal & suit_mask(s)
        if m == 0 or (nv >> s) & 1:
            continue
        c = lowest_bit(m)
        lower = popcount(unseen & suit_mask(s) & below(c))  # cards the Nil bidder could duck with
        if unseen & suit_mask(s) & above(c) == 0:
            continue  # ours is the master: no pressure
        key = lower * 16 + card_rank(c)
        if key < best_key:
            best_key = key
            best = c
    return best


@njit(cache=True)
def lead_duck(legal, unseen):
    """No more tricks wanted: lead the card most likely to be beaten."""
    best = np.int64(-1)
    best_key = -1 << 30
    for s in range(4):
        m = legal & suit_mask(s)
        if m == 0:
            continue
        c = lowest_bit(m)
        key = popcount(unseen & suit_mask(s) & above(c)) * 4 - popcount(unseen & suit_mask(s) & below(c)) * 8
        if key > best_key:
            best_key = key
            best = c
    return best


@njit(cache=True)
def lead_win(hand, legal, unseen, left_voids, right_voids, partner_voids, others=3):
    """Tricks wanted: cash safe masters, draw trumps with length, feed partner's ruffs, else lead low.

    ``left_voids``, ``right_voids``, ``partner_voids``: shown voids of the left opponent, right opponent and partner
    (at two players the one opponent is both left and right). ``others``: the other hands at the table (the rules'
    seats less one): a master is not cashed when so few cards of its suit are out that one of them is probably
    void, fewer than 2 with two or three other hands; with one (two players) only when none is out, the opponent
    then surely void (its unseen cards are half its discards, out of play: one card out is in its hand half the
    time).
    """
    unseen_spades = unseen & SP
    n_sp = popcount(hand & SP)
    # 1. side-suit masters the opponents cannot ruff
    best = np.int64(-1)
    best_key = -1
    for s in range(3):
        m = legal & suit_mask(s)
        if m == 0:
            continue
        if may_ruff(left_voids, s, unseen) or may_ruff(right_voids, s, unseen):
            continue
        cm = cheapest_master(m, unseen & suit_mask(s))
        if cm >= 0:
            n_unseen = popcount(unseen & suit_mask(s))
            if unseen_spades != 0 and n_unseen < min(2, others):
                continue  # somebody is probably void: our master would be ruffed
            if n_unseen > best_key:
                best_key = n_unseen
                best = cm
    if best >= 0:
        return best
    # 2. spades: all outstanding spades gone -> every spade is a winner; master with length -> draw trumps
    sp = legal & SP
    if sp:
        if unseen_spades == 0:
            return np.int64(lowest_bit(sp))
        cm = cheapest_master(sp, unseen_spades)
        if cm >= 0 and (n_sp >= 3 or n_sp >= popcount(unseen_spades)):
            return cm
    # 3. a suit the partner ruffs and the opponents follow
    if ((partner_voids >> SPADES) & 1) == 0 and unseen_spades != 0:
        for s in range(3):
            m = legal & suit_mask(s)
            if m and (partner_voids >> s) & 1 and not may_ruff(left_voids, s, unseen) \
                    and not may_ruff(right_voids, s, unseen):
                return np.int64(lowest_bit(m))
    # 4. otherwise a side suit: short ones to ruff later (with spades), never away from a lone honour,
    #    never into a known ruff
    best = np.int64(-1)
    best_key = -1 << 30
    for s in range(3):
        m = legal & suit_mask(s)
        if m == 0:
            continue
        n = popcount(m)
        top = highest_bit(m)
        key = 0
        if may_ruff(left_voids, s, unseen) or may_ruff(right_voids, s, unseen):
            key -= 100
        if n <= 2 and n_sp > 0 and n_sp < 6:
            key += 20 - 5 * n
        else:
            key += n
        # leading away from an unsupported king or queen gives it away
        if card_rank(top) >= 10 and cheapest_master(m, unseen & suit_mask(s)) < 0 and n >= 2:
            key -= 10
        if key > best_key:
            best_key = key
            best = s
    if best >= 0:
        m = legal & suit_mask(best)
        if popcount(m) == 2 and card_rank(highest_bit(m)) < 9:
            return np.int64(highest_bit(m))  # top of a small doubleton
        return np.int64(lowest_bit(m))
    return np.int64(lowest_bit(legal))


@njit(cache=True)
def want_trick(need, opp_need, remaining, bags, bag_limit, mode, bag_guard):
    """(want, urgent): does the team want more tricks now, and must it win this one.

    ``need``/``opp_need``: tricks the team / the opponents still lack for their contracts;
    ``bags``: the team's running bags before this hand.
    """
    if need > 0:
        return True, need >= remaining - 1
    if (mode == MODE_SET or mode == MODE_SET_TAKE) and 0 < opp_need <= remaining:
        # the opponents can still be set: we need remaining - opp_need + 1 of the remaining tricks
        return True, opp_need <= 2
    # within bag_guard of the bag limit, every further overtrick is to be avoided
    if mode == MODE_AVOID or mode == MODE_SET or (bag_limit > 0 and bags - need + 1 >= bag_limit - bag_guard):
        return False, False
    return True, False


@njit(cache=True)
def partner_secure(win_card, led, unseen, left_voids):
    """Partner's winning card holds against the one opponent still to play (shown voids left_voids)."""
    if popcount(unseen & suit_mask(led) & above(win_card)) >= 2:
        return False  # a low lead: third hand plays high
    return not may_ruff(left_voids, led, unseen)


@njit(cache=True)
def cheapest_beater(beat, led):
    """Lowest card of ``beat`` (cards that win now): following suit before ruffing."""
    f = beat & suit_mask(led)
    return np.int64(lowest_bit(f if f else beat))


@njit(cache=True, inline="always")
def decide(seat, hand, legal, unseen, in_trick, nplayed, led, win_seat, win_card, my_bid, my_tricks,
           p_bid, p_tricks, p_card, l_bid, l_tricks, l_card, r_bid, r_tricks, r_card, left_voids, right_voids,
           partner_voids,
           need, opp_need, remaining, bags, bag_limit, options):
    """The card to play when ``play`` found a choice to make (two or more legal cards, not all equivalent),
    from the scalars it read (p_ = partner, l_ = left, r_ = right opponent;
    ``*_card`` the card that seat played to this trick or -1; ``*_voids`` the suits each has shown void;
    ``unseen`` the cards still in the other hands, as far as this seat can tell; ``options`` the
    strategy parameters of play, one tuple so that the call stays under Python's 30-argument
    limit for a plain call, which Numba needs to inline it; ``lefty``, ``righty`` the seats of l_ and r_:
    with three players, the next and the previous seat modulo 3, with two both the one opponent; ``others``
    the other hands at the table, 1 to 3)."""
    mode, bag_guard, cover_nil, attack_nil, second_cash, alone, lefty, righty, others = options
    partner = seat ^ 2
    across_voids = partner_voids
    if alone:  # cutthroat: the seat across is an opponent (p_ its values), and no seat is a partner
        partner = np.int64(-1)
        right_voids |= partner_voids  # one more opponent who may ruff
        partner_voids = np.int64(0)
    if my_bid == 0 and my_tricks == 0:
        return nil_play(hand, legal, nplayed, win_card, unseen)
    p_nil = cover_nil and not alone and my_bid != 0 and p_bid == 0 and p_tricks == 0
    nil_opp = np.int64(-1)   # an opponent whose Nil is still alive
    nil_card = np.int64(-1)  # ... and the card it played to this trick
    nil_voids = np.int64(0)
    if attack_nil:
        if l_bid == 0 and l_tricks == 0:
            nil_opp = lefty
            nil_card = l_card
            nil_voids = left_voids
        elif r_bid == 0 and r_tricks == 0:
            nil_opp = righty
            nil_card = r_card
            nil_voids = right_voids
        elif alone and p_bid == 0 and p_tricks == 0:
            nil_opp = seat ^ 2
            nil_card = p_card
            nil_voids = across_voids

    # ---------------------------------------------------------------- leading
    if nplayed == 0:
        if p_nil:
            return lead_cover(legal, unseen, partner_voids)
        if nil_opp >= 0:
            c = lead_attack(legal, unseen, nil_voids)
            if c >= 0:
                return c
        want, urgent = want_trick(need, opp_need, remaining, bags, bag_limit, mode, bag_guard)
        if want:
            return lead_win(hand, legal, unseen, left_voids, right_voids, partner_voids, others)
        return lead_duck(legal, unseen)

    # ---------------------------------------------------------------- following
    beat = beaters(legal, win_card)
    lose = legal & ~beat
    follow = legal & suit_mask(led)          # non-zero when we follow suit
    unseen_led = unseen & suit_mask(led)

    if p_nil:
        if p_card >= 0:
            if win_seat == partner and beat:
                return cheapest_beater(beat, led)  # overtake the partner
        elif card_suit(win_card) == led and unseen_led & above(win_card):
            # the partner still plays and could be forced over the current winner: play high
            if follow:
                cm = cheapest_master(follow, unseen_led)
                return cm if cm >= 0 else np.int64(highest_bit(follow))
            if beat:
                return np.int64(lowest_bit(beat))  # ruff: the partner can then discard or follow low
            return low_card(legal, hand)

    if nil_opp >= 0:
        if nil_card >= 0:
            if win_seat == nil_opp:
                if lose:
                    return dump_card(lose, hand)  # stay under the Nil bidder, keep low cards for later
                return cheapest_beater(beat, led)
        elif (alone or win_seat != (nil_opp ^ 2)) and lose:
            # the Nil bidder plays after us and the trick is low: keep it low, never ruff
            return np.int64(lowest_bit(lose)) if follow else low_card(lose, hand)

    want, urgent = want_trick(need, opp_need, remaining, bags, bag_limit, mode, bag_guard)
    if not want:
        # duck: the highest card that loses; forced to win as the last player: win with the highest
        if lose:
            return dump_card(lose, hand)
        if nplayed == 3 or win_seat == partner:
            return dump_card(legal, hand)
        return cheapest_beater(beat, led)

    if nplayed == 3:
        # last to play: win as cheaply as possible unless the partner already wins
        if win_seat != partner and beat:
            return cheapest_beater(beat, led)
        return low_card(legal, hand)

    if nplayed == 1:
        # second hand low, unless a sure (master) winner can be cashed or the trick is urgent
        if follow:
            if beat:
                cm = cheapest_master(follow, unseen_led)
                if cm >= 0 and (second_cash or urgent) and not may_ruff(left_voids, led, unseen) \
                        and (beat >> cm) & 1:
                    return cm
                if urgent:
                    return np.int64(highest_bit(beat))
            return np.int64(lowest_bit(follow))
        if beat:
            # void: ruff when the opponent's card would hold, or the trick is urgent
            wc_master = card_suit(win_card) == led and (unseen_led & above(win_card)) == 0
            if urgent or wc_master or card_rank(win_card) >= 10:
                c = np.int64(lowest_bit(beat))
                if may_ruff(left_voids, led, unseen):
                    cm = cheapest_master(beat, unseen & SP)  # lefty may over-ruff
                    if cm >= 0:
                        c = cm
                return c
        return low_card(lose if lose else legal, hand)

    # third hand (the partner led)
    if win_seat == partner and partner_secure(win_card, led, unseen, left_voids):
        return low_card(legal, hand)
    if beat:
        beat_follow = beat & suit_mask(led)
        if beat_follow:
            if may_ruff(left_voids, led, unseen):
                return np.int64(lowest_bit(follow))  # lefty ruffs anyway: keep the high card
            cm = cheapest_master(follow, unseen_led)
            if cm >= 0 and (beat >> cm) & 1:
                return cm
            if win_seat == partner:
                return np.int64(lowest_bit(follow))  # our best is no surer than the partner's card
            # third hand high (the lowest legal card worth as much)
            return lowest_equivalent(np.int64(highest_bit(beat_follow)), legal, unseen)
        if win_seat != partner:
            c = np.int64(lowest_bit(beat))
            if may_ruff(left_voids, led, unseen):
                cm = cheapest_master(beat, unseen & SP)
                if cm >= 0:
                    c = cm
            return c
    return low_card(legal, hand)


@njit(cache=True, inline="always")
def play_cards(seat, hand, legal, view, params, ranked):
    """Read the public view into scalars (straight-line code) and let ``decide`` choose; ``ranked`` (a constant
    at each call): a deuce deck's cards renamed into the rank space first and the card chosen named back.

    Keeping loops and branches unseen of the function that holds the arrays lets
    Numba drop its reference counting of them (no NRT calls are left in this
    function's machine code; with them, atomic increments on every call).
    """
    # a seat is 0..3: masked, the view indices derived from it are known to be non-negative and are compiled
    # without the negative-index wrap-around (docs/performance.md P85)
    seat = seat & 3
    partner = seat ^ 2
    lefty = (seat + 1) & 3
    righty = (seat + 3) & 3
    nplayed = view[V_NPLAYED]
    win_seat = view[V_WINNING_SEAT]
    t0 = view[V_TRICK]
    t1 = view[V_TRICK + 1]
    t2 = view[V_TRICK + 2]
    t3 = view[V_TRICK + 3]
    win_card = view[V_WINNING_CARD]  # -1 while leading
    deck = view[V_DECK]
    if deck == 0:
        deck = FULL_DECK
    played = view[V_PLAYED] | view[V_PLAYED + 1] | view[V_PLAYED + 2] | view[V_PLAYED + 3]
    # a deuce deck: the cards renamed into the rank space (cards.py), where ids grow with rank as every choice below
    # reads them (the highest card the highest bit); the card chosen is named back (``named``)
    deck_code = view[V_RULES + R_DECK]
    if ranked:
        hand = ranked_mask(hand, deck_code)
        legal = ranked_mask(legal, deck_code)
        deck = ranked_mask(deck, deck_code)
        played = ranked_mask(played, deck_code)
        t0 = ranked_card(t0, deck_code)
        t1 = ranked_card(t1, deck_code)
        t2 = ranked_card(t2, deck_code)
        t3 = ranked_card(t3, deck_code)
        win_card = ranked_card(win_card, deck_code)
    in_trick = bit_if(t0) | bit_if(t1) | bit_if(t2) | bit_if(t3)
    # outstanding cards: the other three hands together
    unseen = deck & ~hand & ~in_trick & ~played
    # the choices that need nothing more of the view, made before the bids and contracts are read
    # (docs/performance.md P56)
    lo = lowest_bit(legal)
    hi = highest_bit(legal)
    if popcount(legal) == 1:
        return named(lo, ranked, deck_code)
    if card_suit(lo) == card_suit(hi) and ((unseen | in_trick) & above(lo) & below(hi)) == 0:
        return named(lo, ranked, deck_code)  # all legal cards are equivalent (no other card between them)
    # contracts: a Nil bidder's tricks never count toward one (alone, cutthroat: the seat's own bid, and every
    # other seat an opponent)
    alone = view[V_RULES + R_PARTNERSHIPS] == 0
    team = seat & 1
    b_a = view[V_BID + team]
    b_b = view[V_BID + team + 2]
    o_a = view[V_BID + 1 - team]
    o_b = view[V_BID + 3 - team]
    need = (b_a - view[V_TRICKS + team]) * np.int64(b_a > 0) + (b_b - view[V_TRICKS + team + 2]) * np.int64(b_b > 0)
    opp_need = ((o_a - view[V_TRICKS + 1 - team]) * np.int64(o_a > 0)
                + (o_b - view[V_TRICKS + 3 - team]) * np.int64(o_b > 0))
    remaining = 13 - view[V_TRICK_NO]
    position = nplayed  # cards before this seat's: 3 is the last to play
    others = np.int64(3)  # the other hands at the table (the rules' seats less one)
    if alone:
        m_b = view[V_BID + seat]
        x_b = view[V_BID + partner]
        need = (m_b - view[V_TRICKS + seat]) * np.int64(m_b > 0)
        opp_need = opp_need + (x_b - view[V_TRICKS + partner]) * np.int64(x_b > 0)
        if view[V_RULES + R_SEATS] == 3:
            # three players (cutthroat3): the two others are the opponents to the left and right; the fourth slot
            # (no seat: bid -1, no card, no trick) stands in for the partner across, so that decide sees none.
            # 17 tricks a hand; the second to play is the last (decide's position 3).
            lefty = (seat + 1) % 3
            righty = (seat + 2) % 3
            partner = np.int64(3)
            others = np.int64(2)
            l_b, r_b = view[V_BID + lefty], view[V_BID + righty]
            opp_need = ((l_b - view[V_TRICKS + lefty]) * np.int64(l_b > 0)
                        + (r_b - view[V_TRICKS + righty]) * np.int64(r_b > 0))
            remaining = 17 - view[V_TRICK_NO]
            if nplayed == 2:
                position = np.int64(3)
        elif view[V_RULES + R_SEATS] == 2:
            # two players (twohanded): the other is the one opponent, on the left and the right; slot 3 (no seat:
            # bid -1, no card, no trick) stands in for the partner, so that decide sees none. Its own discards are
            # out of play, not outstanding; the second to play is the last (decide's position 3).
            lefty = seat ^ 1
            righty = lefty
            partner = np.int64(3)
            others = np.int64(1)
            l_b = view[V_BID + lefty]
            opp_need = (l_b - view[V_TRICKS + lefty]) * np.int64(l_b > 0)
            unseen &= ~(ranked_mask(view[V_PASSED], deck_code) if ranked else view[V_PASSED])
            if nplayed == 1:
                position = np.int64(3)
    my_bid, p_bid, l_bid, r_bid = view[V_BID + seat], view[V_BID + partner], view[V_BID + lefty], view[V_BID + righty]
    if view[V_RULES + R_ZERO_BID] == ZERO_BID_ZERO:  # the bids as_nil reads them, behind one test of the rule
        my_bid, p_bid, l_bid, r_bid = as_nil(my_bid, True), as_nil(p_bid, True), as_nil(l_bid, True), as_nil(r_bid, True)
    p_card, l_card, r_card = view[V_TRICK + partner], view[V_TRICK + lefty], view[V_TRICK + righty]
    if ranked:
        p_card, l_card, r_card = ranked_card(p_card, deck_code), ranked_card(l_card, deck_code), ranked_card(r_card,
                                                                                                              deck_code)
    c = decide(seat, hand, legal, unseen, in_trick, position, view[V_LED_SUIT], win_seat, win_card,
               my_bid, view[V_TRICKS + seat],
               p_bid, view[V_TRICKS + partner], p_card,
               l_bid, view[V_TRICKS + lefty], l_card,
               r_bid, view[V_TRICKS + righty], r_card,
               view[V_VOID + lefty], view[V_VOID + righty], view[V_VOID + partner],
               need, opp_need, remaining, view[V_BAGS + seat], view[V_BAG_LIMIT],
               (np.int64(params[P_BAG_MODE]), params[P_BAG_GUARD], params[P_COVER_NIL] > 0,
                params[P_ATTACK_NIL] > 0, params[P_SECOND_CASH] > 0, alone, lefty, righty, others))
    return named(c, ranked, deck_code)


@njit(cache=True)
def play_ranked(seat, hand, legal, view, params):
    """``play`` on a deuce deck: its cards renamed (``play_cards``)."""
    return play_cards(seat, hand, legal, view, params, True)


@njit(PLAY_SIG, cache=True)
def play(seat, hand, legal, view, params, rng):
    """The card to play. A deuce deck's play (its cards renamed) is a function of its own, called behind one test
    of the deck's code; every other deck's is ``play_cards`` without the renaming, inlined here (and with ``play``
    into the self-play kernel), where a renaming behind a runtime test cost every hand (docs/performance.md
    P101). The arrays go to the call borrowed (no reference counting around it: simulator/borrow.py)."""
    if unlikely(renames(view[V_RULES + R_DECK])):
        return play_ranked(seat, hand, legal, borrowed(view), borrowed(params))
    return play_cards(seat, hand, legal, view, params, False)


# self-play gets a kernel with this strategy compiled in (docs/performance.md P4, P5)
compile_in(__name__, blind_nil, bid, play, at_lead=False)
