"""The command line on Dask never hangs and says what happened in one line (issue #26): a scheduler that
accepts and never answers, a closed port, a scheduler killed mid-run; and, on a cluster of separate
``dask scheduler`` and ``dask worker`` processes whose worker works in a folder of its own, the analysis
commands given a relative run path. Each command runs as the user runs it: a process of its own."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from dask_processes import DaskProcesses

TRICKSIM = str(Path(sys.executable).parent / "tricksim")
JIT = pytest.mark.needs_jit("Dask worker processes run the kernels: minutes each as pure Python")


def tricksim(*args, cwd, timeout=120):
    """(exit code, stdout, stderr lines, seconds) of ``tricksim ARGS`` run in ``cwd``."""
    t0 = time.monotonic()
    p = subprocess.run([TRICKSIM, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                       check=False)
    return p.returncode, p.stdout, p.stderr.splitlines(), time.monotonic() - t0


@pytest.fixture
def silent_server():
    """An address that accepts connections and never answers (as a hung or wrong service would)."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted, stop = [], threading.Event()

    def serve():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except TimeoutError:
                pass

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}", accepted
    stop.set()
    t.join()
    for c in accepted:
        c.close()
    server.close()


def closed_port() -> str:
    s = socket.create_server(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    return f"tcp://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("small") / "run"
    code, _, err, _ = tricksim("simulate", "spades", "--hands", 3000, "--shard-size", 500, "--seed", 2, "--out", d,
                               "--quiet", "--threads", 1, cwd=d.parent)
    assert code == 0, err
    return d


def _no_hang(args, address, cwd, why):
    code, _, err, seconds = tricksim(*args, "--engine", "dask", "--scheduler", address, "--timeout", 2, cwd=cwd,
                                       timeout=60)
    assert code == 2 and len(err) == 1, err
    assert err[0].startswith(f"Error: the Dask scheduler {address} did not answer within 2 s ({why}")
    assert "--timeout SECONDS" in err[0]
    assert seconds < 20, f"{seconds:.1f} s for a 2 s timeout"


def test_simulate_and_summary_give_up_on_a_scheduler_that_never_answers(silent_server, small_run, tmp_path):
    address, accepted = silent_server
    _no_hang(["simulate", "spades", "--hands", 1000, "--out", tmp_path / "r", "--quiet"], address, tmp_path,
             "no reply")
    assert not (tmp_path / "r").exists(), "a refused run left its directory behind"
    _no_hang(["summary", small_run], address, tmp_path, "no reply")
    assert accepted, "the server was never reached: the test would not test the first reply"


def test_simulate_and_summary_on_a_closed_port_say_so_within_the_timeout(small_run, tmp_path):
    address = closed_port()
    _no_hang(["simulate", "spades", "--hands", 1000, "--out", tmp_path / "r", "--quiet"], address, tmp_path,
             "connection refused")
    _no_hang(["summary", small_run], address, tmp_path, "connection refused")


@pytest.mark.parametrize("args, message", [
    (["summary", ".", "--timeout", "5"], "Error: --timeout needs --scheduler"),
    (["summary", ".", "--engine", "dask", "--scheduler", "tcp://127.0.0.1:1", "--timeout", "0"],
     "Error: Invalid value for '--timeout'"),
])
def test_the_timeout_option_is_checked(small_run, args, message):
    code, _, err, _ = tricksim(*args, cwd=small_run)
    assert code == 2 and len(err) == 1 and err[0].startswith(message), err


def _read(d: Path, table: str = "hands"):
    return pq.read_table(d / table).sort_by([("game_id", "ascending"), ("hand_no", "ascending")])


@JIT
@pytest.mark.slow
def test_a_killed_scheduler_ends_the_run_in_one_line_and_resume_finishes_it(tmp_path):
    """On separate scheduler and worker processes: the scheduler killed (SIGKILL) mid-run ends ``simulate``
    at once with one line naming the scheduler and --resume (exit 1), not a traceback; the same command with
    --resume on a new scheduler finishes the run, identical to an uninterrupted local one."""
    client_dir = tmp_path / "client"
    client_dir.mkdir()
    run = ["simulate", "spades", "--hands", 120_000, "--shard-size", 1000, "--seed", 5]
    args = [*run, "--out", "runs/r", "--quiet"]
    with DaskProcesses(tmp_path / "cluster") as c:
        address = c.start_scheduler()
        c.start_worker()
        p = subprocess.Popen([TRICKSIM, *map(str, args), "--engine", "dask", "--scheduler", address],
                             cwd=client_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        records = client_dir / "runs" / "r" / ".shards"
        deadline = time.time() + 120
        while time.time() < deadline and len(list(records.glob("*.json"))) < 3 and p.poll() is None:
            time.sleep(0.05)
        c.kill_scheduler()
        _, err = p.communicate(timeout=90)
        on_disk = len(list(records.glob("*.json")))
        assert 3 <= on_disk < 120, f"the kill came at {on_disk} shards of 120: too early or too late to test"
        lines = err.splitlines()
        assert p.returncode == 1 and len(lines) == 1, err
        assert lines[0] == (f"Error: writing runs/r stopped: lost the Dask scheduler {address} (it stopped or cannot "
                            "be reached); the shards written are kept: rerun the same command with --resume to finish")
        c.kill_worker(0)  # a new cluster: the old worker would wait for its scheduler
        address = c.start_scheduler()
        c.start_worker()
        code, _, err, _ = tricksim(*args, "--engine", "dask", "--scheduler", address, "--resume", cwd=client_dir,
                                   timeout=300)
        assert code == 0, err
    code, _, err, _ = tricksim(*run, "--out", "local", "--quiet", "--threads", 1, cwd=client_dir)
    assert code == 0, err
    assert _read(client_dir / "runs" / "r").equals(_read(client_dir / "local"))
    assert json.loads((client_dir / "runs" / "r" / "manifest.json").read_text())["status"] == "complete"


@JIT
@pytest.mark.slow
def test_the_analysis_commands_read_a_relative_run_path_on_separate_workers(tmp_path):
    """A worker working in another folder than the client's: ``simulate``, ``summary``, ``nil`` and ``report``
    given a relative run path print what the local engine prints."""
    client_dir = tmp_path / "client"
    client_dir.mkdir()
    with DaskProcesses(tmp_path / "cluster") as c:
        address = c.start_scheduler()
        worker_dir = c.start_worker()
        assert Path(os.path.realpath(worker_dir)) != Path(os.path.realpath(client_dir))
        dask = ["--engine", "dask", "--scheduler", address]
        code, _, err, _ = tricksim("simulate", "spades", "--hands", 4000, "--shard-size", 500, "--seed", 3, "--out",
                                   "r", "--quiet", *dask, cwd=client_dir)
        assert code == 0, err
        for args in (["summary", "r"], ["nil", "r", "--by", "spades"]):
            local = tricksim(*args, cwd=client_dir)
            on_dask = tricksim(*args, *dask, cwd=client_dir)
            assert local[0] == 0 and on_dask[0] == 0, on_dask[2]
            assert on_dask[1] == local[1]
        assert tricksim("report", "r", "--out", "rep-local", cwd=client_dir)[0] == 0
        code, _, err, _ = tricksim("report", "r", "--out", "rep-dask", *dask, cwd=client_dir)
        assert code == 0, err
    assert (client_dir / "rep-dask" / "summary.md").read_text() == (client_dir / "rep-local" / "summary.md").read_text()
