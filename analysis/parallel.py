"""Analysis on a Dask cluster (``--engine dask``): the same figures, the files read by the workers.

A run's figures are sums over its files (counts, streaming moments, histograms), so each worker
computes the partial figures of a few shards (``Run.subset``) and the client merges them
(``merge``): the result is the local one, while no machine reads more than its part. The run
directory must be reachable by every worker (docs/distributed.md).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .io import AnalysisError, Run, open_run
from .stats import Moments

ENGINES = ("local", "dask")


def merge(parts: list):
    """Partial figures added up: numbers and arrays summed, moments merged, lists and dicts element by
    element; anything else (the run itself) taken from the first part."""
    first = parts[0]
    if isinstance(first, Moments):
        total = Moments()
        for p in parts:
            total.merge(p)
        return total
    if isinstance(first, dict):
        keys = dict.fromkeys(k for p in parts for k in p)
        return {k: merge([p[k] for p in parts if k in p]) for k in keys}
    if isinstance(first, list):
        return [merge([p[i] for p in parts]) for i in range(len(first))]
    if isinstance(first, (int, float, np.integer, np.floating, np.ndarray)) and not isinstance(first, bool):
        return sum(parts[1:], first)
    return first


def _part(fn: Callable, run: Run, names: list[str]):
    """On a worker: the partial figures of the shards ``names`` (without the run: its open readers stay)."""
    part = fn(run.subset(names))
    if isinstance(part, dict):
        part.pop("run", None)
    return part


def map_run(fn: Callable[[Run], dict], run_dir, *, engine: str = "local", scheduler: str | None = None,
            files_per_task: int = 4):
    """``fn`` (a run -> partial figures) over the whole run: in this process (``local``), or over groups of
    ``files_per_task`` shards on Dask workers, merged. Returns the figures for the whole run."""
    run = open_run(run_dir)
    if engine not in ENGINES:
        raise AnalysisError(f"invalid engine {engine!r}: allowed {' | '.join(ENGINES)}")
    if engine == "local":
        return fn(run)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise AnalysisError("--engine dask needs Dask: pip install 'dask[distributed]'") from None
    names = [f.name for f in run.hand_files]
    groups = [names[i:i + files_per_task] for i in range(0, len(names), files_per_task)]
    cluster = None if scheduler else LocalCluster(threads_per_worker=1, processes=True, dashboard_address=None,
                                                  silence_logs=40)
    try:
        with Client(scheduler or cluster) as client:
            parts = client.gather(client.map(_part, [fn] * len(groups), [run] * len(groups), groups, pure=False))
    except OSError as e:
        raise AnalysisError(f"cannot reach the Dask scheduler {scheduler}: {e}") from None
    finally:
        if cluster is not None:
            cluster.close()
    result = merge(parts)
    if isinstance(result, dict):
        result["run"] = run
    return result
