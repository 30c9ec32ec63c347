"""Run directories: atomic shard files, manifest and resume, for every game family.

Layout of a run directory (the tables are the family's; Spades: ``hands``, and
``games`` in games mode)::

    DIR/manifest.json                what was run (plan) and how it went (status, counts, timings)
    DIR/<table>/part-000000.parquet  one file per shard in each table's folder

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
from typing import NamedTuple

import pyarrow as pa
import pyarrow.parquet as pq

FORMAT_VERSION = 1
MANIFEST = "manifest.json"
ROW_GROUP = 1 << 17  # rows per row group: bounds the writer's buffers and lets readers stream


class Encoding(NamedTuple):
    """How a family's columns are written, by column-name prefix (docs/performance.md P9, P10)."""

    compressed: tuple[str, ...] = ()      # lz4; every other column uncompressed
    delta: tuple[str, ...] = ()           # DELTA_BINARY_PACKED
    run_length: tuple[str, ...] = ()      # RLE
    no_dictionary: tuple[str, ...] = ()   # plain; the rest dictionary-encoded unless delta or RLE
    statistics: tuple[str, ...] = ()      # min/max statistics, only where readers filter


def required_schema(fields) -> pa.Schema:
    """A schema of required (non-nullable) columns: no value is ever missing, and the writer then
    skips a definition level per value (docs/performance.md P10)."""
    return pa.schema([pa.field(name, kind, nullable=False) for name, kind in fields])


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


def write_parquet_staged(table: pa.Table, path: Path, how: Encoding = Encoding()) -> Path:
    """Encode ``table`` into its staging file: written but not yet durable; ``commit`` makes it ``path``."""
    tmp = _staging(path)
    with open(tmp, "wb") as f:
        names = table.column_names
        encoding = {c: "DELTA_BINARY_PACKED" for c in names if c.startswith(how.delta)}
        encoding.update({c: "RLE" for c in names if c.startswith(how.run_length)})
        pq.write_table(table, f, row_group_size=ROW_GROUP,
                       compression={c: "lz4" if c.startswith(how.compressed) else "none" for c in names},
                       use_dictionary=[c for c in names if not c.startswith(how.no_dictionary) and c not in encoding],
                       write_statistics=[c for c in how.statistics if c in names],
                       column_encoding=encoding)
    return tmp


def write_parquet_atomic(table: pa.Table, path: Path, how: Encoding = Encoding()) -> None:
    commit(write_parquet_staged(table, path, how))


def read_manifest(out: Path) -> dict:
    try:
        return json.loads((Path(out) / MANIFEST).read_text())
    except FileNotFoundError:
        raise RunDirError(f"{out} is not a tricksim run: no {MANIFEST}") from None
    except json.JSONDecodeError as e:
        raise RunDirError(f"{out}/{MANIFEST} is not valid JSON ({e.msg} at line {e.lineno})") from None


class RunDir:
    """One run's output directory, opened for writing (fresh, overwrite or resume)."""

    def __init__(self, out: str | os.PathLike, plan: dict, *, tables: tuple[str, ...], encoding: Encoding = Encoding(),
                 overwrite: bool = False, resume: bool = False):
        self.path = Path(out)
        self.plan = plan
        self.tables = tables  # one folder each, one file a shard in each
        self.encoding = encoding
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
        for table in self.tables:
            (self.path / table).mkdir(parents=True, exist_ok=True)
        if not (self.path / MANIFEST).exists():
            self.write_manifest(status="running")

    def write_manifest(self, status: str, **extra) -> None:
        data = {"format_version": FORMAT_VERSION, "status": status, "plan": self.plan, **self.plan, **extra}
        _write_json_atomic(self.path / MANIFEST, data)

    def shard_done(self, index: int) -> bool:
        return all((self.path / table / shard_name(index)).exists() for table in self.tables)

    def stage_shard(self, index: int, tables: dict[str, pa.Table]) -> list[Path]:
        """Write a shard's files as temporaries; ``commit_shard`` makes them the shard."""
        assert tuple(tables) == self.tables, (tuple(tables), self.tables)
        return [write_parquet_staged(table, self.path / name / shard_name(index), self.encoding)
                for name, table in tables.items()]

    @staticmethod
    def commit_shard(staged: list[Path]) -> None:
        # a shard is done only when all its files exist, so the order of the renames does not matter
        for tmp in staged:
            commit(tmp)

