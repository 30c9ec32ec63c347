import numpy as np
import pytest
from analysis_helpers import fake_games, write_run

from tricksim.analysis.io import AnalysisError
from tricksim.analysis.report import IntHist, build_report, collect, key_table, plot_hist, plot_win_prob


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("report")
    h1, g1 = fake_games(25, seed=21, target=150, rules={"bag_overflow": "carry"})
    h2, g2 = fake_games(25, seed=22, target=150, rules={"bag_overflow": "reset"}, hand_no_base=1)
    h3, _ = fake_games(150, seed=23, fresh=True)
    carry = write_run(root / "carry", h1, g1, n_files=3)
    reset = write_run(root / "reset", h2, g2, n_files=2,
                      manifest={"preset": "zone", "rules": {"bag_overflow": "reset"}, "seats": ["simple"] * 4})
    hands = write_run(root / "hands", h3, None, mode="hands")
    return {"root": root, "carry": (carry, h1, g1), "reset": (reset, h2, g2), "hands": (hands, h3, None)}


@pytest.mark.parametrize("name", ["carry", "reset"])
def test_collect_games_numbers(runs, name):
    path, h, g = runs[name]
    st = collect(path, batch_rows=50)
    assert st.n_hands == len(h["game_id"]) and st.n_games == len(g["game_id"])
    assert st.wins0 == int((g["winner"] == 0).sum())
    assert st.length.mean == pytest.approx(np.mean(g["hands"]))
    assert st.score[0].mean == pytest.approx(np.mean(h["score_0"]))
    for t in (0, 1):
        # bags per game and penalties per game agree with the fake engine's own bookkeeping
        assert st.bags_game[t].mean == pytest.approx(np.mean(g[f"_bags_{t}"]))
        assert st.penalties_game[t].mean == pytest.approx(np.mean(g[f"_pen_{t}"]))
        assert st.totals_hist[t].n == len(g["game_id"])
    assert sum(st.ends.values()) == st.n_games
    # win curve: every hand except each game's deciding one, ties excluded
    curve = st.win_curve()
    not_tied = g["winner"] >= 0
    assert curve["n"].sum() == int(g["hands"][not_tied].sum() - not_tied.sum())
    assert (curve["wins"] <= curve["n"]).all()
    assert st.notes == []


def test_collect_hands_mode(runs):
    path, h, _ = runs["hands"]
    st = collect(path)
    assert not st.is_games and st.n_games == 0 and st.n_hands == 150
    assert st.score_hist[1].n == 150


def test_int_hist_rebin_and_clipping():
    hist = IntHist(-10, 10)
    hist.add([-30, -10, -1, 0, 0, 4, 5, 9, 10, 99])
    assert (hist.under, hist.over, hist.n) == (1, 1, 10)
    edges, counts = hist.rebin(5)
    assert counts.sum() == 10 and edges[0] == -10.5 and np.all(np.diff(edges) == 5)
    # bins [-10,-5) [-5,0) [0,5) [5,10) [10,15): clipped values land in the end bins
    assert counts.tolist() == [2, 1, 3, 2, 2]


def test_build_report_files_and_content(runs):
    out = runs["root"] / "out"
    res = build_report([runs["carry"][0], runs["reset"][0], runs["hands"][0]], out)
    expected = {"hand_scores", "final_totals", "game_length", "bags_per_game", "win_prob_vs_lead",
                "contract_made", "nil_rates"}
    assert set(res.charts) == expected
    for png, svg in res.charts.values():
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000
        assert svg.read_text()[:200].lstrip().startswith("<?xml") and "<svg" in svg.read_text()
    html = res.html.read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == len(expected)
    assert "<table" in html and "contract made, team 0" in html and "Win probability" not in html[:200]
    assert "(n=" in html and "team 0 lead after hand" in html
    assert "carry: cardems" in html and "reset: zone" in html  # caption with rule set and strategies
    assert "bag_overflow=reset" in html
    md = res.markdown.read_text(encoding="utf-8")
    assert "| metric | carry | reset | hands |" in md
    assert "![Distribution of hand scores per team](hand_scores.png)" in md
    key = res.tables["key"].set_index("metric")
    assert key.loc["hands", "hands"] == "150" and key.loc["games", "hands"] == "—"
    assert key.loc["contract made, team 0", "carry"].endswith(")") and "[" in key.loc["team 0 wins", "reset"]
    assert "bag penalties per hand, team 0" in key.index
    # every interval cell names its n
    for col in ("carry", "reset", "hands"):
        for v in key[col]:
            assert v in ("—",) or "(n=" in v or v.replace(",", "").isdigit(), v


def test_key_table_single_hands_run(runs):
    st = collect(runs["hands"][0])
    t = key_table([st]).set_index("metric")
    assert "team 0 wins" not in t.index and t.loc["Nil success", "hands"].count("n=") == 1


def test_plot_functions_return_what_they_drew(runs):
    from matplotlib.figure import Figure

    st = collect(runs["carry"][0])
    ax = Figure().add_subplot()
    series = {"team 0": st.score_hist[0].rebin(20)}
    assert plot_hist(ax, series) is series
    ax = Figure().add_subplot()
    drawn = plot_win_prob(ax, {"carry": st.win_curve()}, min_n=5)
    assert (drawn["carry"]["n"] >= 5).all() and ax.get_xlabel().startswith("team 0 lead")


def test_report_invalid_run(tmp_path):
    with pytest.raises(AnalysisError, match="manifest.json is missing"):
        (tmp_path / "empty").mkdir()
        build_report([tmp_path / "empty"], tmp_path / "out")
