"""The engine: the only Python caller of the kernels.

It validates a run, splits it into seeded shards, computes each shard with the
Numba kernel and returns Arrow tables, or streams them into a run directory.
A shard is a pure function of (plan, shard index): it can be computed in any
order, on any machine (see docs/architecture.md for the Dask plan), and the
result is the same bytes of data.
"""
from __future__ import annotations

import ctypes
import os
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, as_completed, wait
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
from tricksim.simulator import __version__
from tricksim.simulator.games.spades import kernel
from tricksim.simulator.games.spades.policy import N_PARAMS
from tricksim.simulator.games.spades.rules import SpadesRules
from tricksim.simulator.output import GAMES_SCHEMA, HANDS_SCHEMA, PLAYS_FIELD, RunDir
from tricksim.strategies.registry import SeatStrategy, StrategyError

MODES = ("hands", "games")
DEFAULT_SHARD = {"hands": 1 << 18, "games": 1 << 13}  # about this many per file (RunConfig.shard); one a worker in memory
GAME_ROWS = 32          # rows allocated per game in games mode (about 14 used; untouched pages cost nothing)
CALL_ROWS = 1 << 20     # most rows one kernel call fills: bounds its arrays whatever the shard size
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc mallopt parameters (malloc.h)
MIN_SPLIT = 256         # fewest games worth a thread of their own
MAX_SEED = 2**63 - 1
MAX_COUNT = 10**12


class RunError(ValueError):
    """A run that cannot start as configured, or a strategy that broke the rules."""


@dataclass(frozen=True, kw_only=True)
class RunConfig:
    rules: SpadesRules
    seats: tuple[SeatStrategy, ...]
    seed: int = 0
    mode: str = "hands"
    count: int = 10_000
    hand_limit: int = 1000
    record_plays: bool = False
    shard_size: int | None = None
    preset: str = "custom"
    game: str = "spades"

    def __post_init__(self):
        if self.mode not in MODES:
            raise RunError(f"invalid mode {self.mode!r}: allowed {' | '.join(MODES)}")
        if len(self.seats) != 4:
            raise RunError(f"need 4 seat strategies, got {len(self.seats)}")
        if not 0 <= self.seed <= MAX_SEED:
            raise RunError(f"invalid seed {self.seed}: allowed 0 to {MAX_SEED}")
        if not 1 <= self.count <= MAX_COUNT:
            raise RunError(f"invalid count {self.count}: allowed 1 to {MAX_COUNT}")
        if not 1 <= self.hand_limit <= 100_000:
            raise RunError(f"invalid hand limit {self.hand_limit}: allowed 1 to 100000")
        if self.shard_size is not None and not 1 <= self.shard_size <= 1 << 24:
            raise RunError(f"invalid shard size {self.shard_size}: allowed 1 to {1 << 24}")

    @property
    def shard(self) -> int:
        """Hands (games) per shard: ``shard_size`` if given, else about DEFAULT_SHARD, in an even number
        of equal shards so that two workers finish together (a last short shard left one core idle:
        2 million hands in 250,000-hand shards took 0.93-0.98 of the time of 262,144-hand ones)."""
        if self.shard_size:
            return self.shard_size
        n = -(-self.count // DEFAULT_SHARD[self.mode])
        if n > 1 and n % 2:
            n -= 1
        return -(-self.count // n)

    @property
    def n_shards(self) -> int:
        return -(-self.count // self.shard)

    def shard_range(self, index: int) -> tuple[int, int]:
        """(first game id, number of games) of shard ``index``."""
        first = index * self.shard
        return first, min(self.shard, self.count - first)

    def plan(self) -> dict:
        """Everything that determines the data: resume refuses a directory whose plan differs."""
        return {
            "version": __version__, "game": self.game, "mode": self.mode, "count": self.count, "seed": self.seed,
            "preset": self.preset, "rules": self.rules.to_dict(), "seats": [s.spec for s in self.seats],
            "seat_labels": [s.short_spec for s in self.seats],  # only the non-default parameters
            "hand_limit": self.hand_limit, "record_plays": self.record_plays, "shard_size": self.shard,
            "n_shards": self.n_shards,
        }


@dataclass
class _Policies:
    blind: tuple
    bid: tuple
    exchange: tuple
    play: tuple
    params: np.ndarray = field(repr=False)

    @property
    def kind(self) -> int:
        """How the kernel calls these policies: per seat, or one built-in strategy compiled in."""
        same_params = bool((self.params == self.params[0]).all())
        return kernel.policy_kind_of(self.blind, self.bid, self.play, same_params)


def _policies(seats) -> _Policies:
    params = np.ascontiguousarray(np.stack([s.params for s in seats]), dtype=np.float64)
    assert params.shape == (4, N_PARAMS)
    st = [s.strategy for s in seats]
    return _Policies(tuple(s.blind_nil for s in st), tuple(s.bid for s in st), tuple(s.exchange for s in st),
                     tuple(s.play for s in st), params)


def _run_kernel(cfg: RunConfig, pol: _Policies, game_ids: np.ndarray, workers: int = 1):
    """Hands of the games ``game_ids`` (in that order, in consecutive rows) and their games block,
    computed on ``workers`` threads; returns raw column blocks (ids, masks, small, scores, plays, games)."""
    if workers > 1 and game_ids.size >= 2 * MIN_SPLIT:
        # the kernel releases the GIL: each thread plays a contiguous part, in the order of game_ids
        parts = np.array_split(game_ids, min(workers, game_ids.size // MIN_SPLIT))
        with ThreadPoolExecutor(max_workers=len(parts)) as pool:
            return _joined(list(pool.map(lambda part: _run_kernel(cfg, pol, part), parts)), cfg.record_plays)
    games_mode = cfg.mode == "games"
    hand_limit = cfg.hand_limit if games_mode else 1
    calls = []
    done = 0
    while not calls or done < game_ids.size:  # one call, unless the games outrun the rows allocated
        rest = game_ids[done:]
        rows = max(min(rest.size * min(GAME_ROWS, hand_limit), CALL_ROWS), hand_limit)  # the next game always fits
        blocks, rest_games = _kernel_call(cfg, pol, rest, rows, hand_limit)
        overflowed = np.flatnonzero(rest_games[4] == kernel.END_OVERFLOW)
        played = int(overflowed[0]) if overflowed.size else rest.size
        used = int(rest_games[0, :played].sum())
        calls.append((*(b[:, :used] for b in blocks[:4]), blocks[4][:used] if cfg.record_plays else blocks[4],
                      rest_games[:, :played]))
        done += played
    return calls[0] if len(calls) == 1 else _joined(calls, cfg.record_plays)


def _joined(parts, record_plays: bool):
    """The blocks of consecutive kernel calls as one."""
    joined = [np.concatenate([p[k] for p in parts], axis=1) for k in (0, 1, 2, 3)]
    plays = np.concatenate([p[4] for p in parts]) if record_plays else parts[0][4]
    return (*joined, plays, np.concatenate([p[5] for p in parts], axis=1))


def _kernel_call(cfg: RunConfig, pol: _Policies, game_ids: np.ndarray, rows: int, hand_limit: int):
    """One kernel call with room for ``rows`` hands; raises RunError when a strategy broke the rules."""
    n_games = game_ids.shape[0]
    # np.empty: every row the caller keeps is written by the kernel
    ids = np.empty((4, rows), np.int64)
    masks = np.empty((8, rows), np.int64)
    small = np.empty((12, rows), np.int8)
    scores = np.empty((6, rows), np.int32)
    plays = np.empty((rows if cfg.record_plays else 1, 52), np.int8)
    games = np.zeros((5, n_games), np.int64)
    errors = np.zeros((4, n_games), np.int64)
    kind = pol.kind
    kernel.kernel_for(kind)(
        cfg.rules.to_kernel(), pol.blind, pol.bid, pol.exchange, pol.play, pol.params, kind,
        kernel.deck_template(cfg.rules), np.int64(cfg.seed), np.ascontiguousarray(game_ids, dtype=np.int64),
        np.int64(hand_limit), cfg.mode == "games", cfg.record_plays, ids, masks, small, scores, plays, games, errors)
    bad = np.flatnonzero(errors[0])
    if bad.size:
        i = bad[0]
        code, hand_no, seat, value = errors[:, i]
        what = {kernel.ERR_BID: f"illegal bid {value}", kernel.ERR_EXCHANGE: "an illegal exchange",
                kernel.ERR_PLAY: f"illegal card {value}"}[int(code)]
        raise RunError(f"strategy {cfg.seats[seat].short_spec!r} at seat {seat} made {what} "
                       f"in game {int(game_ids[i])}, hand {hand_no}")
    return (ids, masks, small, scores, plays), games


def compute_shard(cfg: RunConfig, index: int, workers: int = 1) -> tuple[pa.Table, pa.Table | None]:
    """Hands (and games) tables of shard ``index``, computed on ``workers`` threads; the same on any machine."""
    first, n = cfg.shard_range(index)
    ids, masks, small, scores, plays, games = _run_kernel(cfg, _policies(cfg.seats),
                                                          np.arange(first, first + n, dtype=np.int64), workers)
    hands = _hands_table(cfg, ids, masks, small, scores, plays if cfg.record_plays else None)
    return hands, _games_table(first, games) if cfg.mode == "games" else None


def replay_hands(cfg: RunConfig, game_ids, threads: int | None = None) -> pa.Table:
    """Hands-mode rows of just the hands ``game_ids`` of the run ``cfg`` describes.

    Hand ``i`` of a hands-mode run depends only on (seed, i), so this gives the
    same deals as the full run; with other seat strategies it answers "what
    if this seat had played differently on the same cards".
    """
    if cfg.mode != "hands":
        raise RunError("replaying single hands needs a hands-mode run (games depend on the score so far)")
    ids = np.asarray(game_ids, dtype=np.int64)
    if ids.size and (ids.min() < 0 or ids.max() >= cfg.count):
        raise RunError(f"hand ids must be within 0..{cfg.count - 1}")
    ids_, masks, small, scores, plays, _ = _run_kernel(cfg, _policies(cfg.seats), ids, worker_count(threads))
    return _hands_table(cfg, ids_, masks, small, scores, plays if cfg.record_plays else None)


def _column(values: np.ndarray) -> pa.Array:
    """An Arrow array over ``values`` without a copy (bool: bit-packed). Not ``pa.array``: its
    checks for pandas types import pandas, 0.4 s of a 10,000-hand command that never uses it."""
    values = np.ascontiguousarray(values)
    if values.dtype == np.bool_:
        return pa.Array.from_buffers(pa.bool_(), values.size,
                                     [None, pa.py_buffer(np.packbits(values, bitorder="little"))])
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), values.size, [None, pa.py_buffer(values)])


def _dictionary_column(codes: np.ndarray, names) -> pa.DictionaryArray:
    """Dictionary-encoded strings: ``names[codes[i]]`` in row ``i`` (int8 codes)."""
    encoded = [name.encode() for name in names]
    offsets = np.cumsum([0] + [len(e) for e in encoded], dtype=np.int32)
    dictionary = pa.Array.from_buffers(pa.string(), len(encoded),
                                       [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))])
    return pa.DictionaryArray.from_arrays(_column(codes.astype(np.int8, copy=False)), dictionary)


def _hands_table(cfg, ids, masks, small, scores, plays) -> pa.Table:
    n = ids.shape[1]
    arrays = [_column(ids[0]), _column(ids[1].astype(np.int16)), _column(ids[2].astype(np.int8)),
              _column(ids[3].astype(np.int8))]
    arrays += [_column(masks[k]) for k in range(8)]
    arrays += [_column(small[k]) for k in range(4)]
    arrays += [_column(small[k].astype(bool)) for k in range(4, 8)]
    arrays += [_column(small[k]) for k in range(8, 12)]
    arrays += [_column(scores[0]), _column(scores[1]), _column(scores[2].astype(np.int16)),
               _column(scores[3].astype(np.int16)), _column(scores[4]), _column(scores[5])]
    no_codes = np.zeros(n, np.int8)  # one strategy a column: every row has code 0
    arrays += [_dictionary_column(no_codes, [s.spec]) for s in cfg.seats]
    schema = HANDS_SCHEMA
    if plays is not None:
        arrays.append(pa.FixedSizeListArray.from_arrays(_column(plays.reshape(-1)), 52))
        schema = schema.append(PLAYS_FIELD)
    return pa.Table.from_arrays(arrays, schema=schema)


def _games_table(first: int, games: np.ndarray) -> pa.Table:
    return pa.Table.from_arrays(
        [_column(np.arange(first, first + games.shape[1], dtype=np.int64)), _column(games[0].astype(np.int32)),
         _column(games[1].astype(np.int32)), _column(games[2].astype(np.int32)), _column(games[3].astype(np.int8)),
         _dictionary_column(games[4] - 1, kernel.END_NAMES[1:])], schema=GAMES_SCHEMA)


def worker_count(threads: int | None) -> int:
    """Number of worker threads to use (default: the cores this process may run on)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    n = cores if threads is None else threads
    if not 1 <= n <= cores:
        raise RunError(f"invalid thread count {threads}: allowed 1 to {cores}")
    return n


def run_to_tables(cfg: RunConfig, threads: int | None = None) -> tuple[pa.Table, pa.Table | None]:
    """Compute a whole (small) run in memory: all shards concatenated."""
    workers = worker_count(threads)
    parts = [compute_shard(cfg, i, workers) for i in range(cfg.n_shards)]
    hands = pa.concat_tables([p[0] for p in parts]).combine_chunks()
    games = pa.concat_tables([p[1] for p in parts]).combine_chunks() if cfg.mode == "games" else None
    return hands, games


def _reuse_freed_memory() -> None:
    """Let glibc serve each shard's large arrays from its heap and keep what a shard frees for the
    next one, instead of mapping fresh pages every time: page faults took 0.13-0.25 us of CPU per
    hand (7-10 %) and 35,000-44,000 faults per 2 million hands, 0.04-0.14 us and a few thousand
    with this (docs/architecture.md). The process keeps up to 1 GiB of freed memory. Does nothing
    where the C library is not glibc."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(M_MMAP_THRESHOLD, 1 << 30)
        libc.mallopt(M_TRIM_THRESHOLD, 1 << 30)
    except (OSError, AttributeError):
        pass


def run(cfg: RunConfig, out: str | os.PathLike, *, overwrite: bool = False, resume: bool = False,
        threads: int | None = None, progress: bool | None = None) -> dict:
    """Stream a run into directory ``out``; returns the final manifest fields.

    ``threads`` is the number of cores the run may use. Each worker thread
    computes a whole shard and writes it (the kernel and the Parquet encoder
    release the GIL), so each core does its own share of both and at most
    ``threads`` shards are in memory; one more thread makes the written files
    durable (fsync, then rename), which takes disk time, not CPU. A run with
    fewer shards than threads splits each shard between the threads instead.

    Why threads around a serial kernel rather than a ``prange`` kernel and a
    writer thread: there the writer competed with the kernel's threads for the
    cores, and the kernel's static split and spinning threads left cores idle
    (docs/architecture.md has the measurements).
    """
    from tqdm import tqdm

    workers = worker_count(threads)
    _reuse_freed_memory()
    rd = RunDir(out, cfg.plan(), overwrite=overwrite, resume=resume, games_mode=cfg.mode == "games")
    todo = [i for i in range(cfg.n_shards) if not rd.shard_done(i)]
    done_before = sum(cfg.shard_range(i)[1] for i in range(cfg.n_shards)) - sum(cfg.shard_range(i)[1] for i in todo)
    per_shard = 1 if len(todo) >= workers else workers  # threads working inside one shard
    in_flight = max(1, workers // per_shard)            # shards computed at once
    t0 = time.perf_counter()
    n_hands = 0
    bar = tqdm(total=cfg.count, initial=done_before, unit=cfg.mode[:-1], unit_scale=True, disable=progress is False
               if progress is not None else None, leave=False, desc=f"simulating {cfg.mode}", dynamic_ncols=True)

    def shard_task(i: int) -> tuple[int, int, Future]:
        hands, games = compute_shard(cfg, i, per_shard)
        staged = rd.stage_shard(i, hands, games)
        # the fsync waits on the disk, not the CPU: a syncer thread does it while this core computes on
        return i, hands.num_rows, syncer.submit(rd.commit_shard, staged)

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
    info = {"compute_seconds": rd.previous_seconds + seconds, "threads": workers,
            "shards_written_this_session": len(todo), "hands_this_session": n_hands,
            "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    rd.write_manifest(status="complete", **info)
    return info


__all__ = [
    "MODES",
    "RunConfig",
    "RunError",
    "StrategyError",
    "compute_shard",
    "replay_hands",
    "run",
    "run_to_tables",
]
