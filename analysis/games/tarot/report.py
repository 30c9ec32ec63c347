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
from ...stats import Moments, fmt_estimate, fmt_int, fmt_mean, fmt_rate
from .sessions import halved, leader_table, session_numbers
from .summary import CONTRACTS, tarot_numbers

__all__ = ["TarotStats", "collect_tarot", "report_part", "tarot_key_table"]


@dataclass
class TarotStats:
    """What the report needs from one Tarot run: the summary counts and the taker's score by contract."""

    run: Run
    label: str
    numbers: dict
    score_hist: dict  # contract name -> IntHist of the taker's score
    session: dict | None = None  # a games run: sessions.session_numbers (figures clustered by game)

    def merge(self, other: TarotStats) -> TarotStats:
        """Add the figures of ``other``, the same run's other shards."""
        self.numbers = merge([self.numbers, other.numbers])
        self.score_hist = merge([self.score_hist, other.score_hist])
        if self.session is not None:
            self.session = merge([self.session, other.session])
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
    return TarotStats(run=run, label=label, numbers=tarot_numbers(run, batch_rows=batch_rows), score_hist=hists,
                      session=session_numbers(run, batch_rows=batch_rows) if run.is_games else None)


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
        if s.session is not None:
            _clustered_rows(s, put, conf)
            continue
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


def _clustered_rows(s: TarotStats, put, conf: float) -> None:
    """The key table's rows for a games run: the same figures, each clustered by game (sessions.py)."""
    r, L = s.session, s.label
    d = r["deal"]

    def rate(c):
        return fmt_estimate(c.rate(conf))

    def mean(c, f=lambda e: e):
        e = c.estimate(conf)
        return f"— (n={e.n})" if e.n < 2 else fmt_estimate(f(e), 1)

    put("deals", L, fmt_int(r["deals"]))
    put("void: all passed", L, rate(d["void_all_pass"]))
    put("void: Petit sec", L, rate(d["void_petit_sec"]))
    put("taker wins (every contract)", L, rate(d["won"]))
    put("taker's score (every contract)", L, mean(d["taker_score"]))
    for name in CONTRACTS:
        c = r["contract"][name]
        put(f"{name}: share of played deals", L, rate(c["bid"]))
        put(f"{name}: taker wins", L, rate(c["won"]))
        put(f"{name}: taker's score", L, mean(c["taker_score"]))
        put(f"{name}: taker's card points", L, mean(c["half_points"], halved))
    put("petit au bout (either side)", L, rate(d["petit_au_bout"]))
    put("a poignée shown", L, rate(d["poignee"]))
    put("slam (either side)", L, rate(d["slam"]))
    put("Chelem announced", L, rate(d["chelem"]))


def sessions_key_table(stats: list[TarotStats], conf: float = 0.95) -> pd.DataFrame:
    """Whole games (games runs, columns): games, deals a game, each seat's and each strategy's share of the games
    won outright, ties, the winning margin, and the leader after k deals (k = 1, a quarter, half, three
    quarters of the longest game): one observation a game."""
    rows: dict[str, dict[str, str]] = {}

    def put(metric, label, value):
        rows.setdefault(metric, {})[label] = value

    for s in stats:
        r, L = s.session, s.label
        g = r["games"]
        put("games", L, fmt_int(g))
        put("deals a game", L, fmt_estimate(r["length"].estimate(conf), 1))
        for seat in range(s.run.n_seats):
            put(f"seat {seat} wins the game", L, fmt_rate(int(r["wins"][seat]), g, conf))
        put("tied at the top", L, fmt_rate(r["ties"], g, conf))
        if len(r["by_strategy"]) > 1:
            for x, c in r["by_strategy"].items():
                put(f"{x}: share of its seat-games won", L, fmt_estimate(c.rate(conf)))
        put("winning margin (points over the second)", L, fmt_estimate(r["margin"].estimate(conf), 1))
        table = leader_table(r)
        last = max(x["after_deals"] for x in table)
        for k in sorted({1, max(1, last // 4), max(1, last // 2), max(1, 3 * last // 4)}):
            x = next(x for x in table if x["after_deals"] == k)
            put(f"the leader after {k} deals wins", L, fmt_rate(x["leader_won"], x["one_leader"], conf))
    df = pd.DataFrame.from_dict(rows, orient="index").reindex(columns=[s.label for s in stats]).fillna("—")
    df.index.name = "metric"
    return df.reset_index()


def leader_detail_table(stats: list[TarotStats]) -> pd.DataFrame:
    """The leader after k deals for every k (rows) of every games run (columns)."""
    rows: dict[str, dict[str, str]] = {}
    for s in stats:
        for x in leader_table(s.session):
            rows.setdefault(f"after {x['after_deals']} deals", {})[s.label] = fmt_rate(x["leader_won"],
                                                                                        x["one_leader"])
    df = pd.DataFrame.from_dict(rows, orient="index").reindex(columns=[s.label for s in stats]).fillna("—")
    df.index.name = "the leader wins the game"
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

    games = [s for s in stats if s.session is not None]
    if games:  # whole games: the winner's margin over the second, one panel a games run
        hists = {}
        for s in games:
            margins = s.session["margins"]
            h = hists[s.label] = IntHist(0, max(margins))
            h.add(np.repeat(np.fromiter(margins, np.int64), list(margins.values())))
        fig, axes = charts.figure(len(games), sharey=True, runs=games)
        lo, hi, w = common_bins(list(hists.values()), 40)
        drawn = {}
        for ax, s in zip(axes, games):
            drawn[s.label] = plot_hist(ax, {"games": hists[s.label].rebin(w, lo, hi)},
                                       xlabel=f"winning margin (points over the second; bins of {w})", title=s.label)
            ax.set_xlim(lo - w, hi + w)
        charts.save("tarot_game_margin", fig, "Tarot whole games: the winner's margin over the second", drawn)


def _seats_text(run: Run) -> str:
    labels = run.seat_labels
    return f"all seats {labels[0]}" if len(set(labels)) == 1 else " | ".join(labels)


def report_part(runs: list[tuple[Run, str]], *, batch_rows: int = DEFAULT_BATCH_ROWS, conf: float = 0.95,
                engine: Engine | None = None) -> ReportPart:
    """The Tarot runs' share of the report: ``runs`` are (run, label) pairs."""
    stats = [collect_tarot(r, label, batch_rows, engine=engine) for r, label in runs]
    games = [s for s in stats if s.session is not None]
    method = ["Tarot runs: one observation per deal (deals are independent)."]
    key = [Section("tarot", "Tarot key results", tarot_key_table(stats, conf),
                   html_note="One observation per deal (deals are independent); the taker's score is 3t, each "
                             "defender's -t.",
                   md_note="One observation per deal (deals are independent).")]
    detail = []
    if games:
        method = ["Tarot runs: one observation per deal (deals mode), the deals of a game clustered (games mode: "
                  "intervals with the game as the unit); whole games: one observation a game."]
        key[0] = Section("tarot", "Tarot key results", tarot_key_table(stats, conf),
                         html_note="Deals runs: one observation per deal; games runs: intervals clustered by game. "
                                   "The taker's score is 3t, each defender's -t.",
                         md_note="Deals runs: one observation per deal; games runs: intervals clustered by game.")
        key.append(Section("tarot_sessions", "Tarot whole games", sessions_key_table(games, conf),
                           html_note="One observation a game; a tie at the top is no seat's win.",
                           md_note="One observation a game; a tie at the top is no seat's win."))
        detail.append(Section("tarot_leader", "Tarot: how often the leader after k deals wins the game",
                              leader_detail_table(games),
                              md_note="Games with one seat at the highest total after k deals (n); Wilson 95 %."))
    return ReportPart(
        stats=stats, captions=tarot_caption(stats).splitlines(),
        cells=[{"seats": _seats_text(s.run), "deals": fmt_int(s.numbers["deals"]),
                **({"games": fmt_int(s.session["games"])} if s.session is not None else {})} for s in stats],
        method=method, key=key, notes=[], detail=detail, draw=partial(_draw_tarot_charts, stats))
