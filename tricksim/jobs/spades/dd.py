"""``tricksim dd RUN``: double-dummy columns for an existing Spades run, in ``RUN/dd/part-K.parquet``.

One file per hands shard, with the shard's ``game_id`` and ``hand_no`` and the solver's columns
(``simulator/games/spades/dd_columns.py``), carrying the run's id and the shard's index in its footer as the
run's own shards do. Each file is written to a staging name and renamed, so a file in ``RUN/dd/`` is always
whole; a rerun keeps the files that are the run's, readable (page checksums), with the rows of their shard,
and solves the rest (missing, unreadable, damaged, foreign or short), so an interrupted ``dd`` is finished
by running it again. At the end the manifest lists every file (name, rows, bytes, CRC-32) under ``dd``, for
``tricksim verify``. The job holds the run's writer lock while it writes.

Without partnerships each player is alone: the files hold ``dd_tricks_S`` (seat S's own tricks, the others
together playing against it) and ``dd_nil_S`` for each seat S of the table. Solved at four and three seats
(cutthroat, cutthroat3: the team solver with seat S against the other three, or two, as its sides) and at two
(twohanded, the hands after the draw: ``simulator/games/spades/dd_alone.py``).
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from tricksim.jobs import JobError
from tricksim.simulator.errors import option
from tricksim.simulator.rundir import (
    Lock,
    RunDirError,
    file_identity,
    file_record,
    read_manifest,
    shard_index,
    write_identified,
    write_manifest_file,
)

DD_DIR = "dd"


ALONE_SEATS = (2, 3, 4)  # tables without partnerships that are solved: 4 and 3 by the team solver, 2 by dd_alone


def dd_schema(n_alone: int = 0) -> pa.Schema:
    """Partnerships: team 0's tricks and each seat's Nil; ``n_alone`` seats each alone: each seat's tricks and Nil."""
    tricks = [f"dd_tricks_{s}" for s in range(n_alone or 1)]
    return pa.schema([("game_id", pa.int64()), ("hand_no", pa.int16())] + [(c, pa.int8()) for c in tricks]
                     + [(f"dd_nil_{s}", pa.int8()) for s in range(n_alone or 4)])


def _done(path, rows: int, ids: np.ndarray, run_id: str | None, index: int) -> bool:
    """A dd file already there that belongs to its shard: the run's (its id and the shard's index in its
    footer), whole (every page checksum), the same rows, the same hands."""
    try:
        with pq.ParquetFile(path, page_checksum_verification=True) as f:
            if run_id is not None and file_identity(f.metadata) != (run_id, index):
                return False
            if f.metadata.num_rows != rows:
                return False
            return np.array_equal(f.read().column("game_id").to_numpy(), ids)
    except (OSError, pa.ArrowException, KeyError):
        return False


def add_dd_columns(run_dir, *, threads: int | None = None, echo: Callable[[str], None] | None = None) -> dict:
    """Solve every hand of the Spades run ``run_dir`` double dummy and write ``RUN/dd/part-K.parquet``; returns
    {"files", "hands", "solved", "seconds"}. Raises JobError (one line) for a run it cannot use."""
    from tricksim.analysis.io import AnalysisError, open_run
    from tricksim.simulator.engine import worker_count
    from tricksim.simulator.games.spades.rules import SpadesRules
    from tricksim.simulator.rules import RulesError

    echo = echo or (lambda text: print(text, file=sys.stderr))
    try:
        run = open_run(run_dir)
        if run.game != "spades":
            raise JobError(f"{run.path}: a {run.game} run: tricksim dd solves Spades hands")
        if run.status not in ("complete",):
            raise JobError(f"{run.path}: the run is not finished (status {run.status}): finish it with {option('resume')} first")
        rules = SpadesRules.from_dict(run.rules)
        if not rules.partnerships and rules.seats not in ALONE_SEATS:
            raise JobError(f"{run.path}: a run of {rules.seats} players each alone: tricksim dd solves teams of two, "
                           "or two, three or four players alone (presets twohanded, cutthroat3, cutthroat); "
                           "tricksim summary RUN gives its figures per seat")
    except AnalysisError as e:
        raise JobError(str(e)) from None
    except RulesError as e:
        raise JobError(f"{run.path}: its rules cannot be read: {e}") from None
    # capped as a run's; dd_alone (two seats) holds the GIL: one
    threads = worker_count(threads) if rules.partnerships or rules.seats > 2 else 1
    lock = Lock(run.path)
    try:
        lock.acquire("add double-dummy files to")
    except (RunDirError, OSError) as e:
        raise JobError(str(e)) from None
    try:
        return _solve(run, rules, threads, echo)
    finally:
        lock.release()


def _solve(run, rules, threads: int, echo: Callable[[str], None]) -> dict:
    from tricksim.analysis.io import batch_arrays
    from tricksim.simulator.games.spades.dd_columns import alone_columns, dd_columns, load_solver

    n = rules.seats
    cols = ["game_id", "hand_no", "first_leader"] + [f"held_{s}" for s in range(n)] + [f"bid_{s}" for s in range(n)]
    out_dir = run.path / DD_DIR
    out_dir.mkdir(exist_ok=True)
    total = run.count_hands()
    records = []
    solved = seen = 0
    load_solver(rules, alone=not rules.partnerships)  # a first compile is said and timed apart, not in the rate
    start = time.monotonic()
    last = [start]

    def within_file(seen_now: int, solved_now: int) -> None:
        """Progress inside a file (a file can take minutes): one line at most about every second."""
        now = time.monotonic()
        if now - last[0] >= 1.0:
            last[0] = now
            rate = solved_now / max(now - start, 1e-9)
            echo(f"dd: {seen_now:,}/{total:,} hands ({rate:,.1f} hands/s, {threads} threads)")

    for f in run.hand_files:
        table = run.subset([f.name]).read_hands(cols)
        a = batch_arrays(table, cols)
        target = out_dir / f.name
        seen += table.num_rows
        index = shard_index(f.name)
        if _done(target, table.num_rows, a["game_id"], run.run_id, index):
            records.append(file_record(target))
            continue
        held = np.stack([a[f"held_{s}"] for s in range(n)], axis=1)
        nil_bid = np.stack([(a[f"bid_{s}"] == 0) for s in range(n)], axis=1).astype(np.int64)
        progress = (lambda done, base=seen - table.num_rows, was=solved: within_file(base + done, was + done))
        if rules.partnerships:
            tricks, nil = dd_columns(held, a["first_leader"], nil_bid, rules, threads=threads, progress=progress)
            tricks = tricks[:, None]
        else:
            tricks, nil = alone_columns(held, a["first_leader"], nil_bid, rules, progress=progress, threads=threads,
                                        batch=1 if n > 2 else 64)
        arrays = ([pa.array(a["game_id"].astype(np.int64)), pa.array(a["hand_no"].astype(np.int16))]
                  + [pa.array(tricks[:, s].astype(np.int8)) for s in range(tricks.shape[1])]
                  + [pa.array(nil[:, s].astype(np.int8)) for s in range(nil.shape[1])])
        schema = dd_schema(0 if rules.partnerships else n)
        records.append(write_identified(pa.Table.from_arrays(arrays, schema=schema), target, run.run_id, index))
        solved += table.num_rows
        rate = solved / max(time.monotonic() - start, 1e-9)
        last[0] = time.monotonic()
        echo(f"dd: {seen:,}/{total:,} hands ({rate:,.1f} hands/s, {threads} threads)")
    if run.run_id is not None:  # the manifest lists the files, for tricksim verify (under the lock)
        write_manifest_file(run.path, {**read_manifest(run.path), "dd": records})
    return {"files": len(run.hand_files), "hands": total, "solved": solved, "seconds": time.monotonic() - start}
