"""The Tarot variant atlas: the luck share worked by hand on a synthetic set, every figure against the runs' own
data counted here with pandas, the rotation's pairing (the same deals, the weaker player in one seat), the
bins shared by the variants, the refusal of runs that are not one rotation, and bad input."""
import math

import numpy as np
import pandas as pd
import pytest

import tricksim
from tricksim.analysis.games.tarot.atlas import FIGURES, luck_share, variant_figures
from tricksim.analysis.io import AnalysisError, open_run

VARIANTS = ["fft3", "cardavia+excuse_lead=forbidden"]
GAMES = 3


def test_the_luck_share_by_hand():
    # four pairs in two clusters; m = (20 + 10) / 8 = 3.75
    x, y, c = [10, 0, -10, 20], [10, 10, -10, 0], [0, 0, 1, 1]
    # Σ(x−y)² = 0 + 100 + 0 + 400 = 500 (clusters: 100, 400)
    # Σ(x−m)² + (y−m)²: cluster 0: 6.25² + 3.75² + 6.25² + 6.25² = 131.25; cluster 1: 13.75² + 16.25² + 13.75²
    #   + 3.75² = 656.25; in all 787.5, so R = 500 / 787.5 = 40/63 and the share is 23/63
    # delta method over the 2 clusters: residuals 100 − R·131.25 = +50/3, 400 − R·656.25 = −50/3;
    #   var = (2 · (50/3)²) / ((2 − 1) · 2 · 393.75²), half-width 1.959964 · √var
    e = luck_share(x, y, c)
    assert e.value == pytest.approx(23 / 63)
    half = 1.959964 * math.sqrt(2 * (50 / 3) ** 2 / (2 * 393.75 ** 2))
    assert (e.lo, e.hi) == pytest.approx((23 / 63 - half, 23 / 63 + half), abs=1e-6)
    assert (e.n, e.clusters) == (4, 2)
    # the play never changes a score: the deal fixes all of it; unrelated scores: about none
    assert luck_share([5, -3, 8], [5, -3, 8], [0, 1, 2]).value == 1
    rng = np.random.default_rng(1)
    assert abs(luck_share(rng.normal(size=4000), rng.normal(size=4000), np.arange(4000)).value) < 0.05


@pytest.fixture(scope="module")
def atlas(tmp_path_factory):
    out = tmp_path_factory.mktemp("tarot-atlas")
    return tricksim.atlas("tarot", games=GAMES, variants=VARIANTS, seed=4, out=out)


def tables(result, v):
    """The deals of the field table and of each seat's table of variant ``v``, as pandas reads them."""
    base = result.out_dir / "runs"
    field = pd.read_parquet(base / f"{v.name}-field" / "deals").sort_values("deal_id", ignore_index=True)
    seats = [pd.read_parquet(base / f"{v.name}-seat{r}" / "deals").sort_values("deal_id", ignore_index=True)
             for r in range(v.seats)]
    return field, seats


def test_every_variant_is_in_the_report_with_its_files(atlas):
    assert [v.name for v in atlas.variants] == VARIANTS
    assert [v.seats for v in atlas.variants] == [3, 4]
    for f in (atlas.html, atlas.markdown, atlas.out_dir / "atlas.csv"):
        assert f.stat().st_size > 0
    assert set(atlas.charts) == {"atlas_distributions", "atlas_rates", "atlas_skill"}
    md = atlas.markdown.read_text()
    assert all(name in md for name in VARIANTS) and "n=" in md and "games)" in md
    numbers = pd.read_csv(atlas.out_dir / "atlas.csv")
    assert set(numbers["figure"]) == set(FIGURES)
    runs = sorted(p.name for p in (atlas.out_dir / "runs").iterdir())
    assert runs == sorted([f"fft3-{t}" for t in ("field", "seat0", "seat1", "seat2")]
                          + [f"cardavia+excuse_lead=forbidden-{t}" for t in ("field", "seat0", "seat1", "seat2",
                                                                             "seat3")])


def test_the_rotation_same_deals_weaker_in_one_seat(atlas):
    for v in atlas.variants:
        field, seats = tables(atlas, v)
        f = open_run(atlas.out_dir / "runs" / f"{v.name}-field")
        assert len(set(f.seats)) == 1
        for r, t in enumerate(seats):
            run = open_run(atlas.out_dir / "runs" / f"{v.name}-seat{r}")
            assert [s != f.seats[0] for s in run.seats] == [k == r for k in range(v.seats)]
            assert (t["deal_id"] == field["deal_id"]).all() and len(t) == len(field)
            dealt = [c for c in t.columns if c.startswith("dealt_")]
            assert (t[dealt] == field[dealt]).all().all()  # the same cards


def test_figures_match_the_data_counted_independently(atlas):
    for v in atlas.variants:
        field, seats = tables(atlas, v)
        n, f = v.seats, v.figures
        every = pd.concat([field, *seats], ignore_index=True)
        played = every[every["void"] == 0]
        assert f["all_pass"].k == int((every["void"] == 1).sum()) and f["all_pass"].n == len(every)
        assert f["all_pass"].clusters == GAMES and v.n_deals == len(field) and v.n_games == GAMES
        taker = played.apply(lambda row: row[f"score_{int(row['taker'])}"], axis=1)
        assert f["taker_score"].value == pytest.approx(taker.mean()) and f["taker_score"].n == len(played)
        for code, c in enumerate(("prise", "garde", "garde_sans", "garde_contre"), start=1):
            mine = played[played["contract"] == code]
            assert (f[f"share_{c}"].k, f[f"share_{c}"].n) == (len(mine), len(played))
            assert (f[f"won_{c}"].k, f[f"won_{c}"].n) == (int((mine["won"] == 1).sum()), len(mine))
        assert f["taker_won"].k == int((played["won"] == 1).sum())
        assert f["petit_au_bout"].k == int((played["petit_au_bout"] != 0).sum())
        assert f["poignee"].k == int((played["poignee"] > 0).sum())
        assert f["chelem"].k == int((played["chelem"] == 1).sum())

        # skill and luck: seat r of each deal, the stronger on the field table, the weaker on table r
        x = np.concatenate([field[f"score_{r}"].to_numpy() for r in range(n)])
        y = np.concatenate([t[f"score_{r}"].to_numpy() for r, t in enumerate(seats)])
        assert f["skill"].n == n * len(field) and f["skill"].value == pytest.approx((x - y).mean())
        assert (f["strong_better"].k, f["strong_better"].n) == (int((x > y).sum()), int((x != y).sum()))
        m = np.concatenate([x, y]).mean()
        assert f["luck"].value == pytest.approx(1 - ((x - y) ** 2).sum() / (((x - m) ** 2).sum() + ((y - m) ** 2).sum()))
        wins = sum(int((pd.read_parquet(atlas.out_dir / "runs" / f"{v.name}-seat{r}" / "games")["winner"] == r).sum())
                   for r in range(n))
        assert (f["weak_game_win"].k, f["weak_game_win"].n) == (wins, n * GAMES)
        for key, e in f.items():
            assert e.lo <= e.value <= e.hi or e.n == 0, (v.name, key, e)


def test_distributions_share_their_bins(atlas):
    drawn = atlas.drawn["atlas_distributions"]
    for panel in ("taker score", "skill"):
        edges = [e for e, _ in drawn[panel].values()]
        assert len(edges) == len(VARIANTS) and all(np.array_equal(edges[0], e) for e in edges[1:]), panel


def test_runs_that_are_not_one_rotation_are_refused(atlas):
    base = atlas.out_dir / "runs"
    v = "cardavia+excuse_lead=forbidden"
    with pytest.raises(AnalysisError, match="rotated runs"):
        variant_figures("x", base / f"{v}-field", [base / f"{v}-seat{r}" for r in range(3)])
    with pytest.raises(AnalysisError, match="another player in seat 1"):
        variant_figures("x", base / f"{v}-field", [base / f"{v}-seat{r}" for r in (0, 0, 2, 3)])
    with pytest.raises(AnalysisError, match="not one duplicate rotation"):
        variant_figures("x", base / "fft3-field", [base / f"{v}-seat{r}" for r in range(3)])


def test_deals_mode_clusters_by_deal(tmp_path):
    result = tricksim.atlas("tarot", deals=40, variants="fft3", seed=2, out=tmp_path)
    f = result.variants[0].figures
    assert result.variants[0].mode == "deals" and f["all_pass"].n == 4 * 40 and f["all_pass"].clusters == 40
    assert f["weak_game_win"].n == 0 and "games the weaker" not in result.markdown.read_text()


@pytest.mark.parametrize("options, message", [
    ({"games": 0}, "invalid games=0: allowed a whole number from 2"),
    ({"games": 5, "deals": 5}, "give games or deals, not both"),
    ({"games": 5, "variants": "cardavia,belote"}, "unknown variant 'belote'.*fft3 \\| cardavia \\| fft5|unknown "
     "variant 'belote'.*cardavia"),
    ({"games": 5, "variants": "cardavia+excuse_lead=sometimes"}, "excuse_lead='sometimes': allowed allowed \\| "
     "forbidden"),
    ({"games": 5, "players": "heuristic,genius"}, "unknown tarot strategy 'genius'"),
])
def test_bad_input_is_refused_before_any_run(options, message, tmp_path):
    with pytest.raises(tricksim.TricksimError, match=message):
        tricksim.atlas("tarot", out=tmp_path / "x", **options)
    assert not (tmp_path / "x").exists()


@pytest.mark.needs_jit("Dask worker processes run the kernels: minutes each as pure Python")
@pytest.mark.filterwarnings("ignore:Port 8787 is already in use")
@pytest.mark.parametrize("game, options", [("tarot", {"games": 3, "variants": "fft3"}),
                                           ("spades", {"games": 4, "variants": "zone"})])
def test_the_atlas_on_dask_is_the_local_atlas(cluster, tmp_path, game, options):
    """``engine="dask"``: the runs are simulated by tasks on the cluster's workers, and the figures are the local
    engine's."""
    distributed = pytest.importorskip("distributed")
    local = tricksim.atlas(game, seed=3, out=tmp_path / "local", **options)
    with distributed.Client(cluster) as client, distributed.get_task_stream(client) as stream:
        dask = tricksim.atlas(game, seed=3, out=tmp_path / "dask", engine="dask",
                              scheduler=cluster.scheduler_address, **options)
    assert len(stream.data) >= len(list((tmp_path / "dask" / "runs").iterdir()))  # a task a run at least
    assert pd.read_csv(dask.out_dir / "atlas.csv").equals(pd.read_csv(local.out_dir / "atlas.csv"))
    with pytest.raises(tricksim.TricksimError, match="scheduler=ADDRESS needs engine=dask"):
        tricksim.atlas(game, seed=3, out=tmp_path / "x", scheduler=cluster.scheduler_address, **options)
