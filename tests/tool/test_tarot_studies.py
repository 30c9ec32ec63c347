"""Tarot studies: hand features, the bidding table, duplicate rotations and the forced-contract what-if."""
import numpy as np
import pyarrow as pa
import pytest

from tricksim.analysis.games.tarot.bidding import bidding_table, hand_features, sample_played
from tricksim.analysis.games.tarot.rotation import rotation_gain
from tricksim.cli import main
from tricksim.jobs.tarot.whatif import contract_what_if, with_bid
from tricksim.simulator.engine import RunConfig, replay_units, run
from tricksim.simulator.games.spades.rules import build_rules as spades_rules
from tricksim.simulator.games.tarot import cards
from tricksim.simulator.games.tarot.rules import build_rules
from tricksim.strategies.registry import parse_spec

RANDOM = parse_spec("random:chelem_prob=0.1", game="tarot")


@pytest.fixture(scope="module")
def tarot_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("tarot") / "run"
    run(RunConfig(game="tarot", rules=build_rules("cardavia"), seats=(RANDOM,) * 4, seed=4, mode="deals",
                  count=3000), out, progress=False)
    return out


def test_hand_features_worked_by_hand():
    # K Q C V of clubs, the ace of clubs, the Petit, trump 5, the Monde and the Excuse:
    # half-points 9 + 7 + 5 + 3 + 1 + 9 + 1 + 9 + 9 = 53 (26.5 points, band 25); oudlers 3; trumps 3
    lo, hi = cards.mask_of([13, 12, 11, 10, 0, 56, 60, 76, 77])
    # the four kings and trump 8 (card 63: bit 63 of lo, a negative int64)
    lo2, hi2 = cards.mask_of([13, 27, 41, 55, 63])
    f = hand_features(np.array([lo, lo2]), np.array([hi, hi2]))
    assert f["half_points"].tolist() == [53, 4 * 9 + 1]
    assert f["points"].tolist() == [25, 15]
    assert f["oudlers"].tolist() == [3, 0]
    assert f["trumps"].tolist() == [3, 1]
    assert f["kings"].tolist() == [1, 4]


def test_bidding_table_counts_every_played_deal_once(tarot_run):
    import pyarrow.parquet as pq

    d = pq.read_table(tarot_run / "deals").to_pydict()
    played = [i for i, v in enumerate(d["void"]) if v == 0]
    rows = bidding_table(tarot_run, "oudlers")
    assert sum(r["n"] for r in rows) == len(played)
    assert sum(r["won"] for r in rows) == sum(d["won"][i] for i in played)
    gardes = [i for i in played if d["contract"][i] == 2]
    assert sum(r["n"] for r in rows if r["contract"] == "garde") == len(gardes)


def test_rotation_gain_is_the_mean_seat_difference():
    # two deals; the field scores (a) and the tested strategy in seat r of each rotation
    def table(ids, scores):
        return pa.table({"deal_id": ids, **{f"score_{s}": [row[s] for row in scores] for s in range(4)}})
    field = table([0, 1], [[30, -10, -10, -10], [-60, 20, 20, 20]])
    rotated = [table([0, 1], [[60, -20, -20, -20], [-60, 20, 20, 20]]),   # seat 0: +30, 0
               table([0, 1], [[-30, 10, 10, 10], [-60, 20, 20, 20]]),     # seat 1: +20, 0
               table([0, 1], [[30, -10, -10, -10], [-30, 10, 10, 10]]),   # seat 2: 0, -10
               table([0, 1], [[30, -10, -10, -10], [-75, 25, 25, 25]])]   # seat 3: 0, +5
    est, gains = rotation_gain(field, rotated)
    assert gains.tolist() == [(30 + 20 + 0 + 0) / 4, (0 + 0 - 10 + 5) / 4]
    assert est.n == 2 and est.value == pytest.approx((12.5 - 1.25) / 2)


def test_forced_contract_replays_force_the_taker_and_nothing_else(tarot_run):
    sample = sample_played(tarot_run, 200, seed=1)
    m = {"game": "tarot", "rules": build_rules("cardavia"), "seed": 4, "mode": "deals", "count": 3000}
    for contract in (1, 3):
        for s in range(4):
            ids = sample["deal_id"][sample["taker"] == s]
            seats = tuple(with_bid(RANDOM, contract if i == s else 0) for i in range(4))
            t = replay_units(RunConfig(seats=seats, **m), ids).to_pydict()
            assert set(t["taker"]) <= {s} and set(t["contract"]) <= {contract}
            assert all(t[f"bid_{i}"][k] == (contract if i == s else 0) for i in range(4) for k in range(len(ids)))
    # Prise and Garde differ only in the multiplier: the same cards and play, so the same wins
    text = contract_what_if(tarot_run, 300, seed=2)
    lines = {line.split()[0]: line for line in text.splitlines()[2:7]}
    assert lines["prise"].split()[1:6] == lines["garde"].split()[1:6]


def test_study_commands(tarot_run, capsys):
    for args in (["bidding", str(tarot_run), "--by", "trumps"],
                 ["bidding", str(tarot_run), "--what-if", "100", "--seed", "3"]):
        with pytest.raises(SystemExit) as e:
            main(args)
        assert e.value.code == 0
        assert "(95 % intervals; n = deals)" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:
        main(["bidding", str(tarot_run), "--by", "colour"])
    assert e.value.code == 2
    assert capsys.readouterr().err.startswith("Error: unknown feature --by 'colour': allowed oudlers | trumps")


def test_compare_runs_duplicate_rotations(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main(["compare", "random", "random:chelem_prob=0", "--game", "tarot", "--deals", "300", "--out",
              str(tmp_path / "cmp")])
    assert e.value.code == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("preset cardavia (the default: choose one with --preset); rules as the preset; seed 0; 300 deals, "
                      "each played by the field alone and with the other strategy in each seat")
    out = out[1:]
    assert out[0].startswith("random in a field of random:chelem_prob=0: ") and "(n = 300 deals" in out[0]
    assert sorted(p.name for p in (tmp_path / "cmp").iterdir()) == sorted(
        [f"{t}-field" for t in ("ab", "ba")] + [f"{t}-seat{r}" for t in ("ab", "ba") for r in range(4)])
    # Chelem announced at random loses points: the strategy that never announces gains in a random field
    gain = float(out[1].split(": ")[1].split()[0])
    assert gain > 0, out[1]


def test_report_handles_tarot_and_mixed_runs(tarot_run, tmp_path):
    import pyarrow.parquet as pq

    from tricksim.analysis.report import build_report

    spades = tmp_path / "spades"
    run(RunConfig(rules=spades_rules("cardems"), seats=(parse_spec("random"),) * 4, seed=1, mode="hands", count=500),
        spades, progress=False)
    res = build_report([tarot_run, spades], tmp_path / "rep")
    assert {"tarot_taker_success", "tarot_taker_scores", "hand_scores"} <= set(res.charts)
    table = res.tables["tarot"].set_index("metric")
    d = pq.read_table(tarot_run / "deals").to_pydict()
    played = [i for i, v in enumerate(d["void"]) if v == 0]
    gardes = [i for i in played if d["contract"][i] == 2]
    won = sum(d["won"][i] for i in gardes)
    assert table.loc["garde: taker wins", "run"].startswith(f"{100 * won / len(gardes):.1f} %")
    assert table.loc["garde: taker wins", "run"].endswith(f"(n={len(gardes):,})")
    assert "## Tarot key results" in res.markdown.read_text() and "## Key results" in res.markdown.read_text()
