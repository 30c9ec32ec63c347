"""The phases of a Spades hand: the rules, one step at a time, over the hand's state arrays.

Every rule of a hand lives here, once: the deal, who may bid what, the Blind
Nil exchange, who leads, which cards are legal, what a card does to the trick,
and the score. Two drivers compose the same phases:

* the batch kernel (``kernel.play_hand``), which inlines them into its loops
  (``inline="always"``: the compiled loop is what it was before the split) and
  asks the seat policies for each decision;
* the step API (``state.SpadesState``), which calls them one action at a time
  from Python, for a person at the table, a search player and the tests.

The seat count ``n`` (``rules.seats``: 4, or 3 in cutthroat3) is an argument of the phases whose seat
arithmetic depends on it, 4 by default: the batch kernel passes a compile-time constant (its 4-seat code is
what it was before three players existed: ``seat_mod`` is ``& 3`` there), the step API a plain integer.
The arrays keep four seat slots with three players (the fourth unused: bid -1, no cards).

The state of a hand is a handful of arrays (``state.HandArrays`` names them):
``hands[4]`` (each seat's cards), ``tricks[4]``, the public ``view``
(``policy.py`` lays it out), the streams ``streams[5, 1]`` (each seat's, then the deal's), and the game's
running ``totals[4]`` and ``bags[4]`` (one entry a side: entries 0, 1 for the two teams, 0..3 for the players of
cutthroat). The trick in progress is also held as
values the drivers pass along (``led``, ``win_seat``, ``win_card``,
``broken``): in the batch kernel they stay in registers.

``policy.py`` documents the public view; RULES.md (docs/rules.md) the rules.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from tricksim.simulator.bits import popcount
from tricksim.simulator.games.spades import scoring
from tricksim.simulator.games.spades.cards import SPADES
from tricksim.simulator.games.spades.decks import BEATING as DECK_BEATING
from tricksim.simulator.games.spades.decks import SUIT_MASKS as DECK_SUIT_MASKS
from tricksim.simulator.games.spades.decks import SUIT_OF as DECK_SUIT_OF
from tricksim.simulator.games.spades.policy import (
    EXCHANGE_DRAW,
    EXCHANGE_GIVE_BACK,
    EXCHANGE_GIVE_FIRST,
    R_BID_RULE,
    R_DECK,
    R_SEATS,
    V_BAG_LIMIT,
    V_BAGS,
    V_BID,
    V_BID_ORDER,
    V_BLIND,
    V_BLIND_NIL_VALUE,
    V_BROKEN,
    V_DEALER,
    V_DECK,
    V_DRAW_CARD,
    V_EXCHANGE_N,
    V_EXCHANGE_ROLE,
    V_HAND_NO,
    V_LEADER,
    V_LED_SUIT,
    V_MIN_BID,
    V_NIL_ALLOWED,
    V_NIL_VALUE,
    V_NPLAYED,
    V_PLAY_CARD,
    V_PLAY_SEAT,
    V_PLAYED,
    V_RULES,
    V_SCORE,
    V_SEAT,
    V_TARGET,
    V_TRICK,
    V_TRICK_NO,
    V_TRICKS,
    V_VOID,
    V_WINNING_CARD,
    V_WINNING_SEAT,
)
from tricksim.simulator.games.spades.rules import CHOICES, NO_MERCY
from tricksim.simulator.games.spades.scoring import END_MERCY, END_NONE, END_TARGET, MERCY_BEFORE_TARGET, NO_PARTNER
from tricksim.simulator.record import write_rules
from tricksim.simulator.rng import STREAM_DEAL, shuffle, start_policy_streams, stream_key

FIRST_LEAD_TWO_OF_CLUBS = CHOICES["first_lead"].index("two_of_clubs")
ELIGIBLE_TRAILING = CHOICES["blind_nil_eligibility"].index("trailing")
EXCHANGE_BIDDER_FIRST = CHOICES["exchange_order"].index("bidder_first")
BID_FREE = CHOICES["bid_rule"].index("free")
BID_SUICIDE = CHOICES["bid_rule"].index("suicide")
BID_WHIZ = CHOICES["bid_rule"].index("whiz")
BID_MIRROR = CHOICES["bid_rule"].index("mirror")
ZERO_BID_ZERO = CHOICES["zero_bid"].index("zero")
NO_NUMERIC_BID = 14  # view[V_MIN_BID] when the seat must bid Nil (Suicide)
# the hand's streams are one (5, 1) array: rows 0..3 the seats' policy streams, this row the deal's
DEAL_STREAM = 4
MAX_BID = 17  # the most tricks a hand (three players); a bid above the hand's tricks is never legal
# tricks (and cards) a hand by seat count, read at ``seats & 7``: 13 with four players, 17 with three (52 // seats),
# 13 with two (who discard half the deck in the draw); a view with no rules record (seats 0: some hand-built test
# views) is of four players
HAND_TRICKS = np.array([13, 0, 13, 17, 13, 0, 0, 0], dtype=np.int64)


@njit(inline="always", cache=True)
def seat_mod(x, n):
    """``x`` modulo the seat count ``n`` (``x`` may be negative): ``& 3`` with four seats, a constant in the kernel."""
    if n == 4:
        return x & 3
    return x % n


# ------------------------------------------------------------------------ deal
@njit(inline="always", cache=True)
def deal(seed, game_id, hand_no, dealer, deck_tpl, deck, hands, streams, n=4):
    """Deal the hand from its deal stream (in ``streams[DEAL_STREAM]``), then start each seat's policy stream
    ``streams[s]``, s < 4 (rng.start_policy_streams): no policy is ever given the deal's stream."""
    rng = streams[DEAL_STREAM]
    rng[0] = stream_key(seed, game_id, hand_no, STREAM_DEAL)
    deal_cards(rng, dealer, deck_tpl, deck, hands, n)
    start_policy_streams(seed, game_id, hand_no, streams[:DEAL_STREAM])


@njit(inline="always", cache=True)
def shuffle_deck(rng, deck_tpl, deck, hands):
    """The deck ``deck_tpl`` shuffled into ``deck`` (Fisher-Yates on the stream ``rng``) and every hand emptied: the
    start of a deal and of the stock. Returns the number of cards."""
    n_cards = deck_tpl.shape[0]
    for i in range(n_cards):
        deck[i] = deck_tpl[i]
    shuffle(rng, deck, n_cards)
    for s in range(4):
        hands[s] = 0
    return n_cards


@njit(inline="always", cache=True)
def deal_cards(rng, dealer, deck_tpl, deck, hands, n=4):
    """Shuffle the deck (Fisher-Yates on the stream ``rng``) and deal it: position p goes to seat dealer+1+p
    (modulo the ``n`` seats)."""
    n_cards = shuffle_deck(rng, deck_tpl, deck, hands)
    for p in range(n_cards):
        hands[seat_mod(dealer + 1 + p, n)] |= np.int64(1) << deck[p]


# ------------------------------------------------------------------------ draw (two-handed Spades only)
@njit(inline="always", cache=True)
def shuffle_stock(seed, game_id, hand_no, deck_tpl, deck, hands, streams):
    """Two players: no deal. The stock is the deck shuffled from the deal stream exactly as for a deal, ``deck[0]``
    its top card; the hands start empty, and each seat's policy stream is started as after a deal."""
    rng = streams[DEAL_STREAM]
    rng[0] = stream_key(seed, game_id, hand_no, STREAM_DEAL)
    shuffle_deck(rng, deck_tpl, deck, hands)
    start_policy_streams(seed, game_id, hand_no, streams[:DEAL_STREAM])


@njit(inline="always", cache=True)
def drawer(dealer, turn):
    """The seat drawing at ``turn`` (0..25) of two players: the non-dealer first, then by turns."""
    return (dealer + 1 + turn) & 1


@njit(inline="always", cache=True)
def start_draw(view, s, top):
    """Seat ``s`` is shown the top card of the stock ``top``: keep it or not (policy.EXCHANGE_DRAW)."""
    view[V_SEAT] = s
    view[V_EXCHANGE_ROLE] = EXCHANGE_DRAW
    view[V_EXCHANGE_N] = 1
    view[V_DRAW_CARD] = top


@njit(inline="always", cache=True)
def apply_draw(view, hands, discards, s, top, second, keep):
    """Seat ``s`` keeps ``top`` (``keep`` its bit) and discards the next card ``second``, or discards ``top``
    (``keep`` 0) and keeps ``second``; False (nothing moved) for any other ``keep``. ``discards[s]``: the cards
    seat ``s`` discarded (seen by it alone)."""
    view[V_EXCHANGE_ROLE] = 0
    view[V_EXCHANGE_N] = 0
    view[V_DRAW_CARD] = -1
    top_bit = np.int64(1) << top
    second_bit = np.int64(1) << second
    if keep == top_bit:
        hands[s] |= top_bit
        discards[s] |= second_bit
    elif keep == 0:
        hands[s] |= second_bit
        discards[s] |= top_bit
    else:
        return False
    return True


@njit(inline="always", cache=True)
def start_view(rules, view, dealer, hand_no, totals, bags, deck_mask):
    """The public view as the hand begins: no bids, no cards played, the score before the hand, the rules
    record (policy.py)."""
    for i in range(V_BID_ORDER):
        view[i] = 0
    for i in range(V_BID_ORDER, V_RULES):  # the history: nothing yet (and no card shown in a draw)
        view[i] = -1
    write_rules(rules, view, V_RULES)
    view[V_DEALER] = dealer
    view[V_HAND_NO] = hand_no
    for s in range(4):
        view[V_BID + s] = -1
        view[V_TRICK + s] = -1
    side_mask = 1 if rules.partnerships != 0 else 3  # seat s's side: its team s & 1, or itself (cutthroat)
    for s in range(4):
        view[V_SCORE + s] = totals[s & side_mask]
        view[V_BAGS + s] = bags[s & side_mask]
    view[V_TARGET] = rules.target
    view[V_BAG_LIMIT] = rules.bag_limit
    view[V_DECK] = deck_mask
    view[V_NIL_VALUE] = rules.nil_value
    view[V_BLIND_NIL_VALUE] = rules.blind_nil_value
    view[V_LED_SUIT] = -1
    view[V_WINNING_SEAT] = -1
    view[V_WINNING_CARD] = -1


# --------------------------------------------------------------------- bidding
@njit(inline="always", cache=True)
def bidder(dealer, k, n=4):
    """The seat that bids ``k``-th (left of the dealer first) of ``n``; the same order leads the exchange."""
    return seat_mod(dealer + 1 + k, n)


@njit(inline="always", cache=True)
def start_bid(rules, view, totals, s):
    """Seat ``s`` is to bid: sets the view's bidding fields; returns (smallest numeric bid, 1 when Blind
    Nil is offered). Blind Nil is decided first, before the seat sees its cards. ``bid_rule`` (docs/rules.md,
    "Bidding variants"): with ``suicide`` a seat whose partner bid Nil may not bid Nil, and one whose partner
    bid a number must (``V_MIN_BID`` = NO_NUMERIC_BID); with ``whiz`` and ``mirror`` the cards decide
    (``legal_bids``; with ``mirror`` ``V_NIL_ALLOWED`` is 0: no Nil by choice). With ``zero_bid=zero`` a bid of 0 is an ordinary bid (``V_MIN_BID`` 0) and no Nil exists."""
    partner_bid = view[V_BID + (s ^ 2)]
    min_bid = 1
    if rules.min_team_bid > 0 and partner_bid > 0:  # second bidder of a team without Nil
        min_bid = max(1, rules.min_team_bid - partner_bid)
    nil_allowed = rules.nil
    if rules.zero_bid == ZERO_BID_ZERO:
        nil_allowed = 0
        if rules.nil != 0:  # 0 is a bid like any other: only the team minimum bounds it
            min_bid = max(0, rules.min_team_bid - partner_bid) if rules.min_team_bid > 0 and partner_bid >= 0 else 0
    if rules.bid_rule == BID_SUICIDE:
        if partner_bid == 0:
            nil_allowed = 0
        elif partner_bid > 0:
            min_bid = NO_NUMERIC_BID
    elif rules.bid_rule == BID_MIRROR:
        nil_allowed = 0  # no Nil by choice: a void bids 0 (legal_bids)
    view[V_SEAT] = s
    view[V_NIL_ALLOWED] = nil_allowed
    view[V_MIN_BID] = min_bid
    offered = 0
    if rules.blind_nil != 0 and nil_allowed != 0:
        team = s & 1
        offered = 1
        if rules.blind_nil_eligibility == ELIGIBLE_TRAILING and totals[1 - team] - totals[team] < rules.blind_nil_deficit:
            offered = 0
    return min_bid, offered


@njit(inline="always", cache=True)
def legal_bids(view, hand):
    """The seen-hand bids the seat being asked may make, as a mask (bit b: bid b, 0..13, or 0..17 with three
    players; 0 = Nil, or the
    zero-trick bid with ``zero_bid=zero``): from the view's bidding fields (``start_bid``) and, with
    ``bid_rule`` whiz or mirror, the number of spades in ``hand`` (jokers are spades). Every policy chooses
    in this mask; the kernel and the step API reject any other bid."""
    rule = view[V_RULES + R_BID_RULE]
    if rule == BID_WHIZ or rule == BID_MIRROR:  # at most 17 spades in any deck: within the hand's tricks
        m = np.int64(1) << popcount(hand & DECK_SUIT_MASKS[view[V_RULES + R_DECK], SPADES])
        if rule == BID_WHIZ and view[V_NIL_ALLOWED] != 0:
            m |= np.int64(1)
        return m
    top = HAND_TRICKS[view[V_RULES + R_SEATS] & 7]  # 0..13, or 0..17 with three players
    m = ((np.int64(2) << top) - 1) & ~((np.int64(1) << view[V_MIN_BID]) - 1)
    if view[V_NIL_ALLOWED] != 0:
        m |= np.int64(1)
    return m


@njit(cache=True)
def nearest_legal_bid(legal, b):
    """The bid of the mask ``legal`` nearest to the wanted bid ``b`` (``b`` itself when legal; a tie goes to
    the higher bid); 0 when the mask is empty."""
    best = np.int64(0)
    gap = np.int64(99)
    k = 0
    while (legal >> k) != 0:  # up to the highest legal bid (13, or 17 with three players)
        if (legal >> k) & 1 and abs(k - b) <= gap:
            best = np.int64(k)
            gap = abs(k - b)
        k += 1
    return best


@njit(inline="always", cache=True)
def bid_is_legal(view, hand, b):
    """A seen-hand bid ``b`` of the seat being asked is in ``legal_bids``."""
    return 0 <= b <= MAX_BID and ((legal_bids(view, hand) >> b) & 1) != 0


@njit(inline="always", cache=True)
def record_bid(view, s, b, blind, n=4):
    """Seat ``s`` of ``n`` bids ``b`` (``blind`` 1: Blind Nil): its fields, and the bid in speaking order."""
    view[V_BID + s] = b
    view[V_BLIND + s] = blind
    view[V_BID_ORDER + seat_mod(s - view[V_DEALER] - 1, n)] = b


@njit(inline="always", cache=True)
def end_bidding(view):
    view[V_NIL_ALLOWED] = 0
    view[V_MIN_BID] = 0


# -------------------------------------------------------------------- exchange
@njit(inline="always", cache=True)
def exchanging_team(view, b_seat):
    """True when ``b_seat`` bid Blind Nil and its partner did not: that pair exchanges cards."""
    return view[V_BLIND + b_seat] == 1 and view[V_BLIND + (b_seat ^ 2)] == 0


@njit(inline="always", cache=True)
def exchange_steps(rules, view, dealer):
    """The sides of the Blind Nil exchange in the order they are played, once the bids are in: returns
    ``(n, steps)``, side ``i < n`` packed in bits ``6 * i ..`` of ``steps`` (``exchange_step`` unpacks it).
    Each team with exactly one Blind Nil bidder exchanges, in bidding order of the Blind Nil bidders; the
    partner passes first (``partner_first``) or the bidder does (``bidder_first``); none when
    ``blind_nil_exchange`` is 0."""
    n = np.int64(0)
    steps = np.int64(0)
    if rules.blind_nil_exchange > 0:
        for k in range(4):
            b_seat = bidder(dealer, k)
            if exchanging_team(view, b_seat):
                first = (b_seat ^ 2) | (EXCHANGE_GIVE_FIRST << 2)
                back = b_seat | (EXCHANGE_GIVE_BACK << 2)
                if rules.exchange_order == EXCHANGE_BIDDER_FIRST:
                    first, back = back, first
                steps |= (first | (back << 6)) << (6 * n)
                n += 2
    return n, steps


@njit(inline="always", cache=True)
def exchange_step(steps, i):
    """Side ``i`` of ``exchange_steps``: (giver, receiver, role); the receiver is the giver's partner."""
    x = (steps >> (6 * i)) & 63
    giver = x & 3
    return giver, giver ^ 2, x >> 2


@njit(inline="always", cache=True)
def start_exchange(rules, view, giver, role):
    """Seat ``giver`` is to pass cards (``role``: policy.EXCHANGE_GIVE_FIRST or _GIVE_BACK); returns how many."""
    n = rules.blind_nil_exchange
    view[V_SEAT] = giver
    view[V_EXCHANGE_ROLE] = role
    view[V_EXCHANGE_N] = n
    return n


@njit(inline="always", cache=True)
def apply_exchange(rules, view, hands, giver, receiver, passed):
    """``giver`` passes the cards ``passed`` to ``receiver``; False (nothing moved) unless they are exactly
    ``blind_nil_exchange`` cards of its hand."""
    view[V_EXCHANGE_ROLE] = 0
    view[V_EXCHANGE_N] = 0
    if popcount(passed) != rules.blind_nil_exchange or (passed & ~hands[giver]) != 0:
        return False
    hands[giver] &= ~passed
    hands[receiver] |= passed
    return True


# ------------------------------------------------------------------------ play
@njit(inline="always", cache=True)
def first_leader(rules, dealer, hands, n=4):
    """Who of the ``n`` seats leads the first trick: left of the dealer, or the holder of the 2♣."""
    if rules.first_lead == FIRST_LEAD_TWO_OF_CLUBS:
        leader = 0
        for s in range(n):
            if hands[s] & 1:
                leader = s
        return leader
    return seat_mod(dealer + 1, n)


@njit(inline="always", cache=True)
def start_trick(view, t, leader):
    view[V_TRICK_NO] = t
    view[V_LEADER] = leader
    view[V_LED_SUIT] = -1
    view[V_WINNING_SEAT] = -1
    view[V_WINNING_CARD] = -1
    view[V_NPLAYED] = 0
    for s in range(4):
        view[V_TRICK + s] = -1


@njit(inline="always", cache=True)
def legal_leads(rules, t, hand, broken):
    """The cards the leader may lead: the 2♣ to the first trick where it must open; with ``breaking``,
    no spade before spades are broken, unless the hand holds nothing else."""
    if t == 0 and rules.first_lead == FIRST_LEAD_TWO_OF_CLUBS:
        return np.int64(1)  # the 2♣ itself
    spades = DECK_SUIT_MASKS[rules.deck, SPADES]
    if broken == 0 and rules.breaking != 0 and (hand & ~spades) != 0:
        return hand & ~spades
    return hand


@njit(inline="always", cache=True)
def legal_follows(rules, hand, led):
    """The cards a follower may play: its cards of the suit led (the deck's suits: decks.py), else any card."""
    follow = hand & DECK_SUIT_MASKS[rules.deck, led]
    return follow if follow != 0 else hand


@njit(inline="always", cache=True)
def show_card(view, t, k, s, c, win_seat, win_card, broken, n):
    """Card ``c`` of seat ``s``, the ``k``-th of trick ``t`` at a table of ``n``, on the table: the view's trick
    fields as they stand after it, and the card in the history (entry ``n * t + k``)."""
    view[V_TRICK + s] = c
    view[V_PLAYED + s] |= np.int64(1) << c
    i = n * t + k
    view[V_PLAY_CARD + i] = c
    view[V_PLAY_SEAT + i] = s
    view[V_NPLAYED] = k + 1
    view[V_WINNING_SEAT] = win_seat
    view[V_WINNING_CARD] = win_card
    view[V_BROKEN] = broken


@njit(inline="always", cache=True)
def apply_lead(rules, view, hands, t, s, c, broken, n=4):
    """Seat ``s`` leads ``c`` (legal) to trick ``t``; returns (suit led, broken). With ``breaking``, a spade led
    before spades are broken was forced (the leader holds nothing else), which the table sees, and breaks spades when
    ``forced_spade_lead_breaks`` says so. Without ``breaking`` any spade may be led, so whether a lead was
    forced is the leader's secret: it breaks nothing (and the view, the one place ``broken`` then shows,
    shows only what is public)."""
    hands[s] ^= np.int64(1) << c
    led = DECK_SUIT_OF[rules.deck, c & 63]
    if led == SPADES and broken == 0 and rules.breaking != 0 and rules.forced_spade_lead_breaks != 0:
        broken = 1
    view[V_LED_SUIT] = led
    show_card(view, t, 0, s, c, s, c, broken, n)
    return led, broken


@njit(inline="always", cache=True)
def apply_follow(rules, view, hands, t, k, s, c, led, win_seat, win_card, broken, n=4):
    """Seat ``s`` plays ``c`` (legal) as the ``k``-th card of trick ``t``; returns (winning seat, winning card,
    broken). A card off the suit led shows a void, and a spade so played breaks spades. The card's suit is
    tested against the suit masks (the led suit's mask is the one ``legal_follows`` read, so the compiled
    trick loads it once), not looked up in ``DECK_SUIT_OF``: a load fewer on every card that follows."""
    hands[s] ^= np.int64(1) << c
    if ((DECK_SUIT_MASKS[rules.deck, led] >> c) & 1) == 0:
        view[V_VOID + s] |= np.int64(1) << led
        if (DECK_SUIT_MASKS[rules.deck, SPADES] >> c) & 1:
            broken = 1
    if (DECK_BEATING[rules.deck, win_card & 63] >> c) & 1:
        win_seat = s
        win_card = c
    show_card(view, t, k, s, c, win_seat, win_card, broken, n)
    return win_seat, win_card, broken


@njit(inline="always", cache=True)
def end_trick(view, tricks, win_seat):
    """The trick goes to ``win_seat``, who leads the next."""
    tricks[win_seat] += 1
    view[V_TRICKS + win_seat] += 1
    return win_seat


# ----------------------------------------------------------------------- score
team_hand = njit(cache=True)(scoring.team_hand)  # the one scoring function, compiled (scoring.py)


@njit(inline="always", cache=True)
def score(rules, view, tricks, totals, bags, points):
    """Score the hand (RULES.md 1.4): ``points[side]`` this hand; ``totals`` and ``bags`` updated in place. The
    sides are the two teams (team t = seats t, t + 2; entries 0, 1), or in cutthroat the four players alone
    (entries 0..3: each its own contract, Nil and bags; docs/rules.md "Cutthroat")."""
    if rules.partnerships != 0:
        for team in range(2):
            pts, bg, _, _, _ = team_hand(rules, view[V_BID + team], view[V_BID + team + 2], view[V_BLIND + team],
                                         view[V_BLIND + team + 2], tricks[team], tricks[team + 2], bags[team])
            totals[team] += pts
            bags[team] = bg
            points[team] = pts
    else:
        score_alone(rules, view, tricks, totals, bags, points)


@njit(cache=True)
def score_alone(rules, view, tricks, totals, bags, points):
    """``score`` in cutthroat: each seat alone (a call, not inlined: the partnership kernel's code stays as
    it was, docs/performance.md P52)."""
    for s in range(rules.seats):
        pts, bg, _, _, _ = team_hand(rules, view[V_BID + s], NO_PARTNER, view[V_BLIND + s], 0, tricks[s], 0, bags[s])
        totals[s] += pts
        bags[s] = bg
        points[s] = pts


# -------------------------------------------------------------------- game end
@njit(cache=True)
def leader(totals, n):
    """The side with the strictly highest of ``totals[:n]``, or -1 when two or more share it."""
    best = 0
    shared = False
    for k in range(1, n):
        if totals[k] > totals[best]:
            best = k
            shared = False
        elif totals[k] == totals[best]:
            shared = True
    return -1 if shared else best


@njit(cache=True)
def _target_winner(rules, totals, n):
    for k in range(n):
        if totals[k] >= rules.target:
            return leader(totals, n)  # ties for the lead play on (RULES.md 1.5)
    return -1


@njit(cache=True)
def _mercy_winner(rules, totals, n):
    """A side at or below the mercy score ends the game; the leader alone wins (none: play on). With two
    sides this is RULES.md 1.5's rule: one side down loses; both down, the higher wins, equal play on."""
    if rules.mercy == NO_MERCY:
        return -1
    for k in range(n):
        if totals[k] <= rules.mercy:
            return leader(totals, n)
    return -1


@njit(cache=True)
def game_end_of(rules, totals, n):
    """(winning side, end code) after a hand, from the running ``totals`` of the ``n`` sides (2 teams, or 4
    players in cutthroat); winner -1 and END_NONE while the game goes on."""
    if rules.mercy_check == MERCY_BEFORE_TARGET:
        w = _mercy_winner(rules, totals, n)
        if w >= 0:
            return w, END_MERCY
    w = _target_winner(rules, totals, n)
    if w >= 0:
        return w, END_TARGET
    if rules.mercy_check != MERCY_BEFORE_TARGET:
        w = _mercy_winner(rules, totals, n)
        if w >= 0:
            return w, END_MERCY
    return -1, END_NONE


@njit(inline="always", cache=True)
def sides(rules):
    """How many sides score: 2 teams, or each player alone (cutthroat: 4, cutthroat3: 3)."""
    return 2 if rules.partnerships != 0 else rules.seats
