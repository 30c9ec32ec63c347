"""``tricksim sweep`` without partnerships (issue #28): each value plays a rotation (alone in each seat in turn
against a field of the baseline, and the field table; two players: the two seat tables, a duplicate pair), and the
table's figures are those of the runs' games, recomputed here from their Parquet with pandas and the textbook
formulas (clustered by deal)."""
import math
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from tricksim.cli import cli

SEATS = {"cutthroat": 4, "cutthroat3": 3, "twohanded": 2}
GAMES = 12
T_11 = 2.200985  # the t distribution's 97.5 % point at 11 degrees of freedom (GAMES - 1), from tables
GRID = "heuristic:bid_adjust=-0.3|1"  # -0.3 is the heuristic's default: the first value is the baseline itself


def _by_deal(folder, n):
    """Per deal (game id): the share of the n seat tables the value won from its seat, and its mean lead over
    the best other seat there."""
    rows = []
    for k in range(n):
        g = pd.read_parquet(folder.parent / f"{folder.name}-seat{k}" / "games")
        totals = g[[f"total_{s}" for s in range(n)]].to_numpy(np.int64)
        others = np.delete(totals, k, axis=1).max(axis=1)
        rows.append(pd.DataFrame({"game_id": g["game_id"], "won": (g["winner"] == k).astype(float),
                                  "lead": totals[:, k] - others}))
    return pd.concat(rows).groupby("game_id").mean()


def _wilson(p, n, conf=0.95):
    z = NormalDist().inv_cdf(1 - (1 - conf) / 2)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def _pct(v, lo, hi):
    return f"{100 * v:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]"


@pytest.mark.parametrize("preset", sorted(SEATS))
def test_a_sweep_without_partnerships_plays_rotations(tmp_path, preset):
    n = SEATS[preset]
    out = tmp_path / "sw"
    res = CliRunner().invoke(cli, ["sweep", GRID, "--vs", "heuristic", "--preset", preset, "--games", str(GAMES),
                                   "--hand-limit", "15", "--confirm", "0", "--out", str(out)])
    assert res.exit_code == 0, res.output
    tables = n + 1 if n > 2 else 2  # two players: the two seat tables are a duplicate pair, no field
    assert f"each in a rotation (each player alone: every deal played on {tables} tables" in res.output
    assert (out / "point1-field").is_dir() == (n > 2) and (out / f"point1-seat{n - 1}").is_dir()
    table = pd.read_csv(out / "sweep.csv")
    assert table["bid_adjust"].tolist() == [-0.3, 1] and table["deals"].tolist() == [GAMES, GAMES]
    assert table["differs from baseline"].tolist()[0] == "= baseline" and list(table["best"].fillna("")) == ["", "*"]
    # the baseline's value plays the field table alone: every seat is the field's
    assert not (out / "point0-seat0").exists() and (out / "point0-field").is_dir()
    for i, folder in enumerate((out / "point0-field", out / "point1")):
        if i == 0:  # the field stands for each of its seat tables
            g = pd.read_parquet(folder / "games")
            totals = g[[f"total_{s}" for s in range(n)]].to_numpy(np.int64)
            lead = sum(totals[:, k] - np.delete(totals, k, axis=1).max(axis=1) for k in range(n)) / n
            d = pd.DataFrame({"won": (g["winner"] >= 0).to_numpy() / n,  # one seat of n won each decided game
                              "lead": lead}, index=g["game_id"])
        else:
            d = _by_deal(folder, n)
        assert len(d) == GAMES
        # win rate: the seat-games won (each deal's n seat-games one cluster); Wilson at the effective n
        p = d["won"].mean()
        var = d["won"].var(ddof=1) / GAMES  # the clustered variance of the rate (equal clusters)
        ne = n * GAMES / max(1.0, var / (p * (1 - p) / (n * GAMES))) if 0 < p < 1 else min(n * GAMES, GAMES)
        assert table.loc[i, "win rate (95 %)"] == _pct(p, *_wilson(p, ne))
        # margin: the mean lead over the best other seat, t interval on deals - 1 degrees of freedom
        m, se = d["lead"].mean(), d["lead"].std(ddof=1) / math.sqrt(GAMES)
        half = T_11 * se
        assert table.loc[i, "margin (95 %)"] == f"{m:+.1f} [{m - half:+.1f}, {m + half:+.1f}]"
    assert (out / "sweep.png").stat().st_size > 10_000
    assert "intervals clustered by deal" in res.output and f"{100 / n:.3g} % = no edge" in res.output


@pytest.mark.parametrize("args, words", [
    (["--vs", "pimc", "--preset", "cutthroat"], "pimc"),
    (["--vs", "heuristic", "--preset", "twohanded", "--rule", "seats=4"], "seats"),
])
def test_bad_sweeps_without_partnerships_exit_2_in_one_line(tmp_path, args, words):
    res = CliRunner().invoke(cli, ["sweep", GRID, *args, "--games", "2", "--out", str(tmp_path / "sw")])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output
    assert words in res.output and not (tmp_path / "sw").exists()
