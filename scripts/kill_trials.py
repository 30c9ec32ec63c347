"""Kill -9 at random moments, then --resume: does every resumed run end with the uninterrupted data?

Each trial starts ``tricksim simulate`` in a new process (local or Dask engine, Spades or Tarot), kills
it with SIGKILL at a random moment of its run, resumes it with the same command (on the same or the
other engine), and compares every table with an uninterrupted run of the same options, row for row.
Prints one line a trial and a summary; exit 1 if any trial lost or changed data.

Usage::

    python scripts/kill_trials.py --trials 20            # the table in docs/distributed.md
    python scripts/kill_trials.py --trials 3 --seed 7    # a quick check
"""
from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq

RUNS = {  # name -> (arguments, the tables it writes (the last has one row a dealt unit), shards)
    "spades hands": (["spades", "--hands", "400000", "--shard-size", "25000", "--strategy", "simple"], ("hands",), 16),
    "spades games": (["spades", "--games", "20000", "--shard-size", "1000", "--strategy", "simple"],
                     ("games", "hands"), 20),
    "tarot deals": (["tarot", "--deals", "200000", "--shard-size", "10000", "--record-plays"], ("deals",), 20),
}
ENGINES = (["--engine", "local"], ["--engine", "dask", "--threads", "2"])


def simulate(args: list[str], out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tricksim.cli", "simulate", *args, "--seed", "3", "--quiet",
                             "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def table(out: Path, name: str):
    key = {"deals": "deal_id"}.get(name, "game_id")
    order = [(key, "ascending")] + ([("hand_no", "ascending")] if name == "hands" else [])
    return pq.read_table(out / name).sort_by(order)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1, help="of the random choices (run, engines, moment)")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        clean, seconds = {}, {}
        for name, (args, _, _) in RUNS.items():  # the uninterrupted runs, and how long one takes
            t = time.perf_counter()
            p = simulate(args, tmp / f"clean-{name}")
            if p.wait() != 0:
                print(p.stderr.read())
                return 1
            seconds[name] = time.perf_counter() - t
            clean[name] = tmp / f"clean-{name}"
        print("trial | run | engine, then resumed on | killed after | shards on disk (of) | result")
        for trial in range(a.trials):
            name = rnd.choice(list(RUNS))
            args, tables, n_shards = RUNS[name]
            first, then = rnd.choice(ENGINES), rnd.choice(ENGINES)
            out = tmp / f"trial{trial}"
            # a random moment of the run: once a random number of shards are written, within the next shard
            target, extra = rnd.randrange(n_shards - 1), rnd.uniform(0, seconds[name] / n_shards)
            t0 = time.perf_counter()
            p = simulate(args + first, out)
            while p.poll() is None and len(list((out / ".shards").glob("*.json"))) < target:
                time.sleep(0.002)
            time.sleep(extra)
            delay = time.perf_counter() - t0
            p.send_signal(signal.SIGKILL)
            p.wait()
            done = len(list((out / tables[-1]).glob("*.parquet"))) if (out / tables[-1]).exists() else 0
            if first[1] == "dask":  # the client's local cluster dies with it; its workers notice within a second
                time.sleep(1)
            r = simulate(args + then + ["--resume"], out)
            r.wait()
            ok = r.returncode == 0 and all(table(out, t).equals(table(clean[name], t)) for t in tables)
            failures += not ok
            result = "identical" if ok else f"DIFFERENT (exit {r.returncode}: {r.stderr.read().strip()[:200]})"
            print(f"{trial} | {name} | {first[1]}, then {then[1]} | {delay:.2f} s | {done} ({n_shards}) | {result}")
    print(f"{a.trials - failures} of {a.trials} resumed runs identical to the uninterrupted run")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
