"""What-if Nil statistics (tricksim.analysis.games.spades.whatif): sampling, replay outcomes, table — no simulator needed."""
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from analysis_helpers import clustered, fake_games, hands_columns, write_run

from tricksim.analysis.games.spades.features import spade_count
from tricksim.analysis.games.spades.nil import nil_study
from tricksim.analysis.games.spades.whatif import (
    forced_outcomes,
    format_what_if,
    sample_non_nil,
    what_if_report,
    what_if_table,
)
from tricksim.analysis.io import AnalysisError
from tricksim.analysis.stats import wilson_interval

N = 50


def columns():
    """50 hands; seat 0 bids Nil in hands 0-9 (7 made), so 200 - 10 = 190 seat-hands are eligible.
    Seat s holds s + (hand % 3) spades (low spades from 2♠ up)."""
    c = hands_columns(N)
    c["bid_0"][:10] = 0
    c["tricks_0"][:10] = [0] * 7 + [1] * 3
    c["tricks_1"][:10] = 13 - 6 - c["tricks_0"][:10]
    rng = np.random.default_rng(5)
    for s in range(4):
        k = s + np.arange(N) % 3
        c[f"held_{s}"] = np.array([sum(1 << (39 + i) for i in range(j)) for j in k], np.int64)
        c[f"dealt_{s}"] = rng.integers(1, 2**52, N, dtype=np.int64)
    assert ((c["tricks_0"] + c["tricks_1"] + c["tricks_2"] + c["tricks_3"]) == 13).all()
    return c


@pytest.fixture
def run(tmp_path):
    return write_run(tmp_path / "run", columns(), mode="hands", n_files=3)


def original(run):
    return pq.read_table(run / "hands").to_pandas()


def replays_for(sample, run, tricks_fn=lambda gid, s: np.zeros(gid.size, np.int8), bid=0):
    """Replay tables per seat: the original rows of the sampled hands with the seat bidding ``bid``."""
    df = original(run)
    out = {}
    for s in sample.seats():
        t = df[df["game_id"].isin(sample.ids_for_seat(s))].copy()
        t[f"bid_{s}"] = bid
        t[f"tricks_{s}"] = tricks_fn(t["game_id"].to_numpy(), s)
        out[s] = t.iloc[::-1]   # any row order
    return out


def test_sample_only_non_nil_distinct_and_sized(run):
    smp = sample_non_nil(run, 40, seed=1)
    assert (smp.size, smp.eligible, smp.seat_hands, smp.requested) == (40, 190, 200, 40)
    pairs = set(zip(smp.game_id.tolist(), smp.seat.tolist()))
    assert len(pairs) == 40
    df = original(run)
    bids = df.set_index("game_id")[[f"bid_{s}" for s in range(4)]].to_numpy()
    assert all(bids[g, s] != 0 for g, s in pairs)
    assert (np.diff(smp.game_id) >= 0).all()
    assert (smp.dealt == df[[f"dealt_{s}" for s in range(4)]].to_numpy()[smp.game_id, smp.seat]).all()
    for s in smp.seats():
        ids = smp.ids_for_seat(s)
        assert (np.diff(ids) > 0).all() and set(ids) == {g for g, t in pairs if t == s}


def test_sample_is_reproducible_and_independent_of_batch_size(run):
    a = sample_non_nil(run, 30, seed=7)
    b = sample_non_nil(run, 30, seed=7, batch_rows=4)
    c = sample_non_nil(run, 30, seed=8)
    assert (a.game_id == b.game_id).all() and (a.seat == b.seat).all()
    assert not ((a.game_id == c.game_id).all() and (a.seat == c.seat).all())


def test_sample_takes_everything_when_n_exceeds_eligible(run):
    smp = sample_non_nil(run, 10_000)
    assert smp.size == smp.eligible == 190 and smp.requested == 10_000
    assert set(zip(smp.game_id.tolist(), smp.seat.tolist())) == {
        (g, s) for g in range(N) for s in range(4) if not (s == 0 and g < 10)}
    assert "sampled 190 of 190 eligible" in format_what_if(what_if_table(smp, np.ones(190, bool),
                                                                         np.zeros(190, bool)))


def test_sample_is_uniform_over_eligible_seat_hands(run):
    # seat 0 has 40 eligible seat-hands, seats 1-3 have 50: inclusion probability k/E for each
    k, reps = 19, 400
    counts = np.zeros(4)
    for seed in range(reps):
        counts += np.bincount(sample_non_nil(run, k, seed=seed).seat, minlength=4)
    expect = reps * k * np.array([40, 50, 50, 50]) / 190
    sd = np.sqrt(expect * (1 - np.array([40, 50, 50, 50]) / 190))
    assert (np.abs(counts - expect) < 4 * sd).all(), (counts, expect)


def test_groups_come_from_the_original_hand_as_dealt_or_held(run):
    df = original(run)
    for hand in ("dealt", "held"):
        smp = sample_non_nil(run, 100, seed=2, by="spades", **({} if hand == "dealt" else {"hand": hand}))
        cards = df[[f"{hand}_{s}" for s in range(4)]].to_numpy()[smp.game_id, smp.seat]
        assert smp.hand == hand and (smp.code == spade_count(cards)).all()
        assert smp.code.min() >= 0 and smp.labels[int(smp.code[0])] == str(int(smp.code[0]))
    assert "groups by the hand held after the Blind Nil exchange" in format_what_if(
        what_if_table(smp, np.ones(100, bool), np.zeros(100, bool)))
    by_seat = sample_non_nil(run, 100, seed=2, by="seat")
    assert (by_seat.code == by_seat.seat).all() and by_seat.labels[1] == "seat 1"


@pytest.mark.parametrize("make, message", [
    (lambda p: write_run(p, *fake_games(3, seed=1)), "needs a hands-mode run"),
    (lambda p: write_run(p, hands_columns(4), mode="hands", manifest={"rules": {"nil": False}}), "nil=false"),
])
def test_runs_that_cannot_be_replayed_are_refused(tmp_path, make, message):
    with pytest.raises(AnalysisError, match=message):
        sample_non_nil(make(tmp_path / "r"), 10)


def test_bad_arguments(run):
    with pytest.raises(AnalysisError, match="unknown grouping"):
        sample_non_nil(run, 10, by="nonsense")
    with pytest.raises(AnalysisError, match="at least 1"):
        sample_non_nil(run, 0)
    everyone_nil = hands_columns(3, **{f"bid_{s}": np.zeros(3, np.int8) for s in range(4)})
    with pytest.raises(AnalysisError, match="nothing to replay"):
        sample_non_nil(write_run(run.parent / "all_nil", everyone_nil, mode="hands"), 5)


def test_outcomes_table_and_comparison(run):
    smp = sample_non_nil(run, 60, seed=3, by="spades")
    def made_if(gid, s):   # the Nil makes in hands 0, 4, 8, ...
        return np.where(gid % 4 == 0, 0, 2).astype(np.int8)

    bid0, made = forced_outcomes(smp, replays_for(smp, run, made_if))
    assert bid0.all() and (made == (smp.game_id % 4 == 0)).all()
    df = what_if_table(smp, bid0, made, nil_study(run, "spades"))
    top = df.iloc[0]
    assert top.group == "all" and pd.isna(top.code)
    assert (top.sampled, top.forced, top.successes) == (60, 60, int(made.sum()))
    # several sampled seats can share a hand (one deal, replayed once per seat): clustered by hand
    ref = clustered(smp.game_id, made)
    assert top.rate == pytest.approx(made.mean()) and (top.lo, top.hi) == pytest.approx((ref["lo"], ref["hi"]))
    assert ref["clusters"] < 60 and (top.lo, top.hi) != pytest.approx(wilson_interval(int(made.sum()), 60))
    assert (top.nil_bids, top.nil_successes) == (10, 7) and top.nil_rate == pytest.approx(0.7)
    groups = df.iloc[1:]
    assert list(groups["code"]) == sorted(groups["code"])
    for r in groups.itertuples():
        m = smp.code == r.code
        assert (r.sampled, r.successes) == (m.sum(), made[m].sum())
    # seat 0's Nils were held with 0, 1, 2 spades (hand % 3): actual Nil counts by group
    assert groups["nil_bids"].sum() == 10 and groups["nil_successes"].sum() == 7
    text = format_what_if(df)
    assert "sampled 60 of 190 eligible seat-hands" in text and "seed 3" in text and "by spades:" in text
    assert "(n=60)" in text and "70.0 % [39.7, 89.2] (n=10)" in text


def test_seats_that_could_not_bid_nil_are_left_out(run):
    smp = sample_non_nil(run, 20, seed=4)
    reps = replays_for(smp, run, bid=2)
    bid0, made = forced_outcomes(smp, reps)
    assert not bid0.any() and not made.any()
    df = what_if_table(smp, bid0, made)
    assert df.iloc[0].forced == 0 and np.isnan(df.iloc[0].rate)
    assert "20 sampled seat-hands could not bid Nil" in format_what_if(df)


def test_replay_with_other_deals_or_missing_hands_is_refused(run):
    smp = sample_non_nil(run, 20, seed=4)
    reps = replays_for(smp, run)
    s = smp.seats()[0]
    bad = dict(reps)
    bad[s] = reps[s].assign(**{f"dealt_{s}": reps[s][f"dealt_{s}"] + 1})
    with pytest.raises(AnalysisError, match="other cards than the run"):
        forced_outcomes(smp, bad)
    bad[s] = reps[s].iloc[1:]
    with pytest.raises(AnalysisError, match="lacks some of the sampled hands"):
        forced_outcomes(smp, bad)
    with pytest.raises(AnalysisError, match="no replay for seat"):
        forced_outcomes(smp, {k: v for k, v in reps.items() if k != s})


def test_report_writes_table_and_chart(run, tmp_path):
    smp = sample_non_nil(run, 50, seed=0, by="seat")
    text = what_if_report(smp, replays_for(smp, run), save=tmp_path / "w.csv", chart=tmp_path / "w.svg")
    assert "table written to" in text and "chart written to" in text
    csv = pd.read_csv(tmp_path / "w.csv")
    assert list(csv["group"]) == ["all"] + [f"seat {s}" for s in smp.seats()]
    assert csv["sampled"].iloc[0] == 50 == csv["sampled"].iloc[1:].sum()
    assert (tmp_path / "w.svg").read_text().lstrip().startswith("<?xml")


def test_strategy_groups_are_the_labels_the_nil_study_uses(tmp_path):
    long = "simple:" + ",".join(f"p{i}={i}" for i in range(25))
    p = write_run(tmp_path / "r", columns(), mode="hands",
                  manifest={"seats": [long, "random", long, "random"], "seat_labels": ["mine", "rnd", "mine", "rnd"]})
    smp = sample_non_nil(p, 40, seed=1, by="strategy")
    df = what_if_table(smp, np.ones(40, bool), np.zeros(40, bool), nil_study(p, "strategy"))
    assert set(df["group"]) == {"all", "mine", "rnd"}
    assert df.set_index("group").loc["mine", "nil_bids"] == 10  # seat 0's own Nils, joined by label
