"""Runs on Dask (issue #17): the data of a local run whatever the workers, resume across engines, and a
worker killed mid-run whose shards are computed elsewhere."""
import json
import os
import signal
import threading
import time
from pathlib import Path

import distributed  # the test extra installs dask[distributed]
import pyarrow.parquet as pq
import pytest

from tricksim.simulator import SOURCE_HASH, engine
from tricksim.simulator.engine import RunConfig, RunError, run
from tricksim.simulator.games.spades.rules import build_rules as spades_rules
from tricksim.simulator.games.tarot.rules import build_rules as tarot_rules
from tricksim.simulator.rundir import RECORDS
from tricksim.strategies.registry import parse_spec

JIT = pytest.mark.needs_jit("Dask worker processes run the kernels: minutes each as pure Python")
pytestmark = pytest.mark.filterwarnings("ignore:Port 8787 is already in use")


def read(d: Path, table: str):
    key = "game_id" if table in ("hands", "games") else "deal_id"
    order = [(key, "ascending")] + ([("hand_no", "ascending")] if table == "hands" else [])
    return pq.read_table(d / table).sort_by(order)


CONFIGS = {
    "spades hands": RunConfig(rules=spades_rules("classic"), seats=(parse_spec("heuristic"), parse_spec("random")) * 2,
                              seed=4, mode="hands", count=6000, shard_size=700),
    "spades games": RunConfig(rules=spades_rules("zone"), seats=(parse_spec("simple"),) * 4, seed=4, mode="games",
                              count=300, shard_size=40, record_plays=True),
    "tarot": RunConfig(game="tarot", rules=tarot_rules("cardavia"), seats=(parse_spec("heuristic", game="tarot"),) * 4,
                       seed=4, mode="deals", count=6000, shard_size=900, record_plays=True),
}


@JIT
@pytest.mark.parametrize("name", CONFIGS)
def test_a_dask_run_writes_the_local_run(cluster, tmp_path, name):
    cfg = CONFIGS[name]
    run(cfg, tmp_path / "local", progress=False, threads=1)
    info = run(cfg, tmp_path / "dask", progress=False, engine="dask", scheduler=cluster.scheduler_address)
    assert info["engine"] == "dask" and info["threads"] == 2
    for table in cfg.family.tables[cfg.mode]:
        assert read(tmp_path / "dask", table).equals(read(tmp_path / "local", table))
    local, dask = (json.loads((tmp_path / d / "manifest.json").read_text()) for d in ("local", "dask"))
    # apart from timings and the engine, only the run's own id differs, and what it is written into: the manifest's
    # checksum and each file's CRC-32 (the id is in every footer, the same length: the same sizes)
    timing = {"compute_seconds", "threads", "engine", "finished_at", "run_id", "manifest_sha256", "shards"}
    assert {k: v for k, v in local.items() if k not in timing} == {k: v for k, v in dask.items() if k not in timing}
    assert local["run_id"] != dask["run_id"]

    def same(m):
        assert all(r["run_id"] == m["run_id"] for r in m["shards"])
        return [(r["index"], {t: {k: v for k, v in f.items() if k != "crc32"} for t, f in r["files"].items()})
                for r in m["shards"]]

    assert same(local) == same(dask)


def _drop(d: Path, table: str, shards):
    for i in shards:
        (d / table / f"part-{i:06d}.parquet").unlink()
        (d / RECORDS / f"part-{i:06d}.json").unlink()


@JIT
def test_resume_across_engines(cluster, tmp_path):
    cfg = CONFIGS["tarot"]
    run(cfg, tmp_path / "whole", progress=False)
    run(cfg, tmp_path / "a", progress=False)
    _drop(tmp_path / "a", "deals", [1, 4])
    info = run(cfg, tmp_path / "a", resume=True, progress=False, engine="dask", scheduler=cluster.scheduler_address)
    assert info["shards_written_this_session"] == 2
    run(cfg, tmp_path / "b", progress=False, engine="dask", scheduler=cluster.scheduler_address)
    _drop(tmp_path / "b", "deals", [0, 6])
    assert run(cfg, tmp_path / "b", resume=True, progress=False)["shards_written_this_session"] == 2
    for d in ("a", "b"):
        assert read(tmp_path / d, "deals").equals(read(tmp_path / "whole", "deals"))


@JIT
def test_a_worker_killed_mid_run(tmp_path):
    """A worker process killed while shards are being computed: Dask computes its shards elsewhere (the
    nanny restarts it), no partial or duplicate shard survives, and the data are the uninterrupted run's."""
    cfg = RunConfig(game="tarot", rules=tarot_rules("cardavia"), seats=(parse_spec("heuristic", game="tarot"),) * 4,
                    seed=9, mode="deals", count=120_000, shard_size=3000)
    run(cfg, tmp_path / "whole", progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as c, distributed.Client(c) as client:
        pids = list(client.run(os.getpid).values())
        out = tmp_path / "killed"
        result = {}
        t = threading.Thread(target=lambda: result.update(run(cfg, out, progress=False, engine="dask",
                                                              scheduler=c.scheduler_address)))
        t.start()
        deadline = time.time() + 120
        while time.time() < deadline and len(list((out / RECORDS).glob("*.json"))) < 3:
            time.sleep(0.01)
        finished_at_kill = len(list((out / RECORDS).glob("*.json")))
        os.kill(pids[0], signal.SIGKILL)
        t.join(timeout=300)
    assert 3 <= finished_at_kill < cfg.n_shards, "the kill came too late to test anything"
    assert result.get("engine") == "dask", "the run did not finish"
    assert len(list((out / "deals").glob("*.parquet"))) == cfg.n_shards
    assert read(out, "deals").equals(read(tmp_path / "whole", "deals"))


def test_a_built_in_strategy_travels_by_name():
    """Pickled (as for a Dask worker), a built-in comes back as the registered strategy itself, so the worker
    finds its compiled-in kernel; a strategy the registry does not hold is pickled whole."""
    import pickle

    from tricksim.simulator.games.spades import batch
    from tricksim.strategies.registry import SeatStrategy, Strategy

    seat = parse_spec("heuristic:bag_mode=avoid")
    back = pickle.loads(pickle.dumps(seat))
    assert back.strategy is seat.strategy and back.spec == seat.spec
    assert batch.seat_functions((back,) * 4).kind == batch.seat_functions((seat,) * 4).kind != 0
    own = SeatStrategy(Strategy(name="own", description="not registered", policies=seat.strategy.policies,
                                params=seat.strategy.params), {})
    assert pickle.loads(pickle.dumps(own)).spec == own.spec


@JIT
@pytest.mark.parametrize("name", CONFIGS)
def test_the_summary_on_dask_is_the_local_one(cluster, tmp_path, name):
    from tricksim.analysis.summary import summarize_run

    run(CONFIGS[name], tmp_path / "run", progress=False)
    local = summarize_run(tmp_path / "run")
    assert summarize_run(tmp_path / "run", engine="dask", scheduler=cluster.scheduler_address) == local


def test_partial_figures_merge_into_the_whole():
    import numpy as np

    from tricksim.analysis.parallel import merge
    from tricksim.analysis.stats import Moments

    x = np.arange(10.0)
    parts = [{"n": 3, "m": Moments().update(x[:3]), "per": [1, 2], "ends": {"target": 1}},
             {"n": 7, "m": Moments().update(x[3:]), "per": [3, 4], "ends": {"target": 2, "limit": 5}}]
    whole = merge(parts)
    assert whole["n"] == 10 and whole["per"] == [4, 6] and whole["ends"] == {"target": 3, "limit": 5}
    assert whole["m"].n == 10 and whole["m"].mean == pytest.approx(4.5) and whole["m"].var == pytest.approx(x.var(ddof=1))


# ---------------------------------------------------------------- separate scheduler and worker processes (#26)
def _inodes(out: Path, table: str) -> dict[int, int]:
    """Shard -> inode of its file, for the shards committed (with a record) now."""
    done = [int(p.stem.removeprefix("part-")) for p in (out / RECORDS).glob("part-*.json")]
    return {i: (out / table / f"part-{i:06d}.parquet").stat().st_ino for i in done}


def _in_thread(target):
    """``target()`` in a daemon thread: (thread, {'result' or 'error': ...})."""
    box = {}

    def go():
        try:
            box["result"] = target()
        except BaseException as e:  # noqa: BLE001 - handed to the test
            box["error"] = e

    t = threading.Thread(target=go, daemon=True)
    t.start()
    return t, box


def _wait_for_shards(out: Path, n: int, seconds: float = 180) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline and len(list((out / RECORDS).glob("*.json"))) < n:
        time.sleep(0.02)


LOST = RunConfig(rules=spades_rules("classic"), seats=(parse_spec("heuristic"),) * 4, seed=6, mode="hands",
                 count=120_000, shard_size=2000)


@JIT
@pytest.mark.slow
def test_a_lost_worker_costs_no_shard_already_committed(tmp_path):
    """Two workers (separate processes); one killed, nanny and all, once shards are committed: the run ends
    on the other, and no shard committed before the kill is computed and written again (each file keeps its
    inode: Dask would otherwise recompute every result the lost worker held, the client still asking for it)."""
    from dask_processes import DaskProcesses

    out = tmp_path / "run"
    with DaskProcesses(tmp_path / "cluster") as c:
        address = c.start_scheduler()
        c.start_worker()
        c.start_worker()
        t, box = _in_thread(lambda: run(LOST, out, progress=False, engine="dask", scheduler=address))
        _wait_for_shards(out, 12)
        c.kill_worker(1)
        before = _inodes(out, "hands")
        t.join(timeout=300)
    assert 12 <= len(before) < LOST.n_shards, f"the kill came at {len(before)} shards: too early or too late"
    assert box.get("result", {}).get("engine") == "dask", box
    after = _inodes(out, "hands")
    assert len(after) == LOST.n_shards
    assert {i: after[i] for i in before} == before, "shards committed before the kill were written again"


@JIT
@pytest.mark.slow
def test_no_worker_left_is_said_and_ends_the_run_after_the_limit(tmp_path, monkeypatch, capfd):
    """The only worker killed mid-run: the client says at once on stderr that no worker is connected, gives
    up after WORKER_WAIT seconds with a ConnectionError naming the scheduler, and the shards kept finish
    with a resume on another worker, the data those of an uninterrupted local run."""
    from dask_processes import DaskProcesses

    from tricksim.simulator import distributed as dist

    monkeypatch.setattr(dist, "WORKER_WAIT", 3.0, raising=False)  # False: an engine without the limit fails here
    out = tmp_path / "run"
    with DaskProcesses(tmp_path / "cluster") as c:
        address = c.start_scheduler()
        c.start_worker()
        t, box = _in_thread(lambda: run(LOST, out, progress=False, engine="dask", scheduler=address))
        _wait_for_shards(out, 3)
        c.kill_worker(0)
        killed = time.monotonic()
        t.join(timeout=60)
        waited = time.monotonic() - killed
        assert not t.is_alive(), "the client still waits, a minute after its last worker died"
        assert isinstance(box.get("error"), ConnectionError), box
        assert str(box["error"]) == f"no Dask worker connected to the scheduler {address} for 3 s"
        assert 3 <= waited < 30
        err = capfd.readouterr().err
        assert f"tricksim: no Dask worker is connected to the scheduler {address}: waiting up to 3 s" in err
        c.start_worker()
        info = run(LOST, out, resume=True, progress=False, engine="dask", scheduler=address)
    assert 0 < info["shards_written_this_session"] < LOST.n_shards
    run(LOST, tmp_path / "local", progress=False)
    assert read(out, "hands").equals(read(tmp_path / "local", "hands"))


def test_a_late_attempt_at_a_committed_shard_writes_nothing(tmp_path):
    """A task run again for a shard already committed, even after the manifest is written (a late duplicate):
    it finds the shard on disk and writes nothing; the run still verifies clean (#26)."""
    from tricksim.simulator.distributed import _shard_task
    from tricksim.simulator.rundir import read_manifest, verify_run

    cfg = RunConfig(rules=spades_rules("classic"), seats=(parse_spec("random"),) * 4, seed=8, mode="hands",
                    count=2000, shard_size=500)
    out = tmp_path / "run"
    run(cfg, out, progress=False, threads=1)
    shard = out / "hands" / "part-000002.parquet"
    record = out / RECORDS / "part-000002.json"
    before = (shard.stat().st_ino, record.stat().st_ino)
    assert _shard_task(cfg, str(out), 2, read_manifest(out)["run_id"], SOURCE_HASH) == 500
    assert (shard.stat().st_ino, record.stat().st_ino) == before, "the committed shard was written again"
    assert not list(out.rglob("*.tmp"))
    assert verify_run(out)[2] == []


def test_a_worker_with_other_code_writes_nothing_into_the_run(cluster, tmp_path, monkeypatch):
    """The workers are separate processes, maybe other installations: each shard task checks that the worker's
    source hash is the run's, so a worker with other code fails the run in one line instead of writing its own
    data into it (#26). Here the client pretends to be other code; the LocalCluster's workers are this tree."""
    cfg = RunConfig(rules=spades_rules("classic"), seats=(parse_spec("random"),) * 4, seed=8, mode="hands",
                    count=2000, shard_size=500)
    monkeypatch.setattr(engine, "SOURCE_HASH", "0123456789abcdef")
    out = tmp_path / "run"
    with pytest.raises(RunError) as e:
        run(cfg, out, progress=False, engine="dask", scheduler=cluster.scheduler_address)
    assert str(e.value) == (f"a Dask worker runs other tricksim code (source {SOURCE_HASH}; this run's is "
                            "0123456789abcdef): install the same tricksim on the client and every worker")
    assert not list(out.glob("hands/*.parquet")), "a shard was written by the other code"
