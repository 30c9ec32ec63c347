"""A run folder that cannot lie (issue #17): every damage named in one line, repaired by --resume.

Damages of a finished run: a shard deleted, a shard copied in from elsewhere, bytes flipped inside a
column, a truncated or empty shard, a stray staging file, a manifest missing, truncated, not an object
or with its shard list edited. Readers (summary, report, ...) refuse with one line (exit 2);
``tricksim verify`` names each bad file; ``--resume`` recomputes what is bad and ends with the data of
an untouched run.
"""
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys

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


def reseal(d, m):
    """Write ``m`` as the manifest of ``d`` with the checksum of its content (as the run writes it)."""
    from tricksim.simulator.rundir import write_manifest_file

    write_manifest_file(d, m)


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
    code, _, err = cli(["summary", str(d)], capsys)
    assert code == 2 and err.count("\n") == 1 and "part-00000" in err, err
    # --resume recomputes what is bad and ends with the clean run's data
    code, _, err = cli(ARGS + ["--out", str(d), "--resume"], capsys)
    assert code == 0, err
    assert cli(["verify", str(d)], capsys)[0] == 0
    read = lambda x: pq.read_table(x / "hands").sort_by("game_id")
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
    reseal(d, m)
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
    assert not (tmp_path / "big").exists()  # refused before the folder was made: a plain retry is not blocked


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
    reseal(running, m)
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


# ---------------------------------------------------------------- runs that cannot mislead (issue #26)
@pytest.fixture(scope="module")
def other(tmp_path_factory):
    """Another run of the same shape (same shard names and row counts), another seed."""
    d = tmp_path_factory.mktemp("runs") / "other"
    with pytest.raises(SystemExit):
        main([*ARGS[:ARGS.index("--seed")], "--seed", "6", "--threads", "1", "--quiet", "--out", str(d)])
    return d


def _state(d):
    """Every file of folder ``d`` with its bytes: what a refusal must leave as it was."""
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def test_every_file_carries_the_run_id_and_its_shard_and_the_manifest_its_checksum(clean):
    m = json.loads((clean / "manifest.json").read_text())
    assert len(m["run_id"]) == 32 and int(m["run_id"], 16) >= 0 and m["format_version"] == 3
    body = {k: v for k, v in m.items() if k != "manifest_sha256"}  # docs/output.md: canonical JSON, sorted keys
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    assert m["manifest_sha256"] == hashlib.sha256(canonical).hexdigest()
    files = sorted((clean / "hands").glob("part-*.parquet"))
    assert len(files) == 4 == len(m["shards"])
    for k, f in enumerate(files):
        kv = pq.ParquetFile(f).metadata.metadata
        assert kv[b"tricksim.run_id"].decode() == m["run_id"] and kv[b"tricksim.shard"] == str(k).encode()
        assert m["shards"][k]["run_id"] == m["run_id"] and m["shards"][k]["files"]["hands"]["bytes"] == f.stat().st_size


def test_a_shard_of_another_run_with_the_same_name_and_rows_is_named(clean, other, tmp_path, capsys):
    d = tmp_path / "run"
    shutil.copytree(clean, d)
    shutil.copy(other / "hands" / "part-000001.parquet", d / "hands" / "part-000001.parquet")
    assert pq.ParquetFile(d / "hands" / "part-000001.parquet").metadata.num_rows == 500  # same rows as its own
    for command in (["summary", str(d)], ["nil", str(d)]):
        code, _, err = cli(command, capsys)
        assert code == 2 and err.count("\n") == 1 and "hands/part-000001.parquet belongs to another run" in err, err
    code, _, err = cli(["verify", str(d)], capsys)
    assert code == 2 and "part-000001.parquet" in err
    assert cli(ARGS + ["--out", str(d), "--resume"], capsys)[0] == 0
    read = lambda x: pq.read_table(x / "hands").sort_by("game_id")
    assert read(d).equals(read(clean)) and cli(["verify", str(d)], capsys)[0] == 0


def test_a_shard_replaced_after_the_run_was_opened_is_named_when_read(clean, other, tmp_path):
    from tricksim.analysis.io import AnalysisError, open_run

    d = tmp_path / "run"
    shutil.copytree(clean, d)
    run = open_run(d)
    shutil.copy(other / "hands" / "part-000002.parquet", d / "hands" / "part-000002.parquet")
    with pytest.raises(AnalysisError, match=r"part-000002.parquet: belongs to another run"):
        for _ in run.iter_hands(["score_0"]):
            pass


def test_a_shard_renamed_within_its_run_is_named(clean, tmp_path, capsys):
    d = tmp_path / "run"
    shutil.copytree(clean, d)
    shutil.copy(d / "hands" / "part-000000.parquet", d / "hands" / "part-000003.parquet")  # both 500 rows
    m = json.loads((d / "manifest.json").read_text())
    m["shards"][3]["files"]["hands"]["bytes"] = (d / "hands" / "part-000003.parquet").stat().st_size
    reseal(d, m)  # even with a record edited to the size, the footer says which shard the file is
    code, _, err = cli(["summary", str(d)], capsys)
    assert code == 2 and "part-000003.parquet is shard 0 of this run, not shard 3" in err


@pytest.mark.parametrize("key, value", [("seed", 6), ("preset", "zone"), ("rules.target", 300), ("status", "complete!")])
def test_a_manifest_edited_by_hand_is_refused(clean, tmp_path, capsys, key, value):
    d = tmp_path / "run"
    shutil.copytree(clean, d)
    m = json.loads((d / "manifest.json").read_text())
    if key.startswith("rules."):
        m["rules"][key[6:]] = value
    else:
        m[key] = value
    (d / "manifest.json").write_text(json.dumps(m, indent=2))
    code, out, err = cli(["summary", str(d)], capsys)
    assert code == 2 and err.count("\n") == 1 and "manifest.json: the manifest was changed after the run wrote it" in err
    code, out, err = cli(["verify", str(d)], capsys)
    assert code == 2 and "manifest.json was changed after the run wrote it" in err and "every checksum" not in out
    code, _, err = cli(ARGS + ["--out", str(d), "--resume"], capsys)
    assert code == 2 and "manifest.json was changed" in err and err.count("\n") == 1


def test_a_manifest_whose_checksum_was_removed_is_refused(clean, tmp_path, capsys):
    d = tmp_path / "run"
    shutil.copytree(clean, d)
    m = json.loads((d / "manifest.json").read_text())
    del m["manifest_sha256"]
    m["seed"] = 6
    (d / "manifest.json").write_text(json.dumps(m))
    code, _, err = cli(["summary", str(d)], capsys)
    assert code == 2 and "has no checksum of its content" in err


def test_a_copy_of_a_run_given_with_it_is_refused(clean, tmp_path, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(clean, copy)
    code, out, err = cli(["nil", str(clean), str(copy)], capsys)
    assert code == 2 and err.count("\n") == 1 and out == ""
    assert f"{clean} and {copy} are the same run (run id " in err and "copy" in err
    from tricksim.analysis.io import AnalysisError, open_runs

    with pytest.raises(AnalysisError, match="are the same run"):
        open_runs([copy, clean])


def test_a_copy_of_a_tarot_run_given_with_it_is_refused(tmp_path, capsys):
    a, copy = tmp_path / "A", tmp_path / "Acopy"
    assert cli(["simulate", "tarot", "--deals", "40", "--seed", "2", "--quiet", "--out", str(a)], capsys)[0] == 0
    shutil.copytree(a, copy)
    code, out, err = cli(["bidding", str(a), str(copy)], capsys)
    assert code == 2 and err.count("\n") == 1 and f"{a} and {copy} are the same run" in err and out == ""
    from tricksim.analysis.games.tarot.bidding import bidding_table
    from tricksim.analysis.io import AnalysisError

    with pytest.raises(AnalysisError, match="are the same run"):
        bidding_table([a, copy])


def test_verify_checks_every_run_it_is_given(clean, tmp_path, capsys):
    bad = tmp_path / "bad"
    shutil.copytree(clean, bad)
    (bad / "manifest.json").unlink()
    code, out, err = cli(["verify", str(bad), str(clean)], capsys)
    assert code == 2 and f"{bad} is not a tricksim run" in err
    assert f"{clean}: 4 shards, 2,000 rows: every checksum matches" in out


HOLD = """
import fcntl, os, sys
fd = os.open(os.path.join(sys.argv[1], ".lock"), os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)  # what a process writing the run holds (docs/output.md)
os.ftruncate(fd, 0)
os.write(fd, f"{os.getpid()}\\n".encode())
print("locked", flush=True)
sys.stdin.read()
"""


def test_a_run_another_live_process_writes_is_not_overwritten_nor_resumed(clean, tmp_path, capsys):
    d = tmp_path / "run"
    shutil.copytree(clean, d)
    before = _state(d)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(d)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline() == "locked\n"
        for flag in ("--overwrite", "--resume"):
            code, _, err = cli(ARGS + ["--out", str(d), flag], capsys)
            assert code == 2 and err.count("\n") == 1, err
            assert f"another process (pid {holder.pid}) is writing it" in err
            assert _state(d) == {**before, ".lock": f"{holder.pid}\n".encode()}  # left as it was
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    # the lock of a process that died is free: the run is finished
    assert cli(ARGS + ["--out", str(d), "--resume"], capsys)[0] == 0
    assert cli(["verify", str(d)], capsys)[0] == 0


def test_a_writing_run_holds_the_lock_until_it_ends(tmp_path, capsys, monkeypatch):
    from tricksim.simulator import engine
    from tricksim.simulator.rundir import writer_pid

    seen, real = [], engine.RunDir.stage_shard

    def staging(self, index, tables):
        seen.append(writer_pid(self.path))
        return real(self, index, tables)

    monkeypatch.setattr(engine.RunDir, "stage_shard", staging)
    assert cli(ARGS + ["--out", str(tmp_path / "r")], capsys)[0] == 0
    assert seen == [os.getpid()] * 4 and writer_pid(tmp_path / "r") is None


def test_a_refused_dask_connection_leaves_no_folder(tmp_path, capsys):
    import socket

    pytest.importorskip("distributed")
    with socket.socket() as s:  # a local port nothing listens on
        s.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{s.getsockname()[1]}"
    out = tmp_path / "r"
    code, _, err = cli(ARGS + ["--out", str(out), "--engine", "dask", "--scheduler", address, "--timeout", "2"],
                       capsys)
    assert code == 2 and f"the Dask scheduler {address} did not answer" in err and err.count("\n") == 1
    assert not out.exists()
    assert cli(ARGS + ["--out", str(out)], capsys)[0] == 0  # a plain retry


def test_a_refused_resume_leaves_the_folder_as_it_was(clean, tmp_path, capsys, monkeypatch):
    import collections

    from tricksim.simulator import engine

    d = tmp_path / "run"
    shutil.copytree(clean, d)
    (d / "hands" / "part-000002.parquet").write_bytes(b"damaged")  # resume would remove it, had it started
    (d / "hands" / ".part-000003.parquet.abc.tmp").write_bytes(b"staged")
    before = _state(d)
    usage = collections.namedtuple("usage", "total used free")
    monkeypatch.setattr(engine.shutil, "disk_usage", lambda p: usage(10**9, 10**9, 0))
    code, _, err = cli(ARGS + ["--out", str(d), "--resume"], capsys)
    assert code == 2 and "free" in err and _state(d) == before


KILL_AT_FIRST_MANIFEST = """
import os, sys
from tricksim.simulator import rundir
real = rundir.commit
def commit(tmp):
    if tmp.name.startswith(".manifest.json."):
        os._exit(9)  # as a kill -9 between writing the manifest's staging file and renaming it
    real(tmp)
rundir.commit = commit
from tricksim.cli import main
main(sys.argv[1:])
"""


def test_a_run_killed_before_its_first_manifest_is_resumable_and_restartable(clean, tmp_path, capsys):
    killed = tmp_path / "killed"
    res = subprocess.run([sys.executable, "-c", KILL_AT_FIRST_MANIFEST, *ARGS, "--out", str(killed)],
                         capture_output=True, text=True, timeout=600, check=False)
    assert res.returncode == 9, res.stderr
    assert not (killed / "manifest.json").exists() and list(killed.glob(".manifest.json.*.tmp"))
    again = tmp_path / "again"
    shutil.copytree(killed, again)
    read = lambda x: pq.read_table(x / "hands").sort_by("game_id")
    assert cli(ARGS + ["--out", str(killed), "--resume"], capsys)[0] == 0
    assert cli(ARGS + ["--out", str(again)], capsys)[0] == 0  # no overwrite needed: nothing of a run was there
    for d in (killed, again):
        assert read(d).equals(read(clean)) and cli(["verify", str(d)], capsys)[0] == 0
        assert not list(d.rglob("*.tmp"))


def test_a_run_written_before_run_ids_is_read_and_not_resumed(clean, tmp_path, capsys):
    """Format 2 (no run id, no manifest checksum): read as before (sizes, rows, page checksums; no identity),
    a copy of it still refused by its shard checksums; --resume refuses it in one line."""
    d = tmp_path / "old"
    shutil.copytree(clean, d)
    m = json.loads((d / "manifest.json").read_text())
    for k in ("run_id", "manifest_sha256"):
        del m[k]
    m["format_version"] = 2
    for r in m["shards"]:
        del r["run_id"]
    (d / "manifest.json").write_text(json.dumps(m))
    assert cli(["summary", str(d)], capsys)[0] == 0
    assert cli(["verify", str(d)], capsys)[0] == 0
    copy = tmp_path / "old-copy"
    shutil.copytree(d, copy)
    code, _, err = cli(["nil", str(d), str(copy)], capsys)
    assert code == 2 and "are the same run (shard checksums" in err
    code, _, err = cli(ARGS + ["--out", str(d), "--resume"], capsys)
    assert code == 2 and "written before runs had ids (format 2)" in err and err.count("\n") == 1


def test_resume_keeps_the_run_id_and_overwrite_makes_a_new_one(clean, tmp_path, capsys):
    d = tmp_path / "run"
    shutil.copytree(clean, d)
    run_id = lambda: json.loads((d / "manifest.json").read_text())["run_id"]
    first = run_id()
    (d / "hands" / "part-000001.parquet").unlink()
    assert cli(ARGS + ["--out", str(d), "--resume"], capsys)[0] == 0
    assert run_id() == first == pq.ParquetFile(d / "hands" / "part-000001.parquet").metadata.metadata[
        b"tricksim.run_id"].decode()
    assert cli(ARGS + ["--out", str(d), "--overwrite"], capsys)[0] == 0
    assert run_id() != first and cli(["verify", str(d)], capsys)[0] == 0
    assert {pq.ParquetFile(f).metadata.metadata[b"tricksim.run_id"].decode() for f in (d / "hands").iterdir()} == {run_id()}


def test_a_run_replaced_before_its_summary_is_not_summarized(tmp_path, capsys, monkeypatch):
    """``simulate`` prints the summary of the run it wrote, or refuses: a second process's ``--overwrite`` in
    the moment between the end of the run (the writer lock released) and the summary is caught."""
    from tricksim import api

    d, real = tmp_path / "run", api.execute

    def then_overwritten(cfg, out, **kw):
        info = real(cfg, out, **kw)
        other = api.plan("spades", seed=6, hands=2000, shard_size=500, seats="simple")
        real(other, out, overwrite=True, threads=1)
        return info

    monkeypatch.setattr(api, "execute", then_overwritten)
    code, out, err = cli([a for a in ARGS if a != "--quiet"] + ["--out", str(d)], capsys)
    assert code == 2 and f"{d} was replaced by another process after this run ended" in err and out == ""

    holder = None

    def then_locked(cfg, out, **kw):
        nonlocal holder
        info = real(cfg, out, **kw)
        holder = subprocess.Popen([sys.executable, "-c", HOLD, str(out)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        assert holder.stdout.readline() == "locked\n"
        return info

    monkeypatch.setattr(api, "execute", then_locked)
    try:
        code, out, err = cli([a for a in ARGS if a != "--quiet"] + ["--out", str(d), "--overwrite"], capsys)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    assert code == 2 and f"another process (pid {holder.pid}) is writing it" in err and out == ""

    monkeypatch.setattr(api, "execute", real)  # untouched: the summary of the run written
    code, out, err = cli([a for a in ARGS if a != "--quiet"] + ["--out", str(d), "--overwrite"], capsys)
    assert code == 0 and "2,000" in out, err


def test_the_api_does_not_return_a_run_replaced_after_it_was_written(tmp_path, monkeypatch):
    from tricksim import api
    from tricksim.simulator.errors import RunDirError

    d, real = tmp_path / "run", api.execute

    def then_overwritten(cfg, out, **kw):
        info = real(cfg, out, **kw)
        real(api.plan("spades", seed=6, hands=200, seats="simple"), out, overwrite=True, threads=1)
        return info

    monkeypatch.setattr(api, "execute", then_overwritten)
    with pytest.raises(RunDirError, match="was replaced by another process after this run ended"):
        api.simulate("spades", hands=200, seats="simple", seed=5, out=d, threads=1)
    monkeypatch.setattr(api, "execute", real)
    assert api.simulate("spades", hands=200, seats="simple", seed=5, out=d, threads=1, overwrite=True).run_id
