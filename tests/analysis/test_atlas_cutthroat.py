"""The Spades atlas without partnerships (cutthroat, cutthroat3 and twohanded, issue #28): a rotation (the field of
weaker players, then the stronger alone in each seat on the same deals) at a table of four and of three, and at two
the two seat tables alone, a duplicate pair with the seats swapped; every figure
recounted here from the runs' Parquet with pandas, by the rules (a player alone: contract = its bid), with the
intervals clustered by deal; the page keeps the cutthroat figures in tables of their own, one a table size; runs
that are not one rotation are refused."""
import numpy as np
import pandas as pd
import pytest
from analysis_helpers import clustered

import tricksim
from tricksim.analysis.games.spades.atlas import ALONE_FIGURES, alone_figures, alone_variant_figures
from tricksim.analysis.games.spades.cutthroat import check_pair, check_rotation
from tricksim.analysis.io import AnalysisError

GAMES = 12
VARIANTS = [("cutthroat", 4), ("cutthroat3", 3), ("twohanded", 2)]  # a variant without partnerships, its players


def table_names(n):
    """The tables of a rotation: the field (but with two players: a pair), then one a seat."""
    return ("field",) * (n != 2) + tuple(f"seat{k}" for k in range(n))


@pytest.fixture(scope="module")
def atlas(tmp_path_factory):
    out = tmp_path_factory.mktemp("atlas_cut")
    # heuristic against random, not the default simple: simple's three-player kernel costs minutes of compile
    # in a fresh install's quick suite (docs/performance.md P70); what is recounted does not depend on the players
    return tricksim.atlas("spades", games=GAMES, variants=["cardems", "cutthroat", "cutthroat3", "twohanded"], seed=5,
                          out=out,
                          players=("heuristic", "random"), progress=False)


def tables(result, name="cutthroat", n=4):
    base = result.out_dir / "runs"
    hands = {t: pd.read_parquet(base / f"{name}-{t}" / "hands") for t in table_names(n)}
    games = {t: pd.read_parquet(base / f"{name}-{t}" / "games") for t in table_names(n)}
    return hands, games


def close(est, ref):
    assert (est.value, est.lo, est.hi) == pytest.approx((ref["value"], ref["lo"], ref["hi"]), rel=1e-9, abs=1e-12)
    assert (est.n, est.clusters) == (ref["n"], ref["clusters"])


@pytest.mark.parametrize("name, n", VARIANTS)
def test_the_rotation_is_a_table_a_seat_and_the_field_on_the_same_deals(atlas, name, n):
    hands, games = tables(atlas, name, n)
    from tricksim.analysis.io import open_run
    seats = {t: open_run(atlas.out_dir / "runs" / f"{name}-{t}").seats for t in table_names(n)}
    assert not (atlas.out_dir / "runs" / f"{name}-seat{n}").exists()
    if n == 2:  # a pair: the seats swapped, the same games (the hands are drawn, so they differ with the draw)
        assert not (atlas.out_dir / "runs" / f"{name}-field").exists()
        assert seats["seat1"] == seats["seat0"][::-1] and seats["seat0"][0] != seats["seat0"][1]
        assert sorted(games["seat0"]["game_id"]) == sorted(games["seat1"]["game_id"]) == list(range(GAMES))
        return
    assert len(set(seats["field"])) == 1 and len(seats["field"]) == n
    for k in range(n):
        assert [s != seats["field"][0] for s in seats[f"seat{k}"]] == [j == k for j in range(n)]
        assert sorted(games[f"seat{k}"]["game_id"]) == list(range(GAMES))
        both = hands[f"seat{k}"].merge(hands["field"], on=["game_id", "hand_no"])
        assert len(both) >= GAMES and all((both[f"dealt_{s}_x"] == both[f"dealt_{s}_y"]).all() for s in range(n))


@pytest.mark.parametrize("name, n", VARIANTS)
def test_skill_and_luck_recounted(atlas, name, n):
    v = next(v for v in atlas.variants if v.name == name)
    hands, games = tables(atlas, name, n)
    f = v.figures
    assert v.alone and v.n_seats == n and v.n_pairs == GAMES and v.n_games == n * GAMES
    rows = []
    for k in range(n):
        g = games[f"seat{k}"]
        others = g[[f"total_{j}" for j in range(n) if j != k]].max(axis=1)
        rows.append(pd.DataFrame({"game_id": g["game_id"], "seat": k, "winner": g["winner"],
                                  "won": (g["winner"] == k).astype(int), "margin": g[f"total_{k}"] - others}))
    w = pd.concat(rows).sort_values("game_id", kind="stable")
    close(f["strong_win"], clustered(w["game_id"], w["won"]))
    close(f["margin"], clustered(w["game_id"], w["margin"], kind="mean"))
    winners = w.pivot(index="game_id", columns="seat", values="winner")
    assert (f["strong_all"].k, f["strong_all"].n) == (int((winners == list(range(n))).all(axis=1).sum()), GAMES)
    decided = (winners >= 0).all(axis=1)
    same = decided & (winners.nunique(axis=1) == 1)
    assert (f["same_cards"].k, f["same_cards"].n) == (int(same.sum()), int(decided.sum()))
    diffs = []
    for k in range(n):  # the weaker in seat k: on the field, or in a pair on the other table
        weak = hands["field"] if n > 2 else hands[f"seat{1 - k}"]
        pair = hands[f"seat{k}"].merge(weak, on=["game_id", "hand_no"], suffixes=("", "_field"))
        diffs.append(pd.DataFrame({"game_id": pair["game_id"], "d": pair[f"score_{k}"] - pair[f"score_{k}_field"]}))
    d = pd.concat(diffs).sort_values("game_id", kind="stable")
    close(f["strong_points"], clustered(d["game_id"], d["d"], kind="mean"))


@pytest.mark.parametrize("name, n", VARIANTS)
def test_pooled_figures_recounted_per_seat_hand(atlas, name, n):
    v = next(v for v in atlas.variants if v.name == name)
    hands, games = tables(atlas, name, n)
    f = v.figures
    h = pd.concat([hands[f"seat{k}"] for k in range(n)]).sort_values("game_id", kind="stable")
    g = pd.concat([games[f"seat{k}"] for k in range(n)]).sort_values("game_id", kind="stable")
    assert v.n_hands == len(h)
    seat = pd.concat([pd.DataFrame({"game_id": h["game_id"], "hand_no": h["hand_no"], "bid": h[f"bid_{s}"],
                                    "tricks": h[f"tricks_{s}"], "score": h[f"score_{s}"], "seat": s,
                                    "bags_after": h[f"bags_{s}"]}) for s in range(n)])
    seat = seat.sort_values("game_id", kind="stable")
    close(f["hand_score"], clustered(seat["game_id"], seat["score"], kind="mean"))
    close(f["length"], clustered(g["game_id"], g["hands"], kind="mean"))
    for end in ("target", "mercy", "limit"):
        close(f[f"end_{end}"], clustered(g["game_id"], g["end"] == end))
    nil = seat["bid"] == 0
    close(f["nil_bid"], clustered(seat["game_id"], nil))
    # a rate per Nil bid is a ratio over every deal's seat-hands (analysis.stats: the G clusters of the sample,
    # deals without a Nil bid among them, n_g = 0), not over the deals that hold one
    close(f["nil_made"], clustered(seat["game_id"], nil & (seat["tricks"] == 0), nil))
    # a player alone (cardems rules): its contract is its bid; made: 10·bid + overtricks (bags); a Nil's tricks are bags
    has = seat["bid"] > 0
    made = seat["tricks"] >= seat["bid"]
    close(f["contract"], clustered(seat["game_id"], has & made, has))
    bags = np.where(has, np.where(made, seat["tricks"] - seat["bid"], 0), seat["tricks"])
    close(f["bags"], clustered(seat["game_id"], bags, kind="mean"))
    # bag penalties (carry, 10 a penalty): bags taken in a game less the bags left after its last hand, per seat
    # and table, summed over the seats of a game
    per = []
    for k in range(n):
        hk = hands[f"seat{k}"]
        for s in range(n):
            b = np.where(hk[f"bid_{s}"] > 0, np.where(hk[f"tricks_{s}"] >= hk[f"bid_{s}"],
                                                      hk[f"tricks_{s}"] - hk[f"bid_{s}"], 0), hk[f"tricks_{s}"])
            t = pd.DataFrame({"game_id": hk["game_id"], "hand_no": hk["hand_no"], "b": b, "after": hk[f"bags_{s}"]})
            taken = t.groupby("game_id")["b"].sum()
            final = t.sort_values("hand_no").groupby("game_id")["after"].last()
            per.append(((taken - final) // 10).rename("p").reset_index())
    pen = pd.concat(per).groupby("game_id")["p"].sum()  # the n seats of the n seat tables of a deal
    assert f["penalties"].value == pytest.approx(pen.sum() / (n * GAMES)) and f["penalties"].n == n * GAMES


def test_the_page_keeps_cutthroat_apart(atlas):
    assert [v.name for v in atlas.variants] == ["cardems", "cutthroat", "cutthroat3", "twohanded"]
    assert list(atlas.tables["skill"].columns) == ["figure", "cardems"]
    assert list(atlas.tables["alone_skill"].columns) == ["figure", "cutthroat"]
    assert list(atlas.tables["alone3_skill"].columns) == ["figure", "cutthroat3"]
    assert list(atlas.tables["alone2_skill"].columns) == ["figure", "twohanded"]
    assert set(atlas.charts) == {"atlas_distributions", "atlas_rates", "atlas_skill", "atlas_skill_alone",
                                 "atlas_skill_alone3", "atlas_skill_alone2"}
    md = atlas.markdown.read_text()
    assert "## Cutthroat (each player alone): skill and luck" in md and "an equal player would win a quarter" in md
    assert "(n=48 seat-games, 12 deals)" in md and "rotation: 4 seat tables + field" in md
    # three players: a third of the games is no edge, 3·w·((1 − w)/2)² = 1/9 between equal players
    assert "## Cutthroat (each player alone, three players): skill and luck" in md
    assert "an equal player would win a third" in md and "3·w·((1 − w)/2)² (11 % between equal players" in md
    assert "(n=36 seat-games, 12 deals)" in md and "rotation: 3 seat tables + field" in md
    assert "alone against two weaker; 33.3 % = no edge" in md
    # two players: a duplicate pair, half the games no edge, 2·w·(1 − w) = 1/2 between equal players
    assert "## Two players (each alone, a duplicate pair): skill and luck" in md
    assert "an equal player would win half of its games" in md and "2·w·(1 − w) (50 % between equal players" in md
    assert "(n=24 seat-games, 12 deals)" in md and "| twohanded | twohanded | heuristic vs random | duplicate pair: " \
        "2 tables, seats swapped | 12 | 24 |" in md and "— (drawn from the same stock)" in md
    numbers = pd.read_csv(atlas.out_dir / "atlas.csv")
    assert set(numbers[numbers["variant"] == "cutthroat"]["figure"]) == set(ALONE_FIGURES)
    assert set(numbers[numbers["variant"] == "cutthroat3"]["figure"]) == set(alone_figures(3))
    assert set(numbers[numbers["variant"] == "twohanded"]["figure"]) == set(alone_figures(2))


def test_runs_that_are_not_one_rotation_are_refused(atlas):
    base = atlas.out_dir / "runs"
    seats = [base / f"cutthroat-seat{k}" for k in range(4)]
    with pytest.raises(AnalysisError, match="seat 0 is not the one seat"):
        check_rotation(base / "cutthroat-field", seats[::-1])
    with pytest.raises(AnalysisError, match="without partnerships"):
        alone_variant_figures("x", base / "cardems-ab", seats)
    with pytest.raises(AnalysisError, match="a field table and 4 seat tables: got 3"):
        check_rotation(base / "cutthroat-field", seats[:3])
    three = [base / f"cutthroat3-seat{k}" for k in range(3)]
    with pytest.raises(AnalysisError, match="a cutthroat rotation of 3 players is a field table and 3 seat tables: got 4"):
        check_rotation(base / "cutthroat3-field", [*three, three[0]])
    with pytest.raises(AnalysisError, match="are not tables of one rotation"):
        check_rotation(base / "cutthroat3-field", seats[:3])
    from tricksim.analysis.games.spades.atlas import _same_deals
    from tricksim.analysis.io import open_run
    # tables of the same seed and game ids dealt otherwise (17 cards a hand against 13)
    with pytest.raises(AnalysisError, match="hands played on several tables were dealt different cards"):
        _same_deals(open_run(base / "cutthroat3-field"), [open_run(base / "cutthroat-seat0")], "x")
    pair = [base / f"twohanded-seat{k}" for k in range(2)]
    with pytest.raises(AnalysisError, match="the seats are not those of"):
        check_pair([pair[0], pair[0]])
    with pytest.raises(AnalysisError, match="two tables of two players each alone"):
        check_pair(seats[:2])
