"""The Python API (issue #19): tricksim.simulate / open / the studies as functions; the command line is a thin
layer over it (the same data for the same options); the notebook in docs runs end to end."""
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import tricksim
from tricksim.cli import cli

ROOT = Path(__file__).resolve().parents[2]


def test_simulate_returns_a_run_with_pandas_tables(tmp_path):
    run = tricksim.simulate("spades", preset="classic", games=30, seed=1, out=tmp_path / "r",
                            seats={0: "heuristic", 1: "simple", 2: "heuristic", 3: "simple"})
    hands, games = run.hands(), run.games()
    assert len(games) == 30 and set(hands["game_id"]) == set(games["game_id"])
    assert run.preset == "classic" and run.seats[1].startswith("simple")
    assert run.hands(["score_0"], arrow=True).num_columns == 1
    again = tricksim.open(tmp_path / "r")
    assert again.hands().equals(hands)


def test_the_command_line_writes_the_api_data(tmp_path):
    res = CliRunner().invoke(cli, ["simulate", "spades", "--hands", "3000", "--seed", "7", "--team", "1=simple",
                                   "--out", str(tmp_path / "cli"), "--quiet"])
    assert res.exit_code == 0, res.output
    tricksim.simulate("spades", hands=3000, seed=7, teams={1: "simple"}, out=tmp_path / "api")
    for part in ("hands",):
        assert pq.read_table(tmp_path / "cli" / part).equals(pq.read_table(tmp_path / "api" / part))


def test_a_notebook_cell_run_again_reuses_the_run_and_refuses_another(tmp_path):
    out = tmp_path / "r"
    tricksim.simulate("spades", hands=2000, seed=3, out=out)
    stamp = (out / "manifest.json").stat().st_mtime_ns
    tricksim.simulate("spades", hands=2000, seed=3, out=out)  # the same run: nothing recomputed
    assert (out / "manifest.json").stat().st_mtime_ns == stamp
    with pytest.raises(tricksim.TricksimError,
                       match=r"holds another run \(it was started with different options \(seed\)\): pass overwrite"):
        tricksim.simulate("spades", hands=2000, seed=4, out=out)
    assert tricksim.simulate("spades", hands=2000, seed=4, out=out, overwrite=True).manifest["seed"] == 4


@pytest.mark.parametrize("call, words", [
    (lambda: tricksim.simulate("spades", deals=10), "exactly one of hands=N or games=N"),
    (lambda: tricksim.simulate("bridge", hands=10), "unknown game 'bridge'"),
    (lambda: tricksim.simulate("spades", hands=10, rules={"bag_limit": 0}), "bag_limit"),
    (lambda: tricksim.simulate("spades", hands=10, seats={5: "simple"}), "seat 5 does not exist"),
    (lambda: tricksim.simulate("spades", hands=10, seats="genius"), "unknown spades strategy 'genius'"),
    (lambda: tricksim.open("/no/such/run"), "no such run directory"),
    (lambda: tricksim.nil("/no/such/run"), "no such run directory"),
])
def test_bad_input_is_one_line(call, words):
    with pytest.raises(tricksim.TricksimError, match=words) as e:
        call()
    assert "\n" not in str(e.value)


@pytest.mark.needs_jit("the notebook plays a few thousand games: many minutes as pure Python")
def test_the_notebook_runs_end_to_end(tmp_path):
    """docs/notebook.py, a script of cells, in a fresh interpreter with small sizes."""
    env = {**os.environ, "TRICKSIM_NOTEBOOK_SIZE": "small", "TRICKSIM_NOTEBOOK_OUT": str(tmp_path / "nb")}
    res = subprocess.run([sys.executable, str(ROOT / "docs" / "notebook.py")], check=False, cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stderr[-3000:]
    assert "avoid's win rate" in res.stdout and (tmp_path / "nb" / "nil.png").stat().st_size > 5000
    assert (tmp_path / "nb" / "report" / "report.html").exists() and (tmp_path / "nb" / "sweep" / "sweep.csv").exists()
    assert (tmp_path / "nb" / "atlas" / "atlas.html").exists() and "paired win rate" in res.stdout


def test_a_notebook_cell_does_not_reuse_a_run_made_by_other_code(tmp_path, monkeypatch):
    """The run in ``out`` has the cell's options but was made by other code (here: this process pretends to be
    other code): it is not taken as the cell's result (#26)."""
    from tricksim.simulator import SOURCE_HASH, engine

    out = tmp_path / "r"
    tricksim.simulate("spades", hands=2000, seed=3, out=out)
    monkeypatch.setattr(engine, "SOURCE_HASH", "0123456789abcdef")
    with pytest.raises(tricksim.TricksimError) as e:
        tricksim.simulate("spades", hands=2000, seed=3, out=out)
    assert str(e.value) == (f"{out} holds another run (it was made by other tricksim code (source {SOURCE_HASH}; "
                            "this is 0123456789abcdef), whose data could differ): pass overwrite=True to replace "
                            "it, or another out")
    assert tricksim.simulate("spades", hands=2000, seed=3, out=out, overwrite=True).manifest["source"] == \
        "0123456789abcdef"
