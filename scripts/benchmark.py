"""Speed and memory benchmark of the engine, Spades and Tarot (figures for docs/performance.md).

Measures, in one process and one run so that ratios are comparable on a
noisy shared machine. Repeated figures are the median of ``--repeat`` runs with
a distribution-free interval for that median and n (``tricksim.analysis.stats.median_ci``;
5 runs give 93.75 %, 9 give 96 %); ratios are taken within each round of runs,
whose runs are adjacent in time, then their median:

* hands/s end to end (deal, bid, play, score, Parquet written) for 1 and 2
  threads, hands mode, full hands schema without plays;
* whole games to 500 per second (hands and games files written);
* where one thread's time goes per hand: kernel, Arrow tables, Parquet
  encoding with fsync (CPU time, hands mode, ``simple``);
* cost per hand of each strategy relative to ``simple``;
* a warm-cache 10,000-hand run of the real command line (wall time of a new
  process, imports and cache loading included);
* peak resident memory of a large run (``--big N`` hands, in a subprocess);
* Tarot (``--part tarot`` for this part alone): deals/s end to end with the default players
  (``heuristic``), full deals schema without plays, for 1 and 2 threads, taking turns with the
  Spades hands/s of its default players, and their ratio within each round; the first run with an
  empty compile cache (a new process, wall time) and a warm 10,000-deal command;
* Dask (``--part dask``): a ``LocalCluster`` of 2 single-threaded worker processes against the
  local engine with 2 threads, and 1 worker against 2 (Spades ``simple`` hands, the runs taking
  turns); the overhead per shard from the difference of the cluster's and the local wall time;
* how the machine's core time went during the hands and the games runs (``/proc/stat``: busy,
  idle, and steal, the share the hypervisor gave to other guests), to tell a slow spell of this
  shared machine from a slow change.

Usage::

    python scripts/benchmark.py                  # 5 runs of each figure (~3 min once compiled)
    python scripts/benchmark.py --repeat 9       # 96 % intervals (~5 min)
    python scripts/benchmark.py --repeat 41      # the README's latest figures: 97 % intervals narrow
                                                 # enough to tell a thread ratio of 1.8 (~13 min)
    python scripts/benchmark.py --big 100000000  # adds the 100-million-hand memory run
    python scripts/benchmark.py --part tarot     # the Tarot figures only (~2 min)
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tricksim.analysis.stats import Estimate, median_ci  # noqa: E402
from tricksim.simulator.engine import RunConfig, run  # noqa: E402
from tricksim.simulator.games.spades.decks import DECKS  # noqa: E402
from tricksim.simulator.games.spades.rules import PRESETS  # noqa: E402
from tricksim.simulator.games.tarot.rules import PRESETS as TAROT_PRESETS  # noqa: E402
from tricksim.strategies.registry import available, parse_spec  # noqa: E402


def host_cpu() -> dict[str, int]:
    """Cumulative jiffies of all cores from /proc/stat (empty where there is none)."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:9]]
    except (OSError, ValueError):
        return {}
    user, nice, system, idle, iowait, irq, softirq, steal = fields
    return {"busy": user + nice + system + irq + softirq, "idle": idle + iowait, "steal": steal}


def host_share(before: dict[str, int], after: dict[str, int]) -> dict[str, float]:
    """Shares of the machine's core time between two readings: this process and others (busy), idle,
    and steal (time the hypervisor gave to other guests: a slow spell that no code change can fix)."""
    if not before or not after:
        return {}
    delta = {k: after[k] - before[k] for k in before}
    total = sum(delta.values()) or 1
    return {k: v / total for k, v in delta.items()}


def timed_runs(runs: dict[str, tuple[RunConfig, int]], repeat: int) -> dict[str, list[tuple[float, float]]]:
    """(wall, CPU) seconds of each repeat of each labelled (config, threads) run into a fresh directory
    (compile excluded by a warm-up; CPU summed over the process's threads). The runs take turns, so a
    slow spell of this shared machine hits all alike, and the i-th runs of two labels form a pair."""
    times = {label: [] for label in runs}
    with tempfile.TemporaryDirectory() as tmp:
        for label, (cfg, _) in runs.items():
            run(RunConfig(**{**cfg.__dict__, "count": min(cfg.count, 1000)}), Path(tmp) / f"warm-{label}",
                progress=False)
        for i in range(repeat):
            for label, (cfg, threads) in runs.items():
                out = Path(tmp) / f"r{i}-{label}"
                t, cpu = time.perf_counter(), time.process_time()
                run(cfg, out, threads=threads, progress=False)
                times[label].append((time.perf_counter() - t, time.process_time() - cpu))
                shutil.rmtree(out)
    return times


def walls(samples: list[tuple[float, float]]) -> np.ndarray:
    return np.array([w for w, _ in samples])


def cost_breakdown(cfg: RunConfig, shards: int = 4) -> dict:
    """CPU microseconds per hand of each step of a shard, on one thread (shard 0 warms up)."""
    from tricksim.simulator import rundir
    from tricksim.simulator.games.spades import batch, tables

    pol = batch.seat_functions(cfg.seats)
    cpu = {"kernel": 0.0, "tables": 0.0, "parquet_and_fsync": 0.0}
    hands = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(shards + 1):
            first, n = i * cfg.shard, cfg.shard  # hand ids past the run's count are fine for the kernel
            t = time.process_time()
            blocks = batch.play_blocks(cfg, pol, np.arange(first, first + n))
            t1 = time.process_time()
            table = tables.hands_table([s.spec for s in cfg.seats], blocks.hands(cfg.rules.sides), None)
            t2 = time.process_time()
            rundir.write_parquet_atomic(table, Path(tmp) / f"{i}.parquet", tables.ENCODING)
            t3 = time.process_time()
            if i:
                hands += n
                for k, dt in zip(cpu, (t1 - t, t2 - t1, t3 - t2)):
                    cpu[k] += dt
    return {k: v / hands * 1e6 for k, v in cpu.items()}


def cli_wall(args: list[str], repeat: int, env: dict | None = None, warm: bool = True) -> list[float]:
    """Wall seconds of ``repeat`` new processes running ``tricksim ARGS`` (``warm``: after one uncounted
    call that fills the compile cache)."""
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(repeat + warm):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "tricksim.cli", *args, "--out", f"{tmp}/r{i}", "--quiet"],
                           check=True, cwd=ROOT, env=env)
            if i or not warm:
                times.append(time.perf_counter() - t)
    return times


def cold_compile_wall(args: list[str]) -> float:
    """Wall seconds of ``tricksim ARGS`` in a new process with an empty compile cache of its own."""
    with tempfile.TemporaryDirectory() as cache:
        return cli_wall(args, 1, env={**os.environ, "NUMBA_CACHE_DIR": cache}, warm=False)[0]


def dask_figures(a, res: dict, raw: dict) -> None:
    """The Dask engine against the local one on the same run, and its scaling from 1 to 2 workers."""
    from distributed import LocalCluster

    cfg = RunConfig(rules=PRESETS["cardems"], seats=(parse_spec("simple"),) * 4, seed=1, mode="hands",
                    count=a.hands, shard_size=max(1, a.hands // 16))
    clusters = {n: LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                                silence_logs=40) for n in (1, 2)}
    times = {"local_2": [], "dask_2": [], "dask_1": []}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for n, c in clusters.items():  # warm: every worker loads the compiled kernel
                run(RunConfig(**{**cfg.__dict__, "count": 4 * cfg.shard}), Path(tmp) / f"warm{n}", progress=False,
                    engine="dask", scheduler=c.scheduler_address)
            for i in range(a.repeat):
                for label in times:
                    out = Path(tmp) / f"r{i}-{label}"
                    t = time.perf_counter()
                    if label == "local_2":
                        run(cfg, out, threads=2, progress=False)
                    else:
                        run(cfg, out, progress=False, engine="dask",
                            scheduler=clusters[int(label[-1])].scheduler_address)
                    times[label].append(time.perf_counter() - t)
                    shutil.rmtree(out)
    finally:
        for c in clusters.values():
            c.close()
    w = {k: np.array(v) for k, v in times.items()}
    raw.update({f"{k}_seconds": list(v) for k, v in w.items()})
    res["dask_2_workers_hands_per_s"] = median_ci(a.hands / w["dask_2"])
    res["local_2_threads_hands_per_s"] = median_ci(a.hands / w["local_2"])
    res["dask_2_vs_local_2_per_round"] = median_ci(w["local_2"] / w["dask_2"])
    res["dask_2_vs_1_worker_per_round"] = median_ci(w["dask_1"] / w["dask_2"])
    res["dask_overhead_ms_per_shard"] = median_ci((w["dask_2"] - w["local_2"]) / cfg.n_shards * 1e3)


def tarot_figures(a, res: dict, raw: dict) -> None:
    """Tarot deals/s with the default players beside Spades hands/s with its own, in the same rounds."""
    spades_cfg = RunConfig(rules=PRESETS["cardems"], seats=(parse_spec("heuristic"),) * 4, seed=1, mode="hands",
                           count=a.hands)
    tarot_cfg = RunConfig(game="tarot", rules=TAROT_PRESETS["cardavia"],
                          seats=(parse_spec("heuristic", game="tarot"),) * 4, seed=1, mode="deals", count=a.deals)
    times = timed_runs({"spades": (spades_cfg, 2), "tarot_2": (tarot_cfg, 2), "tarot_1": (tarot_cfg, 1)}, a.repeat)
    ws, w2, w1 = walls(times["spades"]), walls(times["tarot_2"]), walls(times["tarot_1"])
    raw.update({"spades_heuristic_2_threads": list(ws), "tarot_2_threads": list(w2), "tarot_1_thread": list(w1)})
    res["spades_heuristic_hands_per_s_2_threads"] = median_ci(a.hands / ws)
    res["tarot_deals_per_s_2_threads"] = median_ci(a.deals / w2)
    res["tarot_deals_per_s_1_thread"] = median_ci(a.deals / w1)
    res["tarot_deals_vs_spades_hands_per_round"] = median_ci((a.deals / w2) / (a.hands / ws))
    res["tarot_thread_scaling_per_round"] = median_ci(w1 / w2)
    res["tarot_cold_compile_first_run_s"] = cold_compile_wall(["simulate", "tarot", "--deals", "10000"])
    raw["tarot_warm_cli"] = cli_wall(["simulate", "tarot", "--deals", "10000"], a.repeat)
    res["tarot_warm_cli_10000_deals_s"] = median_ci(raw["tarot_warm_cli"])


def deck_figures(a, res: dict, raw: dict) -> None:
    """cardems hands/s on each deck (the ``deck`` flag) with simple and with the heuristic, 2 threads, the decks
    taking turns in each round; each joker deck's per-round ratio to the standard deck."""
    for name in ("simple", "heuristic"):
        seats = (parse_spec(name),) * 4
        cfgs = {deck: (RunConfig(rules=PRESETS["cardems"].replace(deck=deck), seats=seats, seed=1, mode="hands",
                                 count=a.hands), 2) for deck in DECKS}
        w = {deck: walls(t) for deck, t in timed_runs(cfgs, a.repeat).items()}
        raw.update({f"deck_{name}_{deck}": list(v) for deck, v in w.items()})
        res[f"{name}_hands_per_s_by_deck"] = {deck: median_ci(a.hands / v) for deck, v in w.items()}
        res[f"{name}_deck_vs_standard_per_round"] = {deck: median_ci(w["standard"] / v) for deck, v in w.items()
                                                     if deck != "standard"}


def peak_memory_run(hands: int) -> tuple[float, float]:
    """(peak RSS in MiB, seconds) of a CLI run of ``hands`` hands in a child process."""
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "tricksim.cli", "simulate", "spades", "--hands", str(hands),
                        "--strategy", "simple", "--out", f"{tmp}/big", "--quiet"], check=True, cwd=ROOT)
        seconds = time.perf_counter() - t
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, seconds


def positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=positive, default=2_000_000, help="hands per timed run")
    ap.add_argument("--games", type=positive, default=100_000, help="games per timed run")
    ap.add_argument("--repeat", type=positive, default=5,
                    help="runs of each figure (5: 93.75 %% intervals, 9: 96 %%, 41: 97 %%)")
    ap.add_argument("--big", type=int, default=0, help="hands of the peak-memory run (0 = skip)")
    ap.add_argument("--deals", type=positive, default=1_000_000, help="Tarot deals per timed run")
    ap.add_argument("--part", choices=("all", "spades", "tarot", "dask", "decks"), default="all",
                    help="which figures to measure (all: spades and tarot; decks: cardems hands/s on each "
                         "Spades deck)")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    a = ap.parse_args()

    res = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
           "command": " ".join(["python", "scripts/benchmark.py", *sys.argv[1:]])}
    raw = {}
    if a.part in ("all", "tarot"):
        tarot_figures(a, res, raw)
    if a.part in ("all", "spades"):
        spades_figures(a, res, raw)
    if a.part == "dask":
        dask_figures(a, res, raw)
    if a.part == "decks":
        deck_figures(a, res, raw)
    report(a, res, raw)


def spades_figures(a, res: dict, raw: dict) -> None:
    simple = (parse_spec("simple"),) * 4
    rules = PRESETS["cardems"]
    hands_cfg = RunConfig(rules=rules, seats=simple, seed=1, mode="hands", count=a.hands)
    before = host_cpu()
    times = timed_runs({"1": (hands_cfg, 1), "2": (hands_cfg, 2)}, a.repeat)
    res["host_cpu_during_hands_runs"] = host_share(before, host_cpu())
    w1, w2 = walls(times["1"]), walls(times["2"])
    # every timing in run order, for the JSON only: runs of the benchmark can be pooled later
    raw.update({"hands_1_thread": list(w1), "hands_2_threads": list(w2)})
    res["hands_per_s_1_thread"] = median_ci(a.hands / w1)
    res["hands_per_s_2_threads"] = median_ci(a.hands / w2)
    # the figure as the README has always given it, and the same from each round's pair of
    # runs (adjacent in time, so the machine's drift between rounds cancels), with its interval
    res["thread_scaling"] = float(np.median(w1) / np.median(w2))
    res["thread_scaling_per_round"] = median_ci(w1 / w2)
    # why the scaling is below 2: more CPU per hand with both cores busy, or idle cores
    cpu1, cpu2 = (np.median([c for _, c in times[k]]) for k in ("1", "2"))
    res["end_to_end_cpu_us_per_hand"] = {"1_thread": cpu1 / a.hands * 1e6, "2_threads": cpu2 / a.hands * 1e6}
    res["cores_busy_2_threads"] = float(cpu2 / (2 * np.median(w2)))
    res["cpu_us_per_hand_1_thread"] = cost_breakdown(hands_cfg)
    games_cfg = RunConfig(rules=rules, seats=simple, seed=1, mode="games", count=a.games)
    before = host_cpu()
    games_walls = walls(timed_runs({"games": (games_cfg, 2)}, a.repeat)["games"])
    raw["games_2_threads"] = list(games_walls)
    res["games_per_s_2_threads"] = median_ci(a.games / games_walls)
    res["host_cpu_during_games_runs"] = host_share(before, host_cpu())
    per_strategy = {name: (RunConfig(rules=rules, seats=(parse_spec(name),) * 4, seed=1, mode="hands",
                                     count=a.hands // 2), 2) for name in available()}
    per_hand = {k: walls(v) for k, v in timed_runs(per_strategy, a.repeat).items()}  # same count each
    raw.update({f"strategy_{k}": list(v) for k, v in per_hand.items()})
    # each round's runs are adjacent in time: the ratio within a round, then its median over the rounds
    res["cost_per_hand_vs_simple"] = {k: median_ci(v / per_hand["simple"]) for k, v in per_hand.items()
                                      if k != "simple"}
    raw["warm_cli"] = cli_wall(["simulate", "spades", "--hands", "10000", "--strategy", "simple"], a.repeat)
    res["warm_cli_10000_hands_s"] = median_ci(raw["warm_cli"])
    if a.big:
        mib, secs = peak_memory_run(a.big)
        res[f"peak_rss_mib_{a.big}_hands"] = mib
        res[f"seconds_{a.big}_hands"] = secs


def report(a, res: dict, raw: dict) -> None:
    print(f"(figures with [lo, hi]: the median of --repeat {a.repeat} runs and a distribution-free interval "
          f"for it, {100 * min_conf(res):.1f} % or more)")
    for k, v in res.items():
        if isinstance(v, dict):
            if k.startswith("host"):
                v = ", ".join(f"{n} {x:.0%}" for n, x in v.items())
            else:
                v = ", ".join(f"{n} {fmt(x, 'x' if k.startswith('cost') else '')}" for n, x in v.items())
        else:
            v = fmt(v)
        print(f"{k:32s} {v}")
    if a.json:
        a.json.write_text(json.dumps({**res, "raw_seconds": raw}, indent=2,
                                     default=lambda e: {**e.as_dict(), "conf": e.conf}))


def fmt(x, unit: str = "") -> str:
    """A figure as the README gives it: a median with its interval and n, or a plain number."""
    if isinstance(x, Estimate):
        return f"{fmt(x.value, unit)} [{fmt(x.lo)}, {fmt(x.hi)}] (n={x.n})"
    if isinstance(x, float):
        return (f"{x:,.2f}" if x < 100 else f"{x:,.0f}") + unit
    return str(x)


def min_conf(res: dict) -> float:
    found = [v for v in res.values() if isinstance(v, Estimate)]
    found += [x for v in res.values() if isinstance(v, dict) for x in v.values() if isinstance(x, Estimate)]
    return min(e.conf for e in found)


if __name__ == "__main__":
    main()
