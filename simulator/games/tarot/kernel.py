"""The Tarot batch kernel: deal, bid, discard, declare, play, count and settle whole deals.

``simulate_block`` is the one entry point (``kernel_for`` compiles or loads it); it plays a list of
deals, one output row each, into caller-owned column arrays, and is serial and releases the GIL (the
engine runs one call per core on Python threads, as for Spades). Each deal draws only from its own
counter-based streams (rng.py): the data do not depend on thread count or shard size. Seat s's
policies get seat s's own stream (``streams[s]``) and no other.
Every rule is a phase of ``phases.py``; this module composes them and asks the seat policies.
"""
from __future__ import annotations

import numpy as np
from numba import njit, typeof, types
from numba.core import config

from tricksim.simulator.bits import lowest_bit, popcount
from tricksim.simulator.borrow import alive_until_here, borrowed
from tricksim.simulator.rng import start_policy_streams
from tricksim.simulator.games.tarot import phases
from tricksim.simulator.games.tarot.cards import (
    EXCUSE,
    FIRST_TRUMP,
    HALF_POINTS,
    MONDE,
    N_CARDS,
    OUDLERS_T,
    PETIT,
    join_words,
)
from tricksim.simulator.games.tarot.phases import CHIEN_CARDS, GARDE, GARDE_SANS, N_SEATS, N_TRICKS
from tricksim.simulator.games.tarot.policy import (
    CHOOSE_FN,
    HAND_FN,
    V_BID,
    V_CHELEM,
    V_CHIEN_S,
    V_CHIEN_T,
    V_CONTRACT,
    V_DISCARD_T,
    V_MIN_BID,
    V_POIGNEE,
    V_POIGNEE_MAX,
    V_POIGNEE_T,
    V_SEAT,
    V_TAKER,
    V_TAKER_HALF,
    V_TO_DISCARD,
    V_TRICKS,
    VIEW_SIZE,
)
from tricksim.simulator.games.tarot.rules import CHOICES, KernelRules
from tricksim.simulator.games.tarot.scoring import POIGNEE_CARDS, POIGNEE_VALUE, SLAM_DEFENCE, SLAM_TAKER

# policy faults reported back to the engine (errors[0]); 0 = none
ERR_BID, ERR_DISCARD, ERR_POIGNEE, ERR_PLAY = 1, 2, 3, 4
EXCUSE_LAST_ANNOUNCED_ONLY = CHOICES["excuse_last_trick"].index("announced_only")
TARGET_HELD = CHOICES["target_oudlers"].index("held")
CHELEM_BOTH = CHOICES["chelem_defenders_slam"].index("both")

# the output row, by block and index (batch.py names them as columns)
W_DEALT, W_CHIEN, W_DISCARD, W_POIGNEE, N_WORDS = 0, 8, 10, 12, 20        # int64 (lo, hi) pairs
S_DEALER, S_VOID, S_BID, S_TAKER, S_CONTRACT, S_CHELEM, S_FIRST_LEADER = 0, 1, 2, 6, 7, 8, 9
S_OUDLERS, S_WON, S_PETIT_AU_BOUT, S_SLAM, N_SMALL = 10, 11, 12, 13, 14   # int8
I_TAKER_POINTS, I_TARGET, I_POIGNEE, I_SCORE, N_INTS = 0, 1, 2, 3, 7      # int32
N_PLAYS = 72

POIGNEE_CARDS_A = np.array(POIGNEE_CARDS, dtype=np.int64)
POIGNEE_VALUE_A = np.array(POIGNEE_VALUE, dtype=np.int64)


@njit(inline="always", cache=True)
def _in(c, legal_s, legal_t):
    """Card ``c`` is one of the legal (suits, trumps)."""
    if c < 0 or c >= N_CARDS:
        return False
    if c < FIRST_TRUMP:
        return (legal_s >> c) & 1 == 1
    return (legal_t >> (c - FIRST_TRUMP)) & 1 == 1


@njit(inline="always", cache=True)
def _half_points(mask_s, mask_t):
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
def _fault(error, code, seat, value):
    error[0] = code
    error[2] = seat
    error[3] = value
    return False


@njit(inline="always")
def play_deal(rules, bid_fns, discard_fns, chelem_fns, poignee_fns, play_fns, params, seed, deal_id, decks, deck,
              suits, trumps, chien, view, rng, streams, trick_winner, row, words, small, ints, plays, record_plays,
              error):
    """Play deal ``deal_id`` into output row ``row``; returns False (``error`` filled) when a policy broke
    the rules. The row's defaults are those of a void deal. The cards are shuffled on the deal's stream,
    or, when ``decks`` has rows, dealt in the order of ``decks[row]`` (chosen deals, for tests and tools).
    ``rng``: scratch for the deal's stream; ``streams[s]``: seat s's policy stream, the only one its
    policies are given."""
    dealer = deal_id % N_SEATS
    if decks.shape[0] == 0:
        phases.deal(seed, deal_id, deck, suits, trumps, chien, rng)
    else:
        phases.distribute(decks[row], suits, trumps, chien)
    start_policy_streams(seed, deal_id, 0, streams)
    for s in range(N_SEATS):
        lo, hi = join_words(suits[s], trumps[s])
        words[row, W_DEALT + 2 * s] = lo
        words[row, W_DEALT + 2 * s + 1] = hi
    lo, hi = join_words(chien[0], chien[1])
    words[row, W_CHIEN] = lo
    words[row, W_CHIEN + 1] = hi
    for i in range(W_DISCARD, N_WORDS):
        words[row, i] = 0
    for i in range(N_SMALL):
        small[row, i] = 0
    for i in range(N_INTS):
        ints[row, i] = 0
    small[row, S_DEALER] = dealer
    small[row, S_TAKER] = -1
    small[row, S_FIRST_LEADER] = -1
    if rules.petit_sec_redeal and phases.petit_sec(trumps):
        small[row, S_VOID] = phases.VOID_PETIT_SEC
        return True

    # ---- bidding: each seat once, right of the dealer first
    phases.start_view(view, dealer)
    taker = -1
    contract = 0
    for k in range(N_SEATS):
        s = phases.bidder(dealer, k)
        view[V_SEAT] = s
        view[V_MIN_BID] = contract + 1
        b = bid_fns[s](np.int64(s), suits[s], trumps[s], view, params[s], streams[s])
        if not phases.bid_is_legal(b, contract):
            return _fault(error, ERR_BID, s, b)
        view[V_BID + s] = b
        small[row, S_BID + s] = b
        if b > 0:
            taker, contract = s, b
            view[V_CONTRACT] = b
    if taker < 0:
        small[row, S_VOID] = phases.VOID_ALL_PASS
        return True
    view[V_TAKER] = taker
    small[row, S_TAKER] = taker
    small[row, S_CONTRACT] = contract
    dealt_trumps = trumps[taker]

    # ---- chien and discard (Prise, Garde)
    discard_s = np.int64(0)
    discard_t = np.int64(0)
    if contract <= GARDE:
        view[V_CHIEN_S] = chien[0]
        view[V_CHIEN_T] = chien[1]
        suits[taker] |= chien[0]
        trumps[taker] |= chien[1]
        view[V_SEAT] = taker
        for i in range(CHIEN_CARDS):
            view[V_TO_DISCARD] = CHIEN_CARDS - i
            legal_s, legal_t = phases.discard_legal(rules, suits[taker], trumps[taker], CHIEN_CARDS - i)
            c = discard_fns[taker](np.int64(taker), suits[taker], trumps[taker], legal_s, legal_t, view, params[taker],
                                   streams[taker])
            if not _in(c, legal_s, legal_t):
                return _fault(error, ERR_DISCARD, taker, c)
            if c < FIRST_TRUMP:
                discard_s |= np.int64(1) << c
                suits[taker] &= ~(np.int64(1) << c)
            else:
                discard_t |= np.int64(1) << (c - FIRST_TRUMP)
                trumps[taker] &= ~(np.int64(1) << (c - FIRST_TRUMP))
                view[V_DISCARD_T] = discard_t
        view[V_TO_DISCARD] = 0
        lo, hi = join_words(discard_s, discard_t)
        words[row, W_DISCARD] = lo
        words[row, W_DISCARD + 1] = hi

    # ---- Chelem, then the first trick's leader
    view[V_SEAT] = taker
    chelem = 1 if chelem_fns[taker](np.int64(taker), suits[taker], trumps[taker], view, params[taker],
                                 streams[taker]) != 0 else 0
    view[V_CHELEM] = chelem
    small[row, S_CHELEM] = chelem
    held_oudlers = popcount(trumps[taker] & OUDLERS_T)
    leader = taker if chelem else (dealer + 1) % N_SEATS
    small[row, S_FIRST_LEADER] = leader

    # ---- 18 tricks
    poignee_total = 0
    taker_half = 0
    taker_tricks = 0
    excuse_owner = -1
    excuse_trick = -1
    petit_trick = -1
    monde_trick = -1
    exception = False  # the last-trick Excuse exception applied
    for t in range(N_TRICKS):
        phases.start_trick(view, t, leader)
        led, win_seat, win_card, high = -1, -1, -1, -1
        trick_half = 0
        for k in range(N_SEATS):
            s = (leader + k) % N_SEATS
            view[V_SEAT] = s
            if t == 0:  # a poignée, shown before the seat's first card
                base, has_excuse, extra = phases.poignee_basis(rules, s, taker, contract, trumps, dealt_trumps, suits,
                                                               discard_t)
                most = 0
                for level in range(3, 0, -1):
                    if phases.poignee_shown(rules, base, has_excuse, extra, POIGNEE_CARDS_A[level]) != 0:
                        most = level
                        break
                view[V_POIGNEE_MAX] = most
                if most > 0:
                    level = poignee_fns[s](np.int64(s), suits[s], trumps[s], view, params[s], streams[s])
                    if level < 0 or level > most:
                        return _fault(error, ERR_POIGNEE, s, level)
                    if level > 0:
                        shown = phases.poignee_shown(rules, base, has_excuse, extra, POIGNEE_CARDS_A[level])
                        view[V_POIGNEE + s] = level
                        view[V_POIGNEE_T + s] = shown
                        poignee_total += POIGNEE_VALUE_A[level]
                        lo, hi = join_words(np.int64(0), shown)
                        words[row, W_POIGNEE + 2 * s] = lo
                        words[row, W_POIGNEE + 2 * s + 1] = hi
                view[V_POIGNEE_MAX] = 0
            legal_s, legal_t = phases.legal_cards(rules, suits[s], trumps[s], led, high, k == 0)
            if (legal_s & (legal_s - 1)) == 0 and (legal_t & (legal_t - 1)) == 0 and (legal_s == 0 or legal_t == 0):
                # one legal card: played without asking
                c = lowest_bit(legal_s) if legal_s != 0 else FIRST_TRUMP + lowest_bit(legal_t)
            else:
                c = play_fns[s](np.int64(s), suits[s], trumps[s], legal_s, legal_t, view, params[s], streams[s])
                if not _in(c, legal_s, legal_t):
                    return _fault(error, ERR_PLAY, s, c)
            if c == EXCUSE:
                excuse_owner, excuse_trick = s, t
            elif c == PETIT:
                petit_trick = t
            elif c == MONDE:
                monde_trick = t
            trick_half += HALF_POINTS[c]
            if record_plays:
                plays[row, 4 * t + k] = c
            led, win_seat, win_card, high = phases.apply_card(view, suits, trumps, s, c, led, win_seat, win_card,
                                                              high)
        winner = win_seat
        if t == N_TRICKS - 1 and excuse_trick == t and excuse_owner == leader:
            # the Excuse led to the last trick by a side that won the 17 others wins it (RULES.md 2.7, 2.9)
            side_won_all = taker_tricks == N_TRICKS - 1 if leader == taker else taker_tricks == 0
            allowed = rules.excuse_last_trick != EXCUSE_LAST_ANNOUNCED_ONLY or (chelem == 1 and leader == taker)
            if side_won_all and allowed:
                winner = leader
                exception = True
        to_taker = winner == taker
        if excuse_trick == t and t < N_TRICKS - 1 and (excuse_owner == taker) != to_taker:
            # the Excuse stays with its owner's side, counted 4.0; the trick's winners gain 0.5
            if to_taker:
                taker_half += trick_half - 9 + 1
            else:
                taker_half += 8
        elif to_taker:
            taker_half += trick_half
        if to_taker:
            taker_tricks += 1
        view[V_TRICKS + winner] += 1
        view[V_TAKER_HALF] = taker_half
        trick_winner[t] = winner
        leader = winner

    # ---- count and settle
    counted_t = np.int64(0)  # the oudlers counted for the taker (trumps word)
    if petit_trick >= 0 and trick_winner[petit_trick] == taker:
        counted_t |= np.int64(1)
    if monde_trick >= 0 and trick_winner[monde_trick] == taker:
        counted_t |= np.int64(1) << 20
    if excuse_trick >= 0:
        excuse_to_taker = excuse_owner == taker  # it stays with its owner's side...
        if excuse_trick == N_TRICKS - 1 and not exception:
            excuse_to_taker = trick_winner[excuse_trick] == taker  # ...except in the last trick
        if excuse_to_taker:
            counted_t |= np.int64(1) << 21
    if contract == GARDE_SANS:
        taker_half += _half_points(chien[0], chien[1])
        counted_t |= chien[1] & OUDLERS_T
    elif contract <= GARDE:
        taker_half += _half_points(discard_s, discard_t)
    oudlers = held_oudlers if rules.target_oudlers == TARGET_HELD else popcount(counted_t)
    last = N_TRICKS - 2 if exception else N_TRICKS - 1  # a slam's last trick won by the Excuse: the one before
    petit_au_bout = 0
    if petit_trick == last:
        petit_au_bout = 1 if trick_winner[last] == taker else -1
    slam = SLAM_TAKER if taker_tricks == N_TRICKS else (SLAM_DEFENCE if taker_tricks == 0 else 0)
    target, won, amount = phases.settle(rules.chelem_defenders_slam == CHELEM_BOTH, contract, taker_half, oudlers,
                                        petit_au_bout, poignee_total, chelem, slam)
    small[row, S_OUDLERS] = oudlers
    small[row, S_WON] = won
    small[row, S_PETIT_AU_BOUT] = petit_au_bout
    small[row, S_SLAM] = slam
    ints[row, I_TAKER_POINTS] = taker_half // 2
    ints[row, I_TARGET] = target
    ints[row, I_POIGNEE] = poignee_total
    for s in range(N_SEATS):
        ints[row, I_SCORE + s] = 3 * amount if s == taker else -amount
    return True


@njit(cache=True, nogil=True)
def simulate_block(rules, bid_fns, discard_fns, chelem_fns, poignee_fns, play_fns, params, seed, deal_ids, decks,
                   record_plays, words, small, ints, plays, errors):
    """Play the deals ``deal_ids`` into consecutive rows from row 0; call it through ``kernel_for``.
    Every block has one row per deal (so a range of rows is a contiguous block for a thread of its own).
    ``errors[i]`` gets (code, 0, seat, value) when a policy broke the rules in deal i (ERR_*)."""
    scratch = (np.empty(N_CARDS, dtype=np.int64), np.empty(N_SEATS, dtype=np.int64),
               np.empty(N_SEATS, dtype=np.int64), np.empty(2, dtype=np.int64), np.empty(VIEW_SIZE, dtype=np.int64),
               np.empty(1, dtype=np.uint64), np.empty(N_TRICKS, dtype=np.int64), np.empty(4, dtype=np.int64),
               np.empty((N_SEATS, 1), dtype=np.uint64))
    # every array of the loop is borrowed (simulator/borrow.py; docs/performance.md P6); the caller holds
    # the arguments, ``scratch`` is held below
    deck, suits, trumps, chien = borrowed(scratch[0]), borrowed(scratch[1]), borrowed(scratch[2]), borrowed(scratch[3])
    view, rng, trick_winner, error = borrowed(scratch[4]), borrowed(scratch[5]), borrowed(scratch[6]), borrowed(scratch[7])
    streams = borrowed(scratch[8])
    params, deal_ids, decks = borrowed(params), borrowed(deal_ids), borrowed(decks)
    words, small, ints, plays, errors = borrowed(words), borrowed(small), borrowed(ints), borrowed(plays), borrowed(errors)
    for i in range(deal_ids.shape[0]):
        for e in range(4):
            error[e] = 0
        ok = play_deal(rules, bid_fns, discard_fns, chelem_fns, poignee_fns, play_fns, params, seed, deal_ids[i],
                       decks, deck, suits, trumps, chien, view, rng, streams, trick_winner, i, words, small, ints, plays,
                       record_plays, error)
        for e in range(4):
            errors[i, e] = error[e]
        if not ok:
            errors[i, 1] = deal_ids[i]
    alive_until_here(scratch)


_KR = typeof(KernelRules(*([0] * len(KernelRules._fields))))
_I64_2D = types.int64[:, ::1]
SIGNATURE = types.void(
    _KR,
    types.UniTuple(HAND_FN, 4), types.UniTuple(CHOOSE_FN, 4), types.UniTuple(HAND_FN, 4), types.UniTuple(HAND_FN, 4),
    types.UniTuple(CHOOSE_FN, 4),
    types.float64[:, ::1],                     # params (4, N_PARAMS)
    types.int64, types.int64[::1],             # seed, deal ids
    types.int64[:, ::1],                       # decks (n_deals, 78) of chosen deals, or (0, 78): shuffled
    types.boolean,                             # record_plays
    _I64_2D, types.int8[:, ::1], types.int32[:, ::1], types.int8[:, ::1],  # words, small, ints, plays
    _I64_2D,                                   # errors (n_deals, 4)
)
_ENTRY_POINT: list = []


def kernel_for():
    """The compiled simulate_block: loaded from Numba's cache, else compiled once (an explicit signature,
    so every process finds it in the cache). Under NUMBA_DISABLE_JIT: the plain Python function."""
    if config.DISABLE_JIT:
        return getattr(simulate_block, "py_func", simulate_block)
    if not _ENTRY_POINT:
        _ENTRY_POINT.append(simulate_block.compile(SIGNATURE))
    return _ENTRY_POINT[0]
