import numpy as np
import pandas as pd
import pytest
from analysis_helpers import fake_games, hands_columns, write_run

from tricksim.analysis.io import AnalysisError
from tricksim.analysis.nil import FEATURES, format_nil_table, nil_study, plot_nil, save_nil_chart, save_table

TWO_SPADES = (1 << 39) | (1 << 40)            # 2♠ 3♠
FOUR_SPADES = TWO_SPADES | (1 << 50) | (1 << 51)  # + K♠ A♠


def nil_columns():
    """20 hands. Seat 0 bids Nil in hands 0-9 and takes no trick in 0-6 (7 of 10 succeed);
    seat 1 bids Blind Nil in hands 10-13 and succeeds in hand 10 only (1 of 4)."""
    n = 20
    c = hands_columns(n)
    c["bid_0"][:10] = 0
    c["bid_1"][10:14] = 0
    c["blind_1"][10:14] = True
    # seats 2 and 3 take 3 tricks each, so seats 0 + 1 share 7
    t0 = np.full(n, 4)
    t0[:10] = [0, 0, 0, 0, 0, 0, 0, 1, 1, 1]
    t1 = 7 - t0
    t1[10:14] = [0, 2, 1, 1]
    t0[10:14] = 7 - t1[10:14]
    c["tricks_0"], c["tricks_1"] = t0.astype(np.int8), t1.astype(np.int8)
    held = np.zeros(n, np.int64)
    held[:5] = TWO_SPADES
    held[5:10] = FOUR_SPADES
    c["held_0"] = held
    c["dealt_0"] = np.full(n, FOUR_SPADES)
    assert ((c["tricks_0"] + c["tricks_1"] + c["tricks_2"] + c["tricks_3"]) == 13).all()
    return c


@pytest.fixture
def nil_run(tmp_path):
    return write_run(tmp_path / "nil", nil_columns(), manifest={"seats": ["a", "b", "a", "b"], "preset": "classic"})


def row(df, kind, group):
    r = df[(df["kind"] == kind) & (df["group"] == group)]
    assert len(r) == 1, (kind, group, df)
    return r.iloc[0]


def test_overall_seven_of_ten(nil_run):
    df = nil_study(nil_run)
    nil = row(df, "Nil", "all")
    assert (nil.bids, nil.successes, nil.seat_hands) == (10, 7, 80)
    assert nil.rate == pytest.approx(0.7)
    # Wilson k=7, n=10, z=1.959964: center = (0.7 + z²/20)/(1 + z²/10) = 0.644493,
    # half = z/(1 + z²/10) * sqrt(0.021 + z²/400) = 0.247716
    assert nil.lo == pytest.approx(0.396778, abs=1e-6) and nil.hi == pytest.approx(0.892209, abs=1e-6)
    assert nil.bid_rate == pytest.approx(10 / 80)
    blind = row(df, "Blind Nil", "all")
    assert (blind.bids, blind.successes) == (4, 1) and blind.rate == pytest.approx(0.25)
    # Wilson k=1, n=4: center = (0.25 + z²/8)/(1 + z²/4) = 0.730182/1.960365 = 0.372473,
    # half = z/1.960365 * sqrt(0.046875 + z²/64) = 0.999796 * sqrt(0.106898) = 0.999796 * 0.326952 = 0.326885
    assert blind.lo == pytest.approx(0.045587, abs=1e-6) and blind.hi == pytest.approx(0.699358, abs=1e-6)
    text = format_nil_table(df)
    assert "70.0 % [39.7, 89.2] (n=10)" in text and "25.0 % [4.6, 69.9] (n=4)" in text


def test_by_seat_strategy_spades(nil_run):
    df = nil_study(nil_run, by="seat")
    assert row(df, "Nil", "seat 0").successes == 7 and row(df, "Nil", "seat 1").bids == 0
    assert row(df, "Blind Nil", "seat 1").bids == 4 and row(df, "Blind Nil", "seat 0").bids == 0
    assert np.isnan(row(df, "Blind Nil", "seat 0").rate)
    df = nil_study(nil_run, by="strategy")
    assert set(df["group"]) == {"a", "b"}
    a = row(df, "Nil", "a")
    assert (a.bids, a.successes, a.seat_hands) == (10, 7, 40)
    df = nil_study(nil_run, by="spades")
    two, four = row(df, "Nil", "2"), row(df, "Nil", "4")
    assert (two.bids, two.successes, four.bids, four.successes) == (5, 5, 5, 2)
    assert row(df, "Nil", "0").seat_hands == 80 - 10  # every other seat-hand holds no spade
    df = nil_study(nil_run, by="spades", hand="dealt")
    assert row(df, "Nil", "4").bids == 10
    df = nil_study(nil_run, by="high_spade")
    assert row(df, "Nil", "3").bids == 5 and row(df, "Nil", "A").bids == 5 and row(df, "Nil", "none").bids == 0
    df = nil_study(nil_run, by="score")
    assert set(df["group"]) == {"close"}
    df = nil_study(nil_run, by="position")
    assert df.groupby("kind")["bids"].sum().to_dict() == {"Nil": 10, "Blind Nil": 4}


def test_every_feature_runs_on_games(games_run):
    for by in FEATURES:
        df = nil_study(games_run, by=by)
        # the groups partition the bids: totals equal the ungrouped study
        total = nil_study(games_run)
        assert df.groupby("kind")["bids"].sum().to_dict() == dict(zip(total["kind"], total["bids"]))
        assert df.groupby("kind")["seat_hands"].sum().iloc[0] == total["seat_hands"].iloc[0]
    with pytest.raises(AnalysisError, match="unknown grouping 'nope'"):
        nil_study(games_run, by="nope")


def test_batches_and_files_do_not_change_results(tmp_path):
    hands, games = fake_games(15, seed=11, target=150)
    one = write_run(tmp_path / "one", hands, games, n_files=1)
    many = write_run(tmp_path / "many", hands, games, n_files=5)
    for by in (None, "spades", "score", "position"):
        a = nil_study(one, by=by)
        b = nil_study(many, by=by, batch_rows=17)
        pd.testing.assert_frame_equal(a, b)


def test_multiple_runs_group_by_preset_and_run(nil_run, games_run):
    df = nil_study([nil_run, games_run], by="preset")
    assert set(df["group"]) == {"classic", "cardems"}
    assert row(df, "Nil", "classic").bids == 10
    df = nil_study([nil_run, games_run], by="run")
    assert set(df["group"]) == {str(nil_run), str(games_run)}
    both = nil_study([nil_run, games_run])
    assert row(both, "Nil", "all").bids == 10 + row(nil_study(games_run), "Nil", "all").bids


def test_save_and_chart(nil_run, tmp_path):
    df = nil_study(nil_run, by="spades")
    csv = save_table(df, tmp_path / "out" / "nil.csv")
    back = pd.read_csv(csv)
    assert back["bids"].sum() == 14 and list(back.columns) == list(df.columns)
    pq_path = save_table(df, tmp_path / "nil.parquet")
    assert pd.read_parquet(pq_path)["successes"].sum() == 8
    with pytest.raises(AnalysisError, match="use .csv or .parquet"):
        save_table(df, tmp_path / "nil.xlsx")
    png = save_nil_chart(df, tmp_path / "nil.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    from matplotlib.figure import Figure

    ax = Figure().add_subplot()
    drawn = plot_nil(ax, df, min_bids=2)
    assert set(drawn["group"]) == {"0", "2", "4"} and drawn["x"].notna().all()
    assert ax.get_ylabel().startswith("success rate")


def test_no_nil_bids(tmp_path):
    p = write_run(tmp_path / "r", hands_columns(4))
    df = nil_study(p)
    assert len(df) == 0
    assert "no Nil bids in 16 seat-hands" in format_nil_table(df)
