import subprocess
import sys
from pathlib import Path

import numpy as np
from analysis_helpers import hands_columns, write_run

from tricksim.analysis.games.spades.summary import summary_numbers
from tricksim.analysis.summary import summarize_run

ROOT = Path(__file__).resolve().parents[2]


def test_known_hands_mode_summary(tmp_path):
    # 4 hands, all seats bid 3. Team 0 (seats 0+2) takes 4+3 = 7 >= 6 in hands 0-2 (made, 1 bag)
    # and 2+3 = 5 in hand 3 (set). Team 1 takes 6 in hands 0-2 (made), 8 in hand 3 (made, 2 bags).
    c = hands_columns(4)
    c["tricks_0"] = np.array([4, 4, 4, 2], np.int8)
    c["tricks_1"] = np.array([3, 3, 3, 5], np.int8)
    c["score_0"] = np.array([61, 61, 61, -60], np.int16)
    c["score_1"] = np.array([60, 60, 60, 62], np.int16)
    c["total_0"], c["total_1"] = c["score_0"].astype(np.int32), c["score_1"].astype(np.int32)
    c["bid_2"] = np.array([3, 3, 0, 3], np.int8)   # one Nil by seat 2 in hand 2, it fails (3 tricks)
    c["tricks_2"] = np.array([3, 3, 3, 3], np.int8)
    p = write_run(tmp_path / "r", c, mode="hands")
    r = summary_numbers(p)
    # (in hand 2 team 0's contract is seat 0's 3 alone: 4 tricks, made)
    assert r["hands"] == 4 and [m.k for m in r["made"]] == [3, 4] and [m.n for m in r["made"]] == [4, 4]
    # hand 2: seat 0 bids 3 takes 4 -> made; bags = 1 overtrick + 3 Nil tricks = 4
    assert r["bags"][0].mean == (1 + 1 + 4 + 0) / 4
    assert (r["nil_bid"].k, r["nil_ok"].k, r["blind_bid"].k) == (1, 0, 0)
    text = summarize_run(p)
    assert "4 hands" in text and "games" not in text.split("\n")[2]
    # Wilson 3/4: center = (0.75 + z²/8)/(1 + z²/4) = 0.627527, half = 0.326885 -> [30.1, 95.4]
    assert "team 0 75.0 % [30.1, 95.4] (n=4)" in text
    assert "team 1 100.0 % [51.0, 100.0] (n=4)" in text
    assert "hand score      team 0 30.75 [" in text
    assert "Blind Nil" not in text
    assert "95 % intervals over independent hands" in text.splitlines()[2]
    for line in text.splitlines()[3:]:
        assert "n=" in line and "[" in line, line


def test_games_mode_summary(games_run):
    text = summarize_run(games_run)
    for key in ("contract made", "hand score", "bags per hand", "Nil", "Blind Nil", "team 0 wins",
                "game length", "game ends", "30 games"):
        assert key in text, key
    for line in text.splitlines()[3:]:
        assert "(n=" in line and "[" in line, line
    ends = next(line for line in text.splitlines() if line.startswith("game ends"))
    assert "(n=30)" in ends  # each way a game ended: its share of the 30 games with its interval


def test_games_mode_intervals_are_clustered_by_game(games_run):
    """Every hand-level figure of a games-mode run: its interval from the per-game sums (pandas groupby here)."""
    import pandas as pd
    import pyarrow.parquet as pq
    from analysis_helpers import clustered

    h = pq.read_table(games_run / "hands").to_pandas()
    text = summarize_run(games_run)
    assert "95 % intervals clustered by game" in text.splitlines()[2]
    lines = {line[:16].strip(): line[16:] for line in text.splitlines()}

    def shown(ref, kind="rate", digits=None):
        if kind == "rate":
            d = digits or 1
            return f"{100 * ref['value']:.{d}f} % [{100 * ref['lo']:.{d}f}, {100 * ref['hi']:.{d}f}] (n={ref['n']:,})"
        d = digits or 2
        return f"{ref['value']:.{d}f} [{ref['lo']:.{d}f}, {ref['hi']:.{d}f}] (n={ref['n']:,})"

    for t in (0, 1):
        ref = clustered(h["game_id"], h[f"score_{t}"], kind="mean")
        assert f"team {t} " + shown(ref, "mean") in lines["hand score"]
    seat_rows = pd.DataFrame({"g": np.repeat(h["game_id"].to_numpy(), 4),
                              "bid": np.stack([h[f"bid_{s}"] for s in range(4)], axis=1).ravel(),
                              "blind": np.stack([h[f"blind_{s}"] for s in range(4)], axis=1).ravel(),
                              "tricks": np.stack([h[f"tricks_{s}"] for s in range(4)], axis=1).ravel()})
    nil = (seat_rows["bid"] == 0) & ~seat_rows["blind"]
    assert "bid " + shown(clustered(seat_rows["g"], nil)) in lines["Nil"]
    made = seat_rows[nil]
    assert "made " + shown(clustered(made["g"], made["tricks"] == 0)) in lines["Nil"]


def test_blind_nil_row_is_shown_alike_by_summary_and_nil(tmp_path):
    """Blind Nil allowed but never bid: summary prints its row; so does the Nil study (it used to drop it)."""
    from tricksim.analysis.games.spades.nil import format_nil_table, nil_study

    p = write_run(tmp_path / "r", hands_columns(8), mode="hands",
                  manifest={"preset": "classic", "rules": {"blind_nil": True, "bag_overflow": "carry"}})
    # 0 of 32 seat-hands in 8 hands of 4: n_eff = the 8 hands, upper bound z²/(8 + z²) = 3.8415 / 11.8415 = 32.4 %
    assert "Blind Nil       bid 0.0 % [0.0, 32.4] (n=32) of seat-hands   made — (n=0)" in summarize_run(p)
    df = nil_study(p)
    blind = df[df["kind"] == "Blind Nil"]
    assert len(blind) == 1 and (blind["bids"].iloc[0], blind["seat_hands"].iloc[0]) == (0, 32)
    assert "Blind Nil  all    0.0 % [0.0, 32.4] (n=32)" in format_nil_table(df)
    # rules without Blind Nil and no Blind Nil bid: neither shows it
    q = write_run(tmp_path / "q", hands_columns(8), mode="hands", manifest={"rules": {"blind_nil": False}})
    assert "Blind Nil" not in summarize_run(q) and "Blind Nil" not in set(nil_study(q)["kind"])


def test_summary_imports_no_heavy_modules(games_run):
    code = (
        "import sys\n"
        "from tricksim.analysis.summary import summarize_run\n"
        f"summarize_run({str(games_run)!r})\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('pandas', 'matplotlib', 'numba', 'scipy')\n"
        "       or m.startswith('tricksim.strategies')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_analysis_package_never_imports_numba_or_simulator():
    code = (
        "import sys\n"
        "import tricksim.analysis, tricksim.analysis.stats, tricksim.analysis.io, tricksim.analysis.games.spades.features, tricksim.analysis.games.spades.outcomes\n"
        "import tricksim.analysis.games.spades.nil, tricksim.analysis.report, tricksim.analysis.summary, tricksim.analysis.games.spades.compare, tricksim.analysis.games.spades.whatif\n"
        "import tricksim.analysis.games.spades.report, tricksim.analysis.games.tarot.report, tricksim.analysis.games.tarot.bidding\n"
        "bad = [m for m in sys.modules if m.split('.')[0] == 'numba'\n"
        "       or m.startswith('tricksim.strategies')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
