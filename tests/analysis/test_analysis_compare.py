import math

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from analysis_helpers import fake_games, write_run

from tricksim.analysis.games.spades.compare import (
    duplicate_match,
    duplicate_match_runs,
    format_duplicate,
    plot_round_robin,
    round_robin_table,
    standings,
)
from tricksim.analysis.io import AnalysisError
from tricksim.analysis.stats import mean_ci


def games(ids, winners, t0, t1, hands):
    return pa.table({"game_id": pa.array(ids, pa.int64()), "hands": pa.array(hands, pa.int16()),
                     "total_0": pa.array(t0, pa.int32()), "total_1": pa.array(t1, pa.int32()),
                     "winner": pa.array(winners, pa.int8()), "end": ["target"] * len(ids)})


def test_known_duplicate_match():
    # A is team 0 in run 1, team 1 in run 2. Pairs by game_id (run 2 listed in another order):
    #   game 1: run1 winner 0 (A), run2 winner 1 (A)  -> A won both, score 1
    #   game 2: run1 winner 0 (A), run2 winner 0 (B)  -> split, score 0.5
    #   game 3: run1 winner 1 (B), run2 winner 0 (B)  -> A won neither, score 0
    #   game 4: run1 tie (-1) = ½,  run2 winner 1 (A) -> split, score 0.75
    # mean pair score = 2.25 / 4 = 0.5625; squared deviations .191406 + .003906 + .316406 + .035156
    # = .546875, / 3 -> sd = 0.426956; t(0.975, 3) = 3.182446
    # half-width = 3.182446 * 0.426956 / 2 = 0.679380
    g1 = games([1, 2, 3, 4], [0, 0, 1, -1], [500, 510, 300, 400], [400, 300, 520, 400], [10, 12, 14, 60])
    g2 = games([4, 3, 2, 1], [1, 0, 0, 1], [350, 505, 520, 200], [450, 200, 480, 530], [60, 11, 13, 9])
    r = duplicate_match(g1, g2, a="A", b="B")
    assert (r.n_pairs, r.both, r.one, r.none) == (4, 1, 2, 1)
    assert r.win.value == pytest.approx(0.5625)
    assert r.pair_sd == pytest.approx(0.426956, abs=1e-6)
    # the t interval 0.5625 ± 0.679380 is clipped to [0, 1]
    assert mean_ci([1, 0.5, 0, 0.75]).hi - 0.5625 == pytest.approx(0.679380, abs=1e-5)
    assert (r.win.lo, r.win.hi) == (0.0, 1.0)
    # unpaired: A won 4 of 8 games outright (ties count as non-wins there)
    assert (r.win_unpaired.k, r.win_unpaired.n) == (4, 8)
    # A's margins: run 1 (A = team 0) total_0 - total_1; run 2 (A = team 1) total_1 - total_0
    m1 = np.array([100, 210, -220, 0])
    m2 = np.array([530 - 200, 480 - 520, 200 - 505, 450 - 350])  # games 1..4 of run 2, A = team 1
    assert r.margin.value == pytest.approx(((m1 + m2) / 2).mean())
    assert r.length.value == pytest.approx(((np.array([10, 12, 14, 60]) + np.array([9, 13, 11, 60])) / 2).mean())
    # sample size: edge 0.0625, sd 0.426956: ((1.959964 + 0.841621) * 0.426956 / 0.0625)² = 366.1 -> 367 pairs
    assert r.n_pairs_needed == 367
    assert math.isfinite(r.n_games_needed_unpaired) and r.n_games_needed_unpaired > r.n_pairs_needed
    text = format_duplicate(r)
    assert "4 deal pairs = 8 games" in text and "56.2 % [" in text and "(n=4)" in text
    t = r.table()
    assert list(t.columns) == ["metric", "A", "B", "A − B"] and t.iloc[0]["B"].startswith("43.8 %")
    # pandas input works the same
    r2 = duplicate_match(g1.to_pandas(), g2.to_pandas())
    assert r2.win.value == r.win.value


def test_unmatched_and_disjoint_games():
    g1 = games([1, 2, 3], [0, 0, 0], [1, 1, 1], [0, 0, 0], [5, 5, 5])
    g2 = games([2, 3, 9], [1, 1, 1], [0, 0, 0], [1, 1, 1], [5, 5, 5])
    r = duplicate_match(g1, g2)
    assert r.n_pairs == 2 and r.both == 2 and "2 game(s) present in only one run" in r.notes[0]
    assert r.win.value == 1.0
    with pytest.raises(AnalysisError, match="share no game_id"):
        duplicate_match(g1, games([7], [0], [0], [0], [1]))


def test_duplicate_match_runs_with_hands(tmp_path):
    # the same fake deals and play in both runs: every pair is split, A − B differences are 0
    h, g = fake_games(12, seed=5, target=150)
    ab = write_run(tmp_path / "ab", h, g, n_files=2, manifest={"seats": ["x", "y", "x", "y"]})
    ba = write_run(tmp_path / "ba", h, g, n_files=3, manifest={"seats": ["y", "x", "y", "x"]})
    r = duplicate_match_runs(ab, ba)
    assert (r.a, r.b) == ("x", "y") and r.notes == []
    assert r.one == r.n_pairs and r.win.value == pytest.approx(0.5)
    bags = r.per_hand["bags per hand"]
    total_bags = g["_bags_0"].sum() + g["_bags_1"].sum()
    assert bags["a"].value == pytest.approx(total_bags / (2 * g["hands"].sum()))
    assert bags["diff"].value == pytest.approx(0.0)
    pens = r.per_hand["bag penalties per game"]
    assert pens["a"].value == pytest.approx((g["_pen_0"] + g["_pen_1"]).mean() / 2)
    assert "sets (failed contracts) per game" in r.per_hand
    assert math.isinf(r.n_pairs_needed)
    # not swapped / different seed: flagged in notes
    bad = write_run(tmp_path / "bad", h, g, manifest={"seats": ["x", "y", "x", "y"], "seed": 2})
    notes = " ".join(duplicate_match_runs(ab, bad).notes)
    assert "not swapped" in notes and "seeds differ" in notes
    h2, g2 = fake_games(12, seed=6, target=150)
    other = write_run(tmp_path / "other", h2, g2, manifest={"seats": ["y", "x", "y", "x"]})
    assert any("dealt the same cards" in n for n in duplicate_match_runs(ab, other).notes)
    hands_only = write_run(tmp_path / "h", h, None, mode="hands")
    with pytest.raises(AnalysisError, match="needs games-mode runs"):
        duplicate_match_runs(ab, hands_only)


def test_round_robin():
    def result(a_wins_both, split, none):
        n = a_wins_both + split + none
        w = [0] * a_wins_both + [0] * split + [1] * none
        w2 = [1] * a_wins_both + [0] * split + [0] * none
        ids = list(range(n))
        return duplicate_match(games(ids, w, [0] * n, [0] * n, [5] * n), games(ids, w2, [0] * n, [0] * n, [5] * n))

    res = {("x", "y"): result(6, 2, 2), ("x", "z"): result(3, 4, 3), ("y", "z"): result(2, 4, 4)}
    t = round_robin_table(res)
    assert list(t.index) == ["x", "y", "z"] and t.loc["x", "x"] == "—"
    assert t.loc["x", "y"].startswith("70.0 % [") and t.loc["y", "x"].startswith("30.0 % [")
    s = standings(res)
    assert s.iloc[0]["strategy"] == "x" and s.iloc[0]["mean win rate"] == pytest.approx((0.7 + 0.5) / 2)
    assert (s["lo"] < s["mean win rate"]).all() and s.iloc[0]["pairs"] == 20
    from matplotlib.figure import Figure

    ax = Figure().add_subplot()
    m = plot_round_robin(ax, res)
    assert isinstance(m, pd.DataFrame) and m.loc["z", "x"] == pytest.approx(0.5)
    assert ax.get_title().startswith("Round robin")


def test_one_sided_match_has_a_nonzero_interval():
    # B wins every game: every pair scores 0, the t interval would have zero width;
    # Wilson on 0 of 5 pairs instead: upper = z²/(n + z²) = 3.841459 / 8.841459 = 0.434482
    n = 5
    ids = list(range(n))
    r = duplicate_match(games(ids, [1] * n, [0] * n, [9] * n, [5] * n), games(ids, [0] * n, [9] * n, [0] * n, [5] * n))
    assert (r.win.value, r.win.lo) == (0.0, 0.0) and r.win.hi == pytest.approx(0.434482, abs=1e-6)
    assert r.none == n and r.n_pairs_needed == 2
    # unpaired, p = 0 vs 0.5: (z_a * 0.5)² / 0.25 = z_a² = 3.84 -> 4 games
    assert r.n_games_needed_unpaired == 4


def _match(scores):
    """A duplicate match whose pair scores (A's view) are ``scores`` (each 0, ½ or 1), on deals 0, 1, 2, ..."""
    n = len(scores)
    w1 = [0 if s >= 0.5 else 1 for s in scores]                  # run 1: A (team 0) wins unless the pair scores 0
    w2 = [1 if s == 1 else 0 for s in scores]                    # run 2: A (team 1) wins only for a pair score of 1
    ids = list(range(n))
    return duplicate_match(games(ids, w1, [0] * n, [0] * n, [5] * n), games(ids, w2, [0] * n, [0] * n, [5] * n))


def test_round_robin_standings_are_clustered_by_deal():
    # every match plays deals 0-4 (one seed): x's pair scores against y and z on the same deals
    #   vs y: 1, ½, 1, ½, 1      vs z: 1, 1, ½, ½, ½
    # per-deal means over the opponents: 1, ¾, ¾, ½, ¾ -> mean 0.75; squared deviations 1/16 + 1/16 = 0.125,
    # sd = sqrt(0.125 / 4) = 0.176777, t(0.975, 4) = 2.776445 (tables): half = 2.776445 · 0.176777 / √5 = 0.219497
    # (taking the two matches as independent gave √(2 · 0.340039²) / 2 = 0.240442)
    res = {("x", "y"): _match([1, 0.5, 1, 0.5, 1]), ("x", "z"): _match([1, 1, 0.5, 0.5, 0.5]),
           ("y", "z"): _match([0.5, 0, 1, 0.5, 0.5])}
    assert list(res[("x", "y")].pair_scores) == [1, 0.5, 1, 0.5, 1]
    x = standings(res).set_index("strategy").loc["x"]
    assert x["mean win rate"] == pytest.approx(0.75) and x["deals"] == 5 and x["pairs"] == 10
    assert (x["lo"], x["hi"]) == pytest.approx((0.75 - 0.219497, 0.75 + 0.219497), abs=1e-6)
    assert x["text"] == "75.0 % [53.1, 96.9] (n=5)"


def test_labels_never_run_into_their_values():
    long = "heuristic:bag_mode=avoid,nil_threshold=0.3"
    r = _match([1, 0.5, 1, 0.5, 1])
    r.a, r.b = long, "bold"
    text = format_duplicate(r)
    assert text.splitlines()[0].startswith(f"Duplicate match: A = {long}, B = bold  (5 deal pairs = 10 games; 95 %")
    import re

    for line in text.splitlines()[1:]:
        m = re.fullmatch(r"(\S.*?\S)\s{2,}(\S.*)", line)  # a label, two spaces at least, its value
        assert m, line
        assert "(n=" in m[2] or " / " in m[2] or "pairs" in m[2], line


def wcag_contrast(a, b) -> float:
    """The contrast ratio of two colours (WCAG 2: relative luminances, (L1 + 0.05) / (L2 + 0.05))."""
    from matplotlib.colors import to_rgb

    def lum(c):
        lin = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in to_rgb(c)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_heat_map_text_is_readable_on_every_cell():
    """Win rates from 2 % to 98 % (the colour map's dark ends and its pale middle): every cell's text contrasts
    with the cell's colour at least 4.5:1 (WCAG AA)."""
    from types import SimpleNamespace

    from matplotlib.figure import Figure

    rates = {("a", "b"): 0.02, ("a", "c"): 0.5, ("a", "d"): 0.98, ("b", "c"): 0.2, ("b", "d"): 0.85,
             ("c", "d"): 0.65}
    res = {k: SimpleNamespace(win=SimpleNamespace(value=v, lo=v - 0.01, hi=v + 0.01, n=100)) for k, v in rates.items()}
    ax = Figure().add_subplot()
    plot_round_robin(ax, res)
    im = ax.images[0]
    assert len(ax.texts) == 12
    for t in ax.texts:
        j, i = (round(x) for x in t.get_position())
        background = im.cmap(im.norm(im.get_array()[i, j]))
        assert wcag_contrast(t.get_color(), background) >= 4.5, (t.get_text(), t.get_color(), background)
