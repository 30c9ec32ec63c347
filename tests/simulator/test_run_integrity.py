"""A run folder that cannot lie (issue #17): every damage named in one line, repaired by --resume.

Damages of a finished run: a shard deleted, a shard copied in from elsewhere, bytes flipped inside a
column, a truncated or empty shard, a stray staging file, a manifest missing, truncated, not an object
or with its shard list edited. Readers (summary, report, ...) refuse with one line (exit 2);
``tricksim verify`` names each bad file; ``--resume`` recomputes what is bad and ends with the data of
an untouched run.
"""
import json
import shutil

import pyarrow.parquet as pq
import pytest

from tricksim.cli import main

ARGS = ["simulate", "spades", "--hands", "2000", "--shard-size", "500", "--strategy", "simple", "--seed", "5",
        "--threads", "1", "--quiet"]


def cli(args, capsys):
    with pytest.raises(SystemExit) as e:
        main(args)
    out, err = capsys.readouterr()
    return e.value.code, out, err


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    d = tmp_path_factory.mktemp("runs") / "clean"
    with pytest.raises(SystemExit):
        main(ARGS + ["--out", str(d)])
    return d


def _flip(path, column="score_0"):
    """64 bytes flipped in the middle of ``column``'s data (the summary reads it)."""
    meta = pq.ParquetFile(path).metadata.row_group(0)
    chunk = next(meta.column(i) for i in range(meta.num_columns) if meta.column(i).path_in_schema == column)
    start = chunk.dictionary_page_offset or chunk.data_page_offset
    at = start + chunk.total_compressed_size // 2 - 32
    data = bytearray(path.read_bytes())
    for i in range(at, at + 64):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))


DAMAGES = {
    "shard deleted": lambda d: (d / "hands" / "part-000002.parquet").unlink(),
    "shard copied in": lambda d: shutil.copy(d / "hands" / "part-000001.parquet", d / "hands" / "part-000009.parquet"),
    "bytes flipped": lambda d: _flip(d / "hands" / "part-000001.parquet"),
    "shard truncated": lambda d: (d / "hands" / "part-000003.parquet").write_bytes(
        (d / "hands" / "part-000003.parquet").read_bytes()[:5000]),
    "shard emptied": lambda d: (d / "hands" / "part-000000.parquet").write_bytes(b""),
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_damage_is_named_and_resume_repairs_it(clean, tmp_path, capsys, damage):
    d = tmp_path / "run"
    shutil.copytree(clean, d)
    DAMAGES[damage](d)
    # verify names the bad file; exit 2
    code, _, err = cli(["verify", str(d)], capsys)
    assert code == 2 and "part-00000" in err and "Traceback" not in err
    # readers refuse in one line (bytes flipped inside the data: the Parquet page checksums catch them)
    code, out, err = cli(["summary", str(d)], capsys)
    assert code == 2 and err.count("\n") == 1 and "part-00000" in err, err
    # --resume recomputes what is bad and ends with the clean run's data
    code, _, err = cli(ARGS + ["--out", str(d), "--resume"], capsys)
    assert code == 0, err
    assert cli(["verify", str(d)], capsys)[0] == 0
    read = lambda x: pq.read_table(x / "hands").sort_by("game_id")  # noqa: E731
    assert read(d).equals(read(clean))
    assert not list(d.rglob("*.tmp"))


def test_flipped_bytes_fail_the_page_checksums_too(clean, tmp_path, capsys):
    d = tmp_path / "run"
    shutil.copytree(clean, d)
    m = json.loads((d / "manifest.json").read_text())
    _flip(d / "hands" / "part-000001.parquet")
    # even with the file's recorded checksum edited to match, the Parquet page checksums fail
    from tricksim.simulator.rundir import file_crc32
    m["shards"][1]["files"]["hands"]["crc32"] = file_crc32(d / "hands" / "part-000001.parquet")
    (d / "manifest.json").write_text(json.dumps(m))
    code, _, err = cli(["verify", str(d)], capsys)
    assert code == 2 and "page checksums" in err


@pytest.mark.parametrize("manifest, message", [
    (None, "manifest.json is missing"),
    ('{"game": "spades", "mode": "hands", "shar', "not valid JSON"),
    ("[1, 2]", "not a JSON object"),
])
def test_a_damaged_manifest_is_named(clean, tmp_path, capsys, manifest, message):
    d = tmp_path / "run"
    shutil.copytree(clean, d)
    if manifest is None:
        (d / "manifest.json").unlink()
    else:
        (d / "manifest.json").write_text(manifest)
    code, _, err = cli(["summary", str(d)], capsys)
    assert code == 2 and message in err and err.count("\n") == 1


def test_a_stray_staging_file_is_ignored_by_readers_and_removed_by_resume(clean, tmp_path, capsys):
    d = tmp_path / "run"
    shutil.copytree(clean, d)
    (d / "hands" / ".part-000001.parquet.abc123.tmp").write_bytes(b"half a file")
    assert cli(["summary", str(d)], capsys)[0] == 0
    assert cli(ARGS + ["--out", str(d), "--resume"], capsys)[0] == 0
    assert not list(d.rglob("*.tmp"))


def test_the_same_run_twice_is_refused(clean, capsys):
    code, _, err = cli(["nil", str(clean), str(clean)], capsys)
    assert code == 2 and "given twice" in err


def test_a_run_that_cannot_fit_on_the_disk_is_refused_before_any_work(tmp_path, capsys, monkeypatch):
    import collections

    from tricksim.simulator import engine

    usage = collections.namedtuple("usage", "total used free")
    monkeypatch.setattr(engine.shutil, "disk_usage", lambda p: usage(10**9, 10**9 - 10**6, 10**6))
    code, _, err = cli(["simulate", "spades", "--hands", "100000", "--quiet", "--out", str(tmp_path / "big")], capsys)
    # 100,000 hands of about 75 bytes: 7.5 MB against 1 MB free
    assert code == 2 and err.startswith("Error: the run needs about 7.5 MB on disk but ") and "1.0 MB free" in err
    assert not list((tmp_path / "big" / "hands").glob("*.parquet"))


def test_ctrl_c_says_how_to_resume(tmp_path, capsys, monkeypatch):
    from tricksim.simulator import engine

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(engine, "run", interrupted)
    code, _, err = cli(ARGS + ["--out", str(tmp_path / "r")], capsys)
    assert code == 130 and err.count("\n") == 1
    assert "rerun the same command with --resume to finish" in err


def test_pooled_figures_say_what_differs_and_what_is_unfinished(clean, tmp_path, capsys):
    other = tmp_path / "zone"
    assert cli(["simulate", "spades", "--hands", "500", "--preset", "zone", "--quiet", "--out", str(other)],
               capsys)[0] == 0
    code, out, _ = cli(["nil", str(clean), str(other)], capsys)
    assert code == 0
    assert "note: pooled over 2 runs whose presets differ" in out
    assert "note: pooled over 2 runs whose rules differ in bag_overflow" in out
    running = tmp_path / "running"
    shutil.copytree(clean, running)
    m = json.loads((running / "manifest.json").read_text())
    m["status"] = "running"
    del m["shards"]
    (running / "manifest.json").write_text(json.dumps(m))
    code, out, _ = cli(["nil", str(running)], capsys)
    assert code == 0 and f"note: {running} is running: its figures cover the shards written so far" in out


def test_a_shard_size_that_cannot_fit_in_memory_is_refused(tmp_path, capsys, monkeypatch):
    from tricksim.simulator import engine

    monkeypatch.setattr(engine, "available_memory", lambda: 102_400_000)
    code, _, err = cli(["simulate", "spades", "--hands", "1000000", "--shard-size", "500000", "--threads", "1",
                        "--quiet", "--out", str(tmp_path / "r")], capsys)
    # 500,000 hands of about 600 bytes: 300 MB on one worker
    assert code == 2 and err.startswith("Error: shards of 500,000 hands on 1 worker need about 300.0 MB of memory")
    assert err.rstrip().endswith("use --shard-size 170,666 or less")
    assert not (tmp_path / "r").exists()
