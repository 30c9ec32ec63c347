"""The Tarot part of ``tricksim report``: per run the summary counts (one observation per deal: deals are
independent) and the taker's score by contract (:func:`collect_tarot`), its key table
(:func:`tarot_key_table`) and charts (the taker's success and score by contract), assembled into the report
by :mod:`tricksim.analysis.report` (:func:`report_part`).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from ...io import DEFAULT_BATCH_ROWS, Run, batch_arrays
from ...parallel import Engine, merge
from ...plots import Charts, IntHist, common_bins, plot_hist, plot_rate_bars
from ...report import ReportPart, Section, differing_rules, rules_caption
from ...stats import Moments, fmt_int, fmt_mean, fmt_rate
from .summary import CONTRACTS, tarot_numbers

__all__ = ["TarotStats", "collect_tarot", "report_part", "tarot_key_table"]


@dataclass
class TarotStats:
    """What the report needs from one Tarot run: the summary counts and the taker's score by contract."""

    run: Run
    label: str
    numbers: dict
    score_hist: dict  # contract name -> IntHist of the taker's score

    def merge(self, other: TarotStats) -> TarotStats:
        """Add the figures of ``other``, the same run's other shards."""
        self.numbers = merge([self.numbers, other.numbers])
        self.score_hist = merge([self.score_hist, other.score_hist])
        return self


def collect_tarot(run: Run, label: str, batch_rows: int = DEFAULT_BATCH_ROWS, *,
                  engine: Engine | None = None) -> TarotStats:
    """Stream one Tarot run into a :class:`TarotStats` (with a Dask ``engine``, a few shards a worker)."""
    st = (engine or Engine()).map_run(partial(_collect_tarot_part, label=label, batch_rows=batch_rows), run)
    st.run = st.numbers["run"] = run
    return st


def _collect_tarot_part(run: Run, label: str, batch_rows: int) -> TarotStats:
    hists = {c: IntHist(-6000, 6000) for c in CONTRACTS}
    n = run.n_seats
    cols = ["void", "taker", "contract"] + [f"score_{s}" for s in range(n)]
    for batch in run.iter_hands(cols, batch_rows):
        a = batch_arrays(batch, cols)
        played = a["void"] == 0
        taker_score = np.stack([a[f"score_{s}"] for s in range(n)])[np.clip(a["taker"], 0, n - 1),
                                                                    np.arange(batch.num_rows)]
        for code, name in enumerate(CONTRACTS, start=1):
            hists[name].add(taker_score[played & (a["contract"] == code)])
    return TarotStats(run=run, label=label, numbers=tarot_numbers(run, batch_rows=batch_rows), score_hist=hists)


def tarot_caption(stats: list[TarotStats]) -> str:
    diffs = differing_rules([s.run for s in stats])
    lines = []
    for s, d in zip(stats, diffs):
        seats = sorted(set(s.run.seat_labels))
        who = (f"every seat plays {seats[0]}" if len(seats) == 1 else
               ", ".join(f"seat {i} plays {label}" for i, label in enumerate(s.run.seat_labels)))
        lines.append(f"{s.label}: tarot, {rules_caption(s.run, d)}; {who}; {fmt_int(s.numbers['deals'])} deals")
    return "\n".join(lines)


def tarot_key_table(stats: list[TarotStats], conf: float = 0.95) -> pd.DataFrame:
    """Tarot metrics (rows) × runs (columns). Deals are independent: Wilson intervals for rates, t for means."""
    rows: dict[str, dict[str, str]] = {}

    def put(metric, label, value):
        rows.setdefault(metric, {})[label] = value

    def mean(m: Moments):
        if m.n < 2:
            return f"— (n={m.n})"
        e = m.estimate(conf)
        return fmt_mean(e.value, e.lo, e.hi, e.n, 1)

    for s in stats:
        r, L = s.numbers, s.label
        played = r["played"]
        put("deals", L, fmt_int(r["deals"]))
        put("void: all passed", L, fmt_rate(r["void_all_pass"], r["deals"], conf))
        put("void: Petit sec", L, fmt_rate(r["void_petit_sec"], r["deals"], conf))
        put("taker wins (every contract)", L, fmt_rate(r["won"], played, conf))
        put("taker's score (every contract)", L, mean(r["taker_score"]))
        for name in CONTRACTS:
            c = r["by_contract"][name]
            put(f"{name}: share of played deals", L, fmt_rate(c["deals"], played, conf))
            put(f"{name}: taker wins", L, fmt_rate(c["won"], c["deals"], conf))
            put(f"{name}: taker's score", L, mean(c["taker_score"]))
            put(f"{name}: taker's card points", L, mean(c["points"]))
        put("petit au bout (either side)", L, fmt_rate(r["petit_au_bout"], played, conf))
        put("a poignée shown", L, fmt_rate(r["poignee"], played, conf))
        put("slam (either side)", L, fmt_rate(r["slam"], played, conf))
        put("Chelem announced", L, fmt_rate(r["chelem"], played, conf))
    df = pd.DataFrame.from_dict(rows, orient="index").reindex(columns=[s.label for s in stats]).fillna("—")
    df.index.name = "metric"
    return df.reset_index()


def _draw_tarot_charts(stats: list[TarotStats], charts: Charts) -> None:
    fig, (ax,) = charts.figure(1, width=max(6.5, 2.2 * len(stats) + 2), runs=stats)
    rows = [{"group": s.label, "series": name, "k": s.numbers["by_contract"][name]["won"],
             "n": s.numbers["by_contract"][name]["deals"]} for s in stats for name in CONTRACTS]
    plot_rate_bars(ax, pd.DataFrame(rows), ylabel="taker wins (%), 95 % Wilson")
    charts.save("tarot_taker_success", fig, "Tarot: the taker's success by contract")

    fig, axes = charts.figure(len(stats), sharey=True, runs=stats)
    lo, hi, w = common_bins([h for s in stats for h in s.score_hist.values()], 40)
    drawn = {}
    for ax, s in zip(axes, stats):
        if not any(h.n for h in s.score_hist.values()):
            continue
        drawn[s.label] = plot_hist(ax, {name: h.rebin(w, lo, hi) for name, h in s.score_hist.items() if h.n},
                                   xlabel=f"taker's score (points; bins of {w})", title=s.label)
        ax.set_xlim(lo - w, hi + w)
    charts.save("tarot_taker_scores", fig, "Tarot: distribution of the taker's score by contract", drawn)


def _seats_text(run: Run) -> str:
    labels = run.seat_labels
    return f"all seats {labels[0]}" if len(set(labels)) == 1 else " | ".join(labels)


def report_part(runs: list[tuple[Run, str]], *, batch_rows: int = DEFAULT_BATCH_ROWS, conf: float = 0.95,
                engine: Engine | None = None) -> ReportPart:
    """The Tarot runs' share of the report: ``runs`` are (run, label) pairs."""
    stats = [collect_tarot(r, label, batch_rows, engine=engine) for r, label in runs]
    return ReportPart(
        stats=stats, captions=tarot_caption(stats).splitlines(),
        cells=[{"seats": _seats_text(s.run), "deals": fmt_int(s.numbers["deals"])}
               for s in stats],
        method=["Tarot runs: one observation per deal (deals are independent)."],
        key=[Section("tarot", "Tarot key results", tarot_key_table(stats, conf),
                     html_note="One observation per deal (deals are independent); the taker's score is 3t, each "
                               "defender's -t.",
                     md_note="One observation per deal (deals are independent).")],
        notes=[], detail=[], draw=partial(_draw_tarot_charts, stats))
