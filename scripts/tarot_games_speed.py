"""Tarot games mode against deals mode, per deal (docs/performance.md P44): the same number of deals played as
``--deals N`` and as ``--games N/16`` (16 deals a game, the default), alternately, written to disk, over several
rounds; the median wall and CPU time (every thread's) a deal of each, the median of the rounds' ratios (each
round's two runs side by side), with the load average before and after.

    python scripts/tarot_games_speed.py [--deals 160000] [--rounds 5] [--threads 2] [--strategy heuristic]
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import tricksim
from tricksim.api import execute, plan


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=160_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--strategy", default="heuristic")
    ap.add_argument("--preset", default="cardavia")
    a = ap.parse_args()
    per_game = 4 * (plan("tarot", preset=a.preset, deals=1).rules.seats)
    configs = {"deals": plan("tarot", preset=a.preset, seed=1, seats=a.strategy, deals=a.deals),
               "games": plan("tarot", preset=a.preset, seed=1, seats=a.strategy, games=a.deals // per_game)}
    times: dict[str, list[float]] = {k: [] for k in configs}
    cpu: dict[str, list[float]] = {k: [] for k in configs}
    load0 = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        for name, cfg in configs.items():  # warm-up: compile, page cache
            execute(cfg, Path(tmp) / f"warm-{name}", threads=a.threads)
        for r in range(a.rounds):
            for name, cfg in (configs.items() if r % 2 == 0 else reversed(configs.items())):
                t0, c0 = time.perf_counter(), time.process_time()
                execute(cfg, Path(tmp) / f"{name}-{r}", threads=a.threads)
                wall, used = time.perf_counter() - t0, time.process_time() - c0
                rows = tricksim.open_run(Path(tmp) / f"{name}-{r}").count_hands()
                times[name].append(wall / rows)
                cpu[name].append(used / rows)
    load1 = os.getloadavg()
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"{name:<6} wall {med * 1e6:6.2f} µs a deal ({1 / med:,.0f} deals/s), CPU "
              f"{statistics.median(cpu[name]) * 1e6:6.2f} µs (medians of {len(ts)}; wall by round "
              f"{', '.join(f'{t * 1e6:.2f}' for t in ts)})")
    ratio = statistics.median(g / d for g, d in zip(times["games"], times["deals"]))
    ratio_cpu = statistics.median(g / d for g, d in zip(cpu["games"], cpu["deals"]))
    print(f"games / deals, median of the rounds' ratios: wall {ratio:.3f}, CPU {ratio_cpu:.3f}   load average "
          f"{load0[0]:.2f} before, {load1[0]:.2f} after; {a.threads} threads, {a.strategy}, {a.preset}")


if __name__ == "__main__":
    main()
