"""Mean score per seat, with its t interval over rounds (rounds are independent: each is dealt afresh)."""
from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from tricksim.analysis.io import batch_arrays, open_run
from tricksim.analysis.report import ReportPart, Section
from tricksim.analysis.stats import Moments, fmt_int, fmt_mean

SEATS = range(3)


def numbers(run) -> dict:
    cols = [f"score_{s}" for s in SEATS]
    scores = {s: Moments() for s in SEATS}
    rounds = 0
    for batch in run.iter_hands(cols):
        a = batch_arrays(batch, cols)
        rounds += batch.num_rows
        for s in SEATS:
            scores[s].update(a[f"score_{s}"].astype(np.float64))
    return {"run": run, "rounds": rounds, "scores": scores}


def _mean(m: Moments) -> str:
    e = m.estimate()
    return fmt_mean(e.value, e.lo, e.hi, e.n, 2)


def summarize(run_dir, *, batch_rows=None, engine="local", scheduler=None) -> str:
    r = numbers(open_run(run_dir))
    run = r["run"]
    lines = [f"{run.path}: {run.game}, preset {run.preset}, seed {run.manifest.get('seed')}",
             f"size            {fmt_int(r['rounds'])} rounds   (95 % intervals; n = rounds)"]
    lines += [f"seat {s} {run.seat_labels[s]:<8}score {_mean(r['scores'][s])}" for s in SEATS]
    return "\n".join(lines)


def report_part(runs, *, batch_rows=None, conf=0.95, engine=None) -> ReportPart:
    stats = []
    for run, label in runs:
        r = numbers(run)
        stats.append(type("ToyStats", (), {"run": run, "label": label, "numbers": r})())
    table = pd.DataFrame([{"run": s.label, **{f"seat {k}": _mean(s.numbers["scores"][k]) for k in SEATS}}
                          for s in stats])
    return ReportPart(
        stats=stats, captions=[f"{s.label}: {s.run.game}, preset {s.run.preset}" for s in stats],
        cells=[{"seats": " | ".join(s.run.seat_labels), "rounds": fmt_int(s.numbers["rounds"])} for s in stats],
        method=["Toy runs: one observation per round (rounds are independent)."],
        key=[Section("toy", "Toy game: mean score per seat", table)],
        notes=[], detail=[], draw=partial(_draw, stats))


def _draw(stats, charts) -> None:
    fig, (ax,) = charts.figure(1, runs=stats)
    for i, s in enumerate(stats):
        ax.bar([k + 0.8 * i / len(stats) for k in SEATS], [s.numbers["scores"][k].estimate().value for k in SEATS],
               width=0.8 / len(stats), label=s.label)
    ax.set_xlabel("seat")
    ax.set_ylabel("mean score")
    ax.legend()
    charts.save("toy_scores", fig, "Toy game: mean score per seat")
