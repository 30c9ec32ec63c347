import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from analysis_helpers import fake_games, hands_columns, write_run

from tricksim.analysis.games.spades.outcomes import rule
from tricksim.analysis.io import AnalysisError, batch_arrays, open_run, open_runs


def test_open_valid_run(games_run):
    run = open_run(games_run)
    assert run.mode == "games" and run.is_games and run.preset == "cardems"
    assert run.seats == ["random", "simple", "random", "simple"]
    assert run.team_strategies() == ("random", "simple")
    assert len(run.hand_files) == 3 and len(run.game_files) == 1
    assert run.count_hands() == sum(1 for _ in run.read_hands(["game_id"]).column(0))
    assert run.count_games() == 30
    assert open_run(run) is run
    assert isinstance(AnalysisError("x"), ValueError)


@pytest.mark.parametrize(
    "setup, message",
    [
        (lambda p: None, "no such run directory"),
        (lambda p: p.write_text("x"), "not a directory"),
        (lambda p: p.mkdir(), "manifest.json is missing"),
        (lambda p: (p.mkdir(), (p / "manifest.json").write_text("{oops")), "not valid JSON"),
        (lambda p: (p.mkdir(), (p / "manifest.json").write_text("[1]")), "not a JSON object"),
        (lambda p: (p.mkdir(), (p / "manifest.json").write_text('{"name": "x"}')), "not a tricksim manifest"),
        (lambda p: (p.mkdir(), (p / "manifest.json").write_text('{"game": "bridge", "mode": "hands"}')),
         "game='bridge' runs are not supported"),
        (lambda p: (p.mkdir(), (p / "manifest.json").write_text('{"game": "tarot", "mode": "hands"}')),
         "unknown mode 'hands' (expected deals | games)"),
        (lambda p: (p.mkdir(), (p / "manifest.json").write_text('{"game": "spades", "mode": "x"}')), "unknown mode"),
        (lambda p: (p.mkdir(), (p / "manifest.json").write_text('{"game": "spades", "mode": "hands"}')),
         "hands/*.parquet is empty or missing"),
        (lambda p: (p.mkdir(), (p / "manifest.json").write_text('{"game": "spades", "mode": "hands", "seats": [1]}')),
         "'seats' must be a list of 4"),
    ],
)
def test_invalid_run_dirs(tmp_path, setup, message):
    p = tmp_path / "run"
    setup(p)
    with pytest.raises(AnalysisError) as e:
        open_run(p)
    text = str(e.value)
    assert message in text and str(p) in text and "\n" not in text


def test_games_mode_without_games_files(tmp_path):
    hands, games = fake_games(2, seed=1, target=100)
    p = write_run(tmp_path / "r", hands, games)
    for f in (p / "games").glob("*.parquet"):
        f.unlink()
    with pytest.raises(AnalysisError, match="games/\\*.parquet is empty"):
        open_run(p)


def test_missing_column_and_bad_file(tmp_path):
    cols = hands_columns(5)
    del cols["tricks_3"]
    p = write_run(tmp_path / "r", cols)
    run = open_run(p)
    with pytest.raises(AnalysisError, match="lack column\\(s\\) tricks_3"):
        list(run.iter_hands(["bid_0", "tricks_3"]))
    (p / "hands" / "zz-bad.parquet").write_bytes(b"not parquet")
    with pytest.raises(AnalysisError, match="cannot read Parquet"):
        open_run(p).count_hands()
    with pytest.raises(AnalysisError, match="no run directories"):
        open_runs([])


def test_batches_over_files_equal_one_file(tmp_path):
    hands, games = fake_games(10, seed=2, target=120)
    one = open_run(write_run(tmp_path / "one", hands, games, n_files=1))
    many = open_run(write_run(tmp_path / "many", hands, games, n_files=4))
    cols = ["game_id", "bid_1", "blind_2", "score_0"]
    a = [batch_arrays(b, cols) for b in one.iter_hands(cols, batch_rows=7)]
    b = [batch_arrays(b, cols) for b in many.iter_hands(cols, batch_rows=5)]
    assert len(b) > len(a) > 1
    for c in cols:
        assert np.array_equal(np.concatenate([x[c] for x in a]), np.concatenate([x[c] for x in b]))
    # projection: only the asked columns are read
    batch = next(many.iter_hands(["bid_1"]))
    assert batch.schema.names == ["bid_1"]


def test_batch_arrays_buffers_with_offsets():
    t = pa.table({"i8": pa.array([1, -2, 3, 4, 5], pa.int8()), "b": pa.array([True, False, True, True, False]),
                  "u16": pa.array([1, 2, 3, 4, 5], pa.uint16()), "f": pa.array([0.5, 1, 2, 3, 4]),
                  "s": pa.array(list("abcde"))})
    sl = t.slice(1, 3)  # non-zero offsets
    a = batch_arrays(sl)
    assert a["i8"].tolist() == [-2, 3, 4] and a["b"].tolist() == [False, True, True]
    assert a["u16"].dtype == np.uint16 and a["f"].tolist() == [1.0, 2.0, 3.0] and a["s"].tolist() == ["b", "c", "d"]
    chunked = pa.concat_tables([t, t])
    assert batch_arrays(chunked, ["i8"])["i8"].tolist() == [1, -2, 3, 4, 5] * 2
    with pytest.raises(AnalysisError, match="null"):
        batch_arrays(pa.table({"x": pa.array([1, None])}))
    with pytest.raises(AnalysisError, match="lacks column"):
        batch_arrays(t, ["nope"])
    import pandas as pd

    assert batch_arrays(pd.DataFrame({"x": [1, 2]}))["x"].tolist() == [1, 2]


def test_manifest_helpers(tmp_path):
    p = write_run(tmp_path / "r", hands_columns(3), manifest={"seats": ["a", "b", "c", "b"], "status": "running"})
    run = open_run(p)
    assert run.team_strategies() == ("a / c", "b")
    assert run.status == "running"
    # a flag the manifest lacks reads as the rules' default (RULES.md 1.4: 10 bags)
    assert rule({}, "bag_limit") == 10 and rule({"bag_limit": 5}, "bag_limit") == 5
    m = json.loads((p / "manifest.json").read_text())
    m.pop("seats")
    (p / "manifest.json").write_text(json.dumps(m))
    assert open_run(p).seats == ["unknown"] * 4
    pq.write_table(pa.table({"other": [1]}), p / "hands" / "z.parquet")
    with pytest.raises(AnalysisError, match="columns differ"):
        open_run(p).hands_schema()


def test_atomic_output_appears_whole_or_not_at_all(tmp_path):
    from tricksim.analysis.io import atomic_output

    target = tmp_path / "chart.png"
    with atomic_output(target) as tmp:
        assert tmp.suffix == ".png" and tmp != target  # writers that pick the format from the suffix still can
        tmp.write_bytes(b"new")
    assert target.read_bytes() == b"new"
    try:
        with atomic_output(target) as tmp:
            tmp.write_bytes(b"half")
            raise RuntimeError("the writer broke")
    except RuntimeError:
        pass
    assert target.read_bytes() == b"new"  # the old file untouched, nothing half-written left
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chart.png"]
