"""tests/compile_ahead.py, which fills the compile cache beside a whole-suite run: its compile lock makes a second
process wait for the first, its import guard covers the strategy modules that compile and nothing else, and
its lanes name things that exist."""
import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import compile_ahead
import pytest
from numba.core import config

from tricksim.simulator.games.spades.rules import PRESETS
from tricksim.strategies.registry import parse_spec

TESTS = Path(__file__).resolve().parent


@pytest.mark.skipif(compile_ahead.fcntl is None, reason="no file locks on this system: the lanes do not wait")
def test_a_compile_waits_for_the_process_compiling_it(tmp_path, monkeypatch):
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    holder = subprocess.Popen(
        [sys.executable, "-c", ("import time, compile_ahead\n"
                                "with compile_ahead.locked('tricksim.strategies.spades.pimc'):\n"
                                "    print('held', flush=True); time.sleep(1.5)\n")],
        cwd=TESTS, env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}, stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline() == "held\n"
    start = time.perf_counter()
    with compile_ahead.locked("tricksim.strategies.spades.pimc"):
        waited = time.perf_counter() - start
    holder.wait()
    assert waited > 0.5
    start = time.perf_counter()
    with compile_ahead.locked("tricksim.strategies.spades.pimc"):  # nobody holds it now: no wait
        assert time.perf_counter() - start < 0.5


def test_only_the_strategy_modules_that_compile_are_guarded():
    finder = compile_ahead._StrategyImports()
    spades = importlib.import_module("tricksim.strategies.spades")
    guarded = finder.find_spec("tricksim.strategies.spades.pimc", spades.__path__)
    assert isinstance(guarded.loader, compile_ahead._LockedLoader)
    assert guarded.origin.endswith("strategies/spades/pimc.py")
    meta = importlib.import_module("tricksim.strategies.spades.meta")
    assert finder.find_spec("tricksim.strategies.spades.meta.pimc", meta.__path__) is None  # light: compiles nothing
    assert finder.find_spec("tricksim.simulator.engine", None) is None
    assert finder.find_spec("tricksim.strategies.spades.no_such_player", spades.__path__) is None


def test_the_lanes_name_modules_and_seatings_that_exist():
    for lane in compile_ahead.LANES:
        for item in lane:
            if item[0] == "import":
                assert importlib.util.find_spec(item[1]) is not None, item
            else:
                game, seats, preset = (*item[1:], None)[:3]
                players = PRESETS[preset].seats if preset else 4
                assert len([parse_spec(s, game=game) for s in seats.split()]) == players, item
