"""``pimc``: Perfect Information Monte Carlo search over the double-dummy solver (issue #18).

At a card decision the player deals the cards it cannot see to the other three seats many times,
each deal consistent with everything public, solves each deal with the score-aware double-dummy
solver (``simulator/games/spades/dd.py``) and plays the card with the best mean value. It is a
strategy like any other: four policies with the fixed signatures of ``policy.py``, its own hand,
the public view and its own random stream; no other hand is reachable.

Sampling (``sampler_setup``, ``sample_hands``; docs/strategies.md has the method)
    The unseen cards (the deck less its own hand and every card played) go to the other seats in
    the numbers each still holds, never in a suit a seat has shown void in (``V_VOID``; a spade led
    before spades were broken, with ``breaking``, shows the leader holds nothing else), and the
    cards this seat passed in the Blind Nil exchange stay with the partner (``V_PASSED``, the cards only). Among
    those deals it draws uniformly: a table of the number of deals per split of each suit (a small
    dynamic programme over the suits) picks how many cards of each suit each seat gets, then the
    cards. Bids are evidence: a deal is accepted with the likelihood of every other seat's bid
    given the hand it held then (its cards now plus those it played), under the heuristic's bid
    model (``heuristic.estimate_tricks`` with a Gaussian of ``bid_sigma`` tricks around the bid;
    a Nil by the heuristic's ``nil_danger``, so an ace of spades is almost never given to a Nil
    bidder). Rejection stops after ``tries`` deals per sample and takes the most plausible one, so
    sampling always ends. Seats of a team that exchanged cards give no bid evidence.

Play
    Cards touching in rank (no unseen card between them) are one choice. With at most ``depth``
    tricks left the value of a card is the solver's hand-score difference (this side's hand score
    minus the other side's, RULES.md 1.4 with Nil, Blind Nil, bags and the bag penalty from the
    running bags). Earlier in the hand, optional tiers: with at most ``trick_depth`` tricks left and
    no Nil alive, the tricks this side takes; with at most ``nil_depth`` left and a Nil alive,
    whether that Nil is made. Otherwise the heuristic plays: a full solve of 8 or more tricks costs
    too much for thousands of games (docs/strategies.md has the measurements). The best mean wins;
    ties go to the heuristic's card when it is among the best, else to the heuristic's choice among
    the best. ``nodes`` caps the solver's nodes per decision: samples stop once their nodes reach it
    (at least one sample is solved; node counts are deterministic, so runs stay reproducible).

Bidding (``bid_mode=search``)
    Over ``bid_samples`` deals consistent with the earlier bids: the double-dummy tricks of its
    side less the partner's part (its bid, or the heuristic's bid for the partner's sampled hand),
    averaged, plus ``bid_adjust``; Nil when the hand is a Nil candidate (heuristic danger at most
    ``nil_screen``) and the solver keeps it at zero tricks in at least ``nil_prob`` of the deals.
    ``bid_mode=heuristic`` bids as the heuristic. The exchange is the heuristic's.

Blind Nil (``blind_mode=search``, ``blind_gain``)
    Before the seat sees its cards: over ``blind_samples`` uniform deals, the hand played out twice from
    here (``play_out``: Blind Nil, or the ordinary bid; every later decision the heuristic's, in the kernel's
    order with the game's own phases, ``phases.exchange_steps`` for the exchange), on the same deal and
    random draws, under the run's rules; Blind Nil when the mean gain in this side's hand score minus the
    other side's exceeds ``blind_gain``. Play-outs, not the solver: a played-out hand costs microseconds,
    a whole-deal solve milliseconds to seconds. ``blind_mode=heuristic``: the heuristic's margin rule.

Rules
    Every rule comes from the view's rules record (``policy.rules_of``: the run's ``KernelRules``): the
    solver's rules (``breaking``, ``forced_spade_lead_breaks``, ``first_lead``), the hand score it values
    (Nil and Blind Nil values, ``nil_tricks``, bags, ``bag_points``, ``nil_trick_points``, the bag limit and
    penalty, ``bag_overflow``) and the play-outs (who may bid Blind Nil, the exchange's size and order, the
    smallest team bid). The deck (``deck``, decks.py): its suits for the sampling (the 2♦ of joker_deuce_deuce
    a spade), its top spades for the bid evidence (the heuristic's bid model), its order for the solver, which
    plays the rank space (cards.py): a deuce deck's cards renamed there, so a promoted 2 is the high spade it is,
    and the card chosen named back. Nothing is taken from a preset.

Random draws come from a private stream seeded by one draw of the seat's stream mixed with
``stream``: every run is reproducible from its seed, and ``stream`` gives other samples.

Limits: the search values this hand's score, not the game (the target and the mercy rule are not looked
ahead to). Bids are read through the heuristic's bid model and the other seats are played as the heuristic
in the play-outs, whoever sits there. Of the public history (the order of the plays, ``V_PLAY_CARD``) only
what the view's other fields sum up is used (cards played, voids, a forced spade lead); no inference is drawn
from which card a seat chose. ``play_out`` is a second sequencing of a hand beside the kernel's
(``kernel.play_hand``), on the same phases: the kernel deals from the run's streams, asks each seat's own
functions and writes output rows, while a play-out starts mid-bidding on a sampled deal with this seat's
Blind Nil fixed; ``tests/strategies/test_pimc.py`` proves the two identical on recorded runs under four rule sets.
"""
import numpy as np
from numba import njit

from tricksim.simulator.bits import highest_bit, lowest_bit, popcount
from tricksim.simulator.games.spades import dd, phases
from tricksim.simulator.games.spades.cards import (
    SPADES,
    card_rank,
    card_suit,
    deck_card,
    deck_mask,
    ranked_card,
    ranked_mask,
    renames,
)
from tricksim.simulator.games.spades.decks import SUIT_MASKS as DECK_SUIT_MASKS
from tricksim.simulator.games.spades.policy import (
    BID_SIG,
    BLIND_NIL_SIG,
    EXCHANGE_SIG,
    PLAY_SIG,
    R_BID_RULE,
    R_BREAKING,
    R_DECK,
    R_ZERO_BID,
    V_BAGS,
    V_BID,
    V_BLIND,
    V_BROKEN,
    V_DEALER,
    V_DECK,
    V_LEADER,
    V_LED_SUIT,
    V_MIN_BID,
    V_NIL_ALLOWED,
    V_NPLAYED,
    V_PASSED,
    V_PLAYED,
    V_RULES,
    V_SCORE,
    V_SEAT,
    V_TRICK,
    V_TRICKS,
    V_VOID,
    rules_of,
)
from tricksim.simulator.games.spades.rules import CHOICES
from tricksim.simulator.rng import next_u64, private_stream, rand_below, rand_float, shuffle
from tricksim.strategies.spades import heuristic
from tricksim.strategies.spades.meta.pimc import PARAMS, STRATEGY  # noqa: F401 (STRATEGY: this module's strategy, registered in meta/pimc.py)

_INDEX = {p.name: i for i, p in enumerate(PARAMS)}
P_SAMPLES = _INDEX["samples"]
P_DEPTH = _INDEX["depth"]
P_TRICK_DEPTH = _INDEX["trick_depth"]
P_NIL_DEPTH = _INDEX["nil_depth"]
P_NODES = _INDEX["nodes"]
P_STREAM = _INDEX["stream"]
P_BID_MODE = _INDEX["bid_mode"]
P_BID_SAMPLES = _INDEX["bid_samples"]
P_BID_ADJUST = _INDEX["bid_adjust"]
P_NIL_PROB = _INDEX["nil_prob"]
P_NIL_SCREEN = _INDEX["nil_screen"]
P_BID_SIGMA = _INDEX["bid_sigma"]
P_BLIND_NIL_MARGIN = _INDEX["blind_nil_margin"]
P_BLIND_MODE = _INDEX["blind_mode"]
P_BLIND_SAMPLES = _INDEX["blind_samples"]
P_BLIND_GAIN = _INDEX["blind_gain"]
P_TRIES = _INDEX["tries"]
BID_SEARCH = PARAMS[P_BID_MODE].choices.index("search")
BLIND_SEARCH = PARAMS[P_BLIND_MODE].choices.index("search")

# the heuristic's parameters (its defaults), for its decisions taken here: a constant copied per call
HEURISTIC_PARAMS = heuristic.STRATEGY.param_vector()
H_BID_ADJUST = float(HEURISTIC_PARAMS[heuristic.P_BID_ADJUST])
H_COVER_BID = float(HEURISTIC_PARAMS[heuristic.P_COVER_BID])
H_NIL_THRESHOLD = float(HEURISTIC_PARAMS[heuristic.P_NIL_THRESHOLD])
H_WEIGHTS = tuple(float(HEURISTIC_PARAMS[i]) for i in (heuristic.P_LONG_SPADE, heuristic.P_VOID, heuristic.P_SINGLETON,
                                                        heuristic.P_DOUBLETON, heuristic.P_KING, heuristic.P_QUEEN))
NIL_SCALE = 1.5  # danger units over which the Nil likelihood falls from 0.73 to 0.27 around the threshold

FULL_DECK = np.int64((1 << 52) - 1)
# n! for the cards of one suit: at most the 16 spades of joker_deuce_deuce
FACT = np.array([float(np.prod(np.arange(1, n + 1))) for n in range(17)])
MODE_SCORE, MODE_TRICKS, MODE_NIL = 0, 1, 2


@njit(cache=True)
def _heuristic_params():
    return HEURISTIC_PARAMS.copy()


TWO_OF_CLUBS = CHOICES["first_lead"].index("two_of_clubs")


# ------------------------------------------------------------------ sampling
@njit(inline="always", cache=True)
def _most(n, room, eligible):
    """The most of a suit's ``n`` unseen cards a seat with ``room`` cards left may take: none when it may not hold
    the suit."""
    return min(n, room) if eligible else 0


@njit(inline="always", cache=True)
def _split_ways(W, elig, u, n, a, b, r0, r1, r2):
    """The deals of suits u..3 in which the three other seats take ``a``, ``b`` and the rest of suit u's ``n``
    cards (``W[u + 1]`` counting suits u+1..3; ``r0``, ``r1``, ``r2`` their room before suit u); 0 when the third
    seat lacks the room or may not hold the suit."""
    c = n - a - b
    if c > r2 or (c > 0 and elig[3 * u + 2] == 0):
        return 0.0
    w = W[u + 1, r0 - a, r1 - b]
    if w <= 0.0:
        return 0.0
    return FACT[n] / (FACT[a] * FACT[b] * FACT[c]) * w


@njit(cache=True)
def _ways(cnt, elig, need, W):
    """``W[u, r0, r1]``: deals of the unseen cards of suits u..3 when the three other seats still take
    r0, r1 and the rest; ``cnt[u]`` cards of suit u, ``elig[3 * u + j]`` 1 when seat j may hold suit u."""
    rest = np.zeros(5, np.int64)
    for u in range(3, -1, -1):
        rest[u] = rest[u + 1] + cnt[u]
    W[:] = 0.0
    W[4, 0, 0] = 1.0
    for u in range(3, -1, -1):
        n = cnt[u]
        for r0 in range(min(need[0], rest[u]) + 1):
            for r1 in range(min(need[1], rest[u] - r0) + 1):
                r2 = rest[u] - r0 - r1
                if r2 > need[2]:
                    continue
                total = 0.0
                for a in range(_most(n, r0, elig[3 * u]) + 1):
                    for b in range(_most(n - a, r1, elig[3 * u + 1]) + 1):
                        total += _split_ways(W, elig, u, n, a, b, r0, r1, r2)
                W[u, r0, r1] = total
    return W[0, need[0], need[1]]


@njit(cache=True)
def _take(mask, k, local):
    """``k`` cards of ``mask`` chosen uniformly."""
    out = np.int64(0)
    for _ in range(k):
        m = mask & ~out
        n = popcount(m)
        i = rand_below(local, n)
        for _ in range(i):
            m &= m - 1
        out |= m & -m
    return out


@njit(cache=True)
def _deal(cnt, suit_cards, elig, need, W, local, out3):
    """One deal drawn uniformly among those ``W`` counts (``_ways``): ``out3[j]`` the cards of other seat j."""
    r0 = need[0]
    r1 = need[1]
    for j in range(3):
        out3[j] = 0
    for u in range(4):
        n = cnt[u]
        x = rand_float(local) * W[u, r0, r1]
        r2 = 0
        for j in range(u, 4):
            r2 += cnt[j]
        r2 -= r0 + r1
        pa = 0
        pb = 0
        last_a = -1
        last_b = 0
        done = False
        for a in range(_most(n, r0, elig[3 * u]) + 1):
            for b in range(_most(n - a, r1, elig[3 * u + 1]) + 1):
                w = _split_ways(W, elig, u, n, a, b, r0, r1, r2)
                if w <= 0.0:
                    continue
                last_a = a
                last_b = b
                x -= w
                if x < 0.0:
                    pa = a
                    pb = b
                    done = True
                    break
            if done:
                break
        if not done:  # rounding at the end of the range: the last split with weight
            pa = last_a
            pb = last_b
        cards = suit_cards[u]
        ga = _take(cards, pa, local)
        gb = _take(cards & ~ga, pb, local)
        out3[0] |= ga
        out3[1] |= gb
        out3[2] |= cards & ~ga & ~gb
        r0 -= pa
        r1 -= pb


@njit(cache=True)
def _bid_likelihood(view, o, h, deck, sigma):
    """Likelihood of seat ``o``'s bid given that it held ``h`` when it bid (the heuristic's bid model)."""
    b = view[V_BID + o]
    if b < 0 or sigma <= 0.0:
        return 1.0
    deck_code = view[V_RULES + R_DECK]  # the deck's top spades (a deuce deck's promoted 2s among them)
    if b == 0:
        d = heuristic.nil_danger(h, deck_code)
        return 1.0 / (1.0 + np.exp((d - H_NIL_THRESHOLD) / NIL_SCALE))
    est = heuristic.estimate_tricks(h, deck, H_WEIGHTS[0], H_WEIGHTS[1], H_WEIGHTS[2], H_WEIGHTS[3], H_WEIGHTS[4],
                                    H_WEIGHTS[5], deck_code) + H_BID_ADJUST
    if view[V_BID + (o ^ 2)] == 0:
        est += H_COVER_BID
    # the heuristic bids round(est): the bid is consistent with est in [b - 1/2, b + 1/2), and a bid of 1
    # (the smallest) or 13 with anything beyond
    lo = b - 0.5 if b > 1 else -1e9
    hi = b + 0.5 if b < 13 else 1e9
    dist = 0.0
    if est < lo:
        dist = lo - est
    elif est > hi:
        dist = est - hi
    z = dist / sigma
    return np.exp(-0.5 * z * z)


@njit(cache=True)
def sampler_arrays():
    """The sampler's state, filled by ``sampler_setup`` and read by ``sample_hands``: others, need, known,
    cnt, suit_cards, elig, W."""
    return (np.zeros(3, np.int64), np.zeros(3, np.int64), np.zeros(3, np.int64), np.zeros(4, np.int64),
            np.zeros(4, np.int64), np.zeros(12, np.int64), np.zeros((5, 14, 14), np.float64))


@njit(cache=True)
def sampler_setup(seat, hand, view, others, need, known, cnt, suit_cards, elig, W):
    """The constraints on the other seats' hands, and the table of deals. Returns the number of deals
    (0.0 when the constraints cannot be met: then voids are ignored; -1.0 when even the counts fail)."""
    deck = view[V_DECK]
    if deck == 0:
        deck = FULL_DECK
    played = view[V_PLAYED] | view[V_PLAYED + 1] | view[V_PLAYED + 2] | view[V_PLAYED + 3]
    unseen = deck & ~hand & ~played
    partner = seat ^ 2
    gave = view[V_PASSED] & ~view[V_PLAYED + partner] & ~hand & unseen
    n_deck = popcount(deck)
    per_seat = n_deck // 4
    for j in range(3):
        o = (seat + 1 + j) & 3
        others[j] = o
        need[j] = per_seat - popcount(view[V_PLAYED + o])
        known[j] = gave if o == partner else 0
        need[j] -= popcount(known[j])
    free = unseen & ~gave
    voids = np.zeros(3, np.int64)
    for j in range(3):
        voids[j] = view[V_VOID + others[j]]
    # a spade led before spades were broken (breaking on): the leader held nothing else. Without a forced
    # break the view still shows unbroken spades after such a lead.
    if view[V_NPLAYED] > 0 and view[V_LED_SUIT] == SPADES and view[V_BROKEN] == 0 and view[V_RULES + R_BREAKING] != 0:
        leader = view[V_LEADER]
        for j in range(3):
            if others[j] == leader:
                voids[j] |= 7
    deck_code = view[V_RULES + R_DECK]
    for u in range(4):
        m = free & DECK_SUIT_MASKS[deck_code, u]  # the deck's suits: the 2♦ of joker_deuce_deuce is a spade
        suit_cards[u] = m
        cnt[u] = popcount(m)
        for j in range(3):
            elig[3 * u + j] = 1 - ((voids[j] >> u) & 1)
    total = 0
    for j in range(3):
        if need[j] < 0:
            return -1.0
        total += need[j]
    if total != popcount(free):
        return -1.0
    ways = _ways(cnt, elig, need, W)
    if ways > 0.0:
        return ways
    for i in range(12):
        elig[i] = 1
    ways = _ways(cnt, elig, need, W)
    return 0.0 if ways > 0.0 else -1.0


@njit(cache=True)
def sample_hands(seat, hand, view, others, need, known, cnt, suit_cards, elig, W, local, tries, sigma, hands):
    """One deal into ``hands[4]`` (this seat's hand included), bids taken as evidence by rejection; returns
    the likelihood of the deal kept."""
    deck = view[V_DECK]
    if deck == 0:
        deck = FULL_DECK
    out3 = np.zeros(3, np.int64)
    best = np.zeros(3, np.int64)
    best_w = -1.0
    evidence = np.zeros(3, np.int64)
    any_evidence = False
    if sigma > 0.0:
        for j in range(3):
            o = others[j]
            team_blind = view[V_BLIND + o] + view[V_BLIND + (o ^ 2)]
            if view[V_BID + o] >= 0 and team_blind == 0:
                evidence[j] = 1
                any_evidence = True
    for t in range(tries):
        _deal(cnt, suit_cards, elig, need, W, local, out3)
        w = 1.0
        if any_evidence:
            for j in range(3):
                if evidence[j]:
                    o = others[j]
                    w *= _bid_likelihood(view, o, out3[j] | known[j] | view[V_PLAYED + o], deck, sigma)
        if w > best_w:
            best_w = w
            for j in range(3):
                best[j] = out3[j]
        if not any_evidence or rand_float(local) < w:
            break
    hands[seat] = hand
    for j in range(3):
        hands[others[j]] = best[j] | known[j]
    return best_w


# ------------------------------------------------------------------ search
@njit(cache=True)
def _lowest(mask):
    """The lowest-ranked card of ``mask``, side suits before spades."""
    best = np.int64(-1)
    m = mask
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if best < 0 or card_rank(c) < card_rank(best) or (card_rank(c) == card_rank(best)
                                                             and card_suit(best) == SPADES):
            best = c
    return best


@njit(cache=True)
def one_choice(hand, legal, view):
    """True when every legal card is worth the same: one suit, and between the lowest and the highest (in the
    rank space, cards.py) only cards of this hand or of finished tricks (as the solver's runs of touching cards)."""
    played = view[V_PLAYED] | view[V_PLAYED + 1] | view[V_PLAYED + 2] | view[V_PLAYED + 3]
    for s in range(4):
        c = view[V_TRICK + s]
        if c >= 0:
            played &= ~(np.int64(1) << c)  # a card of the trick in progress can still win it
    deck_code = view[V_RULES + R_DECK]
    if renames(deck_code):
        hand = ranked_mask(hand, deck_code)
        legal = ranked_mask(legal, deck_code)
        played = ranked_mask(played, deck_code)
    lo = lowest_bit(legal)
    hi = highest_bit(legal)
    if card_suit(lo) != card_suit(hi):
        return False
    between = ((np.int64(1) << hi) - 1) & ~((np.int64(2) << lo) - 1)
    return (between & ~hand & ~played) == 0


@njit(cache=True)
def _tt_bits(r):
    return min(18, max(12, r + 9))


@njit(cache=True)
def _workspace(r, rules):
    tb = _tt_bits(r)
    tt = np.zeros(dd.TT_WORDS << tb, np.int64)
    ws = np.zeros(dd.WS_SIZE, np.int64)
    ws[dd.W_TTMASK] = (1 << tb) - 1
    ws[dd.W_PROBE] = 16
    dd.set_rules_nb(ws, np.int64(rules.breaking != 0), np.int64(rules.forced_spade_lead_breaks != 0))
    return tt, ws


@njit(cache=True)
def live_nil(seat, view):
    """A seat whose Nil is still alive (this side's first: its own, then the partner's), else -1; always -1 with
    ``zero_bid=zero``, where a bid of 0 is an ordinary contract and no Nil exists."""
    if view[V_RULES + R_ZERO_BID] == phases.ZERO_BID_ZERO:
        return np.int64(-1)
    for j in (0, 2, 1, 3):
        s = (seat + j) & 3
        if view[V_BID + s] == 0 and view[V_TRICKS + s] == 0:
            return s
    return np.int64(-1)


@njit(cache=True)
def search_card(seat, hand, legal, view, params, rng, stats):
    """The card the search chooses (``stats``: samples solved, nodes, search mode; -1 for the mode when the
    heuristic chose); the policy ``play`` is this with a scratch ``stats``."""
    hp = _heuristic_params()
    h_card = heuristic.play(seat, hand, legal, view, hp, rng)
    stats[0] = 0
    stats[1] = 0
    stats[2] = -1
    if one_choice(hand, legal, view):
        return h_card
    r = popcount(hand)
    nil_seat = live_nil(seat, view)
    if r <= np.int64(params[P_DEPTH]):
        mode = MODE_SCORE
    elif nil_seat < 0 and r <= np.int64(params[P_TRICK_DEPTH]):
        mode = MODE_TRICKS
    elif nil_seat >= 0 and r <= np.int64(params[P_NIL_DEPTH]):
        mode = MODE_NIL
    else:
        return h_card
    local = private_stream(rng, np.int64(params[P_STREAM]))
    others, need, known, cnt, suit_cards, elig, W = sampler_arrays()
    if sampler_setup(seat, hand, view, others, need, known, cnt, suit_cards, elig, W) < 0.0:
        return h_card
    rules = rules_of(view)
    tt, ws = _workspace(r, rules)
    if mode == MODE_SCORE:
        bids = np.empty(4, np.int64)
        blind = np.empty(4, np.int64)
        taken = np.empty(4, np.int64)
        for s in range(4):
            bids[s] = view[V_BID + s]
            blind[s] = view[V_BLIND + s]
            taken[s] = view[V_TRICKS + s]
        bags = np.empty(2, np.int64)
        bags[0] = view[V_BAGS]
        bags[1] = view[V_BAGS + 1]
        dd.score_setup_nb(ws, rules, r, bids, blind, taken, bags)
    elif mode == MODE_NIL:
        dd.nil_setup_nb(ws, r, nil_seat)
    # nil mode: value 1 when the Nil ends as this side wants (made for its own side's Nil, set otherwise)
    nil_sign = np.int64(1) if (nil_seat & 1) == (seat & 1) else np.int64(-1)
    nil_want = np.int64(1) if (nil_seat & 1) == 0 else np.int64(0)  # the value index team 0 reads as made
    # the solver plays the rank space (cards.py): a deuce deck's cards renamed, the card chosen named back
    deck_code = view[V_RULES + R_DECK]
    ranked = renames(deck_code)
    ranked_legal = ranked_mask(legal, deck_code) if ranked else legal
    pos = np.zeros(dd.P_SIZE, np.int64)
    leader = view[V_LEADER]
    k = view[V_NPLAYED]
    pos[dd.P_LEADER] = leader
    pos[dd.P_NPLAYED] = k
    for j in range(k):
        c = view[V_TRICK + ((leader + j) & 3)]
        pos[dd.P_TRICK + j] = ranked_card(c, deck_code) if ranked else c
    pos[dd.P_BROKEN] = view[V_BROKEN]
    hands = np.zeros(4, np.int64)
    out = np.empty(64, np.int64)  # by rank-space card id
    total = np.zeros(64, np.int64)
    n_samples = max(np.int64(1), np.int64(params[P_SAMPLES]))
    tries = max(np.int64(1), np.int64(params[P_TRIES]))
    budget = params[P_NODES]
    sigma = params[P_BID_SIGMA]
    nodes = 0.0
    done = 0
    for _ in range(n_samples):
        sample_hands(seat, hand, view, others, need, known, cnt, suit_cards, elig, W, local, tries, sigma, hands)
        for s in range(4):
            pos[dd.P_HANDS + s] = ranked_mask(hands[s], deck_code) if ranked else hands[s]
        if mode == MODE_SCORE:
            dd.score_card_values_nb(tt, ws, pos, out)
        elif mode == MODE_TRICKS:
            dd.card_values_nb(tt, ws, pos, out)
        else:
            dd.table_card_values_nb(tt, ws, pos, out)
            m = ranked_legal
            while m:
                c = lowest_bit(m)
                m &= m - 1
                out[c] = nil_sign if out[c] == nil_want else -nil_sign
        m = ranked_legal
        while m:
            c = lowest_bit(m)
            m &= m - 1
            total[c] += out[c]
        done += 1
        nodes += ws[dd.W_NODES]
        if nodes >= budget:
            break
    stats[0] = done
    stats[1] = np.int64(nodes)
    stats[2] = mode
    best_v = np.int64(0)
    best = np.int64(0)
    first = True
    m = ranked_legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if first or total[c] > best_v:
            best_v = total[c]
            best = np.int64(1) << c
            first = False
        elif total[c] == best_v:
            best |= np.int64(1) << c
    best_cards = deck_mask(best, deck_code) if ranked else best
    if (best_cards >> h_card) & 1:
        return h_card
    c = heuristic.play(seat, hand, best_cards, view, hp, rng)  # the heuristic's choice among the best
    if c >= 0 and (best_cards >> c) & 1:
        return c
    c = _lowest(best)
    return deck_card(c, deck_code) if ranked else c


# ------------------------------------------------------------------ bidding
@njit(cache=True)
def search_bid(seat, hand, view, params, rng, stats):
    """The bid of ``bid_mode=search`` (``stats``: samples, nodes, Nil deals made, Nil deals tried)."""
    hp = _heuristic_params()
    h_bid = heuristic.bid(seat, hand, view, hp, rng)
    stats[0] = 0
    stats[1] = 0
    stats[2] = 0
    stats[3] = 0
    if params[P_BID_MODE] != BID_SEARCH or view[V_RULES + R_BID_RULE] != phases.BID_FREE:
        return h_bid  # a bidding variant (bid_rule): the heuristic's legal variant bid
    local = private_stream(rng, np.int64(params[P_STREAM]))
    others, need, known, cnt, suit_cards, elig, W = sampler_arrays()
    if sampler_setup(seat, hand, view, others, need, known, cnt, suit_cards, elig, W) < 0.0:
        return h_bid
    rules = rules_of(view)
    r = popcount(hand)
    tt, ws = _workspace(r, rules)
    deck = view[V_DECK]
    if deck == 0:
        deck = FULL_DECK
    deck_code = view[V_RULES + R_DECK]
    ranked = renames(deck_code)  # the solver plays the rank space (cards.py): a deuce deck's cards renamed
    partner = seat ^ 2
    p_bid = view[V_BID + partner]
    nil_ok = (view[V_NIL_ALLOWED] == 1 and p_bid != 0
              and heuristic.nil_danger(hand, deck_code) <= params[P_NIL_SCREEN])
    leader = (view[V_DEALER] + 1) & 3
    two_clubs = rules.first_lead == TWO_OF_CLUBS
    pos = np.zeros(dd.P_SIZE, np.int64)
    hands = np.zeros(4, np.int64)
    n_samples = max(np.int64(1), np.int64(params[P_BID_SAMPLES]))
    tries = max(np.int64(1), np.int64(params[P_TRIES]))
    budget = params[P_NODES]
    sigma = params[P_BID_SIGMA]
    nodes = 0.0
    mine = 0.0
    made = 0
    done = 0
    for _ in range(n_samples):
        sample_hands(seat, hand, view, others, need, known, cnt, suit_cards, elig, W, local, tries, sigma, hands)
        lead = leader
        if two_clubs:
            for s in range(4):
                if hands[s] & 1:
                    lead = s
        for s in range(4):
            pos[dd.P_HANDS + s] = ranked_mask(hands[s], deck_code) if ranked else hands[s]
        pos[dd.P_LEADER] = lead
        pos[dd.P_FIRST] = 1 if two_clubs else 0
        t0 = dd.tricks_nb(tt, ws, pos)
        nodes += ws[dd.W_NODES]
        side = t0 if (seat & 1) == 0 else popcount(hand) - t0
        if p_bid > 0:
            part = p_bid
        elif p_bid == 0:
            part = 0
        else:  # the partner bids later: the heuristic's bid for its sampled hand (Nil: it takes none)
            ph = hands[partner]
            part = heuristic.choose_bid(ph, deck, view[V_NIL_ALLOWED] == 1, H_NIL_THRESHOLD, H_BID_ADJUST,
                                        np.int64(1), H_WEIGHTS[0], H_WEIGHTS[1], H_WEIGHTS[2], H_WEIGHTS[3],
                                        H_WEIGHTS[4], H_WEIGHTS[5], deck_code)
        mine += side - part
        if nil_ok:
            dd.nil_setup_nb(ws, r, seat)
            v = dd.table_value_nb(tt, ws, pos)
            nodes += ws[dd.W_NODES]
            ok = (v == 1) if (seat & 1) == 0 else (v == 0)
            if ok:
                made += 1
        done += 1
        if nodes >= budget:
            break
    stats[0] = done
    stats[1] = np.int64(nodes)
    stats[2] = made
    stats[3] = done if nil_ok else 0
    if nil_ok and made >= params[P_NIL_PROB] * done:
        return np.int64(0)
    b = np.int64(np.floor(mine / done + params[P_BID_ADJUST] + 0.5))
    return min(np.int64(13), max(b, view[V_MIN_BID]))  # V_MIN_BID: 1 or more, or 0 with zero_bid=zero


# ------------------------------------------------------------------ Blind Nil by simulation
@njit(cache=True)
def _heuristic_card(s, hands, legal, view, passed, hp, rng):
    view[V_SEAT] = s
    if legal & (legal - 1):
        view[V_PASSED] = passed[s]
        return heuristic.play(np.int64(s), hands[s], legal, view, hp, rng)
    return lowest_bit(legal)


@njit(cache=True)
def play_out(seat, blind, view0, deal, rules, hp, rng):
    """This side's hand score minus the other side's when seat ``seat`` bids Blind Nil (``blind`` 1) or
    not (0) on the deal ``deal`` (four hands as dealt), under the rules ``rules`` (the run's: the view's
    record), every later decision the heuristic's: the bids from ``seat`` on, the exchange and the play,
    in the kernel's order with the game's own phases (phases.py: who bids, who passes to whom and in which
    order, who leads, what is legal, the score)."""
    view = view0.copy()
    hands = deal.copy()
    dealer = view[V_DEALER]
    totals = np.array([view[V_SCORE], view[V_SCORE + 1]], np.int64)
    bags = np.array([view[V_BAGS], view[V_BAGS + 1]], np.int64)
    passed = np.zeros(4, np.int64)
    for k in range(4):
        s = phases.bidder(dealer, k)
        if view[V_BID + s] >= 0:
            continue  # bid before this seat
        offered = phases.start_bid(rules, view, totals, s)[1]  # sets the view for this bidder
        view[V_PASSED] = 0
        b_blind = blind if s == seat else (heuristic.blind_nil(np.int64(s), view, hp, rng) if offered else 0)
        b = np.int64(0) if b_blind else heuristic.bid(np.int64(s), hands[s], view, hp, rng)
        phases.record_bid(view, s, b, np.int64(1) if b_blind else np.int64(0))
    phases.end_bidding(view)
    n_steps, steps = phases.exchange_steps(rules, view, dealer)
    for i in range(n_steps):
        giver, receiver, role = phases.exchange_step(steps, i)
        phases.start_exchange(rules, view, giver, role)
        view[V_PASSED] = passed[giver]
        cards = heuristic.exchange(np.int64(giver), hands[giver], view, hp, rng)
        phases.apply_exchange(rules, view, hands, giver, receiver, cards)
        passed[giver] |= cards
    leader = phases.first_leader(rules, dealer, hands)
    broken = np.int64(0)
    tricks = np.zeros(4, np.int64)
    for t in range(13):
        phases.start_trick(view, t, leader)
        s = leader
        c = _heuristic_card(s, hands, phases.legal_leads(rules, t, hands[s], broken), view, passed, hp, rng)
        led, broken = phases.apply_lead(rules, view, hands, t, s, c, broken)
        win_seat = s
        win_card = c
        for k in range(1, 4):
            s = (leader + k) & 3
            c = _heuristic_card(s, hands, phases.legal_follows(rules, hands[s], led), view, passed, hp, rng)
            win_seat, win_card, broken = phases.apply_follow(rules, view, hands, t, k, s, c, led, win_seat, win_card, broken)
        leader = phases.end_trick(view, tricks, win_seat)
    points = np.zeros(2, np.int64)
    phases.score(rules, view, tricks, totals, bags, points)
    team = seat & 1
    return points[team] - points[1 - team]


@njit(cache=True)
def blind_gain(seat, view, params, rng):
    """The mean gain, in this side's hand score minus the other side's, of bidding Blind Nil over bidding
    as the heuristic, over ``blind_samples`` deals each played out both ways (the same deal and the same
    random draws for both: paired). The deals are uniform: seat does not know its own cards yet."""
    local = private_stream(rng, np.int64(params[P_STREAM]))
    rules = rules_of(view)
    hp = _heuristic_params()
    deck = view[V_DECK]
    if deck == 0:
        deck = FULL_DECK
    n_cards = popcount(deck)
    cards = np.empty(n_cards, np.int64)
    m = deck
    for i in range(n_cards):
        cards[i] = lowest_bit(m)
        m &= m - 1
    dealer = view[V_DEALER]
    hands = np.zeros(4, np.int64)
    n = max(np.int64(1), np.int64(params[P_BLIND_SAMPLES]))
    total = 0.0
    state = np.empty(1, np.uint64)
    for _ in range(n):
        shuffle(local, cards, n_cards)
        hands[:] = 0
        for p in range(n_cards):
            hands[(dealer + 1 + p) & 3] |= np.int64(1) << cards[p]
        state[0] = next_u64(local)
        rng_a = state.copy()
        with_blind = play_out(seat, np.int64(1), view, hands, rules, hp, rng_a)
        rng_b = state.copy()
        without = play_out(seat, np.int64(0), view, hands, rules, hp, rng_b)
        total += with_blind - without
    return total / n


# ------------------------------------------------------------------ policies
@njit(BLIND_NIL_SIG, cache=True)
def blind_nil(seat, view, params, rng):
    if params[P_BLIND_MODE] == BLIND_SEARCH:
        return np.int64(1 if blind_gain(seat, view, params, rng) > params[P_BLIND_GAIN] else 0)
    hp = _heuristic_params()
    hp[heuristic.P_BLIND_NIL_MARGIN] = params[P_BLIND_NIL_MARGIN]
    return heuristic.blind_nil(seat, view, hp, rng)


@njit(BID_SIG, cache=True)
def bid(seat, hand, view, params, rng):
    return search_bid(seat, hand, view, params, rng, np.zeros(4, np.int64))


@njit(EXCHANGE_SIG, cache=True)
def exchange(seat, hand, view, params, rng):
    return heuristic.exchange(seat, hand, view, _heuristic_params(), rng)


@njit(PLAY_SIG, cache=True)
def play(seat, hand, legal, view, params, rng):
    return search_card(seat, hand, legal, view, params, rng, np.zeros(3, np.int64))
