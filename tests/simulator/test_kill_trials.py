"""Two kill -9 trials of scripts/kill_trials.py (local and Dask runs killed at random moments, resumed):
the resumed runs hold exactly the uninterrupted runs' data. docs/distributed.md has the 20-trial table."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # three uninterrupted runs and two killed ones: about a minute
@pytest.mark.needs_jit("three uninterrupted runs and two killed ones in subprocesses: many minutes as pure Python")
def test_two_kill_trials():
    done = subprocess.run([sys.executable, "scripts/kill_trials.py", "--trials", "2", "--seed", "5"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1] == "2 of 2 resumed runs identical to the uninterrupted run"
