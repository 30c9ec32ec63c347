import numpy as np
import pandas as pd
import pytest
from analysis_helpers import fake_games, hands_columns, row, write_run

from tricksim.analysis.games.spades.nil import (
    FEATURES,
    format_nil_table,
    nil_study,
    plot_nil,
    save_nil_chart,
    save_table,
)
from tricksim.analysis.io import AnalysisError

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
    df = nil_study(nil_run, by="spades", hand="held")
    two, four = row(df, "Nil", "2"), row(df, "Nil", "4")
    assert (two.bids, two.successes, four.bids, four.successes) == (5, 5, 5, 2)
    assert row(df, "Nil", "0").seat_hands == 80 - 10  # every other seat-hand holds no spade
    df = nil_study(nil_run, by="spades")  # the default: the hand as dealt, which every bid is made on
    assert df.attrs["hand"] == "dealt" and row(df, "Nil", "4").bids == 10 and "2" not in set(df["group"])
    df = nil_study(nil_run, by="high_spade", hand="held")
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
    df = nil_study(nil_run, by="spades", hand="held")
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
    df = nil_study(p)  # the rules allow Nil: its row is shown, with 0 bids
    assert list(df["kind"]) == ["Nil"] and (df["bids"].iloc[0], df["seat_hands"].iloc[0]) == (0, 16)
    q = write_run(tmp_path / "q", hands_columns(4), manifest={"rules": {"nil": False, "blind_nil": False}})
    df = nil_study(q)
    assert len(df) == 0
    assert "no Nil bids in 16 seat-hands" in format_nil_table(df)


def test_the_output_says_which_hand_and_how_the_intervals_are_made(nil_run, games_run, tmp_path):
    from matplotlib.figure import Figure

    dealt = format_nil_table(nil_study(nil_run, by="spades"))
    held = format_nil_table(nil_study(nil_run, by="spades", hand="held"))
    assert "hand as dealt (before any Blind Nil exchange" in dealt and "held after the Blind Nil exchange" in held
    assert "clustered by hand" in dealt.splitlines()[0]                        # a hands-mode run
    assert "clustered by game" in format_nil_table(nil_study(games_run)).splitlines()[0]
    assert "as dealt" not in format_nil_table(nil_study(nil_run, by="seat"))  # not a hand feature: not said
    for hand, words in (("dealt", "as dealt"), ("held", "held after the exchange")):
        ax = Figure().add_subplot()
        plot_nil(ax, nil_study(nil_run, by="spades", hand=hand))
        assert words in ax.get_xlabel() and words in ax.get_title()
        assert "clustered by hand" in ax.get_ylabel()
    with pytest.raises(AnalysisError, match="allowed dealt | held"):
        nil_study(nil_run, by="spades", hand="both")


def test_group_intervals_are_clustered_by_game(games_run):
    """Each group's bid rate (over seat-hands) and success rate (over bids): intervals from per-game sums."""
    import pyarrow.parquet as pq
    from analysis_helpers import clustered

    from tricksim.analysis.games.spades.features import spade_count

    h = pq.read_table(games_run / "hands").to_pandas()
    g = np.repeat(h["game_id"].to_numpy(), 4)
    bid = np.stack([h[f"bid_{s}"] for s in range(4)], axis=1).ravel()
    blind = np.stack([h[f"blind_{s}"] for s in range(4)], axis=1).ravel()
    made = np.stack([h[f"tricks_{s}"] == 0 for s in range(4)], axis=1).ravel()
    spades = spade_count(np.stack([h[f"dealt_{s}"] for s in range(4)], axis=1).ravel())
    df = nil_study(games_run, by="spades", batch_rows=37)
    checked = 0
    for r in df.itertuples():
        kind = (bid == 0) & (blind == (r.kind == "Blind Nil"))
        m = spades == r.code
        ref = clustered(g[m], kind[m])
        assert (r.bids, r.seat_hands, r.games) == (ref["k"], ref["n"], ref["clusters"])
        assert (r.bid_lo, r.bid_hi) == pytest.approx((ref["lo"], ref["hi"]), rel=1e-9)
        if r.bids:
            ok = clustered(g[m & kind], made[m & kind])
            assert r.successes == ok["k"] and (r.lo, r.hi) == pytest.approx((ok["lo"], ok["hi"]), rel=1e-9)
            checked += 1
    assert checked >= 4


def test_strategy_groups_are_named_by_the_seat_labels(tmp_path):
    long = "heuristic:" + ",".join(f"p{i}={i}" for i in range(30))
    p = write_run(tmp_path / "r", nil_columns(), manifest={
        "seats": [long, "random:nil_prob=0", long, "random:nil_prob=0"],
        "seat_labels": ["cautious", "random", "cautious", "random"]})
    df = nil_study(p, by="strategy")
    assert set(df["group"]) == {"cautious", "random"} and row(df, "Nil", "cautious").bids == 10
    assert max(len(line) for line in format_nil_table(df).splitlines()) < 100


def test_n_labels_on_the_chart_never_overlap(tmp_path):
    """Many groups, two kinds, rates near 100 %: each bar's n label apart from the others and inside the axes."""
    from matplotlib.figure import Figure

    rows = []
    for kind in ("Nil", "Blind Nil"):
        for code in range(16):
            bids = 1000 + 37 * code if kind == "Nil" else 5 + code
            rows.append({"kind": kind, "group": str(code), "code": code, "seat_hands": 20_000, "bids": bids,
                         "bid_rate": 0.1, "bid_lo": 0.09, "bid_hi": 0.11, "successes": bids,
                         "rate": 1.0, "lo": 0.7, "hi": 1.0, "games": 300})
    df = pd.DataFrame(rows)
    df.attrs.update(by="high_spade", hand="dealt", method="95 % Wilson intervals clustered by game")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = Figure(figsize=(max(6.0, 0.6 * 16 + 2), 4.5), layout="constrained")  # as save_nil_chart sizes it
    canvas = FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    plot_nil(ax, df)
    canvas.draw()
    renderer = canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in ax.texts if t.get_text().startswith("n=")]
    assert len(boxes) == 32
    for i, a in enumerate(boxes):
        assert ax.get_window_extent(renderer).contains(a.x0, a.y1) and ax.bbox.contains(a.x1, a.y0)
        for b in boxes[i + 1:]:
            assert not a.overlaps(b), (a, b)


def test_the_default_strategy_group_reads_as_its_name(tmp_path):
    """A sweep value equal to its baseline: both teams play one spec, labelled by the sweep's value on one team
    and by the bare name 'heuristic' (the default, as the baseline was given) on the other. It is one group,
    named as the other commands name the default, whichever run comes first; other specs keep their labels."""
    full = "heuristic:nil_threshold=6,bag_mode=set"
    ab = write_run(tmp_path / "ab", nil_columns(), manifest={
        "seats": [full] * 4, "seat_labels": ["heuristic:bag_mode=set", "heuristic"] * 2})
    ba = write_run(tmp_path / "ba", nil_columns(), manifest={
        "seats": [full] * 4, "seat_labels": ["heuristic", "heuristic:bag_mode=set"] * 2})
    for runs in ([ab], [ab, ba], [ba, ab]):
        df = nil_study(runs, by="strategy")
        assert df["group"].tolist() == ["heuristic", "heuristic"]  # Nil, Blind Nil
        assert row(df, "Nil", "heuristic").seat_hands == 80 * len(runs)  # all four seats, 20 hands a run
    other = write_run(tmp_path / "other", nil_columns(), manifest={
        "seats": ["heuristic:nil_threshold=6,bag_mode=avoid", full] * 2,
        "seat_labels": ["heuristic:bag_mode=avoid", "heuristic"] * 2})
    df = nil_study([ab, other], by="strategy")
    assert set(df["group"]) == {"heuristic", "heuristic:bag_mode=avoid"}
    assert row(df, "Nil", "heuristic:bag_mode=avoid").bids == 10  # seat 0's Nils in the other run


def test_the_score_chart_keeps_its_labels_and_legend_clear(tmp_path):
    """The score groups with Nil counts of a large classic run: every text inside the figure, the bin labels
    apart from each other, and the legend clear of the bars, the n labels and the axis labels."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.text import Text

    from tricksim.analysis.games.spades.features import score_bucket_labels

    rows = []
    for kind, counts in (("Nil", (1_398_117, 2_621_424, 559_405)), ("Blind Nil", (1_621_173, 0, 0))):
        for code, (group, bids) in enumerate(zip(score_bucket_labels(100), counts)):
            rows.append({"kind": kind, "group": group, "code": code, "seat_hands": 20_000_000, "bids": bids,
                         "bid_rate": 0.1, "bid_lo": 0.09, "bid_hi": 0.11, "successes": bids * 9 // 10,
                         "rate": 0.9 if bids else np.nan, "lo": 0.899 if bids else np.nan,
                         "hi": 0.901 if bids else np.nan, "games": 300_000})
    df = pd.DataFrame(rows)
    df.attrs.update(by="score", method="95 % Wilson intervals clustered by game", runs=["data/classic"])
    assert save_nil_chart(df, tmp_path / "score.png").stat().st_size > 10_000
    fig = Figure(figsize=(max(6.0, 0.6 * 3 + 2), 4.5), layout="constrained")  # as save_nil_chart draws it
    canvas = FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    plot_nil(ax, df)
    fig.supxlabel("runs: classic", fontsize=7)
    canvas.draw()
    renderer = canvas.get_renderer()
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text() and t.figure is fig]
    for t in texts:
        b = t.get_window_extent(renderer)
        assert fig.bbox.x0 <= b.x0 and b.x1 <= fig.bbox.x1 and fig.bbox.y0 <= b.y0 and b.y1 <= fig.bbox.y1, t
    ticks = [t.get_window_extent(renderer) for t in ax.get_xticklabels()]
    assert [t.get_text() for t in ax.get_xticklabels()] == list(score_bucket_labels(100))
    assert not any(a.overlaps(b) for i, a in enumerate(ticks) for b in ticks[i + 1:])
    legend = ax.get_legend()
    box = legend.get_window_extent(renderer)
    own = set(legend.get_texts()) | {legend.get_title()}
    for t in texts:
        if t not in own:
            assert not box.overlaps(t.get_window_extent(renderer)), t
    assert len(ax.patches) == 4 and not any(box.overlaps(p.get_window_extent(renderer)) for p in ax.patches)


def test_a_zero_bid_under_zero_bid_zero_is_no_nil(tmp_path):
    """With zero_bid=zero a bid of 0 is an ordinary contract of zero tricks: the same hands that give 10 Nils
    (7 made) under the default give no Nil row at all."""
    p = write_run(tmp_path / "zero", nil_columns(), manifest={"seats": ["a", "b", "a", "b"], "preset": "cardems",
                                                               "rules": {"zero_bid": "zero", "blind_nil": False}})
    df = nil_study(p)
    assert len(df) == 0
    assert "no Nil bids in 80 seat-hands" in format_nil_table(df)
