"""Runs on Dask (``tricksim simulate ... --engine dask``): the same shards, computed by cluster workers.

A shard is a pure function of the run's plan and its index (``engine.compute_shard``), so a worker
computes it and writes it straight into the run directory, atomically and with its record, exactly
as a local run does (``rundir.stage_shard``/``commit_shard``); the client only plans, follows the
progress and writes the manifest. The data are the local run's whatever the number of workers.
A worker lost mid-shard (killed, out of memory) has its task rescheduled on another worker by Dask;
the lost worker's half-written staging file is hidden and removed by the next ``--resume``, and its
shard, written again whole, replaces nothing but itself. ``--resume`` works across engines: a run
started on one finishes on the other.

Never waiting in silence: the scheduler must answer within ``timeout`` seconds (:func:`connect`); a
scheduler lost during the work, or no worker connected for ``WORKER_WAIT`` seconds, ends the wait with a
``ConnectionError`` naming the scheduler (:func:`follow`), the shards finished being kept for a resume.

Finished shards stay finished: the client releases each task's future as soon as it has its result, so a
worker lost later takes nothing the client still wants (Dask would otherwise compute again every result
that worker held), and a task first looks for its shard on disk: a shard already committed with its record
(by an earlier attempt, another worker) is not computed again. A late duplicate of a shard (an attempt that
was still running when another committed it, even after the manifest was written) cannot damage the run:
the shard is a pure function of the plan, so the duplicate writes the same bytes (the same tricksim and
pyarrow on every machine, docs/distributed.md); each file is renamed whole over the identical one, the
record is rewritten with the same content, and the attempt checks again for a committed shard just before
its renames, dropping its staged files if one is there.

The run directory must be a path every worker reaches (a shared file system for a real cluster).
"""
from __future__ import annotations

import json
import logging
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from tricksim.simulator.errors import RunError, option
from tricksim.simulator.rundir import RECORDS, RunDir, commit_shard, shard_name, shard_problem, stage_shard

DEFAULT_TIMEOUT = 10.0  # seconds to reach a scheduler and hear its first reply (the timeout option)
WORKER_WAIT = 120.0     # seconds with no worker connected before a run or an analysis gives up
CHECK_EVERY = 1.0       # seconds between two looks at the scheduler's workers while no result comes


def check_timeout(timeout) -> float:
    try:
        ok = float(timeout) > 0
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise RunError(f"invalid timeout {timeout!r}: allowed a number of seconds above 0 "
                       f"({option('timeout', 'SECONDS')})")
    return float(timeout)


def _first_reply(address: str, timeout: float) -> None:
    """Connect to ``address`` and ask for its identity, all within ``timeout`` seconds: Dask's own connect
    waits for the handshake without a limit (a server that accepts and never answers holds it forever).
    Runs its own event loop in a thread of its own, so it works under a running loop too (a notebook)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from distributed.comm import connect as comm_connect

    async def ask():
        comm = await comm_connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            await comm.read()
        finally:
            comm.abort()

    async def bounded():
        await asyncio.wait_for(ask(), timeout)

    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, bounded()).result()


def _refused(address: str) -> bool:
    """The address refuses a TCP connection (nothing listens there), asked once: Dask's own error after its
    retries does not always keep the reason."""
    import socket

    from distributed.comm import get_address_host_port

    try:
        socket.create_connection(get_address_host_port(address), timeout=1).close()
    except ConnectionRefusedError:
        return True
    except (OSError, ValueError, TypeError):
        pass
    return False


def connect(scheduler: str, timeout: float | None = None):
    """A ``distributed.Client`` of the scheduler at ``scheduler``, which must answer within ``timeout`` seconds
    (default ``DEFAULT_TIMEOUT``); else a one-line ``RunError`` naming the address and what to do."""
    from distributed import Client

    timeout = check_timeout(DEFAULT_TIMEOUT if timeout is None else timeout)
    try:
        _first_reply(scheduler, timeout)
        return Client(scheduler, timeout=f"{timeout}s")
    except (OSError, ValueError, TypeError, EOFError) as e:  # refused, no answer, not Dask, a malformed address
        text = " ".join(str(e).split())
        if isinstance(e, ValueError) and not isinstance(e, OSError):
            raise RunError(f"invalid Dask scheduler address {scheduler!r} ({text}): expected e.g. "
                           "tcp://10.0.0.5:8786") from None
        why = ("connection refused: nothing listens there" if _refused(scheduler) else
               "no reply" if isinstance(e, TimeoutError) or "timed out" in text.lower() else
               f"{type(e).__name__}: {text}" if text else type(e).__name__)
        raise RunError(f"the Dask scheduler {scheduler} did not answer within {timeout:g} s ({why}): check the "
                       f"address and that the scheduler runs, or allow longer with {option('timeout', 'SECONDS')}"
                       ) from None
    except Exception as e:  # noqa: BLE001 - something answered, not as Dask does (garbage read as a frame length)
        raise RunError(f"{scheduler} answered, but not as a Dask scheduler ({type(e).__name__}): check the "
                       "address") from None


@contextmanager
def dask_logs_quiet() -> Iterator[None]:
    """Within: Dask's own log records below CRITICAL are dropped. A lost scheduler has the client log a
    traceback for every failed reconnect and fetch; what happened is said once, by the error raised here."""
    # each of Dask's loggers (and those of tornado, its event loop, which logs a task's error left unread): some
    # have a level of their own (Dask's configuration gives distributed.client one), which a parent's does not
    # override
    roots = ("distributed", "tornado")
    names = [n for n in list(logging.root.manager.loggerDict) if n.split(".")[0] in roots]
    loggers = [logging.getLogger(n) for n in {*roots, *names}]
    before = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for lg, level in zip(loggers, before):
            lg.setLevel(level)


def lost_scheduler(address: str) -> ConnectionError:
    return ConnectionError(f"lost the Dask scheduler {address} (it stopped or cannot be reached)")


def worker_count(client, address: str, timeout: float) -> int:
    """Workers connected to the scheduler now (asks it, within ``timeout`` seconds)."""
    from asyncio import CancelledError
    from concurrent.futures import CancelledError as FutureCancelled

    try:
        return len(client.nthreads(callback_timeout=timeout))
    except (OSError, RuntimeError, CancelledError, FutureCancelled):  # the scheduler gone: closed comm, failed reconnect, timeout
        raise lost_scheduler(address) from None


def follow(client, tasks: dict, on_result: Callable, *, address: str, timeout: float,
           worker_wait: float | None = None) -> None:
    """Wait for the futures ``tasks`` (future -> tag), giving each result to ``on_result(tag, result)`` in the
    order they finish; each future is released as soon as its result is read (a worker lost later takes
    nothing the client still wants). An error raised in a task is raised here. Raises ``ConnectionError``
    when the scheduler is lost, or when no worker has been connected for ``worker_wait`` seconds (default
    ``WORKER_WAIT``; said once on stderr as soon as the wait starts)."""
    from concurrent.futures import CancelledError  # what Dask's futures raise (not asyncio's)

    from distributed import as_completed
    from distributed.comm import CommClosedError

    worker_wait = WORKER_WAIT if worker_wait is None else worker_wait
    # the results fetched by as_completed, in the client's event loop: a result lost with its worker before it
    # is fetched is computed again there, while this loop goes on watching the workers (a blocking
    # future.result() would wait for that, with no worker left, forever)
    pending = as_completed(list(tasks), with_results=True, raise_errors=False)
    alone_since = None  # when no worker was first seen
    next_look = time.monotonic() + CHECK_EVERY
    while not pending.is_empty():
        batch = pending.next_batch(block=False)
        for future, result in batch:
            tag = tasks.pop(future)
            if future.status == "cancelled" or isinstance(result, (CancelledError, CommClosedError)) or \
                    client.status in ("closing", "closed"):
                raise lost_scheduler(address)  # Dask cancels every future when the scheduler's connection is lost
            if future.status == "error":  # raised in the task: raised here
                _, exc, tb = result
                raise exc.with_traceback(tb)
            future.release()
            on_result(tag, result)
        del batch
        if pending.has_ready():
            continue
        time.sleep(0.05)
        now = time.monotonic()
        if now < next_look:
            continue
        next_look = now + CHECK_EVERY
        if client.status in ("closing", "closed"):
            raise lost_scheduler(address)
        if worker_count(client, address, timeout):
            alone_since = None
        elif alone_since is None:
            alone_since = now
            sys.stderr.write(f"tricksim: no Dask worker is connected to the scheduler {address}: waiting up to "
                             f"{worker_wait:g} s for one (start one with: dask worker {address})\n")
            sys.stderr.flush()
        elif now - alone_since > worker_wait:
            raise ConnectionError(f"no Dask worker connected to the scheduler {address} for {worker_wait:g} s")


def _committed_rows(out: Path, index: int, unit_table: str, run_id: str) -> int | None:
    """The unit rows of shard ``index`` if it is committed in ``out`` as run ``run_id``'s (its record, and
    files of the recorded names, sizes and identity), else None."""
    try:
        record = json.loads((out / RECORDS / shard_name(index).replace(".parquet", ".json")).read_text())
        if shard_problem(out, record, checksum=False, run_id=run_id) is None:
            return int(record["files"][unit_table]["rows"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


def _shard_task(cfg, out: str, index: int, run_id: str, source: str) -> int:
    """On a worker: compute shard ``index`` (one thread) and write it into ``out`` as run ``run_id``'s, unless
    it is committed there already; returns its unit rows. ``source``: the client's source hash, which the worker's
    own code must have (a worker with other code would write other data into the run)."""
    from tricksim.simulator import SOURCE_HASH
    from tricksim.simulator.engine import compute_shard, reuse_freed_memory

    if source != SOURCE_HASH:
        raise ValueError(f"a Dask worker runs other tricksim code (source {SOURCE_HASH}; this run's is {source}): "
                         "install the same tricksim on the client and every worker")

    out, unit = Path(out), cfg.family.unit_table
    rows = _committed_rows(out, index, unit, run_id)
    if rows is not None:
        return rows
    reuse_freed_memory()  # as in a local run: each shard's arrays from the heap, not fresh pages (P8)
    tables = compute_shard(cfg, index, 1)
    staged = stage_shard(out, index, tables, cfg.family.encoding, run_id)
    if _committed_rows(out, index, unit, run_id) is not None:  # another attempt committed it meanwhile: keep its files
        for s in staged:
            s.tmp.unlink(missing_ok=True)
    else:
        commit_shard(out, staged)
    return tables[unit].num_rows


def run_on_dask(cfg, out, *, overwrite: bool = False, resume: bool = False, scheduler: str | None = None,
                workers: int | None = None, progress: bool | None = None, timeout: float | None = None,
                worker_wait: float | None = None) -> dict:
    """Stream a run into ``out`` on a Dask cluster: the one at ``scheduler`` (which must answer within
    ``timeout`` seconds), else a ``LocalCluster`` of ``workers`` single-threaded worker processes (default:
    one per core). Returns the manifest fields. A scheduler lost, or no worker for ``worker_wait`` seconds,
    raises ``ConnectionError``: the shards finished are kept, a resume finishes the run."""
    from tricksim.simulator.engine import check_space_to_finish

    try:
        from distributed import LocalCluster
    except ImportError:
        raise RunError(f"{option('engine', 'dask')} needs Dask: pip install 'dask[distributed]' (or tricksim[dask])") \
            from None

    timeout = check_timeout(DEFAULT_TIMEOUT if timeout is None else timeout)
    fam = cfg.family
    # the scheduler first: one that does not answer is refused before the run directory is made
    client = connect(scheduler, timeout) if scheduler else None
    try:
        rd = RunDir(out, cfg.plan(), tables=fam.tables[cfg.mode], encoding=fam.encoding, overwrite=overwrite,
                    resume=resume, upgrade=cfg.upgrade_plan)  # checks only: every refusal before the folder is touched
        check_space_to_finish(cfg, rd, out)
    except BaseException:
        if client is not None:
            client.close()
        raise
    cluster = None
    if client is None:
        from distributed import Client

        n = workers or (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count())
        try:
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                                   silence_logs=40)
            client = Client(cluster)
        except (OSError, TimeoutError, ValueError) as e:
            raise RunError(f"cannot start a local Dask cluster: {e}") from None
    address = scheduler or cluster.scheduler_address
    with dask_logs_quiet():
        try:
            with rd.open():  # the writer lock, held to the end of the run
                return _run(cfg, rd, out, client, progress, address=address, timeout=timeout,
                            worker_wait=worker_wait)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def _run(cfg, rd: RunDir, out, client, progress: bool | None, *, address: str, timeout: float,
         worker_wait: float | None) -> dict:
    from tqdm import tqdm

    from tricksim.simulator.engine import shards_to_do

    todo = shards_to_do(cfg, rd)  # after open: a resume has dropped the shards it could not prove whole
    done_before = cfg.count - sum(cfg.shard_range(i)[1] for i in todo)
    t0 = time.perf_counter()
    n_units = 0
    bar = tqdm(total=cfg.count, initial=done_before, unit=cfg.mode[:-1], unit_scale=True, leave=False,
               disable=progress is False if progress is not None else None, desc=f"simulating {cfg.mode} on dask",
               dynamic_ncols=True)

    def shard_done(index: int, rows: int) -> None:
        nonlocal n_units
        n_units += rows
        bar.update(cfg.shard_range(index)[1])

    try:
        n_workers = worker_count(client, address, timeout)
        path = str(Path(out).resolve())
        tasks = {client.submit(_shard_task, cfg, path, i, rd.run_id, rd.plan["source"], pure=False,
                               key=f"shard-{i}-{t0}"): i for i in todo}
        follow(client, tasks, shard_done, address=address, timeout=timeout, worker_wait=worker_wait)
    except RunError:
        raise
    except ValueError as e:  # a strategy that broke the rules (PolicyFault), or a worker with other code
        raise RunError(str(e)) from None
    finally:
        bar.close()
    info = {"compute_seconds": rd.previous_seconds + time.perf_counter() - t0, "threads": n_workers,
            "engine": "dask", "shards_written_this_session": len(todo), "hands_this_session": n_units,
            "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    bad = [i for i in range(cfg.n_shards) if not rd.shard_done(i)]
    if bad:  # never report success over missing data
        raise RunError(f"{len(bad)} shard(s) of {out} were not written (first: {bad[0]}); rerun with {option('resume')}")
    rd.write_manifest(status="complete", **info)
    return {**info, "run_id": rd.run_id}
