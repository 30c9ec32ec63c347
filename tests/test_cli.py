"""The command line: one-line errors with exit code 2, and a tiny real run read back."""
import json

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from simulator.cli import cli, main


def run_main(args, capsys):
    with pytest.raises(SystemExit) as e:
        main(args)
    out = capsys.readouterr()
    return e.value.code, out.out, out.err


@pytest.mark.parametrize("args, message", [
    (["simulate", "spades", "--hands", "10", "--out", "X", "--rule", "target=abc"],
     "Error: invalid value target='abc': allowed an integer from 1 to 100000"),
    (["simulate", "spades", "--hands", "10", "--out", "X", "--preset", "bridge"],
     "Error: unknown preset 'bridge': allowed cardems | zone | classic"),
    (["simulate", "spades", "--hands", "10", "--out", "X", "--strategy", "genius"],
     "Error: unknown strategy 'genius': allowed "),
    (["simulate", "spades", "--hands", "10", "--out", "X", "--strategy", "random:nil_prob=2"],
     "Error: invalid value nil_prob='2': allowed a number from 0 to 1"),
    (["simulate", "spades", "--hands", "10", "--games", "3", "--out", "X"],
     "Error: give exactly one of --hands N or --games N"),
    (["simulate", "tarot", "--hands", "10", "--out", "X"], "Error: unknown game 'tarot'"),
    (["simulate", "spades", "--hands", "0", "--out", "X"], "Error: Invalid value for '--hands'"),
    (["simulate", "spades", "--hands", "10", "--out", "X", "--seat", "5=random"], "Error: bad --seat '5=random'"),
    (["rules", "spades", "--preset", "nope"], "Error: unknown preset 'nope'"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main(args, capsys)
    assert code == 2
    assert err.startswith(message)
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "X").exists()  # nothing written


def test_tiny_real_run_is_read_back(tmp_path):
    out = tmp_path / "run"
    r = CliRunner().invoke(cli, ["simulate", "spades", "--preset", "classic", "--games", "20", "--seed", "2",
                                 "--out", str(out), "--team", "1=random", "--record-plays", "--quiet"])
    assert r.exit_code == 0, r.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["count"] == 20 and manifest["seed"] == 2
    assert manifest["rules"]["blind_nil"] is True and manifest["seats"][1].startswith("random")
    games = pq.read_table(out / "games")
    hands = pq.read_table(out / "hands")
    assert games.num_rows == 20 and hands.num_rows == games["hands"].to_numpy().sum()
    assert set(hands.column_names) >= {"game_id", "hand_no", "dealer", "first_leader", "dealt_0", "held_3", "bid_2",
                                       "blind_1", "tricks_0", "score_0", "bags_1", "total_0", "plays", "strategy_1"}
    assert hands["strategy_1"][0].as_py().startswith("random")


def test_rules_listing_names_every_flag():
    from dataclasses import fields

    from simulator.rules import SpadesRules
    r = CliRunner().invoke(cli, ["rules", "spades"])
    assert r.exit_code == 0
    for f in fields(SpadesRules):
        assert f.name in r.output
