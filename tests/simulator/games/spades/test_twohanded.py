"""Two-handed Spades (preset ``twohanded``: seats=2, each alone; docs/rules.md "Two-handed Spades").

Hand-scored examples (worked by hand from the rules) through the engine and the plain-Python reference; the
flags that make no sense with two refused; whole engine runs under several flag sets replayed by the reference
(the stock from the deal stream, each hand and discard pile derived from the draw record), with corruption tests;
information hygiene of the draw (the opponent's cards and the stock's order changed, what the seat has seen
fixed: identical policy inputs); the kernel refuses an illegal draw; the deal law of the draw. The step API (``SpadesState``) with the draw:
the kernel's runs replayed through it row for row, and the same attack on its observations.
"""
from __future__ import annotations

import math
import random
from types import SimpleNamespace

import numpy as np
import pytest
import reference_spades as ref
from cli_exit import run_main
from variant_runs import VariantRuns

from tricksim.simulator import engine
from tricksim.simulator.errors import IllegalAction, RulesError
from tricksim.simulator.games.spades import kernel, phases
from tricksim.simulator.games.spades.policy import V_DRAW_CARD, V_PASSED, VIEW_SIZE
from tricksim.simulator.games.spades.rules import PRESETS, build_rules
from tricksim.simulator.games.spades.state import BID_0, DISCARD, KEEP, Phase, SpadesState
from tricksim.strategies.registry import parse_spec

TWO = PRESETS["twohanded"]


@pytest.fixture(params=["engine", "reference"])
def impl(request):
    return (kernel.score_hand, kernel.game_end) if request.param == "engine" else (ref.score_hand, ref.game_end)


def _score(impl, rules, bids, tricks, bags_before=(0, 0)):
    scores, bags = impl[0](rules, bids, (0, 0), tricks, bags_before)
    return tuple(int(x) for x in scores), tuple(int(x) for x in bags)


# ----------------------------------------------------------------- hand-scored examples (cardems values: 10 a
# trick bid, bag +1, Nil ±100, 10 bags cost 100 and carry the rest); 13 tricks a hand, each player alone
def test_two_made_bids(impl):
    # bids 5, 7; tricks 6, 7: seat 0: 50 + 1 overtrick = 51, 1 bag; seat 1: exactly 7: 70
    assert _score(impl, TWO, (5, 7), (6, 7)) == ((51, 70), (1, 0))


def test_a_failed_nil_and_a_set(impl):
    # bids Nil, 13; tricks 1, 12: seat 0: Nil failed -100, its trick a bag +1: -99, 1 bag; seat 1: 12 < 13: -130
    assert _score(impl, TWO, (0, 13), (1, 12)) == ((-99, -130), (1, 0))


def test_bag_penalty_of_one_player(impl):
    # bags before 8, 0; bids 4, 6; tricks 7, 6: seat 0: 40 + 3 = 43, bags 11: -100, 1 carried: -57; seat 1: 60
    assert _score(impl, TWO, (4, 6), (7, 6), (8, 0)) == ((-57, 60), (1, 0))


def test_game_end_of_two(impl):
    end = impl[1]
    assert tuple(end(TWO, 510, 480)[:3]) == (True, 0, "target")
    assert tuple(end(TWO, 500, 500)[:3]) == (False, -1, "")  # a tie at the target plays on
    assert tuple(end(TWO, 499, -50)[:3]) == (False, -1, "")
    mercy = build_rules("twohanded", ["mercy=-200"])
    assert tuple(end(mercy, -210, 40)[:3]) == (True, 1, "mercy")


# ----------------------------------------------------------------- the rules
def test_preset_values():
    assert (TWO.seats, TWO.partnerships, TWO.tricks, TWO.sides, TWO.nil, TWO.blind_nil, TWO.target) == (
        2, False, 13, 2, True, False, 500)


@pytest.mark.parametrize("overrides, match", [
    (["blind_nil=true"], "blind_nil=true with seats=2"),
    (["first_lead=two_of_clubs"], "first_lead=two_of_clubs with seats=2"),
    (["three_removes=2c"], "three_removes=2c with seats=2"),
    (["seats=4"], "set by the preset"),
    (["partnerships=true"], "set by the preset"),
])
def test_flags_refused(overrides, match):
    with pytest.raises(RulesError, match=match):
        build_rules("twohanded", overrides)


def test_seats_two_only_from_the_preset():
    with pytest.raises(RulesError, match="twohanded"):
        build_rules("cardems", ["seats=2"])


# ----------------------------------------------------------------- whole runs through the reference
RUNS = {
    "twohanded": ("twohanded", ()),
    "mercy_reset_zero": ("twohanded", ("mercy=-200", "bag_overflow=reset", "target=300", "zero_bid=zero")),
    "deuce_deuce_unbroken": ("twohanded", ("deck=joker_deuce_deuce", "breaking=false", "nil_tricks=contract",
                                           "forced_spade_lead_breaks=true")),
    "whiz": ("twohanded", ("bid_rule=whiz",)),
}
RANDOM = "random:nil_prob=0.2,bid_p=0.1"  # bids Binomial(13, 0.2) at two players: zero bids occur
STRATEGIES = (RANDOM, "simple", "heuristic", "mixed")
# simple's own kernel at this table size costs minutes of compile in a fresh install (docs/performance.md P70):
# its runs are in the slow suite; random, heuristic and mixed seats (simple among them) stay quick
STRATEGY_PARAMS = tuple(pytest.param(s, marks=pytest.mark.slow) if s == "simple" else s for s in STRATEGIES)
QUICK = tuple(s for s in STRATEGIES if s != "simple")


VARIANT = VariantRuns(RUNS, STRATEGIES, seats=2, mixed_seats=("heuristic", RANDOM), seed_base=700,
                      counts={"hands": (150, 1), "games": (6, 40)})


@pytest.mark.parametrize("name", list(RUNS))
@pytest.mark.parametrize("strategy", STRATEGY_PARAMS)
@pytest.mark.parametrize("mode", ["hands", "games"])
def test_runs_replay(name, strategy, mode):
    stats = VARIANT.replayed(name, strategy, mode)
    assert stats["players_alone"] == 2 * stats["hands"] and stats["draw_turns"] == 26 * stats["hands"]


def test_runs_exercise_the_rules():
    total = VARIANT.exercised(QUICK)
    for what in ("nil_failed", "sets", "bag_penalties", "zero_bids", "whiz_bids", "jokers_played",
                 "end_target", "forced_spade_leads", "spade_leads_before_broken", "draw_kept_top"):
        assert total.get(what, 0) > 0, what
    assert 0 < total["draw_kept_top"] < total["draw_turns"]  # both choices made


@pytest.mark.parametrize("strategy", [s for s in STRATEGY_PARAMS if s != "mixed"])
def test_draw_choices_of_the_players(strategy):
    """What each player keeps, from the reference's derivation of the hands: random keeps the card shown half the
    time; simple and heuristic keep spades (more than the 13 / 52 of a card taken blind) and discard low cards."""
    stats = VARIANT.replayed("twohanded", strategy, "hands")
    kept_top = stats["draw_kept_top"] / stats["draw_turns"]
    spade_share = stats["draw_spades_kept"] / (stats["draw_spades_kept"] + stats["draw_spades_discarded"])
    if strategy == RANDOM:
        assert 0.45 < kept_top < 0.55 and 0.4 < spade_share < 0.6, (kept_top, spade_share)
    else:
        assert spade_share > 0.65, (strategy, spade_share)  # a kept top spade: ~0.5 + 0.5 x P(top thrown)


def test_run_columns_are_two_seats():
    _rules, _seed, _limit, _count, hands, games = VARIANT.run("twohanded", "heuristic", "games")
    names = set(hands.column_names)
    assert {"drawn", "dealt_1", "bid_1", "tricks_1", "score_1", "bags_1", "total_1", "strategy_1"} <= names
    assert not {"dealt_2", "bid_2", "tricks_2", "score_2", "strategy_2"} & names
    assert hands.schema.field("plays").type.list_size == 26
    assert set(games.column_names) >= {"total_0", "total_1"} and "total_2" not in games.column_names
    dealt = [hands.column(f"dealt_{s}").to_numpy() for s in range(2)]
    assert all(int(m).bit_count() == 13 for d in dealt for m in d) and not (dealt[0] & dealt[1]).any()
    assert (hands.column("tricks_0").to_numpy() + hands.column("tricks_1").to_numpy() == 13).all()


def test_spades_drawn_follow_the_hypergeometric_law():
    """The deal law of the draw. ``random`` keeps or discards each card shown by a coin of its own stream, which
    does not depend on the stock (information hygiene), so the positions of the stock a seat keeps are independent of
    the shuffle, and each seat's 13 cards are a uniform 13-card subset of the 52: its spades follow
    hypergeometric(52, 13, 13). Chi-square over 20,000 hands (independent deals) for each seat, the tail from 8
    spades pooled (expected about 26), against the 0.1 % critical value with 8 degrees of freedom (26.12)."""
    cfg = engine.RunConfig(rules=TWO, seats=(parse_spec("random"), parse_spec("random")), seed=2027, mode="hands",
                           count=20_000)
    hands = engine.run_to_tables(cfg)["hands"]
    spade_mask = sum(1 << c for c in range(39, 52))
    law = np.array([math.comb(13, k) * math.comb(39, 13 - k) / math.comb(52, 13) for k in range(14)])
    for seat in range(2):
        dealt = hands.column(f"dealt_{seat}").to_numpy()
        counts = np.bincount([(int(h) & spade_mask).bit_count() for h in dealt], minlength=14)
        obs = np.concatenate([counts[:8], [counts[8:].sum()]])
        exp = np.concatenate([law[:8], [law[8:].sum()]]) * len(dealt)
        assert exp.min() > 5
        chi2 = float(((obs - exp) ** 2 / exp).sum())
        assert chi2 < 26.12, (seat, chi2, obs, exp.round(1))


# ----------------------------------------------------------------- corruption: the reference refuses each
def test_detects_a_flipped_draw_decision():
    rows = VARIANT.rows()
    rows[4]["drawn"] ^= 1 << 7  # turn 7: the other card of the pair kept
    VARIANT.caught(r"hand 4.*dealt_", rows)


def test_detects_a_draw_record_beyond_the_turns():
    rows = VARIANT.rows()
    rows[2]["drawn"] |= 1 << 26
    VARIANT.caught(r"bits beyond the 26 turns", rows)


def test_detects_a_discarded_card_in_a_hand():
    rows = VARIANT.rows()
    r = rows[3]
    hands, discards = ref.draw_hands(TWO, VARIANT.run("twohanded", "heuristic", "hands")[1], r["game_id"], 0,
                                     r["dealer"], r["drawn"])
    out, back = min(hands[0]), min(discards[0])  # seat 0 swaps a kept card for one it discarded
    r["dealt_0"] = ref.mask_from(hands[0] - {out} | {back})
    VARIANT.caught(r"hand 3.*dealt_0", rows)


def test_detects_a_discarded_card_played():
    rows = VARIANT.rows()
    r = rows[6]
    _hands, discards = ref.draw_hands(TWO, VARIANT.run("twohanded", "heuristic", "hands")[1], r["game_id"], 0,
                                      r["dealer"], r["drawn"])
    leader = r["first_leader"]
    r["plays"][0] = min(discards[leader])  # the first lead: a card the leader discarded in the draw
    VARIANT.caught(r"hand 6.*trick 0, card 0 .*illegal: seat .* does not hold it", rows)


def test_detects_a_missing_draw_record():
    rows = VARIANT.rows()
    for r in rows:
        del r["drawn"]
    with pytest.raises(ref.ReplayError, match="without its draw record"):
        ref.replay(TWO, VARIANT.run("twohanded", "heuristic", "hands")[1], "hands", 1, rows, count=len(rows))


def test_detects_a_wrong_dealer_rotation_and_score():
    rows = VARIANT.run("twohanded", "heuristic", "games")[4].to_pylist()
    games = VARIANT.run("twohanded", "heuristic", "games")[5].to_pylist()
    second = next(r for r in rows if r["hand_no"] == 1)
    second["dealer"] ^= 1  # the same player deals twice
    VARIANT.caught(r"dealer = ", rows, strategy="heuristic", mode="games", game_rows=games)
    rows = VARIANT.run("twohanded", "heuristic", "games")[4].to_pylist()
    rows[0]["score_1"] += 10
    VARIANT.caught(r"score_1", rows, strategy="heuristic", mode="games", game_rows=games)


def test_detects_a_third_seat_column():
    rows = VARIANT.rows()
    for r in rows:
        r["dealt_2"] = 0
    with pytest.raises(ref.ReplayError, match="column dealt_2 in a row of 2 players"):
        ref.replay(TWO, VARIANT.run("twohanded", "heuristic", "hands")[1], "hands", 1, rows, count=len(rows))


# ----------------------------------------------------------------- the draw: information hygiene, illegal answers
DRAW = getattr(kernel._draw, "py_func", kernel._draw)  # plain Python: the compiled one, or itself without the JIT


def _draw_inputs(strategy, stock, dealer=1):
    """Run the kernel's draw (plain Python, on the compiled phases and policies) over ``stock``; returns each
    seat's policy inputs at each of its turns (hand, the whole view, its random stream) and the hands."""
    fn = parse_spec(strategy).functions[2]  # the exchange policy, which takes the draw decision
    seen = {0: [], 1: []}

    def asked(seat, hand, view, params, rng):
        seen[int(seat)].append((int(hand), view.copy(), rng.copy()))
        return fn(seat, hand, view, params, rng)

    rules = TWO.to_kernel()
    view, hands, discards, error = np.zeros(VIEW_SIZE, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64), \
        np.zeros(4, np.int64)
    phases.start_view(rules, view, dealer, 0, np.zeros(4, np.int64), np.zeros(4, np.int64), (1 << 52) - 1)
    streams = np.zeros((5, 1), np.uint64)
    streams[:4, 0] = [11, 22, 33, 44]
    params = np.stack([parse_spec(strategy).params] * 4)
    drawn = DRAW((asked,) * 4, params, dealer, 52, np.array(stock, np.int64), hands, view, streams,
                                 discards, error)
    return seen, drawn, hands, discards, error


@pytest.mark.parametrize("strategy", ["random", "simple", "heuristic"])
def test_draw_sees_only_what_the_seat_knows(strategy):
    """Seat 0 (the non-dealer) draws at even turns, from stock positions 4k and 4k + 1. Shuffling the cards of the
    other positions (the opponent's turns: its hand, its discards and the stock's order) leaves every input of
    seat 0's draw decisions as it was: its hand, the view (its discards, the card shown) and its stream."""
    rng = np.random.default_rng(5)
    stock = list(rng.permutation(52))
    other = [p for p in range(52) if p % 4 >= 2]
    changed = list(stock)
    for p, c in zip(other, rng.permutation([stock[p] for p in other])):
        changed[p] = c
    assert changed != stock
    a, _, hands_a, discards_a, _ = _draw_inputs(strategy, stock)
    b, _, hands_b, discards_b, _ = _draw_inputs(strategy, changed)
    assert len(a[0]) == len(b[0]) == 13
    for (hand_a, view_a, rng_a), (hand_b, view_b, rng_b) in zip(a[0], b[0]):
        assert hand_a == hand_b and (view_a == view_b).all() and (rng_a == rng_b).all()
    assert hands_a[0] == hands_b[0] and discards_a[0] == discards_b[0]
    assert hands_a[1] != hands_b[1] or discards_a[1] != discards_b[1]  # the opponent's did change
    # what the seat was shown: the card on top, its own discards so far, never a card of the other's turns
    for k, (_hand, view, _rng) in enumerate(a[0]):
        assert view[V_DRAW_CARD] == stock[4 * k]
        assert all(stock.index(c) % 4 < 2 for c in ref.cards_in(view[V_PASSED]))


def test_an_illegal_draw_is_refused():
    """A policy answering neither the card shown's bit nor 0 stops the draw with ERR_DRAW, nothing moved."""
    def bad(seat, hand, view, params, rng):
        return np.int64(3)  # two cards, neither of them necessarily the one shown

    rules = TWO.to_kernel()
    view, hands, discards, error = (np.zeros(VIEW_SIZE, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64),
                                    np.zeros(4, np.int64))
    phases.start_view(rules, view, 0, 0, np.zeros(4, np.int64), np.zeros(4, np.int64), (1 << 52) - 1)
    streams = np.zeros((5, 1), np.uint64)
    drawn = DRAW((bad,) * 4, np.zeros((4, 1)), 0, 52, np.arange(52, dtype=np.int64), hands, view,
                                 streams, discards, error)
    assert drawn == -1 and error[0] == kernel.ERR_DRAW and error[2] == 1 and error[3] == 3
    assert hands.sum() == 0 and discards.sum() == 0


def test_the_draw_follows_the_record():
    """The kernel's draw on a known stock: every decision moves the pair of cards as the rules say."""
    stock = list(range(52))  # top card 0
    _seen, drawn, hands, discards, _ = _draw_inputs("simple", stock, dealer=0)
    for i in range(26):
        seat = (1 + i) % 2  # dealer 0: seat 1 draws first
        top, second = stock[2 * i], stock[2 * i + 1]
        kept, thrown = (top, second) if (drawn >> i) & 1 else (second, top)
        assert (hands[seat] >> kept) & 1 and (discards[seat] >> thrown) & 1
    assert int(hands[0]).bit_count() == int(hands[1]).bit_count() == 13
    # simple keeps a spade (39..51) or a queen, king or ace (ranks 10..12) when shown one
    for i in range(26):
        top = stock[2 * i]
        assert bool((drawn >> i) & 1) == (top >= 39 or top % 13 >= 10)


def test_pimc_refused_in_one_line():
    with pytest.raises(engine.RunError, match="needs partnerships=true"):
        engine.RunConfig(rules=TWO, seats=tuple(parse_spec("pimc") for _ in range(2)), seed=0, mode="hands", count=1)


def test_three_strategies_refused():
    with pytest.raises(engine.RunError, match="need 2 seat strategies, got 3"):
        engine.RunConfig(rules=TWO, seats=tuple(parse_spec("simple") for _ in range(3)), seed=0, mode="hands", count=1)


# ----------------------------------------------------------------- the command line
def test_cli_summary_and_one_line_refusals(tmp_path, capsys):
    def run(*args):
        return run_main(list(args), capsys)

    out = tmp_path / "run"
    code, text, _ = run("simulate", "spades", "--preset", "twohanded", "--hands", "60", "--seed", "3",
                        "--strategy", "heuristic", "--out", str(out))
    assert code == 0 and "seat 1 = heuristic" in text and "seat 2" not in text, text
    # nil and report read the seat count from the run's rules (each player alone): per seat, clustered by hand
    code, text, err = run("nil", str(out))
    assert code == 0 and "its two seats together" in text and "(n=120)" in text, err
    code, _, err = run("report", str(out), "--out", str(tmp_path / "report"))
    page = (tmp_path / "report" / "summary.md").read_text()
    assert code == 0 and "contract made, seat 1" in page and "seat 2" not in page, err
    code, _, err = run("simulate", "spades", "--preset", "twohanded", "--hands", "5", "--strategy", "pimc",
                       "--out", str(tmp_path / "x"))
    assert code == 2 and err.count("\n") == 1 and "needs partnerships=true" in err


# ----------------------------------------------------------------- the step API with the draw
def _play_out(state, seats):
    """Every decision asked of the seat's strategy, as the kernel asks it."""
    while not state.is_terminal():
        decision = state.policy_action(seats[state.current_player()])
        for action in decision if isinstance(decision, list) else [decision]:
            state.apply(action)
    return state


def _row_of(state) -> dict:
    return {"dealer": state.dealer, "first_leader": state.first_leader, "drawn": state.drawn,
            **{f"dealt_{s}": int(state.dealt[s]) for s in range(2)},
            **{f"held_{s}": int(state.held[s]) for s in range(2)},
            **{f"bid_{s}": b for s, (b, _) in enumerate(state.bids())},
            **{f"blind_{s}": bool(bl) for s, (_, bl) in enumerate(state.bids())},
            **{f"tricks_{s}": int(state.tricks[s]) for s in range(2)},
            **{f"score_{s}": state.scores()[s] for s in range(2)},
            **{f"bags_{s}": int(state.bags[s]) for s in range(2)},
            **{f"total_{s}": int(state.totals[s]) for s in range(2)}, "plays": state.plays}


@pytest.mark.parametrize("name", ["twohanded", "whiz", "deuce_deuce_unbroken"])
@pytest.mark.parametrize("strategy", STRATEGY_PARAMS)
def test_step_api_plays_the_kernels_hands(name, strategy):
    """Hands mode: each hand of the kernel's run (the draw record, the hands after the draw, bids, every card,
    the score) played again through the step API, each decision asked of the seat's strategy."""
    rules, seed, _limit, _count, hands, _games = VARIANT.run(name, strategy, "hands")
    seats = VARIANT.seats(strategy)
    for want in hands.to_pylist()[:60]:
        got = _row_of(_play_out(SpadesState(rules, seed=seed, game_id=want["game_id"]), seats))
        assert got == {k: want[k] for k in got}, want["game_id"]


@pytest.mark.parametrize("name", ["twohanded", "mercy_reset_zero"])
@pytest.mark.parametrize("strategy", STRATEGY_PARAMS)
def test_step_api_plays_the_kernels_games(name, strategy):
    """Games mode: whole games, hand after hand (``next_hand``: the dealer alternates, the score carries)."""
    rules, seed, limit, _count, hands, games = VARIANT.run(name, strategy, "games")
    seats, rows, row = VARIANT.seats(strategy), hands.to_pylist(), 0
    for g, game in enumerate(games.to_pylist()):
        state = SpadesState(rules, seed=seed, game_id=g)
        while state is not None and state.hand_no < limit:
            _play_out(state, seats)
            want = rows[row]
            assert (want["game_id"], want["hand_no"]) == (g, state.hand_no)
            got = _row_of(state)
            assert got == {k: want[k] for k in got}, (g, state.hand_no)
            row += 1
            last, state = state, state.next_hand()
        assert last.hand_no + 1 == game["hands"]
        assert (int(last.totals[0]), int(last.totals[1])) == (game["total_0"], game["total_1"])
    assert row == len(rows)


def test_step_api_draw_actions_observation_and_log():
    s = SpadesState(TWO, seed=4, game_id=1)  # dealer 1: seat 0 draws first
    assert s.phase == Phase.DRAW and s.current_player() == 0 and s.legal_actions() == [KEEP, DISCARD]
    top, second = int(s.stock[0]), int(s.stock[1])
    assert s.observation(0).view[V_DRAW_CARD] == top and s.observation(1).view[V_DRAW_CARD] == -1
    assert s.observation(0).hand == s.observation(1).hand == 0
    with pytest.raises(IllegalAction, match=r"bid 3 \(57\) is not legal for seat 0 now: allowed keep, discard"):
        s.apply(BID_0 + 3)
    s.apply(DISCARD)  # seat 0 discards the card shown and keeps the next
    assert s.observation(0).hand == 1 << second and s.observation(0).view[V_PASSED] == 1 << top
    assert s.observation(1).view[V_PASSED] == 0 and s.current_player() == 1
    assert s.observation(1).view[V_DRAW_CARD] == int(s.stock[2]) and s.observation(0).view[V_DRAW_CARD] == -1
    s.apply(KEEP)  # seat 1 keeps the card shown, discards the next
    assert s.observation(1).hand == 1 << int(s.stock[2]) and s.observation(1).view[V_PASSED] == 1 << int(s.stock[3])
    rnd = random.Random(0)
    for _ in range(24):
        s.apply(rnd.choice(s.legal_actions()))
    assert s.phase == Phase.BID and s.current_player() == 0  # the non-dealer bids first
    assert [int(h).bit_count() for h in s.dealt[:2]] == [13, 13] and s.drawn & 3 == 2
    deck = (1 << 52) - 1
    piles = [int(p) for p in (s.hands[0], s.hands[1], s.passed[0], s.passed[1])]
    assert piles[0] | piles[1] | piles[2] | piles[3] == deck and [p.bit_count() for p in piles] == [13] * 4
    while not s.is_terminal():
        s.apply(rnd.choice(s.legal_actions()))
    assert len(s.events) == 26 + 2 + 26 and sum(s.tricks) == 13 and len(s.plays) == 26
    assert [e.phase for e in s.events[:26]] == [Phase.DRAW] * 26 and [e.seat for e in s.events[:4]] == [0, 1, 0, 1]
    assert sorted(s.plays) == sorted(c for h in s.held[:2] for c in ref.cards_in(h))


def test_step_api_refuses_an_illegal_draw_answer():
    bad = SimpleNamespace(functions=(None, None, lambda seat, hand, view, params, rng: np.int64(3), None),
                          params=np.zeros(1))
    s = SpadesState(TWO, seed=1)
    with pytest.raises(IllegalAction, match="the draw policy answered 3: neither 0 .discard. nor the bit of the card"):
        s.policy_action(bad)
    assert s.phase == Phase.DRAW and s.events == []


def _recording(strategy, log):
    """``strategy``'s seat policy whose every function call records its inputs (copies) into ``log``."""
    policy = parse_spec(strategy)

    def wrap(fn):
        def call(*args):
            log.append(tuple(np.array(a, copy=True) if isinstance(a, np.ndarray) else int(a) for a in args))
            return fn(*args)
        return call

    return SimpleNamespace(functions=tuple(wrap(f) for f in policy.functions), params=policy.params)


@pytest.mark.parametrize("strategy", ["random", "simple", "heuristic"])
def test_step_api_observation_hides_the_other_hand_and_the_stock(strategy):
    """The attack: in a copy of a hand, the stock order changed so that the opponent's hand holds other cards
    (each of its last cards played swapped, in the stock, with a card of the same suit it discarded), the same
    actions applied. Up to the opponent's first play of a swapped card everything public is the same, so
    ``observation(seat)`` and every input of the seat's strategy must be too: its hand, the view, its stream."""
    seat, other = 0, 1
    seats = (parse_spec(strategy), parse_spec("heuristic"))
    checked = 0
    for game in range(12):
        a = _play_out(SpadesState(TWO, seed=31, game_id=game), seats)
        late = [c for c in a.plays[-8:] if c in ref.cards_in(a.held[other])]  # the opponent's last cards played
        swaps = {}
        for x in late:
            same_suit = [y for y in ref.cards_in(a.passed[other]) if y // 13 == x // 13 and y not in swaps.values()]
            if same_suit:
                swaps[x] = same_suit[0]
        position = {int(c): p for p, c in enumerate(a.stock[:52])}
        if not swaps or any(position[c] < 2 for pair in swaps.items() for c in pair):
            continue
        b = SpadesState(TWO, seed=31, game_id=game)
        for x, y in swaps.items():
            b.stock[position[x]], b.stock[position[y]] = y, x
        log_a, log_b = [], []
        replay_a, replay_b = SpadesState(TWO, seed=31, game_id=game), b
        asked = 0
        for event in a.events:
            if event.phase == Phase.PLAY and event.seat == other and event.action in swaps:
                break  # the opponent shows a card it does not hold in b: public play differs from here on
            if event.seat == seat:
                obs_a, obs_b = replay_a.observation(seat), replay_b.observation(seat)
                assert obs_a.hand == obs_b.hand and (obs_a.view == obs_b.view).all(), (game, event)
                da = replay_a.policy_action(_recording(strategy, log_a))
                db = replay_b.policy_action(_recording(strategy, log_b))
                assert da == db == event.action, (game, event)
                asked += 1
            replay_a.apply(event.action)
            replay_b.apply(event.action)
        assert int(replay_a.hands[other]) != int(replay_b.hands[other])  # the opponent's hand did differ
        assert len(log_a) == len(log_b) > 0
        for args_a, args_b in zip(log_a, log_b):
            assert all(np.array_equal(x, y) for x, y in zip(args_a, args_b))
        checked += asked
    assert checked > 100
