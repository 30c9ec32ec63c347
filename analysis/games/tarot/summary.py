"""Tarot runs: the counts behind the summary and the report, each with n and an interval.

Deals of a Tarot run are independent (each draws from its own streams and no score carries
over), so a rate over deals takes a Wilson interval and a mean a t interval. Imports only
pyarrow and numpy, like the Spades summary.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from ...io import DEFAULT_BATCH_ROWS, AnalysisError, batch_arrays, open_run
from ...parallel import map_run
from ...stats import Moments, fmt_int, fmt_mean, fmt_rate

CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")  # contract codes 1..4
COLUMNS = ["void", "contract", "won", "chelem", "petit_au_bout", "poignee", "slam", "taker", "taker_points"] + [
    f"score_{s}" for s in range(4)]  # four players; columns(n) for n


def columns(n_seats: int) -> list[str]:
    """The columns the counts read, for a run of ``n_seats`` players."""
    return COLUMNS[:-4] + [f"score_{s}" for s in range(n_seats)]

__all__ = ["CONTRACTS", "mean_text", "summarize", "tarot_numbers"]


def tarot_numbers(run_dir, *, batch_rows: int = DEFAULT_BATCH_ROWS) -> dict:
    """Counts over the deals of a Tarot run: void deals, and per contract the deals, wins, the taker's
    score, petit au bout (either side), poignées, Chelem announced and slams."""
    run = open_run(run_dir)
    if run.game != "tarot":
        raise AnalysisError(f"{run.path}: a {run.game} run, not a tarot run")
    r = {"run": run, "deals": 0, "void_all_pass": 0, "void_petit_sec": 0, "played": 0,
         "petit_au_bout": 0, "poignee": 0, "chelem": 0, "slam": 0, "won": 0,
         "taker_score": Moments()}
    r["by_contract"] = {c: {"deals": 0, "won": 0, "taker_score": Moments(), "points": Moments()} for c in CONTRACTS}
    n_seats = run.n_seats
    cols = columns(n_seats)
    for batch in run.iter_hands(cols, batch_rows):
        a = batch_arrays(batch, cols)
        r["deals"] += batch.num_rows
        r["void_all_pass"] += int((a["void"] == 1).sum())
        r["void_petit_sec"] += int((a["void"] == 2).sum())
        played = a["void"] == 0
        r["played"] += int(played.sum())
        r["won"] += int((a["won"][played] == 1).sum())
        r["petit_au_bout"] += int((a["petit_au_bout"][played] != 0).sum())
        r["poignee"] += int((a["poignee"][played] > 0).sum())
        r["chelem"] += int((a["chelem"][played] == 1).sum())
        r["slam"] += int((a["slam"][played] != 0).sum())
        scores = np.stack([a[f"score_{s}"] for s in range(n_seats)])
        taker = np.clip(a["taker"], 0, n_seats - 1)
        taker_score = scores[taker, np.arange(batch.num_rows)]
        r["taker_score"].update(taker_score[played].astype(np.float64))
        for code, name in enumerate(CONTRACTS, start=1):
            mine = played & (a["contract"] == code)
            c = r["by_contract"][name]
            c["deals"] += int(mine.sum())
            c["won"] += int((a["won"][mine] == 1).sum())
            c["taker_score"].update(taker_score[mine].astype(np.float64))
            c["points"].update(a["taker_points"][mine].astype(np.float64))
    if r["deals"] == 0:
        raise AnalysisError(f"{run.path}: the run has no deal rows")
    return r


def mean_text(m: Moments, digits: int = 1) -> str:
    """A mean with its t interval and n (just n below two observations)."""
    if m.n < 2:
        return f"n={m.n}"
    e = m.estimate()
    return fmt_mean(e.value, e.lo, e.hi, e.n, digits)


def summarize(run_dir, *, batch_rows: int = DEFAULT_BATCH_ROWS, engine: str = "local",
              scheduler: str | None = None) -> str:
    """A few lines on a finished Tarot run: void deals, taker success and score by contract, bonuses
    (``engine="dask"``: the files read and summed on Dask workers). A games run: ``sessions.summarize_games``."""
    if open_run(run_dir).is_games:
        from .sessions import summarize_games

        return summarize_games(run_dir, batch_rows=batch_rows, engine=engine, scheduler=scheduler)
    r = map_run(partial(tarot_numbers, batch_rows=batch_rows), run_dir, engine=engine, scheduler=scheduler)
    run = r["run"]
    head = f"{run.path}: tarot, preset {run.rules_text()}"  # with the flags overridden
    if run.manifest.get("seed") is not None:
        head += f", seed {run.manifest['seed']}"
    if run.status not in (None, "complete"):
        head += f"  [status: {run.status}]"
    labels = sorted(set(run.seat_labels))
    w = 16
    played = r["played"]
    lines = [
        head,
        f"{'seats':<{w}}" + ("; ".join(f"seat {s} = {x}" for s, x in enumerate(run.seat_labels))
                             if len(labels) > 1 else f"all = {labels[0]}"),
        f"{'size':<{w}}{fmt_int(r['deals'])} deals, {fmt_int(played)} played   (95 % intervals; n = observations)",
        (f"{'void deals':<{w}}all passed {fmt_rate(r['void_all_pass'], r['deals'])}   "
        f"Petit sec {fmt_rate(r['void_petit_sec'], r['deals'])}"),
        f"{'taker wins':<{w}}{fmt_rate(r['won'], played)}   taker's score {mean_text(r['taker_score'])}",
    ]
    for name in CONTRACTS:
        c = r["by_contract"][name]
        if c["deals"]:
            lines.append(f"{'  ' + name:<{w}}bid {fmt_rate(c['deals'], played)}   won {fmt_rate(c['won'], c['deals'])}"
                         f"   taker's score {mean_text(c['taker_score'])}")
    lines.append(f"{'bonuses':<{w}}petit au bout {fmt_rate(r['petit_au_bout'], played)}   "
                 f"poignée {fmt_rate(r['poignee'], played)}   slam {fmt_rate(r['slam'], played)}   "
                 f"Chelem announced {fmt_rate(r['chelem'], played)}")
    return "\n".join(lines)
