"""The Tarot seat-policy interface: the public view and the five decision signatures.

A Tarot strategy is five ``@njit`` functions with the signatures below, called through Numba
first-class function types (as in Spades: ``games/spades/policy.py``). A hand is two words,
``suits`` and ``trumps`` (cards.py); a policy sees its own hand, the public ``view``, its own
parameters and its own random stream, nothing else.

``view`` is an ``int64`` array laid out by the ``V_*`` offsets below; the kernel keeps it up
to date; every field is public at the table.
"""
from __future__ import annotations

from numba import types

# ----------------------------------------------------------- public view layout
V_SEAT = 0          # the seat being asked (0..3): seats are numbered in the order of play
V_DEALER = 1
V_TAKER = 2         # -1 until the bidding ends
V_CONTRACT = 3      # the highest bid so far (0 none; 1 Prise, 2 Garde, 3 Garde sans, 4 Garde contre)
V_BID = 4           # V_BID + s: seat s's bid, -1 before it speaks
V_TRICK_NO = 8      # 0..17: the trick being played
V_LEADER = 9        # seat that led the current trick
V_NPLAYED = 10      # cards already in the current trick (0..3)
V_TRICK = 11        # V_TRICK + s: card seat s played to the current trick, -1 if none yet
V_LED_SUIT = 15     # suit to follow: 0..3, 4 = trumps, -1 none yet (nothing, or only the Excuse, played)
V_WINNING_SEAT = 16  # seat winning the trick so far, -1 none yet
V_WINNING_CARD = 17  # card winning the trick so far, -1 none yet
V_HIGH_TRUMP = 18   # highest trump in the trick (bit in the trumps word), -1 none
V_PLAYED_S = 19     # cards played so far this deal: suits word
V_PLAYED_T = 20     # and trumps word (the Excuse included once played)
V_CHIEN_S = 21      # the chien when shown (Prise, Garde), else 0: suits word
V_CHIEN_T = 22      # and trumps word
V_DISCARD_T = 23    # trumps the taker discarded (shown to all)
V_CHELEM = 24       # 1 when the taker announced Chelem
V_POIGNEE = 25      # V_POIGNEE + s: the level seat s showed (0 none, 1..3)
V_POIGNEE_T = 29    # V_POIGNEE_T + s: the trumps word seat s showed
V_TRICKS = 33       # V_TRICKS + s: tricks won so far by seat s
V_VOIDS = 37        # V_VOIDS + s: bit u (0..3) once seat s has shown void in suit u; bit 4 out of trumps
V_TAKER_HALF = 41   # half-points won in tricks so far by the taker (the Excuse rule applied as it goes)
V_TO_DISCARD = 42   # discard: cards still to discard
V_POIGNEE_MAX = 43  # poignée: the highest level this seat may show now (0 none)
V_MIN_BID = 44      # bidding: the lowest contract this seat may bid (pass is always allowed)
VIEW_SIZE = 48

# ----------------------------------------------------------- policy signatures
_i64 = types.int64
_view = types.int64[::1]
_params = types.float64[::1]
_rng = types.uint64[::1]

#: bid(seat, suits, trumps, view, params, rng) -> 0 pass, or a contract >= view[V_MIN_BID] (1..4)
#: chelem(seat, suits, trumps, view, params, rng) -> 1 to announce Chelem (asked of the taker only)
#: poignee(seat, suits, trumps, view, params, rng) -> the level to show, 0..view[V_POIGNEE_MAX]
HAND_SIG = _i64(_i64, _i64, _i64, _view, _params, _rng)
#: discard(seat, suits, trumps, legal_s, legal_t, view, params, rng) -> one card of legal (called six times)
#: play(seat, suits, trumps, legal_s, legal_t, view, params, rng) -> one card of legal (a card id, cards.py)
CHOOSE_SIG = _i64(_i64, _i64, _i64, _i64, _i64, _view, _params, _rng)

HAND_FN = types.FunctionType(HAND_SIG)
CHOOSE_FN = types.FunctionType(CHOOSE_SIG)
