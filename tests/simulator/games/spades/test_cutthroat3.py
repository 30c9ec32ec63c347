"""Three-player cutthroat Spades (preset ``cutthroat3``: seats=3, each alone; docs/rules.md "Cutthroat for three").

Hand-scored examples (worked by hand from the rules, the working in the comments) run through the engine
(``kernel.score_hand`` / ``kernel.game_end``) and the plain-Python reference; the exact deal law of the
51-card deck (each seat's spades hypergeometric, chi-square); whole engine runs under several flags replayed
by the reference, with corruption tests; the rules that need four seats or a partner refused; the step API
plays a hand the kernel's way.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
import reference_spades as ref
from cli_exit import run_main
from variant_runs import VariantRuns

from tricksim.simulator import engine
from tricksim.simulator.errors import RulesError
from tricksim.simulator.games.spades import kernel
from tricksim.simulator.games.spades.rules import PRESETS, build_rules
from tricksim.simulator.games.spades.state import SpadesState
from tricksim.strategies.registry import parse_spec

CUT3 = PRESETS["cutthroat3"]


@pytest.fixture(params=["engine", "reference"])
def impl(request):
    return (kernel.score_hand, kernel.game_end) if request.param == "engine" else (ref.score_hand, ref.game_end)


def _score(impl, rules, bids, tricks, bags_before=(0, 0, 0), blind=(0, 0, 0)):
    scores, bags = impl[0](rules, bids, blind, tricks, bags_before)
    return tuple(int(x) for x in scores), tuple(int(x) for x in bags)


# ----------------------------------------------------------------- hand-scored examples (cardems values:
# 10 a trick bid, bag +1, Nil ±100, 10 bags cost 100 and carry the rest); 17 tricks a hand
def test_three_made_bids(impl):
    # bids 5, 6, 4; tricks 7, 6, 4 (17)
    # seat 0: 7 >= 5: 50 + 2 overtricks = 52, 2 bags; seat 1: exactly 6: 60; seat 2: exactly 4: 40
    assert _score(impl, CUT3, (5, 6, 4), (7, 6, 4)) == ((52, 60, 40), (2, 0, 0))


def test_a_failed_nil_and_a_set(impl):
    # bids Nil, 8, 9; tricks 1, 9, 7 (17)
    # seat 0: Nil failed: -100, its trick a bag (+1): -99, 1 bag; seat 1: 9 >= 8: 80 + 1 = 81, 1 bag
    # seat 2: 7 < 9: set, -90, no bag
    assert _score(impl, CUT3, (0, 8, 9), (1, 9, 7)) == ((-99, 81, -90), (1, 1, 0))


def test_a_bid_of_every_trick(impl):
    # bids 17, Nil, Nil; tricks 17, 0, 0: a bid above 13 exists with three players
    # seat 0: 170; seats 1, 2: Nil made, +100 each
    assert _score(impl, CUT3, (17, 0, 0), (17, 0, 0)) == ((170, 100, 100), (0, 0, 0))


def test_bag_penalties_per_player(impl):
    # bags before 9, 0, 8; bids 3, 5, 4; tricks 5, 6, 6 (17)
    # seat 0: 30 + 2 = 32, bags 9 + 2 = 11 >= 10: -100, 1 carried: -68
    # seat 1: 50 + 1 = 51, 1 bag; seat 2: 40 + 2 = 42, bags 10: -100, 0 left: -58
    assert _score(impl, CUT3, (3, 5, 4), (5, 6, 6), (9, 0, 8)) == ((-68, 51, -58), (1, 1, 0))


def test_game_end_of_three(impl):
    end = impl[1]
    # seat 0 reaches 500 and leads alone: seat 0 wins
    assert tuple(end(CUT3, 510, 480, 505)[:3]) == (True, 0, "target")
    # two players share the lead at the target: play on
    assert tuple(end(CUT3, 500, 500, 300)[:3]) == (False, -1, "")
    # nobody at the target: play on
    assert tuple(end(CUT3, 499, 100, -50)[:3]) == (False, -1, "")
    # mercy: seat 2 at -200 or below ends the game, seat 1 leads alone
    mercy = build_rules("cutthroat3", ["mercy=-200"])
    assert tuple(end(mercy, 100, 150, -200)[:3]) == (True, 1, "mercy")


# ----------------------------------------------------------------- the deck and its deal
def test_the_deck_of_three():
    assert len(kernel.deck_template(CUT3)) == 51 and 0 not in kernel.deck_template(CUT3)  # 2♣ out
    assert ref.deck_for(CUT3) == list(kernel.deck_template(CUT3))
    # a joker deck: its two 2s out (auto 2♥ 2♦), then the 2♣: 54 - 3 = 51
    jokers = build_rules("cutthroat3", ["deck=joker_ace"])
    assert set(range(52)) - set(kernel.deck_template(jokers)) == {0, 13, 26}
    assert len(kernel.deck_template(jokers)) == 51 and {52, 53} <= set(kernel.deck_template(jokers))
    # a joker deck that removed the 2♣ already drops the 2♥ (auto), or the card named
    assert 26 not in kernel.deck_template(build_rules("cutthroat3", ["deck=joker_ace", "joker_removes=2c2d"]))
    assert 1 not in kernel.deck_template(build_rules("cutthroat3", ["deck=joker_deuce_deuce"]))  # the 3♣
    assert 13 not in kernel.deck_template(build_rules("cutthroat3", ["three_removes=2d"]))
    for rules in (jokers, build_rules("cutthroat3", ["deck=joker_deuce_deuce"]),
                  build_rules("cutthroat3", ["three_removes=2h"])):
        assert ref.deck_for(rules) == list(kernel.deck_template(rules))


@pytest.mark.parametrize("overrides, match", [
    (["three_removes=2h"], None),
    (["first_lead=two_of_clubs"], "the 2♣ leaves the deck"),
    (["deck=joker_ace", "joker_removes=2c2d", "three_removes=2c"], "allowed three_removes=auto"),
    (["deck=joker_deuce_deuce", "three_removes=2d"], "or is a spade"),
    (["min_team_bid=4"], "there are no teams"),
    (["bid_rule=suicide"], "Suicide is a rule of partnerships"),
])
def test_flags_checked(overrides, match):
    if match is None:
        build_rules("cutthroat3", overrides)
    else:
        with pytest.raises(RulesError, match=match):
            build_rules("cutthroat3", overrides)


def test_seats_and_the_removed_card_are_preset_data():
    with pytest.raises(RulesError, match="set by the preset, never overridden.*cutthroat3"):
        build_rules("cardems", ["seats=3"])
    with pytest.raises(RulesError, match="three_removes=2h with seats=4"):
        build_rules("cutthroat", ["three_removes=2h"])
    # four-player rules record nothing new; three-player rules record both
    assert "seats" not in PRESETS["cardems"].to_dict() and "three_removes" not in PRESETS["cutthroat"].to_dict()
    assert CUT3.to_dict()["seats"] == 3 and CUT3.to_dict()["three_removes"] == "auto"
    assert CUT3.sides == 3 and CUT3.tricks == 17


def test_deal_is_seventeen_cards_each():
    for game in range(20):
        st = SpadesState(CUT3, seed=5, game_id=game)
        hands = [int(h) for h in st.dealt]
        assert hands[3] == 0 and [h.bit_count() for h in hands[:3]] == [17, 17, 17]
        assert hands[0] | hands[1] | hands[2] == sum(1 << c for c in kernel.deck_template(CUT3))
        assert [ref.cards_in(h) for h in hands[:3]] == ref.deal(CUT3, 5, game, 0, st.dealer)


def _hypergeometric(k: int, total: int = 51, good: int = 13, drawn: int = 17) -> float:
    return math.comb(good, k) * math.comb(total - good, drawn - k) / math.comb(total, drawn)


def test_spades_per_hand_follow_the_hypergeometric_law():
    """Seat 0's spades in a 17-card hand of the 51-card deck (13 spades): hypergeometric(51, 13, 17).
    Chi-square over 20,000 hands (independent deals), the tails below 5 % pooled; the 0.1 % critical
    value of chi-square with the pooled bins' degrees of freedom (a false alarm one run in a thousand)."""
    cfg = engine.RunConfig(rules=CUT3, seats=tuple(parse_spec("random") for _ in range(3)), seed=2026,
                           mode="hands", count=20_000)
    hands = engine.run_to_tables(cfg)["hands"]
    spade_mask = sum(1 << c for c in range(39, 52))
    dealt = hands.column("dealt_0").to_numpy()
    counts = np.bincount([(int(h) & spade_mask).bit_count() for h in dealt], minlength=14)
    expected = np.array([_hypergeometric(k) for k in range(14)]) * len(dealt)
    lo, hi = 1, 8  # bins 0..1 and 8..13 pooled (each tail's expectation is above 5 % of a bin's minimum 5)
    obs = np.concatenate([[counts[:lo + 1].sum()], counts[lo + 1:hi], [counts[hi:].sum()]])
    exp = np.concatenate([[expected[:lo + 1].sum()], expected[lo + 1:hi], [expected[hi:].sum()]])
    assert exp.min() > 5
    chi2 = float(((obs - exp) ** 2 / exp).sum())
    # chi-square critical values at 0.1 %, by degrees of freedom (len(obs) - 1 = 7)
    assert len(obs) - 1 == 7 and chi2 < 24.32, (chi2, obs, exp.round(1))
    # every seat likewise holds 17 cards, the deck less the 2♣
    for s in range(3):
        assert all(int(h).bit_count() == 17 and not int(h) & 1 for h in hands.column(f"dealt_{s}").to_numpy())


# ----------------------------------------------------------------- whole runs through the reference
RUNS = {
    "cutthroat3": ("cutthroat3", ()),
    "blind_mercy_reset": ("cutthroat3", ("blind_nil=true", "mercy=-200", "bag_overflow=reset", "target=300")),
    "jokers_3c_zero": ("cutthroat3", ("deck=joker_ace", "joker_removes=2c2h", "three_removes=3c", "zero_bid=zero",
                                      "forced_spade_lead_breaks=true")),
    "deuce_deuce_contract": ("cutthroat3", ("deck=joker_deuce_deuce", "nil_tricks=contract",
                                            "big_bid_threshold=10", "breaking=false")),
    "whiz": ("cutthroat3", ("bid_rule=whiz",)),
}
RANDOM = "random:nil_prob=0.2,blind_nil_prob=0.3"
STRATEGIES = (RANDOM, "simple", "heuristic", "mixed")
# simple's own kernel at this table size costs minutes of compile in a fresh install (docs/performance.md P70):
# its runs are in the slow suite; random, heuristic and mixed seats (simple among them) stay quick
STRATEGY_PARAMS = tuple(pytest.param(s, marks=pytest.mark.slow) if s == "simple" else s for s in STRATEGIES)
QUICK = tuple(s for s in STRATEGIES if s != "simple")


VARIANT = VariantRuns(RUNS, STRATEGIES, seats=3, mixed_seats=("heuristic", "simple", RANDOM), seed_base=300,
                      counts={"hands": (200, 1), "games": (8, 40)})


@pytest.mark.parametrize("name", list(RUNS))
@pytest.mark.parametrize("strategy", STRATEGY_PARAMS)
@pytest.mark.parametrize("mode", ["hands", "games"])
def test_runs_replay(name, strategy, mode):
    stats = VARIANT.replayed(name, strategy, mode)
    assert stats["players_alone"] == 3 * stats["hands"]


def test_runs_exercise_the_rules():
    total = VARIANT.exercised(QUICK)
    for what in ("nil_made", "nil_failed", "blind_nil_bids", "sets", "bag_penalties", "zero_bids", "whiz_bids",
                 "jokers_played", "two_of_diamonds_as_spade", "end_target", "big_bids_made", "forced_spade_leads",
                 "spade_leads_before_broken"):
        assert total.get(what, 0) > 0, what


def test_run_columns_are_three_seats():
    _rules, _seed, _limit, _count, hands, games = VARIANT.run("cutthroat3", "heuristic", "games")
    names = set(hands.column_names)
    assert {"dealt_2", "bid_2", "tricks_2", "score_2", "bags_2", "total_2", "strategy_2"} <= names
    assert not {"dealt_3", "bid_3", "tricks_3", "score_3", "strategy_3"} & names
    assert hands.schema.field("plays").type.list_size == 51
    assert {"total_0", "total_1", "total_2"} <= set(games.column_names) and "total_3" not in games.column_names
    bids = np.stack([hands.column(f"bid_{s}").to_numpy() for s in range(3)])
    assert bids.max() <= 17 and (hands.column("tricks_0").to_numpy() + hands.column("tricks_1").to_numpy()
                                 + hands.column("tricks_2").to_numpy() == 17).all()


# ----------------------------------------------------------------- corruption: the reference refuses each
def test_detects_a_card_of_the_removed_two():
    rows = VARIANT.rows()
    r = rows[3]
    r["dealt_0"] = (r["dealt_0"] & ~(r["dealt_0"] & -r["dealt_0"])) | 1  # the 2♣ dealt in place of a card
    VARIANT.caught(r"hand 3.*dealt_0", rows)


def test_detects_a_renege():
    rows = VARIANT.rows()
    for i, r in enumerate(rows):
        plays = r["plays"]
        led, seat = plays[0], (r["first_leader"] + 1) % 3
        same = [c for c in ref.cards_in(r["held_" + str(seat)]) if ref.suit_of(c) == ref.suit_of(led)]
        if ref.suit_of(plays[1]) == ref.suit_of(led) and len(same) >= 1:
            other = [c for c in ref.cards_in(r["held_" + str(seat)]) if ref.suit_of(c) != ref.suit_of(led)
                     and c not in plays[:3]]
            if other:
                j = plays.index(other[0])
                plays[1], plays[j] = plays[j], plays[1]
                VARIANT.caught(rf"hand {i} .*trick 0, card 1 .*illegal", rows)
                return
    raise AssertionError("no hand to renege in")


def test_detects_a_trick_given_to_the_wrong_seat():
    rows = VARIANT.rows()
    r = rows[5]
    r["tricks_0"], r["tricks_1"] = r["tricks_0"] + 1, r["tricks_1"] - 1
    VARIANT.caught(r"hand 5.*tricks_0", rows)


def test_detects_a_bid_above_seventeen():
    rows = VARIANT.rows()
    rows[2]["bid_1"] = 18
    VARIANT.caught(r"hand 2.*bid_1=18.*a bid must be Nil or 1..17", rows)


def test_detects_a_wrong_dealer_rotation():
    rows = VARIANT.run("cutthroat3", "heuristic", "games")[4].to_pylist()
    games = VARIANT.run("cutthroat3", "heuristic", "games")[5].to_pylist()
    second = next(r for r in rows if r["hand_no"] == 1)
    second["dealer"] = (second["dealer"] + 1) % 3  # the seat after the right dealer deals
    VARIANT.caught(r"dealer = ", rows, strategy="heuristic", mode="games", game_rows=games)


def test_detects_a_wrong_score_and_total():
    rows = VARIANT.rows(mode="games", strategy="heuristic")
    games = VARIANT.run("cutthroat3", "heuristic", "games")[5].to_pylist()
    rows[0]["score_2"] += 10
    VARIANT.caught(r"score_2", rows, strategy="heuristic", mode="games", game_rows=games)
    rows = VARIANT.rows(mode="games", strategy="heuristic")
    games[0]["total_2"] += 1
    VARIANT.caught(r"total_2", rows, strategy="heuristic", mode="games", game_rows=games)


def test_detects_a_fourth_seat_column():
    with pytest.raises(ref.ReplayError, match="column dealt_3 in a row of 3 players"):
        rows = VARIANT.rows()
        for r in rows:
            r["dealt_3"] = 0
        ref.replay(CUT3, VARIANT.run("cutthroat3", "heuristic", "hands")[1], "hands", 1, rows, count=len(rows))


# ----------------------------------------------------------------- the step API plays the kernel's hands
def test_step_api_matches_the_kernel():
    rules, seed, _limit, _count, hands, _games = VARIANT.run("cutthroat3", "heuristic", "hands")
    policy = parse_spec("heuristic")
    for row in hands.to_pylist()[:10]:
        st = SpadesState(rules, seed=seed, game_id=row["game_id"])
        while not st.is_terminal():
            action = st.policy_action(policy)
            for a in action if isinstance(action, list) else [action]:
                st.apply(a)
        assert [b for b, _ in st.bids()] == [row[f"bid_{s}"] for s in range(3)]
        assert list(st.plays) == list(row["plays"])
        assert st.scores() == tuple(row[f"score_{s}"] for s in range(3))


def test_pimc_refused_in_one_line():
    with pytest.raises(engine.RunError, match="needs partnerships=true"):
        engine.RunConfig(rules=CUT3, seats=tuple(parse_spec("pimc") for _ in range(3)), seed=0, mode="hands",
                         count=1)


def test_four_strategies_refused():
    with pytest.raises(engine.RunError, match="need 3 seat strategies, got 4"):
        engine.RunConfig(rules=CUT3, seats=tuple(parse_spec("simple") for _ in range(4)), seed=0, mode="hands",
                         count=1)


# ----------------------------------------------------------------- the heuristic against random, in duplicate
def test_heuristic_beats_random_in_duplicate():
    """The same deals (one seed: a hand's cards depend on the game, the hand number and the seed only) played
    three times, the heuristic alone in seat 0, 1, then 2 against two ``random``: it wins far more than its
    fair third of the games. 3 x 30 games; a Wilson interval over the 90 games (each table's games are
    independent; the three tables share deals, which only makes the comparison fairer to the seats)."""
    from tricksim.analysis.stats import wilson_interval

    wins = 0
    for k in range(3):
        seats = tuple(parse_spec("heuristic" if s == k else "random") for s in range(3))
        cfg = engine.RunConfig(rules=CUT3, seats=seats, seed=77, mode="games", count=30, hand_limit=60)
        winners = engine.run_to_tables(cfg)["games"].column("winner").to_numpy()
        wins += int((winners == k).sum())
    low, _high = wilson_interval(wins, 90)
    assert low > 2 / 3, (wins, low)


# ----------------------------------------------------------------- the command line on a three-player run
def test_cli_summary_per_seat_and_one_line_refusals(tmp_path, capsys):
    def run(*args):
        return run_main(list(args), capsys)

    out = tmp_path / "run"
    code, text, _ = run("simulate", "spades", "--preset", "cutthroat3", "--hands", "60", "--seed", "3",
                        "--strategy", "heuristic", "--out", str(out))
    assert code == 0 and "seat 2 = heuristic" in text and "seat 3" not in text and "three seats clustered" in text
    # nil and report read the seat count from the run's rules (each player alone): per seat, clustered by hand
    code, text, err = run("nil", str(out))
    assert code == 0 and "its three seats together" in text and "(n=180)" in text, err
    code, _, err = run("report", str(out), "--out", str(tmp_path / "report"))
    page = (tmp_path / "report" / "summary.md").read_text()
    assert code == 0 and "contract made, seat 2" in page and "seat 3" not in page, err
    code, _, err = run("simulate", "spades", "--preset", "cutthroat3", "--hands", "5", "--strategy", "pimc",
                       "--out", str(tmp_path / "x"))
    assert code == 2 and err.count("\n") == 1 and "needs partnerships=true" in err
    code, _, err = run("simulate", "spades", "--preset", "cardems", "--rule", "seats=3", "--hands", "5",
                       "--out", str(tmp_path / "y"))
    assert code == 2 and "set by the preset" in err and "cutthroat3" in err
