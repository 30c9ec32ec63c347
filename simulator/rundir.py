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

Identity (format 3): a run gets a random id when it is created (``run_id``, kept by ``--resume``); every
file it writes carries that id and its shard index in its Parquet key-value metadata (``tricksim.run_id``,
``tricksim.shard``: the footer, which readers open anyway), and every record holds the id too. So a file of
another run with the same name and row count, or a copy of a whole run given next to the original, is
named rather than read. The manifest carries the SHA-256 of its own canonical JSON (``manifest_sha256``):
a value edited by hand is refused by readers, ``verify`` and ``--resume``.

One writer at a time: a process writing a run holds ``DIR/.lock`` (``fcntl.flock``) until it ends; a second
writer (``--overwrite``, ``--resume``, ``tricksim dd``) is refused in one line, and the lock of a process
that died is free (the kernel drops it with the process). Every check that can refuse a run runs before
the folder is touched (``RunDir(...)`` checks, ``RunDir.open`` writes), and a folder killed before its
first manifest was renamed into place holds nothing of a run: it counts as empty.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import secrets
import shutil
import time
import uuid
import zlib
from pathlib import Path
from typing import NamedTuple, Self

import pyarrow as pa
import pyarrow.parquet as pq

from tricksim.simulator.errors import RunDirError, option

FORMAT_VERSION = 3  # 2: shard records with checksums; 3: run id in every file and record, manifest checksum
MANIFEST = "manifest.json"
LOCK = ".lock"  # held (flock) by the process writing the run; kept afterwards (removing it would race)
CHECKSUM = "manifest_sha256"  # the manifest's checksum of its own content
META_RUN, META_SHARD = b"tricksim.run_id", b"tricksim.shard"  # a file's identity, in its Parquet footer
RECORDS = ".shards"  # hidden folder of the shard records (readers of the tables never see it)
RUN_FILES = (MANIFEST, LOCK)  # the files a run writes at the top of its directory (an overwrite deletes no others)
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


def shard_index(name: str) -> int | None:
    """K of a file named ``part-K.parquet`` (None for another name)."""
    m = re.fullmatch(r"part-(\d+)\.parquet", name)
    return int(m.group(1)) if m else None


def new_run_id() -> str:
    return uuid.uuid4().hex


# ------------------------------------------------------------------ identity and the manifest's checksum
def manifest_digest(data: dict) -> str:
    """SHA-256 of the manifest's canonical JSON (sorted keys, no spaces) without its own checksum field."""
    body = {k: v for k, v in data.items() if k != CHECKSUM}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def sealed(data: dict) -> dict:
    """``data`` with its checksum (what is written as the manifest)."""
    return {**data, CHECKSUM: manifest_digest(data)}


def is_identified(manifest: dict) -> bool:
    """A format-3 manifest: its run has an id and its content a checksum (older runs have neither)."""
    return CHECKSUM in manifest or "run_id" in manifest or _version(manifest) >= 3


def _version(manifest: dict) -> int:
    v = manifest.get("format_version")
    return v if isinstance(v, int) else 0


def manifest_problem(manifest: dict) -> str | None:
    """Why a manifest cannot be trusted (one phrase), or None: its checksum does not match its content (a value
    edited by hand), or a format-3 manifest lost it. A manifest older than format 3 has none to check."""
    if CHECKSUM in manifest:
        if manifest[CHECKSUM] != manifest_digest(manifest):
            return "was changed after the run wrote it (its checksum does not match its content)"
        if not isinstance(manifest.get("run_id"), str):
            return "has no run id"
        return None
    if is_identified(manifest):
        return "has no checksum of its content (it was edited)"
    return None


def file_identity(meta: pq.FileMetaData) -> tuple[str | None, int | None]:
    """(run id, shard index) a Parquet file's footer carries (None, None for a file written before format 3)."""
    kv = meta.metadata or {}
    run, shard = kv.get(META_RUN), kv.get(META_SHARD)
    try:
        return (run.decode() if run is not None else None), (int(shard) if shard is not None else None)
    except (UnicodeDecodeError, ValueError):
        return None, None


def identity_problem(path, meta: pq.FileMetaData, run_id: str, index: int | None) -> str | None:
    """What is wrong with the identity of file ``path`` of run ``run_id`` (shard ``index``), or None."""
    rid, k = file_identity(meta)
    if rid != run_id:
        whose = f"run id {rid[:12]}" if rid else "no run id"
        return f"{path} belongs to another run ({whose}; this run's is {run_id[:12]})"
    if index is not None and k != index:
        return f"{path} is shard {k} of this run, not shard {index} (renamed)"
    return None


def identity_metadata(run_id: str | None, index: int) -> dict[bytes, bytes] | None:
    return None if run_id is None else {META_RUN: run_id.encode(), META_SHARD: str(index).encode()}


# ------------------------------------------------------------------ one writer at a time
class Lock:
    """The run folder's writer lock: ``flock`` on ``DIR/.lock``, held until :meth:`release` or the process ends."""

    def __init__(self, folder: Path):
        self.folder, self.fd = Path(folder), None

    def acquire(self, what: str = "write") -> None:
        fd = os.open(self.folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        for attempt in range(10):  # a reader's probe (writer_pid) holds it for microseconds
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if attempt == 9:
                    pid = _read_pid(fd)
                    os.close(fd)
                    raise RunDirError(busy(self.folder, pid, what)) from None
                time.sleep(0.02)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the file drops the lock
            self.fd = None


def busy(folder, pid: int | None, what: str) -> str:
    return (f"cannot {what} {folder}: another process{f' (pid {pid})' if pid else ''} is writing it; wait for it "
            f"to end or stop it first")


def _read_pid(fd: int) -> int | None:
    try:
        return int(os.pread(fd, 32, 0).decode().strip())
    except (ValueError, OSError):
        return None


def writer_pid(folder) -> int | None:
    """The pid of a live process writing run folder ``folder`` (0 when unknown), or None when none is."""
    try:
        fd = os.open(Path(folder) / LOCK, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return None
    except BlockingIOError:
        return _read_pid(fd) or 0
    finally:
        os.close(fd)  # drops the probe's lock too


def _unstarted(path: Path) -> bool:
    """The folder holds nothing of a run: only the lock, staging files and empty folders (a process killed
    before its first manifest was renamed into place leaves this)."""
    for p in path.rglob("*"):
        if p.is_dir():
            continue
        if p.name != LOCK and not (p.name.startswith(".") and p.name.endswith(".tmp")):
            return False
    return True


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


def write_manifest_file(out, data: dict) -> None:
    """Write ``data`` as the manifest of run folder ``out``, with its checksum (atomic); the caller holds the lock."""
    _write_json_atomic(Path(out) / MANIFEST, sealed(data))


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
    run_id: str | None = None


def file_crc32(path: Path) -> int:
    crc = 0
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 22), b""):
            crc = zlib.crc32(chunk, crc)
    return crc


def write_parquet_staged(table: pa.Table, path: Path, how: Encoding = PLAIN) -> Path:
    """Encode ``table`` into its staging file: written but not yet durable; ``commit`` makes it ``path``."""
    return _write_parquet(table, path, how)[0]


def _write_parquet(table: pa.Table, path: Path, how: Encoding,
                   meta: dict[bytes, bytes] | None = None) -> tuple[Path, int, int]:
    """(staging file, bytes, CRC-32) of ``table`` encoded for ``path``; ``meta``: key-value metadata for its
    footer (a file's identity)."""
    tmp = _staging(path)
    if meta:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), **meta})
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


def write_identified(table: pa.Table, path: Path, run_id: str | None, index: int, how: Encoding = PLAIN) -> dict:
    """Write ``table`` to ``path`` atomically, carrying run ``run_id``'s identity as shard ``index``; returns its
    record (name, rows, bytes, CRC-32). For files added to a finished run (``tricksim dd``)."""
    tmp, size, crc = _write_parquet(table, path, how, identity_metadata(run_id, index))
    commit(tmp)
    return {"name": path.name, "rows": table.num_rows, "bytes": size, "crc32": crc}


def file_record(path: Path) -> dict:
    """The record of a file already written: name, rows, bytes, CRC-32."""
    return {"name": path.name, "rows": pq.ParquetFile(path).metadata.num_rows, "bytes": path.stat().st_size,
            "crc32": file_crc32(path)}


def read_manifest(out: Path, *, check: bool = True) -> dict:
    """The manifest of run folder ``out``; ``check``: refuse one whose checksum does not match its content."""
    try:
        data = json.loads((Path(out) / MANIFEST).read_text())
    except FileNotFoundError:
        raise RunDirError(f"{out} is not a tricksim run: no {MANIFEST}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RunDirError(f"{out}/{MANIFEST} is not valid JSON ({getattr(e, 'msg', e)})") from None
    if not isinstance(data, dict):
        raise RunDirError(f"{out}/{MANIFEST} is not a tricksim manifest (a JSON object was expected)")
    problem = manifest_problem(data) if check else None
    if problem:
        raise RunDirError(f"{out}/{MANIFEST} {problem}: its figures cannot be trusted; restore it, or run again "
                          f"with {option('overwrite')}")
    return data


def shard_problem(out: Path, record: dict, *, checksum: bool, run_id: str | None = None) -> str | None:
    """What is wrong with a finished shard's files against its record (None: nothing); ``checksum``: also
    hash every file (reads it whole), else compare names and sizes only; ``run_id``: also check that the
    record and each file's footer are the run's and the shard's."""
    if run_id is not None and record.get("run_id") != run_id:
        return f"the record of shard {record.get('index')} is another run's"
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
        if run_id is not None:
            try:
                problem = identity_problem(path, pq.ParquetFile(path).metadata, run_id, record["index"])
            except (OSError, pa.ArrowException):
                problem = f"{path} is unreadable"
            if problem:
                return problem
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


def plan_difference(old: dict, new: dict) -> tuple[str, str]:
    """Why the run of plan ``old`` is not the run of plan ``new`` (they differ), as the end of a sentence that
    names the run first, and what would finish it: other options, or the same options run by other code."""
    diff = sorted(k for k in set(new) | set(old) if new.get(k) != old.get(k) and k not in DISPLAY_KEYS)
    if diff == ["source"]:
        made = (f"other tricksim code (source {old['source']}; this is {new['source']})" if old.get("source")
                else f"a tricksim that did not record its source code (this is source {new['source']})")
        return (f"was made by {made}, whose data could differ",
                "finish it with the code that started it")
    return f"was started with different options ({', '.join(diff)})", "rerun with the original options"


class RunDir:
    """One run's output directory, for writing (fresh, overwrite or resume).

    ``RunDir(...)`` only checks: every refusal (options that exclude each other, a folder that is not a run,
    another plan, a manifest that fails its checksum, another process writing) comes before anything is
    written. :meth:`open` then takes the writer lock, clears or repairs the folder and writes the first
    manifest; :meth:`close` (or the end of the ``with`` block, or of the process) releases the lock."""

    def __init__(self, out: str | os.PathLike, plan: dict, *, tables: tuple[str, ...], encoding: Encoding = PLAIN,
                 overwrite: bool = False, resume: bool = False, upgrade=None):
        """``upgrade``: on resume, applied to the plan read back before it is compared with ``plan`` (the engine's
        ``RunConfig.upgrade_plan``: a run directory written before a rule flag existed lacks it)."""
        self.path = Path(out)
        self.plan = plan
        self.upgrade = upgrade
        self.tables = tables  # one folder each, one file a shard in each
        self.encoding = encoding
        self.overwrite, self.resume = overwrite, resume
        self.lock = Lock(self.path)
        self.repaired: list[str] = []
        self.run_id = new_run_id()  # a resume keeps the run's own (``_check``)
        if overwrite and resume:
            raise RunDirError(f"{option('overwrite')} and {option('resume')} exclude each other: choose one")
        self._guard(self._check)

    def _guard(self, step, *args):
        try:
            return step(*args)
        except OSError as e:  # a place that cannot hold a run
            raise RunDirError(f"cannot use {option('out', self.path)}: {e.strerror or e}"
                              + (f" ({e.filename})" if e.filename and Path(e.filename) != self.path else "")) from None

    def _check(self, locked: bool = False) -> None:
        """Decide what :meth:`open` does (``self.action``: fresh, overwrite or resume), refusing what cannot be
        done; reads the folder, writes nothing."""
        if self.path.exists() and not self.path.is_dir():
            raise RunDirError(f"{option('out', self.path)} exists and is not a directory")
        existing = self.path.exists() and not _unstarted(self.path)
        self.previous_seconds = 0.0
        if not existing:
            self.action = "fresh"
            return
        if not (resume := self.resume) and not self.overwrite:
            raise RunDirError(f"{option('out', self.path)} is not empty: pass {option('overwrite')} to replace it or "
                              f"{option('resume')} to finish it")
        if not (self.path / MANIFEST).exists():
            if resume:
                raise RunDirError(f"{option('resume')}: {self.path} is not a tricksim run (no {MANIFEST})")
            raise RunDirError(f"refusing to overwrite {self.path}: it is not a tricksim run (no {MANIFEST})")
        if not locked:
            pid = writer_pid(self.path)
            if pid is not None:
                raise RunDirError(busy(self.path, pid, "resume" if resume else "overwrite"))
        if not resume:
            foreign = [str(p.relative_to(self.path)) for p in _not_written_by_runs(self.path)]
            if foreign:
                raise RunDirError(f"refusing to overwrite {self.path}: it holds files no run writes "
                                  f"({', '.join(foreign[:3])}{', ...' if len(foreign) > 3 else ''}): move them "
                                  f"away, or give another {option('out', None)}")
            self.action = "overwrite"
            return
        manifest = read_manifest(self.path)
        if not isinstance(manifest.get("run_id"), str):
            raise RunDirError(f"{option('resume')}: {self.path} was written before runs had ids (format "
                              f"{_version(manifest) or 1}); start it again with {option('overwrite')}")
        old = manifest.get("plan", {})
        if self.upgrade is not None and isinstance(old, dict):
            old = self.upgrade(old)
        if not same_data(old, self.plan):
            why, remedy = plan_difference(old, self.plan)
            raise RunDirError(f"{option('resume')}: {self.path} {why}; {remedy} or use {option('overwrite')}")
        self.run_id = manifest["run_id"]
        self.previous_seconds = float(manifest.get("compute_seconds", 0.0))
        self.action = "resume"

    def open(self) -> RunDir:
        """Take the writer lock and make the folder ready: emptied (fresh, overwrite) or repaired (resume)."""
        self.created = False
        try:
            self._guard(self._open)
        except BaseException:
            held = self.lock.fd is not None
            self.close()
            if self.created and held:  # a refusal leaves no folder where there was none
                shutil.rmtree(self.path, ignore_errors=True)
            raise
        return self

    def _open(self) -> None:
        try:
            self.path.mkdir(parents=True)
            self.created = True
        except FileExistsError:
            pass
        self.lock.acquire("resume" if self.action == "resume" else "write")
        self._check(locked=True)  # again under the lock: the folder may have changed since
        if self.action in ("fresh", "overwrite"):
            # all but the lock file, which other writers may be waiting on, and the manifest, which the new one
            # replaces in one rename below: a folder killed while it is cleared is still a run (--overwrite again)
            for entry in self.path.iterdir():
                if entry.name not in (LOCK, MANIFEST):
                    shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
        else:
            for tmp in self.path.rglob("*.tmp"):
                tmp.unlink()
            self.repaired = self._drop_bad_shards()
        for table in (*self.tables, RECORDS):
            (self.path / table).mkdir(parents=True, exist_ok=True)
        if self.action != "resume":
            self.write_manifest(status="running")

    def close(self) -> None:
        self.lock.release()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _drop_bad_shards(self) -> list[str]:
        """Resume: every shard not provably whole (no record, a missing, short, altered or foreign file, a file
        no record names) is removed, so that it is computed again. Returns what was found, one line each."""
        found = []
        records = {}
        for path in sorted((self.path / RECORDS).glob("part-*.json")):
            try:
                record = json.loads(path.read_text())
                problem = shard_problem(self.path, record, checksum=True, run_id=self.run_id)
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
        data = {"format_version": FORMAT_VERSION, "status": status, "run_id": self.run_id, "plan": self.plan,
                **self.plan, **extra}
        if status == "complete":
            data["shards"] = self.records()
        write_manifest_file(self.path, data)

    def _record_path(self, index: int) -> Path:
        return self.path / RECORDS / shard_name(index).replace(".parquet", ".json")

    def shard_done(self, index: int) -> bool:
        """The shard's record exists and its files have the recorded names and sizes (``--resume`` has
        checked their checksums and identity when the directory was opened)."""
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
        return stage_shard(self.path, index, tables, self.encoding, self.run_id)

    def commit_shard(self, staged: list[Staged]) -> None:
        commit_shard(self.path, staged)


def stage_shard(out: Path, index: int, tables: dict[str, pa.Table], encoding: Encoding,
                run_id: str | None = None) -> list[Staged]:
    """Write shard ``index``'s files into run directory ``out`` as temporaries (any process may: a worker of
    a distributed run writes its shards itself), each carrying the run's id and the shard's index in its
    footer; ``commit_shard`` makes them the shard."""
    staged = []
    for name, table in tables.items():
        tmp, size, crc = _write_parquet(table, Path(out) / name / shard_name(index), encoding,
                                        identity_metadata(run_id, index))
        staged.append(Staged(tmp, index, name, table.num_rows, size, crc, run_id))
    return staged


def commit_shard(out: Path, staged: list[Staged]) -> None:
    """Make the staged files the shard, then write its record: a shard without a record is not done. Two
    writers of one shard (a retried task) each rename whole files of the same content."""
    for s in staged:
        commit(s.tmp)
    index = staged[0].index
    files = {s.table: {"name": shard_name(index), "rows": s.rows, "bytes": s.bytes, "crc32": s.crc32} for s in staged}
    _write_json_atomic(Path(out) / RECORDS / shard_name(index).replace(".parquet", ".json"),
                       {"index": index, "run_id": staged[0].run_id, "files": files})


def _pages_problem(path: Path) -> str | None:
    try:
        pf = pq.ParquetFile(path, page_checksum_verification=True)
        for i in range(pf.num_row_groups):
            pf.read_row_group(i)
    except (OSError, pa.ArrowException) as e:
        return f"{path} fails its page checksums ({str(e).splitlines()[0]})"
    return None


def verify_run(out) -> tuple[int, int, list[str]]:
    """Every file of a finished run against the manifest: the manifest's own checksum, each shard file's
    checksum, identity (run id and shard index) and Parquet page checksums, and the same of the double-dummy
    files (``dd/``) where there are any. Returns (shards, rows, problems: one line each); a run that cannot be
    verified at all (no manifest, one that fails its checksum, no shard records) is one problem, so that a
    caller given several runs checks every one."""
    out = Path(out)
    try:
        manifest = read_manifest(out)
    except RunDirError as e:
        return 0, 0, [str(e)]
    records = manifest.get("shards")
    if not isinstance(records, list):
        status = manifest.get("status")
        why = "it is still running or was stopped" if status != "complete" else "it predates shard records"
        return 0, 0, [f"{out}: no shard records to verify ({why}); finish it with {option('resume')}"]
    run_id = manifest.get("run_id") if is_identified(manifest) else None
    problems, rows = [], 0
    listed = {(t, f["name"]) for r in records for t, f in r["files"].items()}
    for table in {t for t, _ in listed}:
        for f in sorted((out / table).glob("*.parquet")):
            if (table, f.name) not in listed:
                problems.append(f"{f} is not one of the run's files")
    for record in records:
        problem = shard_problem(out, record, checksum=True, run_id=run_id)
        if problem is None:
            for table, f in record["files"].items():
                problem = problem or _pages_problem(out / table / f["name"])
        if problem:
            problems.append(problem)
        rows += max(f["rows"] for f in record["files"].values())
    problems += verify_extra(out, manifest, "dd", run_id)
    return len(records), rows, problems


def verify_extra(out: Path, manifest: dict, folder: str, run_id: str | None) -> list[str]:
    """The files of ``out/folder`` added to a finished run (``tricksim dd``): each present file's identity and
    page checksums; against the manifest's records of them (``manifest[folder]``), when it has any, each
    file's presence, size and checksum."""
    problems = []
    records = {r["name"]: r for r in manifest.get(folder) or [] if isinstance(r, dict) and "name" in r}
    present = {f.name: f for f in sorted((out / folder).glob("*.parquet"))}
    for name in sorted(set(records) - set(present)):
        problems.append(f"{out / folder / name} is missing")
    for name, path in present.items():
        rec = records.get(name)
        problem = None
        if rec is not None and path.stat().st_size != rec.get("bytes"):
            problem = f"{path} has {path.stat().st_size:,} bytes, its record says {rec.get('bytes'):,}"
        elif rec is not None and file_crc32(path) != rec.get("crc32"):
            problem = f"{path} does not match its checksum (altered or damaged)"
        if problem is None and run_id is not None:
            try:
                problem = identity_problem(path, pq.ParquetFile(path).metadata, run_id, shard_index(name))
            except (OSError, pa.ArrowException) as e:
                problem = f"{path} is unreadable ({str(e).splitlines()[0][:80]})"
        problem = problem or _pages_problem(path)
        if problem:
            problems.append(problem)
    return problems
