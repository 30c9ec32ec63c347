"""The Tarot ``pimc`` search player (strategies/tarot/pimc.py): its play-outs are the game's own deal, its
samples keep to what the table has shown, its runs are legal, and a hidden card changes none of its decisions.

At three, four and five players. The searches here are small (``SMALL``) so that the tests stay quick.
"""
from __future__ import annotations

import copy
from types import SimpleNamespace

import numpy as np
import pytest
import reference_tarot as ref
from compile_ahead import imported_on_use

from tricksim.simulator.bits import popcount
from tricksim.simulator.games.tarot import batch, phases
from tricksim.simulator.games.tarot.cards import KINGS_S, SUIT_CARDS
from tricksim.simulator.games.tarot.policy import V_CHIEN_S, V_CHIEN_T, V_CONTRACT, V_PARTNER, V_TAKER, V_VOIDS
from tricksim.simulator.games.tarot.rules import PRESETS
from tricksim.simulator.games.tarot.state import Phase, TarotState
from tricksim.strategies.registry import parse_spec

pimc = imported_on_use("tricksim.strategies.tarot.pimc")  # at first use: collection compiles nothing (P64)

SMALL = "pimc:samples=4,playouts=40"
PRESET_OF = {3: "fft3", 4: "cardavia", 5: "fft5"}
# bidders that take often, and with Garde sans or contre now and then (the chien hidden)
TAKER = "heuristic:prise_threshold=0,garde_threshold=60,garde_sans_threshold=75,garde_contre_threshold=95"


def heuristic():
    return parse_spec("heuristic", "tarot")


def deal_positions(n, deals, seed, seats=None, every=1, phase=Phase.PLAY):
    """Play ``deals`` deals of ``n`` players (each seat's strategy: ``seats``, the heuristic by default) through
    the step API and yield (state, seat) at every ``every``-th decision of ``phase`` with a choice, before it is
    made."""
    seats = seats or [heuristic()] * n
    k = 0
    for deal_id in range(deals):
        st = TarotState(PRESETS[PRESET_OF[n]], seed=seed, deal_id=deal_id)
        while not st.is_terminal():
            s = st.current_player()
            if st.phase == phase and len(st.legal_actions()) > 1:
                k += 1
                if k % every == 0:
                    yield st, s
            st.apply(st.policy_action(seats[s]))


def hidden_pile(st):
    """The hidden pile as the search sees it: the discard of a Prise or Garde, else the chien."""
    if phases.takes_chien(st.contract):
        return int(st.discard_s), int(st.discard_t)
    return int(st.chien[0]), int(st.chien[1])


def true_values(st, seat):
    """``card_values`` on the true deal: each legal card's score for ``seat``, every later card the heuristic's."""
    ob = st.observation(seat)
    rest_s, rest_t = hidden_pile(st)
    out = np.zeros(78, np.int64)
    pimc.card_values(np.int64(seat), st.suits.copy(), st.trumps.copy(), np.int64(rest_s), np.int64(rest_t),
                     *st.legal_words, ob.view, pimc._heuristic_params(), np.zeros(1, np.uint64), out)
    return out


# ------------------------------------------------------------------ the strategy
def test_registered_with_its_parameters():
    seat = parse_spec("pimc:samples=32,stream=3", "tarot")
    assert [p.name for p in seat.strategy.params] == ["samples", "playouts", "stream", "tries", "bids", "discard",
                                                      "call", "deal_playouts"]
    assert seat.params[pimc.P_SAMPLES] == 32 and seat.params[pimc.P_STREAM] == 3


# ------------------------------------------------------------------ one driver: a play-out is the deal itself
@pytest.mark.parametrize("n", [3, 4, 5])
def test_a_play_out_on_the_true_deal_is_the_deal_played(n):
    """In heuristic self-play, the play-out of the card the heuristic plays, on the true hands and hidden pile,
    ends with the score the deal really ends with for that seat (the rebuild of the deal so far and the play to
    its end run the kernel's phases, so they must agree to the point); other cards give other scores somewhere."""
    checked = differ = 0
    for deal_id in range(40 if n == 5 else 25):
        st = TarotState(PRESETS[PRESET_OF[n]], seed=61, deal_id=deal_id)
        pending = []
        while not st.is_terminal():
            s = st.current_player()
            x = st.policy_action(heuristic())
            if st.phase == Phase.PLAY and len(st.legal_actions()) > 1 and (st._trick + s) % 3 == 0:
                values = true_values(st, s)
                pending.append((s, int(values[x])))
                differ += len({int(values[c]) for c in st.legal_actions()}) > 1
            st.apply(x)
        if st.taker < 0:
            continue
        final = st.scores()
        for s, v in pending:
            assert v == final[s], (deal_id, s)
            checked += 1
    assert checked > 100 and differ > 10, (checked, differ)


def before_play_value(st, seat, x):
    """``decision_value`` on the true deal: ``seat``'s score when it bids ``x`` (a bid) or discards card ``x`` now,
    every later decision the heuristic's."""
    ob = st.observation(seat)
    stage = {Phase.BID: pimc.STAGE_BID, Phase.CALL: pimc.STAGE_CALL, Phase.DISCARD: pimc.STAGE_DISCARD}[st.phase]
    return int(pimc.decision_value(np.int64(seat), stage, np.int64(x), ob.view, st.suits.copy(), st.trumps.copy(),
                                   st.chien.copy(), np.int64(st.discard_s), np.int64(0), pimc._heuristic_params(),
                                   np.zeros(1, np.uint64)))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_a_play_out_from_a_bid_or_a_discard_on_the_true_deal_is_the_deal_played(n):
    """The same for the decisions before the play: at every bid, call and discard card of heuristic self-play,
    the whole-deal play-out of the heuristic's choice on the true deal (its later bids, the call, the chien, the
    discard, Chelem, the poignées and the tricks) ends with the seat's true score; other bids score otherwise
    somewhere."""
    bids = discards = calls = differ = 0
    for deal_id in range(30):
        st = TarotState(PRESETS[PRESET_OF[n]], seed=62, deal_id=deal_id)
        pending = []
        while not st.is_terminal():
            s = st.current_player()
            x = st.policy_action(heuristic())
            if st.phase == Phase.BID:
                b = x - (78 if x >= 78 else 0)
                pending.append((s, before_play_value(st, s, b)))
                bids += 1
                differ += len({before_play_value(st, s, c) for c in range(5) if phases.bid_is_legal(c, st.contract)}) > 1
            elif st.phase in (Phase.DISCARD, Phase.CALL):
                pending.append((s, before_play_value(st, s, x)))
                discards += st.phase == Phase.DISCARD
                calls += st.phase == Phase.CALL
            st.apply(x)
        final = st.scores() if st.taker >= 0 else (0,) * n
        for s, v in pending:
            assert v == final[s], (deal_id, s)
    assert bids >= 30 * n - 5 and discards > 30 and differ > 20, (bids, discards, differ)
    assert calls > 5 if n == 5 else calls == 0


# ------------------------------------------------------------------ the sampler keeps to the table
@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_true_deal_and_every_sample_keep_to_what_the_table_showed(n):
    """At positions of self-play (takers often, the chien hidden now and then): the true deal meets every
    constraint ``hidden_piles`` infers (so none is wrong), and every sampled deal meets them all too: the cards
    each place holds are the known ones and allowed ones, in the right number, every unseen card dealt once."""
    rng = np.zeros(1, np.uint64)
    rng[0] = 12345
    seats = [parse_spec(TAKER, "tarot")] * n
    positions = exact = hidden_chien = revealed = ceilings = 0
    for st, seat in deal_positions(n, 30, seed=7, seats=seats, every=3):
        ob = st.observation(seat)
        n_piles, pile_seat, need, known_s, known_t, allow_s, allow_t, only_s, free_s, free_t = pimc.new_piles(
            np.int64(seat), np.int64(ob.suits), np.int64(ob.trumps), ob.view)
        assert n_piles == n
        positions += 1
        # an under-trump seen: some seat may hold trumps, but not all of them (the ceiling inferred from the history)
        ceilings += any(0 < int(allow_t[q]) & ((1 << 21) - 1) < (1 << 21) - 1 for q in range(n_piles - 1))
        hidden_chien += not phases.takes_chien(st.contract)
        revealed += n == 5 and ob.view[V_PARTNER] >= 0
        rest = hidden_pile(st)
        truth = [(int(st.suits[pile_seat[q]]), int(st.trumps[pile_seat[q]])) for q in range(n_piles - 1)]
        if phases.takes_chien(st.contract):  # the discarded trumps are shown: not in the hidden pile
            rest = (rest[0], 0)
        truth.append(rest)
        out_s, out_t, _, _ = pimc.deal_arrays()
        deals = [(truth, 1)]
        for _ in range(3):
            met = pimc.sample_deal(n_piles, pile_seat, need, known_s, known_t, allow_s, allow_t, only_s, free_s,
                                   free_t, np.int64(st.taker), rng, 20, out_s, out_t)
            assert met >= 0
            exact += met
            deals.append(([(int(out_s[q]), int(out_t[q])) for q in range(n_piles)], met))
        only = int(only_s[0])
        known_all_s = int(np.bitwise_or.reduce(known_s[:n_piles]))
        known_all_t = int(np.bitwise_or.reduce(known_t[:n_piles]))
        for d, met in deals:
            all_s = all_t = 0
            for q, (hs, ht) in enumerate(d):
                assert hs & known_s[q] == known_s[q] and ht & known_t[q] == known_t[q]
                new_s, new_t = hs & ~int(known_s[q]), ht & ~int(known_t[q])
                assert popcount(new_s) + popcount(new_t) == need[q]
                if met == 1:  # (a sample that had to drop the voids keeps the rest)
                    assert new_s & ~int(allow_s[q]) == 0 and new_t & ~int(allow_t[q]) == 0, (d is truth, q)
                if pile_seat[q] != st.taker and q != n_piles - 1:
                    assert new_s & only == 0
                assert all_s & hs == 0 and all_t & ht == 0
                all_s |= hs
                all_t |= ht
            assert all_s == int(free_s) | known_all_s and all_t == int(free_t) | known_all_t
    assert positions > 60 and hidden_chien > 3 and exact > positions and ceilings > 3, (positions, ceilings)
    if n == 5:
        assert revealed > 5


def test_shown_voids_and_an_under_trump_bar_cards_from_a_seat():
    """A seat that discarded on a suit holds neither it nor trumps; one that played under the trick's highest
    trump holds no trump above it: checked against the view's voids and the history by hand."""
    for st, seat in deal_positions(4, 30, seed=3, every=2):
        ob = st.observation(seat)
        _, pile_seat, need, known_s, known_t, allow_s, allow_t, only_s, _, _ = pimc.new_piles(
            np.int64(seat), np.int64(ob.suits), np.int64(ob.trumps), ob.view)
        for q in range(3):
            o = int(pile_seat[q])
            voids = int(ob.view[V_VOIDS + o])
            for u in range(4):
                suit = ((1 << SUIT_CARDS) - 1) << (SUIT_CARDS * u)
                assert bool(int(allow_s[q]) & suit) == (not voids >> u & 1)
            if voids >> 4 & 1:
                assert int(allow_t[q]) == 1 << 21  # the Excuse alone
        # the hidden pile of a Prise or Garde: no king, no trump
        if phases.takes_chien(int(ob.view[V_CONTRACT])) and ob.view[V_TAKER] >= 0:
            assert int(allow_s[3]) & KINGS_S == 0 and int(allow_t[3]) == 0


# ------------------------------------------------------------------ legality: the reference replays the runs
@pytest.mark.parametrize("n", [3, 4, 5])
def test_runs_with_pimc_seats_replay_through_the_reference(n):
    rules = PRESETS[PRESET_OF[n]]
    seats = [parse_spec(SMALL, "tarot") if s % 2 == 0 else parse_spec("heuristic", "tarot") for s in range(n)]
    cfg = SimpleNamespace(rules=rules, seats=seats, seed=19, record_plays=True)
    t = batch.compute(cfg, np.arange(30, dtype=np.int64), workers=1)["deals"]
    stats = ref.replay_table(t, rules, plays_required=True)
    assert stats["played"] >= 10


# ------------------------------------------------------------------ reproducibility
def _pimc_run(spec, workers, seed=4):
    seats = [parse_spec(spec, "tarot")] + [parse_spec("heuristic", "tarot")] * 3
    cfg = SimpleNamespace(rules=PRESETS["cardavia"], seats=seats, seed=seed, record_plays=True)
    return batch.compute(cfg, np.arange(24, dtype=np.int64), workers=workers)["deals"]


def test_same_seed_same_deals_whatever_the_workers_and_the_stream_draws_other_samples():
    one = _pimc_run(SMALL, 1)
    assert one.equals(_pimc_run(SMALL, 1)) and one.equals(_pimc_run(SMALL, 2))
    assert not one.equals(_pimc_run(SMALL + ",stream=7", 1))  # other samples: some other card somewhere


# ------------------------------------------------------------------ information hygiene
def _swap_hidden(st: TarotState, seat: int, rng) -> TarotState | None:
    """A copy of ``st`` whose hidden cards differ: a card of another seat exchanged with one of the same kind (the
    same suit, or two trumps) of a third seat, or of the chien while it is not shown (the bidding, the call, a
    Garde sans or contre); None when there is none."""
    n = st.seats
    places = [s for s in range(n) if s != seat]
    if not (int(st.view[V_CHIEN_S]) | int(st.view[V_CHIEN_T])):
        places.append("chien")

    def words(p):
        return (int(st.chien[0]), int(st.chien[1])) if p == "chien" else (int(st.suits[p]), int(st.trumps[p]))

    pairs = []
    for i, a in enumerate(places):
        for b in places[i + 1:]:
            (sa, ta), (sb, tb) = words(a), words(b)
            for u in range(4):
                m = ((1 << SUIT_CARDS) - 1) << (SUIT_CARDS * u)
                if sa & m and sb & m:
                    pairs.append((a, b, 0, sa & m, sb & m))
            if ta & ((1 << 21) - 1) and tb & ((1 << 21) - 1):
                pairs.append((a, b, 1, ta & ((1 << 21) - 1), tb & ((1 << 21) - 1)))
    if not pairs:
        return None
    a, b, w, ma, mb = pairs[int(rng.integers(len(pairs)))]
    xa = [c for c in range(64) if ma >> c & 1]
    xb = [c for c in range(64) if mb >> c & 1]
    flip = (1 << xa[int(rng.integers(len(xa)))]) | (1 << xb[int(rng.integers(len(xb)))])
    other = copy.deepcopy(st)
    for p in (a, b):
        if p == "chien":
            other.chien[w] ^= flip
        else:
            (other.suits if w == 0 else other.trumps)[p] ^= flip
    return other


def _hygiene(n, decide, deals, seed=23, phase=Phase.PLAY, spec=SMALL, taker=TAKER):
    """At decisions of seat 0 (pimc; the others bid to take often), a deal differing only in hidden cards gives
    the same decision: returns (decisions checked, decisions that differed, swaps with the chien hidden)."""
    p = parse_spec(spec, "tarot")
    seats = [p] + [parse_spec(taker, "tarot")] * (n - 1)
    rng = np.random.default_rng(5)
    checked = differed = chien = 0
    for st, seat in deal_positions(n, deals, seed, seats=seats, phase=phase):
        if seat != 0:
            continue
        other = _swap_hidden(st, seat, rng)
        if other is None:
            continue
        a, b = st.observation(seat), other.observation(seat)
        assert (a.suits, a.trumps) == (b.suits, b.trumps) and (a.view == b.view).all()
        checked += 1
        chien += (other.chien != st.chien).any()
        differed += decide(st, p) != decide(other, p)
    return checked, differed, chien


def _pimc_decision(st, p):
    return st.policy_action(p)


def _peeking_decision(st, p):
    """A planted leak: the best card on the true deal (what a search that saw the hidden cards would play)."""
    values = true_values(st, st.current_player())
    legal = st.legal_actions()
    return max(legal, key=lambda c: (values[c], -c))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_information_hygiene_a_hidden_card_changes_no_decision(n):
    checked, differed, chien = _hygiene(n, _pimc_decision, deals=12)
    assert checked >= 40 and differed == 0
    assert chien >= 1


def test_the_hygiene_test_catches_a_planted_leak():
    """The same comparison, with a player that searches the true deal: some hidden swap changes its card."""
    checked, differed, _ = _hygiene(4, _peeking_decision, deals=12)
    assert checked >= 40 and differed >= 3


def _chelem_playouts(st, p):
    """The heuristic's Chelem play-outs at the taker's announcement (``heuristic.chelem_playouts``, 8 deals, the
    seat's stream fixed): (deals played, slams made announced and unannounced, the taker's total score announced)."""
    from tricksim.strategies.tarot import heuristic as H

    seat = st.current_player()
    ob = st.observation(seat)
    stats = np.zeros(5, np.int64)
    H.chelem_playouts(np.int64(seat), np.int64(ob.suits), np.int64(ob.trumps), ob.view, p.params,
                      np.array([7], np.uint64), np.int64(8), stats)
    return tuple(int(x) for x in stats)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_information_hygiene_a_hidden_card_changes_no_chelem_playout(n):
    """The heuristic's Chelem announcement plays sampled deals out: with the seat's stream fixed, a deal differing
    only in hidden cards (the chien hidden after a Garde sans or contre among them) gives the same play-outs, to
    the score."""
    checked, differed, chien = _hygiene(n, _chelem_playouts, deals=30, phase=Phase.CHELEM, spec=TAKER, taker=TAKER)
    assert checked >= 5 and differed == 0 and chien >= 1


# the bid and the discard: seat 0 searches them (small searches); for its discards, the others always pass
SMALL_BEFORE_PLAY = "pimc:samples=4,playouts=40,deal_playouts=40"
PASSER = "heuristic:prise_threshold=1000,garde_threshold=1000,garde_sans_threshold=1000,garde_contre_threshold=1000"


def _peeking_bid(st, p):
    """A planted leak: the bid that scores best on the true deal."""
    seat = st.current_player()
    legal = [b for b in range(5) if phases.bid_is_legal(b, st.contract)]
    return max(legal, key=lambda b: (before_play_value(st, seat, b), -b))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_information_hygiene_a_hidden_card_changes_no_bid_and_no_discard(n):
    checked, differed, chien = _hygiene(n, _pimc_decision, deals=20, phase=Phase.BID, spec=SMALL_BEFORE_PLAY)
    assert checked >= 10 and differed == 0 and chien >= 1  # the chien, hidden, among the cards swapped
    checked, differed, _ = _hygiene(n, _pimc_decision, deals=16 if n == 3 else 32, phase=Phase.DISCARD,
                                    spec=SMALL_BEFORE_PLAY, taker=PASSER)
    assert checked >= 10 and differed == 0


def test_information_hygiene_a_hidden_card_changes_no_call():
    checked, differed, _ = _hygiene(5, _pimc_decision, deals=40, phase=Phase.CALL, spec=SMALL_BEFORE_PLAY,
                                    taker=PASSER)
    assert checked >= 5 and differed == 0


def test_the_bid_hygiene_test_catches_a_planted_leak():
    """The bid comparison has the power to see a leak: the others pass, so every bid is open to seat 0, and the
    best bid on the true deal changes with a hidden swap now and then (a single swap seldom moves it)."""
    checked, differed, _ = _hygiene(4, _peeking_bid, deals=200, phase=Phase.BID, spec=SMALL_BEFORE_PLAY, taker=PASSER)
    assert checked >= 150 and differed >= 3
