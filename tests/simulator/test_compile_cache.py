"""A new process loads every kernel it runs from the compile cache: nothing is compiled twice.

The built-in strategies register their compiled-in kernels from outside the
kernel module (``kernel.compile_in``); that must not cost a compile per process.
"""
import json
import subprocess
import sys

import pytest

CODE = """
import json, sys
from tricksim.simulator.engine import RunConfig, run_to_tables
from tricksim.simulator.games.spades import kernel
from tricksim.simulator.games.spades.rules import build_rules
from tricksim.strategies.registry import parse_spec

specs = sys.argv[1].split()
run_to_tables(RunConfig(rules=build_rules("classic"), seats=tuple(parse_spec(s) for s in specs), count=50,
                        mode="games", hand_limit=3))
stats = kernel.simulate_block.stats
print(json.dumps({"hits": sum(stats.cache_hits.values()), "misses": sum(stats.cache_misses.values())}))
"""


@pytest.mark.needs_jit("reads the compile cache's statistics of compiled kernels")
@pytest.mark.parametrize("seats", ["simple simple simple simple", "heuristic heuristic heuristic heuristic",
                                   "heuristic random simple heuristic"])
def test_a_new_process_compiles_nothing(seats):
    first = subprocess.run([sys.executable, "-c", CODE, seats], capture_output=True, text=True, check=True)
    again = subprocess.run([sys.executable, "-c", CODE, seats], capture_output=True, text=True, check=True)
    assert json.loads(first.stdout)["hits"] + json.loads(first.stdout)["misses"] == 1
    assert json.loads(again.stdout) == {"hits": 1, "misses": 0}


TAROT = """
import json, sys
from tricksim.simulator.engine import RunConfig, run_to_tables
from tricksim.simulator.games.tarot import kernel
from tricksim.simulator.games.tarot.rules import build_rules
from tricksim.strategies.registry import parse_spec

run_to_tables(RunConfig(game="tarot", rules=build_rules("cardavia"), mode="deals", count=50,
                        seats=tuple(parse_spec(s, game="tarot") for s in sys.argv[1].split())))
stats = kernel.simulate_block.stats
print(json.dumps({"hits": sum(stats.cache_hits.values()), "misses": sum(stats.cache_misses.values())}))
"""


@pytest.mark.needs_jit("reads the compile cache's statistics of compiled kernels")
def test_a_new_process_compiles_no_tarot_kernel():
    seats = "heuristic random heuristic random"
    first = subprocess.run([sys.executable, "-c", TAROT, seats], capture_output=True, text=True, check=True)
    again = subprocess.run([sys.executable, "-c", TAROT, seats], capture_output=True, text=True, check=True)
    assert json.loads(first.stdout)["hits"] + json.loads(first.stdout)["misses"] == 1
    assert json.loads(again.stdout) == {"hits": 1, "misses": 0}
