"""The seat-policy interface shared by the kernels and every strategy.

A strategy is four ``@njit`` functions with the fixed signatures below. The
kernel calls them through Numba first-class function types, so one compiled
kernel serves every strategy and the compile cache survives new processes
(docs/architecture.md; measurements: docs/performance.md P3).

Information hygiene is enforced by what the kernel passes, not by
convention: a policy receives its own hand (never before the Blind Nil
decision), the public view ``view`` and its own parameters and random
stream. Nothing else of the game state is reachable from a policy.

``view`` is an ``int64`` array laid out by the ``V_*`` offsets below. The
kernel updates it in place as the hand goes on; every field is something all
four players can see at the table, except ``V_PASSED``: what only the seat
being asked knows (the cards it passed in the Blind Nil exchange), stored
for that seat just before each of its calls, with the rules a search needs.
"""
from __future__ import annotations

from numba import types

# ----------------------------------------------------------- public view layout
V_SEAT = 0          # the seat being asked (0..3); partner = seat ^ 2
V_DEALER = 1
V_HAND_NO = 2       # hand number within the game (0-based)
V_BID = 3           # V_BID + s: bid of seat s (0 = Nil), -1 before it bids
V_BLIND = 7         # V_BLIND + s: 1 when seat s bid Blind Nil
V_TRICKS = 11       # V_TRICKS + s: tricks won so far this hand by seat s
V_TRICK_NO = 15     # 0..12: the trick being played
V_LEADER = 16       # seat that led the current trick
V_NPLAYED = 17      # cards already in the current trick (0..3)
V_TRICK = 18        # V_TRICK + s: card seat s played to the current trick, -1 if none yet
V_LED_SUIT = 22     # suit led to the current trick, -1 while leading
V_WINNING_SEAT = 23  # seat currently winning the trick, -1 while leading
V_BROKEN = 24       # 1 once spades are broken
V_PLAYED = 25       # V_PLAYED + s: mask of cards seat s has played this hand
V_VOID = 29         # V_VOID + s: bit u set when seat s has shown void in suit u
V_SCORE = 33        # V_SCORE + t: team t running total before this hand (team = seat & 1)
V_BAGS = 35         # V_BAGS + t: team t running bags before this hand
V_TARGET = 37       # rules: game target
V_BAG_LIMIT = 38    # rules: bag limit
V_NIL_ALLOWED = 39  # bidding: 1 when this seat may bid Nil now
V_MIN_BID = 40      # bidding: smallest numeric bid this seat may make now (min team bid)
V_EXCHANGE_ROLE = 41  # exchange: 1 = partner passing to the Blind Nil bidder, 2 = Blind Nil bidder passing back
V_EXCHANGE_N = 42   # exchange: number of cards to pass
V_DECK = 43         # mask of the cards in this deck (jokers variant differs)
V_NIL_VALUE = 44    # rules: Nil value
V_BLIND_NIL_VALUE = 45
V_WINNING_CARD = 46  # card currently winning the trick, -1 while leading (= view[V_TRICK + view[V_WINNING_SEAT]])
V_PASSED = 47       # what this seat knows besides the table: bits 0..53 the cards it passed in the Blind Nil
#                     exchange (0 if none); bits PASSED_RULES.. the rules a search needs (PASSED_* below). Set for
#                     the seat being asked, just before its bid, exchange and play calls; 0 elsewhere.
VIEW_SIZE = 48

# bits of view[V_PASSED] above the cards: rule flags the rest of the view does not show (the numeric scoring
# flags bag_points, nil_trick_points and bag_penalty are not in the view)
PASSED_CARDS = (1 << 54) - 1            # mask of the card bits
PASSED_RULES = 1 << 56                  # set when the flags below were filled in (a hand-built view may lack them)
PASSED_BREAKING = 1 << 57               # rules.breaking
PASSED_FORCED_BREAKS = 1 << 58          # rules.forced_spade_lead_breaks
PASSED_NIL_TRICKS_CONTRACT = 1 << 59    # rules.nil_tricks == contract
PASSED_NIL_BAGS_WHEN_SET = 1 << 60      # rules.nil_bags_when_set
PASSED_OVERFLOW_RESET = 1 << 61         # rules.bag_overflow == reset
PASSED_TWO_OF_CLUBS = 1 << 62           # rules.first_lead == two_of_clubs

EXCHANGE_GIVE_FIRST = 1
EXCHANGE_GIVE_BACK = 2

# ----------------------------------------------------------- policy signatures
_i64 = types.int64
_view = types.int64[::1]
_params = types.float64[::1]
_rng = types.uint64[::1]

#: blind_nil(seat, view, params, rng) -> 1 to bid Blind Nil (called before the seat sees its cards)
BLIND_NIL_SIG = _i64(_i64, _view, _params, _rng)
#: bid(seat, hand, view, params, rng) -> 0 (Nil) or 1..13
BID_SIG = _i64(_i64, _i64, _view, _params, _rng)
#: exchange(seat, hand, view, params, rng) -> mask of exactly view[V_EXCHANGE_N] cards of hand
EXCHANGE_SIG = _i64(_i64, _i64, _view, _params, _rng)
#: play(seat, hand, legal, view, params, rng) -> a card id whose bit is in legal
PLAY_SIG = _i64(_i64, _i64, _i64, _view, _params, _rng)

BLIND_NIL_FN = types.FunctionType(BLIND_NIL_SIG)
BID_FN = types.FunctionType(BID_SIG)
EXCHANGE_FN = types.FunctionType(EXCHANGE_SIG)
PLAY_FN = types.FunctionType(PLAY_SIG)
