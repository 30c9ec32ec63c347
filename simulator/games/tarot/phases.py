"""The phases of a Tarot deal: the rules, one step at a time, over the deal's state arrays.

Every rule of a deal lives here, once (RULES.md Part 2, docs/rules.md): the deal and Petit sec,
who may bid what, the chien and the discard, the Chelem declaration, the poignée shown, the legal
cards, what a card does to the trick, the end of a trick with the Excuse, the count and the
settlement. Two drivers compose the same phases:

* the batch kernel (``kernel.play_deal``), which inlines them (``inline="always"``) and asks the
  seat policies at each decision;
* the step API (``state.TarotState``), which calls them one action at a time from Python.

The state of a deal is a few arrays: ``suits[4]`` and ``trumps[4]`` (each seat's hand, two words,
cards.py), ``chien[2]`` (suits, trumps), the public ``view`` (``policy.py`` lays it out), the random
stream ``rng[1]``, ``trick_winner[18]`` and the ``tally`` (``T_*`` below: what the count needs that
the view does not hold). The trick in progress is held as values the drivers pass along: ``led``
(the suit to follow: 0..3, 4 trumps, -1 none yet), ``win_seat``, ``win_card`` and ``high`` (the
highest trump's bit, -1 none); so is the discard, as two words ``discard_s``, ``discard_t``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from tricksim.simulator.bits import lowest_bit, popcount
from tricksim.simulator.games.tarot import scoring
from tricksim.simulator.games.tarot.cards import (
    EXCUSE,
    EXCUSE_BIT,
    FIRST_TRUMP,
    HALF_POINTS,
    KINGS_S,
    MONDE,
    N_CARDS,
    OUDLERS_T,
    PETIT,
    RANK_KING,
    SUIT_CARDS,
    SUIT_MASK,
    TRUMPS_ONLY,
)
from tricksim.simulator.games.tarot.policy import (
    MAX_SEATS,
    N_SEATS,
    V_BID,
    V_BID_ORDER,
    V_CALL_RANK,
    V_CALLED,
    V_CHELEM,
    V_CHIEN_S,
    V_CHIEN_T,
    V_CONTRACT,
    V_DEALER,
    V_DISCARD_T,
    V_HIGH_TRUMP,
    V_LEADER,
    V_LED_SUIT,
    V_MIN_BID,
    V_NPLAYED,
    V_PARTNER,
    V_PLAY_CARD,
    V_PLAY_SEAT,
    V_PLAYED_S,
    V_PLAYED_T,
    V_POIGNEE,
    V_POIGNEE_BASE,
    V_POIGNEE_EXCUSE,
    V_POIGNEE_EXTRA,
    V_POIGNEE_MAX,
    V_POIGNEE_T,
    V_RULES,
    V_SEAT,
    V_TAKER,
    V_TAKER_HALF,
    V_TO_DISCARD,
    V_TRICK,
    V_TRICK_NO,
    V_TRICKS,
    V_VOIDS,
    V_WINNING_CARD,
    V_WINNING_SEAT,
)
from tricksim.simulator.games.tarot.rules import CHOICES
from tricksim.simulator.record import write_rules
from tricksim.simulator.rng import STREAM_DEAL, shuffle, stream_key

HAND_CARDS = 18             # four players (hand_cards(seats) for any seat count)
CHIEN_CARDS = 6             # three or four players (chien_cards(seats): 3 for five)
N_TRICKS = 18               # four players (n_tricks(seats))
TRUMP_LED = 4
EXCUSE_T = 1 << EXCUSE_BIT
DISCARD_FREE = CHOICES["discard_trumps"].index("free")
POIGNEE_AS_DEALT = CHOICES["poignee_hand"].index("as_dealt")
POIGNEE_EXCUSE_ALWAYS = CHOICES["poignee_excuse"].index("always")
FOUR_KINGS_NEVER = CHOICES["poignee_four_kings"].index("never")
EXCUSE_LAST_ANNOUNCED_ONLY = CHOICES["excuse_last_trick"].index("announced_only")
EXCUSE_TO_TRICK_WINNER = CHOICES["excuse_last_trick_side"].index("trick_winner")
EXCUSE_LEAD_FORBIDDEN = CHOICES["excuse_lead"].index("forbidden")
TARGET_HELD = CHOICES["target_oudlers"].index("held")
CHELEM_BOTH = CHOICES["chelem_defenders_slam"].index("both")
CALL_OWN_FORBIDDEN = CHOICES["call_own"].index("forbidden")
CALL_LOWER_RANK_OR_KING = CHOICES["call_four_kings"].index("lower_rank_or_king")
PRISE, GARDE, GARDE_SANS, GARDE_CONTRE = 1, 2, 3, 4
VOID_NONE, VOID_ALL_PASS, VOID_PETIT_SEC = 0, 1, 2
POIGNEE_CARDS = np.array(scoring.POIGNEE_CARDS, dtype=np.int64)  # four players
# POIGNEE_CARDS_BY_SEATS[seats, level]: the cards of a poignée of that level (rows of unsupported seat counts 0)
POIGNEE_CARDS_BY_SEATS = np.zeros((MAX_SEATS + 1, 4), dtype=np.int64)
for _seats, _cards in scoring.POIGNEE_CARDS_BY_SEATS.items():
    POIGNEE_CARDS_BY_SEATS[_seats] = _cards
POIGNEE_VALUE = np.array(scoring.POIGNEE_VALUE, dtype=np.int64)

# the tally: what the count needs beyond the view (trick numbers 0..17, -1 while not played)
T_EXCUSE_OWNER = 0   # the seat that played the Excuse
T_EXCUSE_TRICK = 1   # the trick it was played to
T_PETIT_TRICK = 2
T_MONDE_TRICK = 3
T_EXCEPTION = 4      # 1 when the Excuse, led to the last trick by a side that won the 17 others, won it
T_POIGNEE = 5        # the value of every poignée shown (scoring.POIGNEE_VALUE)
T_HELD_OUDLERS = 6   # the oudlers in the taker's hand at the first trick
T_PARTNER = 7        # five players: the seat dealt the called card (the taker's partner), -1 none (alone; 3, 4 players)
T_CAMP_HALF = 8      # half-points won in tricks by the taker's side (the taker and its partner) so far
N_TALLY = 9

settle = njit(cache=True)(scoring.settle)
_seat_score = njit(cache=True)(scoring.seat_score)


# ------------------------------------------------------------------ deal sizes
# ``seats`` (rules.seats) sets the sizes: the arrays of a deal are sized for N_SEATS (policy.py), the most
# seats the kernels hold; only seats 0..seats-1 are dealt, asked and scored.
@njit(inline="always", cache=True)
def chien_cards(seats):
    """The chien: six cards for three or four players, three for five."""
    return 3 if seats == 5 else 6


@njit(inline="always", cache=True)
def hand_cards(seats):
    """The cards dealt to each seat: 24 for three players, 18 for four, 15 for five."""
    return (N_CARDS - chien_cards(seats)) // seats


@njit(inline="always", cache=True)
def n_tricks(seats):
    """The tricks of a deal: one for each card of a hand."""
    return hand_cards(seats)


# ------------------------------------------------------------------------ deal
@njit(inline="always", cache=True)
def deal(seed, deal_id, deck, suits, trumps, chien, rng, seats):
    """Shuffle the 78 cards on the deal's stream (``rng`` is scratch for it) and deal them (``distribute``)."""
    rng[0] = stream_key(seed, deal_id, 0, STREAM_DEAL)
    for i in range(N_CARDS):
        deck[i] = i
    shuffle(rng, deck, N_CARDS)
    distribute(deck, suits, trumps, chien, seats)


@njit(inline="always", cache=True)
def dealer_of(deal_id, seats):
    """The dealer of deal ``deal_id``: the deal passes to the next seat each deal."""
    return deal_id % seats


@njit(inline="always", cache=True)
def distribute(deck, suits, trumps, chien, seats):
    """Deal the cards in the order of ``deck``: positions hs..hs+h-1 to seat s (h = ``hand_cards(seats)``:
    18 for four players), the rest (the last six for three or four) to the chien (``chien[0]`` suits,
    ``chien[1]`` trumps)."""
    hand = hand_cards(seats)
    for s in range(N_SEATS):
        suits[s] = 0
        trumps[s] = 0
    chien[0] = 0
    chien[1] = 0
    for p in range(N_CARDS):
        c = deck[p]
        s = p // hand  # seats (or more) = the chien
        if c < FIRST_TRUMP:
            if s < seats:
                suits[s] |= np.int64(1) << c
            else:
                chien[0] |= np.int64(1) << c
        elif s < seats:
            trumps[s] |= np.int64(1) << (c - FIRST_TRUMP)
        else:
            chien[1] |= np.int64(1) << (c - FIRST_TRUMP)


@njit(inline="always", cache=True)
def petit_sec(trumps, seats):
    """Some hand's only trump is the Petit, without the Excuse (RULES.md 2.2)."""
    for s in range(seats):
        if trumps[s] == 1:
            return True
    return False


@njit(inline="always", cache=True)
def start_deal(rules, view, tally, dealer):
    """The public view and the tally as the bidding begins: no bid, no card played, the rules record
    (policy.py)."""
    tally[T_EXCUSE_OWNER] = -1
    tally[T_EXCUSE_TRICK] = -1
    tally[T_PETIT_TRICK] = -1
    tally[T_MONDE_TRICK] = -1
    tally[T_EXCEPTION] = 0
    tally[T_POIGNEE] = 0
    tally[T_HELD_OUDLERS] = 0
    tally[T_PARTNER] = -1
    tally[T_CAMP_HALF] = 0
    for i in range(V_BID_ORDER):
        view[i] = 0
    for i in range(V_BID_ORDER, V_RULES):  # the history: nothing yet
        view[i] = -1
    write_rules(rules, view, V_RULES)
    view[V_DEALER] = dealer
    view[V_TAKER] = -1
    for s in range(N_SEATS):
        view[V_BID + s] = -1
        view[V_TRICK + s] = -1
    view[V_LED_SUIT] = -1
    view[V_WINNING_SEAT] = -1
    view[V_WINNING_CARD] = -1
    view[V_HIGH_TRUMP] = -1
    view[V_CALLED] = -1
    view[V_PARTNER] = -1


# --------------------------------------------------------------------- bidding
@njit(inline="always", cache=True)
def bidder(dealer, k, seats):
    """The seat that speaks ``k``-th: the player right of the dealer first (seats go in order of play)."""
    return (dealer + 1 + k) % seats


@njit(inline="always", cache=True)
def start_bid(view, s, highest):
    """Seat ``s`` is to bid, ``highest`` the contract so far (0 none). The lowest bid left in the view stays
    there after the bidding."""
    view[V_SEAT] = s
    view[V_MIN_BID] = highest + 1


@njit(inline="always", cache=True)
def bid_is_legal(b, highest):
    """Pass, or a contract above the highest so far."""
    return b == 0 or (highest < b <= GARDE_CONTRE)


@njit(inline="always", cache=True)
def apply_bid(view, s, b, taker, highest, seats):
    """Seat ``s`` bids ``b`` (legal); returns the (taker, contract) so far (-1, 0 while all pass)."""
    view[V_BID + s] = b
    view[V_BID_ORDER + (s - view[V_DEALER] - 1) % seats] = b
    if b > 0:
        view[V_CONTRACT] = b
        return s, b
    return taker, highest


@njit(inline="always", cache=True)
def end_bidding(view, taker):
    """Someone took (``taker`` >= 0; when all pass the deal is void)."""
    view[V_TAKER] = taker


# ------------------------------------------------------------ the call (five players)
@njit(inline="always", cache=True)
def rank_cards(r):
    """The four suit cards of rank ``r`` (cards.RANK_*), as a suits word."""
    out = np.int64(0)
    for u in range(4):
        out |= np.int64(1) << (u * SUIT_CARDS + r)
    return out


@njit(inline="always", cache=True)
def call_rank(suits):
    """The rank the taker holding ``suits`` calls: the king; a queen when it holds the four kings; a knight when
    it holds the four kings and the four queens; and so on (docs/rules.md, five players)."""
    r = RANK_KING
    while r > 0 and (suits & rank_cards(r)) == rank_cards(r):
        r -= 1
    return r


@njit(inline="always", cache=True)
def call_legal(call_own, call_four_kings, suits):
    """The cards (a suits word) the taker holding ``suits`` may call: the four of ``call_rank``, without its own
    under call_own=forbidden; a lower rank's call may be one of its own kings under
    call_four_kings=lower_rank_or_king (with call_own allowed). ``call_own``, ``call_four_kings``: the flags' kernel
    values (a policy reads them in the view: ``view[V_RULES + R_CALL_OWN]``, ``view[V_RULES + R_CALL_FOUR_KINGS]``)."""
    r = call_rank(suits)
    legal = rank_cards(r)
    own_ok = call_own != CALL_OWN_FORBIDDEN
    if not own_ok:
        legal &= ~suits
    if r != RANK_KING and own_ok and call_four_kings == CALL_LOWER_RANK_OR_KING:
        legal |= KINGS_S
    return legal


@njit(inline="always", cache=True)
def start_call(rules, view, suits, taker):
    """The taker (holding ``suits``, before the chien) is to call a card: the legal calls (a suits word)."""
    view[V_SEAT] = taker
    view[V_CALL_RANK] = call_rank(suits)
    return call_legal(rules.call_own, rules.call_four_kings, suits)


@njit(inline="always", cache=True)
def apply_call(view, tally, suits, c, taker, seats):
    """The taker calls card ``c`` (legal): public. Its holder, another seat, is the taker's partner (tally only:
    the view tells nobody until the card is played); a card of the taker's own or in the chien: no partner."""
    view[V_CALLED] = c
    partner = -1
    for s in range(seats):
        if s != taker and (suits[s] >> c) & 1 == 1:
            partner = s
    tally[T_PARTNER] = partner
    view[V_CALL_RANK] = 0


# ----------------------------------------------------------------- chien and discard
@njit(inline="always", cache=True)
def takes_chien(contract):
    """Prise and Garde: the chien is shown, taken and six cards discarded; Garde sans and contre: neither."""
    return contract <= GARDE


@njit(inline="always", cache=True)
def show_chien(view, suits, trumps, chien, taker):
    """The chien is shown to all and joins the taker's hand."""
    view[V_CHIEN_S] = chien[0]
    view[V_CHIEN_T] = chien[1]
    suits[taker] |= chien[0]
    trumps[taker] |= chien[1]
    view[V_SEAT] = taker

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


@njit(inline="always", cache=True)
def start_discard(rules, view, suits, trumps, i):
    """The taker, holding (suits, trumps), is to discard its card ``i`` (0..5 with a chien of six): the legal
    cards."""
    to_discard = chien_cards(rules.seats) - i
    view[V_TO_DISCARD] = to_discard
    return discard_legal(rules, suits, trumps, to_discard)


@njit(inline="always", cache=True)
def apply_discard(view, suits, trumps, taker, c, discard_s, discard_t):
    """The taker discards card ``c`` (legal); returns the discard so far. A trump discarded is shown."""
    if c < FIRST_TRUMP:
        discard_s |= np.int64(1) << c
        suits[taker] &= ~(np.int64(1) << c)
    else:
        discard_t |= np.int64(1) << (c - FIRST_TRUMP)
        trumps[taker] &= ~(np.int64(1) << (c - FIRST_TRUMP))
        view[V_DISCARD_T] = discard_t
    return discard_s, discard_t


@njit(inline="always", cache=True)
def end_discard(view):
    view[V_TO_DISCARD] = 0


# ---------------------------------------------------------------------- Chelem
@njit(inline="always", cache=True)
def start_chelem(view, taker):
    """The taker is to declare Chelem or not, before the first trick."""
    view[V_SEAT] = taker


@njit(inline="always", cache=True)
def declare_chelem(view, tally, trumps, dealer, taker, announced, seats):
    """The taker announced Chelem (``announced`` != 0) or not; play begins. Records the oudlers the taker
    holds; returns (1 announced else 0, the first trick's leader: the taker after an announcement, else
    the player right of the dealer)."""
    chelem = 1 if announced != 0 else 0
    view[V_CHELEM] = chelem
    tally[T_HELD_OUDLERS] = popcount(trumps[taker] & OUDLERS_T)
    return chelem, taker if chelem else (dealer + 1) % seats


# --------------------------------------------------------------------- poignée
@njit(inline="always", cache=True)
def poignee_pools(poignee_excuse, base, has_excuse, extra, n, triple):
    """The pools a poignée of ``n`` cards may be shown from, as trumps words, 0 for a pool that does not apply
    (RULES.md 2.5, 2.9; docs/rules.md): any ``n`` cards of one pool that applies are a legal poignée.

    ``base``: the trumps the poignée is judged on; ``has_excuse``: that hand holds the Excuse; ``extra``: the
    discarded trumps the four-kings exception lets the taker add to a triple (0 when it does not apply);
    ``triple``: the cards of a triple poignée (``POIGNEE_CARDS_BY_SEATS[seats, 3]``: 15 for four players).
    Returns (trumps: ``base`` when it holds ``n`` trumps; with the Excuse: ``base`` and the Excuse, when the
    Excuse may stand in (every trump held shown, or poignee_excuse=always) -- a set drawn from it without the
    Excuse is one of the first pool; four kings: ``base`` and ``extra`` for a triple, never the Excuse).
    ``poignee_excuse`` is the flag's kernel value."""
    k = popcount(base)
    trumps_pool = base if k >= n else np.int64(0)
    excuse_pool = np.int64(0)
    if has_excuse and k >= n - 1 and (k == n - 1 or poignee_excuse == POIGNEE_EXCUSE_ALWAYS):
        excuse_pool = base | EXCUSE_T
    kings_pool = np.int64(0)
    if n == triple and extra != 0 and popcount(base | extra) >= triple:
        kings_pool = base | extra
    return trumps_pool, excuse_pool, kings_pool


@njit(inline="always", cache=True)
def poignee_level(poignee_excuse, base, has_excuse, extra, shown, seats):
    """The level (1..3) of showing the trumps word ``shown`` (``POIGNEE_CARDS_BY_SEATS[seats, level]`` cards:
    10, 13 or 15 for four players; all of one pool of ``poignee_pools``), 0 for none (``shown`` 0), -1 when
    it is not a legal poignée."""
    if shown == 0:
        return 0
    n = popcount(shown)
    triple = POIGNEE_CARDS_BY_SEATS[seats, 3]
    for level in range(1, 4):
        if POIGNEE_CARDS_BY_SEATS[seats, level] == n:
            a, b, c = poignee_pools(poignee_excuse, base, has_excuse, extra, n, triple)
            for pool in (a, b, c):
                if pool != 0 and (shown & ~pool) == 0:
                    return level
            return -1
    return -1


@njit(inline="always", cache=True)
def poignee_next(poignee_excuse, base, has_excuse, extra, n, triple, chosen):
    """The cards (trumps word) that may be added to ``chosen`` (fewer than ``n`` cards) on the way to a legal
    poignée of ``n`` cards: those of every pool that holds ``chosen`` (the step API, one card an action)."""
    a, b, c = poignee_pools(poignee_excuse, base, has_excuse, extra, n, triple)
    out = np.int64(0)
    for pool in (a, b, c):
        if pool != 0 and (chosen & ~pool) == 0:
            out |= pool & ~chosen
    return out


@njit(inline="always", cache=True)
def poignee_basis(rules, s, taker, contract, trumps, dealt_trumps, suits, discard_t):
    """(base trumps, has the Excuse, the four-kings extra) for seat ``s``'s poignée, before its first card."""
    with_discard = s == taker and contract <= GARDE
    base = trumps[s] & TRUMPS_ONLY
    excuse = trumps[s] & EXCUSE_T
    if with_discard and rules.poignee_hand == POIGNEE_AS_DEALT:
        base = dealt_trumps & TRUMPS_ONLY
        excuse = dealt_trumps & EXCUSE_T  # the Excuse too as dealt: not one found in the chien
    extra = np.int64(0)
    if with_discard and rules.poignee_four_kings != FOUR_KINGS_NEVER and (suits[s] & KINGS_S) == KINGS_S:
        extra = discard_t & TRUMPS_ONLY
    return base, excuse != 0, extra


@njit(inline="always", cache=True)
def start_poignee(rules, view, s, taker, contract, trumps, dealt_trumps, suits, discard_t):
    """Seat ``s`` is about to play its first card: the highest poignée level it may show (0 none). The view
    gets that level and what the poignée is judged on (V_POIGNEE_BASE, _EXTRA, _EXCUSE: ``poignee_pools``)."""
    base, has_excuse, extra = poignee_basis(rules, s, taker, contract, trumps, dealt_trumps, suits, discard_t)
    most = 0
    triple = POIGNEE_CARDS_BY_SEATS[rules.seats, 3]
    for level in range(3, 0, -1):
        a, b, c = poignee_pools(rules.poignee_excuse, base, has_excuse, extra, POIGNEE_CARDS_BY_SEATS[rules.seats, level],
                                triple)
        if a != 0 or b != 0 or c != 0:
            most = level
            break
    view[V_POIGNEE_MAX] = most
    view[V_POIGNEE_BASE] = base
    view[V_POIGNEE_EXTRA] = extra
    view[V_POIGNEE_EXCUSE] = 1 if has_excuse else 0
    return most


@njit(inline="always", cache=True)
def poignee_is_legal(rules, view, shown):
    """The level of the poignée ``shown`` (a trumps word, 0 none) by the seat ``start_poignee`` set up; -1 when
    it is not legal: 10, 13 or 15 cards, all of one pool (``poignee_pools``)."""
    return poignee_level(rules.poignee_excuse, view[V_POIGNEE_BASE], view[V_POIGNEE_EXCUSE] != 0,
                         view[V_POIGNEE_EXTRA], shown, rules.seats)


@njit(inline="always", cache=True)
def apply_poignee(view, tally, s, level, shown):
    """Seat ``s`` shows the trumps word ``shown``, a poignée of ``level`` (legal; 0 none)."""
    if level > 0:
        view[V_POIGNEE + s] = level
        view[V_POIGNEE_T + s] = shown
        tally[T_POIGNEE] += POIGNEE_VALUE[level]
    view[V_POIGNEE_MAX] = 0
    view[V_POIGNEE_BASE] = 0
    view[V_POIGNEE_EXTRA] = 0
    view[V_POIGNEE_EXCUSE] = 0


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
def card_in(c, legal_s, legal_t):
    """Card ``c`` is one of the legal (suits, trumps)."""
    if c < 0 or c >= N_CARDS:
        return False
    if c < FIRST_TRUMP:
        return (legal_s >> c) & 1 == 1
    return (legal_t >> (c - FIRST_TRUMP)) & 1 == 1


@njit(inline="always", cache=True)
def only_card(legal_s, legal_t):
    """The one legal card, played without asking; -1 when there is a choice."""
    if (legal_s & (legal_s - 1)) == 0 and (legal_t & (legal_t - 1)) == 0 and (legal_s == 0 or legal_t == 0):
        return lowest_bit(legal_s) if legal_s != 0 else FIRST_TRUMP + lowest_bit(legal_t)
    return -1


@njit(inline="always", cache=True)
def apply_card(view, suits, trumps, s, c, led, win_seat, win_card, high, seats):
    """Seat ``s`` plays card ``c``: it leaves the hand and enters the trick. Returns the trick's new
    (led, win_seat, win_card, high). The Excuse never wins here (the last-trick exception is
    ``end_trick``'s)."""
    k = view[V_NPLAYED]
    view[V_TRICK + s] = c
    view[V_NPLAYED] = k + 1
    i = seats * view[V_TRICK_NO] + k
    view[V_PLAY_CARD + i] = c
    view[V_PLAY_SEAT + i] = s
    if c == view[V_CALLED]:  # five players: the called card shows its holder, the taker's partner (or the taker)
        view[V_PARTNER] = s
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
    """Trick ``t`` begins, ``leader`` to lead."""
    view[V_TRICK_NO] = t
    view[V_LEADER] = leader
    view[V_NPLAYED] = 0
    view[V_LED_SUIT] = -1
    view[V_WINNING_SEAT] = -1
    view[V_WINNING_CARD] = -1
    view[V_HIGH_TRUMP] = -1
    for s in range(N_SEATS):
        view[V_TRICK + s] = -1


@njit(inline="always", cache=True)
def turn(view, leader, k, seats):
    """The seat to play the ``k``-th card of the trick led by ``leader``."""
    s = (leader + k) % seats
    view[V_SEAT] = s
    return s


# ------------------------------------------------------------ end of a trick
@njit(inline="always", cache=True)
def end_trick(rules, view, tally, trick_winner, win_seat):
    """The cards of the trick, one a seat, are in (``view``): who takes it, and what it counts for the taker
    (RULES.md 2.7, 2.9). Before the last trick the Excuse stays with its owner's side, counted 4.0, and
    the trick's winners gain 0.5; the Excuse led to the last trick by a side that won the 17 others wins
    it; otherwise an Excuse in the last trick goes, in full, to the side opposite its owner (flag
    excuse_last_trick_side=trick_winner: to the trick's winner). Returns the winner, who leads the next
    trick."""
    t = view[V_TRICK_NO]
    leader = view[V_LEADER]
    taker = view[V_TAKER]
    last = n_tricks(rules.seats) - 1
    trick_half = 0
    for s in range(rules.seats):
        c = view[V_TRICK + s]
        trick_half += HALF_POINTS[c]
        if c == EXCUSE:
            tally[T_EXCUSE_OWNER] = s
            tally[T_EXCUSE_TRICK] = t
        elif c == PETIT:
            tally[T_PETIT_TRICK] = t
        elif c == MONDE:
            tally[T_MONDE_TRICK] = t
    excuse_here = tally[T_EXCUSE_TRICK] == t
    owner = tally[T_EXCUSE_OWNER]
    partner = tally[T_PARTNER]  # the taker's side: the taker and its partner (five players; -1 none)
    taker_tricks = camp_tricks(view, taker, partner)
    winner = win_seat
    if t == last and excuse_here and owner == leader:
        leader_attacks = leader == taker or leader == partner
        side_won_all = taker_tricks == last if leader_attacks else taker_tricks == 0
        allowed = rules.excuse_last_trick != EXCUSE_LAST_ANNOUNCED_ONLY or (view[V_CHELEM] == 1 and leader_attacks)
        if side_won_all and allowed:
            winner = leader
            tally[T_EXCEPTION] = 1
    to_taker = winner == taker or winner == partner
    owner_attacks = owner == taker or owner == partner
    if excuse_here and t < last and owner_attacks != to_taker:
        if to_taker:
            tally[T_CAMP_HALF] += trick_half - 9 + 1
        else:
            tally[T_CAMP_HALF] += 8
    elif (excuse_here and t == last and tally[T_EXCEPTION] == 0
          and rules.excuse_last_trick_side != EXCUSE_TO_TRICK_WINNER):
        # the last trick: the Excuse (9 half-points) goes to the side opposite its owner, whoever wins it
        if to_taker:
            tally[T_CAMP_HALF] += trick_half - 9
        if not owner_attacks:
            tally[T_CAMP_HALF] += 9
    elif to_taker:
        tally[T_CAMP_HALF] += trick_half
    if rules.seats != 5 or view[V_PARTNER] >= 0:  # public once the sides are: never before the partner is known
        view[V_TAKER_HALF] = tally[T_CAMP_HALF]
    view[V_TRICKS + winner] += 1
    trick_winner[t] = winner
    return winner


@njit(inline="always", cache=True)
def camp_tricks(view, taker, partner):
    """The tricks won so far by the taker's side (the taker, and its partner when there is one)."""
    n = view[V_TRICKS + taker]
    if partner >= 0:
        n += view[V_TRICKS + partner]
    return n


# ------------------------------------------------------------- count and score
@njit(inline="always", cache=True)
def half_points(mask_s, mask_t):
    """The cards' value in half-points."""
    total = 0
    while mask_s:
        b = mask_s & -mask_s
        total += HALF_POINTS[lowest_bit(b)]
        mask_s ^= b
    while mask_t:
        b = mask_t & -mask_t
        total += HALF_POINTS[FIRST_TRUMP + lowest_bit(b)]
        mask_t ^= b
    return total


@njit(inline="always", cache=True)
def count(rules, view, tally, trick_winner, chien, discard_s, discard_t):
    """The count after the last trick (RULES.md 2.8): (the taker's half-points (odd when an Excuse in the last
    trick changed sides), the oudlers that set the
    target, petit au bout: +1 the taker's side, -1 the defence, 0 none, scoring.SLAM_*)."""
    taker = view[V_TAKER]
    partner = tally[T_PARTNER]
    contract = view[V_CONTRACT]
    taker_half = tally[T_CAMP_HALF]
    tricks = n_tricks(rules.seats)
    counted_t = np.int64(0)  # the oudlers counted for the taker's side (trumps word)
    petit_trick = tally[T_PETIT_TRICK]
    if petit_trick >= 0 and (trick_winner[petit_trick] == taker or trick_winner[petit_trick] == partner):
        counted_t |= np.int64(1)
    monde_trick = tally[T_MONDE_TRICK]
    if monde_trick >= 0 and (trick_winner[monde_trick] == taker or trick_winner[monde_trick] == partner):
        counted_t |= np.int64(1) << 20
    exception = tally[T_EXCEPTION] == 1
    excuse_trick = tally[T_EXCUSE_TRICK]
    if excuse_trick >= 0:
        owner = tally[T_EXCUSE_OWNER]
        excuse_to_taker = owner == taker or owner == partner  # it stays with its owner's side...
        if excuse_trick == tricks - 1 and not exception:  # ...except in the last trick
            if rules.excuse_last_trick_side == EXCUSE_TO_TRICK_WINNER:
                excuse_to_taker = trick_winner[excuse_trick] == taker or trick_winner[excuse_trick] == partner
            else:
                excuse_to_taker = not excuse_to_taker
        if excuse_to_taker:
            counted_t |= np.int64(1) << EXCUSE_BIT
    if contract == GARDE_SANS:
        taker_half += half_points(chien[0], chien[1])
        counted_t |= chien[1] & OUDLERS_T
    elif takes_chien(contract):
        taker_half += half_points(discard_s, discard_t)
    oudlers = tally[T_HELD_OUDLERS] if rules.target_oudlers == TARGET_HELD else popcount(counted_t)
    last = tricks - 2 if exception else tricks - 1  # a slam's last trick won by the Excuse: the one before
    petit_au_bout = 0
    if petit_trick == last:
        petit_au_bout = 1 if trick_winner[last] == taker or trick_winner[last] == partner else -1
    taker_tricks = camp_tricks(view, taker, partner)
    slam = scoring.SLAM_TAKER if taker_tricks == tricks else (scoring.SLAM_DEFENCE if taker_tricks == 0 else 0)
    return taker_half, oudlers, petit_au_bout, slam


@njit(inline="always", cache=True)
def score(rules, view, tally, taker_half, oudlers, petit_au_bout, slam):
    """The settlement (RULES.md 2.8, ``scoring.settle``): (target, won, the per-defender amount t signed
    from the taker's side)."""
    return settle(rules.chelem_defenders_slam == CHELEM_BOTH, view[V_CONTRACT], taker_half, oudlers, petit_au_bout,
                  tally[T_POIGNEE], view[V_CHELEM], slam)


@njit(inline="always", cache=True)
def seat_score(s, taker, amount, seats, partner):
    """Seat ``s``'s score: the taker (seats - 1) t, each defender -t; five players with a partner: the taker 2t,
    the partner t (zero-sum; ``scoring.seat_score``)."""
    return _seat_score(s, taker, amount, seats, partner)
