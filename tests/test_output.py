"""The Parquet files: read back unchanged, with the encodings output.py promises."""
import pyarrow.parquet as pq

from simulator.engine import RunConfig, run_to_tables
from simulator.output import write_parquet_atomic
from simulator.rules import build_rules
from strategies.registry import parse_spec


def _encodings(path, column):
    meta = pq.ParquetFile(path).metadata
    names = [meta.schema.column(i).name for i in range(meta.num_columns)]
    return set(meta.row_group(0).column(names.index(column)).encodings)


def test_hands_and_games_round_trip_with_the_chosen_encodings(tmp_path):
    cfg = RunConfig(rules=build_rules("classic"), seats=(parse_spec("simple"),) * 4, seed=5, mode="games",
                    count=50, record_plays=True)
    hands, games = run_to_tables(cfg)
    for name, table in (("hands", hands), ("games", games)):
        path = tmp_path / f"{name}.parquet"
        write_parquet_atomic(table, path)
        assert pq.read_table(path).equals(table)
        assert not (tmp_path / f"{name}.parquet.tmp").exists()
    h, g = tmp_path / "hands.parquet", tmp_path / "games.parquet"
    for column in ("game_id", "hand_no", "dealer", "bid_0", "tricks_3", "score_1", "bags_0", "total_1"):
        assert "DELTA_BINARY_PACKED" in _encodings(h, column), column
    assert _encodings(h, "blind_2") == {"RLE"}
    assert "PLAIN" in _encodings(h, "dealt_0") and "RLE_DICTIONARY" not in _encodings(h, "dealt_0")
    assert "RLE_DICTIONARY" in _encodings(h, "strategy_0")
    assert "DELTA_BINARY_PACKED" in _encodings(g, "hands")
    assert "RLE_DICTIONARY" in _encodings(g, "end")
    assert pq.ParquetFile(h).metadata.row_group(0).column(0).statistics is not None  # game_id: readers filter on it


def test_every_column_is_required(tmp_path):
    """No value is ever missing, so no column is nullable: the flat columns carry no definition
    levels (a third of the writing time of the hands file)."""
    cfg = RunConfig(rules=build_rules("cardems"), seats=(parse_spec("random"),) * 4, seed=2, mode="games",
                    count=20, record_plays=True)
    for name, table in zip(("hands", "games"), run_to_tables(cfg)):
        path = tmp_path / f"{name}.parquet"
        write_parquet_atomic(table, path)
        read = pq.read_table(path)
        assert read.equals(table) and not any(field.nullable for field in read.schema)
        schema = pq.ParquetFile(path).schema
        flat = [schema.column(i) for i in range(len(schema)) if schema.column(i).max_repetition_level == 0]
        assert len(flat) == len(table.column_names) - (name == "hands")  # all but plays
        assert all(column.max_definition_level == 0 for column in flat)
