import numpy as np
import pytest
from analysis_helpers import fake_games, hands_columns, write_run

from tricksim.analysis.games.spades.report import collect, key_table, plot_win_prob
from tricksim.analysis.io import AnalysisError
from tricksim.analysis.plots import IntHist, plot_hist
from tricksim.analysis.report import build_report


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
    assert st.wins[0] == int((g["winner"] == 0).sum())
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
    path, _, _ = runs["hands"]
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
    assert "<td>zone</td>" in html  # the preset and the flags that differ from it (none)
    assert "intervals clustered by game" in html and "Hands-mode runs: every hand is dealt and played on its own" in html
    md = res.markdown.read_text(encoding="utf-8")
    assert "| metric | carry | reset | hands |" in md
    assert "![Distribution of hand scores per team](hand_scores.png)" in md
    assert "intervals clustered by game" in md
    key = res.tables["key"].set_index("metric")
    assert key.loc["hands", "hands"] == "150" and key.loc["games", "hands"] == "—"
    assert key.loc["contract made, team 0", "carry"].endswith(")") and "[" in key.loc["team 0 wins", "reset"]
    assert "bag penalties per hand, team 0" in key.index
    assert key.loc["hand-level intervals", "carry"] == "clustered by game"
    assert key.loc["hand-level intervals", "hands"] == "hands independent; Nil: by hand"
    # every interval cell names its n
    for col in ("carry", "reset", "hands"):
        for metric, v in key[col].items():
            if metric != "hand-level intervals":
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


def _pct_text(ref: dict) -> str:
    return f"{100 * ref['value']:.1f} % [{100 * ref['lo']:.1f}, {100 * ref['hi']:.1f}] (n={ref['n']:,})"


def test_hand_level_rows_are_clustered_by_game(runs):
    """Key results over a games run: each hand-level interval from the per-game sums (pandas groupby here)."""
    from analysis_helpers import clustered

    from tricksim.analysis.games.spades.outcomes import team_outcomes

    path, h, _ = runs["carry"]
    key = key_table([collect(path, batch_rows=7)]).set_index("metric")["carry"]
    o = team_outcomes({k: np.asarray(v) for k, v in h.items()}, 0, {"bag_overflow": "carry"})
    contract = o["has_contract"]
    assert key["contract made, team 0"] == _pct_text(clustered(h["game_id"][contract], o["made"][contract]))
    ref = clustered(h["game_id"], h["score_1"], kind="mean")
    assert key["hand score, team 1"] == f"{ref['value']:.2f} [{ref['lo']:.2f}, {ref['hi']:.2f}] (n={ref['n']:,})"
    seat_g = np.repeat(h["game_id"], 4)
    blind = np.stack([h[f"blind_{s}"] for s in range(4)], axis=1).ravel()
    nil = (np.stack([h[f"bid_{s}"] for s in range(4)], axis=1).ravel() == 0) & blind
    assert key["Blind Nil bid rate (per seat-hand)"] == _pct_text(clustered(seat_g, nil))


def test_win_rate_by_lead_is_clustered_by_game_in_equal_bins(runs):
    from analysis_helpers import clustered

    from tricksim.analysis.games.spades.report import lead_bin, lead_bin_label, win_prob_table

    path, h, g = runs["carry"]
    st = collect(path, batch_rows=11)
    winner = dict(zip(g["game_id"], g["winner"]))
    hands = dict(zip(g["game_id"], g["hands"]))
    w = np.array([winner[i] for i in h["game_id"]])
    keep = (w >= 0) & (h["hand_no"] != np.array([hands[i] for i in h["game_id"]]) - 1)  # not the deciding hand
    lead = (h["total_0"] - h["total_1"])[keep]
    table = win_prob_table([st]).set_index("team 0 lead after hand (points)")["carry"]
    curve = st.win_curve()
    checked = 0
    for b in np.unique(lead_bin(lead)):
        m = lead_bin(lead) == b
        ref = clustered(h["game_id"][keep][m], (w[keep] == 0)[m])
        games = ref["clusters"]
        want = _pct_text(ref)[:-1] + f"; {games} game{'s' if games != 1 else ''})"
        assert table[lead_bin_label(int(b))] == want
        row = curve[curve["bin"] == b].iloc[0]
        assert (row["lo"], row["hi"]) == pytest.approx((ref["lo"], ref["hi"]))
        checked += ref["n"] > ref["clusters"]
    assert checked >= 3  # bins where some game gave several hands: the clustering mattered


def test_lead_bins_have_equal_widths_and_say_their_range():
    from tricksim.analysis.games.spades.report import LEAD_BIN, N_LEAD, lead_bin, lead_bin_label, lead_bin_range

    leads = np.arange(-700, 701)
    bins = lead_bin(leads)
    inner = [b for b in range(1, N_LEAD - 1)]
    for b in inner:  # every inner bin holds LEAD_BIN consecutive leads, its label names the first and last
        members = leads[bins == b]
        assert members.size == LEAD_BIN and lead_bin_label(b) == f"{members[0]} to {members[-1]}"
        assert lead_bin_range(b) == (members[0], members[-1])
    # rounding used to put 51 leads (-25..25) in the middle bin and 49 in its neighbours (26..74)
    assert lead_bin(np.array([-25, -1, 0, 25, 49, 50, 74, 75]) ).tolist() == [10, 10, 11, 11, 11, 12, 12, 12]
    assert lead_bin_label(0) == "≤ -501" and lead_bin_label(N_LEAD - 1) == "≥ 500"
    assert (leads[bins == 0] <= -501).all() and (leads[bins == N_LEAD - 1] >= 500).all()


def test_histograms_of_the_variants_share_their_bin_edges(runs, tmp_path):
    # a variant whose hand scores span 30 points beside one whose scores span hundreds: one set of bins
    c = hands_columns(60, score_0=np.arange(60, dtype=np.int16) % 31, score_1=np.arange(60, dtype=np.int16) % 17)
    narrow = write_run(tmp_path / "narrow", c, mode="hands")
    res = build_report([runs["carry"][0], narrow, runs["reset"][0]], tmp_path / "out")
    for chart in ("hand_scores", "final_totals", "bags_per_game"):
        edges = [e for panel in res.drawn[chart].values() for e, _ in panel.values()]
        assert len(edges) >= 4 and all(np.array_equal(e, edges[0]) for e in edges), chart
        assert len(set(np.diff(edges[0]))) == 1
    assert sum(counts.sum() for _, counts in res.drawn["hand_scores"]["narrow"].values()) == 120


def test_the_page_holds_short_cells_and_each_caption_once(runs, tmp_path):
    import re

    long = "heuristic:" + ",".join(f"param_{i}={i / 7:.4f}" for i in range(22))  # 350 characters
    h, g = fake_games(6, seed=9, target=150)
    labelled = write_run(tmp_path / "labelled", h, g, manifest={"seats": [long] * 4, "seat_labels": ["cautious"] * 4})
    old = write_run(tmp_path / "old", h, g, manifest={"seats": [long, "random", long, "random"],  # no seat_labels
                                                      "rules": {"target": 300}})
    res = build_report([labelled, old, runs["hands"][0]], tmp_path / "out")
    for name, table in res.tables.items():
        for cell in [*table.columns, *table.astype(str).to_numpy().ravel()]:
            assert len(str(cell)) <= 100, (name, cell)
    page = res.html.read_text(encoding="utf-8")
    text = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "", page)
    cells = re.findall(r"<t[dh]>(.*?)</t[dh]>", text, re.DOTALL)
    assert cells and max(len(c) for c in cells) <= 100
    assert "all seats cautious" in text and "team 0 = heuristic; team 1 = random" in text
    assert "<td>cardems + target=300</td>" in text
    assert long in text  # the full spec stays on the page, once per run, outside the tables
    # each chart's caption is drawn under it in the image; the page repeats neither it nor the title
    assert text.count("<figcaption>") == len(res.charts)
    for caption in ("labelled: cardems", "old: cardems", "hands: cardems"):
        assert caption not in text
    for title in ("Distribution of hand scores per team", "Game length in hands"):
        assert text.count(title) == 1  # the img alt text only


def test_a_reused_out_folder_loses_the_old_reports_charts_only(runs, tmp_path):
    out = tmp_path / "out"
    first = build_report([runs["carry"][0], runs["hands"][0]], out)
    (out / "mine.png").write_bytes(b"a chart of my own")
    second = build_report([runs["hands"][0]], out)  # a hands-mode run alone: no game-level charts
    gone = set(first.charts) - set(second.charts)
    assert {"final_totals", "game_length", "bags_per_game", "win_prob_vs_lead"} <= gone
    files = {p.name for p in out.iterdir()}
    assert not {f"{name}.{ext}" for name in gone for ext in ("png", "svg")} & files
    assert {f"{name}.{ext}" for name in second.charts for ext in ("png", "svg")} <= files
    assert (out / "mine.png").read_bytes() == b"a chart of my own"


def test_captions_are_plain_words_and_each_run_counts_in_its_own_units(runs, tmp_path):
    """The caption under a chart names each run's rules, players and size in words (a flag as 'bag_overflow
    reset', not Python's True or None); the runs table has a column per unit the runs count."""
    from tricksim.analysis.games.spades.report import variant_caption

    jokers = write_run(tmp_path / "jokers", *fake_games(5, seed=24, target=150),
                       manifest={"rules": {"bag_overflow": "carry", "jokers": True}})
    stats = [collect(p) for p in (runs["carry"][0], runs["reset"][0], runs["hands"][0], jokers)]
    lines = variant_caption(stats).splitlines()
    for line in lines:
        assert not any(word in line for word in ("True", "False", "None", "(unset)", "=")), line
    carry, reset, hands, with_jokers = lines
    assert "cardems rules, with bag_overflow carry, jokers false;" in carry  # a flag not written: its default
    assert "zone rules, with bag_overflow reset, jokers false;" in reset
    assert "cardems rules, with bag_overflow carry, jokers true;" in with_jokers
    assert carry.endswith(f"{len(runs['carry'][1]['game_id']):,} hands in 25 whole games")
    assert hands.endswith("150 independent hands") and "team 0 plays random, team 1 plays simple" in hands
    table = build_report([runs["carry"][0], runs["hands"][0]], tmp_path / "out").tables["runs"]
    assert list(table.columns[table.columns.get_loc("seed") + 1:][:2]) == ["hands", "games"]
    assert table.set_index("run").loc["hands", "games"] == "—"


def test_the_charts_are_the_same_bytes_from_report_to_report(runs, tmp_path):
    """Two reports of the same runs: every chart file (SVG: no date, no random ids; PNG) byte for byte the
    same (#26), so a report kept under version control changes only where the data do."""
    a = build_report([runs["carry"][0], runs["hands"][0]], tmp_path / "a")
    b = build_report([runs["carry"][0], runs["hands"][0]], tmp_path / "b")
    for name, (png, svg) in a.charts.items():
        assert svg.read_bytes() == b.charts[name][1].read_bytes(), f"{svg.name} differs between two reports"
        assert png.read_bytes() == b.charts[name][0].read_bytes(), f"{png.name} differs between two reports"


def test_a_dangling_link_as_the_output_folder_is_named_in_one_line(runs, tmp_path):
    (tmp_path / "out").symlink_to(tmp_path / "nowhere")
    with pytest.raises(AnalysisError, match=r"^out=.*/out is a symbolic link to .*/nowhere, which does not exist"):
        build_report([runs["carry"][0]], tmp_path / "out")
