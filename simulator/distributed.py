"""Runs on Dask (``tricksim simulate ... --engine dask``): the same shards, computed by cluster workers.

A shard is a pure function of the run's plan and its index (``engine.compute_shard``), so a worker
computes it and writes it straight into the run directory, atomically and with its record, exactly
as a local run does (``rundir.stage_shard``/``commit_shard``); the client only plans, follows the
progress and writes the manifest. The data are the local run's whatever the number of workers.
A worker lost mid-shard (killed, out of memory) has its task rescheduled on another worker by Dask;
the lost worker's half-written staging file is hidden and removed by the next ``--resume``, and its
shard, written again whole, replaces nothing but itself. ``--resume`` works across engines: a run
started on one finishes on the other.

The run directory must be a path every worker reaches (a shared file system for a real cluster).
"""
from __future__ import annotations

import os
import time
from pathlib import Path

from tricksim.simulator.errors import option
from tricksim.simulator.rundir import RunDir, commit_shard, stage_shard


def _shard_task(cfg, out: str, index: int, run_id: str) -> int:
    """On a worker: compute shard ``index`` (one thread) and write it into ``out`` as run ``run_id``'s; returns
    its unit rows."""
    from tricksim.simulator.engine import compute_shard, reuse_freed_memory

    reuse_freed_memory()  # as in a local run: each shard's arrays from the heap, not fresh pages (P8)
    tables = compute_shard(cfg, index, 1)
    commit_shard(Path(out), stage_shard(Path(out), index, tables, cfg.family.encoding, run_id))
    return tables[cfg.family.unit_table].num_rows


def run_on_dask(cfg, out, *, overwrite: bool = False, resume: bool = False, scheduler: str | None = None,
                workers: int | None = None, progress: bool | None = None) -> dict:
    """Stream a run into ``out`` on a Dask cluster: the one at ``scheduler``, else a ``LocalCluster`` of
    ``workers`` single-threaded worker processes (default: one per core). Returns the manifest fields."""
    from tricksim.simulator.engine import RunError, check_free_space

    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise RunError(f"{option('engine', 'dask')} needs Dask: pip install 'dask[distributed]' (or tricksim[dask])") \
            from None

    fam = cfg.family
    rd = RunDir(out, cfg.plan(), tables=fam.tables[cfg.mode], encoding=fam.encoding, overwrite=overwrite,
                resume=resume, upgrade=cfg.upgrade_plan)  # checks only: every refusal before the folder is touched
    check_free_space(cfg, out, sum(cfg.shard_range(i)[1] for i in rd.pending(cfg.n_shards)))
    cluster = None
    try:  # the cluster before the folder: a scheduler out of reach leaves the folder as it was
        if scheduler:
            client = Client(scheduler, timeout="30s")
        else:
            n = workers or (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count())
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                                   silence_logs=40)
            client = Client(cluster)
    except (OSError, TimeoutError, ValueError) as e:
        if cluster is not None:
            cluster.close()
        raise RunError(f"cannot reach the Dask scheduler {scheduler or '(local cluster)'}: {e}") from None
    try:
        with rd.open():  # the writer lock, held to the end of the run
            return _run(cfg, rd, out, client, progress)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _run(cfg, rd: RunDir, out, client, progress: bool | None) -> dict:
    from distributed import as_completed
    from tqdm import tqdm

    from tricksim.simulator.engine import RunError

    todo = [i for i in range(cfg.n_shards) if not rd.shard_done(i)]
    done_before = cfg.count - sum(cfg.shard_range(i)[1] for i in todo)
    t0 = time.perf_counter()
    n_units = 0
    bar = tqdm(total=cfg.count, initial=done_before, unit=cfg.mode[:-1], unit_scale=True, leave=False,
               disable=progress is False if progress is not None else None, desc=f"simulating {cfg.mode} on dask",
               dynamic_ncols=True)
    try:
        n_workers = len(client.scheduler_info()["workers"])
        futures = [client.submit(_shard_task, cfg, str(Path(out).resolve()), i, rd.run_id, pure=False,
                                 key=f"shard-{i}-{t0}") for i in todo]
        index_of = {f.key: i for f, i in zip(futures, todo)}
        for future in as_completed(futures):
            try:
                n_units += future.result()
            except RunError:
                raise
            except ValueError as e:  # a strategy that broke the rules (PolicyFault), raised on the worker
                raise RunError(str(e)) from None
            bar.update(cfg.shard_range(index_of[future.key])[1])
    finally:
        bar.close()
    info = {"compute_seconds": rd.previous_seconds + time.perf_counter() - t0, "threads": n_workers,
            "engine": "dask", "shards_written_this_session": len(todo), "hands_this_session": n_units,
            "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    bad = [i for i in range(cfg.n_shards) if not rd.shard_done(i)]
    if bad:  # never report success over missing data
        raise RunError(f"{len(bad)} shard(s) of {out} were not written (first: {bad[0]}); rerun with {option('resume')}")
    rd.write_manifest(status="complete", **info)
    return info
