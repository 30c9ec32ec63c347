"""A run of ``tricksim simulate`` killed (SIGKILL) once a few shards are on disk, then resumed: the harness the
kill-and-resume tests of each game share (``tests/simulator/test_engine.py``, ``tests/simulator/games/tarot/``)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path


def kill_and_resume(tmp_path: Path, game: str, args: list, shards: str, most: int, poll: float) -> tuple[Path, Path]:
    """Runs ``tricksim simulate GAME ARGS`` to the end in ``tmp_path/full``; runs it again in ``tmp_path/killed``,
    killed as soon as two shards of its folder ``shards`` are written (polled every ``poll`` s, at most 120 s),
    which must leave fewer than ``most`` of them; then resumes it, which must succeed. Returns (killed, full)."""
    command = [sys.executable, "-m", "tricksim.cli", "simulate", game, *args, "--out"]
    full = tmp_path / "full"
    subprocess.run([*command, str(full)], check=True)
    out = tmp_path / "killed"
    p = subprocess.Popen([*command, str(out)])
    deadline = time.time() + 120
    while time.time() < deadline and len(list((out / shards).glob("*.parquet"))) < 2:
        time.sleep(poll)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    done = len(list((out / shards).glob("*.parquet")))
    assert 2 <= done < most, "the kill came too late to test anything"
    r = subprocess.run([*command, str(out), "--resume"], check=False, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out, full
