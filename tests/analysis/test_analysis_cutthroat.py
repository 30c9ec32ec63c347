"""The per-seat studies of a cutthroat run (each player alone, issue #28): ``tricksim nil`` and ``tricksim report``
on a hand-built run whose every figure and interval is worked out by hand below (RULES.md 1.4 scored per
seat: a contract made 10·bid + overtricks, a Nil ±100 plus 1 a trick taken; the cutthroat rules of
docs/rules.md), and the team studies that still refuse it in one line."""
import numpy as np
import pytest
from analysis_helpers import alone_columns, row, write_run

from tricksim.analysis.games.spades.compare import duplicate_match_runs
from tricksim.analysis.games.spades.nil import nil_study
from tricksim.analysis.games.spades.report import collect
from tricksim.analysis.io import AnalysisError
from tricksim.analysis.report import build_report
from tricksim.simulator.games.spades.rules import PRESETS

# (game, hand): bids, tricks, the hand's score and the running bags after it, seat by seat (worked by hand)
HANDS = [
    # game 0, hand 0: seat 0 Nil made +100; 4 bid 5 taken 41 (1 bag); 3/4 -> 31 (1 bag) twice
    (0, 0, (0, 4, 3, 3), (0, 5, 4, 4), (100, 41, 31, 31), (0, 1, 1, 1)),
    # game 0, hand 1: seat 0 Nil failed with 1 trick -100 + 1 = -99 (1 bag); 3/3 -> 30; 3/2 -> -30; 4/7 -> 43 (3 bags)
    (0, 1, (0, 3, 3, 4), (1, 3, 2, 7), (-99, 30, -30, 43), (1, 1, 1, 4)),
    # game 1, hand 0: seats 0 and 1 Nil made +100 each; 5/6 -> 51; 5/7 -> 52
    (1, 0, (0, 0, 5, 5), (0, 0, 6, 7), (100, 100, 51, 52), (0, 0, 1, 2)),
    # game 1, hand 1: 2/3 -> 21; seat 1 Nil failed with 2 tricks -98 (2 bags); 4/4 -> 40 twice
    (1, 1, (2, 0, 4, 4), (3, 2, 4, 4), (21, -98, 40, 40), (1, 2, 1, 2)),
    # game 2, hand 0: 3/4 -> 31; 3/3 -> 30 three times
    (2, 0, (3, 3, 3, 3), (4, 3, 3, 3), (31, 30, 30, 30), (1, 0, 0, 0)),
]
# final totals: game 0 (1, 71, 1, 74), seat 3 wins; game 1 (121, 2, 91, 92), seat 0; game 2 (31, 30, 30, 30), seat 0
TOTALS = {0: (1, 71, 1, 74), 1: (121, 2, 91, 92), 2: (31, 30, 30, 30)}
Z = 1.959963984540054


def cutthroat_columns():
    return alone_columns(HANDS, TOTALS, seats=4, tricks=13, winners=[3, 0, 0], ends=["limit", "limit", "limit"])


@pytest.fixture
def cut_run(tmp_path):
    hands, games = cutthroat_columns()
    return write_run(tmp_path / "cut", hands, games, manifest={
        "preset": "cutthroat", "rules": PRESETS["cutthroat"].to_dict(), "seats": ["heuristic", "simple", "simple",
                                                                                  "simple"], "hand_limit": 2})


def wilson(k, n):
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * np.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return centre - half, centre + half


def test_nil_per_seat_clustered_by_game(cut_run):
    df = nil_study(cut_run, by="seat")
    s0, s1 = row(df, "Nil", "seat 0"), row(df, "Nil", "seat 1")
    assert (s0.seat_hands, s0.bids, s0.successes, s0.games) == (5, 3, 2, 3)
    assert (s1.seat_hands, s1.bids, s1.successes) == (5, 2, 1)
    # seat 1's two Nils are in one game: one cluster, so the effective size is 1 (Wilson k=0.5, n=1:
    # centre 0.5, half = z/(1+z²)·sqrt(0.25 + z²/4) = 0.404829·1.100166 = 0.445379), wider than the
    # independent Wilson(1, 2) [0.0945, 0.9055]
    assert (s1.lo, s1.hi) == pytest.approx((0.054621, 0.945379), abs=1e-6)
    # seat 0's bid rate: 3 of 5 seat-hands, per game (y, n) = (2, 2), (1, 2), (0, 1); r = 0.6,
    # Var = 3/2·(0.8² + 0.2² + 0.6²)/5² = 0.0624, deff = 0.0624/(0.24/5) = 1.3, n_eff = 5/1.3 = 3.846154:
    # Wilson at k = 2.307692, n = 3.846154: centre 1.099390/1.998779 = 0.550031,
    # half = 0.980580·sqrt(0.0624 + 0.064920) = 0.349890
    assert s0.bid_rate == pytest.approx(0.6)
    assert (s0.bid_lo, s0.bid_hi) == pytest.approx((0.200141, 0.899921), abs=1e-5)
    # seat 0's success: 2 of 3, per game (1, 2), (1, 1): Var = 2·((1/3)² + (1/3)²)/9 = 4/81 below the
    # binomial 6/81, deff floored at 1: the plain Wilson(2, 3)
    assert s0.rate == pytest.approx(2 / 3) and (s0.lo, s0.hi) == pytest.approx(wilson(2, 3))
    assert (s0.lo, s0.hi) == pytest.approx((0.207660, 0.938508), abs=1e-6)
    assert row(df, "Nil", "seat 2").bids == row(df, "Nil", "seat 3").bids == 0
    every = row(nil_study(cut_run), "Nil", "all")
    assert (every.seat_hands, every.bids, every.successes, every.games) == (20, 5, 3, 3)


def test_nil_by_score_compares_a_seat_with_the_best_other(cut_run):
    # before game 0 hand 1 seat 0 has 100 and the best other 41: ahead by 59; every other Nil is bid at a lead
    # of 0 (game 1: seat 0 before hand 0; seat 1 before hand 1 has 100 and so has seat 0)
    df = nil_study(cut_run, by="score", score_margin=50)
    ahead, close = row(df, "Nil", "ahead ≥50"), row(df, "Nil", "close")
    assert (ahead.bids, ahead.successes) == (1, 0) and (close.bids, close.successes) == (4, 3)


def test_report_per_seat_figures_worked_by_hand(cut_run):
    st = collect(cut_run, batch_rows=2)
    assert (st.sides, st.n_hands, st.n_games) == (4, 5, 3)
    # hand scores a seat (the HANDS column of each seat): sums 153, 103, 122, 196 over 5 hands
    assert [st.score[s].estimate().value for s in range(4)] == pytest.approx([30.6, 20.6, 24.4, 39.2])
    # seat 3 clustered by game: sums (74, 92, 30) over (2, 2, 1) hands, r = 39.2,
    # Var = 3/2·((74 − 78.4)² + (92 − 78.4)² + (30 − 39.2)²)/5² = 3/2·288.96/25 = 17.3376,
    # half = t(0.975, 2 df) 4.302653 · 4.163844 = 17.915576
    e = st.score[3].estimate()
    assert (e.lo, e.hi, e.n, e.clusters) == (pytest.approx(21.284424, abs=1e-5), pytest.approx(57.115576, abs=1e-5),
                                             5, 3)
    # contracts: a Nil hand has none; seat 2 was set once (3 bid, 2 taken)
    assert [(st.made[s].k, st.made[s].n) for s in range(4)] == [(2, 2), (3, 3), (4, 5), (5, 5)]
    # bags taken: overtricks and a failed Nil's tricks
    assert [st.bags_hand[s].k for s in range(4)] == [3, 3, 2, 6]
    assert [st.bags_game[s].mean for s in range(4)] == pytest.approx([1, 1, 2 / 3, 2])
    assert all(st.penalties_game[s].mean == 0 for s in range(4)) and st.approximate_bag_games == 0
    # Nil: 5 bids in 20 seat-hands, 3 made
    assert (st.nil_bid[0].k, st.nil_bid[0].n, st.nil_ok[0].k, st.nil_ok[0].n) == (5, 20, 3, 5)
    # games: seat 3 won game 0, seat 0 games 1 and 2; seat 0's final margin over the best other seat
    # (1 − 74, 121 − 92, 31 − 30): mean −43/3
    assert st.wins == [2, 0, 0, 1] and st.ties == 0
    assert st.margin.mean == pytest.approx(-43 / 3) and st.length.mean == pytest.approx(5 / 3)
    assert [st.totals[s].mean for s in range(4)] == pytest.approx([51, 103 / 3, 122 / 3, 196 / 3])
    assert st.ends == {"limit": 3}
    # seat 0's lead after the hands that do not decide a game: 100 − 41 = 59 (game 0, lost), 100 − 100 = 0
    # (game 1, won)
    curve = st.win_curve().set_index("label")
    assert (curve.loc["50 to 99", "n"], curve.loc["50 to 99", "wins"]) == (1, 0)
    assert (curve.loc["0 to 49", "n"], curve.loc["0 to 49", "wins"]) == (1, 1)
    assert curve["n"].sum() == 2


def test_the_report_page_names_seats_not_teams(cut_run, tmp_path):
    res = build_report([cut_run], tmp_path / "out")
    key = res.tables["key"].set_index("metric")
    for s in range(4):
        assert f"hand score, seat {s}" in key.index and f"seat {s} wins" in key.index
    assert not any("team" in m for m in key.index)
    assert key.loc["seat 0 wins", "cut"].startswith("66.7 %") and "(n=3)" in key.loc["seat 0 wins", "cut"]
    assert "final margin (seat 0 − the best other seat)" in key.index
    md = res.markdown.read_text(encoding="utf-8")
    assert "| seat 0 = heuristic; seat 1 = simple; seat 2 = simple; seat 3 = simple |" in md
    assert "![Distribution of hand scores per player](hand_scores.png)" in md and "seat 0 lead after hand" in md


def test_a_duplicate_match_of_teams_refuses_a_cutthroat_run_in_one_line(cut_run):
    with pytest.raises(AnalysisError, match=r"a duplicate match compares teams, and .* is cutthroat \(preset "
                                            r"cutthroat: each player alone\); its duplicate design is a rotation") as e:
        duplicate_match_runs(cut_run, cut_run)
    assert "\n" not in str(e.value)
