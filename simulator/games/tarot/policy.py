"""The Tarot seat-policy interface: the public view and the six decision signatures.

A Tarot strategy is six ``@njit`` functions with the signatures below, called through Numba
first-class function types (as in Spades: ``games/spades/policy.py``). A hand is two words,
``suits`` and ``trumps`` (cards.py); a policy sees its own hand, the public ``view``, its own
parameters and its own random stream, nothing else.

``view`` is an ``int64`` array laid out by the ``V_*`` offsets below; the kernel keeps it up
to date; every field is public at the table. It has three parts:

* the state of the deal (``V_SEAT`` .. ``V_POIGNEE_EXCUSE``), with the cards shown so far: the chien when it
  is shown (``V_CHIEN_S``/``_T``), the trumps the taker discarded (``V_DISCARD_T``), the poignées
  (``V_POIGNEE``, ``V_POIGNEE_T``);
* the public history (``V_BID_ORDER``, ``V_PLAY_CARD``, ``V_PLAY_SEAT``): the bids in speaking order and
  every card played so far, in play order, with the seat that played it. Card ``k`` of trick ``t`` is
  entry ``seats * t + k`` (``seats`` the game's players, ``view[V_RULES + R_SEATS]``), so the layout holds
  any seat count of the game (3, 4 or 5 seats: 72, 72 or 75 cards in tricks; room is kept for ``MAX_SEATS``
  bids and the 78 cards); an entry not yet made is -1.
  The seat that speaks ``k``-th is ``(dealer + 1 + k) % seats`` (phases.bidder);
* the rules record (``V_RULES``): the run's rules, one slot per field of ``rules.KernelRules`` in its field
  order (enums as their index in ``rules.CHOICES``), the last one ``seats`` (the number of players, not a flag).
  ``view[V_RULES + R_EXCUSE_LEAD]`` reads one flag;
  ``rules_of(view)`` gives the whole record back as a ``KernelRules``. The offsets are made from the field
  order, so a flag added to the rules reaches every policy with no edit here or in any strategy.
  Read-only: the kernel writes it at the start of each deal and never reads it back.
"""
from __future__ import annotations

from numba import types

from tricksim.simulator.games.tarot.rules import KernelRules
from tricksim.simulator.record import rule_offsets, rules_reader

# ----------------------------------------------------------- public view layout
# Per-seat fields hold MAX_SEATS (5) entries: V_X + s for seat s; with fewer players the last ones stay unused.
N_SEATS = 5         # the most seats the kernels' arrays and policy tuples hold (rules.seats: 3, 4 or 5 play)
MAX_SEATS = 5
V_SEAT = 0          # the seat being asked (0..seats-1): seats are numbered in the order of play
V_DEALER = 1
V_TAKER = 2         # -1 until the bidding ends
V_CONTRACT = 3      # the highest bid so far (0 none; 1 Prise, 2 Garde, 3 Garde sans, 4 Garde contre)
V_BID = 4           # V_BID + s: seat s's bid, -1 before it speaks
V_TRICK_NO = V_BID + MAX_SEATS  # (9) 0..n_tricks-1: the trick being played
V_LEADER = 10       # seat that led the current trick
V_NPLAYED = 11      # cards already in the current trick
V_TRICK = 12        # V_TRICK + s: card seat s played to the current trick, -1 if none yet
V_LED_SUIT = V_TRICK + MAX_SEATS  # (17) suit to follow: 0..3, 4 = trumps, -1 none yet (nothing, or only the Excuse)
V_WINNING_SEAT = 18  # seat winning the trick so far, -1 none yet
V_WINNING_CARD = 19  # card winning the trick so far, -1 none yet
V_HIGH_TRUMP = 20   # highest trump in the trick (bit in the trumps word), -1 none
V_PLAYED_S = 21     # cards played so far this deal: suits word
V_PLAYED_T = 22     # and trumps word (the Excuse included once played)
V_CHIEN_S = 23      # the chien when shown (Prise, Garde), else 0: suits word
V_CHIEN_T = 24      # and trumps word
V_DISCARD_T = 25    # trumps the taker discarded (shown to all)
V_CHELEM = 26       # 1 when the taker announced Chelem
V_POIGNEE = 27      # V_POIGNEE + s: the level seat s showed (0 none, 1..3)
V_POIGNEE_T = V_POIGNEE + MAX_SEATS  # (32) V_POIGNEE_T + s: the trumps word seat s showed
V_TRICKS = V_POIGNEE_T + MAX_SEATS   # (37) V_TRICKS + s: tricks won so far by seat s
V_VOIDS = V_TRICKS + MAX_SEATS       # (42) V_VOIDS + s: bit u (0..3) once seat s has shown void in suit u; bit 4 out of trumps
V_TAKER_HALF = V_VOIDS + MAX_SEATS   # (47) half-points won in tricks so far by the taker's side (the Excuse rule applied)
V_TO_DISCARD = 48   # discard: cards still to discard
V_POIGNEE_MAX = 49  # poignée: the highest level this seat may show now (0 none)
V_MIN_BID = 50      # bidding: the lowest contract this seat may bid (pass is always allowed)
V_POIGNEE_BASE = 51    # poignée: the trumps it is judged on (trumps word, no Excuse); 0 outside the question
V_POIGNEE_EXTRA = 52   # poignée: the discarded trumps the four-kings exception adds to a triple (0 none)
V_POIGNEE_EXCUSE = 53  # poignée: 1 when the hand judged holds the Excuse
V_CALLED = 54       # five players: the card the taker called (a card id), -1 none (before the call; 3 or 4 players)
V_PARTNER = 55      # five players: the seat that played the called card, once played (the taker's own seat when it
                    # called a card of its own), -1 until then: who holds the called card is never in the view before
V_CALL_RANK = 56    # the call: the rank the taker must call (cards.RANK_*: the king, or lower when it holds all four)

# ----------------------------------------------------------- public history
N_DECK = 78
V_BID_ORDER = 57    # V_BID_ORDER + k: the k-th bid in speaking order (0 pass, 1..4 a contract), -1 before it
V_PLAY_CARD = V_BID_ORDER + MAX_SEATS   # (62) V_PLAY_CARD + seats * t + k: card k of trick t, -1 before it
V_PLAY_SEAT = V_PLAY_CARD + N_DECK      # (140) V_PLAY_SEAT + seats * t + k: the seat that played it
# ----------------------------------------------------------- the rules record (read-only)
V_RULES = V_PLAY_SEAT + N_DECK          # (218) V_RULES + R_<FLAG>: the run's rules, KernelRules' order
N_RULES = len(KernelRules._fields)
VIEW_SIZE = V_RULES + N_RULES

R_OFFSETS = rule_offsets(KernelRules)  # R_PETIT_SEC_REDEAL = 0, ... R_EXCUSE_LEAD: one per field, in field order
globals().update(R_OFFSETS)
rules_of = rules_reader(KernelRules, V_RULES)  # rules_of(view) -> KernelRules: the record read back

# ----------------------------------------------------------- policy signatures
_i64 = types.int64
_view = types.int64[::1]
_params = types.float64[::1]
_rng = types.uint64[::1]

#: bid(seat, suits, trumps, view, params, rng) -> 0 pass, or a contract >= view[V_MIN_BID] (1..4)
#: chelem(seat, suits, trumps, view, params, rng) -> 1 to announce Chelem (asked of the taker only)
#: call(seat, suits, trumps, view, params, rng) -> five players: the card id the taker calls, one of
#:     phases.call_legal(view[V_RULES + R_CALL_OWN], view[V_RULES + R_CALL_FOUR_KINGS], suits) (a king, or the rank
#:     view[V_CALL_RANK] when it holds the four kings); asked after the bidding, before the chien; never asked
#:     with three or four players
#: poignee(seat, suits, trumps, view, params, rng) -> the trumps word to show (cards.py: bit n - 1 trump n, bit 21
#:     the Excuse), 0 for none: 10, 13 or 15 cards (a single, double or triple poignée, up to view[V_POIGNEE_MAX]),
#:     all of one pool of phases.poignee_pools(view[V_RULES + R_POIGNEE_EXCUSE], view[V_POIGNEE_BASE],
#:     view[V_POIGNEE_EXCUSE] != 0, view[V_POIGNEE_EXTRA], n); the engine refuses any other word (a PolicyFault)
HAND_SIG = _i64(_i64, _i64, _i64, _view, _params, _rng)
#: discard(seat, suits, trumps, legal_s, legal_t, view, params, rng) -> one card of legal (called six times)
#: play(seat, suits, trumps, legal_s, legal_t, view, params, rng) -> one card of legal (a card id, cards.py)
CHOOSE_SIG = _i64(_i64, _i64, _i64, _i64, _i64, _view, _params, _rng)

HAND_FN = types.FunctionType(HAND_SIG)
CHOOSE_FN = types.FunctionType(CHOOSE_SIG)
