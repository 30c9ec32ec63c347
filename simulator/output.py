"""Run directories: the Parquet schema, atomic shard files, manifest and resume.

Layout of a run directory::

    DIR/manifest.json           what was run (plan) and how it went (status, counts, timings)
    DIR/hands/part-000000.parquet   one row per hand, one file per shard
    DIR/games/part-000000.parquet   games mode: one row per game

A shard file appears only complete: it is written to a hidden ``.*.tmp`` file,
flushed and renamed. A shard counts as done when all of its files exist, so a run killed
at any moment and restarted with ``--resume`` recomputes exactly the missing
shards (deterministically) and ends with the rows of an uninterrupted run.
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

FORMAT_VERSION = 1
MANIFEST = "manifest.json"
# Encoding options, chosen by measurement on a 262,144-hand shard (README, Speed and memory;
# docs/output.md): no compression but for the plays (zstd-1 was 54 B/hand at 0.74 us of CPU per
# hand; lz4 on every column but the masks 72.9 B at 0.44 us: the random 64-bit masks do not
# compress; the plays halve with lz4); the small integer columns delta-encoded (bit-packed
# differences: as small as dictionary encoding, 0.33 instead of 0.44 us a hand, since
# nothing is hashed), the Blind Nil flags run-length encoded, the masks plain; min/max
# statistics only where readers filter (game_id, hand_no). Plain small integers would be faster
# still but Parquet stores int8 and int16 as 4-byte INT32: 110 instead of 75 B a hand.
COMPRESSED = ("plays",)
DELTA_ENCODED = ("game_id", "hand_no", "dealer", "first_leader", "bid_", "tricks_", "score_", "bags_", "total_",
                 "hands", "winner")
RUN_LENGTH_ENCODED = ("blind_",)
NO_DICTIONARY = ("dealt_", "held_", "plays")
STATISTICS = ["game_id", "hand_no"]
ROW_GROUP = 1 << 17  # rows per row group: bounds the writer's buffers and lets readers stream

def _required(fields) -> pa.Schema:
    """A schema of required (non-nullable) columns: no value is ever missing, and the writer then
    skips a definition level per value (hands file written and flushed: 0.70 of the time)."""
    return pa.schema([pa.field(name, kind, nullable=False) for name, kind in fields])


HANDS_SCHEMA = _required(
    [("game_id", pa.int64()), ("hand_no", pa.int16()), ("dealer", pa.int8()), ("first_leader", pa.int8())]
    + [(f"dealt_{s}", pa.int64()) for s in range(4)]
    + [(f"held_{s}", pa.int64()) for s in range(4)]
    + [(f"bid_{s}", pa.int8()) for s in range(4)]
    + [(f"blind_{s}", pa.bool_()) for s in range(4)]
    + [(f"tricks_{s}", pa.int8()) for s in range(4)]
    + [("score_0", pa.int32()), ("score_1", pa.int32()), ("bags_0", pa.int16()), ("bags_1", pa.int16()),
       ("total_0", pa.int32()), ("total_1", pa.int32())]
    + [(f"strategy_{s}", pa.dictionary(pa.int8(), pa.string())) for s in range(4)]
)
PLAYS_FIELD = pa.field("plays", pa.list_(pa.field("item", pa.int8(), nullable=False), 52), nullable=False)
GAMES_SCHEMA = _required([
    ("game_id", pa.int64()), ("hands", pa.int32()), ("total_0", pa.int32()), ("total_1", pa.int32()),
    ("winner", pa.int8()), ("end", pa.dictionary(pa.int8(), pa.string())),
])


class RunDirError(ValueError):
    """A run directory that cannot be used as asked (one-line message)."""


def shard_name(index: int) -> str:
    return f"part-{index:06d}.parquet"


def _staging(path: Path) -> Path:
    """Where ``path`` is written before ``commit`` makes it ``path``: ``.<name>.<random>.tmp``. A new
    name on every call, so that two writers of the same file (a second process on the same run, a
    retried task of a distributed run) never write into one file: each renames a whole file. The
    leading dot hides it from pyarrow, pandas, Dask and Spark, which skip such files when they read
    a folder, so even a run still going (or killed) reads as its finished shards."""
    return path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")


def commit(tmp: Path) -> None:
    """Flush a staged file to disk, then rename it into place (readers never see a partial file)."""
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, tmp.with_name(tmp.name[1:].rsplit(".", 2)[0]))  # less the dot, random part and ".tmp"


def _write_json_atomic(path: Path, data: dict) -> None:
    tmp = _staging(path)
    with open(tmp, "w") as f:
        json.dump(data, f, indent=2, sort_keys=True)
        f.write("\n")
    commit(tmp)


def write_parquet_staged(table: pa.Table, path: Path) -> Path:
    """Encode ``table`` into its staging file: written but not yet durable; ``commit`` makes it ``path``."""
    tmp = _staging(path)
    with open(tmp, "wb") as f:
        names = table.column_names
        encoding = {c: "DELTA_BINARY_PACKED" for c in names if c.startswith(DELTA_ENCODED)}
        encoding.update({c: "RLE" for c in names if c.startswith(RUN_LENGTH_ENCODED)})
        pq.write_table(table, f, row_group_size=ROW_GROUP,
                       compression={c: "lz4" if c.startswith(COMPRESSED) else "none" for c in names},
                       use_dictionary=[c for c in names if not c.startswith(NO_DICTIONARY) and c not in encoding],
                       write_statistics=[c for c in STATISTICS if c in names],
                       column_encoding=encoding)
    return tmp


def write_parquet_atomic(table: pa.Table, path: Path) -> None:
    commit(write_parquet_staged(table, path))


def read_manifest(out: Path) -> dict:
    try:
        return json.loads((Path(out) / MANIFEST).read_text())
    except FileNotFoundError:
        raise RunDirError(f"{out} is not a tricksim run: no {MANIFEST}") from None
    except json.JSONDecodeError as e:
        raise RunDirError(f"{out}/{MANIFEST} is not valid JSON ({e.msg} at line {e.lineno})") from None


class RunDir:
    """One run's output directory, opened for writing (fresh, overwrite or resume)."""

    def __init__(self, out: str | os.PathLike, plan: dict, *, overwrite: bool = False, resume: bool = False,
                 games_mode: bool = False):
        self.path = Path(out)
        self.plan = plan
        self.games_mode = games_mode
        if overwrite and resume:
            raise RunDirError("--overwrite and --resume exclude each other: choose one")
        try:
            self._open(overwrite=overwrite, resume=resume)
        except OSError as e:  # before any work: a place that cannot hold a run
            raise RunDirError(f"cannot use --out {self.path}: {e.strerror or e}"
                              + (f" ({e.filename})" if e.filename and Path(e.filename) != self.path else "")) from None

    def _open(self, *, overwrite: bool, resume: bool) -> None:
        if self.path.exists() and not self.path.is_dir():
            raise RunDirError(f"--out {self.path} exists and is not a directory")
        existing = self.path.exists() and any(self.path.iterdir())
        self.started = time.time()
        self.previous_seconds = 0.0
        if existing and resume:
            manifest = read_manifest(self.path)
            old = manifest.get("plan", {})
            if old != self.plan:
                diff = sorted(k for k in set(self.plan) | set(old) if self.plan.get(k) != old.get(k))
                raise RunDirError(
                    f"--resume: {self.path} was started with different options ({', '.join(diff)}); "
                    "rerun with the original options or use --overwrite")
            self.previous_seconds = float(manifest.get("compute_seconds", 0.0))
            for tmp in self.path.rglob("*.tmp"):
                tmp.unlink()
        elif existing and overwrite:
            if not (self.path / MANIFEST).exists():
                raise RunDirError(f"refusing to overwrite {self.path}: it is not a tricksim run (no {MANIFEST})")
            shutil.rmtree(self.path)
        elif existing:
            raise RunDirError(f"--out {self.path} is not empty: pass --overwrite to replace it or --resume to finish it")
        (self.path / "hands").mkdir(parents=True, exist_ok=True)
        if self.games_mode:
            (self.path / "games").mkdir(exist_ok=True)
        if not (self.path / MANIFEST).exists():
            self.write_manifest(status="running")

    def write_manifest(self, status: str, **extra) -> None:
        data = {"format_version": FORMAT_VERSION, "status": status, "plan": self.plan, **self.plan, **extra}
        _write_json_atomic(self.path / MANIFEST, data)

    def shard_done(self, index: int) -> bool:
        name = shard_name(index)
        if not (self.path / "hands" / name).exists():
            return False
        return not self.games_mode or (self.path / "games" / name).exists()

    def stage_shard(self, index: int, hands: pa.Table, games: pa.Table | None) -> list[Path]:
        """Write a shard's files as temporaries; ``commit_shard`` makes them the shard."""
        staged = [] if games is None else [write_parquet_staged(games, self.path / "games" / shard_name(index))]
        return [*staged, write_parquet_staged(hands, self.path / "hands" / shard_name(index))]

    @staticmethod
    def commit_shard(staged: list[Path]) -> None:
        # games first: the hands file is the last to appear, so a shard is done only when both exist
        for tmp in staged:
            commit(tmp)

