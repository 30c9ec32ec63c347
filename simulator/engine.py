"""The engine: runs of any game family, split into seeded shards.

It validates a run, splits it into shards, has the run's game family compute
each shard and streams the tables into a run directory (or returns them). A
shard is a pure function of (plan, shard index): it can be computed in any
order, on any machine, and the result is the same bytes of data.
"""
from __future__ import annotations

import ctypes
import os
import shutil
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, as_completed, wait
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa

from tricksim.simulator import SOURCE_HASH, __version__
from tricksim.simulator.errors import RunError, option
from tricksim.simulator.family import Family, FamilyError, PolicyFault, SeatPolicy, Tables, default_game, family
from tricksim.simulator.rundir import RECORDS, RunDir

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc mallopt parameters (malloc.h)
MAX_SEED = 2**63 - 1
MAX_COUNT = 10**12


@dataclass(frozen=True, kw_only=True)
class RunConfig:
    rules: object                  # the family's rules record (Spades: SpadesRules)
    seats: tuple[SeatPolicy, ...]  # resolved seat strategies (strategies.registry.parse_spec makes them)
    seed: int = 0
    mode: str = "hands"
    count: int = 10_000
    hand_limit: int = 1000
    record_plays: bool = False
    shard_size: int | None = None
    preset: str = "custom"
    game: str = field(default_factory=default_game)

    def __post_init__(self):
        try:
            fam = family(self.game)
        except FamilyError as e:
            raise RunError(str(e)) from None
        if self.mode not in fam.modes:
            raise RunError(f"invalid mode {self.mode!r}: allowed {' | '.join(fam.modes)}")
        if not isinstance(self.rules, fam.rules_type):
            raise RunError(f"rules for {self.game} must be a {fam.rules_type.__name__}, got {type(self.rules).__name__}")
        n_seats = getattr(self.rules, "seats", fam.seats)  # a rules record's own seat count (Tarot), else the family's
        if len(self.seats) != n_seats:
            raise RunError(f"need {n_seats} seat strategies, got {len(self.seats)}")
        for seat, s in enumerate(self.seats):
            for flag, why in getattr(s, "needs", {}).items():
                if not getattr(self.rules, flag, True):
                    raise RunError(f"strategy {s.short_spec!r} at seat {seat} needs {flag}=true, and preset "
                                   f"{self.preset} has {flag}=false: {why}")
            for flag, values in getattr(s, "refuses", {}).items():
                value = getattr(self.rules, flag)
                if value in values:
                    allowed = [v for v in self.rules.FLAGS.choices[flag] if v not in values]
                    raise RunError(f"strategy {s.short_spec} does not play {flag}={value}: allowed {flag}="
                                   + " | ".join(allowed))
        if not 0 <= self.seed <= MAX_SEED:
            raise RunError(f"invalid seed {self.seed}: allowed 0 to {MAX_SEED}")
        if not 1 <= self.count <= MAX_COUNT:
            raise RunError(f"invalid count {self.count}: allowed 1 to {MAX_COUNT}")
        if not 1 <= self.hand_limit <= 100_000:
            raise RunError(f"invalid hand limit {self.hand_limit}: allowed 1 to 100000")
        if self.shard_size is not None and not 1 <= self.shard_size <= 1 << 24:
            raise RunError(f"invalid shard size {self.shard_size}: allowed 1 to {1 << 24}")

    @property
    def family(self) -> Family:
        return family(self.game)

    @property
    def shard(self) -> int:
        """Units per shard: ``shard_size`` if given, else about the family's default, in an even number
        of equal shards so that two workers finish together (docs/performance.md P12)."""
        if self.shard_size:
            return self.shard_size
        n = -(-self.count // self.family.default_shard[self.mode])
        if n > 1 and n % 2:
            n -= 1
        return -(-self.count // n)

    @property
    def n_shards(self) -> int:
        return -(-self.count // self.shard)

    def shard_range(self, index: int) -> tuple[int, int]:
        """(first unit id, number of units) of shard ``index``."""
        first = index * self.shard
        return first, min(self.shard, self.count - first)

    def plan(self) -> dict:
        """Everything that determines the data: resume refuses a directory whose plan differs."""
        return {
            "version": __version__, "source": SOURCE_HASH, "game": self.game, "mode": self.mode, "count": self.count,
            "seed": self.seed,
            "preset": self.preset, "rules": self.rules.to_dict(), "seats": [s.spec for s in self.seats],
            # for display only (a resume may change them): the user's alias, else only the non-default parameters
            "seat_labels": [getattr(s, "label", None) or s.short_spec for s in self.seats],
            "hand_limit": self.hand_limit, "record_plays": self.record_plays, "shard_size": self.shard,
            "n_shards": self.n_shards,
        }

    def upgrade_plan(self, old: dict) -> dict:
        """A plan read back from a run directory, brought up to date: a rule flag of the family that its rules
        lack (the run was written before the flag existed) is added at the flag's default, which is the play
        of the time (a flag added later defaults to the behaviour before it, e.g. Spades ``breaking=true``).
        Flags the plan has are kept as they are, so any real difference still refuses a resume."""
        rules = old.get("rules")
        if not isinstance(rules, dict):
            return old
        defaults = type(self.rules)().to_dict()
        missing = {k: v for k, v in defaults.items() if k not in rules}
        return {**old, "rules": {**rules, **missing}} if missing else old


def _compute(cfg: RunConfig, unit_ids: np.ndarray, workers: int) -> Tables:
    try:
        return cfg.family.compute(cfg, unit_ids, workers)
    except PolicyFault as e:
        raise RunError(str(e)) from None


def compute_shard(cfg: RunConfig, index: int, workers: int = 1) -> Tables:
    """The tables of shard ``index`` (name -> table), computed on ``workers`` threads; the same on any machine."""
    first, n = cfg.shard_range(index)
    return _compute(cfg, np.arange(first, first + n, dtype=np.int64), workers)


INDEPENDENT_MODES = ("hands", "deals")  # modes whose units start from nothing: each depends on (seed, id) alone


def replay_units(cfg: RunConfig, unit_ids, threads: int | None = None) -> pa.Table:
    """Rows of just the units ``unit_ids`` (Spades hands, Tarot deals) of the run ``cfg`` describes.

    Unit ``i`` of a hands or deals run depends only on (seed, i), so this gives the
    same cards as the full run; with other seat strategies it answers "what
    if this seat had played differently on the same cards".
    """
    if cfg.mode not in INDEPENDENT_MODES:
        raise RunError(f"replaying single units needs a {' or '.join(INDEPENDENT_MODES)} run (games depend on "
                       "the score so far)")
    ids = np.asarray(unit_ids, dtype=np.int64)
    if ids.size and (ids.min() < 0 or ids.max() >= cfg.count):
        raise RunError(f"unit ids must be within 0..{cfg.count - 1}")
    return _compute(cfg, ids, worker_count(threads))[cfg.family.unit_table]


def worker_count(threads: int | None) -> int:
    """Number of worker threads to use (default: the cores this process may run on)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    n = cores if threads is None else threads
    if not 1 <= n <= cores:
        raise RunError(f"invalid thread count {threads}: allowed 1 to {cores}")
    return n


def run_to_tables(cfg: RunConfig, threads: int | None = None) -> Tables:
    """Compute a whole (small) run in memory: each table, all shards concatenated."""
    workers = worker_count(threads)
    parts = [compute_shard(cfg, i, workers) for i in range(cfg.n_shards)]
    return {name: pa.concat_tables([p[name] for p in parts]).combine_chunks() for name in parts[0]}


def reuse_freed_memory() -> None:
    """Let glibc serve each shard's large arrays from its heap and keep what a shard frees for the
    next one, instead of mapping fresh pages every time (page faults: docs/performance.md P8). The process keeps up to 1 GiB of freed memory. Does nothing
    where the C library is not glibc."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(M_MMAP_THRESHOLD, 1 << 30)
        libc.mallopt(M_TRIM_THRESHOLD, 1 << 30)
    except (OSError, AttributeError):
        pass


ENGINES = ("local", "dask")


def expected_bytes(cfg: RunConfig, units: int | None = None) -> int:
    """About how many bytes ``units`` units (default: the whole run) take on disk (family.disk_bytes)."""
    base, plays = cfg.family.disk_bytes.get(cfg.mode, (0, 0))
    return (cfg.count if units is None else units) * (base + (plays if cfg.record_plays else 0))


def check_free_space(cfg: RunConfig, out, units: int) -> None:
    """Refuse a run whose data would not fit on the disk of ``out`` (before any work)."""
    need = expected_bytes(cfg, units)
    where = Path(out).resolve()
    while not where.exists():
        where = where.parent
    free = shutil.disk_usage(where).free
    if need > free:
        raise RunError(f"the run needs about {size_text(need)} on disk but {where} has {size_text(free)} free: "
                       f"free some space, choose another {option('out', None)} or a smaller run")


def shards_to_do(cfg: RunConfig, rd: RunDir) -> list[int]:
    """The shards of the run not yet committed in ``rd``. Only the shards that have a record are looked at
    (one listing of the records folder): a look-up per shard took 9.6 minutes over the million shards of
    a 10**12-hand run, before its refusal for disk space (issue #26)."""
    recorded = set()
    for p in (rd.path / RECORDS).glob("part-*.json"):
        try:
            recorded.add(int(p.stem.removeprefix("part-")))
        except ValueError:
            pass
    done = {i for i in recorded if 0 <= i < cfg.n_shards and rd.shard_done(i)}
    return [i for i in range(cfg.n_shards) if i not in done]


def check_out_link(out) -> None:
    """Refuse an output path that is a symbolic link to nothing (making the folder would fail with "File exists")."""
    p = Path(out)
    if p.is_symlink() and not p.exists():
        raise RunError(f"{option('out', p)} is a symbolic link to {os.readlink(p)}, which does not exist: create "
                       f"its target or choose another {option('out', None)}")


def check_new_run_space(cfg: RunConfig, out, *, resume: bool, overwrite: bool) -> None:
    """A new run's disk estimate (the whole run), checked before its directory is made or its shards are
    planned; a resume (shards already on disk) or an overwrite (space freed first) is checked once the
    directory is open."""
    if not resume and not (overwrite and Path(out).exists()):
        check_free_space(cfg, out, cfg.count)


def check_space_to_finish(cfg: RunConfig, rd: RunDir, out) -> None:
    """Once the folder's checks have decided what a run does: a resume needs room for its shards not yet done,
    an overwrite for the whole run; a new run was checked before any planning (:func:`check_new_run_space`)."""
    if rd.action == "resume":
        check_free_space(cfg, out, sum(cfg.shard_range(i)[1] for i in shards_to_do(cfg, rd)))
    elif rd.action == "overwrite":
        check_free_space(cfg, out, cfg.count)


def available_memory() -> int | None:
    """Bytes of memory available to new work (MemAvailable: free memory and reclaimable cache), or None."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def check_memory(cfg: RunConfig, workers: int) -> None:
    """Refuse a shard size whose shards, one per worker, would not fit in the memory available."""
    per_unit, available = cfg.family.memory_bytes.get(cfg.mode, 0), available_memory()
    need = cfg.shard * per_unit * workers
    if per_unit and available is not None and need > available:
        most = max(1, available // (per_unit * workers))
        raise RunError(f"shards of {cfg.shard:,} {cfg.mode} on {workers} worker{'s' if workers > 1 else ''} need "
                       f"about {size_text(need)} of memory, {size_text(available)} is available: use "
                       f"{option('shard_size', f'{most:,}')} or less")


def size_text(n: float) -> str:
    return f"{n / 1e9:.1f} GB" if n >= 1e9 else f"{n / 1e6:.1f} MB"


def run(cfg: RunConfig, out: str | os.PathLike, *, overwrite: bool = False, resume: bool = False,
        threads: int | None = None, progress: bool | None = None, engine: str = "local",
        scheduler: str | None = None, timeout: float | None = None) -> dict:
    """Stream a run into directory ``out``; returns the final manifest fields.

    ``engine="dask"`` computes the shards on a Dask cluster instead (``simulator/distributed.py``): the
    scheduler at ``scheduler`` (which must answer within ``timeout`` seconds, default 10), else a local
    cluster of ``threads`` single-threaded worker processes. The data are the same either way.

    ``threads`` is the number of cores the run may use. Each worker thread
    computes a whole shard and writes it (the kernel and the Parquet encoder
    release the GIL), so each core does its own share of both and at most
    ``threads`` shards are in memory; one more thread makes the written files
    durable (fsync, then rename), which takes disk time, not CPU. A run with
    fewer shards than threads splits each shard between the threads instead.

    Why threads around a serial kernel rather than a ``prange`` kernel and a
    writer thread: there the writer competed with the kernel's threads for the
    cores, and the kernel's static split and spinning threads left cores idle
    (docs/performance.md P1).
    """
    if engine not in ENGINES:
        raise RunError(f"invalid engine {engine!r}: allowed {' | '.join(ENGINES)}")
    check_out_link(out)
    check_new_run_space(cfg, out, resume=resume, overwrite=overwrite)
    if engine == "dask":
        from tricksim.simulator.distributed import run_on_dask

        return run_on_dask(cfg, out, overwrite=overwrite, resume=resume, scheduler=scheduler,
                           workers=None if threads is None else worker_count(threads), progress=progress,
                           timeout=timeout)
    if scheduler:
        raise RunError(f"{option('scheduler', None)} needs {option('engine', 'dask')}")
    workers = worker_count(threads)
    check_memory(cfg, workers)
    reuse_freed_memory()
    fam = cfg.family
    rd = RunDir(out, cfg.plan(), tables=fam.tables[cfg.mode], encoding=fam.encoding, overwrite=overwrite,
                resume=resume, upgrade=cfg.upgrade_plan)  # checks only: every refusal before the folder is touched
    check_space_to_finish(cfg, rd, out)
    with rd.open():  # the writer lock, held to the end of the run
        return _run_local(cfg, rd, workers, progress)


def _run_local(cfg: RunConfig, rd: RunDir, workers: int, progress: bool | None) -> dict:
    from tqdm import tqdm

    fam = cfg.family
    todo = shards_to_do(cfg, rd)  # after open: a resume has dropped the shards it could not prove whole
    done_before = cfg.count - sum(cfg.shard_range(i)[1] for i in todo)
    per_shard = 1 if len(todo) >= workers else workers  # threads working inside one shard
    in_flight = max(1, workers // per_shard)            # shards computed at once
    t0 = time.perf_counter()
    n_hands = 0
    bar = tqdm(total=cfg.count, initial=done_before, unit=cfg.mode[:-1], unit_scale=True, disable=progress is False
               if progress is not None else None, leave=False, desc=f"simulating {cfg.mode}", dynamic_ncols=True)

    def shard_task(i: int) -> tuple[int, int, Future]:
        tables = compute_shard(cfg, i, per_shard)
        staged = rd.stage_shard(i, tables)
        # the fsync waits on the disk, not the CPU: a syncer thread does it while this core computes on
        return i, tables[fam.unit_table].num_rows, syncer.submit(rd.commit_shard, staged)

    def finish(future: Future) -> None:
        nonlocal n_hands
        i, rows, synced = future.result()
        n_hands += rows
        commits.append(synced)
        for done in [c for c in commits if c.done()]:
            done.result()  # an I/O error stops the run here
            commits.remove(done)
        bar.update(cfg.shard_range(i)[1])

    commits: list[Future] = []
    with ThreadPoolExecutor(max_workers=1) as syncer, ThreadPoolExecutor(max_workers=in_flight) as pool:
        running: set[Future] = set()
        for i in todo:
            if len(running) == in_flight:  # a new shard as soon as any worker is free
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    finish(future)
            running.add(pool.submit(shard_task, i))
        for future in as_completed(running):
            finish(future)
        for c in commits:
            c.result()  # every shard on disk before the manifest says complete
    bar.close()
    seconds = time.perf_counter() - t0
    info = {"compute_seconds": rd.previous_seconds + seconds, "threads": workers, "engine": "local",
            "shards_written_this_session": len(todo), "hands_this_session": n_hands,
            "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    rd.write_manifest(status="complete", **info)
    return {**info, "run_id": rd.run_id}


__all__ = [
    "RunConfig",
    "RunError",
    "compute_shard",
    "replay_units",
    "run",
    "run_to_tables",
]
