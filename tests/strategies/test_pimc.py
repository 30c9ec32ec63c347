"""The ``pimc`` search player (strategies/spades/pimc.py): legality, reproducibility, information hygiene,
the sampler's constraints and uniformity, and agreement with the double-dummy solver.

Most tests use a small search (``SMALL``: a few samples, search in the last three tricks) so that they
also run, slowly, as plain Python under NUMBA_DISABLE_JIT=1; the tests of the default settings need
the compiled solver.
"""
from __future__ import annotations

import copy
from collections import Counter

import numpy as np
import pytest
import reference_spades as ref
from compile_ahead import imported_on_use

from tricksim.simulator import engine
from tricksim.simulator.bits import cards_of, mask_of, popcount
from tricksim.simulator.games.spades import dd, decks, phases
from tricksim.simulator.games.spades.cards import SUIT_MASKS, card_suit, parse_card
from tricksim.simulator.games.spades.kernel import deck_template
from tricksim.simulator.games.spades.policy import (
    PLAY_SIG,
    V_BAGS,
    V_BID,
    V_BLIND,
    V_BROKEN,
    V_DECK,
    V_LEADER,
    V_LED_SUIT,
    V_NPLAYED,
    V_PASSED,
    V_PLAYED,
    V_RULES,
    V_SCORE,
    V_TRICK,
    V_TRICK_NO,
    V_TRICKS,
    V_VOID,
    V_WINNING_CARD,
    V_WINNING_SEAT,
    VIEW_SIZE,
)
from tricksim.simulator.games.spades.rules import PRESETS, build_rules
from tricksim.simulator.games.spades.state import Phase, SpadesState
from tricksim.simulator.record import write_rules
from tricksim.strategies.registry import SeatStrategy, Strategy, parse_spec

pimc = imported_on_use("tricksim.strategies.spades.pimc")  # at first use: collection compiles nothing (P64)

SMALL = "pimc:samples=4,depth=3"  # cheap enough for plain Python too
HEURISTIC = "heuristic"


def cards(*names) -> int:
    return mask_of([parse_card(n) for n in names])


def play_to(state: SpadesState, seats, stop) -> SpadesState:
    """Ask each seat's strategy until ``stop(state)`` is true or the hand is over."""
    while not state.is_terminal() and not stop(state):
        decision = state.policy_action(seats[state.current_player()])
        for action in decision if isinstance(decision, list) else [decision]:
            state.apply(action)
    return state


# ------------------------------------------------------------------ the strategy
def test_registered_with_its_parameters():
    seat = parse_spec("pimc:samples=32,bid_mode=search,stream=3")
    names = [p.name for p in seat.strategy.params]
    for name in ("samples", "depth", "nodes", "stream", "bid_mode", "bid_samples", "nil_prob", "tries"):
        assert name in names
    assert seat.short_spec == "pimc:samples=32,bid_mode=search,stream=3"
    assert parse_spec("pimc").params[pimc.P_BID_MODE] == 0.0  # the heuristic's bids by default


# ------------------------------------------------------------------ legality (the reference replays the run)
@pytest.mark.parametrize("preset, overrides, mode", [("classic", (), "games"), ("cardems", (), "hands"),
                                                     ("zone", ("first_lead=two_of_clubs", "breaking=false"),
                                                      "hands"), ("cardems", ("zero_bid=zero",), "hands")])
def test_runs_with_pimc_seats_replay_through_the_reference(preset, overrides, mode):
    """Every card legal, each card once, trick winners, scores and game ends as the plain-Python referee
    (tests/reference_spades.py) replays them; classic adds Blind Nil and its exchange."""
    rules = build_rules(preset, list(overrides))
    seats = (parse_spec(SMALL), parse_spec(HEURISTIC), parse_spec(SMALL), parse_spec("random:nil_prob=0.2,"
                                                                                       "blind_nil_prob=0.5"))
    count, hand_limit = (2, 6) if mode == "games" else (6, 1)
    cfg = engine.RunConfig(rules=rules, seats=seats, seed=5, mode=mode, count=count, hand_limit=hand_limit,
                           record_plays=True)
    tables = engine.run_to_tables(cfg)
    stats = ref.replay(rules, 5, mode, hand_limit, tables["hands"], tables.get("games"), count=count)
    assert stats["hands"] >= 6


# the variants of issue #28 a pimc seat plays: the bidding rules, the joker decks, ten for two hundred
VARIANTS = {
    "suicide": ("suicide", ()),
    "whiz": ("whiz", ()),
    "mirror": ("mirror", ()),
    "joker_ace": ("zone", ("deck=joker_ace",)),
    "joker_deuce_ace": ("classic", ("deck=joker_deuce_ace",)),  # classic: Blind Nil and its exchange too
    "joker_deuce_deuce": ("cardems", ("deck=joker_deuce_deuce",)),
    "ten_for_two_hundred": ("cardems", ("big_bid_threshold=10", "big_bid_value=200", "big_bid_set=value")),
}


def _replay_variant(variant, spec, mode, count, hand_limit, seed):
    rules = build_rules(VARIANTS[variant][0], list(VARIANTS[variant][1]))
    seats = (parse_spec(spec), parse_spec(HEURISTIC), parse_spec(spec),
             parse_spec("random:nil_prob=0.2,blind_nil_prob=0.5"))
    cfg = engine.RunConfig(rules=rules, seats=seats, seed=seed, mode=mode, count=count, hand_limit=hand_limit,
                           record_plays=True)
    tables = engine.run_to_tables(cfg)
    return ref.replay(rules, seed, mode, hand_limit, tables["hands"], tables.get("games"), count=count)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_pimc_runs_of_every_variant_replay_through_the_reference(variant):
    """A small search (SMALL) in each variant: every bid legal by the variant's bid rule, every card legal by the
    deck's suits (the 2♦ of joker_deuce_deuce a spade), trick winners by the deck's order, scores by the
    variant's (ten for two hundred), as the plain-Python referee replays them."""
    stats = _replay_variant(variant, SMALL, "hands", 6, 1, seed=21)
    assert stats["hands"] == 6


@pytest.mark.slow  # whole games, deeper searches and the bid search: minutes
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_pimc_games_of_every_variant_replay_through_the_reference(variant):
    stats = _replay_variant(variant, "pimc:samples=6,depth=5,bid_mode=search,bid_samples=2,nodes=300000", "games",
                            2, 8, seed=22)
    assert stats["games"] == 2


@pytest.mark.needs_jit("whole hands at the default search settings take minutes as plain Python")
@pytest.mark.parametrize("preset", ["cardems", "classic"])
def test_default_pimc_runs_replay_through_the_reference(preset):
    rules = PRESETS[preset]
    seats = (parse_spec("pimc"), parse_spec(HEURISTIC)) * 2
    cfg = engine.RunConfig(rules=rules, seats=seats, seed=8, mode="games", count=3, record_plays=True)
    tables = engine.run_to_tables(cfg)
    stats = ref.replay(rules, 8, "games", 1000, tables["hands"], tables["games"], count=3)
    assert stats["games"] == 3


# ------------------------------------------------------------------ reproducibility
def _run(spec, threads, seed=12, count=8):
    seats = (parse_spec(spec), parse_spec(HEURISTIC)) * 2
    cfg = engine.RunConfig(rules=PRESETS["classic"], seats=seats, seed=seed, count=count, record_plays=True,
                           shard_size=3)
    return engine.run_to_tables(cfg, threads=threads)["hands"]


def test_same_seed_same_data_whatever_the_threads():
    one = _run(SMALL, threads=1)
    assert one.equals(_run(SMALL, threads=1))
    assert one.equals(_run(SMALL, threads=2))


def test_the_stream_parameter_draws_other_samples():
    """Another ``stream`` gives the searching seats other samples (here: some other card) from the same seed."""
    a = _run("pimc:samples=1,depth=4", threads=1, count=10)
    b = _run("pimc:samples=1,depth=4,stream=7", threads=1, count=10)
    assert a["plays"].to_pylist() != b["plays"].to_pylist()
    assert a["dealt_0"].equals(b["dealt_0"])


# ------------------------------------------------------------------ the exchange slot of the view
@pytest.mark.parametrize("preset", ["classic", "cardems"])
def test_view_passed_holds_the_cards_passed(preset):
    """At every play, view[V_PASSED] holds cards only for a seat of a team that exchanged (exactly
    blind_nil_exchange of them), and nothing else (no rule bits: the rules are the view's record)."""
    rules = PRESETS[preset]

    from numba import njit

    @njit(PLAY_SIG)
    def audited(seat, hand, legal, view, params, rng):
        passed = view[V_PASSED]
        exchanged = (view[V_BLIND + seat] + view[V_BLIND + (seat ^ 2)]) == 1
        ok = (passed & ~((np.int64(1) << 54) - 1)) == 0
        n = popcount(passed)
        if exchanged:
            ok = ok and n == 3
        else:
            ok = ok and n == 0
        if not ok:
            return np.int64(-1)
        c = legal & -legal
        return np.int64(popcount(c - 1))

    base = parse_spec("random:nil_prob=0.1,blind_nil_prob=0.5").strategy
    auditor = SeatStrategy(Strategy(name="auditor", description="test", policies={**base.policies, "play": audited},
                                    params=base.params), {"blind_nil_prob": 0.5})
    cfg = engine.RunConfig(rules=rules, seats=(auditor,) * 4, seed=4, count=60)
    hands = engine.run_to_tables(cfg)["hands"]  # an audit failure stops the run with an error
    blind = sum(hands[f"blind_{s}"].to_numpy(zero_copy_only=False).sum() for s in range(4))
    assert (blind > 0) == (preset == "classic")


def test_step_api_observation_shows_only_the_seats_own_passes():
    rules = PRESETS["classic"]
    seats = (parse_spec("random:blind_nil_prob=0.4"),) * 4
    for game in range(40):
        st = play_to(SpadesState(rules, seed=3, game_id=game), seats, lambda s: s.phase == Phase.PLAY)
        gave = {s: 0 for s in range(4)}
        for e in st.events:
            if e.phase == Phase.EXCHANGE:
                gave[e.seat] |= 1 << e.action
        for s in range(4):
            assert int(st.observation(s).view[V_PASSED]) == gave[s]
        if any(gave.values()):
            return
    pytest.fail("no exchange in 40 hands")


# ------------------------------------------------------------------ the sampler
def _view(played=(0, 0, 0, 0), voids=(0, 0, 0, 0), bids=(3, 3, 3, 3), trick=(), leader=0, passed=0, broken=1,
          rules=PRESETS["cardems"]):
    """A hand-built view: cards played by each seat, shown voids, bids, the current trick from ``leader``, the
    rules record of ``rules``."""
    v = np.zeros(VIEW_SIZE, np.int64)
    write_rules(rules.to_kernel(), v, V_RULES)
    v[V_DECK] = (1 << 52) - 1
    for s in range(4):
        v[V_PLAYED + s] = played[s]
        v[V_VOID + s] = voids[s]
        v[V_BID + s] = bids[s]
        v[V_TRICK + s] = -1
    v[V_LEADER] = leader
    v[V_NPLAYED] = len(trick)
    for j, c in enumerate(trick):
        v[V_TRICK + ((leader + j) & 3)] = c
        v[V_PLAYED + ((leader + j) & 3)] |= 1 << c
    v[V_LED_SUIT] = card_suit(trick[0]) if trick else -1
    v[V_WINNING_SEAT] = -1
    v[V_WINNING_CARD] = -1
    v[V_BROKEN] = broken
    v[V_PASSED] = passed
    n = sum(popcount(int(v[V_PLAYED + s])) for s in range(4))
    v[V_TRICK_NO] = n // 4
    return v


def _sampler(seat, hand, view):
    arrays = {"others": np.zeros(3, np.int64), "need": np.zeros(3, np.int64), "known": np.zeros(3, np.int64),
              "cnt": np.zeros(4, np.int64), "suit_cards": np.zeros(4, np.int64), "elig": np.zeros(12, np.int64),
              "W": np.zeros((5, 14, 14))}
    ways = pimc.sampler_setup(np.int64(seat), np.int64(hand), view, *arrays.values())
    return ways, arrays


def _draw(seat, hand, view, n, seed=1, sigma=1.0, tries=30):
    ways, a = _sampler(seat, hand, view)
    local = np.array([seed], np.uint64)
    hands = np.zeros(4, np.int64)
    out = []
    for _ in range(n):
        pimc.sample_hands(np.int64(seat), np.int64(hand), view, a["others"], a["need"], a["known"], a["cnt"],
                          a["suit_cards"], a["elig"], a["W"], local, np.int64(tries), sigma, hands)
        out.append(tuple(int(h) for h in hands))
    return ways, out


def _last_tricks_deal():
    """Seat 0 to lead with 3 cards left each: 40 cards played (10 per seat)."""
    rng = np.random.default_rng(0)
    deck = rng.permutation(52)
    hands = [int(mask_of(deck[13 * s:13 * s + 13])) for s in range(4)]
    played = []
    for s in range(4):
        cs = cards_of(hands[s])
        played.append(mask_of(cs[:10]))
    return hands, played


def test_sampled_deals_respect_counts_voids_and_the_cards_passed():
    rng = np.random.default_rng(2)
    for case in range(30):
        deck = rng.permutation(52)
        held = [set(deck[13 * s:13 * s + 13].tolist()) for s in range(4)]
        k = int(rng.integers(0, 11))  # cards played per seat
        played = [set(sorted(h)[:k]) for h in held]
        left = [h - p for h, p in zip(held, played)]
        # voids: each other seat shows void in the suits it no longer holds, with some probability
        voids = [sum(1 << u for u in range(4) if not any(card_suit(c) == u for c in left[s]) and rng.random() < 0.7)
                 for s in range(4)]
        passed = mask_of(sorted(left[2])[:2]) if case % 3 == 0 else 0  # seat 0 "gave" two of partner's cards
        view = _view(played=[mask_of(p) for p in played], voids=voids, passed=passed, bids=(-1, -1, -1, -1))
        ways, deals = _draw(0, mask_of(left[0]), view, 20, seed=case)
        assert ways > 0
        unseen = mask_of(set().union(*left[1:]))
        for d in deals:
            assert d[0] == mask_of(left[0])
            assert d[1] | d[2] | d[3] == unseen
            assert d[1] & d[2] == 0 and d[1] & d[3] == 0 and d[2] & d[3] == 0
            for s in (1, 2, 3):
                assert popcount(d[s]) == len(left[s])
                for u in range(4):
                    if (voids[s] >> u) & 1:
                        assert d[s] & int(SUIT_MASKS[u]) == 0
            assert d[2] & passed == passed


def test_sampling_is_uniform_over_the_consistent_deals():
    """Seat 0 holds 1 card, the others 1, 1 and 3 of five unseen cards; seat 1 shows void in hearts. The 8
    consistent deals (seat 1 a club: 2 ways; seat 2 one of the other 4; seat 3 the rest) are equally likely."""
    hand = cards("2D")
    unseen = ["AC", "KC", "AH", "KH", "QH"]
    # played: 12 cards by seats 0, 1 and 2 (so each holds 1), 10 by seat 3 (it holds 3)
    rest = [c for c in range(52) if c not in [parse_card(x) for x in unseen] + [parse_card("2D")]]
    played = [mask_of(rest[0:12]), mask_of(rest[12:24]), mask_of(rest[24:36]), mask_of(rest[36:46])]
    view = _view(played=played, voids=(0, 1 << 2, 0, 0), bids=(-1, -1, -1, -1))
    n = 4000
    ways, deals = _draw(0, hand, view, n, seed=9)
    assert ways == 8.0
    counts = Counter(deals)
    assert len(counts) == 8
    for deal, k in counts.items():
        assert deal[1] & cards("AH", "KH", "QH") == 0
        assert abs(k / n - 1 / 8) < 4.5 * np.sqrt((1 / 8) * (7 / 8) / n), (deal, k)


def test_bids_are_evidence_a_nil_bidder_rarely_gets_the_ace_of_spades():
    hand = cards("2C", "3C", "4C", "5C", "6C", "7C", "8C", "2D", "3D", "4D", "5D", "6D", "7D")
    ace = parse_card("AS")
    view = _view(bids=(-1, 0, -1, -1))  # seat 1 bid Nil; seat 0 to bid
    with_evidence = sum((d[1] >> ace) & 1 for d in _draw(0, hand, view, 300, seed=3)[1])
    without = sum((d[1] >> ace) & 1 for d in _draw(0, hand, view, 300, seed=3, sigma=0.0)[1])
    assert with_evidence <= 6  # the likelihood of a Nil with the ace is about 1e-27: only when every try has it
    assert 60 <= without <= 140  # about a third


def test_a_numeric_bid_shifts_the_high_cards():
    """A bid of 6 by seat 3 makes its sampled hands stronger than a bid of 1 does."""
    hand = cards("2C", "3C", "4C", "5C", "6C", "7C", "8C", "2D", "3D", "4D", "5D", "6D", "7D")
    tops = cards("AS", "KS", "QS", "AH", "KH", "AD", "KD", "AC", "KC")

    def mean_tops(b):
        view = _view(bids=(-1, 3, -1, b))
        return np.mean([popcount(d[3] & tops) for d in _draw(0, hand, view, 200, seed=4)[1]])

    assert mean_tops(6) > mean_tops(1) + 1.0


# ------------------------------------------------------------------ information hygiene
def _swap_hidden(st: SpadesState, seat: int, rng) -> SpadesState | None:
    """A copy of ``st`` whose hidden cards differ: two cards of one suit swapped between two other seats
    (so counts and shown voids still hold); None when no such pair exists."""
    others = [s for s in range(4) if s != seat]
    pairs = []
    for i, a in enumerate(others):
        for b in others[i + 1:]:
            for u in range(4):
                ca = int(st.hands[a]) & int(SUIT_MASKS[u])
                cb = int(st.hands[b]) & int(SUIT_MASKS[u])
                if ca and cb:
                    pairs.append((a, b, cards_of(ca), cards_of(cb)))
    if not pairs:
        return None
    a, b, ca, cb = pairs[int(rng.integers(len(pairs)))]
    x, y = ca[int(rng.integers(len(ca)))], cb[int(rng.integers(len(cb)))]
    other = copy.deepcopy(st)
    other.hands[a] ^= (1 << x) | (1 << y)
    other.hands[b] ^= (1 << x) | (1 << y)
    return other


def _hygiene(spec, preset, games, stop_at):
    """At decisions of the searching seat (trick numbers ``stop_at``), a deal that differs only in the hidden
    split gives the same card; returns how many decisions were checked, and how many of them the true deals'
    double-dummy values told apart (so that peeking would have mattered)."""
    rules = PRESETS[preset]
    p = parse_spec(spec)
    seats = (p, parse_spec(HEURISTIC), p, parse_spec(HEURISTIC))
    rng = np.random.default_rng(17)
    checked = told_apart = 0
    for game in range(games):
        st = SpadesState(rules, seed=23, game_id=game)
        for t in stop_at:
            play_to(st, seats, lambda s, t=t: s.phase == Phase.PLAY and s._trick >= t
                    and s.current_player() % 2 == 0 and popcount(s._legalcards_of()) > 1)
            if st.is_terminal():
                break
            seat = st.current_player()
            other = _swap_hidden(st, seat, rng)
            if other is None:
                continue
            assert st.observation(seat).hand == other.observation(seat).hand
            assert np.array_equal(st.observation(seat).view, other.observation(seat).view)
            a, b = st.policy_action(p), other.policy_action(p)
            assert a == b, f"game {game}, trick {t}: {a} vs {b}"
            checked += 1
            legal = cards_of(st._legalcards_of())
            trick = [int(st.view[V_TRICK + ((st._leader + j) & 3)]) for j in range(st._k)]
            va = dd.card_values([int(h) for h in st.hands], st._leader, trick, bool(st._broken), rules)
            vb = dd.card_values([int(h) for h in other.hands], st._leader, trick, bool(st._broken), rules)
            told_apart += any(va[c] != vb[c] for c in legal)
            st.apply(a)
    return checked, told_apart


def test_information_hygiene_a_decision_ignores_the_hidden_split():
    checked, told_apart = _hygiene(SMALL, "classic", games=6, stop_at=(10, 11))
    assert checked >= 6
    assert told_apart >= 1


@pytest.mark.needs_jit("searches of seven tricks at the default settings take minutes as plain Python")
@pytest.mark.parametrize("preset", ["cardems", "classic"])
def test_information_hygiene_at_the_default_settings(preset):
    checked, told_apart = _hygiene("pimc:nil_depth=9,trick_depth=9", preset, games=8, stop_at=(3, 5, 7, 9))
    assert checked >= 16
    assert told_apart >= 3


# ------------------------------------------------------------------ against the solver
def test_a_forced_win_is_found():
    """Seat 0 plays last to a trick it must win to make its side's contract (bid 5, 4 taken): the K♥ wins it,
    the 3♥ loses it; whatever the split of the other cards, pimc plays the king."""
    hand = cards("KH", "3H")
    rest = cards("AS", "KS", "2D")  # the other seats' last cards, one each
    trick = [parse_card("5H"), parse_card("4H"), parse_card("QH")]  # seat 1 leads, 2 and 3 follow
    others_played = [c for c in range(52) if not (hand | rest) >> c & 1 and c not in trick]
    played = [mask_of(others_played[0:11]), mask_of(others_played[11:22]), mask_of(others_played[22:33]),
              mask_of(others_played[33:44])]
    assert sum(popcount(p) for p in played) == 44
    view = _view(played=played, bids=(3, 3, 2, 2), trick=trick, leader=1)
    view[V_TRICKS:V_TRICKS + 4] = (2, 4, 2, 3)  # 11 tricks played; seats 0 and 2 have 4 of their 5
    view[V_WINNING_SEAT] = 3
    view[V_WINNING_CARD] = parse_card("QH")
    params = parse_spec("pimc:samples=8").params
    stats = np.zeros(3, np.int64)
    c = pimc.search_card(np.int64(0), np.int64(hand), np.int64(hand), view, params, np.array([5], np.uint64), stats)
    assert c == parse_card("KH")
    assert stats[2] == pimc.MODE_SCORE and stats[0] == 8


def _determined_positions(preset, games, max_left):
    """Late positions from seeded heuristic hands where seat to move's view, with every void of the other seats
    shown, leaves one consistent deal: (state, view with those voids)."""
    rules = PRESETS[preset]
    h = parse_spec(HEURISTIC)
    out = []
    for game in range(games):
        st = SpadesState(rules, seed=41, game_id=game)
        while not st.is_terminal():
            seat = st.current_player()
            if (st.phase == Phase.PLAY and popcount(int(st.hands[seat])) <= max_left
                    and popcount(st._legalcards_of()) > 1):
                view = st.observation(seat).view
                for s in range(4):
                    if s != seat:
                        view[V_VOID + s] = sum(1 << u for u in range(4) if not int(st.hands[s]) & int(SUIT_MASKS[u]))
                ways, _ = _sampler(seat, int(st.hands[seat]), view)
                if ways == 1.0:
                    out.append((copy.deepcopy(st), view))
            decision = st.policy_action(h)
            for action in decision if isinstance(decision, list) else [decision]:
                st.apply(action)
    return out


def test_with_the_hidden_cards_determined_pimc_plays_a_solver_best_card():
    """When the shown voids leave one deal, every sample is the true deal, so pimc's card must be one the
    score-aware solver rates best there."""
    positions = _determined_positions("cardems", games=12, max_left=3)
    assert len(positions) >= 10
    params = parse_spec("pimc:samples=2").params
    for st, view in positions:
        seat = st.current_player()
        legal = st._legalcards_of()
        c = pimc.search_card(np.int64(seat), st.hands[seat], np.int64(legal), view, params,
                             np.array([1], np.uint64), np.zeros(3, np.int64))
        trick = [int(st.view[V_TRICK + ((st._leader + j) & 3)]) for j in range(st._k)]
        score = dd.ScoreState(bids=tuple(int(st.view[V_BID + s]) for s in range(4)),
                              taken=tuple(int(st.view[V_TRICKS + s]) for s in range(4)),
                              bags=tuple(int(b) for b in st.bags[:st.sides]))
        values = dd.card_values([int(h) for h in st.hands], st._leader, trick, bool(st._broken), st.rules,
                                score=score)
        best = max(values[x] for x in cards_of(legal))
        assert values[c] == best, (cards_of(legal), c, values[cards_of(legal)])


# ------------------------------------------------------------------ bidding
def test_bid_mode_heuristic_bids_as_the_heuristic():
    h = parse_spec(HEURISTIC)
    p = parse_spec("pimc")
    for game in range(20):
        st = SpadesState(PRESETS["cardems"], seed=2, game_id=game)
        while st.phase == Phase.BID:
            a = st.policy_action(p)
            assert a == st.policy_action(h)
            st.apply(a)


@pytest.mark.slow  # about a minute: whole deals solved, 17 bids
@pytest.mark.needs_jit("a bid search solves whole deals: minutes as plain Python")
def test_bid_mode_search_gives_legal_bids_and_ignores_the_hidden_split():
    p = parse_spec("pimc:bid_mode=search,bid_samples=2,nodes=300000")
    rng = np.random.default_rng(5)
    stats = np.zeros(4, np.int64)
    for game in range(2):
        st = SpadesState(PRESETS["cardems"], seed=6, game_id=game)
        while st.phase == Phase.BID:
            seat = st.current_player()
            other = _swap_hidden(st, seat, rng)
            a = st.policy_action(p)
            assert a == other.policy_action(p)
            assert a in st.legal_actions()
            st.apply(a)
        view = st.observation(0).view
        pimc.search_bid(np.int64(0), st.hands[0], view, p.params, np.array([3], np.uint64), stats)
        assert 1 <= stats[0] <= 2


# ------------------------------------------------------------------ Blind Nil by simulation
@pytest.mark.parametrize("overrides", [(), ("exchange_order=bidder_first", "blind_nil_exchange=2"),
                                       ("blind_nil_exchange=0", "bag_penalty=50", "nil_value=50"),
                                       ("blind_nil_eligibility=trailing", "blind_nil_deficit=0", "min_team_bid=4",
                                        "blind_nil_exchange=1")])
def test_play_out_is_the_kernels_hand(overrides):
    """``play_out`` (the Blind Nil simulations), every decision the heuristic's, plays a hand as the kernel
    does, under the run's rules read from the view's record: each hand of a run of the heuristic at every
    seat (Blind Nil whenever not ahead, so the exchange is often played), replayed from the score before
    it, the cards as dealt and the first bidder's stream, gives the recorded hand points of both teams.
    The rule sets vary what the play-outs once took from the classic preset (the exchange's size and order,
    who may bid Blind Nil, the smallest team bid, the scoring values)."""
    from tricksim.simulator.games.spades import phases
    from tricksim.simulator.rng import policy_stream_key

    rules = build_rules("classic", list(overrides))
    spec = parse_spec("heuristic:blind_nil_margin=0")
    cfg = engine.RunConfig(rules=rules, seats=(spec,) * 4, seed=21, mode="games", count=10)
    hands = engine.run_to_tables(cfg)["hands"].to_pandas()
    kr = rules.to_kernel()
    exchanges = 0
    prev = {}
    for row in hands.itertuples():
        totals = np.array(prev.get(row.game_id, ((0, 0), (0, 0)))[0], np.int64)
        bags = np.array(prev.get(row.game_id, ((0, 0), (0, 0)))[1], np.int64)
        view = np.zeros(VIEW_SIZE, np.int64)
        phases.start_view(kr, view, np.int64(row.dealer), np.int64(row.hand_no), totals, bags,
                          np.int64((1 << 52) - 1))
        first = (row.dealer + 1) % 4
        phases.start_bid(kr, view, totals, np.int64(first))  # the view as the first bidder's Blind Nil call sees it
        assert pimc.rules_of(view) == kr
        deal = np.array([getattr(row, f"dealt_{s}") for s in range(4)], np.int64)
        rng = np.array([policy_stream_key(21, row.game_id, row.hand_no, first)], np.uint64)
        diff = pimc.play_out(np.int64(first), np.int64(getattr(row, f"blind_{first}")), view, deal,
                             pimc.rules_of(view), spec.params, rng)
        team = first & 1
        assert diff == getattr(row, f"score_{team}") - getattr(row, f"score_{1 - team}"), row
        blind = [getattr(row, f"blind_{s}") for s in range(4)]
        exchanges += any(blind[s] + blind[s ^ 2] == 1 for s in range(4))
        prev[row.game_id] = ((row.total_0, row.total_1), (row.bags_0, row.bags_1))
    assert len(hands) >= 20
    assert exchanges >= 3  # hands with a team of one Blind Nil bidder (an exchange unless blind_nil_exchange=0)


def test_blind_nil_by_simulation():
    """blind_mode=search: the mean paired gain of ``blind_gain`` decides against ``blind_gain``'s threshold;
    the same stream gives the same gain; blind_mode=heuristic is the heuristic's margin rule."""
    rules = PRESETS["classic"].to_kernel()
    from tricksim.simulator.games.spades import phases

    view = np.zeros(VIEW_SIZE, np.int64)
    zeros = np.zeros(2, np.int64)
    phases.start_view(rules, view, np.int64(0), np.int64(0), zeros, zeros, np.int64((1 << 52) - 1))
    phases.start_bid(rules, view, zeros, np.int64(1))
    p = parse_spec("pimc:blind_samples=16").params
    g1 = pimc.blind_gain(np.int64(1), view, p, np.array([5], np.uint64))
    g2 = pimc.blind_gain(np.int64(1), view, p, np.array([5], np.uint64))
    assert g1 == g2
    above = parse_spec(f"pimc:blind_samples=16,blind_gain={g1 + 1}").params
    below = parse_spec(f"pimc:blind_samples=16,blind_gain={g1 - 1}").params
    assert pimc.blind_nil(np.int64(1), view, above, np.array([5], np.uint64)) == 0
    assert pimc.blind_nil(np.int64(1), view, below, np.array([5], np.uint64)) == 1
    rule = parse_spec("pimc:blind_mode=heuristic,blind_nil_margin=100").params
    assert pimc.blind_nil(np.int64(1), view, rule, np.array([5], np.uint64)) == 0  # 0-0: not trailing by 100
    view[V_SCORE] = 150  # team 0 leads by 150: seat 1's team trails
    assert pimc.blind_nil(np.int64(1), view, rule, np.array([5], np.uint64)) == 1


# ------------------------------------------------------------------ the run's rules, from the view's record
RULED = ("bag_penalty=50", "nil_value=50", "blind_nil_exchange=0")
BIDS, BAGS = (4, 0, 4, 5), (0, 8)


def test_a_pimc_seat_reads_the_runs_rules():
    """Under classic with bag_penalty=50, nil_value=50, blind_nil_exchange=0, every decision of a pimc seat in
    the batch kernel is given a view whose rules record reads back as the run's rules (the scoring values
    included, which the view once lacked), and the record pimc searches with (``rules_of``) is that one."""
    from numba import njit

    from tricksim.simulator.games.spades.policy import BID_SIG, R_BAG_PENALTY, R_BLIND_NIL_EXCHANGE, R_NIL_VALUE
    from tricksim.strategies.spades import pimc  # the module itself: compiled code cannot call through the proxy

    rules = build_rules("classic", list(RULED))
    want = rules.to_kernel()
    assert (want.bag_penalty, want.nil_value, want.blind_nil_exchange) == (50, 50, 0)

    @njit(PLAY_SIG)
    def audited_play(seat, hand, legal, view, params, rng):
        r = pimc.rules_of(view)
        if r != want or view[V_RULES + R_BAG_PENALTY] != 50 or view[V_RULES + R_NIL_VALUE] != 50:
            return np.int64(-1)
        return pimc.play(seat, hand, legal, view, params, rng)

    @njit(BID_SIG)
    def audited_bid(seat, hand, view, params, rng):
        if pimc.rules_of(view) != want or view[V_RULES + R_BLIND_NIL_EXCHANGE] != 0:
            return np.int64(-1)
        return pimc.bid(seat, hand, view, params, rng)

    base = parse_spec(SMALL).strategy
    audited = Strategy(name="pimc_audited", description="test", params=base.params,
                       policies={**base.policies, "play": audited_play, "bid": audited_bid})
    seats = (SeatStrategy(audited, {"samples": 4, "depth": 3}), parse_spec(HEURISTIC)) * 2
    cfg = engine.RunConfig(rules=rules, seats=seats, seed=3, count=4)
    hands = engine.run_to_tables(cfg)["hands"]  # a record that is not the run's stops the run with an error
    assert hands.num_rows == 4


def _nil_or_contract_position(rules):
    """Seat 0 to lead the 12th trick (two cards each left). Bids: seat 0 4, seat 2 4 (contract 8, 6 tricks
    taken: two short), seat 1 Nil (no trick yet), seat 3 5 (5 tricks: made exactly); seats 1 and 3 have 8 bags
    from earlier hands (the bag limit is 10), seats 0 and 2 none. Seat 0 holds A♥ 2♥; the
    shown voids leave one deal up to the four low diamonds: seat 1 K♥ 3♣, seats 2 and 3 two of 2♦ 3♦ 4♦ 5♦
    each, spades all played. What each lead gives follows from the cards (no choice is left to the others
    that changes who wins a trick):

    * lead 2♥: seat 1 must cover with the K♥ and wins, then wins its 3♣ (nobody else has a club or a spade):
      seat 1's Nil is set with 2 tricks (2 bags: the bag limit is reached), seats 0 and 2 take nothing more
      (their contract is set);
    * lead A♥: it wins, the K♥ falls under it, then the 2♥ wins (the others have no heart or spade): seats 0
      and 2 make their contract with both tricks, seat 1's Nil is made."""
    hand = cards("AH", "2H")
    hidden = cards("KH", "3C", "2D", "3D", "4D", "5D")
    rest = [c for c in range(52) if not (hand | hidden) >> c & 1]
    played = [mask_of(rest[11 * s:11 * s + 11]) for s in range(4)]
    C, D, H, S = 1, 2, 4, 8  # void bits by suit
    view = _view(played=played, voids=(0, D | S, H | C | S, H | C | S), bids=BIDS, rules=rules)
    for s, t in enumerate((4, 0, 2, 5)):
        view[V_TRICKS + s] = t
    view[V_BAGS + 1] = BAGS[1]
    lead_2h = {"tricks": (4, 2, 2, 5), "card": parse_card("2H")}
    lead_ah = {"tricks": (6, 0, 2, 5), "card": parse_card("AH")}
    return hand, view, (lead_2h, lead_ah)


@pytest.mark.parametrize("overrides", [(), RULED, ("nil_value=50",)])
def test_pimc_searches_under_the_runs_rules(overrides):
    """The same position, two rule sets: the card pimc leads is the one whose hand score (this side's minus
    the other's) is higher under the run's rules, scored by the plain-Python referee (tests/reference_spades.py)
    from the tricks each lead gives. Under classic (Nil 100, bag penalty 100) setting seat 1's Nil (and
    pushing its side to the bag penalty) is worth more than making the contract of 8; with Nil and the bag
    penalty worth 50 it is not (and with Nil 50 but the bag penalty the presets' 100, as pimc once assumed,
    it would still be), so the two rule sets ask for different cards."""
    rules = build_rules("classic", list(overrides))
    hand, view, leads = _nil_or_contract_position(rules)
    ways, _ = _sampler(0, hand, view)
    assert ways == 6.0  # the diamonds' split alone is unknown, and it changes no trick

    def margin(lead):
        (ours, theirs), _ = ref.score_hand(rules, BIDS, (0, 0, 0, 0), lead["tricks"], BAGS)
        return ours - theirs

    values = [margin(lead) for lead in leads]
    assert values[0] != values[1]
    want = leads[int(np.argmax(values))]["card"]
    legal = np.int64(hand)
    for stream in range(3):
        p = parse_spec(f"pimc:samples=4,stream={stream}").params
        c = pimc.search_card(np.int64(0), np.int64(hand), legal, view, p, np.array([stream + 1], np.uint64),
                             np.zeros(3, np.int64))
        assert c == want


def test_the_two_rule_sets_ask_for_different_cards():
    """The position above tells the two rule sets apart: by the referee's scores, classic wants the 2♥ and
    classic with nil_value=50 and bag_penalty=50 wants the A♥, and with nil_value=50 alone (the bag penalty
    pimc once assumed) the 2♥ again: the test above checks that pimc follows the record, not a preset."""
    wanted = []
    for overrides in [(), RULED, ("nil_value=50",)]:
        rules = build_rules("classic", list(overrides))
        _, _, leads = _nil_or_contract_position(rules)
        margins = [ref.score_hand(rules, BIDS, (0, 0, 0, 0), lead["tricks"], BAGS)[0] for lead in leads]
        wanted.append(leads[int(np.argmax([a - b for a, b in margins]))]["card"])
    assert wanted == [parse_card("2H"), parse_card("AH"), parse_card("2H")]


# ------------------------------------------------------------------ the deuce decks: the solver plays the deck's order
def _keep_the_master_position(deck, kept):
    """Seat 0 is last to the 12th trick, a heart (seat 1 the 5♥, seat 2 the 4♥, seat 3 the 9♥), with no heart:
    it ruffs with either of its two spades, the 3♠ and ``kept``, and leads the other to the last trick. Its side
    bid 3 + 3 and has 2 + 2: it needs both tricks. The cards it cannot see are the A♠, the 7♥ and the 8♥, one a
    seat; the partner (seat 2) has shown void in spades, so an opponent holds the A♠ and must play it to the last
    trick. Everything else of the deck (the jokers, and the 2♠ beside the 2♦) is played."""
    rules = build_rules("cardems", [f"deck={deck}"])
    full = int(np.bitwise_or.reduce(np.int64(1) << deck_template(rules)))
    hand = cards("3S", kept)
    trick = [parse_card(c) for c in ("5H", "4H", "9H")]
    hidden = cards("AS", "7H", "8H")
    rest = [c for c in range(56) if (full >> c) & 1 and not (hand | hidden) >> c & 1 and c not in trick]
    played = [mask_of(rest[11 * s:11 * s + 11]) for s in range(4)]
    view = _view(played=played, voids=(1 << 2, 0, 1 << 3, 0), bids=(3, 3, 3, 3), trick=trick, leader=1, rules=rules)
    view[V_DECK] = full
    view[V_TRICKS:V_TRICKS + 4] = (2, 4, 2, 3)
    view[V_WINNING_SEAT] = 3
    view[V_WINNING_CARD] = parse_card("9H")
    return hand, view


@pytest.mark.parametrize("deck, promoted", [("joker_deuce_ace", "2S"), ("joker_deuce_deuce", "2D")])
def test_pimc_keeps_the_promoted_two_for_the_last_trick(deck, promoted):
    """The position above (hand-worked): ruffing with the 3♠ keeps the promoted 2, which beats the A♠ (the
    jokers, and in joker_deuce_deuce the 2♠, are played): both tricks, the contract made (60). Ruffing with the 2
    leaves the 3♠ to the A♠: the contract set (-60), the opponents one trick more. In every deal pimc can sample
    the 3♠ is the better card, and pimc plays it."""
    hand, view = _keep_the_master_position(deck, promoted)
    assert not pimc.one_choice(np.int64(hand), np.int64(hand), view)  # the A♠ lies between, by the deck's order
    stats = np.zeros(3, np.int64)
    c = pimc.search_card(np.int64(0), np.int64(hand), np.int64(hand), view, parse_spec("pimc:samples=4").params,
                         np.array([5], np.uint64), stats)
    assert c == parse_card("3S")
    assert stats[2] == pimc.MODE_SCORE and stats[0] == 4


def test_in_the_standard_deck_the_two_of_spades_is_ruffed_with_first():
    """The same position in the standard deck: the 2♠ is the lowest spade, the A♠ beats both, and the two spades
    are worth the same (touching); the 2♠, the lower, goes."""
    hand, view = _keep_the_master_position("standard", "2S")
    assert pimc.one_choice(np.int64(hand), np.int64(hand), view)
    c = pimc.search_card(np.int64(0), np.int64(hand), np.int64(hand), view, parse_spec("pimc:samples=4").params,
                         np.array([5], np.uint64), np.zeros(3, np.int64))
    assert c == parse_card("2S")


@pytest.mark.parametrize("deck", ["joker_deuce_ace", "joker_deuce_deuce"])
def test_the_sampler_deals_the_deck_s_suits(deck):
    """The unseen cards are dealt by the deck's suits: with a seat shown void in spades, it never gets the 2♦ of
    joker_deuce_deuce (a spade) nor the 2♠; with a seat shown void in diamonds, it may get the 2♦ there."""
    rules = build_rules("cardems", [f"deck={deck}"])
    full = int(np.bitwise_or.reduce(np.int64(1) << deck_template(rules)))
    code = decks.DECKS.index(deck)
    hand = cards("3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "3H")
    view = _view(voids=(0, 1 << 3, 1 << 1, 0), bids=(-1, -1, -1, -1), rules=rules)
    view[V_DECK] = full
    spades = int(decks.SUIT_MASKS[code, 3])
    got = 0
    for d in _draw(0, hand, view, 200, seed=6)[1]:
        assert d[1] & spades == 0  # seat 1: void in spades
        assert d[2] & int(decks.SUIT_MASKS[code, 1]) == 0  # seat 2: void in diamonds
        got |= d[2]
    if deck == "joker_deuce_deuce":
        assert (got >> parse_card("2D")) & 1  # a spade there: seat 2 may hold it


# ------------------------------------------------------------------ zero_bid=zero: a 0 is an ordinary contract
def test_with_zero_bid_zero_no_nil_is_alive_for_the_card_search():
    """Seat 0 bid 0 and has taken no trick: under cardems that is a live Nil (the card search then plays to make
    or set it, for both sides); with ``zero_bid=zero`` it is a contract of zero tricks and no Nil exists."""
    for rules, want in ((PRESETS["cardems"], 0), (build_rules("cardems", ["zero_bid=zero"]), -1)):
        view = _view(bids=(0, 3, 4, 3), rules=rules)
        assert pimc.live_nil(np.int64(0), view) == want  # this side's own
        assert pimc.live_nil(np.int64(1), view) == want  # the other side's


@pytest.mark.needs_jit("a bid search solves whole deals: minutes as plain Python")
def test_with_zero_bid_zero_the_bid_search_may_bid_zero():
    """``zero_bid=zero`` makes 0 the smallest legal bid. The seat to bid holds 2-5♣ 2-5♦ 2-6♥ and its partner
    bid 13: the side takes at most 13 tricks, so the searched bid, the mean of (the side's tricks - 13) plus
    ``bid_adjust`` (-0.5) rounded, is 0 or less, and the bid is the floor, 0 (the search once floored at 1)."""
    rules = build_rules("cardems", ["zero_bid=zero"])
    hand = mask_of([parse_card(c) for c in ("2C", "3C", "4C", "5C", "2D", "3D", "4D", "5D",
                                            "2H", "3H", "4H", "5H", "6H")])
    st = SpadesState(rules, seed=3, game_id=0)
    while st.view[V_BID + (st.current_player() ^ 2)] < 0:  # until a seat whose partner has bid is to bid
        st.apply(st.legal_actions()[0])
    seat = st.current_player()
    view = st.observation(seat).view.copy()
    view[V_BID + (seat ^ 2)] = 13
    assert phases.legal_bids(view, np.int64(hand)) & 1  # 0 is legal here
    p = parse_spec("pimc:bid_mode=search,bid_samples=2,nodes=300000")
    stats = np.zeros(4, np.int64)
    bid = pimc.search_bid(np.int64(seat), np.int64(hand), view, p.params, np.array([3], np.uint64), stats)
    assert bid == 0 and stats[0] >= 1 and stats[3] == 0  # searched; no Nil tried
