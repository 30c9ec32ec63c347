"""Run directories: atomic shard files, manifest and resume, for every game family.

Layout of a run directory (the tables are the family's; Spades: ``hands``, and
``games`` in games mode)::

    DIR/manifest.json                what was run (plan) and how it went (status, counts, timings)
    DIR/<table>/part-000000.parquet  one file per shard in each table's folder

A shard file appears only complete: it is written to a hidden ``.*.tmp`` file,
flushed and renamed. Once all of a shard's files are in place its *record* is written
(``DIR/.shards/part-K.json``: each file's name, rows, bytes and CRC-32, computed as it was
written: a CRC detects damage, the point here, at half the cost of SHA-256, docs/performance.md
P28), and the finished manifest lists every record. A shard counts as done only when its record
exists and its files match it; ``--resume`` checks every finished shard's checksum, and
recomputes (deterministically) any shard that is missing, short, unreadable or altered, so a run
killed at any moment ends with the rows of an uninterrupted run. Parquet page checksums are
written too: readers verify the pages they read (``verify_run`` all of them).
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import time
import zlib
from pathlib import Path
from typing import NamedTuple

import pyarrow as pa
import pyarrow.parquet as pq

from tricksim.simulator.errors import RunDirError, option

FORMAT_VERSION = 2  # 2: shard records with checksums
MANIFEST = "manifest.json"
RECORDS = ".shards"  # hidden folder of the shard records (readers of the tables never see it)
RUN_FILES = (MANIFEST,)  # the files a run writes at the top of its directory (an overwrite deletes no others)
ROW_GROUP = 1 << 17  # rows per row group: bounds the writer's buffers and lets readers stream


class Encoding(NamedTuple):
    """How a family's columns are written, by column-name prefix (docs/performance.md P9, P10)."""

    compressed: tuple[str, ...] = ()      # lz4; every other column uncompressed
    delta: tuple[str, ...] = ()           # DELTA_BINARY_PACKED
    run_length: tuple[str, ...] = ()      # RLE
    no_dictionary: tuple[str, ...] = ()   # plain; the rest dictionary-encoded unless delta or RLE
    statistics: tuple[str, ...] = ()      # min/max statistics, only where readers filter


PLAIN = Encoding()  # no column compressed, the defaults of every option


def required_schema(fields) -> pa.Schema:
    """A schema of required (non-nullable) columns: no value is ever missing, and the writer then
    skips a definition level per value (docs/performance.md P10)."""
    return pa.schema([pa.field(name, kind, nullable=False) for name, kind in fields])


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


class _Hashing:
    """A binary file that checksums (CRC-32) and counts what is written through it."""

    def __init__(self, f):
        self.f, self.crc, self.bytes = f, 0, 0

    def write(self, b) -> int:
        self.crc = zlib.crc32(b, self.crc)
        self.bytes += len(b)
        return self.f.write(b)

    def tell(self) -> int:
        return self.f.tell()

    def flush(self) -> None:
        self.f.flush()

    @property
    def closed(self) -> bool:
        return self.f.closed

    def close(self) -> None:  # the caller closes the file
        pass


class Staged(NamedTuple):
    tmp: Path       # the staging file; ``commit`` makes it the shard file
    index: int      # the shard
    table: str
    rows: int
    bytes: int
    crc32: int


def file_crc32(path: Path) -> int:
    crc = 0
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 22), b""):
            crc = zlib.crc32(chunk, crc)
    return crc


def write_parquet_staged(table: pa.Table, path: Path, how: Encoding = PLAIN) -> Path:
    """Encode ``table`` into its staging file: written but not yet durable; ``commit`` makes it ``path``."""
    return _write_parquet(table, path, how)[0]


def _write_parquet(table: pa.Table, path: Path, how: Encoding) -> tuple[Path, int, int]:
    """(staging file, bytes, CRC-32) of ``table`` encoded for ``path``."""
    tmp = _staging(path)
    with open(tmp, "wb") as raw:
        f = _Hashing(raw)
        names = table.column_names
        encoding = {c: "DELTA_BINARY_PACKED" for c in names if c.startswith(how.delta)}
        encoding.update({c: "RLE" for c in names if c.startswith(how.run_length)})
        pq.write_table(table, f, row_group_size=ROW_GROUP,
                       compression={c: "lz4" if c.startswith(how.compressed) else "none" for c in names},
                       use_dictionary=[c for c in names if not c.startswith(how.no_dictionary) and c not in encoding],
                       write_statistics=[c for c in how.statistics if c in names],
                       column_encoding=encoding, write_page_checksum=True)
    return tmp, f.bytes, f.crc


def write_parquet_atomic(table: pa.Table, path: Path, how: Encoding = PLAIN) -> None:
    commit(write_parquet_staged(table, path, how))


def read_manifest(out: Path) -> dict:
    try:
        data = json.loads((Path(out) / MANIFEST).read_text())
    except FileNotFoundError:
        raise RunDirError(f"{out} is not a tricksim run: no {MANIFEST}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RunDirError(f"{out}/{MANIFEST} is not valid JSON ({getattr(e, 'msg', e)})") from None
    if not isinstance(data, dict):
        raise RunDirError(f"{out}/{MANIFEST} is not a tricksim manifest (a JSON object was expected)")
    return data


def shard_problem(out: Path, record: dict, *, checksum: bool) -> str | None:
    """What is wrong with a finished shard's files against its record (None: nothing); ``checksum``: also
    hash every file (reads it whole), else compare names and sizes only."""
    for table, f in record["files"].items():
        path = Path(out) / table / f["name"]
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            return f"{path} is missing"
        if size != f["bytes"]:
            return f"{path} has {size:,} bytes, its record says {f['bytes']:,}"
        if checksum and file_crc32(path) != f["crc32"]:
            return f"{path} does not match its checksum (altered or damaged)"
    return None


DISPLAY_KEYS = ("seat_labels",)  # plan keys that only name things: a resume may change them


def same_data(a: dict, b: dict) -> bool:
    """The two plans give the same data (they may differ in :data:`DISPLAY_KEYS`)."""
    return ({k: v for k, v in a.items() if k not in DISPLAY_KEYS} ==
            {k: v for k, v in b.items() if k not in DISPLAY_KEYS})


def _not_written_by_runs(path: Path) -> list[Path]:
    """What in the run directory ``path`` no run writes, so that an overwrite may not delete it. Runs write the
    files of :data:`RUN_FILES`, staging files (``.NAME.RANDOM.tmp``) and folders of shard files (``part-K.*``
    and their staging files: the tables, the shard records, the columns ``tricksim dd`` adds)."""
    def ours(name: str, ok) -> bool:
        return ok(name) or name.startswith(".") and name.endswith(".tmp") and ok(name[1:].rsplit(".", 2)[0])

    foreign = []
    for entry in sorted(path.iterdir()):
        if entry.is_dir() and not entry.is_symlink():
            foreign += [f for f in sorted(entry.iterdir())
                        if not (f.is_file() and ours(f.name, lambda n: n.startswith("part-")))]
        elif not (entry.is_file() and ours(entry.name, lambda n: n in RUN_FILES)):
            foreign.append(entry)
    return foreign


class RunDir:
    """One run's output directory, opened for writing (fresh, overwrite or resume)."""

    def __init__(self, out: str | os.PathLike, plan: dict, *, tables: tuple[str, ...], encoding: Encoding = PLAIN,
                 overwrite: bool = False, resume: bool = False, upgrade=None):
        """``upgrade``: on resume, applied to the plan read back before it is compared with ``plan`` (the engine's
        ``RunConfig.upgrade_plan``: a run directory written before a rule flag existed lacks it)."""
        self.path = Path(out)
        self.plan = plan
        self.upgrade = upgrade
        self.tables = tables  # one folder each, one file a shard in each
        self.encoding = encoding
        if overwrite and resume:
            raise RunDirError(f"{option('overwrite')} and {option('resume')} exclude each other: choose one")
        try:
            self._open(overwrite=overwrite, resume=resume)
        except OSError as e:  # before any work: a place that cannot hold a run
            raise RunDirError(f"cannot use {option('out', self.path)}: {e.strerror or e}"
                              + (f" ({e.filename})" if e.filename and Path(e.filename) != self.path else "")) from None

    def _open(self, *, overwrite: bool, resume: bool) -> None:
        if self.path.exists() and not self.path.is_dir():
            raise RunDirError(f"{option('out', self.path)} exists and is not a directory")
        existing = self.path.exists() and any(self.path.iterdir())
        self.started = time.time()
        self.previous_seconds = 0.0
        if existing and resume:
            if not (self.path / MANIFEST).exists():
                raise RunDirError(f"{option('resume')}: {self.path} is not a tricksim run (no {MANIFEST})")
            manifest = read_manifest(self.path)
            old = manifest.get("plan", {})
            if self.upgrade is not None and isinstance(old, dict):
                old = self.upgrade(old)
            if not same_data(old, self.plan):
                diff = sorted(k for k in set(self.plan) | set(old) if self.plan.get(k) != old.get(k)
                              and k not in DISPLAY_KEYS)
                raise RunDirError(
                    f"{option('resume')}: {self.path} was started with different options ({', '.join(diff)}); "
                    f"rerun with the original options or use {option('overwrite')}")
            self.previous_seconds = float(manifest.get("compute_seconds", 0.0))
            for tmp in self.path.rglob("*.tmp"):
                tmp.unlink()
            self.repaired = self._drop_bad_shards()
        elif existing and overwrite:
            if not (self.path / MANIFEST).exists():
                raise RunDirError(f"refusing to overwrite {self.path}: it is not a tricksim run (no {MANIFEST})")
            foreign = [str(p.relative_to(self.path)) for p in _not_written_by_runs(self.path)]
            if foreign:
                raise RunDirError(f"refusing to overwrite {self.path}: it holds files no run writes "
                                  f"({', '.join(foreign[:3])}{', ...' if len(foreign) > 3 else ''}): move them "
                                  f"away, or give another {option('out', None)}")
            shutil.rmtree(self.path)
        elif existing:
            raise RunDirError(f"{option('out', self.path)} is not empty: pass {option('overwrite')} to replace it or "
                              f"{option('resume')} to finish it")
        for table in (*self.tables, RECORDS):
            (self.path / table).mkdir(parents=True, exist_ok=True)
        if not (self.path / MANIFEST).exists():
            self.write_manifest(status="running")

    def _drop_bad_shards(self) -> list[str]:
        """Resume: every shard not provably whole (no record, a missing, short or altered file, a file no
        record names) is removed, so that it is computed again. Returns what was found, one line each."""
        found = []
        records = {}
        for path in sorted((self.path / RECORDS).glob("part-*.json")):
            try:
                record = json.loads(path.read_text())
                problem = shard_problem(self.path, record, checksum=True)
            except (ValueError, KeyError, TypeError, OSError) as e:
                problem = f"{path} is unreadable ({e.__class__.__name__})"
                record = None
            if problem:
                found.append(problem)
                path.unlink()
            else:
                records[path.stem] = record
        for table in self.tables:
            for f in sorted((self.path / table).glob("part-*.parquet")):
                rec = records.get(f.stem)
                if rec is None or rec["files"].get(table, {}).get("name") != f.name:
                    if rec is None and not any(p.startswith(str(f)) for p in found):
                        found.append(f"{f} has no shard record (unfinished shard)")
                    f.unlink()
        return found

    def write_manifest(self, status: str, **extra) -> None:
        data = {"format_version": FORMAT_VERSION, "status": status, "plan": self.plan, **self.plan, **extra}
        if status == "complete":
            data["shards"] = self.records()
        _write_json_atomic(self.path / MANIFEST, data)

    def _record_path(self, index: int) -> Path:
        return self.path / RECORDS / shard_name(index).replace(".parquet", ".json")

    def shard_done(self, index: int) -> bool:
        """The shard's record exists and its files have the recorded names and sizes (``--resume`` has
        checked their checksums when the directory was opened)."""
        try:
            record = json.loads(self._record_path(index).read_text())
        except (FileNotFoundError, ValueError):
            return False
        return shard_problem(self.path, record, checksum=False) is None

    def records(self) -> list[dict]:
        """Every shard record, in shard order."""
        return [json.loads(p.read_text()) for p in sorted((self.path / RECORDS).glob("part-*.json"))]

    def stage_shard(self, index: int, tables: dict[str, pa.Table]) -> list[Staged]:
        """Write a shard's files as temporaries; ``commit_shard`` makes them the shard."""
        assert tuple(tables) == self.tables, (tuple(tables), self.tables)
        return stage_shard(self.path, index, tables, self.encoding)

    def commit_shard(self, staged: list[Staged]) -> None:
        commit_shard(self.path, staged)


def stage_shard(out: Path, index: int, tables: dict[str, pa.Table], encoding: Encoding) -> list[Staged]:
    """Write shard ``index``'s files into run directory ``out`` as temporaries (any process may: a worker of
    a distributed run writes its shards itself); ``commit_shard`` makes them the shard."""
    staged = []
    for name, table in tables.items():
        tmp, size, crc = _write_parquet(table, Path(out) / name / shard_name(index), encoding)
        staged.append(Staged(tmp, index, name, table.num_rows, size, crc))
    return staged


def commit_shard(out: Path, staged: list[Staged]) -> None:
    """Make the staged files the shard, then write its record: a shard without a record is not done. Two
    writers of one shard (a retried task) each rename whole files of the same content."""
    for s in staged:
        commit(s.tmp)
    index = staged[0].index
    files = {s.table: {"name": shard_name(index), "rows": s.rows, "bytes": s.bytes, "crc32": s.crc32} for s in staged}
    _write_json_atomic(Path(out) / RECORDS / shard_name(index).replace(".parquet", ".json"),
                       {"index": index, "files": files})


def verify_run(out) -> tuple[int, int, list[str]]:
    """Every shard of a finished run against the manifest's records: the checksum of each file and the
    Parquet page checksums inside it. Returns (shards, rows, problems: one line each)."""
    manifest = read_manifest(Path(out))
    records = manifest.get("shards")
    if not isinstance(records, list):
        status = manifest.get("status")
        why = "it is still running or was stopped" if status != "complete" else "it predates shard records"
        raise RunDirError(f"{out}: no shard records to verify ({why}); finish it with {option('resume')}")
    problems, rows = [], 0
    listed = {(t, f["name"]) for r in records for t, f in r["files"].items()}
    for table in {t for t, _ in listed}:
        for f in sorted((Path(out) / table).glob("*.parquet")):
            if (table, f.name) not in listed:
                problems.append(f"{f} is not one of the run's files")
    for record in records:
        problem = shard_problem(Path(out), record, checksum=True)
        if problem is None:
            for table, f in record["files"].items():
                try:
                    pf = pq.ParquetFile(Path(out) / table / f["name"], page_checksum_verification=True)
                    for i in range(pf.num_row_groups):
                        pf.read_row_group(i)
                except (OSError, pa.ArrowException) as e:
                    problem = f"{Path(out) / table / f['name']} fails its page checksums ({str(e).splitlines()[0]})"
        if problem:
            problems.append(problem)
        rows += max(f["rows"] for f in record["files"].values())
    return len(records), rows, problems
