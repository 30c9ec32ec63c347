"""Open tricksim run directories and stream their Parquet files.

A run directory (the engine's output contract)::

    RUN/manifest.json        version, game='spades', mode='hands'|'games', preset,
                             rules{flag: value}, seats[a strategy spec a seat], seed, count,
                             hand_limit, status
    RUN/hands/*.parquet      one row per hand
    RUN/games/*.parquet      one row per game (games mode only)

A Tarot run (game='tarot', mode='deals') has ``RUN/deals/*.parquet``, one row per deal: its
files take the place of the hand files (``Run.iter_hands`` reads them; analysis/games/tarot/ uses them).
The games, their modes and which table has one row per dealt unit are the game families' (the
plain-data records of ``tricksim.simulator.family``, which load no numba); this module keeps no list.

:func:`open_run` validates the directory and returns a :class:`Run`. Data are
read with column projection, one record batch at a time
(:meth:`Run.iter_hands`), so a 50-million-hand run never has to fit in
memory. Nothing downstream needs the row order: every consumer joins on
``game_id``.

Import cost matters (the post-simulation summary uses this module): only
pyarrow, numpy and the game families' records are imported. The files are scanned with
``pyarrow.parquet.ParquetFile.iter_batches`` rather than ``pyarrow.dataset``
because importing ``pyarrow.dataset`` pulls in pandas (docs/performance.md P11); the
projection and batch-wise decoding are the same.
"""
from __future__ import annotations

import functools
import json
import os
import secrets
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from tricksim.simulator import family as families
from tricksim.simulator.errors import AnalysisError, option
from tricksim.simulator.rundir import MANIFEST, file_identity, is_identified, manifest_problem, shard_index

__all__ = [
    "DEFAULT_BATCH_ROWS",
    "AnalysisError",
    "Run",
    "atomic_output",
    "batch_arrays",
    "open_run",
    "open_runs",
]

DEFAULT_BATCH_ROWS = 131_072


@contextmanager
def atomic_output(path) -> Iterator[Path]:
    """A staging path through which to write the file ``path`` (a chart, a table, a report): it
    becomes ``path``, flushed to disk, only when the block ends without an error, and is removed
    otherwise, so a crash never leaves a half-written file. It keeps the suffix, from which writers
    such as matplotlib take the format. (Run shards have their own staging: simulator/rundir.py.)"""
    final = Path(path)
    tmp = final.with_name(f".{final.stem}.{secrets.token_hex(6)}.tmp{final.suffix}")  # hidden, new each time
    try:
        yield tmp
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, final)
    finally:
        tmp.unlink(missing_ok=True)


@functools.cache
def _rule_defaults(game: str) -> dict:
    """Every rule flag of ``game`` (a game :func:`open_run` accepted) at its default."""
    return families.family(game).rules_type().to_dict()


@functools.cache
def _preset_rules(game: str, preset: str) -> dict | None:
    """The flags of ``game``'s preset ``preset`` (None for an unknown preset)."""
    p = families.family(game).presets.get(preset)
    return None if p is None else p.to_dict()


def short_labels(specs: Sequence[str]) -> list[str]:
    """Display labels for full strategy specs (``NAME:param=value,...``, every parameter spelled out) of a
    manifest written without ``seat_labels``: the name and only the parameters whose values differ
    between the specs of that name (none when they agree)."""
    parsed = []
    for spec in specs:
        name, _, rest = str(spec).partition(":")
        params = dict(item.partition("=")[::2] for item in rest.split(",") if item)
        parsed.append((name, params))
    labels = []
    for name, params in parsed:
        same = [p for n, p in parsed if n == name]
        differ = [k for k in params if len({q.get(k) for q in same}) > 1]
        labels.append(name + (":" + ",".join(f"{k}={params[k]}" for k in differ) if differ else ""))
    return labels


def seats_of(game: str, manifest: dict) -> int:
    """The players of a run: its rules' own ``seats`` where they record one (Tarot for three or five:
    docs/output.md), else the rules record's default where it has a seat count (Tarot: four, a manifest that
    leaves ``seats`` out), else the family's (``Family.seats``, the most)."""
    fam = families.family(game)
    default = getattr(fam.rules_type, "seats", fam.seats)  # a dataclass field's default (TarotRules.seats: 4)
    rules = manifest.get("rules")
    n = rules.get("seats") if isinstance(rules, dict) else None
    return n if isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= fam.seats else default


def _fail(path, why: str) -> AnalysisError:
    return AnalysisError(f"{path}: {why}")


@dataclass(frozen=True, eq=False)
class Run:
    """A validated tricksim run directory.

    Use :func:`open_run` to build one. ``manifest`` is the parsed
    ``manifest.json``; ``hand_files`` / ``game_files`` the Parquet files found.
    """

    path: Path
    manifest: dict
    hand_files: tuple[Path, ...]
    game_files: tuple[Path, ...] = ()
    _files_cache: dict = field(default_factory=dict, repr=False, compare=False)

    def __reduce__(self):
        """Pickled (to or from a Dask worker) without its open file readers, which do not travel."""
        return Run, (self.path, self.manifest, self.hand_files, self.game_files)

    def subset(self, names) -> Run:
        """The same run limited to the shards named ``names`` (``part-K.parquet``): for figures computed
        part by part (analysis/parallel.py)."""
        names = set(names)
        return Run(path=self.path, manifest=self.manifest, hand_files=tuple(f for f in self.hand_files if f.name in names),
                   game_files=tuple(f for f in self.game_files if f.name in names))

    # ---------------------------------------------------------------- manifest
    @property
    def mode(self) -> str:
        return self.manifest["mode"]

    @property
    def run_id(self) -> str | None:
        """The id the run got when it was created (None for a run written before format 3)."""
        return self.manifest.get("run_id") if is_identified(self.manifest) else None

    @property
    def game(self) -> str:
        return self.manifest["game"]

    @property
    def is_games(self) -> bool:
        return self.mode == "games"

    @property
    def preset(self) -> str:
        return str(self.manifest.get("preset") or "custom")

    @property
    def rules(self) -> dict:
        """The run's rule flags; a flag its manifest lacks (added to the game since) at its default, the
        behaviour the run was made with."""
        rules = dict(self.manifest.get("rules") or {})
        return {**{k: v for k, v in _rule_defaults(self.game).items() if k not in rules}, **rules}

    @property
    def n_seats(self) -> int:
        """The run's players (``seats_of``)."""
        return seats_of(self.game, self.manifest)

    @property
    def seats(self) -> list[str]:
        """Strategy spec per seat (``'unknown'`` where the manifest has none)."""
        seats, n = list(self.manifest.get("seats") or []), self.n_seats
        return [str(s) for s in seats[:n]] + ["unknown"] * (n - min(n, len(seats)))

    @property
    def status(self) -> str | None:
        s = self.manifest.get("status")
        return None if s is None else str(s)

    @property
    def name(self) -> str:
        """Short name for legends: the directory name."""
        return self.path.name or str(self.path)

    def rules_vs_preset(self) -> dict:
        """The rule flags that differ from the run's preset (from the game's defaults for an unknown preset)."""
        base = _preset_rules(self.game, self.preset) or _rule_defaults(self.game)
        aliases = families.family(self.game).rules_type.FLAGS.aliases  # e.g. Spades jokers, which deck decides
        return {k: v for k, v in self.rules.items() if (base.get(k, v) != v or k not in base)
                and aliases.get(k) not in self.rules}

    def rules_text(self) -> str:
        """'classic' or 'classic + target=300, jokers=true': the preset and the flags that differ from it, each
        written as a rule override (``--rule key=value``) is."""
        diff = self.rules_vs_preset()
        return self.preset + (" + " + ", ".join(f"{k}={rule_value(v)}" for k, v in diff.items()) if diff else "")

    @property
    def seat_labels(self) -> list[str]:
        """Short strategy label per seat, for display: the manifest's ``seat_labels`` (a user's alias, or the
        spec with only the parameters that differ from the defaults); for an older manifest, the strategy
        name with the parameters that differ between its seats."""
        labels = self.manifest.get("seat_labels")
        n = self.n_seats
        if isinstance(labels, list) and len(labels) >= n:
            return [str(x) for x in labels[:n]]
        return short_labels(self.seats)

    def team_strategies(self) -> tuple[str, str]:
        """'A' or 'A / B' for team 0 (seats 0+2) and team 1 (seats 1+3), as short labels."""
        s = self.seat_labels

        def team(a, b):
            return a if a == b else f"{a} / {b}"

        return team(s[0], s[2]), team(s[1], s[3])

    # ------------------------------------------------------------------- files
    def _files(self, kind: str) -> tuple[Path, ...]:
        files = self.hand_files if kind == "hands" else self.game_files
        if not files:
            raise _fail(self.path, f"no {kind} Parquet files (expected {kind}/*.parquet)")
        return files

    def _parquet(self, path: Path) -> pq.ParquetFile:
        key = str(path)
        if key not in self._files_cache:
            try:
                self._files_cache[key] = pq.ParquetFile(key)
            except (pa.ArrowInvalid, OSError) as e:
                first = str(e).splitlines()[0] if str(e) else type(e).__name__
                raise _fail(path, f"cannot read Parquet file: {first}") from None
        return self._files_cache[key]

    def _schema(self, kind: str) -> pa.Schema:
        """Schema of the first file; every file must hold the same column names."""
        files = self._files(kind)
        schema = self._parquet(files[0]).schema_arrow
        names = set(schema.names)
        for f in files[1:]:
            other = set(self._parquet(f).schema_arrow.names)
            if other != names:
                diff = sorted(names ^ other)
                raise _fail(f, f"columns differ from {files[0].name}: {', '.join(diff)}")
        return schema

    def hands_schema(self) -> pa.Schema:
        return self._schema("hands")

    def games_schema(self) -> pa.Schema:
        return self._schema("games")

    def has_columns(self, kind: str, columns: Iterable[str]) -> bool:
        names = set(self._schema(kind).names)
        return all(c in names for c in columns)

    def _check_columns(self, kind: str, columns: Sequence[str]) -> None:
        names = set(self._schema(kind).names)
        missing = [c for c in columns if c not in names]
        if missing:
            raise _fail(self.path, f"{kind} files lack column(s) {', '.join(missing)}")

    def count_hands(self) -> int:
        """Number of hand rows (from Parquet footers; no data read)."""
        return sum(self._parquet(f).metadata.num_rows for f in self._files("hands"))

    def count_games(self) -> int:
        return sum(self._parquet(f).metadata.num_rows for f in self.game_files)

    def iter_batches(self, kind: str, columns: Sequence[str],
                     batch_rows: int = DEFAULT_BATCH_ROWS) -> Iterator[pa.RecordBatch]:
        """Record batches of ``kind`` ('hands' | 'games') holding only ``columns``.

        Files are read one after the other (sorted by name), each batch of at
        most ``batch_rows`` rows; only the projected columns are decoded.
        """
        columns = list(columns)
        self._check_columns(kind, columns)
        for f in self._files(kind):
            try:
                # a reader of its own, closed after the file: cached readers keep their buffers alive and
                # memory grew with the number of files (tricksim nil on 20M hands: 746 MB -> 194 MB peak)
                # page checksums (written by the engine) catch bytes damaged inside a file, at CRC32 cost
                with pq.ParquetFile(str(f), page_checksum_verification=True) as reader:
                    why = _identity_problem(reader.metadata, self.run_id, shard_index(f.name))
                    if why:  # replaced since the run was opened: the footer is read anyway
                        raise _fail(f, f"{why}; {FIX.format(option('resume'))}")
                    for batch in reader.iter_batches(batch_size=batch_rows, columns=columns, use_threads=True):
                        if batch.num_rows:
                            yield batch
            except (pa.ArrowException, OSError) as e:
                first = str(e).splitlines()[0] if str(e) else type(e).__name__
                raise _fail(f, f"cannot read Parquet file: {first}; if it is a shard of a tricksim run, "
                               f"rerun the run's command with {option('resume')} to repair it") from None

    def iter_hands(self, columns: Sequence[str], batch_rows: int = DEFAULT_BATCH_ROWS) -> Iterator[pa.RecordBatch]:
        """Hand record batches with only ``columns`` (projection; bounded memory)."""
        return self.iter_batches("hands", columns, batch_rows)

    def iter_games(self, columns: Sequence[str], batch_rows: int = DEFAULT_BATCH_ROWS) -> Iterator[pa.RecordBatch]:
        """Game record batches with only ``columns``."""
        if not self.game_files:
            raise _fail(self.path, f"mode={self.mode!r} run has no games table")
        return self.iter_batches("games", columns, batch_rows)

    def _read(self, kind: str, columns: Sequence[str] | None) -> pa.Table:
        columns = list(columns) if columns is not None else self._schema(kind).names
        self._check_columns(kind, columns)
        tables = [self._parquet(f).read(columns=columns, use_threads=True) for f in self._files(kind)]
        return pa.concat_tables(tables) if len(tables) > 1 else tables[0]

    def read_hands(self, columns: Sequence[str]) -> pa.Table:
        """All hand rows, only ``columns``, as one table (for small runs or few columns)."""
        return self._read("hands", columns)

    def read_games(self, columns: Sequence[str] | None = None) -> pa.Table:
        """The games table (one row per game; small next to the hands)."""
        if not self.game_files:
            raise _fail(self.path, f"mode={self.mode!r} run has no games table")
        return self._read("games", columns)

    @property
    def dd_files(self) -> tuple[Path, ...] | None:
        """The double-dummy files of ``tricksim dd`` (``dd/part-K.parquet``), one a hands file, or None when
        any is missing (``dd`` not run, or not finished)."""
        files = tuple(self.path / "dd" / f.name for f in self.hand_files)
        return files if files and all(f.is_file() for f in files) else None

    def iter_shards_with_dd(self, columns: Sequence[str]) -> Iterator[dict]:
        """Per hands file: ``columns`` and the double-dummy columns (``dd_tricks_S``, ``dd_nil_S``: those the file
        has) as numpy arrays, row by row the same hands (a whole shard at a time: shards are sized to fit in
        memory)."""
        records = {r.get("name"): r for r in self.manifest.get("dd") or [] if isinstance(r, dict)}
        for f, d in zip(self.hand_files, self.dd_files or ()):
            a = batch_arrays(self.subset([f.name]).read_hands(list(dict.fromkeys([*columns, "game_id", "hand_no"]))),
                             list(dict.fromkeys([*columns, "game_id", "hand_no"])))
            try:
                with pq.ParquetFile(d, page_checksum_verification=True) as reader:
                    why = _identity_problem(reader.metadata, self.run_id, shard_index(d.name))
                    rec = records.get(d.name)
                    if why is None and rec is not None and d.stat().st_size != rec.get("bytes"):
                        why = f"has {d.stat().st_size:,} bytes, the manifest says {rec.get('bytes'):,}"
                    if why:
                        raise _fail(d, f"{why}: rerun tricksim dd to replace it")
                    dd_cols = [c for c in reader.schema_arrow.names if c in ("game_id", "hand_no") or
                               c.startswith("dd_")]
                    t = reader.read(columns=dd_cols)
            except (OSError, pa.ArrowException) as e:
                raise _fail(d, f"cannot read double-dummy file ({str(e).splitlines()[0]}): rerun tricksim dd") from None
            b = batch_arrays(t, dd_cols)
            if not (np.array_equal(a["game_id"], b["game_id"]) and np.array_equal(a["hand_no"], b["hand_no"])):
                raise _fail(d, f"does not hold the hands of {f.name}: rerun tricksim dd")
            a.update({k: v for k, v in b.items() if k.startswith("dd_")})
            yield a

    def hands(self, columns: Sequence[str] | None = None, *, arrow: bool = False):
        """The hand rows (Tarot: the deals) as a pandas DataFrame, or a pyarrow Table with ``arrow=True``;
        ``columns`` to read only some (docs/output.md lists them). For runs that fit in memory: for larger
        ones stream with :meth:`iter_hands`."""
        table = self._read("hands", columns)
        return table if arrow else table.to_pandas()

    def games(self, columns: Sequence[str] | None = None, *, arrow: bool = False):
        """The games table of a games-mode run, as :meth:`hands` gives the hands."""
        table = self.read_games(columns)
        return table if arrow else table.to_pandas()


def rule_value(v) -> str:
    """A rule flag's value as ``--rule key=value`` and ``tricksim rules`` write it: true, false, none, 300."""
    return "none" if v is None else str(v).lower() if isinstance(v, bool) else str(v)


def open_run(path) -> Run:
    """Validate a run directory and return a :class:`Run`.

    Raises :class:`AnalysisError` with a one-line message naming the path and
    the problem (missing manifest, not JSON, not a tricksim Spades run, no
    Parquet files...).
    """
    if isinstance(path, Run):
        return path
    p = Path(path)
    if not p.exists():
        raise _fail(p, "no such run directory")
    if not p.is_dir():
        raise _fail(p, "not a directory (expected a tricksim run directory with manifest.json)")
    mf = p / MANIFEST
    if not mf.is_file():
        raise _fail(p, "not a tricksim run: manifest.json is missing")
    try:
        manifest = json.loads(mf.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _fail(mf, f"manifest is not valid JSON ({e.__class__.__name__}: {str(e).splitlines()[0]})") from None
    if not isinstance(manifest, dict):
        raise _fail(mf, "manifest is not a JSON object")
    problem = manifest_problem(manifest)
    if problem:
        raise _fail(mf, f"the manifest {problem}: its figures cannot be trusted; restore it, or run the run again "
                        f"with {option('overwrite')}")
    game = manifest.get("game")
    if game is None or "mode" not in manifest:
        raise _fail(mf, "not a tricksim manifest (needs keys 'game' and 'mode')")
    if game not in families.names():
        raise _fail(p, f"game={game!r} runs are not supported by this analysis "
                       f"(supported: {', '.join(families.names())})")
    fam = families.family(game)
    mode = manifest["mode"]
    if mode not in fam.modes:
        raise _fail(mf, f"unknown mode {mode!r} (expected {' | '.join(fam.modes)})")
    seats, n_seats = manifest.get("seats"), seats_of(game, manifest)
    if seats is not None and (not isinstance(seats, list) or len(seats) != n_seats):
        raise _fail(mf, f"'seats' must be a list of {n_seats} strategy specs")
    rules = manifest.get("rules")
    if rules is not None and not isinstance(rules, dict):
        raise _fail(mf, "'rules' must be an object of rule flags")
    units = fam.unit_table
    hand_files = tuple(sorted((p / units).glob("*.parquet")))
    if not hand_files:
        raise _fail(p, f"no data: {units}/*.parquet is empty or missing (was the run interrupted?)")
    run_id = manifest.get("run_id") if is_identified(manifest) else None
    cache: dict = {}  # the footers opened here, kept for the Run's metadata reads
    if isinstance(manifest.get("shards"), list):
        _check_shards(p, manifest["shards"], run_id, cache)
    elif run_id is not None:  # a run still written (or stopped): its files so far, each the run's own
        for table in fam.tables[mode]:
            for f in sorted((p / table).glob("*.parquet")):
                _check_identity(p, f, run_id, cache)
    for table in fam.tables[mode]:  # the mode's other tables (Spades games mode: games)
        if table != units and not any((p / table).glob("*.parquet")):
            raise _fail(p, f"mode={mode!r} but {table}/*.parquet is empty or missing (was the run interrupted?)")
    game_files = tuple(sorted((p / "games").glob("*.parquet")))
    return Run(path=p, manifest=manifest, hand_files=hand_files, game_files=game_files, _files_cache=cache)


FIX = "repair it with the run's own command and {}"


def _identity_problem(meta: pq.FileMetaData, run_id: str | None, index: int | None) -> str | None:
    """Why a file whose footer is ``meta`` is not shard ``index`` of run ``run_id`` (None: it is; or the run has
    no id, written before format 3)."""
    if run_id is None:
        return None
    rid, k = file_identity(meta)
    if rid != run_id:
        return (f"belongs to another run ({f'run id {rid[:12]}' if rid else 'no run id'}; this run's is "
                f"{run_id[:12]})")
    if index is not None and k != index:
        return f"is shard {k} of this run, not shard {index} (renamed)"
    return None


def _footer(p: Path, path: Path, cache: dict) -> pq.ParquetFile:
    try:
        reader = pq.ParquetFile(path)
    except (OSError, pa.ArrowException) as e:
        raise _fail(p, f"{path.parent.name}/{path.name} is unreadable ({str(e).splitlines()[0][:80]}); "
                       f"{FIX.format(option('resume'))}") from None
    cache[str(path)] = reader
    return reader


def _check_identity(p: Path, path: Path, run_id: str, cache: dict) -> pq.ParquetFile:
    reader = _footer(p, path, cache)
    why = _identity_problem(reader.metadata, run_id, shard_index(path.name))
    if why:
        raise _fail(p, f"{path.parent.name}/{path.name} {why}; {FIX.format(option('resume'))}")
    return reader


def _check_shards(p: Path, records: list, run_id: str | None, cache: dict) -> None:
    """The files of a finished run are exactly those its manifest lists, each with its size, its row count and
    (format 3) the run's id and its shard index, read from the Parquet footers (cheap); else one line naming
    the file. The Parquet page checksums are verified as the pages are read; ``tricksim verify`` checks each
    file's checksum too."""
    fix = FIX.format(option('resume'))
    try:
        expected = {(t, f["name"]): (int(f["rows"]), f.get("bytes")) for r in records for t, f in r["files"].items()}
    except (KeyError, TypeError, AttributeError, ValueError):
        raise _fail(p / MANIFEST, "the manifest's shard list is damaged") from None
    for table in {t for t, _ in expected}:
        present = {f.name for f in (p / table).glob("*.parquet")}
        names = {n for t, n in expected if t == table}
        if names - present:
            missing = sorted(names - present)
            raise _fail(p, f"{table}/{missing[0]} is missing ({len(missing)} of the {len(names)} files the manifest "
                           f"lists); {fix}")
        if present - names:
            raise _fail(p, f"{table}/{min(present - names)} is not one of the run's files (the manifest "
                           "lists every shard): remove it")
    for (table, name), (rows, size) in sorted(expected.items()):
        path = p / table / name
        reader = _footer(p, path, cache) if run_id is None else _check_identity(p, path, run_id, cache)
        if isinstance(size, int) and path.stat().st_size != size:
            raise _fail(p, f"{table}/{name} has {path.stat().st_size:,} bytes, the manifest says {size:,}; {fix}")
        found = reader.metadata.num_rows
        if found != rows:
            raise _fail(p, f"{table}/{name} has {found:,} rows, the manifest says {rows:,}; {fix}")


def pooling_notes(runs: list[Run]) -> list[str]:
    """What a figure pooled over ``runs`` must say: runs not finished, and what differs between the runs
    (preset, rule flags, seats), so that no figure mixes variants silently."""
    notes = [f"note: {r.path} is {r.status or 'not marked complete'}: its figures cover the shards written so far"
             for r in runs if r.status not in (None, "complete")]
    if len(runs) > 1:
        for what, get in (("presets", lambda r: r.preset), ("seats", lambda r: tuple(r.seats)),
                          ("games", lambda r: r.game)):
            if len({repr(get(r)) for r in runs}) > 1:
                notes.append(f"note: pooled over {len(runs)} runs whose {what} differ")
        keys = sorted(set().union(*(r.rules.keys() for r in runs)))
        differ = [k for k in keys if len({repr(r.rules.get(k)) for r in runs}) > 1]
        if differ:
            notes.append(f"note: pooled over {len(runs)} runs whose rules differ in {', '.join(differ)}")
    return notes


def open_runs(paths) -> list[Run]:
    """:func:`open_run` on each path (a single path or Run is accepted too); the same run twice is refused."""
    if isinstance(paths, (str, Path, Run)):
        paths = [paths]
    runs = [open_run(p) for p in paths]
    if not runs:
        raise AnalysisError("no run directories given")
    seen, ids = {}, {}
    for r in runs:
        key = r.path.resolve()
        if key in seen:
            raise AnalysisError(f"the run {r.path} is given twice (as {seen[key]} too): give each run once")
        seen[key] = r.path
        same = _identity(r)
        if same is not None and same in ids:
            raise AnalysisError(f"{ids[same]} and {r.path} are the same run ({same[0]} {same[1][:12]}): one is a copy "
                                "of the other; give each run once")
        if same is not None:
            ids[same] = r.path
    return runs


def _identity(run: Run) -> tuple[str, str] | None:
    """What makes a run itself: its id; for a run written before ids (format 2), the checksums of its shards."""
    if run.run_id is not None:
        return "run id", run.run_id
    shards = run.manifest.get("shards")
    try:
        crcs = [f["crc32"] for r in shards for f in r["files"].values()] if isinstance(shards, list) else []
    except (KeyError, TypeError, AttributeError):
        return None
    return ("shard checksums", "-".join(f"{c:08x}" for c in crcs)) if crcs else None


def _to_numpy(col) -> np.ndarray:
    """A null-free Arrow column as a numpy array.

    Integers and floats are viewed straight from the Arrow buffer, booleans
    unpacked from their bitmap: ``Array.to_numpy`` would import pandas
    (docs/performance.md P11), which the post-simulation summary must not pay.
    """
    if isinstance(col, pa.ChunkedArray):
        if col.num_chunks == 0:
            col = pa.array([], type=col.type)
        else:
            col = col.combine_chunks() if col.num_chunks != 1 else col.chunk(0)
    if col.null_count:
        raise AnalysisError(f"column of type {col.type} has {col.null_count} null value(s)")
    t = col.type
    n, off = len(col), col.offset
    if pa.types.is_integer(t) or pa.types.is_floating(t):
        kind = "f" if pa.types.is_floating(t) else ("i" if pa.types.is_signed_integer(t) else "u")
        dtype = np.dtype(f"{kind}{t.bit_width // 8}")
        if n == 0:
            return np.zeros(0, dtype)
        return np.frombuffer(col.buffers()[1], dtype=dtype, count=n, offset=off * dtype.itemsize)
    if pa.types.is_boolean(t):
        if n == 0:
            return np.zeros(0, bool)
        bits = np.frombuffer(col.buffers()[1], dtype=np.uint8)
        return np.unpackbits(bits, bitorder="little", count=off + n)[off:].astype(bool)
    return col.to_numpy(zero_copy_only=False)


def batch_arrays(batch, columns: Sequence[str] | None = None) -> dict[str, np.ndarray]:
    """Columns of a RecordBatch / Table (or pandas DataFrame) as numpy arrays, by name."""
    if hasattr(batch, "schema") and hasattr(batch, "column"):
        names = list(columns) if columns is not None else batch.schema.names
        missing = [c for c in names if c not in batch.schema.names]
        if missing:
            raise AnalysisError(f"table lacks column(s) {', '.join(missing)}")
        return {c: _to_numpy(batch.column(c)) for c in names}
    # pandas DataFrame (duck-typed so pandas is not imported here)
    names = list(columns) if columns is not None else list(batch.columns)
    missing = [c for c in names if c not in batch.columns]
    if missing:
        raise AnalysisError(f"table lacks column(s) {', '.join(missing)}")
    return {c: np.asarray(batch[c].to_numpy()) for c in names}

