"""Short plain-text summary of a run, printed after every simulation.

Fast by construction: imports only pyarrow and numpy (no pandas, no
matplotlib), reads only the columns it needs, batch by batch.
"""
from __future__ import annotations

from functools import partial

import numpy as np
import pyarrow.compute as pc

from .io import DEFAULT_BATCH_ROWS, AnalysisError, batch_arrays, open_run
from .outcomes import OUTCOME_COLUMNS, rule, team_outcomes
from .parallel import map_run
from .stats import Moments, fmt_int, fmt_mean, fmt_rate

__all__ = ["summarize_run", "summary_numbers"]


def summary_numbers(run_dir, *, batch_rows: int = DEFAULT_BATCH_ROWS) -> dict:
    """The counts and moments behind :func:`summarize_run` (for tests and other callers)."""
    run = open_run(run_dir)
    blind_cols = [f"blind_{s}" for s in range(4)]
    has_blind = run.has_columns("hands", blind_cols)
    cols = OUTCOME_COLUMNS + ["score_0", "score_1"] + (blind_cols if has_blind else [])
    rules = run.rules
    r = {
        "run": run, "hands": 0, "made": [0, 0], "contracts": [0, 0],
        "score": [Moments(), Moments()], "bags": [Moments(), Moments()],
        "seat_hands": 0, "nil_bids": 0, "nil_ok": 0, "blind_bids": 0, "blind_ok": 0,
    }
    for batch in run.iter_hands(cols, batch_rows):
        a = batch_arrays(batch, cols)
        n = batch.num_rows
        r["hands"] += n
        for t in (0, 1):
            o = team_outcomes(a, t, rules)
            r["made"][t] += int((o["made"] & o["has_contract"]).sum())
            r["contracts"][t] += int(o["has_contract"].sum())
            r["score"][t].update(a[f"score_{t}"])
            r["bags"][t].update(o["bags"])
        r["seat_hands"] += 4 * n
        for s in range(4):
            nil = a[f"bid_{s}"] == 0
            blind = a[f"blind_{s}"] if has_blind else np.zeros(n, bool)
            ok = a[f"tricks_{s}"] == 0
            r["nil_bids"] += int((nil & ~blind).sum())
            r["nil_ok"] += int((nil & ~blind & ok).sum())
            r["blind_bids"] += int((nil & blind).sum())
            r["blind_ok"] += int((nil & blind & ok).sum())
    if r["hands"] == 0:
        raise AnalysisError(f"{run.path}: the run has no hand rows")
    if run.is_games:
        r.update(games=0, wins0=0, ties=0, length=Moments(), ends={})
        end_ok = run.has_columns("games", ["end"])
        for b in run.iter_games(["hands", "winner"] + (["end"] if end_ok else []), batch_rows):
            g = batch_arrays(b, ["hands", "winner"])
            r["games"] += b.num_rows
            r["wins0"] += int((g["winner"] == 0).sum())
            r["ties"] += int((g["winner"] == -1).sum())
            r["length"].update(g["hands"])
            if end_ok:
                vc = pc.value_counts(b.column("end"))
                for v, c in zip(vc.field("values").to_pylist(), vc.field("counts").to_pylist()):
                    r["ends"][str(v)] = r["ends"].get(str(v), 0) + int(c)
    return r


def _mean(m: Moments, digits: int = 2) -> str:
    e = m.estimate()
    return fmt_mean(e.value, e.lo, e.hi, e.n, digits)


def summarize_run(run_dir, *, batch_rows: int = DEFAULT_BATCH_ROWS, engine: str = "local",
                  scheduler: str | None = None) -> str:
    """A few lines on a finished run: sizes, contract-made rate, hand score, bags, Nil, games.

    Every rate carries its 95 % Wilson interval and n; every mean its 95 % t
    interval and n. ``engine="dask"``: the files are read and summed on Dask workers (the same text).
    Raises :class:`~tricksim.analysis.io.AnalysisError` for an invalid run.
    """
    if open_run(run_dir).game == "tarot":
        from .tarot import summarize_tarot

        return summarize_tarot(run_dir, batch_rows=batch_rows, engine=engine, scheduler=scheduler)
    r = map_run(partial(summary_numbers, batch_rows=batch_rows), run_dir, engine=engine, scheduler=scheduler)
    run = r["run"]
    t0, t1 = run.team_strategies()
    head = f"{run.path}: spades, {run.mode} mode, preset {run.preset}"
    if run.manifest.get("seed") is not None:
        head += f", seed {run.manifest['seed']}"
    if run.status not in (None, "complete", "completed", "done", "ok"):
        head += f"  [status: {run.status}]"
    size = f"{fmt_int(r['hands'])} hands" + (f", {fmt_int(r['games'])} games" if run.is_games else "")
    w = 16
    lines = [
        head,
        f"{'seats':<{w}}team 0 = {t0}; team 1 = {t1}",
        f"{'size':<{w}}{size}   (95 % intervals; n = observations)",
        f"{'contract made':<{w}}team 0 {fmt_rate(r['made'][0], r['contracts'][0])}   "
        f"team 1 {fmt_rate(r['made'][1], r['contracts'][1])}",
        f"{'hand score':<{w}}team 0 {_mean(r['score'][0])}   team 1 {_mean(r['score'][1])}",
        f"{'bags per hand':<{w}}team 0 {_mean(r['bags'][0], 3)}   team 1 {_mean(r['bags'][1], 3)}",
        f"{'Nil':<{w}}bid {fmt_rate(r['nil_bids'], r['seat_hands'])} of seat-hands   "
        f"made {fmt_rate(r['nil_ok'], r['nil_bids'])}",
    ]
    if r["blind_bids"] or rule(run.rules, "blind_nil"):
        lines.append(f"{'Blind Nil':<{w}}bid {fmt_rate(r['blind_bids'], r['seat_hands'])} of seat-hands   "
                     f"made {fmt_rate(r['blind_ok'], r['blind_bids'])}")
    if run.is_games:
        lines.append(f"{'team 0 wins':<{w}}{fmt_rate(r['wins0'], r['games'])}"
                     + (f"   ({fmt_int(r['ties'])} tied at the hand limit)" if r["ties"] else ""))
        lines.append(f"{'game length':<{w}}{_mean(r['length'])} hands")
        if r["ends"]:
            ends = ", ".join(f"{k} {fmt_rate(v, r['games'])}"
                             for k, v in sorted(r["ends"].items(), key=lambda kv: -kv[1]))
            lines.append(f"{'game ends':<{w}}{ends}")
    return "\n".join(lines)
