"""The Spades variant atlas: its figures against the runs' own data counted here with pandas, the duplicate
pairing, the intervals and their n, the charts on shared bins, and the runs reused on a second call."""
import math

import numpy as np
import pandas as pd
import pytest

import tricksim
from tricksim.analysis.games.spades.atlas import FIGURES, variant_figures
from tricksim.analysis.io import AnalysisError, open_run
from tricksim.analysis.stats import t_quantile

VARIANTS = ["cardems", "classic+mercy=-200", "zone+nil=false"]
GAMES = 12


@pytest.fixture(scope="module")
def atlas(tmp_path_factory):
    out = tmp_path_factory.mktemp("atlas")
    return tricksim.atlas("spades", games=GAMES, variants=VARIANTS, seed=7, out=out)


def tables(result, name):
    """The hands and games of both tables of variant ``name``, as pandas reads them from the Parquet."""
    base = result.out_dir / "runs"
    runs = [open_run(base / f"{name}-{tag}") for tag in ("ab", "ba")]
    hands = [pd.read_parquet(r.path / "hands") for r in runs]
    games = [pd.read_parquet(r.path / "games") for r in runs]
    return runs, hands, games


def seat_rows(h: pd.DataFrame) -> pd.DataFrame:
    return pd.concat([pd.DataFrame({"game_id": h["game_id"], "bid": h[f"bid_{s}"], "blind": h[f"blind_{s}"],
                                    "tricks": h[f"tricks_{s}"]}) for s in range(4)], ignore_index=True)


def clustered_mean(df: pd.DataFrame, y: str, conf=0.95):
    """Mean of ``y`` with the ratio-estimator interval clustered by deal (game_id), computed here from scratch."""
    g = df.groupby("game_id")[y].agg(["sum", "count"])
    r = g["sum"].sum() / g["count"].sum()
    k = len(g)
    var = k / (k - 1) * ((g["sum"] - r * g["count"]) ** 2).sum() / g["count"].sum() ** 2
    half = t_quantile(conf, k - 1) * math.sqrt(var)
    return r, r - half, r + half, int(g["count"].sum()), k


def test_every_variant_is_in_the_report_with_its_files(atlas):
    assert [v.name for v in atlas.variants] == VARIANTS
    for f in (atlas.html, atlas.markdown, atlas.out_dir / "atlas.csv"):
        assert f.stat().st_size > 0
    assert set(atlas.charts) == {"atlas_distributions", "atlas_rates", "atlas_skill"}
    for png, svg in atlas.charts.values():
        assert png.exists() and svg.exists()
    md = atlas.markdown.read_text()
    for name in VARIANTS:
        assert name in md
    assert "n=" in md and "deals)" in md
    numbers = pd.read_csv(atlas.out_dir / "atlas.csv")
    assert set(numbers["variant"]) == set(VARIANTS) and set(numbers["figure"]) == set(FIGURES)


def test_duplicate_pairing_same_deals_seats_swapped(atlas):
    for name in VARIANTS:
        (r1, r2), (h1, h2), (g1, g2) = tables(atlas, name)
        assert r1.manifest["seed"] == r2.manifest["seed"] and r1.rules == r2.rules
        s1, s2 = r1.seats, r2.seats
        assert s2 == [s1[1], s1[0], s1[3], s1[2]] and s1[0] != s1[1]
        assert sorted(g1["game_id"]) == sorted(g2["game_id"]) == list(range(GAMES))
        both = h1.merge(h2, on=["game_id", "hand_no"])
        assert len(both) >= GAMES  # at least every game's first hand
        for s in range(4):
            assert (both[f"dealt_{s}_x"] == both[f"dealt_{s}_y"]).all()
        # the play differs: the tables are not copies of each other
        assert not (both["bid_0_x"] == both["bid_0_y"]).all() or not g1["winner"].equals(g2["winner"])


def test_figures_match_the_data_counted_independently(atlas):
    for v in atlas.variants:
        _, (h1, h2), (g1, g2) = tables(atlas, v.name)
        h = pd.concat([h1, h2], ignore_index=True)
        g = pd.concat([g1, g2], ignore_index=True)
        f = v.figures
        assert v.n_pairs == GAMES and v.n_games == 2 * GAMES and v.n_hands == len(h)

        # game length and ends: games of both tables, clustered by deal
        assert f["length"].n == 2 * GAMES and f["length"].clusters == GAMES
        value, lo, hi, n, k = clustered_mean(g, "hands")
        assert f["length"].value == pytest.approx(value) and (f["length"].lo, f["length"].hi) == \
            pytest.approx((lo, hi))
        for end in ("target", "mercy", "limit"):
            assert f[f"end_{end}"].k == int((g["end"] == end).sum()) and f[f"end_{end}"].n == 2 * GAMES

        # hand score per team-hand
        ts = pd.concat([h[["game_id", "score_0"]].rename(columns={"score_0": "s"}),
                        h[["game_id", "score_1"]].rename(columns={"score_1": "s"})], ignore_index=True)
        value, lo, hi, n, k = clustered_mean(ts, "s")
        assert f["hand_score"].n == n == 2 * len(h) and f["hand_score"].clusters == k == GAMES
        assert (f["hand_score"].value, f["hand_score"].lo, f["hand_score"].hi) == pytest.approx((value, lo, hi))

        # Nil and Blind Nil
        sr = seat_rows(h)
        nil = (sr["bid"] == 0) & ~sr["blind"]
        bnil = (sr["bid"] == 0) & sr["blind"]
        assert (f["nil_bid"].k, f["nil_bid"].n) == (int(nil.sum()), 4 * len(h))
        assert (f["nil_made"].k, f["nil_made"].n) == (int((nil & (sr["tricks"] == 0)).sum()), int(nil.sum()))
        assert (f["blind_bid"].k, f["blind_made"].n) == (int(bnil.sum()), int(bnil.sum()))
        if v.name.endswith("nil=false"):
            assert f["nil_bid"].k == 0 and f["nil_made"].n == 0

        # contracts and bags (nil_tricks=bags in every preset: a Nil bidder's tricks are bags)
        made_n = has_n = bags = 0
        for t in (0, 1):
            b1, b2, t1, t2 = (h[f"{c}_{s}"] for c, s in (("bid", t), ("bid", t + 2), ("tricks", t), ("tricks", t + 2)))
            contract = b1 + b2
            won = t1.where(b1 > 0, 0) + t2.where(b2 > 0, 0)
            nil_tricks = t1.where(b1 == 0, 0) + t2.where(b2 == 0, 0)
            made = won >= contract
            has_n += int((contract > 0).sum())
            made_n += int(((contract > 0) & made).sum())
            bags += int(((won - contract).where(made, 0) + nil_tricks).sum())
        assert (f["contract"].k, f["contract"].n) == (made_n, has_n)
        assert f["bags"].value == pytest.approx(bags / (2 * len(h)))

        # skill and luck, over the pairs
        w = g1.set_index("game_id")["winner"].to_frame("ab").join(g2.set_index("game_id")["winner"].rename("ba"))
        strong = ((w["ab"] == 0).astype(float) + (w["ba"] == 1).astype(float)
                  + 0.5 * (w["ab"] == -1) + 0.5 * (w["ba"] == -1)) / 2
        assert f["strong_win"].value == pytest.approx(strong.mean()) and f["strong_win"].n == GAMES
        assert f["strong_both"].k == int(((w["ab"] == 0) & (w["ba"] == 1)).sum())
        decided = (w["ab"] >= 0) & (w["ba"] >= 0)
        assert (f["same_cards"].k, f["same_cards"].n) == (int((decided & (w["ab"] == w["ba"])).sum()),
                                                           int(decided.sum()))
        margin = ((g1.set_index("game_id")["total_0"] - g1.set_index("game_id")["total_1"])
                  + (g2.set_index("game_id")["total_1"] - g2.set_index("game_id")["total_0"])) / 2
        assert f["margin"].value == pytest.approx(margin.mean()) and f["margin"].n == GAMES


def test_every_figure_has_an_interval_and_n(atlas):
    for v in atlas.variants:
        for key, e in v.figures.items():
            assert e.n >= 0, key
            if e.n:
                assert e.lo <= e.value <= e.hi, (v.name, key, e)
                assert math.isfinite(e.lo) and math.isfinite(e.hi), (v.name, key, e)
    text = atlas.tables["figures"].to_string() + atlas.tables["skill"].to_string()
    cells = [c for col in VARIANTS for c in pd.concat([atlas.tables["figures"], atlas.tables["skill"]])[col]]
    assert all("(n=" in c for c in cells), text


def test_distributions_share_their_bins(atlas):
    drawn = atlas.drawn["atlas_distributions"]
    for panel in ("hand score", "final margin", "game length"):
        edges = [e for e, _ in drawn[panel].values()]
        assert len(edges) == len(VARIANTS)
        assert all(np.array_equal(edges[0], e) for e in edges[1:]), panel
    counts = {name: c.sum() for name, (_, c) in drawn["game length"].items()}
    beyond = drawn["game length: beyond the axis"]
    assert {name: counts[name] + beyond[name] for name in VARIANTS} == {name: 2 * GAMES for name in VARIANTS}


def test_runs_that_are_not_one_duplicate_match_are_refused(atlas):
    base = atlas.out_dir / "runs"
    with pytest.raises(AnalysisError, match="not the two halves|not swapped"):
        variant_figures("x", base / "cardems-ab", base / "classic+mercy=-200-ba")
    with pytest.raises(AnalysisError, match="not swapped"):
        variant_figures("x", base / "cardems-ab", base / "cardems-ab")


def test_a_second_call_reuses_the_runs(atlas):
    base = atlas.out_dir / "runs"
    before = {d.name: (open_run(d).run_id, sorted(p.stat().st_mtime_ns for p in d.rglob("*.parquet")))
              for d in base.iterdir()}
    lines = []
    again = tricksim.atlas("spades", games=GAMES, variants=VARIANTS, seed=7, out=atlas.out_dir, echo=lines.append)
    after = {d.name: (open_run(d).run_id, sorted(p.stat().st_mtime_ns for p in d.rglob("*.parquet")))
             for d in base.iterdir()}
    assert before == after and len(before) == 2 * len(VARIANTS)
    assert again.tables["figures"].equals(atlas.tables["figures"])


@pytest.mark.parametrize("options, message", [
    ({"games": 0}, "invalid games=0: allowed a whole number from 2"),
    ({"games": 5, "variants": "cardems,bridge"}, "unknown variant 'bridge'.*cardems \\| zone \\| classic"),
    ({"games": 5, "variants": "zone+jokers=maybe"}, "jokers='maybe': allowed true \\| false"),
    ({"games": 5, "variants": "cardems,cardems"}, "given twice"),
    ({"games": 5, "players": "heuristic"}, "two strategy specs"),
    ({"games": 5, "players": "heuristic,genius"}, "unknown spades strategy 'genius'"),
])
def test_bad_input_is_refused_before_any_run(options, message, tmp_path):
    with pytest.raises(tricksim.TricksimError, match=message):
        tricksim.atlas("spades", out=tmp_path / "x", **options)
    assert not (tmp_path / "x").exists()


def test_a_game_without_an_atlas_is_named():
    with pytest.raises(tricksim.TricksimError, match="no variant atlas for game 'bridge': allowed spades \\| tarot"):
        tricksim.atlas("bridge")


def test_margin_and_length_axes_hold_each_variants_central_games_not_the_outliers():
    """Two made-up variants: A's margins 0..98 and one outlier 10,000, B's 10..109 (100 games each). By hand: A's
    1st percentile (the smallest value with more than 1 of its 100 at or below it) is 1, its 99th (the smallest
    with at least 99) 98; B's are 11 and 108; so the axis covers 1..108, in whole bins of 5 (107 / 5 ≤ 40 bins):
    0..109. Beyond it only A's 10,000; the hand-score panel (not trimmed) still spans it."""
    from types import SimpleNamespace

    from matplotlib.figure import Figure

    from tricksim.analysis.atlas import central_range, hist_panel
    from tricksim.analysis.games.spades.atlas import central_panel

    a = SimpleNamespace(name="A", margins=np.append(np.arange(99), 10_000))
    b = SimpleNamespace(name="B", margins=np.arange(10, 110))
    assert central_range([a, b], "margins", 0.01) == (1, 108)
    ax = Figure().subplots()
    series, beyond = central_panel(ax, [a, b], "margins", "margin", "Final margin")
    assert ax.get_xlim() == (-0.5, 109.5)
    assert beyond == {"A": 1, "B": 0}
    (edges_a, counts_a), (edges_b, counts_b) = series["A"], series["B"]
    assert np.array_equal(edges_a, edges_b) and edges_a[0] == -0.5 and edges_a[-1] == 109.5
    assert counts_a.sum() == 99 and counts_b.sum() == 100
    assert "1 of 200 games beyond it" in ax.get_title()
    whole = hist_panel(Figure().subplots(), [a, b], "margins", "margin", "Final margin")
    assert whole["A"][0][-1] > 10_000 and whole["A"][1].sum() == 100
