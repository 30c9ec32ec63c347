"""The Tarot batch kernel: deal, bid, discard, declare, play, count and settle whole deals.

``simulate_block`` is the one entry point (``kernel_for`` compiles or loads it); it plays a list of
deals, one output row each, into caller-owned column arrays, and is serial and releases the GIL (the
engine runs one call per core on Python threads, as for Spades). Each deal draws only from its own
counter-based streams (rng.py): the data do not depend on thread count or shard size. Seat s's
policies get seat s's own stream (``streams[s]``) and no other.
Every rule is a phase of ``phases.py``; this module composes them and asks the seat policies.
"""
from __future__ import annotations

import threading

import numpy as np
from numba import njit, typeof, types
from numba.core import config

from tricksim.simulator.borrow import alive_until_here, borrowed
from tricksim.simulator.compiling import announced
from tricksim.simulator.games.tarot import phases
from tricksim.simulator.games.tarot.cards import N_CARDS, join_words
from tricksim.simulator.games.tarot.layout import (
    I_POIGNEE,
    I_SCORE,
    I_TAKER_POINTS,
    I_TARGET,
    N_CODES,
    N_INTS,
    N_WORDS,
    S_BID,
    S_CALLED,
    S_CHELEM,
    S_CONTRACT,
    S_DEALER,
    S_FIRST_LEADER,
    S_OUDLERS,
    S_PARTNER,
    S_PETIT_AU_BOUT,
    S_REVEALED,
    S_SLAM,
    S_TAKER,
    S_VOID,
    S_WON,
    W_CHIEN,
    W_DEALT,
    W_DISCARD,
    W_POIGNEE,
)
from tricksim.simulator.games.tarot.phases import N_SEATS, N_TALLY, T_PARTNER, T_POIGNEE
from tricksim.simulator.games.tarot.policy import CHOOSE_FN, HAND_FN, V_CALLED, VIEW_SIZE
from tricksim.simulator.games.tarot.rules import KernelRules
from tricksim.simulator.rng import start_policy_streams

# policy faults reported back to the engine (errors[0]); 0 = none
ERR_BID, ERR_DISCARD, ERR_POIGNEE, ERR_PLAY, ERR_CALL = 1, 2, 3, 4, 5



@njit(inline="always", cache=True)
def _fault(error, code, seat, value):
    error[0] = code
    error[2] = seat
    error[3] = value
    return False


@njit(inline="always", cache=True)
def _words(words, row, i, suits, trumps):
    lo, hi = join_words(suits, trumps)
    words[row, i] = lo
    words[row, i + 1] = hi


@njit(inline="always")
def play_deal(rules, bid_fns, discard_fns, chelem_fns, poignee_fns, play_fns, call_fns, params, seed, deal_id, decks, deck,
              suits, trumps, chien, view, rng, streams, trick_winner, tally, row, words, codes, ints, plays,
              record_plays, error):
    """Play deal ``deal_id`` into output row ``row``: the phases (phases.py) with the seat policies asked at
    each decision. Returns False (``error`` filled) when a policy broke the rules. The row's defaults are
    those of a void deal. The cards are shuffled on the deal's stream, or, when ``decks`` has rows, dealt
    in the order of ``decks[row]`` (chosen deals, for tests and tools). ``rng``: scratch for the deal's
    stream; ``streams[s]``: seat s's policy stream, the only one its policies are given. The rules' ``seats``
    (3, 4 or 5) set the deal sizes, the rotation, the trick and the settlement; the arrays hold N_SEATS. Five
    players: the taker calls a card before the chien (``call_fns``), its holder the secret partner."""
    n = rules.seats
    dealer = phases.dealer_of(deal_id, n)
    if decks.shape[0] == 0:
        phases.deal(seed, deal_id, deck, suits, trumps, chien, rng, n)
    else:
        phases.distribute(decks[row], suits, trumps, chien, n)
    start_policy_streams(seed, deal_id, 0, streams)
    for s in range(n):
        _words(words, row, W_DEALT + 2 * s, suits[s], trumps[s])
    _words(words, row, W_CHIEN, chien[0], chien[1])
    for i in range(W_DISCARD, N_WORDS):
        words[row, i] = 0
    for i in range(N_CODES):
        codes[row, i] = 0
    for i in range(N_INTS):
        ints[row, i] = 0
    codes[row, S_DEALER] = dealer
    codes[row, S_TAKER] = -1
    codes[row, S_FIRST_LEADER] = -1
    codes[row, S_CALLED] = -1
    codes[row, S_PARTNER] = -1
    codes[row, S_REVEALED] = -1
    if rules.petit_sec_redeal and phases.petit_sec(trumps, n):
        codes[row, S_VOID] = phases.VOID_PETIT_SEC
        return True

    # ---- bidding: each seat once, right of the dealer first
    phases.start_deal(rules, view, tally, dealer)
    taker = -1
    contract = 0
    for k in range(n):
        s = phases.bidder(dealer, k, n)
        phases.start_bid(view, s, contract)
        b = bid_fns[s](np.int64(s), suits[s], trumps[s], view, params[s], streams[s])
        if not phases.bid_is_legal(b, contract):
            return _fault(error, ERR_BID, s, b)
        codes[row, S_BID + s] = b
        taker, contract = phases.apply_bid(view, s, b, taker, contract, n)
    if taker < 0:
        codes[row, S_VOID] = phases.VOID_ALL_PASS
        return True
    phases.end_bidding(view, taker)
    codes[row, S_TAKER] = taker
    codes[row, S_CONTRACT] = contract
    dealt_trumps = trumps[taker]

    # ---- five players: the taker calls a card before the chien; its holder is the secret partner
    if n == 5:
        legal_call = phases.start_call(rules, view, suits[taker], taker)
        c = call_fns[taker](np.int64(taker), suits[taker], trumps[taker], view, params[taker], streams[taker])
        if not phases.card_in(c, legal_call, np.int64(0)):
            return _fault(error, ERR_CALL, taker, c)
        phases.apply_call(view, tally, suits, c, taker, n)
        codes[row, S_CALLED] = c
        codes[row, S_PARTNER] = tally[T_PARTNER]

    # ---- chien and discard (Prise, Garde)
    discard_s = np.int64(0)
    discard_t = np.int64(0)
    if phases.takes_chien(contract):
        phases.show_chien(view, suits, trumps, chien, taker)
        for i in range(phases.chien_cards(n)):
            legal_s, legal_t = phases.start_discard(rules, view, suits[taker], trumps[taker], i)
            c = discard_fns[taker](np.int64(taker), suits[taker], trumps[taker], legal_s, legal_t, view, params[taker],
                                   streams[taker])
            if not phases.card_in(c, legal_s, legal_t):
                return _fault(error, ERR_DISCARD, taker, c)
            discard_s, discard_t = phases.apply_discard(view, suits, trumps, taker, c, discard_s, discard_t)
        phases.end_discard(view)
        _words(words, row, W_DISCARD, discard_s, discard_t)

    # ---- Chelem, then the first trick's leader
    phases.start_chelem(view, taker)
    announced = chelem_fns[taker](np.int64(taker), suits[taker], trumps[taker], view, params[taker], streams[taker])
    chelem, leader = phases.declare_chelem(view, tally, trumps, dealer, taker, announced, n)
    codes[row, S_CHELEM] = chelem
    codes[row, S_FIRST_LEADER] = leader

    # ---- the tricks (18 for four players)
    for t in range(phases.n_tricks(n)):
        phases.start_trick(view, t, leader)
        led, win_seat, win_card, high = -1, -1, -1, -1
        for k in range(n):
            s = phases.turn(view, leader, k, n)
            if t == 0:  # a poignée, shown before the seat's first card
                most = phases.start_poignee(rules, view, s, taker, contract, trumps, dealt_trumps, suits, discard_t)
                if most > 0:
                    shown = poignee_fns[s](np.int64(s), suits[s], trumps[s], view, params[s], streams[s])
                    level = phases.poignee_is_legal(rules, view, shown)
                    if level < 0:
                        return _fault(error, ERR_POIGNEE, s, shown)
                    phases.apply_poignee(view, tally, s, level, shown)
                    if level > 0:
                        _words(words, row, W_POIGNEE + 2 * s, np.int64(0), shown)
            legal_s, legal_t = phases.legal_cards(rules, suits[s], trumps[s], led, high, k == 0)
            c = phases.only_card(legal_s, legal_t)
            if c < 0:
                c = play_fns[s](np.int64(s), suits[s], trumps[s], legal_s, legal_t, view, params[s], streams[s])
                if not phases.card_in(c, legal_s, legal_t):
                    return _fault(error, ERR_PLAY, s, c)
            if record_plays:
                plays[row, n * t + k] = c
            if n == 5 and c == view[V_CALLED]:
                codes[row, S_REVEALED] = t
            led, win_seat, win_card, high = phases.apply_card(view, suits, trumps, s, c, led, win_seat, win_card,
                                                              high, n)
        leader = phases.end_trick(rules, view, tally, trick_winner, win_seat)

    # ---- count and settle
    taker_half, oudlers, petit_au_bout, slam = phases.count(rules, view, tally, trick_winner, chien, discard_s,
                                                            discard_t)
    target, won, amount = phases.score(rules, view, tally, taker_half, oudlers, petit_au_bout, slam)
    codes[row, S_OUDLERS] = oudlers
    codes[row, S_WON] = won
    codes[row, S_PETIT_AU_BOUT] = petit_au_bout
    codes[row, S_SLAM] = slam
    ints[row, I_TAKER_POINTS] = taker_half  # half-points: the table halves them (taker_points may end in .5)
    ints[row, I_TARGET] = target
    ints[row, I_POIGNEE] = tally[T_POIGNEE]
    for s in range(n):
        ints[row, I_SCORE + s] = phases.seat_score(s, taker, amount, n, tally[T_PARTNER])
    return True


@njit(cache=True, nogil=True)
def simulate_block(rules, bid_fns, discard_fns, chelem_fns, poignee_fns, play_fns, call_fns, params, seed, deal_ids, decks,
                   record_plays, words, codes, ints, plays, errors):
    """Play the deals ``deal_ids`` into consecutive rows from row 0; call it through ``kernel_for``.
    Every block has one row per deal (so a range of rows is a contiguous block for a thread of its own).
    ``errors[i]`` gets (code, 0, seat, value) when a policy broke the rules in deal i (ERR_*)."""
    scratch = (np.empty(N_CARDS, dtype=np.int64), np.empty(N_SEATS, dtype=np.int64),
               np.empty(N_SEATS, dtype=np.int64), np.empty(2, dtype=np.int64), np.empty(VIEW_SIZE, dtype=np.int64),
               np.empty(1, dtype=np.uint64), np.empty(N_CARDS, dtype=np.int64), np.empty(4, dtype=np.int64),
               np.empty(N_TALLY, dtype=np.int64), np.empty((N_SEATS, 1), dtype=np.uint64))
    # every array of the loop is borrowed (simulator/borrow.py; docs/performance.md P6); the caller holds
    # the arguments, ``scratch`` is held below
    deck, suits, trumps, chien = borrowed(scratch[0]), borrowed(scratch[1]), borrowed(scratch[2]), borrowed(scratch[3])
    view, rng, trick_winner, error = borrowed(scratch[4]), borrowed(scratch[5]), borrowed(scratch[6]), borrowed(scratch[7])
    tally, streams = borrowed(scratch[8]), borrowed(scratch[9])
    params, deal_ids, decks = borrowed(params), borrowed(deal_ids), borrowed(decks)
    words, codes, ints, plays, errors = borrowed(words), borrowed(codes), borrowed(ints), borrowed(plays), borrowed(errors)
    for i in range(deal_ids.shape[0]):
        for e in range(4):
            error[e] = 0
        ok = play_deal(rules, bid_fns, discard_fns, chelem_fns, poignee_fns, play_fns, call_fns, params, seed,
                       deal_ids[i],
                       decks, deck, suits, trumps, chien, view, rng, streams, trick_winner, tally, i, words, codes, ints,
                       plays, record_plays, error)
        for e in range(4):
            errors[i, e] = error[e]
        if not ok:
            errors[i, 1] = deal_ids[i]
    alive_until_here(scratch)


_KR = typeof(KernelRules(*([0] * len(KernelRules._fields))))
_I64_2D = types.int64[:, ::1]
SIGNATURE = types.void(
    _KR,
    types.UniTuple(HAND_FN, N_SEATS), types.UniTuple(CHOOSE_FN, N_SEATS), types.UniTuple(HAND_FN, N_SEATS),
    types.UniTuple(HAND_FN, N_SEATS), types.UniTuple(CHOOSE_FN, N_SEATS),
    types.UniTuple(HAND_FN, N_SEATS),          # call (five players)
    types.float64[:, ::1],                     # params (N_SEATS, N_PARAMS)
    types.int64, types.int64[::1],             # seed, deal ids
    types.int64[:, ::1],                       # decks (n_deals, 78) of chosen deals, or (0, 78): shuffled
    types.boolean,                             # record_plays
    _I64_2D, types.int8[:, ::1], types.int32[:, ::1], types.int8[:, ::1],  # words, codes, ints, plays
    _I64_2D,                                   # errors (n_deals, 4)
)
_ENTRY_POINT: list = []
_COMPILE_LOCK = threading.Lock()


def kernel_for():
    """The compiled simulate_block: loaded from Numba's cache, else compiled once (an explicit signature,
    so every process finds it in the cache). Under NUMBA_DISABLE_JIT: the plain Python function."""
    if config.DISABLE_JIT:
        return getattr(simulate_block, "py_func", simulate_block)
    if not _ENTRY_POINT:
        with _COMPILE_LOCK:  # the run's worker threads ask at once: one compiles, the others then find it
            if not _ENTRY_POINT:
                with announced("the tarot kernel"):
                    _ENTRY_POINT.append(simulate_block.compile(SIGNATURE))
    return _ENTRY_POINT[0]
