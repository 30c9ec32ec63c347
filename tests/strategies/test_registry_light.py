"""Listing the strategies and refusing a bad spec compile nothing (issue #26).

Each case runs the command line in a new process on an empty compile cache, with the JIT on: the real
check is that no compiled strategy module is imported and the cache folder stays empty (a compile would
fill it); the time bound is generous, for a loaded machine.
"""
import json
import os
import subprocess
import sys
import time

import pytest

CODE = """
import json, sys
from tricksim.cli import cli
try:
    cli.main(args=sys.argv[1:], prog_name="tricksim")
except SystemExit as e:
    code = e.code
else:
    code = 0
# a strategy's policies: tricksim.strategies.<game>.<name> (its registration is in <game>.meta.<name>)
compiled = sorted(m for m in sys.modules
                  if m.startswith("tricksim.strategies.") and m.count(".") == 3 and not m.endswith(".meta"))
sys.stderr.write("\\n" + json.dumps({"code": code, "compiled": compiled, "numba": "numba" in sys.modules}) + "\\n")
"""

CASES = [
    (["strategies"], 0, None),
    (["strategies", "tarot"], 0, None),
    (["simulate", "spades", "--strategy", "heuristc", "--hands", "5", "--out", "OUT"], 2, "unknown spades strategy"),
    (["simulate", "tarot", "--seat", "0=randm", "--deals", "5", "--out", "OUT"], 2, "unknown tarot strategy"),
    (["simulate", "spades", "--strategy", "heuristic:nil_treshold=3", "--hands", "5", "--out", "OUT"], 2,
     "has no parameter 'nil_treshold'"),
    (["simulate", "spades", "--seat", "1=pimc:bid_mode=guess", "--hands", "5", "--out", "OUT"], 2,
     "invalid value bid_mode='guess'"),
    (["simulate", "tarot", "--strategy", "heuristic:monde_points=500", "--deals", "5", "--out", "OUT"], 2,
     "invalid value monde_points='500'"),
]


@pytest.mark.parametrize(("args", "code", "message"), CASES, ids=[" ".join(c[0][:3]) for c in CASES])
def test_listing_and_bad_names_compile_nothing(tmp_path, args, code, message):
    cache = tmp_path / "cache"
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "NUMBA_DISABLE_JIT")}
    env["TRICKSIM_CACHE"] = str(cache)
    args = [str(tmp_path / "run") if a == "OUT" else a for a in args]
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CODE, *args], capture_output=True, text=True, env=env, timeout=120,
                          check=False)
    seconds = time.perf_counter() - start
    *text, last = done.stderr.rstrip("\n").split("\n")
    seen = json.loads(last)
    assert seen["code"] == code, done.stderr
    assert seen["compiled"] == [], f"imported compiled strategy modules: {seen['compiled']}"
    assert not seen["numba"]
    assert [p for p in cache.rglob("*") if p.is_file()] == []  # nothing compiled, nothing loaded
    if message is None:
        assert "heuristic:" in done.stdout and "random:" in done.stdout
    else:
        errors = [line for line in text if line.startswith("Error:")]
        assert len(errors) == 1 and message in errors[0], done.stderr
    assert seconds < 10, f"{args}: {seconds:.1f} s"


def test_a_listed_strategy_still_plays(tmp_path):
    """The registry's lazy policies give the compiled functions (and the compiled-in kernel) when a run asks."""
    from tricksim.strategies.registry import Policies, get

    s = get("simple")
    assert isinstance(s.policies, Policies)
    from tricksim.strategies.spades import simple

    assert s.functions == (simple.blind_nil, simple.bid, simple.exchange, simple.play)
    assert dict(s.policies)["play"] is simple.play


def test_a_module_without_the_policies_is_refused_when_first_used():
    from tricksim.simulator.errors import StrategyError
    from tricksim.strategies.registry import Strategy

    s = Strategy(name="hollow", description="test", policies="tricksim.strategies.spades.meta.simple")
    assert list(s.policies) == ["blind_nil", "bid", "exchange", "play"]  # the slots, known without importing
    with pytest.raises(StrategyError, match="missing blind_nil, bid, exchange, play"):
        _ = s.functions
