"""The Parquet files: read back unchanged, with the encodings rundir.py and the Spades tables promise."""
import json
import subprocess
import sys

import numpy as np
import pyarrow.parquet as pq
import pytest

from tricksim.simulator import columns
from tricksim.simulator.columns import dictionary_column
from tricksim.simulator.engine import RunConfig, run, run_to_tables
from tricksim.simulator.games.spades.rules import build_rules
from tricksim.simulator.games.spades.tables import ENCODING
from tricksim.simulator.rundir import _staging, commit, write_manifest_file, write_parquet_atomic, write_parquet_staged
from tricksim.strategies.registry import parse_spec


def _encodings(path, column):
    meta = pq.ParquetFile(path).metadata
    names = [meta.schema.column(i).name for i in range(meta.num_columns)]
    return set(meta.row_group(0).column(names.index(column)).encodings)


def test_hands_and_games_round_trip_with_the_chosen_encodings(tmp_path):
    cfg = RunConfig(rules=build_rules("classic"), seats=(parse_spec("simple"),) * 4, seed=5, mode="games",
                    count=50, record_plays=True)
    tables = run_to_tables(cfg)
    hands, games = tables["hands"], tables.get("games")
    for name, table in (("hands", hands), ("games", games)):
        path = tmp_path / f"{name}.parquet"
        write_parquet_atomic(table, path, ENCODING)
        assert pq.read_table(path).equals(table)
        assert not list(tmp_path.glob(".*"))  # no staging file left
    h, g = tmp_path / "hands.parquet", tmp_path / "games.parquet"
    for column in ("game_id", "hand_no", "dealer", "bid_0", "tricks_3", "score_1", "bags_0", "total_1"):
        assert "DELTA_BINARY_PACKED" in _encodings(h, column), column
    assert _encodings(h, "blind_2") == {"RLE"}
    assert "PLAIN" in _encodings(h, "dealt_0") and "RLE_DICTIONARY" not in _encodings(h, "dealt_0")
    assert "RLE_DICTIONARY" in _encodings(h, "strategy_0")
    assert "DELTA_BINARY_PACKED" in _encodings(g, "hands")
    assert "RLE_DICTIONARY" in _encodings(g, "end")
    assert pq.ParquetFile(h).metadata.row_group(0).column(0).statistics is not None  # game_id: readers filter on it


@pytest.mark.needs_jit("20 games of random play, most to the 1000-hand limit: about 30 s as pure Python under "
                        "coverage; the other tests of this file write and read the same tables")
def test_every_column_is_required(tmp_path):
    """No value is ever missing, so no column is nullable: the flat columns carry no definition
    levels (a third of the writing time of the hands file)."""
    cfg = RunConfig(rules=build_rules("cardems"), seats=(parse_spec("random"),) * 4, seed=2, mode="games",
                    count=20, record_plays=True)
    for name, table in run_to_tables(cfg).items():
        path = tmp_path / f"{name}.parquet"
        write_parquet_atomic(table, path, ENCODING)
        read = pq.read_table(path)
        assert read.equals(table) and not any(field.nullable for field in read.schema)
        schema = pq.ParquetFile(path).schema
        flat = [schema.column(i) for i in range(len(schema)) if schema.column(i).max_repetition_level == 0]
        assert len(flat) == len(table.column_names) - (name == "hands")  # all but plays
        assert all(column.max_definition_level == 0 for column in flat)


def test_columns_are_built_from_the_kernel_arrays_unchanged():
    """columns.column wraps numpy buffers for Arrow; bools are bit-packed (lengths not a multiple of 8)."""
    rng = np.random.default_rng(0)
    for n in (0, 1, 7, 8, 9, 1001):
        for dtype in (np.int8, np.int16, np.int32, np.int64):
            values = rng.integers(-100, 100, n).astype(dtype)
            assert columns.column(values).to_pylist() == values.tolist()
        flags = rng.integers(0, 2, n).astype(bool)
        assert columns.column(flags).to_pylist() == flags.tolist()
    codes = np.array([2, 0, 1, 2], np.int64)
    assert dictionary_column(codes, ("target", "mercy", "limit")).to_pylist() == ["limit", "target", "mercy", "limit"]
    assert dictionary_column(np.zeros(2, np.int8), ["simple:x=é"]).to_pylist() == ["simple:x=é"] * 2


def test_a_quiet_simulation_does_not_import_pandas(tmp_path):
    """pandas costs 0.2-0.4 s of a warm 10,000-hand command; only the summary and analysis need it."""
    code = ("import sys; from tricksim.cli import cli\n"
            "try: cli(['simulate', 'spades', '--games', '30', '--strategy', 'simple', '--out', sys.argv[1], '--quiet'])\n"
            "except SystemExit as e: assert e.code in (0, None), e.code\n"
            "assert 'pandas' not in sys.modules, 'pandas was imported'\n")
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "run")], check=True)
    assert (tmp_path / "run" / "games").is_dir()


def test_two_writers_of_one_shard_each_write_a_file_of_their_own(tmp_path):
    """Two processes (or a retried distributed task) writing the same shard at once must not write
    into one staging file: each stages its own, and whichever renames last leaves a whole file."""
    hands = run_to_tables(RunConfig(rules=build_rules("cardems"), seats=(parse_spec("simple"),) * 4, count=300))["hands"]
    path = tmp_path / "part-000000.parquet"
    first, second = write_parquet_staged(hands, path), write_parquet_staged(hands, path)
    assert first != second and first.name.startswith(".") and first.name.endswith(".tmp")
    assert _staging(path) != _staging(path)
    commit(second)
    commit(first)
    assert pq.read_table(path).equals(hands)
    assert [p.name for p in tmp_path.iterdir()] == ["part-000000.parquet"]


def test_resume_adds_the_earlier_compute_time(tmp_path):
    """The manifest's compute_seconds of a resumed run counts the time of the run it finished."""
    cfg = RunConfig(rules=build_rules("cardems"), seats=(parse_spec("simple"),) * 4, count=2000, shard_size=500)
    out = tmp_path / "run"
    run(cfg, out, progress=False)
    manifest = out / "manifest.json"
    data = json.loads(manifest.read_text())
    data["compute_seconds"] = 1000.0  # as if the interrupted first part had taken that long
    write_manifest_file(out, data)
    (out / "hands" / "part-000003.parquet").unlink()
    info = run(cfg, out, resume=True, progress=False)
    assert info["shards_written_this_session"] == 1 and 1000.0 < info["compute_seconds"] < 1100.0
