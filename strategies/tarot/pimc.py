"""``pimc`` (tarot): Perfect Information Monte Carlo search of the card play (issue #29).

At a card decision the player deals the cards it cannot see to the places they may be, many times, each
deal consistent with what the table has shown, plays each legal card out on each deal to the end of the
deal (every later card the heuristic's, for every seat, itself included) and plays the card with the best
mean score: its own score for the deal (``phases.seat_score``: its side's). It is a strategy like any other:
the six policies of ``policy.py``, its own hand, the public view and its own random stream; no other hand and
not the chien (unless shown) is reachable. The bid, the call and each discard card are searched the same way,
each candidate played out to the end of the deal (``play_deal_out``: the later bids, the call, the chien, the
rest of the discard, Chelem, the poignées and the tricks, all the heuristic's); Chelem and the poignée are the
heuristic's.

Sampling (``sampling.hidden_piles``, ``sampling.sample_deal``; docs/strategies.md has the method)
    The unseen cards (the 78 less its own hand, every card played, the chien when shown and the trumps
    discarded) go to the other seats in the numbers each still holds and to the hidden pile: the chien of a
    Garde sans or contre, or the discard of a Prise or Garde (its cards less the trumps shown; the taker does
    not see its own discard: the policy has no memory, so for it too the discard is the cards of the chien it
    no longer holds, and the rest sampled). Constraints, all public: a seat shown void in a suit
    (``V_VOIDS``, a card of another suit played to it) or out of trumps holds none; a seat that played a
    trump under the trick's highest trump holds none above it (it would have had to overtrump); a poignée
    shown stays with its seat until played; after a Prise or Garde the chien's trumps not discarded and its
    kings are the taker's, its other cards the taker's or in the discard; the discard holds no king and no
    trump beyond those shown. Five players: the called card lies wherever the deal puts it, and the partner
    of each sampled deal is its holder (until the card is played nobody knows it). Cards are dealt most
    constrained first, each to one of the places that may hold it with probability proportional to the room
    left there: exactly uniform when nothing is constrained, close to it otherwise. A deal that runs out of
    room is dealt again, ``tries`` times, then without the voids. Bids are not used as evidence.

Play-outs (``play_out``)
    The deal so far is rebuilt on the sampled hands by the game's own phases (``phases.start_trick``,
    ``apply_card``, ``end_trick`` over the public history: the tricks' winners, the Excuse, the taker's side's
    points, the partner), then the candidate card is applied and the deal played to its end in the kernel's
    order, with the same phases (``turn``, ``start_poignee``/``apply_poignee`` in the first trick,
    ``legal_cards``, ``only_card``, ``apply_card``, ``end_trick``, ``count``, ``score``, ``seat_score``), each
    decision the heuristic's on the play-out's own view. Every candidate meets the same deal and the same
    random draws (paired). ``samples`` deals, at most ``playouts`` play-outs per decision. The best mean wins;
    ties go to the heuristic's card when among the best, else the first best card.

Random draws come from a private stream seeded by one draw of the seat's stream mixed with ``stream``.

Limits: the search values this deal's score with the heuristic playing every later card (its own included),
so it can only find what one card changes against heuristic continuations. No inference from the bids, from
which card a seat chose, or from a poignée not shown.
"""
import numpy as np
from numba import njit

from tricksim.simulator.bits import popcount
from tricksim.simulator.games.tarot import phases
from tricksim.simulator.games.tarot.cards import FIRST_TRUMP, N_CARDS, OUDLERS_T, pop_card
from tricksim.simulator.games.tarot.policy import (
    CHOOSE_SIG,
    HAND_SIG,
    N_SEATS,
    R_CALL_FOUR_KINGS,
    R_CALL_OWN,
    V_BID,
    V_CALLED,
    V_CHIEN_S,
    V_CHIEN_T,
    V_CONTRACT,
    V_DEALER,
    V_DISCARD_T,
    V_LEADER,
    V_MIN_BID,
    V_NPLAYED,
    V_PARTNER,
    V_PLAY_CARD,
    V_PLAY_SEAT,
    V_POIGNEE,
    V_RULES,
    V_TAKER,
    V_TO_DISCARD,
    V_TRICK_NO,
    V_TRICKS,
    rules_of,
)
from tricksim.simulator.rng import next_u64, private_stream
from tricksim.strategies.tarot import heuristic
from tricksim.strategies.tarot._sampling import deal_arrays, fresh_tally, new_piles, sample_deal, sampled_hands
from tricksim.strategies.tarot.meta.pimc import PARAMS, STRATEGY  # noqa: F401 (STRATEGY: this module's strategy, registered in meta/pimc.py)

_INDEX = {p.name: i for i, p in enumerate(PARAMS)}
P_SAMPLES = _INDEX["samples"]
P_PLAYOUTS = _INDEX["playouts"]
P_STREAM = _INDEX["stream"]
P_TRIES = _INDEX["tries"]
P_BIDS = _INDEX["bids"]
P_DISCARD = _INDEX["discard"]
P_CALL = _INDEX["call"]
P_DEAL_PLAYOUTS = _INDEX["deal_playouts"]

# the heuristic's parameters for its decisions taken here, in the play-outs above all: its defaults but Chelem by the
# loser count alone (chelem_samples 0), since the heuristic's Chelem play-outs inside every play-out would multiply a
# search's cost on the strong hands; a constant copied per call. This player's own announcement is the heuristic's
# with its defaults (``_chelem_params``)
HEURISTIC_PARAMS = heuristic.STRATEGY.param_vector({"chelem_samples": 0})
CHELEM_SAMPLES = float(heuristic.STRATEGY.param_vector()[heuristic.P_CHELEM_SAMPLES])


@njit(cache=True)
def _heuristic_params():
    return HEURISTIC_PARAMS.copy()


# ------------------------------------------------------------------ play-outs on one deal
@njit(cache=True)
def rebuild(view0, rules, suits, trumps, tally, trick_winner):
    """The deal so far replayed on the sampled hands with the game's phases: ``tally`` and ``trick_winner`` as
    the kernel holds them now (the winners, the Excuse, the taker's side's points, the partner: five players,
    the holder of the called card in this deal), the view as given. Returns (view, led, win_seat, win_card,
    high) of the trick in progress."""
    n = rules.seats
    view = view0.copy()
    taker = view[V_TAKER]
    scratch_s = np.zeros(N_SEATS, np.int64)  # apply_card takes each card out of a hand: not ours to touch
    scratch_t = np.zeros(N_SEATS, np.int64)
    for i in range(phases.N_TALLY):
        tally[i] = 0
    tally[phases.T_EXCUSE_OWNER] = -1
    tally[phases.T_EXCUSE_TRICK] = -1
    tally[phases.T_PETIT_TRICK] = -1
    tally[phases.T_MONDE_TRICK] = -1
    for s in range(n):
        tally[phases.T_POIGNEE] += phases.POIGNEE_VALUE[view[V_POIGNEE + s]]
    partner = np.int64(-1)
    called = view[V_CALLED]
    if n == 5 and called >= 0:
        if view[V_PARTNER] >= 0:
            partner = view[V_PARTNER] if view[V_PARTNER] != taker else np.int64(-1)
        else:
            for s in range(n):
                if s != taker and (suits[s] >> called) & 1:
                    partner = s
    tally[phases.T_PARTNER] = partner
    held = trumps[taker] & OUDLERS_T
    t_now = view[V_TRICK_NO]
    for i in range(n * t_now + view[V_NPLAYED]):
        if view[V_PLAY_SEAT + i] == taker:
            c = view[V_PLAY_CARD + i]
            if c >= FIRST_TRUMP:
                held |= (np.int64(1) << (c - FIRST_TRUMP)) & OUDLERS_T
    tally[phases.T_HELD_OUDLERS] = popcount(held)
    for s in range(N_SEATS):
        view[V_TRICKS + s] = 0
    for t in range(t_now + 1):
        leader = view0[V_PLAY_SEAT + n * t] if t < t_now else view0[V_LEADER]
        phases.start_trick(view, t, leader)
        led, win_seat, win_card, high = -1, -1, -1, -1
        k_end = n if t < t_now else view0[V_NPLAYED]
        for k in range(k_end):
            s = (leader + k) % n
            led, win_seat, win_card, high = phases.apply_card(view, scratch_s, scratch_t, s,
                                                              view0[V_PLAY_CARD + n * t + k], led, win_seat,
                                                              win_card, high, n)
        if t < t_now:
            phases.end_trick(rules, view, tally, trick_winner, win_seat)
        else:
            return view, led, win_seat, win_card, high
    return view, -1, -1, -1, -1  # not reached


@njit(cache=True)
def play_out(seat, c, view0, rules, suits0, trumps0, tally0, trick_winner0, led, win_seat, win_card, high, rest_s,
             rest_t, hp, rng):
    """Seat ``seat``'s score for the deal when it plays ``c`` now and every later card is the heuristic's, on the
    sampled hands ``suits0``/``trumps0`` and hidden pile ``rest_s``/``rest_t``, from the state ``rebuild`` made;
    the kernel's order with the game's phases."""
    n = rules.seats
    view = view0.copy()
    suits = suits0.copy()
    trumps = trumps0.copy()
    tally = tally0.copy()
    trick_winner = trick_winner0.copy()
    taker = view[V_TAKER]
    contract = view[V_CONTRACT]
    discard_t = view[V_DISCARD_T]
    # poignée (first trick): the taker's trumps as dealt, before the chien (poignee_hand=as_dealt)
    dealt_trumps = (trumps[taker] | discard_t) & ~view[V_CHIEN_T]
    leader = view[V_LEADER]
    t = view[V_TRICK_NO]
    k = view[V_NPLAYED]
    led, win_seat, win_card, high = phases.apply_card(view, suits, trumps, seat, c, led, win_seat, win_card, high, n)
    heuristic.play_tricks(rules, view, suits, trumps, tally, trick_winner, taker, contract, dealt_trumps, discard_t, t,
                          leader, k + 1, led, win_seat, win_card, high, hp, rng)
    chien = np.zeros(2, np.int64)
    discard_s = np.int64(0)
    if phases.takes_chien(contract):
        chien[0] = view[V_CHIEN_S]
        chien[1] = view[V_CHIEN_T]
        discard_s = rest_s
        discard_t = discard_t | rest_t
    else:
        chien[0] = rest_s
        chien[1] = rest_t
    taker_half, oudlers, petit_au_bout, slam = phases.count(rules, view, tally, trick_winner, chien, discard_s,
                                                            discard_t)
    _target, _won, amount = phases.score(rules, view, tally, taker_half, oudlers, petit_au_bout, slam)
    return phases.seat_score(seat, taker, amount, n, tally[phases.T_PARTNER])


@njit(cache=True)
def card_values(seat, suits, trumps, rest_s, rest_t, legal_s, legal_t, view, hp, rng, out):
    """``out[c]``: seat ``seat``'s score for the deal when it plays legal card ``c`` on this one full deal
    (``suits``/``trumps`` every seat's hand, ``rest_s/_t`` the hidden pile), every later card the heuristic's;
    each card from the same copy of ``rng``."""
    rules = rules_of(view)
    tally = np.zeros(phases.N_TALLY, np.int64)
    trick_winner = np.full(phases.n_tricks(rules.seats), -1, np.int64)
    base, led, win_seat, win_card, high = rebuild(view, rules, suits, trumps, tally, trick_winner)
    m_s, m_t = legal_s, legal_t
    while m_s | m_t:
        c, m_s, m_t = pop_card(m_s, m_t)
        r = rng.copy()
        out[c] = play_out(seat, c, base, rules, suits, trumps, tally, trick_winner, led, win_seat, win_card, high,
                          rest_s, rest_t, hp, r)


# ------------------------------------------------------------------ search
@njit(cache=True)
def search_card(seat, suits, trumps, legal_s, legal_t, view, params, rng, stats):
    """The card the search chooses (``stats``: deals sampled, deals that met every constraint, candidates);
    the policy ``play`` is this with a scratch ``stats``."""
    hp = _heuristic_params()
    h_card = heuristic.play(seat, suits, trumps, legal_s, legal_t, view, hp, rng)
    stats[0] = 0
    stats[1] = 0
    n_cand = popcount(legal_s) + popcount(legal_t)
    stats[2] = n_cand
    if n_cand < 2:
        return h_card
    local = private_stream(rng, np.int64(params[P_STREAM]))
    n_piles, pile_seat, need, known_s, known_t, allow_s, allow_t, only_s, free_s, free_t = new_piles(
        seat, suits, trumps, view)
    if n_piles < 0:
        return h_card
    n_samples = max(np.int64(1), min(np.int64(params[P_SAMPLES]), np.int64(params[P_PLAYOUTS]) // n_cand))
    tries = max(np.int64(1), np.int64(params[P_TRIES]))
    taker = view[V_TAKER]
    out_s, out_t, hs, ht = deal_arrays()
    out = np.zeros(N_CARDS, np.int64)
    total = np.zeros(N_CARDS, np.int64)
    done = 0
    exact = 0
    for _ in range(n_samples):
        met = sample_deal(n_piles, pile_seat, need, known_s, known_t, allow_s, allow_t, only_s, free_s, free_t,
                          taker, local, tries, out_s, out_t)
        if met < 0:
            break
        exact += met
        sampled_hands(seat, suits, trumps, n_piles, pile_seat, out_s, out_t, hs, ht)
        draws = np.empty(1, np.uint64)
        draws[0] = next_u64(local)
        card_values(seat, hs, ht, out_s[n_piles - 1], out_t[n_piles - 1], legal_s, legal_t, view, hp, draws, out)
        m_s, m_t = legal_s, legal_t
        while m_s | m_t:
            c, m_s, m_t = pop_card(m_s, m_t)
            total[c] += out[c]
        done += 1
    stats[0] = done
    stats[1] = exact
    if done == 0:
        return h_card
    return best_card(total, legal_s, legal_t, h_card)


@njit(cache=True)
def best_card(total, legal_s, legal_t, h_card):
    """The legal card of the highest ``total``; the heuristic's ``h_card`` when it is among the best, else the
    first best (lowest id)."""
    best = np.int64(-1)
    best_v = np.int64(0)
    m_s, m_t = legal_s, legal_t
    while m_s | m_t:
        c, m_s, m_t = pop_card(m_s, m_t)
        if best < 0 or total[c] > best_v:
            best = c
            best_v = total[c]
    if total[h_card] == best_v:
        return h_card
    return best


# ------------------------------------------------------------------ the decisions before the play
STAGE_BID, STAGE_CALL, STAGE_CHIEN, STAGE_DISCARD = 0, 1, 2, 3


@njit(cache=True)
def play_deal_out(seat, stage, k, view, rules, suits, trumps, chien, tally, taker, contract, discard_s, discard_t, hp,
                  rng):
    """Seat ``seat``'s score for the deal from a decision before the play, on one full deal (``suits``/``trumps``
    every hand, ``chien`` the chien's two words), every later decision the heuristic's: the kernel's order
    (``kernel.play_deal``) with the game's phases. ``stage``: STAGE_BID, the bidder that speaks ``k``-th is next
    (``taker``/``contract`` the bidding so far); STAGE_CALL, the bidding is over and the taker calls (five
    players); STAGE_CHIEN, the chien is next; STAGE_DISCARD, the chien is taken and the taker's discard card
    ``k`` is next (``discard_s``/``_t`` the discard so far). The arrays are this play-out's own: they are
    changed."""
    n = rules.seats
    dealer = view[V_DEALER]
    if stage == STAGE_BID:
        for j in range(k, n):
            s = phases.bidder(dealer, j, n)
            phases.start_bid(view, s, contract)
            b = heuristic.bid(s, suits[s], trumps[s], view, hp, rng)
            taker, contract = phases.apply_bid(view, s, b, taker, contract, n)
        if taker < 0:
            return np.int64(0)  # all passed: the deal is void
        phases.end_bidding(view, taker)
        stage = STAGE_CALL
    if stage == STAGE_CALL:
        if n == 5:
            phases.start_call(rules, view, suits[taker], taker)
            c = heuristic.call(taker, suits[taker], trumps[taker], view, hp, rng)
            phases.apply_call(view, tally, suits, c, taker, n)
        stage = STAGE_CHIEN
    if stage == STAGE_CHIEN:
        if phases.takes_chien(contract):
            phases.show_chien(view, suits, trumps, chien, taker)
        k = 0
    if phases.takes_chien(contract):
        for i in range(k, phases.chien_cards(n)):
            legal_s, legal_t = phases.start_discard(rules, view, suits[taker], trumps[taker], i)
            c = heuristic.discard(taker, suits[taker], trumps[taker], legal_s, legal_t, view, hp, rng)
            discard_s, discard_t = phases.apply_discard(view, suits, trumps, taker, c, discard_s, discard_t)
        phases.end_discard(view)
    phases.start_chelem(view, taker)
    announced = heuristic.chelem(taker, suits[taker], trumps[taker], view, hp, rng)
    value, _slam = heuristic.play_from_chelem(seat, view, rules, suits, trumps, chien, tally, taker, contract,
                                              discard_s, discard_t, announced, hp, rng)
    return value


@njit(cache=True)
def bidding_so_far(view, n):
    """(taker, contract) of the bids in the view: the seat of the highest bid (bids only go up), -1 and 0 when
    nobody has bid a contract."""
    contract = view[V_CONTRACT]
    for s in range(n):
        if contract > 0 and view[V_BID + s] == contract:
            return np.int64(s), contract
    return np.int64(-1), np.int64(0)


@njit(cache=True)
def decision_value(seat, stage, x, view, suits, trumps, chien, rest_s, rest_t, hp, rng):
    """Seat ``seat``'s score for the deal when it decides ``x`` now, every later decision the heuristic's, on one
    full deal: ``suits``/``trumps`` every hand, ``chien`` the chien's two words, ``rest_s``/``_t`` the discard so
    far (its trumps not shown; STAGE_DISCARD). ``stage``: STAGE_BID, ``x`` the seat's bid; STAGE_CALL, the card the
    taker calls (five players); STAGE_DISCARD, the taker's next discard card."""
    rules = rules_of(view)
    n = rules.seats
    taker, contract = bidding_so_far(view, n)
    tally = fresh_tally(rules, view)
    v = view.copy()
    hs = suits.copy()
    ht = trumps.copy()
    if stage == STAGE_BID:
        taker, contract = phases.apply_bid(v, seat, x, taker, contract, n)
        k = (seat - v[V_DEALER] - 1) % n + 1
        return play_deal_out(seat, STAGE_BID, k, v, rules, hs, ht, chien, tally, taker, contract, np.int64(0),
                             np.int64(0), hp, rng)
    if stage == STAGE_CALL:
        phases.start_call(rules, v, hs[taker], taker)
        phases.apply_call(v, tally, hs, x, taker, n)
        return play_deal_out(seat, STAGE_CHIEN, 0, v, rules, hs, ht, chien, tally, taker, contract, np.int64(0),
                             np.int64(0), hp, rng)
    if n == 5:  # the called card's holder in this deal: the partner (phases.apply_call)
        for s in range(n):
            if s != taker and (hs[s] >> view[V_CALLED]) & 1 == 1:
                tally[phases.T_PARTNER] = s
    d_s, d_t = phases.apply_discard(v, hs, ht, taker, x, rest_s, rest_t | view[V_DISCARD_T])
    k = phases.chien_cards(n) - view[V_TO_DISCARD] + 1
    return play_deal_out(seat, STAGE_DISCARD, k, v, rules, hs, ht, chien, tally, taker, contract, d_s, d_t, hp, rng)


@njit(cache=True)
def search_before_play(seat, suits, trumps, legal_s, legal_t, view, params, rng, h_choice, stage, stats):
    """The bid (``stage`` STAGE_BID: the candidates are pass and every contract from ``view[V_MIN_BID]``), the
    called card (STAGE_CALL) or the discard card (STAGE_DISCARD) of the best mean score over sampled deals (the
    candidates of a call or a discard: ``legal_s``/``_t``), each candidate played out to the end of the deal
    (``play_deal_out``) on the same deals and draws; ``h_choice``, the heuristic's, wins ties when among the best.
    ``stats`` as ``search_card``'s."""
    rules = rules_of(view)
    n = rules.seats
    stats[0] = 0
    stats[1] = 0
    cand = np.zeros(N_CARDS, np.int64)
    n_cand = 0
    if stage == STAGE_BID:
        cand[0] = 0
        n_cand = 1
        for b in range(view[V_MIN_BID], phases.GARDE_CONTRE + 1):
            cand[n_cand] = b
            n_cand += 1
    else:
        m_s, m_t = legal_s, legal_t
        while m_s | m_t:
            c, m_s, m_t = pop_card(m_s, m_t)
            cand[n_cand] = c
            n_cand += 1
    stats[2] = n_cand
    if n_cand < 2:
        return h_choice
    hp = _heuristic_params()
    local = private_stream(rng, np.int64(params[P_STREAM]))
    n_piles, pile_seat, need, known_s, known_t, allow_s, allow_t, only_s, free_s, free_t = new_piles(
        seat, suits, trumps, view)
    if n_piles < 0:
        return h_choice
    n_samples = max(np.int64(1), min(np.int64(params[P_SAMPLES]), np.int64(params[P_DEAL_PLAYOUTS]) // n_cand))
    tries = max(np.int64(1), np.int64(params[P_TRIES]))
    taker = view[V_TAKER]
    out_s, out_t, hs, ht = deal_arrays()
    chien = np.zeros(2, np.int64)
    total = np.zeros(N_CARDS, np.int64)
    done = 0
    exact = 0
    for _ in range(n_samples * tries):  # a deal the table has ruled out (a Petit sec redealt) is drawn again
        if done == n_samples:
            break
        met = sample_deal(n_piles, pile_seat, need, known_s, known_t, allow_s, allow_t, only_s, free_s, free_t,
                          taker, local, tries, out_s, out_t)
        if met < 0:
            break
        sampled_hands(seat, suits, trumps, n_piles, pile_seat, out_s, out_t, hs, ht)
        if stage != STAGE_DISCARD and rules.petit_sec_redeal and phases.petit_sec(ht, n):
            continue
        exact += met
        rest_s = out_s[n_piles - 1]
        rest_t = out_t[n_piles - 1]
        if stage != STAGE_DISCARD:  # the chien is hidden until it is taken
            chien[0] = rest_s
            chien[1] = rest_t
        else:
            chien[0] = view[V_CHIEN_S]
            chien[1] = view[V_CHIEN_T]
        draws = np.empty(1, np.uint64)
        draws[0] = next_u64(local)
        for j in range(n_cand):
            value = decision_value(seat, stage, cand[j], view, hs, ht, chien, rest_s, rest_t, hp, draws.copy())
            total[j] += value
        done += 1
    stats[0] = done
    stats[1] = exact
    if done == 0:
        return h_choice
    best = np.int64(0)
    for j in range(n_cand):
        if total[j] > total[best]:
            best = j
    for j in range(n_cand):
        if cand[j] == h_choice and total[j] == total[best]:
            return h_choice
    return cand[best]


# ------------------------------------------------------------------ policies: the heuristic's but the play
@njit(HAND_SIG, cache=True)
def bid(seat, suits, trumps, view, params, rng):
    h_bid = heuristic.bid(seat, suits, trumps, view, _heuristic_params(), rng)
    if params[P_BIDS] == 0:
        return h_bid
    return search_before_play(seat, suits, trumps, np.int64(0), np.int64(0), view, params, rng, h_bid, STAGE_BID,
                              np.zeros(3, np.int64))


@njit(HAND_SIG, cache=True)
def call(seat, suits, trumps, view, params, rng):
    h_card = heuristic.call(seat, suits, trumps, view, _heuristic_params(), rng)
    if params[P_CALL] == 0:
        return h_card
    legal = phases.call_legal(view[V_RULES + R_CALL_OWN], view[V_RULES + R_CALL_FOUR_KINGS], suits)
    return search_before_play(seat, suits, trumps, legal, np.int64(0), view, params, rng, h_card, STAGE_CALL,
                              np.zeros(3, np.int64))


@njit(CHOOSE_SIG, cache=True)
def discard(seat, suits, trumps, legal_s, legal_t, view, params, rng):
    h_card = heuristic.discard(seat, suits, trumps, legal_s, legal_t, view, _heuristic_params(), rng)
    if params[P_DISCARD] == 0:
        return h_card
    return search_before_play(seat, suits, trumps, legal_s, legal_t, view, params, rng, h_card, STAGE_DISCARD,
                              np.zeros(3, np.int64))


@njit(cache=True)
def _chelem_params():
    """The heuristic's defaults, Chelem by play-outs: for this player's own announcement."""
    out = _heuristic_params()
    out[heuristic.P_CHELEM_SAMPLES] = CHELEM_SAMPLES
    return out


@njit(HAND_SIG, cache=True)
def chelem(seat, suits, trumps, view, params, rng):
    return heuristic.chelem(seat, suits, trumps, view, _chelem_params(), rng)


@njit(HAND_SIG, cache=True)
def poignee(seat, suits, trumps, view, params, rng):
    return heuristic.poignee(seat, suits, trumps, view, _heuristic_params(), rng)


@njit(CHOOSE_SIG, cache=True)
def play(seat, suits, trumps, legal_s, legal_t, view, params, rng):
    return search_card(seat, suits, trumps, legal_s, legal_t, view, params, rng, np.zeros(3, np.int64))
