"""Analysis on a Dask cluster (``--engine dask``): the same figures, the files read by the workers.

A run's figures are sums over its files (counts, streaming moments, histograms, per-game arrays), so
each worker computes the partial figures of a few shards (``Run.subset``) and the client merges them
(``merge``): the result is the local one, while no machine reads more than its part. The run
directory must be reachable by every worker (docs/distributed.md), and the workers are given its
absolute path, resolved here: a worker resolves a relative one against its own working folder.
The scheduler must answer within ``timeout`` seconds, and a lost scheduler or no worker left ends the
wait in one line (``simulator.distributed``: ``connect``, ``follow``).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Self

import numpy as np
import pyarrow as pa

from tricksim.simulator.errors import option

from .io import AnalysisError, Run, open_run

ENGINES = ("local", "dask")

_timeout: ContextVar[float | None] = ContextVar("scheduler_timeout", default=None)


@contextmanager
def scheduler_timeout(seconds: float | None) -> Iterator[None]:
    """Within: an :class:`Engine` made without a ``timeout`` (and a study job's runs: ``current_timeout``) gives
    the scheduler ``seconds`` to answer (None: the default, 10 s). The API functions that take a ``timeout``
    set it, so the games' summaries and jobs, whose signatures every game shares, need not pass it on."""
    token = _timeout.set(seconds)
    try:
        yield
    finally:
        _timeout.reset(token)


def current_timeout() -> float | None:
    """The ``timeout`` of the innermost :func:`scheduler_timeout` (None: the default)."""
    return _timeout.get()


def merge(parts: list):
    """Partial figures added up: numbers and arrays summed, Arrow tables concatenated, lists, tuples and
    dicts element by element, objects with a ``merge`` method (moments, histograms, per-game sums) merged
    by it in shard order; anything else (the run itself) taken from the first part. The parts given may
    be changed."""
    first = parts[0]
    if hasattr(first, "merge"):
        for p in parts[1:]:
            first.merge(p)
        return first
    if isinstance(first, pa.Table):
        return pa.concat_tables(parts)
    if isinstance(first, dict):
        keys = dict.fromkeys(k for p in parts for k in p)
        return {k: merge([p[k] for p in parts if k in p]) for k in keys}
    if isinstance(first, (list, tuple)):
        return type(first)(merge([p[i] for p in parts]) for i in range(len(first)))
    if isinstance(first, (int, float, np.integer, np.floating, np.ndarray)) and not isinstance(first, bool):
        return sum(parts[1:], first)
    return first


def _part(fn: Callable, run: Run, names: list[str]):
    """On a worker: the partial figures of the shards ``names``."""
    return fn(run.subset(names))


class Engine:
    """Where an analysis reads its runs: ``local`` (this process) or ``dask`` (a ``LocalCluster`` sized to
    the machine, or the cluster at ``scheduler``). One cluster serves every run of a command::

        with Engine("dask") as e:
            figures = [e.map_run(fn, r) for r in runs]
    """

    def __init__(self, engine: str = "local", scheduler: str | None = None, *, files_per_task: int = 4,
                 timeout: float | None = None) -> None:
        """``timeout``: seconds the scheduler at ``scheduler`` has to answer (default: that of the innermost
        :func:`scheduler_timeout`, else 10)."""
        from tricksim.simulator.distributed import DEFAULT_TIMEOUT, check_timeout
        from tricksim.simulator.errors import RunError

        if engine not in ENGINES:
            raise AnalysisError(f"invalid engine {engine!r}: allowed {' | '.join(ENGINES)}")
        if scheduler and engine != "dask":
            raise AnalysisError("a scheduler address needs engine dask")
        try:
            timeout = _timeout.get() if timeout is None else timeout
            self.timeout = check_timeout(DEFAULT_TIMEOUT if timeout is None else timeout)
        except RunError as e:
            raise AnalysisError(str(e)) from None
        self.engine, self.scheduler, self.files_per_task = engine, scheduler, files_per_task
        self._cluster = self._client = self._quiet = None

    def __enter__(self) -> Self:
        if self.engine == "dask":
            try:
                from distributed import Client, LocalCluster
            except ImportError:
                raise AnalysisError(f"{option('engine', 'dask')} needs Dask: pip install 'dask[distributed]'") from None
            from tricksim.simulator.distributed import connect, dask_logs_quiet
            from tricksim.simulator.errors import RunError

            self._quiet = dask_logs_quiet()  # a lost scheduler is said in one line, not in Dask's tracebacks
            self._quiet.__enter__()
            if self.scheduler:
                try:
                    self._client = connect(self.scheduler, self.timeout)
                except RunError as e:
                    self.__exit__(None, None, None)
                    raise AnalysisError(str(e)) from None
                return self
            try:
                self._cluster = LocalCluster(threads_per_worker=1, processes=True, dashboard_address=None,
                                             silence_logs=40)
                self._client = Client(self._cluster)
            except OSError as e:
                self.__exit__(None, None, None)
                raise AnalysisError(f"cannot start a local Dask cluster: {e}") from None
        return self

    def __exit__(self, *exc) -> None:
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()
        if self._quiet is not None:
            self._quiet.__exit__(None, None, None)
        self._client = self._cluster = self._quiet = None

    @property
    def scheduler_address(self) -> str | None:
        """The scheduler of the cluster in use (to run simulations on the same one), None when local."""
        return self._client.scheduler.address if self._client is not None else None

    def map_run(self, fn: Callable[[Run], object], run_dir):
        """``fn`` (a run -> partial figures) over the whole run: in this process, or over groups of
        ``files_per_task`` shards on the workers, merged in shard order. A dict result gets ``run``. A lost
        scheduler, or no worker for ``simulator.distributed.WORKER_WAIT`` seconds, raises ``ConnectionError``."""
        from tricksim.simulator.distributed import follow

        run = open_run(run_dir)
        if self._client is None:
            return fn(run)
        names = [f.name for f in run.hand_files]
        groups = [names[i:i + self.files_per_task] for i in range(0, len(names), self.files_per_task)]
        there = _resolved(run)  # what the workers open: absolute paths, whatever their working folder
        futures = self._client.map(_part, [fn] * len(groups), [there] * len(groups), groups, pure=False)
        parts: list = [None] * len(groups)
        follow(self._client, dict(zip(futures, range(len(groups)))), parts.__setitem__,
               address=self._client.scheduler.address, timeout=self.timeout)
        del futures
        result = merge(parts)
        if isinstance(result, dict):
            result["run"] = run
        return result


def _resolved(run: Run) -> Run:
    """``run`` with absolute paths (the client's working folder resolved)."""
    return Run(path=Path(run.path).resolve(), manifest=run.manifest,
               hand_files=tuple(Path(f).resolve() for f in run.hand_files),
               game_files=tuple(Path(f).resolve() for f in run.game_files))


def map_run(fn: Callable[[Run], object], run_dir, *, engine: str = "local", scheduler: str | None = None,
            files_per_task: int = 4, timeout: float | None = None):
    """:meth:`Engine.map_run` for one run, with its own engine."""
    open_run(run_dir)  # a bad run directory is named before any cluster starts
    with Engine(engine, scheduler, files_per_task=files_per_task, timeout=timeout) as e:
        return e.map_run(fn, run_dir)
