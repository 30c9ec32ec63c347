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
for that seat just before each of its calls. It has three parts:

* the state of the hand (``V_SEAT`` .. ``V_PASSED``);
* the public history (``V_BID_ORDER``, ``V_PLAY_CARD``, ``V_PLAY_SEAT``): the bids in speaking order and
  every card played so far, in play order, with the seat that played it. Card ``k`` of trick ``t`` is
  entry ``n * t + k`` with ``n`` the players (``rules.seats``: ``4 * t + k``, or ``3 * t + k`` in cutthroat3,
  whose 17 tricks fill 51 of the 52 entries); an entry not yet played is -1. The seat that bids ``k``-th is
  ``(dealer + 1 + k) % n``;
* the rules record (``V_RULES``): the run's rules, one slot per field of ``rules.KernelRules`` in its
  field order (enums as their index in ``rules.CHOICES``, ``mercy`` none as ``rules.NO_MERCY``).
  ``view[V_RULES + R_BAG_PENALTY]`` reads one flag; ``rules_of(view)`` gives the whole record back as a
  ``KernelRules``. The offsets are made from the field order, so a flag added to the rules reaches every
  policy with no edit here or in any strategy. Read-only: the kernel writes it at the start of each hand
  and never reads it back.
"""
from __future__ import annotations

from numba import types

from tricksim.simulator.games.spades.rules import KernelRules
from tricksim.simulator.record import rule_offsets, rules_reader

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
V_SCORE = 33        # V_SCORE + s: the running total before this hand of seat s's side (its team's, with
#                     partnerships: slots 2, 3 repeat teams 0, 1; its own in cutthroat), so V_SCORE + (s & 1)
#                     is team s & 1's total with partnerships, V_SCORE + s seat s's in either game
V_BAGS = 37         # V_BAGS + s: seat s's side's running bags before this hand (as V_SCORE)
V_TARGET = 41       # rules: game target (also in the rules record, R_TARGET)
V_BAG_LIMIT = 42    # rules: bag limit (R_BAG_LIMIT)
V_NIL_ALLOWED = 43  # bidding: 1 when this seat may bid Nil now
V_MIN_BID = 44      # bidding: smallest numeric bid this seat may make now (min team bid)
V_EXCHANGE_ROLE = 45  # exchange: 1 = partner passing to the Blind Nil bidder, 2 = Blind Nil bidder passing back,
#                       3 = the draw of two-handed Spades (EXCHANGE_DRAW, below)
V_EXCHANGE_N = 46   # exchange: number of cards to pass
V_DECK = 47         # mask of the cards in this deck (jokers variant differs)
V_NIL_VALUE = 48    # rules: Nil value (R_NIL_VALUE)
V_BLIND_NIL_VALUE = 49  # rules: Blind Nil value (R_BLIND_NIL_VALUE)
V_WINNING_CARD = 50  # card currently winning the trick, -1 while leading (= view[V_TRICK + view[V_WINNING_SEAT]])
V_PASSED = 51       # the cards (bits 0..53) this seat passed in the Blind Nil exchange, 0 if none: set for
#                     the seat being asked, just before its bid, exchange and play calls; 0 elsewhere. Two-handed:
#                     the cards this seat discarded in the draw so far (out of play, seen by it alone)

# ----------------------------------------------------------- public history
N_SEATS = 4         # seat slots of the view (three players leave slot 3 unused: bid -1, no cards)
N_TRICKS = 13       # N_SEATS * N_TRICKS = 52 history entries: also 3 seats * 17 tricks
V_BID_ORDER = 52    # V_BID_ORDER + k: the k-th bid in speaking order (seat (dealer + 1 + k) & 3), -1 before it;
#                     0 = Nil (Blind Nil when V_BLIND of that seat is 1)
V_PLAY_CARD = 56    # V_PLAY_CARD + N_SEATS * t + k: the k-th card played to trick t, -1 before it is played
V_PLAY_SEAT = V_PLAY_CARD + N_SEATS * N_TRICKS   # (108) V_PLAY_SEAT + N_SEATS * t + k: the seat that played it
V_DRAW_CARD = V_PLAY_SEAT + N_SEATS * N_TRICKS   # (160) the draw (two-handed): the top card of the stock shown to
#                                                  the seat asked (policy.EXCHANGE_DRAW), else -1
# ----------------------------------------------------------- the rules record (read-only)
V_RULES = V_DRAW_CARD + 1                        # (161) V_RULES + R_<FLAG>: the run's rules, KernelRules' order
N_RULES = len(KernelRules._fields)
VIEW_SIZE = V_RULES + N_RULES

R_OFFSETS = rule_offsets(KernelRules)  # R_NIL = 0, R_NIL_VALUE = 1, ... R_BREAKING: one per field, in field order
globals().update(R_OFFSETS)
rules_of = rules_reader(KernelRules, V_RULES)  # rules_of(view) -> KernelRules: the record read back

EXCHANGE_GIVE_FIRST = 1
EXCHANGE_GIVE_BACK = 2
# The draw of two-handed Spades (rules.seats == 2) is the exchange policy's decision with view[V_EXCHANGE_ROLE] ==
# EXCHANGE_DRAW: the seat sees the top card of the stock, view[V_DRAW_CARD], and returns its bit to keep it (then it
# sees the next card and discards it), or 0 to discard it (then it keeps the next card, unasked). It knows its hand
# so far (``hand``), its own discards (view[V_PASSED]) and the public view, never the stock's order.
EXCHANGE_DRAW = 3

# ----------------------------------------------------------- policy signatures
_i64 = types.int64
_view = types.int64[::1]
_params = types.float64[::1]
_rng = types.uint64[::1]

#: blind_nil(seat, view, params, rng) -> 1 to bid Blind Nil (called before the seat sees its cards)
BLIND_NIL_SIG = _i64(_i64, _view, _params, _rng)
#: bid(seat, hand, view, params, rng) -> 0 (Nil) or 1..13
BID_SIG = _i64(_i64, _i64, _view, _params, _rng)
#: exchange(seat, hand, view, params, rng) -> mask of exactly view[V_EXCHANGE_N] cards of hand; in the draw
#: (view[V_EXCHANGE_ROLE] == EXCHANGE_DRAW): 1 << view[V_DRAW_CARD] to keep the card shown, 0 to discard it
EXCHANGE_SIG = _i64(_i64, _i64, _view, _params, _rng)
#: play(seat, hand, legal, view, params, rng) -> a card id whose bit is in legal
PLAY_SIG = _i64(_i64, _i64, _i64, _view, _params, _rng)

BLIND_NIL_FN = types.FunctionType(BLIND_NIL_SIG)
BID_FN = types.FunctionType(BID_SIG)
EXCHANGE_FN = types.FunctionType(EXCHANGE_SIG)
PLAY_FN = types.FunctionType(PLAY_SIG)
