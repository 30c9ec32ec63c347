"""Run the Spades kernel in a loop with a perf map of every compiled function, for sampling.

Numba's machine code has no symbols for ``perf``; this script writes
``/tmp/perf-<pid>.map`` (the format perf reads for JIT code) with the start
address of each compiled function of the loaded modules, then keeps one thread
busy in the kernel. Profile it from a second shell (software clock: works where
hardware counters do not, as on this project's machines)::

    python scripts/profile_kernel.py --strategy simple --seconds 20 &
    perf record -e cpu-clock -F 4000 -p <pid printed> -o /tmp/kernel.data -- sleep 15
    perf report -i /tmp/kernel.data --stdio | head -30

``--per-seat`` profiles the generic kernel (function-pointer calls) even for a
built-in strategy, where each policy function shows up on its own. Everything
is compiled afresh first (code loaded from the compile cache has no addresses).
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

# Numba gives no addresses for code loaded from its cache, so compile everything in this
# process (20-40 s) into a throw-away cache folder.
os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="tricksim-profile-")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from numba.core.registry import CPUDispatcher  # noqa: E402

from tricksim.simulator import engine
from tricksim.simulator.games.spades import batch
from tricksim.simulator.games.spades import kernel as spades  # noqa: E402  (before numba: Numba reads its cache folder once)
from tricksim.simulator.games.spades.rules import build_rules  # noqa: E402
from tricksim.strategies.registry import parse_spec  # noqa: E402


def write_perf_map(pid: int) -> int:
    """Start address and name of every compiled function; each one is taken to run up to the next."""
    entries = set()
    for module in list(sys.modules.values()):
        for value in list(getattr(module, "__dict__", {}).values()):
            if not isinstance(value, CPUDispatcher):
                continue
            for cres in value.overloads.values():
                asm = cres.library.get_asm_str()
                for name in set(re.findall(r"^([A-Za-z_][\w.$]*):\s*$", asm, re.MULTILINE)):
                    try:
                        address = cres.library.get_pointer_to_function(name)
                    except Exception:  # labels that are not functions
                        continue
                    if address:
                        entries.add((address, re.sub(r"B\d+v\d+.*", "", name)))
    ordered = sorted(entries)
    with open(f"/tmp/perf-{pid}.map", "w") as f:
        for (start, name), following in zip(ordered, [*ordered[1:], None]):
            size = min(following[0] - start, 1 << 16) if following else 4096
            f.write(f"{start:x} {size:x} {name}\n")
    return len(ordered)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--strategy", default="simple", help="strategy spec for all four seats")
    ap.add_argument("--preset", default="cardems")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--per-seat", action="store_true", help="use the generic function-pointer kernel")
    a = ap.parse_args()

    n = 1 << 17
    cfg = engine.RunConfig(rules=build_rules(a.preset), seats=(parse_spec(a.strategy),) * 4, seed=1,
                           mode="hands", count=n)
    pol = batch.seat_functions(cfg.seats)
    if a.per_seat:
        pol = pol._replace(kind=spades.PER_SEAT)
    ids = np.arange(n, dtype=np.int64)
    batch.play_blocks(cfg, pol, ids[:1000])  # compile or load before the map is written
    count = write_perf_map(os.getpid())
    print(f"pid {os.getpid()}: {count} functions in /tmp/perf-{os.getpid()}.map", flush=True)
    t0, runs = time.perf_counter(), 0
    while time.perf_counter() - t0 < a.seconds:
        batch.play_blocks(cfg, pol, ids)
        runs += 1
    print(f"{runs * n:,} hands, {(time.perf_counter() - t0) / (runs * n) * 1e6:.3f} us per hand (wall)")


if __name__ == "__main__":
    main()
