"""The Spades atlas without partnerships (cutthroat, issue #28): a rotation (the field of four weaker players, then
the stronger alone in each seat on the same deals); every figure recounted here from the runs' Parquet with pandas,
by the rules (a player alone: contract = its bid), with the intervals clustered by deal; the page keeps the
cutthroat figures in tables of their own; runs that are not one rotation are refused."""
import numpy as np
import pandas as pd
import pytest
from analysis_helpers import clustered

import tricksim
from tricksim.analysis.games.spades.atlas import ALONE_FIGURES, alone_variant_figures
from tricksim.analysis.games.spades.cutthroat import check_rotation
from tricksim.analysis.io import AnalysisError

GAMES = 12
TABLES = ("field", "seat0", "seat1", "seat2", "seat3")


@pytest.fixture(scope="module")
def atlas(tmp_path_factory):
    out = tmp_path_factory.mktemp("atlas_cut")
    return tricksim.atlas("spades", games=GAMES, variants=["cardems", "cutthroat"], seed=5, out=out, progress=False)


def tables(result):
    base = result.out_dir / "runs"
    hands = {t: pd.read_parquet(base / f"cutthroat-{t}" / "hands") for t in TABLES}
    games = {t: pd.read_parquet(base / f"cutthroat-{t}" / "games") for t in TABLES}
    return hands, games


def close(est, ref):
    assert (est.value, est.lo, est.hi) == pytest.approx((ref["value"], ref["lo"], ref["hi"]), rel=1e-9, abs=1e-12)
    assert (est.n, est.clusters) == (ref["n"], ref["clusters"])


def test_the_rotation_is_five_tables_on_the_same_deals(atlas):
    hands, games = tables(atlas)
    from tricksim.analysis.io import open_run
    seats = {t: open_run(atlas.out_dir / "runs" / f"cutthroat-{t}").seats for t in TABLES}
    assert len(set(seats["field"])) == 1
    for k in range(4):
        assert [s != seats["field"][0] for s in seats[f"seat{k}"]] == [j == k for j in range(4)]
        assert sorted(games[f"seat{k}"]["game_id"]) == list(range(GAMES))
        both = hands[f"seat{k}"].merge(hands["field"], on=["game_id", "hand_no"])
        assert len(both) >= GAMES and all((both[f"dealt_{s}_x"] == both[f"dealt_{s}_y"]).all() for s in range(4))


def test_skill_and_luck_recounted(atlas):
    v = next(v for v in atlas.variants if v.name == "cutthroat")
    hands, games = tables(atlas)
    f = v.figures
    assert v.alone and v.n_pairs == GAMES and v.n_games == 4 * GAMES
    rows = []
    for k in range(4):
        g = games[f"seat{k}"]
        others = g[[f"total_{j}" for j in range(4) if j != k]].max(axis=1)
        rows.append(pd.DataFrame({"game_id": g["game_id"], "seat": k, "winner": g["winner"],
                                  "won": (g["winner"] == k).astype(int), "margin": g[f"total_{k}"] - others}))
    w = pd.concat(rows).sort_values("game_id", kind="stable")
    close(f["strong_win"], clustered(w["game_id"], w["won"]))
    close(f["margin"], clustered(w["game_id"], w["margin"], kind="mean"))
    winners = w.pivot(index="game_id", columns="seat", values="winner")
    assert (f["strong_all"].k, f["strong_all"].n) == (int((winners == [0, 1, 2, 3]).all(axis=1).sum()), GAMES)
    decided = (winners >= 0).all(axis=1)
    same = decided & (winners.nunique(axis=1) == 1)
    assert (f["same_cards"].k, f["same_cards"].n) == (int(same.sum()), int(decided.sum()))
    diffs = []
    for k in range(4):
        pair = hands[f"seat{k}"].merge(hands["field"], on=["game_id", "hand_no"], suffixes=("", "_field"))
        diffs.append(pd.DataFrame({"game_id": pair["game_id"], "d": pair[f"score_{k}"] - pair[f"score_{k}_field"]}))
    d = pd.concat(diffs).sort_values("game_id", kind="stable")
    close(f["strong_points"], clustered(d["game_id"], d["d"], kind="mean"))


def test_pooled_figures_recounted_per_seat_hand(atlas):
    v = next(v for v in atlas.variants if v.name == "cutthroat")
    hands, games = tables(atlas)
    f = v.figures
    h = pd.concat([hands[f"seat{k}"] for k in range(4)]).sort_values("game_id", kind="stable")
    g = pd.concat([games[f"seat{k}"] for k in range(4)]).sort_values("game_id", kind="stable")
    assert v.n_hands == len(h)
    seat = pd.concat([pd.DataFrame({"game_id": h["game_id"], "hand_no": h["hand_no"], "bid": h[f"bid_{s}"],
                                    "tricks": h[f"tricks_{s}"], "score": h[f"score_{s}"], "seat": s,
                                    "bags_after": h[f"bags_{s}"]}) for s in range(4)])
    seat = seat.sort_values("game_id", kind="stable")
    close(f["hand_score"], clustered(seat["game_id"], seat["score"], kind="mean"))
    close(f["length"], clustered(g["game_id"], g["hands"], kind="mean"))
    for end in ("target", "mercy", "limit"):
        close(f[f"end_{end}"], clustered(g["game_id"], g["end"] == end))
    nil = seat["bid"] == 0
    close(f["nil_bid"], clustered(seat["game_id"], nil))
    close(f["nil_made"], clustered(seat["game_id"][nil], seat["tricks"][nil] == 0))
    # a player alone (cardems rules): its contract is its bid; made: 10·bid + overtricks (bags); a Nil's tricks are bags
    has = seat["bid"] > 0
    made = seat["tricks"] >= seat["bid"]
    close(f["contract"], clustered(seat["game_id"][has], made[has]))
    bags = np.where(has, np.where(made, seat["tricks"] - seat["bid"], 0), seat["tricks"])
    close(f["bags"], clustered(seat["game_id"], bags, kind="mean"))
    # bag penalties (carry, 10 a penalty): bags taken in a game less the bags left after its last hand, per seat
    # and table, summed over the four seats of a game
    per = []
    for k in range(4):
        hk = hands[f"seat{k}"]
        for s in range(4):
            b = np.where(hk[f"bid_{s}"] > 0, np.where(hk[f"tricks_{s}"] >= hk[f"bid_{s}"],
                                                      hk[f"tricks_{s}"] - hk[f"bid_{s}"], 0), hk[f"tricks_{s}"])
            t = pd.DataFrame({"game_id": hk["game_id"], "hand_no": hk["hand_no"], "b": b, "after": hk[f"bags_{s}"]})
            taken = t.groupby("game_id")["b"].sum()
            final = t.sort_values("hand_no").groupby("game_id")["after"].last()
            per.append(((taken - final) // 10).rename("p").reset_index())
    pen = pd.concat(per).groupby("game_id")["p"].sum()  # the four seats of the four tables of a deal
    assert f["penalties"].value == pytest.approx(pen.sum() / (4 * GAMES)) and f["penalties"].n == 4 * GAMES


def test_the_page_keeps_cutthroat_apart(atlas):
    assert [v.name for v in atlas.variants] == ["cardems", "cutthroat"]
    assert list(atlas.tables["skill"].columns) == ["figure", "cardems"]
    assert list(atlas.tables["alone_skill"].columns) == ["figure", "cutthroat"]
    assert set(atlas.charts) == {"atlas_distributions", "atlas_rates", "atlas_skill", "atlas_skill_alone"}
    md = atlas.markdown.read_text()
    assert "## Cutthroat (each player alone): skill and luck" in md and "an equal player would win a quarter" in md
    assert "(n=48 seat-games, 12 deals)" in md and "rotation: 4 seat tables + field" in md
    numbers = pd.read_csv(atlas.out_dir / "atlas.csv")
    assert set(numbers[numbers["variant"] == "cutthroat"]["figure"]) == set(ALONE_FIGURES)


def test_runs_that_are_not_one_rotation_are_refused(atlas):
    base = atlas.out_dir / "runs"
    seats = [base / f"cutthroat-seat{k}" for k in range(4)]
    with pytest.raises(AnalysisError, match="seat 0 is not the one seat"):
        check_rotation(base / "cutthroat-field", seats[::-1])
    with pytest.raises(AnalysisError, match="without partnerships"):
        alone_variant_figures("x", base / "cardems-ab", seats)
    with pytest.raises(AnalysisError, match="a field table and 4 seat tables: got 3"):
        check_rotation(base / "cutthroat-field", seats[:3])
