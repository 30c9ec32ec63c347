"""What-if Nil: how often would a Nil have made on hands where the seat did *not* bid Nil?

The study (``tricksim nil RUN --what-if N``) has three steps; only the
first and last live here, because the middle one needs the simulator:

1. :func:`sample_non_nil` draws ``N`` seat-hands uniformly, without
   replacement, among the seat-hands of a hands-mode run whose bid was not
   0 (numpy ``Generator`` seeded with ``seed``), and records for each its
   hand id, seat, dealt cards and ``--by`` group (from the original hand,
   as dealt by default or held after the exchange, as :mod:`tricksim.analysis.games.spades.nil` does).
2. The caller (``simulator/cli.py``) replays those hands on the same deals
   with that seat's strategy given ``force_nil=1``; hand ``i`` of a
   hands-mode run depends only on (seed, i), so the replay sees the same
   cards. Partner and opponents react to the Nil as their strategy does.
3. :func:`forced_outcomes` checks that each replay dealt the seat the same
   cards and reads whether it bid Nil and took no trick;
   :func:`what_if_table` turns that into success rates with 95 % Wilson
   intervals, overall and by group, next to the success rate of the seats
   that bid Nil on their own in the run (:func:`tricksim.analysis.games.spades.nil.nil_study`).

Reading is streamed: two passes over the bid columns (count, then pick),
so memory holds only the sample whatever the run size.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from tricksim.simulator.errors import option

from ...io import DEFAULT_BATCH_ROWS, AnalysisError, Run, batch_arrays, open_run
from ...plots import rate_bars, save_figure
from ...stats import ClusterRatio, fmt_int, fmt_rate_interval, wilson_interval
from .nil import (
    FEATURES,
    HAND_FEATURES,
    HAND_TEXT,
    HANDS,
    display_names,
    group_label,
    needed_columns,
    nil_study,
    save_table,
    seat_keys,
)
from .outcomes import deck_of, rule

__all__ = [
    "WhatIfSample",
    "forced_outcomes",
    "format_what_if",
    "plot_what_if",
    "sample_non_nil",
    "save_what_if_chart",
    "what_if_report",
    "what_if_table",
]

_BIDS = [f"bid_{s}" for s in range(4)]


@dataclass
class WhatIfSample:
    """Seat-hands drawn for a what-if replay, in hand order.

    ``game_id``, ``seat``, ``dealt`` (the seat's dealt cards) and ``code``
    (group code of ``by``) are aligned arrays; ``labels`` maps codes to labels.
    """

    run: Run
    by: str | None
    hand: str
    seed: int
    requested: int
    eligible: int        # seat-hands whose bid was not Nil
    seat_hands: int      # all seat-hands of the run (4 per hand)
    game_id: np.ndarray
    seat: np.ndarray
    dealt: np.ndarray
    code: np.ndarray
    labels: dict = field(default_factory=dict)

    @property
    def size(self) -> int:
        return int(self.game_id.size)

    def seats(self) -> list[int]:
        """Seats with at least one sampled hand."""
        return [int(s) for s in np.unique(self.seat)]

    def ids_for_seat(self, seat: int) -> np.ndarray:
        """Sorted hand ids sampled for ``seat`` (what to replay with that seat forced to Nil)."""
        return np.sort(self.game_id[self.seat == seat])


def what_if() -> str:
    """The study as the caller names it: ``--what-if`` on the command line, ``nil_what_if`` in Python."""
    return option("what_if", api="nil_what_if")


def check_run(run: Run) -> None:
    """Raise :class:`AnalysisError` unless ``run`` can be replayed hand by hand with forced Nils."""
    if run.is_games:
        raise AnalysisError(f"{run.path}: {what_if()} needs a hands-mode run (simulate {option('hands', 'N')}): in a "
                            "games-mode run a hand depends on the score so far, so it cannot be replayed on its own")
    if not rule(run.rules, "nil"):
        raise AnalysisError(f"{run.path}: {what_if()} needs a run whose rules allow Nil (nil=false here)")


def sample_non_nil(run, n: int, *, seed: int = 0, by: str | None = None, hand: str = "dealt",
                   score_margin: int = 100, batch_rows: int = DEFAULT_BATCH_ROWS) -> WhatIfSample:
    """Draw ``min(n, eligible)`` seat-hands uniformly among those whose bid was not Nil.

    The draw is over the run's seat-hands in file order (hand, then seat), so
    it depends only on the run, ``n`` and ``seed`` — not on ``batch_rows``.
    """
    run = open_run(run)
    check_run(run)
    if by is not None and by not in FEATURES:
        raise AnalysisError(f"unknown grouping {by!r}: allowed {', '.join(FEATURES)}")
    if hand not in HANDS:
        raise AnalysisError(f"unknown hand {hand!r}: allowed {' | '.join(HANDS)}")
    if n < 1:
        raise AnalysisError(f"sample size must be at least 1, got {n}")
    # pass 1: count the eligible seat-hands
    eligible = rows = 0
    for batch in run.iter_hands(_BIDS, batch_rows):
        a = batch_arrays(batch, _BIDS)
        eligible += int(sum(int((a[c] != 0).sum()) for c in _BIDS))
        rows += batch.num_rows
    if eligible == 0:
        raise AnalysisError(f"{run.path}: every seat bid Nil in every hand: nothing to replay")
    k = min(int(n), eligible)
    picks = np.sort(np.random.default_rng(seed).choice(eligible, size=k, replace=False))

    # pass 2: locate the picked ordinals and read what the replay and the grouping need
    cols = ["game_id"] + [f"dealt_{s}" for s in range(4)]
    cols += [c for c in needed_columns(run, by, hand) if c not in cols]
    names: dict[str, int] = {}  # run-level group labels (preset, strategy, run) -> code
    gid, seat, dealt, code = [], [], [], []
    off = 0
    for batch in run.iter_hands(cols, batch_rows):
        a = batch_arrays(batch, cols)
        elig = np.stack([a[c] != 0 for c in _BIDS], axis=1).ravel()   # row-major: hand, then seat
        c = int(elig.sum())
        lo, hi = np.searchsorted(picks, [off, off + c])
        off += c
        if lo == hi:
            continue
        flat = np.flatnonzero(elig)[picks[lo:hi] - (off - c)]
        r, s = flat // 4, flat % 4
        for seat_no in np.unique(s):
            m = s == seat_no
            sub = {name: v[r[m]] for name, v in a.items()}
            codes = seat_keys(sub, run, int(seat_no), by, hand, score_margin)
            if isinstance(codes, str):
                codes = names.setdefault(codes, len(names))
            part_code = np.broadcast_to(np.asarray(codes, dtype=np.int64), (int(m.sum()),))
            gid.append(sub["game_id"].astype(np.int64))
            seat.append(np.full(int(m.sum()), seat_no, np.int8))
            dealt.append(sub[f"dealt_{seat_no}"].astype(np.int64))
            code.append(part_code.copy())
    if off != eligible:
        raise AnalysisError(f"{run.path}: the hands files changed while being read")
    gid, seat, dealt, code = (np.concatenate(x) for x in (gid, seat, dealt, code))
    order = np.lexsort((seat, gid))
    used = {int(c) for c in np.unique(code)}
    shown = display_names([run], by)  # --by strategy: the seats' labels, as the Nil study names them
    return WhatIfSample(run=run, by=by, hand=hand, seed=int(seed), requested=int(n), eligible=eligible,
                        seat_hands=4 * rows, game_id=gid[order], seat=seat[order], dealt=dealt[order],
                        code=code[order],
                        labels={c: group_label(by, c, score_margin, (deck_of(run.rules),)) for c in used}
                        if not names else
                        {c: shown.get(label, label) for label, c in names.items() if c in used})


def forced_outcomes(sample: WhatIfSample, replays: Mapping[int, object]) -> tuple[np.ndarray, np.ndarray]:
    """(bid Nil, made Nil) per sampled seat-hand from the replayed hands tables.

    ``replays[s]`` is a hands table (pyarrow or pandas) holding at least the
    hands ``sample.ids_for_seat(s)``, replayed with seat ``s`` forced to Nil.
    Raises :class:`AnalysisError` when a hand is missing or its deal differs
    from the run's (a replay by another tricksim version, say).
    """
    bid0 = np.zeros(sample.size, bool)
    made = np.zeros(sample.size, bool)
    for s in sample.seats():
        if s not in replays:
            raise AnalysisError(f"no replay for seat {s}")
        idx = np.flatnonzero(sample.seat == s)
        a = batch_arrays(replays[s], ["game_id", f"bid_{s}", f"tricks_{s}", f"dealt_{s}"])
        order = np.argsort(a["game_id"], kind="stable")
        ids = a["game_id"][order]
        pos = np.minimum(np.searchsorted(ids, sample.game_id[idx]), max(ids.size - 1, 0))
        if ids.size == 0 or (ids[pos] != sample.game_id[idx]).any():
            raise AnalysisError(f"the replay of seat {s} lacks some of the sampled hands")
        r = order[pos]
        if (a[f"dealt_{s}"][r] != sample.dealt[idx]).any():
            bad = int(sample.game_id[idx][a[f"dealt_{s}"][r] != sample.dealt[idx]][0])
            raise AnalysisError(f"{sample.run.path}: the replay dealt seat {s} other cards than the run in hand {bad} "
                                "(was the run made by another tricksim version?)")
        bid0[idx] = a[f"bid_{s}"][r] == 0
        made[idx] = bid0[idx] & (a[f"tricks_{s}"][r] == 0)
    return bid0, made


def what_if_table(sample: WhatIfSample, bid0, made, actual: pd.DataFrame | None = None,
                  conf: float = 0.95, overall: pd.DataFrame | None = None) -> pd.DataFrame:
    """Forced-Nil success rates, overall (group ``all``) and by ``sample.by``, beside the actual Nil bidders'.

    ``actual`` is a :func:`tricksim.analysis.games.spades.nil.nil_study` table of the same run and
    grouping (its ``Nil`` rows are used, with their intervals; Blind Nils are left out); ``overall`` the
    same study without grouping, for the ``all`` row (``actual`` itself when there is no grouping; without
    either, the Wilson interval of the summed counts). Columns:
    ``group`` (``all`` first, then the groups), ``code`` (sort key; empty for ``all``), ``sampled``, ``forced`` (replays where the seat did
    bid Nil), ``successes``, ``rate``, ``lo``, ``hi``, ``nil_bids``,
    ``nil_successes``, ``nil_rate``, ``nil_lo``, ``nil_hi``. The success
    rate is ``successes / forced``.
    """
    bid0 = np.asarray(bid0, bool)
    made = np.asarray(made, bool)
    if bid0.shape != (sample.size,) or made.shape != (sample.size,):
        raise AnalysisError(f"outcome arrays must have one entry per sampled seat-hand ({sample.size})")
    act = {}
    if actual is not None and len(actual):
        a = actual[actual["kind"] == "Nil"]
        act = {str(g): (int(b), int(k), int(c), float(lo), float(hi))
               for g, b, k, c, lo, hi in zip(a["group"], a["bids"], a["successes"], a["code"], a["lo"], a["hi"])}

    def row(group, code, m):
        b, k, _, lo, hi = act.get(group, (0, 0, 0, np.nan, np.nan))
        # forced successes over forced Nils, clustered by hand (seats of one deal replayed are not independent)
        e = ClusterRatio().update(sample.game_id[m], made[m], bid0[m]).rate(conf)
        return {"group": group, "code": code, "sampled": int(m.sum()), "forced": int(bid0[m].sum()),
                "successes": int(made[m].sum()), "lo": e.lo, "hi": e.hi, "nil_bids": b, "nil_successes": k,
                "nil_lo": lo, "nil_hi": hi}

    rows = []
    if sample.by is not None:
        codes = sorted(set(np.unique(sample.code).tolist()))
        seen = set()
        for c in codes:
            label = sample.labels[c]
            seen.add(label)
            rows.append(row(label, c, sample.code == c))
        for label, (b, k, c, _, _) in act.items():   # groups with Nil bids but nothing sampled
            if label not in seen and b:
                rows.append(row(label, c, np.zeros(sample.size, bool)))
        rows.sort(key=lambda r: r["code"])
    all_b = sum(v[0] for v in act.values())
    all_k = sum(v[1] for v in act.values())
    if overall is None and sample.by is None:
        overall = actual
    first = row("all", None, np.ones(sample.size, bool))
    first.update(nil_bids=all_b, nil_successes=all_k, **_overall_actual(overall, all_b, all_k, conf))
    df = pd.DataFrame([first] + rows)
    df["code"] = df["code"].astype("Int64")   # <NA> on the overall row
    with np.errstate(divide="ignore", invalid="ignore"):
        df["rate"] = np.where(df["forced"] > 0, df["successes"] / df["forced"].clip(lower=1), np.nan)
        df["nil_rate"] = np.where(df["nil_bids"] > 0, df["nil_successes"] / df["nil_bids"].clip(lower=1), np.nan)
    df = df[["group", "code", "sampled", "forced", "successes", "rate", "lo", "hi",
             "nil_bids", "nil_successes", "nil_rate", "nil_lo", "nil_hi"]]
    df.attrs.update(by=sample.by, hand=sample.hand, run=str(sample.run.path), conf=conf, seed=sample.seed,
                    requested=sample.requested, actual_method=(actual.attrs.get("method") if actual is not None
                                                               else None),
                    sampled=sample.size, eligible=sample.eligible, seat_hands=sample.seat_hands,
                    not_forced=int(sample.size - bid0.sum()))
    return df


def _overall_actual(overall: pd.DataFrame | None, bids: int, successes: int, conf: float) -> dict:
    """The interval of the actual Nil bidders' overall success: the ungrouped study's (clustered), else the
    Wilson interval of the counts."""
    if overall is not None and len(overall):
        r = overall[overall["kind"] == "Nil"]
        if len(r) == 1 and int(r["bids"].iloc[0]) == bids:
            return {"nil_lo": float(r["lo"].iloc[0]), "nil_hi": float(r["hi"].iloc[0])}
    lo, hi = wilson_interval(successes, bids, conf)
    return {"nil_lo": lo, "nil_hi": hi}


def format_what_if(df: pd.DataFrame) -> str:
    """Plain-text report of a :func:`what_if_table`: method, sample size, and each rate with interval and n."""
    at = df.attrs
    conf = at.get("conf", 0.95)
    pct = round(conf * 100)
    lines = [
        (f"What-if Nil: seat-hands that did not bid Nil, replayed on the same deal with the seat forced to Nil "
        f"({pct} % Wilson intervals clustered by hand)"),
        (f"sampled {fmt_int(at['sampled'])} of {fmt_int(at['eligible'])} eligible seat-hands (bid not Nil; "
        f"{fmt_int(at['seat_hands'])} seat-hands in the run), uniformly without replacement, seed {at['seed']}"),
        ("success = the forced Nil bidder took no trick in the replay; partner and opponents play their own "
        "strategies and react to the Nil"),
    ]
    if at.get("not_forced"):
        lines.append(f"{fmt_int(at['not_forced'])} sampled seat-hands could not bid Nil in the replay and are left out")
    by = at.get("by")
    if by in HAND_FEATURES:
        lines.append(f"groups by the hand {HAND_TEXT[at.get('hand', 'dealt')]}")
    labels = ["all"] + (["  " + str(g) for g in df["group"][1:]] if by is not None else [])
    gw = max(len("group"), *(len(g) for g in labels))
    lines.append(f"{'group':<{gw}}  {'forced Nil success':<34} actual Nil bidders' success")
    for i, (label, r) in enumerate(zip(labels, df.itertuples())):
        if i == 1:
            lines.append(f"by {by.replace('_', ' ')}:")
        forced = fmt_rate_interval(r.rate, r.lo, r.hi, r.forced)
        lines.append(f"{label:<{gw}}  {forced:<34} {fmt_rate_interval(r.nil_rate, r.nil_lo, r.nil_hi, r.nil_bids)}")
    return "\n".join(lines)


def plot_what_if(ax, df: pd.DataFrame, *, title: str | None = None) -> pd.DataFrame:
    """Bars of forced-Nil vs actual Nil success per group, with their (clustered Wilson) error bars, onto ``ax``.

    Draws the group rows (the ``all`` row when there is no grouping).
    Returns the rows drawn with bar positions ``x_forced`` and ``x_actual``.
    """
    by = df.attrs.get("by")
    d = (df[df["group"] != "all"] if by is not None else df).copy()
    x = np.arange(len(d), dtype=float)
    w = 0.4
    d["x_forced"], d["x_actual"] = x - w / 2, x + w / 2
    for (col_k, col_n, lo, hi, rate, xs, label) in (
            ("successes", "forced", "lo", "hi", "rate", d["x_forced"], "forced Nil (replayed)"),
            ("nil_successes", "nil_bids", "nil_lo", "nil_hi", "nil_rate", d["x_actual"], "actual Nil bidders")):
        m = (d[col_n] > 0).to_numpy()
        sub = d[m]
        rate_bars(ax, xs[m], sub[rate], sub[lo], sub[hi], sub[col_n], width=w,
                  label=f"{label} (n={fmt_int(sub[col_n].sum())})")
    ax.set_xticks(x)
    ax.set_xticklabels([str(g) for g in d["group"]])
    xlabel = by.replace("_", " ") if by else ""
    if by in HAND_FEATURES:
        xlabel += f" (hand {'as dealt' if df.attrs.get('hand', 'dealt') == 'dealt' else 'held after the exchange'})"
    ax.set_xlabel(xlabel)
    ax.set_ylabel("Nil success rate (%), 95 % Wilson\nclustered by hand")
    ax.set_ylim(0, 130)
    ax.set_yticks(range(0, 101, 20))
    ax.set_title(title or ("What-if Nil: forced vs actual Nil success" + (f" by {by.replace('_', ' ')}" if by else "")))
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, fontsize=8, frameon=False)
    return d


def save_what_if_chart(df: pd.DataFrame, path, *, title: str | None = None) -> Path:
    """Draw :func:`plot_what_if` into a new figure and save it (.png, .svg or .pdf)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(max(6.0, 0.8 * len(df) + 2), 4.5), layout="constrained")
    plot_what_if(fig.add_subplot(), df, title=title)
    at = df.attrs
    fig.supxlabel(f"run: {Path(at.get('run', '')).name}; sampled {fmt_int(at.get('sampled', 0))} of "
                  f"{fmt_int(at.get('eligible', 0))} non-Nil seat-hands, seed {at.get('seed')}", fontsize=7)
    return save_figure(fig, path)


def what_if_report(sample: WhatIfSample, replays: Mapping[int, object], *, save=None, chart=None,
                   score_margin: int = 100, batch_rows: int = DEFAULT_BATCH_ROWS) -> str:
    """Text of ``tricksim nil RUN --what-if N``: outcomes, table vs the run's own Nil bidders, files written."""
    bid0, made = forced_outcomes(sample, replays)
    actual = nil_study(sample.run, sample.by, hand=sample.hand, score_margin=score_margin, batch_rows=batch_rows)
    overall = nil_study(sample.run, batch_rows=batch_rows) if sample.by is not None else actual
    df = what_if_table(sample, bid0, made, actual, overall=overall)
    lines = [format_what_if(df)]
    if save:
        lines.append(f"table written to {save_table(df, save)}")
    if chart:
        lines.append(f"chart written to {save_what_if_chart(df, chart)}")
    return "\n".join(lines)
